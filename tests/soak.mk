# soak: output failures of a running stream (disk full, closed pipe, slow
# reader) and the long run under random faults; the counted
# soak's short runs on every path at 10 ms and 1 ms (tests/soak.test,
# parametrised by tests/soak-PATH-INTERVAL.test).
SOAK_SHORT_TESTS = tests/soak-sim-10ms.test tests/soak-sim-1ms.test tests/soak-rbb-10ms.test \
	tests/soak-openocd-10ms.test tests/soak-openocd-1ms.test tests/soak-ftdi-10ms.test \
	tests/soak-ftdi-1ms.test
TESTS += tests/sinkfault.test tests/soak.test $(SOAK_SHORT_TESTS)
EXTRA_DIST += tests/sinkfault.test tests/soak.test tests/soak-faults.py tests/soak-check.py \
	$(SOAK_SHORT_TESTS)

# `make soak`: the soak for 10 minutes (PMUPROBE_SOAK_SECONDS overrides,
# PMUPROBE_SOAK_SEED replays a schedule).
.PHONY: soak
soak: all
	PMUPROBE_SOAK_SECONDS=$${PMUPROBE_SOAK_SECONDS:-600} \
	    $(MAKE) $(AM_MAKEFLAGS) check TESTS=tests/soak.test

# soak: output failures of a running stream (disk full, closed pipe, slow
# reader) and the long run under random faults (issue 9).
TESTS += tests/sinkfault.test tests/soak.test
EXTRA_DIST += tests/sinkfault.test tests/soak.test tests/soak-faults.py tests/soak-check.py

# `make soak`: the soak for 10 minutes (PMUPROBE_SOAK_SECONDS overrides,
# PMUPROBE_SOAK_SEED replays a schedule).
.PHONY: soak
soak: all
	PMUPROBE_SOAK_SECONDS=$${PMUPROBE_SOAK_SECONDS:-600} \
	    $(MAKE) $(AM_MAKEFLAGS) check TESTS=tests/soak.test

# tests of the openocd access path and pmu.tcl (see tests/local.mk).
# check_ocd starts $OPENOCD itself (dummy adapter, TCL server only); the
# .test scripts run OpenOCD over remote_bitbang against pmuprobe-sim.
check_PROGRAMS += tests/check_ocd
tests_check_ocd_SOURCES = tests/check_ocd.c
tests_check_ocd_CFLAGS = $(TEST_CFLAGS)
tests_check_ocd_LDADD = $(TEST_LIBS)
TESTS += tests/openocd-path.test
EXTRA_DIST += tests/openocd-path.test
# ocd_bench: samples/s and RPC round trips per sample, three ways
# (tests/openocd-bench.test runs it against OpenOCD and pmuprobe-sim).
noinst_PROGRAMS += tests/ocd_bench
tests_ocd_bench_SOURCES = tests/ocd_bench.c tests/simctl.c tests/simctl.h
tests_ocd_bench_LDADD = lib/libpmuprobe-internal.la
TESTS += tests/openocd-pmutcl.test
EXTRA_DIST += tests/openocd-pmutcl.test
TESTS += tests/openocd-bench.test
EXTRA_DIST += tests/openocd-bench.test
# OpenOCD commands per sample of the 4 x 7 plan, over OpenOCD's ftdi driver.
TESTS += tests/openocd-commands.test
EXTRA_DIST += tests/openocd-commands.test
# OpenOCD's stock zynq_7000.cfg / imx6.cfg (no mem_ap): the apreg mode.
TESTS += tests/openocd-stock.test
EXTRA_DIST += tests/openocd-stock.test

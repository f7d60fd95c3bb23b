# bench/local.mk: make bench (bench helper)
#
# `make bench` measures every access path and the capture pipeline side by
# side (bench/run, bench/README.md).  pp-bench is one measurement; the
# driver needs pmuprobe-sim, OpenOCD's ocd_bench baseline and the FTDI
# USB emulator (a check library) as well.
noinst_PROGRAMS += bench/pp-bench
bench_pp_bench_SOURCES = bench/pp-bench.c
bench_pp_bench_LDADD = lib/libpmuprobe-internal.la

EXTRA_DIST += bench/run bench/README.md bench/a76x16.target

# BENCH_ARGS: e.g. BENCH_ARGS="--rounds 3 --quick" (bench/run --help).
bench: all $(check_LTLIBRARIES) bench/pp-bench
	$(PYTHON3) $(srcdir)/bench/run --srcdir '$(abs_top_srcdir)' \
	    --builddir '$(abs_top_builddir)' --openocd '$(OPENOCD)' $(BENCH_ARGS)
.PHONY: bench

# The smoke test: pp-bench runs a tiny in-process capture and its line
# parses (no assertion on rates).
TESTS += tests/bench.test
EXTRA_DIST += tests/bench.test

# bench/local.mk: make bench (bench helper)
#
# `make bench` measures every access path and the capture pipeline side by
# side (bench/run, bench/README.md).  pp-bench is one measurement; the
# driver needs pmuprobe-sim, OpenOCD's ocd_bench baseline and the FTDI
# USB emulator (a check library) as well.
noinst_PROGRAMS += bench/pp-bench
bench_pp_bench_SOURCES = bench/pp-bench.c tests/simctl.c tests/simctl.h
bench_pp_bench_LDADD = lib/libpmuprobe-internal.la

EXTRA_DIST += bench/run bench/py-bench bench/README.md bench/a76x16.target bench/benchfig.py \
	bench/readme-tables bench/last.json

# BENCH_ARGS: e.g. BENCH_ARGS="--rounds 9 --seconds 1" (bench/run --help).
# The run's result goes to bench/last.json here; only a run whose counts
# agreed everywhere writes it.  Then README.md's figures are rewritten
# from it (make readme-figures): no figure there is typed by hand.
bench: all $(check_LTLIBRARIES) bench/pp-bench
	$(PYTHON3) $(srcdir)/bench/run --srcdir '$(abs_top_srcdir)' \
	    --builddir '$(abs_top_builddir)' --openocd '$(OPENOCD)' \
	    --json bench/last.json $(BENCH_ARGS)
	$(MAKE) $(AM_MAKEFLAGS) readme-figures BENCH_JSON=bench/last.json

# readme-figures: README.md's generated regions from BENCH_JSON (by
# default the committed bench/last.json), which becomes the committed one.
BENCH_JSON = $(srcdir)/bench/last.json
readme-figures:
	$(PYTHON3) $(srcdir)/bench/readme-tables '$(BENCH_JSON)' '$(srcdir)/README.md'
	if ! test '$(BENCH_JSON)' -ef '$(srcdir)/bench/last.json'; then \
	    cp '$(BENCH_JSON)' '$(srcdir)/bench/last.json'; fi
.PHONY: bench readme-figures

# Every bench run leaves its raw results beside the build; they are
# outputs, so distclean takes them (distcheck's distcleancheck fails on
# a file left behind).
DISTCLEANFILES += bench/results-*.json

# The smoke test: pp-bench runs a tiny in-process capture and its line
# parses (no assertion on rates).  readme-figures.test: README.md's bench
# figures are exactly what bench/last.json renders.
TESTS += tests/bench.test tests/readme-figures.test
EXTRA_DIST += tests/bench.test tests/readme-figures.test
# plan.test: the capture's sample plans pinned by TCK and scans per sample
# (pp-bench on the simulated TAP); docs/sample-plan.md shows them.
TESTS += tests/plan.test
EXTRA_DIST += tests/plan.test docs/sample-plan.md

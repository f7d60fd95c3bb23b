# tests/plot.mk: tests of pmuprobe plot (plot helper): the library
# (check_plot: selection, model, axes, rendering) and the command on a
# capture streamed from pmuprobe-sim with a core powered off mid-way
# (plot.test).
check_PROGRAMS += tests/check_plot
tests_check_plot_SOURCES = tests/check_plot.c tests/fixture.c tests/fixture.h
tests_check_plot_CFLAGS = $(TEST_CFLAGS)
tests_check_plot_LDADD = lib/libpmuprobe-plot.la $(TEST_LIBS)
TESTS += tests/plot.test
EXTRA_DIST += tests/plot.test

# src/cli/plot.mk: pmuprobe plot (plot helper): the model, axes and cairo
# renderer in lib/plot/ and the command.  lib/plot is a convenience
# library of its own, linked by the CLI and its tests only, so the
# installed libpmuprobe does not pull in cairo.
noinst_LTLIBRARIES += lib/libpmuprobe-plot.la
lib_libpmuprobe_plot_la_SOURCES = lib/plot/plot.h lib/plot/select.c lib/plot/model.c \
	lib/plot/axis.c lib/plot/render.c
lib_libpmuprobe_plot_la_CFLAGS = $(AM_CFLAGS) $(CAIRO_CFLAGS)
lib_libpmuprobe_plot_la_LIBADD = $(CAIRO_LIBS) -lm
src_pmuprobe_SOURCES += src/cli/cmd_plot.c
# lib/plot calls into the internal library, so it is listed before it
# again (static archives resolve left to right).
src_pmuprobe_LDADD += lib/libpmuprobe-plot.la lib/libpmuprobe-internal.la

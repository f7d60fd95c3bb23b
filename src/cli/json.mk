# src/cli/json.mk: --json output (src/cli/json.c, used by scan, status, read and
# events), the hidden completion interface (src/cli/cmd_complete.c) and
# --version (src/cli/version.c: built with the libraries' CFLAGS, so it is a
# convenience library of its own); the bash completion file.
src_pmuprobe_SOURCES += src/cli/json.h src/cli/json.c src/cli/cmd_complete.h src/cli/cmd_complete.c
noinst_LTLIBRARIES += src/libpmuprobe-version.la
src_libpmuprobe_version_la_SOURCES = src/cli/version.c
src_libpmuprobe_version_la_CFLAGS = $(AM_CFLAGS) $(LIBFTDI_CFLAGS) $(LIBUSB_CFLAGS) $(CAIRO_CFLAGS)
src_libpmuprobe_version_la_LIBADD = $(LIBFTDI_LIBS) $(LIBUSB_LIBS) $(CAIRO_LIBS) $(NCURSES_LIBS)
src_pmuprobe_LDADD += src/libpmuprobe-version.la
bashcompletion_DATA = completion/pmuprobe
EXTRA_DIST += completion/pmuprobe

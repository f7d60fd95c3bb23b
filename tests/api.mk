# api: the public library as another program sees it .
# examples/sample is built against the shared lib/libpmuprobe.la, not the
# convenience library, so it can only reach what libpmuprobe.sym exports.
noinst_PROGRAMS += examples/sample examples/capture
examples_sample_SOURCES = examples/sample.c
examples_sample_LDADD = lib/libpmuprobe.la
examples_capture_SOURCES = examples/capture.c
examples_capture_LDADD = lib/libpmuprobe.la
TESTS += tests/api.test tests/api-capture.test
EXTRA_DIST += tests/api.test tests/api-capture.test tests/api-capture-out.sh

exampledir = $(docdir)/examples
dist_example_DATA = examples/sample.c examples/capture.c

# Against the installed tree: what a user's build does, pkg-config and
# all.  make distcheck runs this after its install (sanitized: SAN_CFLAGS).
installcheck-local: installcheck-api
installcheck-api:
	@set -e; tmp=$$(mktemp -d); trap 'rm -rf "$$tmp"' EXIT; \
	PKG_CONFIG_PATH='$(DESTDIR)$(libdir)/pkgconfig'; export PKG_CONFIG_PATH; \
	flags=$$($(PKG_CONFIG) --define-variable=prefix='$(DESTDIR)$(prefix)' \
		--cflags --libs libpmuprobe); \
	echo "  CC       sample (installed: $$flags)"; \
	$(CC) $(SAN_CFLAGS) -o "$$tmp/sample" '$(DESTDIR)$(docdir)/examples/sample.c' $$flags; \
	LD_LIBRARY_PATH='$(DESTDIR)$(libdir)' PMUPROBE_TARGETS='$(DESTDIR)$(pkgdatadir)/targets' \
		"$$tmp/sample" > "$$tmp/out"; \
	grep -q '^cpu0 ' "$$tmp/out"; grep -q '^9 ' "$$tmp/out"; \
	echo "PASS: installed example"; \
	echo "  CC       capture (installed)"; \
	$(CC) $(SAN_CFLAGS) -o "$$tmp/capture" '$(DESTDIR)$(docdir)/examples/capture.c' $$flags; \
	LD_LIBRARY_PATH='$(DESTDIR)$(libdir)' PMUPROBE_TARGETS='$(DESTDIR)$(pkgdatadir)/targets' \
		"$$tmp/capture" > "$$tmp/out"; \
	$(SHELL) '$(srcdir)/tests/api-capture-out.sh' "$$tmp/out"; \
	echo "PASS: installed capture example"
.PHONY: installcheck-api

check_PROGRAMS += tests/check_api
tests_check_api_SOURCES = tests/check_api.c
tests_check_api_CFLAGS = $(TEST_CFLAGS)
tests_check_api_LDADD = lib/libpmuprobe.la $(CHECK_LIBS)

check_PROGRAMS += tests/check_pubapi
tests_check_pubapi_SOURCES = tests/check_pubapi.c
tests_check_pubapi_CFLAGS = $(TEST_CFLAGS)
tests_check_pubapi_LDADD = lib/libpmuprobe.la $(CHECK_LIBS)

check_PROGRAMS += tests/check_api_capture
tests_check_api_capture_SOURCES = tests/check_api_capture.c
tests_check_api_capture_CFLAGS = $(TEST_CFLAGS)
tests_check_api_capture_LDADD = lib/libpmuprobe.la $(CHECK_LIBS)
# pp_session_open on every access path, with its options (tests/api.test:
# openocd against a real OpenOCD, ftdi over the USB emulator), through the
# shared library only.
noinst_PROGRAMS += tests/api_open
tests_api_open_SOURCES = tests/api_open.c
tests_api_open_CFLAGS = $(AM_CFLAGS)
tests_api_open_LDADD = lib/libpmuprobe.la

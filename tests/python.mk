# python: the pmuprobe Python package (python/, docs/python.md), its pytest
# suites against the build tree's library, and against the installed tree.
TESTS += tests/python.test
EXTRA_DIST += tests/python.test tests/python/conftest.py tests/python/test_session.py \
	tests/python/test_plugin.py tests/python/test_capture.py \
	tests/python/test_gaps.py tests/python/test_status.py \
	tests/python/test_layout.py tests/python/installcheck.py
# The package is generated before the tests need it.
tests/python.log: python/pmuprobe/_build.py

# From the installed tree: the package as installed (PYTHONPATH the
# installed pythondir, the library from the configured libdir, or from
# DESTDIR's), capturing counters of pmuprobe-sim over rbb and running the
# plugin's fixture into a JUnit XML file, which is checked.
installcheck-local: installcheck-python
installcheck-python:
	@set -e; tmp=$$(mktemp -d); sim=""; \
	trap '[ -z "$$sim" ] || kill $$sim; rm -rf "$$tmp"' EXIT; \
	PYTHONPATH='$(DESTDIR)$(pythondir)'; PYTHONDONTWRITEBYTECODE=1; \
	PMUPROBE_TARGETS='$(DESTDIR)$(pkgdatadir)/targets'; \
	export PYTHONPATH PYTHONDONTWRITEBYTECODE PMUPROBE_TARGETS; \
	if [ -n '$(DESTDIR)' ]; then PMUPROBE_LIB='$(DESTDIR)$(libdir)/$(PP_SONAME)'; \
		export PMUPROBE_LIB; fi; \
	'$(DESTDIR)$(bindir)/pmuprobe-sim' -t a76-cluster --sim-time realtime --unix "$$tmp/sock" \
		</dev/null >"$$tmp/sim.log" 2>&1 & sim=$$!; \
	for i in $$(seq 300); do grep -q 'listening on' "$$tmp/sim.log" && break; sleep 0.1; done; \
	PROBE="rbb:unix:$$tmp/sock"; export PROBE; \
	if [ -n '$(SAN_PRELOAD)' ]; then LD_PRELOAD='$(SAN_PRELOAD)'; ASAN_OPTIONS=detect_leaks=0; \
		export LD_PRELOAD ASAN_OPTIONS; fi; \
	$(PYTHON3) '$(srcdir)/tests/python/installcheck.py' "$$tmp"; \
	echo "PASS: installed Python package"
.PHONY: installcheck-python

# The Python package "pmuprobe" (docs/python.md): pure Python over cffi in
# ABI mode, installed into the configured python3's pythondir next to the
# library.  Its one generated module, _build.py, holds the cffi
# declarations made from lib/pmuprobe.h by the preprocessor (so struct
# layouts are written once, in the header) and the libdir the package
# loads libpmuprobe.so.0 from.  The soname is -version-info's
# CURRENT - AGE (Makefile.am).
PP_SONAME = libpmuprobe.so.0
pkgpython_PYTHON = python/pmuprobe/__init__.py python/pmuprobe/_ffi.py \
	python/pmuprobe/_util.py python/pmuprobe/errors.py python/pmuprobe/session.py \
	python/pmuprobe/capture.py python/pmuprobe/pytest_plugin.py
nodist_pkgpython_PYTHON = python/pmuprobe/_build.py
noinst_DATA = python/pmuprobe/_build.py
EXTRA_DIST += python/gencdef.py docs/python.md
CLEANFILES += python/pmuprobe/_build.py

python/pmuprobe/_build.py: $(srcdir)/python/gencdef.py $(srcdir)/lib/pmuprobe.h Makefile
	$(AM_V_GEN)$(MKDIR_P) python/pmuprobe && \
	$(PYTHON3) $(srcdir)/python/gencdef.py --cpp '$(CPP)' --libdir '$(libdir)' \
		--soname '$(PP_SONAME)' --version '$(VERSION)' $(srcdir)/lib/pmuprobe.h $@.tmp && \
	mv $@.tmp $@

include $(srcdir)/tests/python.mk

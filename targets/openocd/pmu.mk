# targets/openocd/pmu.mk: pmu.tcl, the PMU commands inside OpenOCD, and
# pmu-tables.tcl, generated from the library's tables by src/gen-pmutcl
# (so the TCL and the C share one copy of registers, events and causes).
# Both are installed beside the OpenOCD configs, $(pkgdatadir)/openocd.
noinst_PROGRAMS += src/gen-pmutcl
src_gen_pmutcl_SOURCES = src/pmutcl/gen-pmutcl.c
src_gen_pmutcl_LDADD = lib/libpmuprobe-internal.la

pmutcldir = $(pkgdatadir)/openocd
dist_pmutcl_DATA = targets/openocd/pmu.tcl
nodist_pmutcl_DATA = targets/openocd/pmu-tables.tcl
CLEANFILES += targets/openocd/pmu-tables.tcl

targets/openocd/pmu-tables.tcl: src/gen-pmutcl$(EXEEXT)
	$(MKDIR_P) targets/openocd
	src/gen-pmutcl$(EXEEXT) > $@.tmp && mv $@.tmp $@

# lib/catalog/local.mk: the PMU event catalogs.  The tables are data,
# lib/catalog/data/NAME.ev (format: lib/catalog/data/README); at build time
# lib/catalog/gen-catalog turns them into lib/catalog/tables.c, which is
# never committed.  The generator refuses a code listed twice in a catalog.
CATALOG_EV = $(srcdir)/lib/catalog/data/shared.ev \
	$(srcdir)/lib/catalog/data/armv7-common.ev $(srcdir)/lib/catalog/data/armv8-common.ev \
	$(srcdir)/lib/catalog/data/cortex-a7.ev $(srcdir)/lib/catalog/data/cortex-a9.ev \
	$(srcdir)/lib/catalog/data/cortex-a15.ev $(srcdir)/lib/catalog/data/cortex-a32.ev \
	$(srcdir)/lib/catalog/data/cortex-a35.ev $(srcdir)/lib/catalog/data/cortex-a53.ev \
	$(srcdir)/lib/catalog/data/cortex-a55.ev $(srcdir)/lib/catalog/data/cortex-a57.ev \
	$(srcdir)/lib/catalog/data/cortex-a72.ev $(srcdir)/lib/catalog/data/cortex-a76.ev \
	$(srcdir)/lib/catalog/data/neoverse-n1.ev

noinst_PROGRAMS += lib/catalog/gen-catalog
lib_catalog_gen_catalog_SOURCES = lib/catalog/gen-catalog.c

lib_libpmuprobe_internal_la_SOURCES += lib/catalog/catalog_tables.h
nodist_lib_libpmuprobe_internal_la_SOURCES = lib/catalog/tables.c
EXTRA_DIST += $(CATALOG_EV) lib/catalog/data/README
CLEANFILES += lib/catalog/tables.c

lib/catalog/tables.c: lib/catalog/gen-catalog$(EXEEXT) $(CATALOG_EV)
	$(MKDIR_P) lib/catalog
	lib/catalog/gen-catalog$(EXEEXT) $@.tmp $(CATALOG_EV) && mv $@.tmp $@

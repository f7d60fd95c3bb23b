# The lookups over the event catalogs; the catalogs themselves are data in
# lib/catalog/ (lib/catalog/local.mk).
lib_libpmuprobe_internal_la_SOURCES += lib/pmu/catalog.h lib/pmu/catalog.c

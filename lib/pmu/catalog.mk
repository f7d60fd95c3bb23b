lib_libpmuprobe_internal_la_SOURCES += lib/pmu/catalog.h lib/pmu/catalog.c

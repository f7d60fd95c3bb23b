lib_libpmuprobe_internal_la_SOURCES += lib/pmu/catalog.h lib/pmu/catalog.c lib/pmu/catalog_tables.h \
	lib/pmu/catalog_armv7_common.c lib/pmu/catalog_armv8_common.c \
	lib/pmu/catalog_cortex_a7.c lib/pmu/catalog_cortex_a9.c lib/pmu/catalog_cortex_a15.c \
	lib/pmu/catalog_cortex_a32.c lib/pmu/catalog_cortex_a35.c lib/pmu/catalog_cortex_a53.c \
	lib/pmu/catalog_cortex_a55.c lib/pmu/catalog_cortex_a57.c \
	lib/pmu/catalog_cortex_a76.c lib/pmu/catalog_neoverse_n1.c

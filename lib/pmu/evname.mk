lib_libpmuprobe_internal_la_SOURCES += lib/pmu/evname.h lib/pmu/evname.c

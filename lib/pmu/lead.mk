lib_libpmuprobe_internal_la_SOURCES += lib/pmu/diag.h lib/pmu/diag.c lib/pmu/program.h lib/pmu/program.c \
	lib/pmu/owner.c lib/pmu/identify.h lib/pmu/identify.c

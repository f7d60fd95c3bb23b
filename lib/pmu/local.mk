lib_libpmuprobe_internal_la_SOURCES += lib/pmu/coretype.h lib/pmu/coretype.c lib/pmu/regs.h lib/pmu/regs.c lib/pmu/regs_fields.h lib/pmu/regs_fields.c \
	lib/pmu/regs_pmu.c lib/pmu/regs_debug.c lib/pmu/power.h lib/pmu/power.c

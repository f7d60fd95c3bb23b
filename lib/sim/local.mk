lib_libpmuprobe_internal_la_SOURCES += lib/sim/sim.h lib/sim/sim_internal.h \
	lib/sim/soc.c lib/sim/romtable.c lib/sim/ids.c lib/sim/core.c \
	lib/sim/debug.c lib/sim/pmu.c lib/sim/workload.c lib/sim/fault.c

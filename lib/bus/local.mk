lib_libpmuprobe_internal_la_SOURCES += lib/bus/bus.h lib/bus/bus.c lib/bus/sim_bus.c

lib_libpmuprobe_internal_la_SOURCES += lib/sim/sim.h lib/sim/soc.c

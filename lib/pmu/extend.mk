# 64-bit counter extension and snapshot sampling (lib/pmu/extend.h, snapshot.h)
lib_libpmuprobe_internal_la_SOURCES += lib/pmu/extend.h lib/pmu/extend.c \
	lib/pmu/snapshot.h lib/pmu/snapshot.c

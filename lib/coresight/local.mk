lib_libpmuprobe_internal_la_SOURCES += lib/coresight/coresight.h lib/coresight/id.c \
	lib/coresight/partname.c lib/coresight/romwalk.c lib/coresight/topology.c

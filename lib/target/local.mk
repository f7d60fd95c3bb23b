lib_libpmuprobe_internal_la_SOURCES += lib/target/target.h lib/target/keys.h \
	lib/target/parse.c lib/target/value.c lib/target/resolve.c lib/target/load.c \
	lib/target/find.c

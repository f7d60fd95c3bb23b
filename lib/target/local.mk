lib_libpmuprobe_internal_la_SOURCES += lib/target/target.h lib/target/parse.c

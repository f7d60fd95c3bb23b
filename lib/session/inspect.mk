# The public status, register, event and discovery calls (lib/session/inspect.h).
lib_libpmuprobe_internal_la_SOURCES += lib/session/inspect.h lib/session/status.c \
	lib/session/regaccess.c lib/session/events.c lib/session/scan.c

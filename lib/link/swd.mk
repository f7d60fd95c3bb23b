# link/swd.mk: the SWD wire engine and its wire over the simulated SW-DP pins
lib_libpmuprobe_internal_la_SOURCES += lib/link/swd.h lib/link/swd.c \
	lib/link/swd_simpins.h lib/link/swd_simpins.c \
	lib/link/swd_link.h lib/link/swd_link.c

# bus/openocd.mk: the openocd access path (TCL RPC client, safe TCL
# building, pp_bus over OpenOCD).  spec/openocd.md 2-4.
lib_libpmuprobe_internal_la_SOURCES += lib/bus/ocd_rpc.h lib/bus/ocd_rpc.c \
	lib/bus/ocd_tcl.h lib/bus/ocd_tcl.c lib/bus/ocd_overrun.h lib/bus/ocd_overrun.c
lib_libpmuprobe_internal_la_SOURCES += lib/bus/ocd_bus_internal.h lib/bus/ocd_bus.c \
	lib/bus/ocd_attach.c

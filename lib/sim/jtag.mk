# sim/jtag.mk: the simulated SoC's JTAG-DP and APB-AP at pin level
lib_libpmuprobe_internal_la_SOURCES += lib/sim/jtag_internal.h lib/sim/jtag.c lib/sim/jtag_dp.c \
	lib/sim/dap.h lib/sim/dap.c lib/sim/swdp.h lib/sim/swdp_internal.h lib/sim/swdp.c

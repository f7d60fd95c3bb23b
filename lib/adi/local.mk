# lib/adi: ADIv5 JTAG-DP, MEM-AP planning and the pp_bus over them
lib_libpmuprobe_internal_la_SOURCES += lib/adi/adi.h lib/adi/dp.c lib/adi/memap.c \
	lib/adi/adi_bus.c lib/adi/dp_port.h lib/adi/dp_port.c lib/adi/dap_packets.h lib/adi/dap_packets.c \
	lib/adi/dp_cmsisdap.c lib/adi/dp_swd.c

# lib/link: the JTAG layer and its link drivers (remote_bitbang, in-process sim pins)
lib_libpmuprobe_internal_la_SOURCES += lib/link/link.c lib/link/jtag.h lib/link/jtag.c \
	lib/link/jtagchain.h lib/link/jtagchain.c \
	lib/link/rbb.h lib/link/rbb.c lib/link/simpins.h lib/link/simpins.c
# CMSIS-DAP v2 probes over libusb-1.0: the packets, and JTAG sequences as a link.
lib_libpmuprobe_internal_la_SOURCES += lib/link/cmsisdap.h lib/link/cmsisdap_internal.h \
	lib/link/cmsisdap.c lib/link/cmsisdap_seq.c
# udev rules that let users open the probes (the open failure names the file).
dist_pkgdata_DATA += targets/60-pmuprobe-cmsis-dap.rules

# FTDI MPSSE link: the encoder, the libftdi1 driver and the adapter layouts.
lib_libpmuprobe_internal_la_SOURCES += lib/link/mpsse.h lib/link/mpsse.c \
	lib/link/ftdi.h lib/link/ftdi.c lib/link/ftdi_layout.c
# udev rules that let users open the adapters; the driver's permission
# message names this file in $(pkgdatadir).
dist_pkgdata_DATA += targets/60-pmuprobe-ftdi.rules

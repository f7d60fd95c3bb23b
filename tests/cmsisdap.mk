# tests of the CMSIS-DAP path (see tests/local.mk)

# The USB-level CMSIS-DAP v2 probe emulator: a libusb-1.0 replacement that
# the shell tests load with LD_PRELOAD under OpenOCD's cmsis-dap driver
# and pmuprobe's own.  Only the libusb_* symbols are exported.
check_LTLIBRARIES += tests/cmsisdap-emu/libusb-cmsisdap-emu.la
tests_cmsisdap_emu_libusb_cmsisdap_emu_la_SOURCES = tests/cmsisdap-emu/emu.h \
	tests/cmsisdap-emu/usb.c tests/cmsisdap-emu/dap.c tests/cmsisdap-emu/tap.c tests/cmsisdap-emu/swd.c \
	tests/cmsisdap-emu/setup.c tests/emu-soc.h tests/emu-soc.c tests/emu-usberr.c \
	tests/emu-usb.h tests/emu-usb.c
tests_cmsisdap_emu_libusb_cmsisdap_emu_la_CFLAGS = $(AM_CFLAGS) $(LIBUSB_CFLAGS)
tests_cmsisdap_emu_libusb_cmsisdap_emu_la_LIBADD = lib/libpmuprobe-internal.la $(PTHREAD_LIBS)
tests_cmsisdap_emu_libusb_cmsisdap_emu_la_LDFLAGS = -module -avoid-version -rpath /nowhere \
	-shared -export-symbols-regex '^libusb_'

# pmuprobe's cmsis-dap path and OpenOCD's cmsis-dap driver through the
# emulator; pipelined sampling, its dates and a fault mid-stream.
TESTS += tests/cmsisdap.test tests/cmsisdap-openocd.test tests/cmsisdap-pipe.test
EXTRA_DIST += tests/cmsisdap.test tests/cmsisdap-openocd.test tests/cmsisdap-pipe.test

# The backend's DAP_Transfer / DAP_TransferBlock packets.
check_PROGRAMS += tests/check_cmsisdap
tests_check_cmsisdap_SOURCES = tests/check_cmsisdap.c
tests_check_cmsisdap_CFLAGS = $(TEST_CFLAGS)
tests_check_cmsisdap_LDADD = $(TEST_LIBS)

# tests of the FTDI MPSSE link (see tests/local.mk)
check_PROGRAMS += tests/check_mpsse
tests_check_mpsse_SOURCES = tests/check_mpsse.c
tests_check_mpsse_CFLAGS = $(TEST_CFLAGS)
tests_check_mpsse_LDADD = $(TEST_LIBS)

# The driver through the real libftdi1 and the emulator, linked in: its
# libusb_* definitions take the place of libusb's, as under LD_PRELOAD.
check_PROGRAMS += tests/check_ftdi
tests_check_ftdi_SOURCES = tests/check_ftdi.c tests/ftdi-emu/emu.h tests/ftdi-emu/usb.c \
	tests/ftdi-emu/chip.c tests/ftdi-emu/engine.c tests/ftdi-emu/setup.c \
	tests/ftdi-emu/board.c tests/ftdi-emu/rt.c tests/emu-soc.h tests/emu-soc.c tests/emu-usberr.c \
	tests/emu-usb.h tests/emu-usb.c
tests_check_ftdi_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/tests
tests_check_ftdi_CFLAGS = $(TEST_CFLAGS) $(LIBUSB_CFLAGS) $(LIBFTDI_CFLAGS)
tests_check_ftdi_LDADD = $(TEST_LIBS) $(PTHREAD_LIBS)

# The USB-level FT2232H emulator: a libusb-1.0 replacement that the shell
# tests load with LD_PRELOAD under the real libftdi1 and OpenOCD.  Only the
# libusb_* symbols are exported, so the simulated SoC inside stays private.
check_LTLIBRARIES += tests/ftdi-emu/libusb-emu.la
tests_ftdi_emu_libusb_emu_la_SOURCES = tests/ftdi-emu/emu.h tests/ftdi-emu/usb.c \
	tests/ftdi-emu/chip.c tests/ftdi-emu/engine.c tests/ftdi-emu/setup.c \
	tests/ftdi-emu/board.c tests/ftdi-emu/rt.c tests/emu-soc.h tests/emu-soc.c tests/emu-usberr.c \
	tests/emu-usb.h tests/emu-usb.c
tests_ftdi_emu_libusb_emu_la_CFLAGS = $(AM_CFLAGS) $(LIBUSB_CFLAGS) $(LIBFTDI_CFLAGS)
tests_ftdi_emu_libusb_emu_la_LIBADD = lib/libpmuprobe-internal.la $(PTHREAD_LIBS)
tests_ftdi_emu_libusb_emu_la_LDFLAGS = -module -avoid-version -rpath /nowhere -shared \
	-export-symbols-regex '^libusb_'

# pmuprobe and OpenOCD through real libftdi1 / libusb calls into the emulator.
TESTS += tests/ftdi.test tests/ftdi-openocd.test tests/ftdi-realtime.test
EXTRA_DIST += tests/ftdi.test tests/ftdi-openocd.test tests/ftdi-realtime.test

# -p ftdi --transport swd: the SW-DP transport (lib/adi/dp_swd.c), SWDIO on TDI/TDO
TESTS += tests/ftdi-swd.test
EXTRA_DIST += tests/ftdi-swd.test

# OpenOCD's ftdi driver in SWD with its stock SWD configs, over the emulated
# boards that wire SWDIO (tied DO, SWDIO_OE buffer, resistor)
TESTS += tests/ftdi-openocd-swd.test
EXTRA_DIST += tests/ftdi-openocd-swd.test

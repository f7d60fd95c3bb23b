# tests of the simulated SW-DP / SWJ-DP and the SWD wire engine (see tests/local.mk)
check_PROGRAMS += tests/check_simswd
tests_check_simswd_SOURCES = tests/check_simswd.c tests/fixture.c tests/fixture.h
tests_check_simswd_CFLAGS = $(TEST_CFLAGS)
tests_check_simswd_LDADD = $(TEST_LIBS)

# SWD through the real libftdi1 and the FT2232H emulator, linked in as
# check_ftdi does (see tests/ftdi.mk).
check_PROGRAMS += tests/check_ftdiswd
tests_check_ftdiswd_SOURCES = tests/check_ftdiswd.c tests/ftdi-emu/emu.h tests/ftdi-emu/usb.c \
	tests/ftdi-emu/chip.c tests/ftdi-emu/engine.c tests/ftdi-emu/setup.c \
	tests/ftdi-emu/board.c tests/ftdi-emu/rt.c tests/emu-soc.h tests/emu-soc.c tests/emu-usberr.c \
	tests/emu-usb.h tests/emu-usb.c
tests_check_ftdiswd_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/tests
tests_check_ftdiswd_CFLAGS = $(TEST_CFLAGS) $(LIBUSB_CFLAGS) $(LIBFTDI_CFLAGS)
tests_check_ftdiswd_LDADD = $(TEST_LIBS) $(PTHREAD_LIBS)

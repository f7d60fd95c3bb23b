# tests of the simulated JTAG-DP (see tests/local.mk)
check_PROGRAMS += tests/check_simjtag
tests_check_simjtag_SOURCES = tests/check_simjtag.c tests/fixture.c tests/fixture.h
tests_check_simjtag_CFLAGS = $(TEST_CFLAGS)
tests_check_simjtag_LDADD = $(TEST_LIBS)

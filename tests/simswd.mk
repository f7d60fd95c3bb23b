# tests of the simulated SW-DP / SWJ-DP and the SWD wire engine (see tests/local.mk)
check_PROGRAMS += tests/check_simswd
tests_check_simswd_SOURCES = tests/check_simswd.c tests/fixture.c tests/fixture.h
tests_check_simswd_CFLAGS = $(TEST_CFLAGS)
tests_check_simswd_LDADD = $(TEST_LIBS)

# tests of link + adi (see tests/local.mk); rbb.test runs pmuprobe against pmuprobe-sim
check_PROGRAMS += tests/check_link tests/check_adi
tests_check_link_SOURCES = tests/check_link.c tests/fixture.c tests/fixture.h
tests_check_link_CFLAGS = $(TEST_CFLAGS)
tests_check_link_LDADD = $(TEST_LIBS)
tests_check_adi_SOURCES = tests/check_adi.c tests/fixture.c tests/fixture.h
tests_check_adi_CFLAGS = $(TEST_CFLAGS)
tests_check_adi_LDADD = $(TEST_LIBS)
TESTS += tests/rbb.test
EXTRA_DIST += tests/rbb.test

# tests of coresight (see tests/local.mk)
check_PROGRAMS += tests/check_coresight
tests_check_coresight_SOURCES = tests/check_coresight.c tests/fixture.c tests/fixture.h
tests_check_coresight_CFLAGS = $(TEST_CFLAGS)
tests_check_coresight_LDADD = $(TEST_LIBS)

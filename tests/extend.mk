# tests of the 64-bit extension and snapshot sampling (see tests/local.mk)
check_PROGRAMS += tests/check_extend
tests_check_extend_SOURCES = tests/check_extend.c tests/fixture.c tests/fixture.h
tests_check_extend_CFLAGS = $(TEST_CFLAGS)
tests_check_extend_LDADD = $(TEST_LIBS)

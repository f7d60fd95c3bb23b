# tests of counter programming, ownership and claim tags (see tests/local.mk)
check_PROGRAMS += tests/check_program
tests_check_program_SOURCES = tests/check_program.c tests/fixture.c tests/fixture.h
tests_check_program_CFLAGS = $(TEST_CFLAGS)
tests_check_program_LDADD = $(TEST_LIBS)
TESTS += tests/config.test
EXTRA_DIST += tests/config.test

# tests of target (see tests/local.mk)
check_PROGRAMS += tests/check_target
tests_check_target_SOURCES = tests/check_target.c
tests_check_target_CFLAGS = $(TEST_CFLAGS)
tests_check_target_LDADD = $(TEST_LIBS)

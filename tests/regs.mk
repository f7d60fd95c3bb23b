# tests of regs (see tests/local.mk)
check_PROGRAMS += tests/check_regs
tests_check_regs_SOURCES = tests/check_regs.c
tests_check_regs_CFLAGS = $(TEST_CFLAGS)
tests_check_regs_LDADD = $(TEST_LIBS)

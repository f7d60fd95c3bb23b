# tests of pp_grow, the growing-array helper (lib/grow.h)
check_PROGRAMS += tests/check_grow
tests_check_grow_SOURCES = tests/check_grow.c
tests_check_grow_CFLAGS = $(TEST_CFLAGS)
tests_check_grow_LDADD = $(TEST_LIBS)

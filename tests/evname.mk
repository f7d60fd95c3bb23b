# tests of event-name resolution (see tests/local.mk)
check_PROGRAMS += tests/check_evname
tests_check_evname_SOURCES = tests/check_evname.c
tests_check_evname_CFLAGS = $(TEST_CFLAGS)
tests_check_evname_LDADD = $(TEST_LIBS)

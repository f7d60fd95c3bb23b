# tests of the error-response diagnosis
check_PROGRAMS += tests/check_diag
tests_check_diag_SOURCES = tests/check_diag.c tests/fixture.c tests/fixture.h
tests_check_diag_CFLAGS = $(TEST_CFLAGS)
tests_check_diag_LDADD = $(TEST_LIBS)

# tests of core identification
check_PROGRAMS += tests/check_identify
tests_check_identify_SOURCES = tests/check_identify.c tests/fixture.c tests/fixture.h
tests_check_identify_CFLAGS = $(TEST_CFLAGS)
tests_check_identify_LDADD = $(TEST_LIBS)

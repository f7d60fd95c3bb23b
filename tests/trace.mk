# the wire trace (lib/trace.c): the library's records (check_trace) and the
# CLI's --trace on every path (trace.test)
check_PROGRAMS += tests/check_trace
tests_check_trace_SOURCES = tests/check_trace.c
tests_check_trace_CFLAGS = $(TEST_CFLAGS)
tests_check_trace_LDADD = $(TEST_LIBS)
TESTS += tests/trace.test
EXTRA_DIST += tests/trace.test

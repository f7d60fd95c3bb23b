# tests of the capture engine: the SPSC ring, and the engine on the sim
check_PROGRAMS += tests/check_ring tests/check_capture
tests_check_ring_SOURCES = tests/check_ring.c
tests_check_ring_CFLAGS = $(TEST_CFLAGS)
tests_check_ring_LDADD = $(TEST_LIBS)
tests_check_capture_SOURCES = tests/check_capture.c tests/fixture.c tests/fixture.h
tests_check_capture_CFLAGS = $(TEST_CFLAGS)
tests_check_capture_LDADD = $(TEST_LIBS)
# the engine from the command line: stream, record, stat, signals, a dying path
TESTS += tests/capture.test tests/stat-lab.test
EXTRA_DIST += tests/capture.test tests/stat-lab.test

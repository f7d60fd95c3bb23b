# Shell integration tests: they run the real src/pmuprobe.
TESTS += tests/scan.test tests/faults.test tests/badinput.test tests/stream.test \
	tests/events.test
EXTRA_DIST += tests/testlib.sh tests/scan.test tests/faults.test tests/badinput.test \
	tests/stream.test tests/events.test

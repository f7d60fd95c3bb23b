# Shell integration tests: they run the real src/pmuprobe.
CLI_TESTS = tests/scan.test tests/faults.test tests/badinput.test tests/stream.test \
	tests/events.test tests/snapshot.test tests/autotype.test
TESTS += $(CLI_TESTS)
EXTRA_DIST += tests/testlib.sh $(CLI_TESTS)
# Output failures, empty lists and other first-afternoon details of the CLI.
TESTS += tests/cli-details.test
EXTRA_DIST += tests/cli-details.test
# Options anywhere, one-line usage errors, times and counts with their ranges.
TESTS += tests/args.test
EXTRA_DIST += tests/args.test
# read shows a 64-bit counter whole (pmuprobe-sim over rbb).
TESTS += tests/read64.test
EXTRA_DIST += tests/read64.test

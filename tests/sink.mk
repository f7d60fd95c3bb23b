# tests of the capture sinks and the bin reader (see tests/local.mk)
check_PROGRAMS += tests/check_sink
tests_check_sink_SOURCES = tests/check_sink.c
tests_check_sink_CFLAGS = $(TEST_CFLAGS)
tests_check_sink_LDADD = $(TEST_LIBS)
# formats read back by real parsers (python csv, jq) and convert
TESTS += tests/sink.test
EXTRA_DIST += tests/sink.test tests/perfstat_csv.py
# the capture read by tests/binread.py, a reader written from pmuprobe-bin(5)
# alone, against `convert` of the same file
TESTS += tests/binread.test
EXTRA_DIST += tests/binread.test tests/binread.py
# the trace format read by Perfetto's own trace processor (its WebAssembly
# build under node, installed by scripts/install-deps) against the jsonl of
# the same capture
TESTS += tests/trace-parser.test
EXTRA_DIST += tests/trace-parser.test tests/trace-parser.mjs tests/trace-parser.py

# duration: -d ends a capture on schedule on every path, what it missed counted.
TESTS += tests/duration.test
EXTRA_DIST += tests/duration.test

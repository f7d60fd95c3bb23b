# liveout: a stream's text reaches a pipe or file live; kill -9 loses at most an interval.
TESTS += tests/liveout.test
EXTRA_DIST += tests/liveout.test

# openocd-adapter: the adapter dying behind a running OpenOCD is a lost
# link (exit 3), not a WAIT storm.
TESTS += tests/openocd-adapter.test
EXTRA_DIST += tests/openocd-adapter.test

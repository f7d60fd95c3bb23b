# faultpath: target and link faults in the middle of a stream, on every
# access path; helpers in tests/faultpath-lib.sh.
TESTS += tests/faultpath-sim.test tests/faultpath-rbb.test tests/faultpath-openocd.test \
	tests/faultpath-ftdi.test tests/faultpath-swd.test tests/openocd-storm.test
EXTRA_DIST += tests/faultpath-lib.sh tests/openocd-storm.test tests/faultpath-sim.test tests/faultpath-rbb.test \
	tests/faultpath-openocd.test tests/faultpath-ftdi.test tests/faultpath-swd.test
EXTRA_DIST += docs/reliability.md

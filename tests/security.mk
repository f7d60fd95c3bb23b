# security: what the servers listen on, output files never clobbered, and
# one meaning per option letter (see
# tests/security.test); runs pmuprobe-sim and the real OpenOCD ($OPENOCD).
TESTS += tests/security.test
EXTRA_DIST += tests/security.test
# Hostile OpenOCD and remote_bitbang peers: bounded time, memory, and
# escaped text (tests/hostile-peer.py plays them).
TESTS += tests/hostile.test
EXTRA_DIST += tests/hostile.test tests/hostile-peer.py tests/runmeasured.py

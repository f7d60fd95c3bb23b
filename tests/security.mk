# security: issue 9.5 and the option letters of issue 10.6 (see
# tests/security.test); runs pmuprobe-sim and the real OpenOCD ($OPENOCD).
TESTS += tests/security.test
EXTRA_DIST += tests/security.test

# tests/simserver.mk: pmuprobe-sim alone (protocol, control channel) and with
# the real OpenOCD ($OPENOCD) through targets/openocd/*.cfg.
TESTS += tests/simserver.test tests/openocd-interop.test
EXTRA_DIST += tests/simserver.test tests/openocd-interop.test tests/simserver-lib.sh \
	tests/rbbclient.py tests/ocdrpc.py

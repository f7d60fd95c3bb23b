# takeover: another agent takes a running capture's counters, over rbb
# (pmuprobe-sim's ctl write) and with two pmuprobe clients on one OpenOCD
# (see tests/takeover.test and docs/reliability.md).
TESTS += tests/takeover.test
EXTRA_DIST += tests/takeover.test

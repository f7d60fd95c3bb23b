# summary: the stderr summary's stop reason, bytes and simulated-time note; the README's
# program-then-observe sequence over pmuprobe-sim.
TESTS += tests/summary.test
EXTRA_DIST += tests/summary.test

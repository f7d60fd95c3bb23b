# timing: sample times against the simulator's clock (pmuprobe-sim
# --read-log), through a WAIT storm at a 1 ms interval.
TESTS += tests/timing.test
EXTRA_DIST += tests/timing.test

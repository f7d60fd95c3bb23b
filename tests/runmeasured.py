#!/usr/bin/env python3
"""runmeasured.py OUTFILE CMD...: runs CMD with its output going to OUTFILE
(stdout and stderr), then prints "RC MAXRSS_KB ELAPSED_S" on stdout: the exit
status (128+N for a signal), the child's peak resident memory, and the wall
time.  For tests that bound what a command may cost (tests/hostile.test)."""
import resource
import subprocess
import sys
import time

with open(sys.argv[1], "wb") as out:
    t0 = time.monotonic()
    p = subprocess.run(sys.argv[2:], stdout=out, stderr=subprocess.STDOUT)
    elapsed = time.monotonic() - t0
rc = p.returncode if p.returncode >= 0 else 128 - p.returncode
print(rc, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, "%.1f" % elapsed)

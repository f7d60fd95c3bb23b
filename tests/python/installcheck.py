"""make installcheck's check of the installed Python package (tests/python.mk):
imported from the installed pythondir ($PYTHONPATH), over the installed
library, it counts on pmuprobe-sim over rbb ($PROBE), then runs the
pytest plugin's fixture into a JUnit XML file and checks the properties.
usage: installcheck.py TMPDIR"""
import os
import subprocess
import sys
import xml.etree.ElementTree as ET

import pmuprobe

tmp = sys.argv[1]
probe = os.environ["PROBE"]
where = os.path.realpath(os.environ["PYTHONPATH"])


def die(msg):
    sys.exit("installcheck-python: " + msg)


if not os.path.realpath(pmuprobe.__file__).startswith(where + os.sep):
    die("pmuprobe imported from %s, not from %s" % (pmuprobe.__file__, where))
print("  pmuprobe from %s, library %s" % (os.path.dirname(pmuprobe.__file__), pmuprobe.LIBRARY))

with pmuprobe.open(probe=probe, target="a76-cluster") as s:
    if [c.cpu for c in s.cores] != [0, 1, 2, 3]:
        die("cores %r" % s.cores)
    with s.counters(0, ["cycles", "instructions"]) as c:
        a = c.read()
        b = c.read()
    if not b["cycles"] > a["cycles"] > 0:
        die("cycles over rbb did not count: %r then %r" % (a, b))
    if hasattr(s, "capture") and pmuprobe._ffi.has("pp_capture_start"):
        items = list(s.capture(events=["cycles", "instructions"], cores=[0, 1],
                               interval="10ms", count=5))
        got = [(i.core, i.seq) for i in items if not i.gap]
        if len(got) != 12:
            die("capture over rbb gave %r" % items)

with open(os.path.join(tmp, "test_sample.py"), "w") as f:
    f.write("def test_one(pmu_counters):\n    assert pmu_counters.read()\n")
xml = os.path.join(tmp, "out.xml")
res = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                      "-p", "pmuprobe.pytest_plugin", "-o", "junit_family=xunit1",
                      "--junitxml", xml, "--pmu-probe", probe, "--pmu-target", "a76-cluster",
                      "--pmu-cores", "0,3", "test_sample.py"], cwd=tmp, capture_output=True,
                     text=True, stdin=subprocess.DEVNULL)
if res.returncode != 0:
    die("pytest with the plugin failed:\n" + res.stdout + res.stderr)
props = {p.get("name"): p.get("value") for p in ET.parse(xml).getroot().iter("property")}
for cpu in (0, 3):
    for ev in ("cycles", "instructions"):
        if int(props.get("pmu.cpu%d.%s" % (cpu, ev), "0")) <= 0:
            die("no pmu.cpu%d.%s total in the JUnit XML: %r" % (cpu, ev, props))
        if float(props.get("pmu.cpu%d.%s.per_s" % (cpu, ev), "0")) <= 0:
            die("no pmu.cpu%d.%s.per_s rate in the JUnit XML: %r" % (cpu, ev, props))
print("  JUnit XML: %d pmu properties" % len(props))

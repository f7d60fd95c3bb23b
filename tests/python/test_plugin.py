"""The pytest plugin: pmu_counters around a test lands the totals and
rates in the JUnit XML; run as a user would, pytest on a sample test file
with --junitxml, in a child process."""
import subprocess
import sys
import xml.etree.ElementTree as ET

import pytest

from conftest import RBB, TARGET

SAMPLE = '''
import pytest

def test_counted(pmu_counters):
    before = pmu_counters.read()
    assert set(before) == {0, 1}
    assert sum(range(10000)) > 0

@pytest.mark.pmu(events=["cycles"], cores=[2])
def test_marked(pmu_counters):
    assert list(pmu_counters.sets) == [2]

def test_not_counted():
    pass

def test_failing_is_counted_too(pmu_counters):
    assert False, "this sample test fails on purpose"
'''


def run_sample(tmp_path, *args):
    (tmp_path / "test_sample.py").write_text(SAMPLE)
    xml = tmp_path / "out.xml"
    res = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                          "-p", "pmuprobe.pytest_plugin", "-o", "junit_family=xunit1",
                          "--junitxml", str(xml), "--pmu-target", TARGET] + list(args)
                         + ["test_sample.py"], cwd=tmp_path, capture_output=True, text=True,
                         stdin=subprocess.DEVNULL)
    assert xml.exists(), res.stdout + res.stderr
    cases = {}
    for tc in ET.parse(xml).getroot().iter("testcase"):
        cases[tc.get("name")] = {p.get("name"): p.get("value") for p in tc.iter("property")}
    return res, cases


@pytest.mark.parametrize("probe", ["sim", "rbb"])
def test_junit_xml_has_totals_and_rates(tmp_path, probe):
    res, cases = run_sample(tmp_path, "--pmu-probe", "sim" if probe == "sim" else RBB,
                            "--pmu-events", "cycles,instructions", "--pmu-cores", "0,1")
    # 3 passed, the one failing on purpose failed: the run says so, exit 1
    assert res.returncode == 1 and "1 failed, 3 passed" in res.stdout, res.stdout + res.stderr
    assert set(cases) == {"test_counted", "test_marked", "test_not_counted",
                          "test_failing_is_counted_too"}
    assert cases["test_not_counted"] == {}
    for name, cpus, events in (("test_counted", [0, 1], ["cycles", "instructions"]),
                               ("test_failing_is_counted_too", [0, 1],
                                ["cycles", "instructions"]),
                               ("test_marked", [2], ["cycles"])):
        p = cases[name]
        want = {"pmu.target", "pmu.probe", "pmu.elapsed_s"}
        want |= {"pmu.cpu%d.%s%s" % (c, e, s) for c in cpus for e in events for s in ("", ".per_s")}
        assert set(p) == want, (name, sorted(p))
        assert p["pmu.target"] == TARGET
        elapsed = float(p["pmu.elapsed_s"])
        assert elapsed > 0
        for c in cpus:
            for e in events:
                total = int(p["pmu.cpu%d.%s" % (c, e)])
                assert total > 0, (name, c, e)
                rate = float(p["pmu.cpu%d.%s.per_s" % (c, e)])
                assert rate == pytest.approx(total / elapsed, rel=1e-3, abs=0.1)


def test_a_core_that_cannot_be_counted_is_an_error_in_the_report(tmp_path):
    res, cases = run_sample(tmp_path, "--pmu-cores", "7", "-k", "test_counted")
    assert res.returncode == 1, res.stdout
    assert "no cpu7" in res.stdout or "cpu7" in res.stdout, res.stdout
    assert cases["test_counted"] == {}

"""pytest plugin: PMU counters around a test, recorded in the JUnit XML.

Enable it with `pytest -p pmuprobe.pytest_plugin` (or `pytest_plugins =
["pmuprobe.pytest_plugin"]` in a conftest.py).  A test that asks for the
pmu_counters fixture gets the chosen counters opened on the chosen cores
before it runs; after it, their totals and rates are recorded with
record_property, so `--junitxml` writes them as properties of the test
case:

    pmu.cpu0.cycles            total over the test
    pmu.cpu0.cycles.per_s      that total over the test's wall time
    pmu.elapsed_s              the wall time between the two reads
    pmu.target, pmu.probe

Where: --pmu-probe PROBE (default "sim"), --pmu-target TARGET,
--pmu-events LIST (default "cycles,instructions"), --pmu-cores LIST
(cpu numbers, default every core), or the ini keys pmu_probe, pmu_target,
pmu_events, pmu_cores.  A test overrides events and cores with
@pytest.mark.pmu(events=[...], cores=[...]).  One session serves the
whole run (the pmu_session fixture).

pytest's default junit_family, xunit2, warns that record_property is not
in its schema (the properties are written all the same); set
junit_family = xunit1 for a schema-valid file with properties.
"""
import time

import pytest

import pmuprobe


def pytest_addoption(parser):
    g = parser.getgroup("pmuprobe", "PMU counters around tests (pmuprobe)")
    for name, default, help_ in (
            ("probe", "sim", "probe of the PMU session: sim, rbb:HOST:PORT, rbb:unix:PATH"),
            ("target", None, "target description name or path"),
            ("events", "cycles,instructions", "events the pmu_counters fixture counts"),
            ("cores", None, "cpu numbers the pmu_counters fixture counts on (default: all)")):
        g.addoption("--pmu-" + name, dest="pmu_" + name, default=None, help=help_)
        parser.addini("pmu_" + name, help_, default=default)


def pytest_configure(config):
    config.addinivalue_line("markers", "pmu(events=None, cores=None): events and cores the "
                            "pmu_counters fixture counts for this test")


def _opt(config, name):
    v = config.getoption("pmu_" + name)
    return v if v is not None else config.getini("pmu_" + name)


def _list(v):
    if v is None or isinstance(v, (list, tuple)):
        return v
    return [x.strip() for x in str(v).split(",") if x.strip()]


class PmuCounters:
    """What the pmu_counters fixture gives a test: the counter sets
    (sets: {cpu: Counters}), read() for the counts so far ({cpu: {event:
    count}}), and after the test the totals, rates and elapsed it
    recorded."""

    def __init__(self, session, cores, events):
        self.session = session
        self.events = events
        self.sets = {}
        self.totals = self.rates = None
        self.elapsed = None
        try:
            for cpu in cores:
                self.sets[cpu] = session.counters(cpu, events)
        except BaseException:
            self.close()
            raise
        self._t0 = time.monotonic_ns()

    def read(self):
        """{cpu: {event: count since the test started}}."""
        return {cpu: c.read() for cpu, c in self.sets.items()}

    def finish(self):
        totals = self.read()
        self.elapsed = (time.monotonic_ns() - self._t0) / 1e9
        self.totals = totals
        self.rates = {cpu: {e: (v / self.elapsed if self.elapsed > 0 else 0.0)
                            for e, v in vals.items()} for cpu, vals in totals.items()}

    def close(self):
        for c in self.sets.values():
            c.close()
        self.sets = {}


@pytest.fixture(scope="session")
def pmu_session(pytestconfig):
    """The run's pmuprobe Session (--pmu-probe, --pmu-target)."""
    with pmuprobe.open(probe=_opt(pytestconfig, "probe"),
                       target=_opt(pytestconfig, "target")) as s:
        yield s


@pytest.fixture
def pmu_counters(request, pmu_session, record_property):
    """Counts the chosen events on the chosen cores around the test and
    records the totals and rates as JUnit XML properties."""
    mark = request.node.get_closest_marker("pmu")
    kw = mark.kwargs if mark else {}
    events = _list(kw.get("events")) or _list(_opt(request.config, "events"))
    cores = _list(kw.get("cores")) or _list(_opt(request.config, "cores"))
    cores = [pmuprobe._util.cpu_number(c) for c in cores] if cores else \
        [c.cpu for c in pmu_session.cores]
    m = PmuCounters(pmu_session, cores, events)
    try:
        yield m
        m.finish()
    finally:
        m.close()
    record_property("pmu.target", pmu_session.target)
    record_property("pmu.probe", pmu_session.probe)
    record_property("pmu.elapsed_s", "%.9f" % m.elapsed)   # ns: a short test's rate checks out
    for cpu, vals in m.totals.items():
        for e, v in vals.items():
            record_property("pmu.cpu%d.%s" % (cpu, e), v)
            record_property("pmu.cpu%d.%s.per_s" % (cpu, e), "%.1f" % m.rates[cpu][e])

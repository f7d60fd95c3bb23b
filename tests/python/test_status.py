"""Status, registers by name, events and the ROM table scan, and errors
carrying the diagnosis (cause, evidence, remedy), in process and over
remote_bitbang to pmuprobe-sim."""
import pytest

import pmuprobe
from conftest import TARGET


def test_status_of_every_core(session):
    st = session.status()
    assert [c.cpu for c in st] == [0, 1, 2, 3]
    for c in st:
        assert c.pmu_ok and c.cause == "none" and c.remedy is None
        assert c.powered and not c.oslock and not c.doublelock
        assert c.type == "Cortex-A76"
        assert c.edprsr is not None and c.edprsr & 1          # EDPRSR.PU
        assert c.evidence.startswith("EDPRSR=0x%08X" % c.edprsr)


def test_status_of_a_powered_down_core():
    with pmuprobe.open(target=TARGET, faults=["cpu1:off"]) as s:
        st = s.status("cpu1")
        assert not st.pmu_ok and not st.powered
        assert st.cause == "core-off" and st.cause_text == "core powered off"
        assert "PU=0" in st.evidence and "power" in st.remedy
        assert st.pmcfgr is None
        assert s.status(0).pmu_ok


def test_read_decodes_fields(session):
    session.write(0, "PMEVTYPER0", 0x11)
    r = session.read(0, "pmevtyper0")
    assert r.name == "PMEVTYPER0" and r.block == "pmu" and r.width == 32
    assert r.addr == session.cores[0].pmu_base + 0x400 and r.offset == 0x400
    assert r["evtCount"].value == 0x11 and int(r) & 0xFFFF == 0x11
    assert r.text.startswith("cpu0 PMEVTYPER0")
    with pytest.raises(KeyError):
        r["no-such-field"]
    pmcr = session.read("cpu2", "PMCR")
    assert [f.name for f in pmcr.fields][-1] == "E"
    assert pmcr["E"].value == pmcr.value & 1 and pmcr["E"].lsb == 0 and pmcr["E"].width == 1
    assert session.read(0, "PMCCNTR").width == 64


def test_write_returns_the_register_read_back(session):
    r = session.write(3, "PMEVTYPER1", 0x08)
    assert r["evtCount"].value == 0x08
    session.write(3, "PMEVTYPER1", 0)
    assert session.read(3, "PMEVTYPER1").value == 0


def test_a_write_only_register_is_written_and_not_read_back(session):
    with session.counters(0, "SW_INCR") as c:       # the set's first event: PMEVCNTR0
        assert session.write(0, "PMSWINC", 1) is None
        assert c.read()["SW_INCR"] == 1


def test_an_unknown_register_is_not_found_with_a_suggestion(session):
    with pytest.raises(pmuprobe.NotFound) as e:
        session.read(0, "PMCRR")
    assert "did you mean PMCR" in str(e.value)


def test_a_failed_read_carries_the_diagnosis():
    with pmuprobe.open(target=TARGET, faults=["cpu1:off"]) as s:
        with pytest.raises(pmuprobe.AccessError) as e:
            s.read(1, "PMCR")
        err = e.value
        assert err.errname == "PP_E_SLVERR" and err.cpu == 1
        assert err.cause == "core-off"
        # the reason alone; evidence and remedy in their own fields
        assert err.message.endswith("APB error response: core powered off"), err.message
        assert "EDPRSR=" in err.evidence and "power" in err.remedy
        assert "evidence:" in str(err) and "remedy:" in str(err)
        # counters on it: the same diagnosis, from status() after the failure
        with pytest.raises(pmuprobe.AccessError) as e:
            s.counters(1, "cycles")
        assert e.value.cause == "core-off" and "PU=0" in e.value.evidence


def test_events(session):
    ev = session.events(0)
    assert ev.note == ""
    names = {e.name: e for e in ev}
    assert names["CPU_CYCLES"].code == 0x11 and names["CPU_CYCLES"].advertised
    assert names["L1D_CACHE_REFILL"].component == "L1D"
    assert all(e.checked for e in ev if e.common)


def test_events_of_a_core_that_does_not_answer():
    with pmuprobe.open(target=TARGET, faults=["cpu1:off"]) as s:
        ev = s.events(1)
        assert len(ev) > 0 and not any(e.checked for e in ev)
        assert "PMCEID unreadable on cpu1" in ev.note


def test_scan(session):
    comps = session.scan()
    assert comps[0].kind == "ROM table" and comps[0].depth == 0 and comps[0].rom == 0
    by_cpu = {}
    for c in comps:
        assert c.error is None
        if c.cpu is not None:
            by_cpu.setdefault(c.cpu, {})[c.kind] = c.addr
    for core in session.cores:
        assert by_cpu[core.cpu]["PMU"] == core.pmu_base
        assert by_cpu[core.cpu]["debug"] == core.debug_base

"""Session, cores, raw bus access, counter sets, errors and the wire
trace, in process and over remote_bitbang to pmuprobe-sim."""
import io
import json
import os
import subprocess

import pytest

import pmuprobe
from conftest import TARGET

PMEVTYPER0 = 0x400      # PMU block offsets (spec/arm-pmu-coresight.md)
PMCNTENSET = 0xC00
PMCNTENCLR = 0xC20
PMCR = 0xE04
DBG_MIDR = 0xD00        # MIDR_EL1 in the external debug block


def test_cores_describe_the_target(session):
    assert session.target == TARGET
    cores = session.cores
    assert [c.cpu for c in cores] == [0, 1, 2, 3]
    for c in cores:
        assert c.type == "cortex-a76" and c.pretty == "Cortex-A76"
        assert c.midr is not None and (c.midr >> 4) & 0xFFF == 0xD0B   # A76 part number
        assert c.counters == 6
        assert c.pmu_base != c.debug_base


def test_read32_reads_what_the_core_reports(session):
    for c in session.cores:
        assert session.read32(c.debug_base + DBG_MIDR) == c.midr


def test_write32_then_read32(session):
    pmu = session.cores[2].pmu_base
    session.write32(pmu + PMEVTYPER0, 0x11)
    assert session.read32(pmu + PMEVTYPER0) & 0x3FF == 0x11
    assert session.bus.run([pmu + PMEVTYPER0, (pmu + PMEVTYPER0, 0x08), pmu + PMEVTYPER0]) \
        == [0x11, None, 0x08]
    session.write32(pmu + PMEVTYPER0, 0)


def test_bus_stats_count_the_batches(session):
    bases = [c.pmu_base for c in session.cores]
    before = session.bus.stats()
    session.bus.run(bases)
    after = session.bus.stats()
    assert after["batches"] == before["batches"] + 1
    assert after["ops"] == before["ops"] + 4


def test_counters_count_and_release_the_pmu(session):
    with session.counters(0, ["cycles", "instructions"]) as c:
        assert c.names == ["cycles", "instructions"]
        first = c.read()
        second = c.read()
        assert list(second) == ["cycles", "instructions"]
        assert second["cycles"] > first["cycles"] > 0
        assert second["instructions"] >= first["instructions"]
    # released: it can be taken again
    session.counters(0, "cycles").close()


def test_counters_in_use_by_the_target_are_busy(session):
    pmu = session.cores[0].pmu_base
    pmcr = session.read32(pmu + PMCR)
    session.bus.run([(pmu + PMCNTENSET, 1), (pmu + PMCR, pmcr | 1)])   # "software" counts
    try:
        with pytest.raises(pmuprobe.Busy) as e:
            session.counters("cpu0", "cycles")
        assert "in use" in str(e.value)
    finally:    # pmuprobe-sim keeps its state for the next tests' sessions
        session.bus.run([(pmu + PMCNTENCLR, 1), (pmu + PMCR, pmcr)])
    with pytest.raises(pmuprobe.Busy):
        session.counters(1, "cycles,instructions,0x11,0x12,0x13,0x14,0x15,0x16")


def test_session_close_closes_open_counters(probe):
    s = pmuprobe.open(probe=probe, target=TARGET)
    c = s.counters(1)
    s.close()
    with pytest.raises(ValueError):
        c.read()
    s.close()


def test_errors_carry_the_code_and_reason():
    with pytest.raises(pmuprobe.NotFound) as e:
        pmuprobe.open(target="no-such-target")
    assert e.value.errname == "PP_E_NOTFOUND" and "no-such-target" in str(e.value)
    with pytest.raises(pmuprobe.InvalidArgument):
        pmuprobe.open(probe="nonsense:1")
    with pmuprobe.open(target=TARGET) as s:
        with pytest.raises(pmuprobe.NotFound) as e:
            s.counters(0, "no_such_event")
        assert "no_such_event" in str(e.value)
        with pytest.raises(pmuprobe.NotFound):
            s.counters(9, "cycles")


def test_powered_down_core_is_an_access_error():
    with pmuprobe.open(target=TARGET, faults=["cpu1:off"]) as s:
        with pytest.raises(pmuprobe.AccessError) as e:
            s.counters(1, "cycles")
        assert e.value.cpu == 1
        s.counters(0, "cycles").close()


def test_trace_to_a_callable(session):
    recs = []
    session.set_trace(recs.append, "apb")
    pmu = session.cores[0].pmu_base
    session.read32(pmu + 0xE04)
    session.set_trace(None)
    assert recs, "no trace record"
    r = recs[-1]
    assert r.layer == "apb" and not r.write and r.addr == pmu + 0xE04
    assert r.reg == "cpu0 PMCR" and r.status == "ok"
    assert "PMCR" in r.text
    n = len(recs)
    session.read32(pmu + 0xE04)
    assert len(recs) == n, "the trace went on after set_trace(None)"


def test_trace_dap_layer_over_rbb():
    from conftest import RBB
    recs = []
    with pmuprobe.open(probe=RBB, target=TARGET, trace=recs.append, trace_level="dap") as s:
        s.read32(s.cores[0].pmu_base + PMCR)
    layers = {r.layer for r in recs}
    assert layers == {"apb", "dap"}, layers
    assert any(r.reg == "DRW" for r in recs)


def test_trace_to_a_file_and_a_path(tmp_path):
    buf = io.StringIO()
    with pmuprobe.open(target=TARGET, trace=buf, trace_level="apb") as s:
        s.cores
    lines = buf.getvalue().splitlines()
    assert lines and any("cpu0 MIDR" in l or "MIDR" in l for l in lines), lines[:5]
    path = tmp_path / "trace.txt"
    with pmuprobe.open(target=TARGET) as s:
        s.set_trace(str(path), "apb")
        s.read32(s.cores[0].pmu_base + 0xE04)
    assert "cpu0 PMCR" in path.read_text()


def test_an_exception_in_the_trace_callable_is_raised_by_the_next_call(session):
    def boom(rec):
        raise RuntimeError("trace sink failed")
    session.set_trace(boom, "apb")
    with pytest.raises(RuntimeError, match="trace sink failed"):
        session.read32(session.cores[0].pmu_base + 0xE04)
    session.set_trace(None)
    session.read32(session.cores[0].pmu_base + 0xE04)


def cli_interval(text):
    """(exit status, interval_ns) of `pmuprobe stream -i TEXT` on the
    simulated SoC: the interval the CLI read, from its JSONL meta line."""
    cli = os.path.join(os.path.dirname(os.environ["PMUPROBE_TEST_SIM"]), "pmuprobe")
    out = subprocess.run([cli, "-p", "sim", "stream", "-c", "0", "-e", "cycles", "-i", text,
                          "-n", "1", "-o", "-", "--format", "jsonl"], capture_output=True,
                         text=True, stdin=subprocess.DEVNULL)
    if out.returncode != 0:
        return out.returncode, None
    return 0, json.loads(out.stdout.splitlines()[0])["interval_ns"]


@pytest.mark.parametrize("text", ["250us", "1.5ms", "0.002s", "2000000ns", "3ms"])
def test_a_duration_is_the_interval_the_cli_reads(text):
    assert cli_interval(text) == (0, pmuprobe.to_ns(text))


def test_durations_take_the_units_of_the_c_library():
    assert pmuprobe.to_ns("2m") == 120 * 10**9
    assert pmuprobe.to_ns("1h") == 3600 * 10**9
    assert pmuprobe.to_ns(0.25) == 250_000_000      # a number is seconds


@pytest.mark.parametrize("text", ["5 parsecs", "2min", "0x10ms", "1ms "])
def test_a_bad_duration_raises_the_c_librarys_message(text):
    ns = pmuprobe.ffi.new("uint64_t *")
    err = pmuprobe.ffi.new("char[]", 256)
    assert pmuprobe.lib.pp_parse_duration(text.encode(), ns, err, 256) == pmuprobe.lib.PP_E_PARSE
    c_message = pmuprobe.ffi.string(err).decode()
    assert "expected a time such as" in c_message
    with pytest.raises(pmuprobe.InvalidArgument) as e:
        pmuprobe.to_ns(text)
    assert c_message in str(e.value)
    assert cli_interval(text)[0] != 0       # the CLI refuses it too


def test_a_session_is_a_context_manager_that_closes():
    with pmuprobe.open(probe="sim", target=TARGET) as s:
        assert s.cores
    with pytest.raises(ValueError, match="closed"):
        s.read32(0x81010000 + DBG_MIDR)

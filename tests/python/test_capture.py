"""Captures: samples and gaps as they arrive from the C engine, in process
and over remote_bitbang to pmuprobe-sim; a core powered down mid-capture
is a gap with its cause; many slices per C call; NumPy arrays and plain
lists in batches; the file sink; early exit."""
import json
import sys

import pytest

import pmuprobe
from conftest import RBB, TARGET

EVENTS = ["cycles", "instructions"]


def per_core(items):
    out = {}
    for it in items:
        out.setdefault(it.core, []).append(it)
    return out


def check_counts(rows):
    """Totals only grow, by exactly the delta, where the delta is trusted."""
    prev = None
    for it in rows:
        if it.gap:
            prev = None
            continue
        for e in EVENTS:
            assert 0 <= it.values[e] < 2**64
            if prev is not None and e not in it.discont:
                assert it.values[e] - prev.values[e] == it.deltas[e], (prev, it)
        prev = it


def test_count_gives_count_plus_one_samples_per_core(probe):
    with pmuprobe.open(probe=probe, target=TARGET) as s:
        cap = s.capture(events=EVENTS, cores=[0, 1], interval="10ms", count=10)
        assert cap.events == EVENTS and cap.cores == [0, 1]
        items = list(cap)
        assert cap.stats()["stop"] == "done"
    rows = per_core(items)
    assert sorted(rows) == [0, 1]
    for cpu, r in rows.items():
        assert [it.seq for it in r] == list(range(11)), cpu
        assert not any(it.gap for it in r)
        assert r[0].baseline and not any(it.baseline for it in r[1:])
        assert all(b.t_ns >= a.t_ns for a, b in zip(r, r[1:]))
        assert r[-1].values["cycles"] > r[0].values["cycles"]
        check_counts(r)


def test_the_acceptance_snippet_over_rbb():
    seen = {"samples": 0, "gaps": 0}
    with pmuprobe.open(probe=RBB, target=TARGET) as s:
        for item in s.capture(events=["cycles", "instructions"], cores=[0, 1],
                              interval="10ms", duration="1s"):
            assert item.core in (0, 1)
            assert item.time == item.t_ns / 1e9
            if item.gap:
                assert item.cause and item.values is None
                seen["gaps"] += 1
            else:
                assert set(item.values) == {"cycles", "instructions"}
                seen["samples"] += 1
    assert seen["gaps"] == 0 and seen["samples"] >= 2, seen   # at least both baselines


def test_to_numpy(probe):
    import numpy as np
    with pmuprobe.open(probe=probe, target=TARGET) as s:
        a = s.capture(events=EVENTS, cores=[0, 2], interval="5ms", count=8).to_numpy()
    assert len(a) == 2 * 9
    assert a["values"].shape == (18, 2) and a["values"].dtype == np.uint64
    for cpu in (0, 2):
        r = a[a["core"] == cpu]
        assert list(r["seq"]) == list(range(9))
        assert not r["gap"].any()
        assert (np.diff(r["values"][:, 0].astype(np.int64)) >= 0).all()
        assert (r["values"][1:, 0] - r["values"][:-1, 0] == r["deltas"][1:, 0]).all()


def test_leaving_the_loop_early_hands_the_pmus_back(session):
    cap = session.capture(events=EVENTS, cores=[0], interval="1ms")   # until stopped
    for it in cap:
        if it.seq == 3:
            break
    del it
    # the capture closed: the session and cpu0's PMU are free again
    session.counters(0, "cycles").close()
    assert cap.stats()["stop"] == "stopped"


def test_a_file_sink_and_the_items_agree(tmp_path, probe):
    path = tmp_path / "cap.jsonl"
    with pmuprobe.open(probe=probe, target=TARGET) as s:
        items = list(s.capture(events=EVENTS, cores=[3], interval="5ms", count=5,
                               file=str(path), format="jsonl"))
    assert [it.seq for it in items] == list(range(6))
    recs = [json.loads(l) for l in path.read_text().splitlines()]
    samples = [r for r in recs if r.get("type") == "sample"]
    assert [r["seq"] for r in samples] == [it.seq for it in items]
    assert [r["cores"][0]["events"][0]["total"] for r in samples] == \
        [it.values["cycles"] for it in items]


@pytest.mark.parametrize("snapshot,want", [(None, True), (True, True), (False, False)])
def test_snapshot_chooses_the_plan_none_being_the_default(tmp_path, snapshot, want):
    """None: the a76's snapshot block, as stream does by default; False
    (PP_CAPTURE_LIVE) forces live reads: the file's meta line says which."""
    path = tmp_path / "cap.jsonl"
    with pmuprobe.open(probe="sim", target=TARGET) as s:
        list(s.capture(events=EVENTS, cores=[0], count=2, snapshot=snapshot,
                       file=str(path), format="jsonl"))
    meta = json.loads(path.read_text().splitlines()[0])
    assert meta["snapshot"] is want


def test_capture_errors(session):
    with pytest.raises(pmuprobe.NotFound) as e:
        session.capture(events=["no_such_event"], cores=[0], count=1)
    assert "no_such_event" in str(e.value)
    with pytest.raises(ValueError):
        session.capture(interval="ten ms", count=1)
    with pytest.raises(pmuprobe.NotFound):
        session.capture(cores=[9], count=1)


def test_the_wire_trace_during_a_capture(probe):
    recs = []
    with pmuprobe.open(probe=probe, target=TARGET) as s:
        s.set_trace(recs.append, "apb")
        list(s.capture(events=["cycles"], cores=[1], interval="1ms", count=3))
    regs = {r.reg for r in recs}
    assert "cpu1 PMCCNTR" in regs or "cpu1 PMCCNTR_EL0" in regs or \
        any(r.startswith("cpu1 PMCCNTR") for r in regs), sorted(regs)[:20]


class CountingLib:
    """The cffi lib as capture.py sees it, counting the pulls it makes."""

    def __init__(self, lib):
        self._lib, self.batch_calls = lib, 0

    def pp_capture_next(self, *a):
        raise AssertionError("pulled one slice per call (pp_capture_next)")

    def pp_capture_next_batch(self, *a):
        self.batch_calls += 1
        return self._lib.pp_capture_next_batch(*a)

    def __getattr__(self, name):
        return getattr(self._lib, name)


def test_iterating_pulls_many_slices_per_c_call(monkeypatch, probe):
    counting = CountingLib(pmuprobe.lib)
    monkeypatch.setattr(pmuprobe.capture, "lib", counting)
    with pmuprobe.open(probe=probe, target=TARGET) as s:
        cap = s.capture(events=EVENTS, cores=[0, 1], interval=0, count=400)
        items = list(cap)
    assert len(items) == 2 * 401
    # The last call is the one that saw the end; in process the engine
    # outruns the puller, so the slices came in few calls.
    assert 2 <= counting.batch_calls < len(items)
    check_counts([it for it in items if it.core == 0])


def test_numpy_batches_lists_and_items_hold_the_same_rows():
    # Deterministic sim time: fresh sessions count alike.
    def run(consume):
        with pmuprobe.open(target=TARGET, sim_time="deterministic") as s:
            return consume(s.capture(events=EVENTS, cores=[1, 3], interval=0, count=20))
    import numpy as np
    arr = run(lambda cap: np.concatenate(list(cap.batches())))
    lists = run(lambda cap: list(cap.batches(numpy=False)))
    items = run(list)
    assert len(arr) == len(items) == sum(len(b["seq"]) for b in lists) == 42
    flat = {k: [x for b in lists for x in b[k]] for k in lists[0]}
    assert set(flat) == set(arr.dtype.names)
    for j, it in enumerate(items):
        row = arr[j]
        assert (int(row["seq"]), int(row["core"]), int(row["index"]), bool(row["gap"])) == \
            (it.seq, it.core, it.index, it.gap)
        assert [int(v) for v in row["values"]] == [it.values[e] for e in EVENTS]
        assert [int(v) for v in row["deltas"]] == [it.deltas[e] for e in EVENTS]
        assert (flat["seq"][j], flat["core"][j], flat["values"][j], flat["deltas"][j]) == \
            (it.seq, it.core, [it.values[e] for e in EVENTS], [it.deltas[e] for e in EVENTS])


def test_a_batch_holds_at_most_batch_rows(session):
    sizes = [len(b) for b in session.capture(events=EVENTS, cores=[0, 1], interval=0,
                                              count=30, batch=3).batches()]
    assert sum(sizes) == 62
    assert max(sizes) <= 3
    sizes = [len(b) for b in session.capture(events=EVENTS, cores=[0, 1], interval=0,
                                              count=30).batches(size=5)]
    assert sum(sizes) == 62
    assert max(sizes) <= 5


def test_batches_without_numpy_are_plain_lists(monkeypatch, session):
    monkeypatch.setitem(sys.modules, "numpy", None)     # import numpy fails
    cap = session.capture(events=EVENTS, cores=[2], interval="1ms", count=5)
    got = list(cap.batches())
    assert all(isinstance(b, dict) for b in got)
    seq = [x for b in got for x in b["seq"]]
    assert seq == list(range(6))
    assert all(isinstance(v, list) and len(v) == 2 for b in got for v in b["values"])
    with pytest.raises(ImportError, match="NumPy"):
        session.capture(events=EVENTS, cores=[2], count=1).to_numpy()

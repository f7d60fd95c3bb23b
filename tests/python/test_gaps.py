"""Gaps: a core powered down mid-capture is a gap with its cause
("core-off"), as an item and as a row of the batch form (NumPy or
lists), in process (a fault at a time of the SoC's clock, or from the
start) and over remote_bitbang (the fault given on pmuprobe-sim's control
channel), and the core counts again once powered up."""
import pmuprobe
from conftest import RBB, TARGET, ctl
from test_capture import EVENTS, check_counts, per_core


def test_power_down_in_process_is_a_gap_with_its_cause():
    # The fault fires at 300 ms of the SoC's clock; the capture ends at the
    # first gap of cpu1 (its 30 s only bound a hang).
    with pmuprobe.open(target=TARGET, sim_time="realtime", faults=["cpu1:off@300ms"]) as s:
        items = []
        cap = s.capture(events=EVENTS, cores=[0, 1], interval="10ms", duration="30s")
        for it in cap:
            items.append(it)
            if it.gap:
                cap.stop()
        assert cap.stats()["stop"] == "stopped"
    rows = per_core(items)
    gaps = [it for it in rows[1] if it.gap]
    assert gaps, "no gap on cpu1"
    g = gaps[0]
    assert g.cause == "core-off" and g.cause_text == "core powered off"
    assert g.values is None and g.deltas is None and g.index == 1
    assert not any(it.gap for it in rows[0])
    check_counts(rows[0])
    check_counts(rows[1])


def test_power_down_over_rbb_is_a_gap_then_the_core_comes_back():
    # Driven by what arrives: the fault is given on pmuprobe-sim's control
    # channel once cpu1 has counted, taken back once its gap was seen, and
    # the capture stops once cpu1 counts again.
    with pmuprobe.open(probe=RBB, target=TARGET) as s:
        cap = s.capture(events=EVENTS, cores=[0, 1], interval="10ms", duration="60s")
        state, items = "counting", []
        for it in cap:
            items.append(it)
            if it.core != 1:
                continue
            if state == "counting" and not it.gap and it.seq >= 1:
                ctl("fault", "cpu1:off")
                state = "off"
            elif state == "off" and it.gap:
                ctl("fault", "cpu1:on", "cpu1:osunlock")
                state = "on"
            elif state == "on" and not it.gap:
                cap.stop()
                state = "back"
        assert state == "back", state
        assert cap.gaps(1, "core-off") >= 1
        assert cap.gaps(0, "core-off") == 0
    rows = per_core(items)
    assert {it.cause for it in rows[1] if it.gap} == {"core-off"}
    assert not any(it.gap for it in rows[0])
    check_counts(rows[1])


def test_gap_rows_in_numpy_batches_carry_their_cause():
    # cpu1 powered down from the start (deterministic time): every cpu1
    # row is a gap with its cause and values 0, cpu0's rows count.
    with pmuprobe.open(target=TARGET, sim_time="deterministic", faults=["cpu1:off"]) as s:
        a = s.capture(events=EVENTS, cores=[0, 1], interval=0, count=6).to_numpy()
    one, zero = a[a["core"] == 1], a[a["core"] == 0]
    assert len(one) == len(zero) == 7
    assert one["gap"].all() and list(one["cause"]) == ["core-off"] * 7
    assert (one["values"] == 0).all() and (one["deltas"] == 0).all()
    assert not zero["gap"].any() and set(zero["cause"]) == {""}
    assert zero["values"][-1, 0] > zero["values"][0, 0]


def test_a_gap_over_rbb_shows_in_the_batch_form_too():
    # As the iterator test above, driven by the rows that arrive, in
    # batches (NumPy) or, with numpy=False, plain lists.
    for numpy in (True, False):
        with pmuprobe.open(probe=RBB, target=TARGET) as s:
            cap = s.capture(events=EVENTS, cores=[0, 1], interval="10ms", duration="60s")
            state, causes = "counting", set()
            for b in cap.batches(numpy=numpy):
                for core, seq, gap, cause in zip(b["core"], b["seq"], b["gap"], b["cause"]):
                    if core != 1:
                        continue
                    if state == "counting" and not gap and seq >= 1:
                        ctl("fault", "cpu1:off")
                        state = "off"
                    elif state == "off" and gap:
                        causes.add(str(cause))
                        ctl("fault", "cpu1:on", "cpu1:osunlock")
                        state = "on"
                    elif state == "on" and not gap:
                        cap.stop()
                        state = "back"
            assert state == "back", (numpy, state)
            assert causes == {"core-off"}, numpy
            assert cap.gaps(1, "core-off") >= 1

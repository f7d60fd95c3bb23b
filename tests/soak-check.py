#!/usr/bin/env python3
"""soak-check.py - reads and judges the capture of tests/soak.test.

  soak-check.py collect < STREAM.jsonl > collected.json
      Reads the jsonl as it streams (memory stays small for any length):
      counts per core and status, the runs of gap / discontinuity records per
      core with their causes and times, the meta and the summary.
  soak-check.py verify --collected F --log FAULTS --stderr ERR --healthy 0 ...
      Judges it against the fault windows and RSS samples soak-faults.py
      logged (and, with --faults-applied N, the simulator's count of faults
      it applied), prints the figures, exits 1 with the reasons when a
      check fails.
"""
import argparse
import json
import re
import sys


def collect():
    meta = summary = None
    nsamples = ndrop_records = 0
    last_seq = -1
    bad_seq = []
    order = []
    per = {}          # cpu -> {"status": {..}, "gaps": {cause: n}, "runs": [...], "last": status}
    for line in sys.stdin:
        rec = json.loads(line)
        kind = rec.get("type")
        if not order or order[-1] != kind:
            order.append(kind)
        if kind == "meta":
            meta = rec
            continue
        if kind == "summary":
            summary = rec
            continue
        if kind == "drop":
            ndrop_records += 1
            continue
        nsamples += 1
        if rec["seq"] != last_seq + 1 and len(bad_seq) < 5:
            bad_seq.append((last_seq, rec["seq"]))
        last_seq = rec["seq"]
        t = meta["start_mono_ns"] + rec["t_ns"]
        te = meta["start_mono_ns"] + rec.get("t_end_ns", rec["t_ns"])
        for core in rec["cores"]:
            p = per.setdefault(str(core["cpu"]), {"status": {}, "gaps": {}, "runs": [], "last": None})
            st = core["status"]
            p["status"][st] = p["status"].get(st, 0) + 1
            p["last"] = st
            if st == "ok" or (st == "discont" and rec["seq"] == 0):
                continue
            # A gap (with its cause) or a later discontinuity (with its why):
            # consecutive records of one label make one run.
            label = core.get("cause", "?") if st == "gap" else "discont:" + "+".join(core.get("why", []))
            if st == "gap":
                p["gaps"][label] = p["gaps"].get(label, 0) + 1
            runs = p["runs"]
            if runs and runs[-1]["label"] == label and runs[-1]["last_seq"] == rec["seq"] - 1:
                runs[-1].update(t_last=t, last_seq=rec["seq"], n=runs[-1]["n"] + 1)
            else:
                runs.append({"label": label, "t_first": t, "te_first": te, "t_last": t,
                             "first_seq": rec["seq"], "last_seq": rec["seq"], "n": 1})
    json.dump({"meta_first": bool(order) and order[0] == "meta",
               "summary_last": bool(order) and order[-1] == "summary",
               "nsamples": nsamples, "ndrop_records": ndrop_records, "bad_seq": bad_seq,
               "start_mono_ns": meta["start_mono_ns"] if meta else 0,
               "interval_ns": meta["interval_ns"] if meta else 0,
               "ncores": len(meta["cores"]) if meta else 0,
               "summary": summary, "per": per}, sys.stdout)
    return 0


def read_log(path, start_ns):
    """Windows (one still open at the end has clear_ns None), RSS samples,
    how late the injector ran at worst, and how many faults it gave.  A
    planned window (sim times set_s, clear_s) is placed on CLOCK_MONOTONIC
    as wide as the SoC's start allows: no earlier than epoch_lo_ns, taken
    before pmuprobe started, no later than the capture's start."""
    windows, rss, late, faults, epoch_lo = [], [], None, None, None
    with open(path) as f:
        for line in f:
            rec = json.loads(line)
            if "window" in rec:
                windows.append(rec["window"])
            elif "late_s" in rec:
                late = rec["late_s"]
            elif "faults" in rec:
                faults = rec["faults"]
            elif "epoch_lo_ns" in rec:
                epoch_lo = rec["epoch_lo_ns"]
            else:
                rss.append((rec["t"], rec["rss_kb"]))
    for w in windows:
        if "set_s" in w:
            w["set_ns"] = epoch_lo + int(w["set_s"] * 1e9)
            w["clear_ns"] = start_ns + int(w["clear_s"] * 1e9)
    return windows, rss, late, faults


class Verdict:
    def __init__(self):
        self.failures = []

    def check(self, ok, msg):
        if not ok:
            self.failures.append(msg)


def verify_counts(v, c, err, still_faulted, args):
    s = c["summary"]
    v.check(c["meta_first"] and c["summary_last"], "the output does not run meta ... summary")
    if not s:
        return
    n = c["nsamples"]
    v.check(s["stop"] == args.stop, "stopped by '%s' (%s), expected %s" % (
        s["stop"], s["stop_msg"], args.stop))
    v.check(not c["bad_seq"], "sample seq not contiguous: %r" % c["bad_seq"])
    # Records written = sample records + drop records; samples taken =
    # sample records + samples dropped after they were taken (the missed
    # ones, counted in dropped, were never taken: -d ran out first).
    kept_out = s["dropped"] - s["missed"]
    v.check(s["samples"] == n + kept_out,
            "summary samples %d != %d sample records + %d dropped (%d of them missed)"
            % (s["samples"], n, s["dropped"], s["missed"]))
    v.check(s["written"] == n + c["ndrop_records"],
            "summary written %d != %d sample + %d drop records" % (s["written"], n, c["ndrop_records"]))
    m = re.search(r"stream: (\d+) samples of (\d+) cores", err)
    v.check(m and int(m.group(1)) == s["samples"], "stderr summary's sample count differs")
    summ = {(str(g["cpu"]), g["cause"]): g["samples"] for g in s["gaps"]}
    for cpu, p in c["per"].items():
        v.check(sum(p["status"].values()) == n,
                "cpu%s has %d records, expected %d" % (cpu, sum(p["status"].values()), n))
        total = 0
        for cause, k in p["gaps"].items():
            total += k
            v.check(summ.pop((cpu, cause), None) == k,
                    "cpu%s: %d %s gap records, the summary says otherwise" % (cpu, k, cause))
        if total:
            m = re.search(r"cpu%s: (\d+) gap samples?:" % cpu, err)
            v.check(m and int(m.group(1)) == total, "stderr: cpu%s gap total is not %d" % (cpu, total))
        # A fault the injector had set but not yet cleared when the capture
        # ended (it ran behind its schedule) may keep its core out.
        v.check(p["last"] == "ok" or cpu in still_faulted,
                "cpu%s did not end counting (last status %s)" % (cpu, p["last"]))
    v.check(not summ, "summary gaps without records: %r" % summ)


def verify_windows(v, c, windows, args):
    # A gap's first record must end (its reads) after the fault was set,
    # less --pre-ms; its last must start within --post-ms of the clearing,
    # or ten of the path's mean sample periods where a path samples slower
    # than it was asked (a retry is due every 100 ms, then the core is
    # programmed again: a few batches).
    s = c["summary"] or {}
    period = s.get("elapsed_ns", 0) / max(1, s.get("samples", 1))
    pre, post = args.pre_ms * 1000000, max(args.post_ms * 1000000, 10 * period)
    end = float("inf")
    for cpu in args.healthy.split(","):
        p = c["per"].get(cpu, {"status": {}, "runs": []})
        v.check(p["status"].get("ok", 0) == c["nsamples"] - 1 and not p["runs"],
                "healthy cpu%s lost samples: %r" % (cpu, p["status"]))
    # --late-diagnosis: a path whose bus call outlasts a fault window (a
    # repeat set through a loaded OpenOCD: 10 samples meant for 10 ms took
    # up to 0.8 s) diagnoses the core after the fault has gone; it then
    # finds nothing and the gap says `unknown`, which stands for any cause.
    # A core powered on comes up with its OS lock set until the simulated
    # OS clears it (lib/sim/core.c): an off window may end in os-lock gaps.
    def same(cause, label):
        return (cause == label or (cause == "core-off" and label == "os-lock") or
                (args.late_diagnosis and label == "unknown"))
    late_diag = 0
    for cpu, p in c["per"].items():
        mine = [w for w in windows if str(w["cpu"]) == cpu]
        for r in p["runs"]:
            gap = not r["label"].startswith("discont:")
            fits = [w for w in mine if w["set_ns"] - pre <= r["te_first"] and
                    r["t_last"] <= (w["clear_ns"] or end) + post and
                    (not gap or same(w["cause"], r["label"]))]
            if gap and fits and all(w["cause"] != r["label"] for w in fits):
                late_diag += 1
            v.check(fits, "cpu%s: %d %s records at %.3f..%.3f s no fault window explains" % (
                cpu, r["n"], r["label"], (r["t_first"] - c["start_mono_ns"]) / 1e9,
                (r["t_last"] - c["start_mono_ns"]) / 1e9))
        for w in mine:
            hit = [r for r in p["runs"] if same(w["cause"], r["label"]) and
                   w["set_ns"] - pre <= r["te_first"] and r["t_first"] <= (w["clear_ns"] or end) + post]
            v.check(hit, "cpu%s: the %s window at %.3f s left no %s gap record" % (
                cpu, w["kind"], (w["set_ns"] - c["start_mono_ns"]) / 1e9, w["cause"]))
    return late_diag


def verify_rss(v, rss, c, args):
    # The ring (8192 records, lib/capture/capture.h) is calloc'd and its
    # pages become resident on its first pass: warm-up lasts past it.
    warmup = max(args.warmup_s, 8192 * c["interval_ns"] / 1e9 + 2.0)
    after = [kb for t, kb in rss if t >= warmup]
    v.check(len(after) >= 3, "only %d RSS samples after the warm-up" % len(after))
    if len(after) < 3:
        return None
    grow = max(after) - after[0]
    v.check(grow <= args.rss_bound_kb, "RSS grew by %d kB after the warm-up (bound %d kB): %r" % (
        grow, args.rss_bound_kb, [kb for _, kb in rss]))
    # A leak is a trend; allocator noise (ASan's quarantine) is not.
    third = max(1, len(after) // 3)
    trend = sum(after[-third:]) / third - sum(after[:third]) / third
    v.check(trend <= args.rss_trend_kb, "RSS trend +%d kB from the first to the last third "
            "after the warm-up (bound %d kB): %r" % (trend, args.rss_trend_kb, [kb for _, kb in rss]))
    return rss[0][1], after[0], rss[-1][1], max(after)


def verify(args):
    with open(args.collected) as f:
        c = json.load(f)
    with open(args.stderr) as f:
        err = f.read()
    windows, rss, late, faults = read_log(args.log, c["start_mono_ns"])
    v = Verdict()
    v.check(late is not None, "the fault injector did not finish its log")
    v.check(windows, "no fault window: the schedule was empty")
    if args.faults_applied is not None:
        v.check(args.faults_applied == faults, "the simulator applied %d faults, the schedule "
                "gave %s" % (args.faults_applied, faults))
    still_faulted = {str(w["cpu"]) for w in windows if w["clear_ns"] is None}
    verify_counts(v, c, err, still_faulted, args)
    late_diag = verify_windows(v, c, windows, args)
    r = verify_rss(v, rss, c, args) if args.rss else None
    s = c["summary"] or {}
    kinds = {}
    for w in windows:
        kinds[w["kind"]] = kinds.get(w["kind"], 0) + 1
    gaps = {}
    for p in c["per"].values():
        for cause, k in p["gaps"].items():
            gaps[cause] = gaps.get(cause, 0) + k
    print("soak: %d samples in %.1f s = %.1f/s (requested %.1f/s), late %d, dropped %d" % (
        s.get("samples", 0), s.get("elapsed_ns", 0) / 1e9, s.get("achieved_hz", 0),
        s.get("requested_hz", 0), s.get("late", 0), s.get("dropped", 0)))
    print("soak: fault windows %s; gap samples %s" % (json.dumps(kinds, sort_keys=True),
                                                     json.dumps(gaps, sort_keys=True)))
    if r:
        print("soak: VmRSS first %d kB, after warm-up %d kB, last %d kB, max %d kB" % r)
    elif not args.rss:
        print("soak: VmRSS not judged (--no-rss: the ring's first pass outlasts a short run)")
    if args.faults_applied is not None:
        print("soak: the simulator applied %d faults" % args.faults_applied)
    if args.late_diagnosis:
        print("soak: %d gap run(s) diagnosed after their fault had gone (`unknown`)" % late_diag)
    if late is not None:
        print("soak: the fault injector ran at most %.3f s behind its schedule; %d window(s) "
              "still open at the end" % (late, len(still_faulted)))
    for f in v.failures:
        print("FAIL: " + f)
    return 1 if v.failures else 0


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "collect":
        return collect()
    ap = argparse.ArgumentParser()
    ap.add_argument("verify")
    ap.add_argument("--collected", required=True)
    ap.add_argument("--log", required=True)
    ap.add_argument("--stderr", required=True)
    ap.add_argument("--healthy", default="0")
    ap.add_argument("--warmup-s", type=float, default=5.0)
    ap.add_argument("--rss-bound-kb", type=int, default=2048)
    ap.add_argument("--rss-trend-kb", type=int, default=2048)
    ap.add_argument("--pre-ms", type=int, default=50)
    ap.add_argument("--post-ms", type=int, default=800)
    ap.add_argument("--stop", default="done", help="the summary's stop reason expected")
    ap.add_argument("--no-rss", dest="rss", action="store_false", help="do not judge VmRSS")
    ap.add_argument("--late-diagnosis", action="store_true",
                    help="a gap may say unknown for any fault (diagnosed after it had gone)")
    ap.add_argument("--faults-applied", type=int, help="the simulator's count of faults applied")
    return verify(ap.parse_args())


if __name__ == "__main__":
    sys.exit(main())

"""trace-parser.py CHECK JSONL|- TP_OUT: compares what Perfetto's trace
processor made of a `--format trace` file (TP_OUT: the JSON lines of
tests/trace-parser.mjs for the queries of tests/trace-parser.test, in that
order) with the same capture's jsonl (JSONL, from `pmuprobe convert`), and
prints one line per finding for the shell test to match.

CHECK is one of:
  load   import errors, the core processes and their counter tracks
  gap    cpu1's tracks from its last read before the gap to its first after
  rates  every interval between two reads of a core, on every track
  slice  the gap slices
  live   (JSONL -) each gap slice against the tracks of its own process

A counter track holds each value from its ts until the track's next value
(the trace-event format's rule, which Perfetto's UI draws); Perfetto stores
the file's "NaN" as NaN, which SQL hands out as NULL: no value.
"""
import bisect
import json
import sys

check, jsonl_path, tp_path = sys.argv[1:4]
recs = [] if jsonl_path == "-" else [json.loads(line) for line in open(jsonl_path)]
meta = recs[0] if recs else None
tp = [json.loads(line) for line in open(tp_path)]
if len(tp) != 4:
    sys.exit("expected 4 query results from trace-parser.mjs, got %d" % len(tp))
stats, counters, slices, procs = (q["rows"] for q in tp)

# Perfetto's ts are integer ns; the file's are us with 3 decimals (exact
# ns), so they match the jsonl's to the ns.  One ns of slack covers a
# reader that rounds us * 1000 the other way.
SLACK_NS = 1


def core_name(i):
    c = meta["cores"][i]
    return "cpu%d %s" % (c["cpu"], c["type"])


def track_names(i):
    c = meta["cores"][i]
    return ([e["name"] + " rate" for e in c["events"]] +
            [m["name"] + " value" for m in c["metrics"]])


# tracks[(process, track)] = [(ts, value or None)], in the file's order at one ts
tracks = {}
for proc, name, ts, value in counters:
    tracks.setdefault((proc, name), []).append((ts, value))


def value_at(pts, t):
    """The row a viewer shows at t (the last with ts <= t), or None."""
    i = bisect.bisect_right([p[0] for p in pts], t)
    return pts[i - 1] if i else None


def reads(i):
    """Core i's reads in order: (t_ns, status, core record, dropped before it, t_end_ns)."""
    out, dropped = [], False
    for r in recs:
        if r["type"] == "drop":
            dropped = True
        elif r["type"] == "sample":
            c = r["cores"][i]
            out.append((r["t_ns"], c["status"], c, dropped, r["t_end_ns"]))
            dropped = False
    return out


def expected(i):
    """Per interval [t0, t1) between two reads of core i: {track: value or None}."""
    rs = reads(i)
    names = track_names(i)
    for (t0, st0, _, _, _), (t1, st1, c1, dropped, _) in zip(rs, rs[1:]):
        vals = {}
        timed = st0 != "gap" and st1 != "gap" and not dropped and t1 > t0
        for k, name in enumerate(names):
            v = None
            if timed:
                nev = len(c1["events"])
                if k < nev:
                    d = c1["events"][k]["delta"]
                    v = None if d is None else d * 1e9 / (t1 - t0)
                else:
                    v = c1["metrics"][k - nev]["value"]
            vals[name] = v
        yield t0, t1, vals


def close(a, b):
    return abs(a - b) <= 1e-3 + 1e-9 * abs(b)


def check_load():
    bad = [r for r in stats if r[1] in ("error", "data_loss")]
    print("import errors: %d" % len(bad))
    for r in bad:
        print("  stat %s (%s) = %s" % (r[0], r[1], r[2]))
    for i in range(len(meta["cores"])):
        want = set(track_names(i))
        have = {n for (p, n) in tracks if p == core_name(i)}
        print("%s: process %s, %d of %d counter tracks%s"
              % (core_name(i), "found" if core_name(i) in [p[0] for p in procs] else "missing",
                 len(want & have), len(want),
                 "" if have <= want else ", extra " + ", ".join(sorted(have - want))))


def check_gap():
    i = 1
    rs = reads(i)
    first = next(k for k, r in enumerate(rs) if r[1] == "gap")
    after = next(k for k in range(first, len(rs)) if rs[k][1] != "gap")
    t_a, t_b = rs[first - 1][0], rs[after][0]
    held = before = 0
    names = track_names(i)
    for name in names:
        pts = tracks.get((core_name(i), name), [])
        if any(v is not None for t, v in pts if t < t_a):
            before += 1
        # Inside [t_a, t_b): the value shown at t_a and every row there.
        shown = [value_at(pts, t_a)] + [p for p in pts if t_a <= p[0] < t_b]
        numbers = [p for p in shown if p is not None and p[1] is not None]
        if numbers:
            held += 1
            print("cpu1 %s: holds %g (from ts %d) inside the gap [%d, %d)"
                  % (name, numbers[0][1], numbers[0][0], t_a, t_b))
    print("cpu1: %d of %d tracks hold a number between its last read before the gap"
          " and its first after, %d had one before" % (held, len(names), before))


def check_rates():
    n = wrong = 0
    for i in range(len(meta["cores"])):
        for t0, t1, vals in expected(i):
            for name, want in vals.items():
                if want is None:
                    continue
                n += 1
                pts = tracks.get((core_name(i), name), [])
                row = value_at(pts, (t0 + t1) // 2)
                nxt = next((p for p in pts if p[0] > t0 + SLACK_NS), None)
                why = None
                if row is None or row[1] is None:
                    why = "no value"
                elif abs(row[0] - t0) > SLACK_NS:
                    why = "%g stamped at %d, not at the interval's start" % (row[1], row[0])
                elif not close(row[1], want):
                    why = "%g, the capture says %g" % (row[1], want)
                elif nxt is None or abs(nxt[0] - t1) > SLACK_NS:
                    why = "held until %s, not the next read" % (nxt[0] if nxt else "the end")
                if why:
                    wrong += 1
                    if wrong <= 10:
                        print("%s %s over [%d, %d): %s" % (core_name(i).split()[0], name, t0, t1, why))
    print("rates: %d intervals checked on %d cores, %d wrong" % (n, len(meta["cores"]), wrong))


def check_slice():
    gaps = {}
    for proc, ts, dur, name, cause in slices:
        gaps.setdefault(proc, []).append((ts, dur, name, cause))
    for i in range(len(meta["cores"])):
        rs = reads(i)
        want = []
        k = 0
        while k < len(rs):
            if rs[k][1] != "gap":
                k += 1
                continue
            j = k
            while j < len(rs) and rs[j][1] == "gap":
                j += 1
            # A gap still open at the end ends with its last sample.
            end = rs[j][0] if j < len(rs) else rs[j - 1][4]
            want.append((rs[k][0], end, rs[k][2]["cause"]))
            k = j
        have = gaps.get(core_name(i), [])
        print("%s: %d gap slices, the capture has %d gaps"
              % (core_name(i).split()[0], len(have), len(want)))
        for (ts, dur, name, cause), (w0, w1, wcause) in zip(have, want):
            ok = (abs(ts - w0) <= SLACK_NS and abs(ts + dur - w1) <= SLACK_NS
                  and cause == wcause)
            print("%s slice '%s' cause %s: %s (%.3f s)"
                  % (core_name(i).split()[0], name, cause,
                     "from the first gap sample to the first read after it" if ok else
                     "[%d, %d), the capture's gap is [%d, %s) %s" % (ts, ts + dur, w0, w1, wcause),
                     dur / 1e9))


def check_live():
    """Without the capture: inside each gap slice, its process's tracks."""
    for proc, ts, dur, name, cause in slices:
        mine = {n: pts for (p, n), pts in tracks.items() if p == proc}
        held = [n for n, pts in mine.items()
                if any(r is not None and r[1] is not None
                       for r in [value_at(pts, ts)] + [q for q in pts if ts <= q[0] < ts + dur])]
        before = [n for n, pts in mine.items() if any(v is not None for t, v in pts if t < ts)]
        print("%s '%s' (%.3f s): %d of %d tracks hold a number inside, %d had one before%s"
              % (proc.split()[0], name, dur / 1e9, len(held), len(mine), len(before),
                 "".join("\n  holds: " + n for n in sorted(held))))


{"load": check_load, "gap": check_gap, "rates": check_rates, "slice": check_slice,
 "live": check_live}[check]()

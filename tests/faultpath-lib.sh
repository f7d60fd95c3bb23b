# faultpath-lib.sh - shared by tests/faultpath-*.test: a stream with a
# fault in its middle, and one check of the jsonl it wrote.  Sourced after
# testlib.sh (and simserver-lib.sh where a server is needed).

# fp_check FILE [--healthy CPUS] [--gap CPU:CAUSE]... [--samples N]
#          [--recovers CPUS]: checks the jsonl capture FILE and prints one
# line per problem (nothing when all is well):
#  - every line parses, the last is the summary;
#  - healthy cores are ok (or the first discont) in every sample, and
#    the schedule has N samples when --samples is given: sample records
#    plus those a drop record says were missed when -d ran out (a path
#    slower than the interval, lib/capture/sampler.c);
#  - each --gap CPU has at least one gap record with that cause;
#  - --recovers CPUS end ok after their gap;
#  - no stale or implausible count, per core, over each pair of
#    consecutive samples where the later one is ok and the earlier one is
#    ok or discont (its total is the baseline): the total strictly
#    increases and grows by exactly the delta; and the delta fits the
#    core's median rate over the narrowest and the widest window the two
#    reads can be apart (at 10 ms a sample is one bus run between its t_ns
#    and t_end_ns, lib/capture/plan.c): at least half the median rate
#    times (this t_ns minus the previous t_end_ns), at most twice it times
#    (this t_end_ns minus the previous t_ns).  The checked event (the
#    first, cycles here) counts at a fixed clock (lib/sim/workload.c) on a
#    real-time SoC, so the windows absorb valgrind's timing; the band
#    catches a stale read (a repeated total: delta 0, then double) and a
#    wrap-sized jump (seen: 1e12 times the rate).
fp_check() {
    "${PYTHON3:-python3}" - "$@" <<'PY'
import json, statistics, sys
args = sys.argv[1:]
path = args.pop(0)
healthy, gaps, recovers, want = [], [], [], None
while args:
    k, v = args.pop(0), args.pop(0)
    if k == "--healthy": healthy = [int(c) for c in v.split(",") if c]
    elif k == "--gap": c, cause = v.split(":"); gaps.append((int(c), cause))
    elif k == "--recovers": recovers = [int(c) for c in v.split(",") if c]
    elif k == "--samples": want = int(v)
problems = []
recs = []
for i, line in enumerate(open(path)):
    try:
        recs.append(json.loads(line))
    except ValueError:
        problems.append("line %d does not parse: %r" % (i + 1, line[:80]))
if not recs or recs[-1].get("type") != "summary":
    problems.append("the last record is not the summary")
samples = [r for r in recs if r.get("type") == "sample"]
missed = sum(r.get("dropped", 0) for r in recs if r.get("type") == "drop")
if want is not None and len(samples) + missed != want:
    problems.append("%d samples + %d missed, expected %d" % (len(samples), missed, want))
per = {}
for s in samples:
    for c in s["cores"]:
        per.setdefault(c["cpu"], []).append(((s["t_ns"], s.get("t_end_ns", s["t_ns"])), c))
for cpu in healthy:
    bad = [c["status"] for i, (t, c) in enumerate(per.get(cpu, []))
           if not (c["status"] == "ok" or (i == 0 and c["status"] == "discont"))]
    if bad or len(per.get(cpu, [])) != len(samples):
        problems.append("healthy cpu%d: %d samples of %d not ok (%s)"
                        % (cpu, len(bad), len(samples), ",".join(sorted(set(bad)))))
for cpu, cause in gaps:
    got = [c.get("cause") for t, c in per.get(cpu, []) if c["status"] == "gap"]
    if cause not in got:
        problems.append("cpu%d: no gap with cause %s (gap causes: %s)"
                        % (cpu, cause, ",".join(sorted(set(map(str, got)))) or "none"))
for cpu in recovers:
    rows = per.get(cpu, [])
    if not rows or rows[-1][1]["status"] != "ok":
        problems.append("cpu%d did not recover: last status %s"
                        % (cpu, rows[-1][1]["status"] if rows else "none"))
LO, HI = 0.5, 2.0
for cpu, rows in sorted(per.items()):
    pairs, prev = [], None
    for (t, t_end), c in rows:
        if c["status"] == "gap":
            prev = None
            continue
        ev = c.get("events", [{}])[0]
        if c["status"] == "ok" and prev is not None and ev.get("delta") is not None:
            pairs.append((prev, (t, t_end, ev)))
        prev = (t, t_end, ev)
    first = {}
    def note(kind, text):
        first.setdefault(kind, [text, 0])[1] += 1
    for (pt, pte, pev), (t, te, ev) in pairs:
        tot, ptot, d = ev.get("total"), pev.get("total"), ev["delta"]
        if tot is None or ptot is None or tot <= ptot:
            note("total", "total %s at t=%d ns does not exceed the previous sample's %s"
                 % (tot, t, ptot))
        elif tot - ptot != d:
            note("sum", "delta %d at t=%d ns, but the total grew by %d" % (d, t, tot - ptot))
    rates = [d / ((t + te) - (pt + pte)) * 2
             for (pt, pte, pev), (t, te, ev) in pairs
             for d in [ev["delta"]] if (t + te) > (pt + pte)]
    if len(rates) >= 3:
        med = statistics.median(rates)
        for (pt, pte, pev), (t, te, ev) in pairs:
            d = ev["delta"]
            if t > pte and d < LO * med * (t - pte):
                note("low", "delta %d at t=%d ns is below %.2g of the median rate %.3g/ns "
                     "over at least %d ns" % (d, t, LO, med, t - pte))
            if d > HI * med * (te - pt) + 1:
                note("high", "delta %d at t=%d ns is above %.2g times the median rate %.3g/ns "
                     "over at most %d ns" % (d, t, HI, med, te - pt))
    for kind in ("total", "sum", "low", "high"):
        if kind in first:
            text, n = first[kind]
            problems.append("cpu%d: %s%s" % (cpu, text, " (%d such)" % n if n > 1 else ""))
for p in problems:
    print(p)
PY
}

# fp_expect FILE ARGS...: fp_check, failing the current test case on any
# problem it prints.
fp_expect() {
    problems=$(fp_check "$@")
    [ -z "$problems" ] || fail "capture $1: $problems"
}

# fp_stream_with FILE CTL-FAULTS... (needs simserver-lib.sh, $P the probe):
# a stream of cpu0-2 at 10 ms for $FP_D ($FP_N samples) in the background;
# once its file has its first sample, the faults go to the server in one
# ctl command.  Status in $rc, stderr in $out.  The first sample reaches
# the file only with stdio's first 4 KB (about 11 samples); under valgrind
# on a loaded machine a fault once landed 1.5 s into a 1.5 s stream, so
# there the stream lasts 3 s and a fault's end at +700 ms still comes well
# before the stream's.  FP_LIMIT="-n N" instead of -d: for a fault that
# may outlast -d, which ends on time (lib/capture/sampler.c), where the
# cores must get the samples to recover in.
FP_D=1500ms FP_N=151
[ -n "${VALGRIND:-}" ] && FP_D=3s FP_N=301
fp_stream_with() {
    file=$1
    shift
    rm -f "$file"
    if [ -n "${VALGRIND:-}" ]; then
        "$VALGRIND" -q --error-exitcode=99 "$PMUPROBE" $P stream -c 0-2 -e cycles -i 10ms \
            ${FP_LIMIT:--d $FP_D} --format jsonl -o "$file" 2>"$file.err" &
    else
        "$PMUPROBE" $P stream -c 0-2 -e cycles -i 10ms ${FP_LIMIT:--d $FP_D} --format jsonl \
            -o "$file" 2>"$file.err" &
    fi
    cap_pid=$!
    for _ in $(seq 200); do
        grep -q '"sample"' "$file" 2>/dev/null && break
        sleep 0.05
    done
    ctl fault "$@"
    [ "$rc" -eq 0 ] || fail "ctl fault $*: $out"
    wait "$cap_pid"
    rc=$?
    cap_pid=""
    out=$(cat "$file.err")
}

# fp_target_faults PATH: the target faults, one stream each, on the path
# in $P (named PATH in the test names), with the server's control channel.
# The server runs a76-cluster: an A76 (Armv8.2) reports a double-locked
# core as powered off (PU=0, spec 3.1); cpu1's PMCCNTR is 0x81130000 + 0xF8.
fp_target_faults() {
fp_path=$1
while IFS="|" read -r on off cause; do
    test_case "-p $fp_path: $on then $off mid-stream is a $cause gap on cpu1 only"
    set -- "$on@+300ms"
    for f in $(printf '%s' "$off" | tr ',' ' '); do set -- "$@" "$f@+700ms"; done
    fp_stream_with "$simdir/t.jsonl" "$@"
    expect_rc 1
    expect_out "cpu1: [0-9]+ gap samples: $cause"
    expect_no_out "cpu[02]: [0-9]+ gap"
    fp_expect "$simdir/t.jsonl" --healthy 0,2 --gap "1:$cause" --recovers 1 --samples "$FP_N"
done <<'FAULTS'
cpu1:off|cpu1:on,cpu1:osunlock|core-off
cpu1:oslock|cpu1:osunlock|os-lock
cpu1:dlock|cpu1:dunlock|core-off
cpu1:noauth|cpu1:auth|pmu-disabled
0x811300F8:error|0x811300F8:ok|unknown
FAULTS
}

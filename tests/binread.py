#!/usr/bin/env python3
"""binread.py - an independent reader of pmuprobe's binary capture.

Written from the man page pmuprobe-bin(5) alone, not from lib/capture, so
that the format is read back by something other than the library that
wrote it.  Every check cites the page's section (HEADER, RECORDS, TRAILER,
READING A FILE).

    binread.py FILE.bin

Prints a JSON summary on stdout.  Exit status:
    0  the file is a complete, consistent capture
    1  an inconsistency: the message names the offset and what was expected
    2  usage, or the file cannot be read
    3  the records read are consistent but there is no trailer (the writer
       was stopped; READING A FILE: the complete records are the capture)
"""
import json
import math
import struct
import sys

MAGIC = b"PMUPROBE"
MAJOR = 1
PREAMBLE = 24
META = 168
CORE_BLOCK = 48
EVENT_BLOCK = 104
METRIC_BLOCK = 64
MAX_CORES = 64
MAX_EVENTS = 32
MAX_METRICS = 8
RECORD_FIXED = 56
CORE_STATE = 8
VALUE = 16
TAIL_TAG = 0x4C494154
TRAILER_FIXED = 384
CAUSE_SLOTS = 16

KIND_SAMPLE, KIND_DROP = 0, 1
ST_OK, ST_DISCONT, ST_GAP = 0, 1, 2
CAUSES = ["none", "debug-off", "core-off", "double-lock", "os-lock", "pmu-disabled",
          "software-lock", "unknown", "dp-wait"]
REASONS = ["start", "read-failed", "after-gap", "power", "reset", "no-snapshot",
           "backwards", "overflow-ambiguous"]
DISC_AFTER_GAP = 1 << 2
STOPS = ["done", "signal", "path-died", "output-failed"]


class Bad(Exception):
    """An inconsistency at a file offset."""

    def __init__(self, offset, msg):
        super().__init__("offset %d (0x%x): %s" % (offset, offset, msg))


class Truncated(Exception):
    pass


class Reader:
    def __init__(self, data):
        self.data = data

    def get(self, fmt, off, what):
        size = struct.calcsize(fmt)
        if off + size > len(self.data):
            raise Truncated("offset %d: end of file inside %s (%d bytes needed, %d left)"
                            % (off, what, size, max(0, len(self.data) - off)))
        return struct.unpack_from(fmt, self.data, off)

    def u8(self, off, what):
        return self.get("<B", off, what)[0]

    def u16(self, off, what):
        return self.get("<H", off, what)[0]

    def u32(self, off, what):
        return self.get("<I", off, what)[0]

    def u64(self, off, what):
        return self.get("<Q", off, what)[0]

    def f64(self, off, what):
        return self.get("<d", off, what)[0]

    def zero(self, off, n, what):
        """DESCRIPTION: reserved and padding bytes are written as zero."""
        raw = self.get("<%ds" % n, off, what)[0]
        for i, b in enumerate(raw):
            if b:
                raise Bad(off + i, "%s: expected 0 (reserved), found 0x%02x" % (what, b))

    def string(self, off, n, what):
        """DESCRIPTION: NUL-padded, always holds a NUL."""
        raw = self.get("<%ds" % n, off, what)[0]
        end = raw.find(b"\0")
        if end < 0:
            raise Bad(off, "%s: char[%d] without a NUL" % (what, n))
        for i in range(end, n):
            if raw[i]:
                raise Bad(off + i, "%s: expected NUL padding after the text, found 0x%02x"
                          % (what, raw[i]))
        return raw[:end].decode("utf-8", "replace")


def expect(cond, off, msg):
    if not cond:
        raise Bad(off, msg)


def read_header(r):
    """HEADER: preamble, meta, core blocks."""
    h = {}
    magic = r.get("<8s", 0, "the magic")[0]
    expect(magic == MAGIC, 0, "magic: expected the ASCII bytes \"PMUPROBE\", found %r" % magic)
    major, minor = r.u16(8, "version major"), r.u16(10, "version minor")
    expect(major == MAJOR, 8, "version major: expected %d, found %d" % (MAJOR, major))
    h["version"] = "%d.%d" % (major, minor)
    h["minor"] = minor
    hlen, rlen = r.u32(12, "header length"), r.u32(16, "record length")
    r.zero(20, 4, "preamble reserved")
    m = PREAMBLE
    h["target"] = r.string(m, 64, "target name")
    h["path"] = r.string(m + 64, 64, "access path")
    h["interval_ns"] = r.u64(m + 128, "requested interval")
    h["start_mono_ns"] = r.u64(m + 136, "CLOCK_MONOTONIC at the start")
    h["start_real_ns"] = r.u64(m + 144, "CLOCK_REALTIME at the start")
    flags = r.u32(m + 152, "flags")
    h["realtime"] = bool(flags & 1)
    h["snapshot"] = bool(flags & 2)
    ncores, nvals = r.u32(m + 156, "ncores"), r.u32(m + 160, "nvals")
    r.zero(m + 164, 4, "meta reserved")
    expect(1 <= ncores <= MAX_CORES, m + 156, "ncores: expected 1..%d, found %d"
           % (MAX_CORES, ncores))
    off = PREAMBLE + META
    cores, first = [], 0
    for i in range(ncores):
        core, off = read_core(r, off, i, first)
        first += len(core["events"])
        cores.append(core)
    expect(first == nvals, m + 160, "nvals: expected the sum of every core's nev (%d), found %d"
           % (first, nvals))
    # A higher minor version appends to the header; the length covers it.
    expect(hlen == off if minor == 0 else hlen >= off, 12,
           "header length: expected 24 + 168 + the core blocks = %d, found %d" % (off, hlen))
    expect(hlen % 8 == 0, 12, "header length %d: expected a multiple of 8" % hlen)
    want = RECORD_FIXED + CORE_STATE * ncores + VALUE * nvals
    expect(rlen == want, 16, "record length: expected 56 + 8 x %d + 16 x %d = %d, found %d"
           % (ncores, nvals, want, rlen))
    cpus = [c["cpu"] for c in cores]
    expect(len(set(cpus)) == len(cpus), PREAMBLE + META, "cpu numbers repeat: %s" % cpus)
    h.update(header_len=hlen, record_len=rlen, ncores=ncores, nvals=nvals, cores=cores)
    return h


def read_core(r, off, i, first_want):
    """HEADER: a 48-byte core block, nev event blocks, nmetrics metric blocks."""
    what = "core block %d" % i
    c = {"cpu": r.u32(off, what + " cpu"), "type": r.string(off + 4, 24, what + " core type")}
    nev = r.u32(off + 28, what + " nev")
    first = r.u32(off + 32, what + " first")
    nmet = r.u32(off + 36, what + " nmetrics")
    r.zero(off + 40, 8, what + " reserved")
    expect(nev <= MAX_EVENTS, off + 28, "%s: nev expected 0..%d, found %d" % (what, MAX_EVENTS, nev))
    expect(first == first_want, off + 32, "%s: first expected %d (the previous first plus its "
           "nev), found %d" % (what, first_want, first))
    expect(nmet <= MAX_METRICS, off + 36, "%s: nmetrics expected 0..%d, found %d"
           % (what, MAX_METRICS, nmet))
    off += CORE_BLOCK
    c["events"] = []
    for e in range(nev):
        ew = "%s event %d" % (what, e)
        ev = {"name": r.string(off, 48, ew + " name"),
              "mnemonic": r.string(off + 48, 48, ew + " mnemonic"),
              "code": r.u16(off + 96, ew + " event number"),
              "counter": r.u8(off + 98, ew + " counter")}
        r.zero(off + 99, 5, ew + " reserved")
        expect(ev["counter"] <= 31, off + 98, "%s: counter expected PMEVCNTR<n> (0..30) or 31 "
               "(PMCCNTR), found %d" % (ew, ev["counter"]))
        c["events"].append(ev)
        off += EVENT_BLOCK
    c["metrics"] = []
    for k in range(nmet):
        mw = "%s metric %d" % (what, k)
        mt = {"name": r.string(off, 48, mw + " name"), "num": r.u8(off + 48, mw + " numerator"),
              "den": r.u8(off + 49, mw + " denominator")}
        r.zero(off + 50, 6, mw + " reserved")
        mt["scale"] = r.f64(off + 56, mw + " scale")
        for key, o in (("num", 48), ("den", 49)):
            expect(mt[key] < nev, off + o, "%s: %s expected an index into the core's %d events, "
                   "found %d" % (mw, key, nev, mt[key]))
        expect(math.isfinite(mt["scale"]), off + 56, "%s: scale is not a finite number" % mw)
        c["metrics"].append(mt)
        off += METRIC_BLOCK
    return c, off


class Records:
    """RECORDS: the state carried from one record to the next."""

    def __init__(self, h):
        self.h = h
        self.seq = 0                  # the next expected seq
        self.t_start = None
        self.samples = self.drops = self.dropped = self.late = 0
        self.first_t = None           # t_start of the first sample
        ncores = h["ncores"]
        self.gaps = [[0] * CAUSE_SLOTS for _ in range(ncores)]
        self.reasons = [0] * len(REASONS)
        self.status = [[0, 0, 0] for _ in range(ncores)]
        self.prev = [None] * ncores   # (status, totals) of the core in the previous sample
        self.last_totals = [None] * ncores

    def read(self, r, off):
        h = self.h
        kind = r.u32(off, "record kind")
        expect(kind in (KIND_SAMPLE, KIND_DROP), off, "kind: expected 0 (sample), 1 (drop) or "
               "the trailer tag 0x%08X, found 0x%08X" % (TAIL_TAG, kind))
        r.get("<%ds" % h["record_len"], off, "a record of %d bytes" % h["record_len"])
        nc, nv = r.u32(off + 4, "ncores"), r.u32(off + 8, "nvals")
        expect(nc == h["ncores"], off + 4, "record ncores: expected %d as in the header, found %d"
               % (h["ncores"], nc))
        expect(nv == h["nvals"], off + 8, "record nvals: expected %d as in the header, found %d"
               % (h["nvals"], nv))
        drop = r.u32(off + 12, "drop")
        seq = r.u64(off + 16, "seq")
        expect(seq == self.seq, off + 16, "seq: expected %d (0, 1, 2, ... with dropped samples "
               "counted), found %d" % (self.seq, seq))
        if kind == KIND_DROP:
            self.read_drop(r, off, drop)
        else:
            expect(drop == 0, off + 12, "drop: expected 0 in a sample, found %d" % drop)
            self.read_sample(r, off)

    def read_drop(self, r, off, drop):
        """RECORDS: samples seq .. seq + dropped - 1 lost; states and values zero."""
        expect(drop >= 1, off + 12, "drop record: expected at least 1 sample lost, found 0")
        # Its times carry no meaning (RECORDS): not checked.
        r.zero(off + RECORD_FIXED, self.h["record_len"] - RECORD_FIXED,
               "drop record core states and values")
        self.seq += drop
        self.drops += 1
        self.dropped += drop
        self.prev = [None] * self.h["ncores"]   # the previous sample was lost

    def read_sample(self, r, off):
        h = self.h
        t0, t1 = r.u64(off + 24, "t_start"), r.u64(off + 32, "t_end")
        expect(t0 <= t1, off + 24, "t_start %d: expected <= t_end %d" % (t0, t1))
        if self.t_start is not None:
            expect(t0 >= self.t_start, off + 24, "t_start %d: expected >= the previous sample's "
                   "%d (CLOCK_MONOTONIC)" % (t0, self.t_start))
        self.t_start = t0
        t_real = r.u64(off + 40, "t_real")
        if h["realtime"]:
            expect(t_real != 0, off + 40, "t_real: expected a CLOCK_REALTIME (flag bit 0 is set), "
                   "found 0")
        else:
            expect(t_real == 0, off + 40, "t_real: expected 0 (flag bit 0 is clear), found %d"
                   % t_real)
        late, interval = r.u64(off + 48, "late"), h["interval_ns"]
        expect(interval or late == 0, off + 48, "late: expected 0 (the requested interval is 0), "
               "found %d" % late)
        self.late += late * 2 > interval if interval else 0
        if self.first_t is None:
            self.first_t = t0
        vals = off + RECORD_FIXED + CORE_STATE * h["ncores"]
        for i, core in enumerate(h["cores"]):
            self.read_core_state(r, off + RECORD_FIXED + CORE_STATE * i, i, core,
                                 vals + VALUE * core_first(h, i))
        self.seq += 1
        self.samples += 1

    def read_core_state(self, r, so, i, core, vo):
        what = "cpu%d" % core["cpu"]
        status, cause = r.u8(so, what + " status"), r.u8(so + 1, what + " gap cause")
        reasons, untrusted = r.u16(so + 2, what + " discont"), r.u32(so + 4, what + " untrusted")
        nev = len(core["events"])
        expect(status in (ST_OK, ST_DISCONT, ST_GAP), so, "%s status: expected 0 ok, 1 discont "
               "or 2 gap, found %d" % (what, status))
        expect(reasons >> len(REASONS) == 0, so + 2, "%s discont reasons 0x%x: bits above %d are "
               "not defined" % (what, reasons, len(REASONS) - 1))
        expect(untrusted >> nev == 0, so + 4, "%s untrusted mask 0x%x: the core has %d events"
               % (what, untrusted, nev))
        self.status[i][status] += 1
        prev, self.prev[i] = self.prev[i], None
        if status == ST_GAP:
            expect(1 <= cause < len(CAUSES), so + 1, "%s gap cause: expected 1..%d, found %d"
                   % (what, len(CAUSES) - 1, cause))
            self.gaps[i][cause] += 1
            self.prev[i] = (ST_GAP, None)
            return
        expect(cause == 0, so + 1, "%s gap cause: expected 0 when the status is not gap, found %d"
               % (what, cause))
        if status == ST_OK:
            expect(reasons == 0, so + 2, "%s: status ok with discont reasons 0x%x" % (what, reasons))
        else:
            expect(reasons != 0, so + 2, "%s: status discont without a reason" % what)
        for b in range(len(REASONS)):
            self.reasons[b] += (reasons >> b) & 1
        if prev and prev[0] == ST_GAP:
            expect(status == ST_DISCONT and reasons & DISC_AFTER_GAP, so, "%s: after a gap sample "
                   "expected discont with reason bit 2 (previous sample was a gap), found status "
                   "%d reasons 0x%x" % (what, status, reasons))
        totals = []
        for e in range(nev):
            total = r.u64(vo + VALUE * e, "%s event %d total" % (what, e))
            delta = r.u64(vo + VALUE * e + 8, "%s event %d delta" % (what, e))
            if untrusted >> e & 1:
                expect(delta == 0, vo + VALUE * e + 8, "%s event %d: delta expected 0 (untrusted), "
                       "found %d" % (what, e, delta))
            elif prev and prev[1] is not None:
                # total: count since the capture started; delta: since the
                # previous sample, so the two agree when both are trusted.
                expect(total == prev[1][e] + delta, vo + VALUE * e, "%s event %d total: expected "
                       "the previous total %d + delta %d = %d, found %d"
                       % (what, e, prev[1][e], delta, prev[1][e] + delta, total))
            totals.append(total)
        self.prev[i] = (status, totals)
        self.last_totals[i] = totals


def core_first(h, i):
    return sum(len(c["events"]) for c in h["cores"][:i])


def read_trailer(r, off, h, rec):
    """TRAILER, checked against the records read."""
    t = {}
    tlen = r.u32(off + 4, "trailer length")
    missed_at = TRAILER_FIXED + VALUE * 8 * h["ncores"]     # 1.2 appends the missed count
    want = missed_at + (8 if h["minor"] >= 2 else 0)
    expect(tlen == want if h["minor"] == 0 else tlen >= want, off + 4,
           "trailer length: expected 384 + 128 x %d%s = %d, found %d"
           % (h["ncores"], " + 8" if h["minor"] >= 2 else "", want, tlen))
    r.get("<%ds" % tlen, off, "the trailer of %d bytes" % tlen)
    expect(off + tlen == len(r.data), off + tlen, "expected the end of the file after the "
           "trailer, found %d more bytes" % (len(r.data) - off - tlen))
    stop, valid = r.u32(off + 8, "stop"), r.u32(off + 12, "summary valid")
    expect(stop < len(STOPS), off + 8, "stop: expected 0..%d, found %d" % (len(STOPS) - 1, stop))
    expect(valid in (0, 1), off + 12, "summary valid: expected 0 or 1, found %d" % valid)
    t["stop"] = STOPS[stop]
    t["why"] = r.string(off + 16, 256, "why it stopped")
    t["valid"] = bool(valid)
    names = ["samples", "written", "late", "dropped", "blocked_ns"]   # written: records
    for k, name in enumerate(names):
        t[name] = r.u64(off + 272 + 8 * k, name)
    t["requested_hz"] = r.f64(off + 312, "requested rate")
    t["achieved_hz"] = r.f64(off + 320, "achieved rate")
    names = ["jitter_p50_ns", "jitter_p99_ns", "jitter_max_ns", "elapsed_ns", "bytes",
             "bus_round_trips", "bus_tck"]
    for k, name in enumerate(names):
        t[name] = r.u64(off + 328 + 8 * k, name)
    gaps = []
    for i, core in enumerate(h["cores"]):
        for cause in range(CAUSE_SLOTS):
            o = off + TRAILER_FIXED + VALUE * 8 * i + 8 * cause
            n = r.u64(o, "gap samples of cpu%d cause %d" % (core["cpu"], cause))
            if valid:
                expect(n == rec.gaps[i][cause], o, "gap samples of cpu%d cause %s: expected %d "
                       "as in the records, found %d" % (core["cpu"], cause_name(cause),
                                                         rec.gaps[i][cause], n))
            if n:
                gaps.append({"cpu": core["cpu"], "cause": cause_name(cause), "samples": n})
    t["gaps"] = gaps
    if h["minor"] >= 2:
        t["missed"] = r.u64(off + missed_at, "missed samples")
        expect(not valid or t["missed"] <= t["dropped"], off + missed_at, "missed samples: "
               "expected at most the %d dropped (missed ones are dropped ones), found %d"
               % (t["dropped"], t["missed"]))
    if valid:
        check_summary(off, t, h, rec)
    return t


def cause_name(c):
    return CAUSES[c] if c < len(CAUSES) else "cause-%d" % c


def check_summary(off, t, h, rec):
    expect(t["written"] == rec.samples + rec.drops, off + 280, "records written: expected %d "
           "(%d samples and %d drop records), found %d"
           % (rec.samples + rec.drops, rec.samples, rec.drops, t["written"]))
    expect(t["dropped"] == rec.dropped, off + 296, "dropped samples: expected %d as the drop "
           "records count, found %d" % (rec.dropped, t["dropped"]))
    expect(t["samples"] == rec.seq, off + 272, "samples taken: expected %d (every seq, dropped "
           "ones too), found %d" % (rec.seq, t["samples"]))
    # Dropped samples may have been late too: only their number bounds it.
    expect(rec.late <= t["late"] <= rec.late + rec.dropped, off + 288, "late samples: expected "
           "%d (samples late more than half the interval)%s, found %d"
           % (rec.late, " + up to %d dropped" % rec.dropped if rec.dropped else "", t["late"]))
    expect(t["jitter_p50_ns"] <= t["jitter_p99_ns"] <= t["jitter_max_ns"], off + 328,
           "jitter: expected p50 <= p99 <= max, found %d, %d, %d"
           % (t["jitter_p50_ns"], t["jitter_p99_ns"], t["jitter_max_ns"]))
    expect(t["bytes"] == off, off + 360, "bytes written: expected %d, where the trailer starts, "
           "found %d" % (off, t["bytes"]))
    if h["interval_ns"]:
        want = 1e9 / h["interval_ns"]
        expect(abs(t["requested_hz"] - want) <= want * 1e-9, off + 312, "requested rate: expected "
               "1e9 / interval = %g Hz, found %g" % (want, t["requested_hz"]))
    else:
        expect(t["requested_hz"] == 0, off + 312, "requested rate: expected 0 (the interval is "
               "0), found %g" % t["requested_hz"])
    if not rec.dropped:
        # (taken - 1) over the first to the last t_start; a dropped last
        # sample's t_start is not in the file.
        span = rec.t_start - rec.first_t if rec.samples else 0
        want = (t["samples"] - 1) * 1e9 / span if t["samples"] > 1 and span else 0.0
        expect(abs(t["achieved_hz"] - want) <= want * 1e-9, off + 320, "achieved rate: expected "
               "(taken - 1) x 1e9 / (last t_start - first t_start) = %.6f Hz, found %.6f"
               % (want, t["achieved_hz"]))
    for name, o in (("requested_hz", 312), ("achieved_hz", 320)):
        expect(math.isfinite(t[name]) and t[name] >= 0, off + o, "%s: expected a finite rate >= 0, "
               "found %r" % (name, t[name]))


def read_file(data):
    """READING A FILE: preamble, header, then records until the trailer tag."""
    r = Reader(data)
    h = read_header(r)
    rec = Records(h)
    off, trailer, truncated = h["header_len"], None, None
    if h["minor"]:
        r.get("<%ds" % off, 0, "the header of %d bytes" % off)
    while True:
        if off == len(data):
            truncated = "offset %d: end of file where a record would start: no trailer" % off
            break
        in_trailer = False
        try:
            in_trailer = r.u32(off, "a record kind or the trailer tag") == TAIL_TAG
            if in_trailer:
                trailer = read_trailer(r, off, h, rec)
                break
            rec.read(r, off)
        except Truncated as e:
            truncated = "%s: %s" % (e, "the trailer is cut short" if in_trailer else "no trailer")
            break
        off += h["record_len"]
    return summary(h, rec, trailer), truncated


def summary(h, rec, trailer):
    gaps = []
    for i, core in enumerate(h["cores"]):
        for cause, n in enumerate(rec.gaps[i]):
            if n:
                gaps.append({"cpu": core["cpu"], "cause": cause_name(cause), "samples": n})
    cores = []
    for i, core in enumerate(h["cores"]):
        ok, disc, gap = rec.status[i]
        last = rec.last_totals[i]
        cores.append({"cpu": core["cpu"], "type": core["type"], "ok": ok, "discont": disc,
                      "gap": gap, "events": [e["name"] for e in core["events"]],
                      "last_totals": last})
    return {
        "version": h["version"], "target": h["target"], "path": h["path"],
        "interval_ns": h["interval_ns"], "ncores": h["ncores"], "nvals": h["nvals"],
        "records": {"sample": rec.samples, "drop": rec.drops},
        "samples": rec.seq, "dropped": rec.dropped,
        "discont_reasons": {REASONS[b]: n for b, n in enumerate(rec.reasons) if n},
        "gaps": gaps, "cores": cores, "trailer": trailer,
    }


def main(argv):
    if len(argv) != 2 or argv[1].startswith("-"):
        print("usage: binread.py FILE.bin", file=sys.stderr)
        return 2
    try:
        with open(argv[1], "rb") as f:
            data = f.read()
    except OSError as e:
        print("binread.py: %s" % e, file=sys.stderr)
        return 2
    try:
        if len(data) < PREAMBLE + META:
            raise Truncated("offset 0: %d bytes, shorter than the 192-byte preamble and meta"
                            % len(data))
        out, truncated = read_file(data)
    except Bad as e:
        print("binread.py: %s: %s" % (argv[1], e), file=sys.stderr)
        return 1
    except Truncated as e:
        print("binread.py: %s: %s (in the header)" % (argv[1], e), file=sys.stderr)
        return 1
    print(json.dumps(out, indent=1, sort_keys=True))
    if truncated:
        print("binread.py: %s: %s (the writer was stopped before its trailer)"
              % (argv[1], truncated), file=sys.stderr)
        return 3
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

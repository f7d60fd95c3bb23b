"""Captures: the C engine samples on its own threads, on its own clock;
Python pulls what it took from the engine's bounded queue
(pp_capture_next), so the probe's timing never depends on the
interpreter.  A puller that falls behind makes samples late (counted in
stats()["late"]), never lost."""
from ._ffi import cstr, ffi, has, lib, string
from ._util import Closing, cpu_number, event_list, to_ns
from .errors import Error, LinkError, Unsupported, error

_PULL_NS = 100 * 10**6   # a Ctrl-C is seen within this while waiting
_STOPS = {0: "running", 1: "done", 2: "stopped", 3: "link-lost", 4: "file-failed"}


def cause_name(cause):
    """"core-off" for PP_CAUSE_CORE_OFF (pp_cause_name)."""
    if not has("pp_cause_name"):        # a library without the status section
        return "cause-%d" % cause
    return string(lib.pp_cause_name(cause))


def cause_text(cause):
    """"core powered off" for PP_CAUSE_CORE_OFF (pp_cause_str)."""
    if not has("pp_cause_str"):
        return "cause %d" % cause
    return string(lib.pp_cause_str(cause))


def _cause_codes():
    """{"core-off": 2, ...}: every cause of enum pp_cause, by name."""
    if not has("pp_cause_name"):
        return {}
    return {cause_name(v): v for v in sorted(ffi.typeof("enum pp_cause").elements)}


class Sample:
    """One core's slice of one sample.

    seq (0 is the baseline; a jump means samples were missed), t_ns
    (target-side read time since the capture's start) and time (the same
    in seconds), t_real_ns (wall clock), core (the cpu number), index (the
    core's place in the capture), gap (True: no values; see cause).

    A sample: values and deltas ({event name: 64-bit count}; totals since
    the start and the change since the core's previous sample), baseline
    (the first sample: deltas 0), discont (names of events whose delta is
    not trusted and reads 0: baseline, power cycle, reset).

    A gap: cause ("core-off", "os-lock", "double-lock", "pmu-disabled",
    "taken-over", "dp-wait", ...), cause_text ("core powered off");
    values and deltas are None."""
    __slots__ = ("seq", "t_ns", "t_real_ns", "index", "core", "gap", "cause", "cause_text",
                 "baseline", "values", "deltas", "discont")

    @property
    def time(self):
        """Seconds since the capture's start."""
        return self.t_ns / 1e9

    def __repr__(self):
        if self.gap:
            return "<Gap seq=%d t=%.6f cpu%d cause=%s>" % (self.seq, self.time, self.core,
                                                            self.cause)
        return "<Sample seq=%d t=%.6f cpu%d %s>" % (self.seq, self.time, self.core, self.values)


class Capture(Closing):
    """A running capture (pp_capture_*).  Iterate it for Sample items as
    they arrive; it ends when its duration or count is reached, or after
    stop().  A context manager; close() (also when the loop is left
    early) stops it and hands the PMUs back.

    Options beyond Session.capture's: force (take counters someone else
    uses), snapshot (read all of a core's events at one instant: A55/A76),
    no_repeat (never the path's repeat mode), edprsr (False: do not check
    power per sample), realtime (read the wall clock per sample), file and
    format (also write the capture as `pmuprobe stream -o` does: "bin",
    "csv", "jsonl", "perf", "trace"), queue (the pull queue's length in
    core slices; 0: the library's default)."""

    def __init__(self, session, events=("cycles", "instructions"), cores=None, interval=None,
                 duration=None, count=None, force=False, snapshot=False, no_repeat=False,
                 edprsr=True, realtime=False, file=None, format=None, queue=0):
        self._c = None
        if not has("pp_capture_start"):
            raise Unsupported(-10, "this libpmuprobe has no capture API (library too old)")
        self._session = session
        self._stats = None
        self._gaps = None
        self.end_status = None
        o = ffi.new("struct pp_capture_opts *")
        keep = [cstr(event_list(events)), cstr(file), cstr(format)]
        o.events, o.file, o.format = keep
        if cores is not None:
            cpus = [cpu_number(c) for c in cores]
            arr = ffi.new("unsigned[]", cpus or [0])
            keep.append(arr)
            o.cpus, o.ncpus = arr, len(cpus)
        o.interval_ns = to_ns(interval, "interval") or 0
        o.duration_ns = to_ns(duration) or 0
        if count is not None:
            o.count = int(count)
        o.flags = ((lib.PP_CAPTURE_FORCE if force else 0)
                   | (lib.PP_CAPTURE_SNAPSHOT if snapshot else 0)
                   | (lib.PP_CAPTURE_NO_REPEAT if no_repeat else 0)
                   | (0 if edprsr else lib.PP_CAPTURE_NO_EDPRSR)
                   | (lib.PP_CAPTURE_REALTIME if realtime else 0)
                   | (lib.PP_CAPTURE_PULL if file is not None else 0))
        o.queue = queue
        err = ffi.new("char[]", 2048)
        out = ffi.new("struct pp_capture **")
        session._check(lib.pp_capture_start(session._handle(), o, out, err, len(err)), err)
        self._c = out[0]
        self.events = [string(lib.pp_capture_event_name(self._c, i))
                       for i in range(lib.pp_capture_nevents(self._c))]
        self.cores = [lib.pp_capture_cpu(self._c, k) for k in range(lib.pp_capture_ncores(self._c))]
        self._smp = ffi.new("struct pp_sample *")
        session._children.add(self)

    # -- pulling ---------------------------------------------------------
    def _next(self, timeout_ns):
        """1 and the slice in self._smp, 0 on timeout, None at the end."""
        if self._c is None:
            return None
        rc = lib.pp_capture_next(self._c, self._smp, timeout_ns)
        self._session._raise_trace_error()
        if rc == lib.PP_CAPTURE_END:
            return None
        if rc < 0:
            raise error(rc, "pp_capture_next failed")
        return rc

    def _item(self):
        s = self._smp
        it = Sample()
        it.seq, it.t_ns, it.t_real_ns = s.seq, s.t_ns, s.t_real_ns
        it.index, it.core, it.gap, it.baseline = s.core, s.cpu, bool(s.gap), bool(s.baseline)
        if it.gap:
            it.cause, it.cause_text = cause_name(s.cause), cause_text(s.cause)
            it.values = it.deltas = None
            it.discont = ()
        else:
            it.cause = it.cause_text = None
            n = s.nvalues
            it.values = dict(zip(self.events, s.values[0:n]))
            it.deltas = dict(zip(self.events, s.deltas[0:n]))
            it.discont = tuple(e for i, e in enumerate(self.events) if s.discont >> i & 1)
        return it

    def __iter__(self):
        try:
            while True:
                got = self._next(_PULL_NS)
                if got is None:
                    break
                if got:
                    yield self._item()
        finally:
            self.close()
        self._raise_end()

    def _raise_end(self):
        st = self._stats or {}
        if st.get("stop") == "link-lost":
            raise LinkError(lib.PP_E_LINK, "capture ended: the access path was lost: %s"
                            % st.get("stop_msg", ""))
        if st.get("stop") == "file-failed":
            raise error(lib.PP_E_IO, "capture ended: its file failed: %s" % st.get("stop_msg", ""))

    # -- NumPy -------------------------------------------------------------
    def _dtype(self):
        import numpy as np
        n = len(self.events)
        return np.dtype([("seq", "u8"), ("t_ns", "u8"), ("core", "u4"), ("gap", "?"),
                         ("cause", "U16"), ("values", "u8", (n,)), ("deltas", "u8", (n,))])

    def _row(self):
        s = self._smp
        n = s.nvalues
        zero = [0] * len(self.events)
        if s.gap:
            return (s.seq, s.t_ns, s.cpu, True, cause_name(s.cause), zero, zero)
        return (s.seq, s.t_ns, s.cpu, False, "", list(s.values[0:n]), list(s.deltas[0:n]))

    def batches(self, size=4096):
        """Yields NumPy structured arrays of up to size core slices as they
        arrive (fields seq, t_ns, core, gap, cause, values[nevents],
        deltas[nevents]; a gap's values are 0).  Needs NumPy."""
        try:
            import numpy as np
        except ImportError as e:
            raise ImportError("Capture.batches/to_numpy need NumPy (Debian: python3-numpy)") from e
        dt = self._dtype()
        rows = []
        try:
            while True:
                got = self._next(_PULL_NS)
                if got is None:
                    break
                if got:
                    rows.append(self._row())
                if rows and (len(rows) >= size or not got):
                    yield np.array(rows, dtype=dt)
                    rows = []
        finally:
            self.close()
        if rows:
            yield np.array(rows, dtype=dt)
        self._raise_end()

    def to_numpy(self):
        """Every remaining core slice, to the capture's end, as one NumPy
        structured array (see batches)."""
        import numpy as np
        parts = list(self.batches())
        return np.concatenate(parts) if parts else np.zeros(0, dtype=self._dtype())

    # -- control -------------------------------------------------------------
    def stop(self):
        """Asks the capture to end; what it took is still iterated.  Any
        thread."""
        if self._c is not None:
            lib.pp_capture_stop(self._c)

    def stats(self):
        """The figures so far, or the final ones once closed: samples,
        written, late, dropped, missed, gap_samples, bytes, elapsed_ns,
        requested_hz, achieved_hz, jitter_*_ns, stop ("running", "done",
        "stopped", "link-lost", "file-failed") and stop_msg."""
        if self._c is None:
            return dict(self._stats or {})
        st = ffi.new("struct pp_capture_stats *")
        lib.pp_capture_stats(self._c, st)
        d = {k: getattr(st, k) for k in ("samples", "written", "late", "dropped", "missed",
                                         "gap_samples", "bytes", "elapsed_ns", "requested_hz",
                                         "achieved_hz", "jitter_p50_ns", "jitter_p99_ns",
                                         "jitter_max_ns")}
        d["stop"] = _STOPS.get(st.stop, str(st.stop))
        d["stop_msg"] = string(st.stop_msg)
        return d

    def gaps(self, cpu, cause):
        """How many gap slices cpu had with cause ("core-off") so far (the
        final count once closed)."""
        k = self.cores.index(cpu_number(cpu))
        codes = _cause_codes()
        if cause not in codes:
            raise ValueError("no cause %r (causes: %s)" % (cause, ", ".join(codes)))
        if self._c is None:
            return (self._gaps or {}).get((k, cause), 0)
        return lib.pp_capture_gaps(self._c, k, codes[cause])

    def close(self):
        """Stops the capture, waits for its end (pulling what is left, so the
        engine can finish), keeps the final stats() and hands the PMUs
        back.  Returns the end's pp_err (0: done or stopped); again is a
        no-op."""
        if self._c is None:
            return self.end_status
        c = self._c
        lib.pp_capture_stop(c)
        while not lib.pp_capture_wait(c, _PULL_NS):
            while lib.pp_capture_next(c, self._smp, 0) == 1:
                pass
        self._stats = self.stats()
        self._gaps = {(k, name): lib.pp_capture_gaps(c, k, code)
                      for k in range(len(self.cores)) for name, code in _cause_codes().items()}
        self._c = None
        self._session._children.discard(self)
        self.end_status = lib.pp_capture_close(c)
        return self.end_status

"""Captures: the C engine samples on its own threads, on its own clock;
Python pulls what it took from the engine's bounded queue, many core
slices per C call (pp_capture_next_batch), so the probe's timing never
depends on the interpreter.  A puller that falls behind makes samples
late (counted in stats()["late"]), never lost."""
from ._ffi import cstr, ffi, has, lib, string
from ._util import Closing, cpu_number, event_list, to_ns
from .errors import Error, LinkError, Unsupported, error

_PULL_NS = 100 * 10**6   # a Ctrl-C is seen within this while waiting
_STOPS = {0: "running", 1: "done", 2: "stopped", 3: "link-lost", 4: "file-failed"}
_BATCH_ROWS = 4096
# A pull waits this long at most for its batch to fill (pp_sample_batch
# .fill_ns): a fast capture then wakes Python once per full batch, not
# once per burst of the engine's writer; a slow one hands each sample
# over at most this much later.
_FILL_NS = 10**6
_QUEUE_MIN = 1024        # the library's default queue, in samples of every core
# Per-row columns of struct pp_sample_batch, in Sample's order (_items).
_ROW_FIELDS = ("seq", "t_ns", "t_real_ns", "core", "cpu", "gap", "cause", "discont")
_CTYPES = {"seq": "uint64_t", "t_ns": "uint64_t", "t_real_ns": "uint64_t", "core": "uint32_t",
           "cpu": "uint32_t", "gap": "uint8_t", "cause": "int32_t", "discont": "uint32_t"}
# The C column behind a field of the NumPy form, where the names differ:
# the package calls the cpu number "core" and the capture's index "index".
_NP_NAMES = {"core": "index", "cpu": "core"}


# The columns copied as they are into the NumPy form: (C column, NumPy
# type, bytes per row); cause becomes a name, values and deltas 2-D.
_NP_COLUMNS = [(k, {"uint64_t": "=u8", "uint32_t": "=u4", "uint8_t": "u1"}[_CTYPES[k]],
                {"uint64_t": 8, "uint32_t": 4, "uint8_t": 1}[_CTYPES[k]])
               for k in _ROW_FIELDS if k != "cause"]


_TYPES = {}


def _types():
    """The cffi types the batch arrays are made of, parsed once per
    process.  Parsing a type string costs milliseconds (pycparser): done
    before a capture starts, not while its engine already samples."""
    if not _TYPES:
        _TYPES["batch"] = ffi.typeof("struct pp_sample_batch *")
        for t in set(_CTYPES.values()):
            _TYPES[t] = ffi.typeof(t + "[]")
    return _TYPES


class _Batch:
    """The caller-owned arrays pp_capture_next_batch fills (struct
    pp_sample_batch), allocated once per capture and reused by every
    pull: one C array per column, values and deltas rows x stride."""

    def __init__(self, nevents, rows):
        t = _types()
        self.rows, self.stride = int(rows), max(nevents, 1)
        self.b = ffi.new(t["batch"])
        self.columns = {k: ffi.new(t[c], self.rows) for k, c in _CTYPES.items()}
        for k in ("values", "deltas"):
            self.columns[k] = ffi.new(t["uint64_t"], self.rows * self.stride)
        for k, arr in self.columns.items():
            setattr(self.b, k, arr)
        self.b.max, self.b.stride, self.b.fill_ns = self.rows, self.stride, _FILL_NS


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
    uses), snapshot (None, the default: the snapshot block where the core has
    it and more than the cycle counter is counted, live reads elsewhere;
    True: the block, all of a core's events at one instant, A55/A76;
    False: live reads; see docs/sample-plan.md),
    no_repeat (never the path's repeat mode), edprsr (False: do not check
    power per sample), realtime (read the wall clock per sample), file and
    format (also write the capture as `pmuprobe stream -o` does: "bin",
    "csv", "jsonl", "perf", "trace"), queue (the pull queue's length in
    samples of every core; 0: room for two batches, at least 1024),
    batch (the most core slices one pull hands over, default 4096).

    Underneath, iterating and batches() alike pull many slices per C
    call (pp_capture_next_batch) into column arrays allocated once; the
    iterator then builds a Sample per slice, batches() a NumPy array (or
    lists) per pull, which is the fast form."""

    def __init__(self, session, events=("cycles", "instructions"), cores=None, interval=None,
                 duration=None, count=None, force=False, snapshot=None, no_repeat=False,
                 edprsr=True, realtime=False, file=None, format=None, queue=0,
                 batch=_BATCH_ROWS):
        self._c = None
        if not has("pp_capture_next_batch"):
            raise Unsupported(-10, "this libpmuprobe has no batch capture API (library too old)")
        if int(batch) < 1:
            raise ValueError("batch %r: expected at least 1 row" % (batch,))
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
                   | (lib.PP_CAPTURE_LIVE if snapshot is False else 0)
                   | (lib.PP_CAPTURE_NO_REPEAT if no_repeat else 0)
                   | (0 if edprsr else lib.PP_CAPTURE_NO_EDPRSR)
                   | (lib.PP_CAPTURE_REALTIME if realtime else 0)
                   | (lib.PP_CAPTURE_PULL if file is not None else 0))
        # Room for two batches by default: the engine's writer keeps
        # queueing while Python is woken for the one before (which, on a
        # loaded machine, waits for a core).
        ncores = len(cores) if cores is not None else len(session.cores)
        o.queue = queue or max(_QUEUE_MIN, -(-2 * int(batch) // max(ncores, 1)))
        err = ffi.new("char[]", 2048)
        out = ffi.new("struct pp_capture **")
        _types()
        session._check(lib.pp_capture_start(session._handle(), o, out, err, len(err)), err)
        self._c = out[0]
        self.events = [string(lib.pp_capture_event_name(self._c, i))
                       for i in range(lib.pp_capture_nevents(self._c))]
        self.cores = [lib.pp_capture_cpu(self._c, k) for k in range(lib.pp_capture_ncores(self._c))]
        self._batch = _Batch(len(self.events), batch)
        session._children.add(self)

    # -- pulling ---------------------------------------------------------
    def _pull(self, timeout_ns):
        """One pp_capture_next_batch into self._batch: its rows (>= 1), 0 on
        timeout, None at the end."""
        if self._c is None:
            return None
        b = self._batch
        rc = lib.pp_capture_next_batch(self._c, b.b, timeout_ns)
        self._session._raise_trace_error()
        if rc == lib.PP_CAPTURE_END:
            return None
        if rc < 0:
            raise error(rc, "pp_capture_next_batch failed")
        return b.b.n if rc else 0

    def _pulls(self):
        """Row counts of the batches as they come, to the end; the capture
        is closed when the generator ends or is dropped."""
        try:
            while True:
                n = self._pull(_PULL_NS)
                if n is None:
                    break
                if n:
                    yield n
        finally:
            self.close()
        self._raise_end()

    def _items(self, n):
        """The batch's n rows as Sample items (columns unpacked first: one
        C-level copy per column, not a cffi access per field)."""
        col = self._batch.columns
        ev, ne, stride = self.events, len(self.events), self._batch.stride
        vals, dels = ffi.unpack(col["values"], n * stride), ffi.unpack(col["deltas"], n * stride)
        rows = zip(range(0, n * stride, stride), *(ffi.unpack(col[k], n) for k in _ROW_FIELDS))
        out = []
        for o, seq, t_ns, t_real_ns, index, cpu, gap, cause, discont in rows:
            it = Sample()
            it.seq, it.t_ns, it.t_real_ns, it.index, it.core = seq, t_ns, t_real_ns, index, cpu
            it.baseline = seq == 0
            if gap:
                it.gap, it.cause, it.cause_text = True, cause_name(cause), cause_text(cause)
                it.values = it.deltas = None
                it.discont = ()
            else:
                it.gap, it.cause, it.cause_text = False, None, None
                it.values = dict(zip(ev, vals[o:o + ne]))
                it.deltas = dict(zip(ev, dels[o:o + ne]))
                it.discont = tuple(e for i, e in enumerate(ev) if discont >> i & 1) \
                    if discont else ()
            out.append(it)
        return out

    def __iter__(self):
        for n in self._pulls():
            yield from self._items(n)

    def _raise_end(self):
        st = self._stats or {}
        if st.get("stop") == "link-lost":
            raise LinkError(lib.PP_E_LINK, "capture ended: the access path was lost: %s"
                            % st.get("stop_msg", ""))
        if st.get("stop") == "file-failed":
            raise error(lib.PP_E_IO, "capture ended: its file failed: %s" % st.get("stop_msg", ""))

    # -- batches: NumPy, or columns of plain lists -------------------------
    def dtype(self):
        """The NumPy dtype of batches() and to_numpy(): seq, t_ns, t_real_ns
        (u8), index (the core's place in the capture), core (the cpu
        number), gap (bool), cause ("core-off" in a gap, else ""),
        discont (bit i: event i's delta not trusted), values and deltas
        (u8[nevents]; 0 in a gap)."""
        import numpy as np
        n = len(self.events)
        return np.dtype([("seq", "u8"), ("t_ns", "u8"), ("t_real_ns", "u8"), ("index", "u4"),
                         ("core", "u4"), ("gap", "?"), ("cause", "U16"), ("discont", "u4"),
                         ("values", "u8", (n,)), ("deltas", "u8", (n,))])

    def _array(self, n, np, dt):
        """The batch's n rows as a NumPy structured array: each C column
        viewed in place (np.frombuffer over ffi.buffer) and copied once
        into the array, since the next pull reuses the C arrays."""
        col, stride, ne = self._batch.columns, self._batch.stride, len(self.events)
        a = np.empty(n, dtype=dt)
        for k, t, size in _NP_COLUMNS:
            a[_NP_NAMES.get(k, k)] = np.frombuffer(ffi.buffer(col[k], n * size), t)
        for k in ("values", "deltas"):
            v = np.frombuffer(ffi.buffer(col[k], n * stride * 8), np.uint64)
            a[k] = v.reshape(n, stride)[:, :ne]
        gap = a["gap"]
        a["cause"] = ""
        if gap.any():
            codes = np.frombuffer(ffi.buffer(col["cause"], n * 4), np.int32)
            a["cause"][gap] = [cause_name(int(c)) for c in codes[gap]]
        return a

    def _lists(self, n):
        """The batch's n rows as a dict of columns (plain lists), without
        NumPy: the same fields as dtype(), values and deltas a list per
        row."""
        col, stride, ne = self._batch.columns, self._batch.stride, len(self.events)
        out = {_NP_NAMES.get(k, k): ffi.unpack(col[k], n) for k, _, _ in _NP_COLUMNS}
        out["gap"] = [bool(g) for g in out["gap"]]
        codes = ffi.unpack(col["cause"], n)
        out["cause"] = [cause_name(c) if g else "" for g, c in zip(out["gap"], codes)]
        for k in ("values", "deltas"):
            flat = ffi.unpack(col[k], n * stride)
            out[k] = [flat[o:o + ne] for o in range(0, n * stride, stride)]
        return out

    def batches(self, size=None, numpy=None):
        """Yields the slices in batches as they arrive, one C call
        (pp_capture_next_batch) per batch of up to size rows (default:
        the capture's batch, see Session.capture): NumPy structured
        arrays (fields: dtype()), or, with numpy=False or NumPy missing,
        dicts of the same fields as plain lists (values[i] the list of row
        i's values).  A gap row keeps its place: gap True, cause its name,
        values 0."""
        if size is not None and int(size) != self._batch.rows:
            if int(size) < 1:
                raise ValueError("size %r: expected at least 1 row" % (size,))
            self._batch = _Batch(len(self.events), size)
        if numpy is None or numpy:
            try:
                import numpy as np
            except ImportError as e:
                if numpy:
                    raise ImportError("Capture.batches(numpy=True) needs NumPy "
                                      "(Debian: python3-numpy)") from e
                np = None
        else:
            np = None
        dt = self.dtype() if np is not None else None
        for n in self._pulls():
            yield self._array(n, np, dt) if np is not None else self._lists(n)

    def to_numpy(self):
        """Every remaining core slice, to the capture's end, as one NumPy
        structured array (fields: dtype())."""
        try:
            import numpy as np
        except ImportError as e:
            raise ImportError("Capture.to_numpy needs NumPy (Debian: python3-numpy); "
                              "batches(numpy=False) gives plain lists") from e
        parts = list(self.batches(numpy=True))
        return np.concatenate(parts) if parts else np.zeros(0, dtype=self.dtype())

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
            while lib.pp_capture_next_batch(c, self._batch.b, 0) == 1:
                pass
        self._stats = self.stats()
        self._gaps = {(k, name): lib.pp_capture_gaps(c, k, code)
                      for k in range(len(self.cores)) for name, code in _cause_codes().items()}
        self._c = None
        self._session._children.discard(self)
        self.end_status = lib.pp_capture_close(c)
        return self.end_status

"""Sessions: a target over an access path, its cores, raw bus access,
counter sets, the wire trace, and the status/register/event/scan reports."""
import dataclasses
import os
import weakref
from typing import List, Optional

from ._ffi import cstr, ffi, has, lib, string
from ._util import Closing, cpu_number, event_list
from .errors import Error, InvalidArgument, Unsupported, error

ERRLEN = 2048
TRACE_LEVELS = {"off": 0, "apb": 1, "dap": 2, "wire": 3}
_LEVEL_NAMES = {v: k for k, v in TRACE_LEVELS.items()}
SIM_TIMES = {None: 0, "default": 0, "deterministic": 1, "realtime": 2}


def _need(name):
    if not has(name):
        raise Unsupported(-10, "this libpmuprobe has no %s (library too old)" % name)


@dataclasses.dataclass(frozen=True)
class Core:
    """A core of the target (pp_core_info): cpu number ("cpuN"), cluster,
    type ("cortex-a76"), pretty ("Cortex-A76"), midr (as read over the
    bus; None when the read failed), debug_base, pmu_base, counters
    (event counters; the cycle counter is extra)."""
    index: int
    cpu: int
    cluster: int
    type: str
    pretty: str
    midr: Optional[int]
    debug_base: int
    pmu_base: int
    counters: int


@dataclasses.dataclass(frozen=True)
class TraceRecord:
    """One wire trace record: layer ("apb", "dap", "wire"), t_ns
    (CLOCK_MONOTONIC), write, addr, value, reg ("cpu0 PMCR", "TAR"; ""
    when unknown), status ("ok", "WAIT"...), retry, and text, the whole
    record as the CLI's --trace prints it."""
    layer: str
    t_ns: int
    write: bool
    addr: int
    value: int
    reg: str
    status: str
    retry: int
    text: str


class _Trace:
    """Adapts a Python trace sink to pp_trace_fn.  The callback runs inside
    the library call that made the access, or on a capture's sampler
    thread; an exception it raises cannot cross C, so it is kept and
    raised by the session's next call."""

    def __init__(self, sink):
        self.file = None
        if callable(sink):
            self.fn = sink
        elif hasattr(sink, "write"):
            self.fn = lambda rec: sink.write(rec.text + "\n")
        elif isinstance(sink, (str, bytes, os.PathLike)):
            self.file = open(sink, "w")
            self.fn = lambda rec: self.file.write(rec.text + "\n")
        else:
            raise TypeError("trace: expected a callable, a file object or a path, got %r"
                            % (sink,))
        self.error = None
        self.cb = ffi.callback("pp_trace_fn", self._on_record)

    def _on_record(self, user, rec):
        if self.error is not None:
            return
        try:
            self.fn(TraceRecord(_LEVEL_NAMES.get(rec.layer, str(rec.layer)), rec.t_ns,
                                bool(rec.write), rec.addr, rec.value, string(rec.reg) or "",
                                string(rec.status) or "", rec.retry, string(rec.text) or ""))
        except BaseException as e:  # raised again by the session's next call
            self.error = e

    def close(self):
        if self.file is not None:
            self.file.close()
            self.file = None


def _level(level):
    if level is None:
        return 0
    if isinstance(level, str):
        if level not in TRACE_LEVELS:
            raise ValueError("trace level %r: expected one of %s" % (level, ", ".join(TRACE_LEVELS)))
        return TRACE_LEVELS[level]
    return int(level)


class Bus:
    """The session's access path for raw 32-bit APB access."""

    def __init__(self, session):
        self._session = session

    @property
    def _bus(self):
        return lib.pp_session_bus(self._session._handle())

    @property
    def name(self):
        """The path's name ("sim", "rbb")."""
        return string(lib.pp_bus_name(self._bus))

    def read32(self, addr):
        """The 32-bit word at APB address addr."""
        val = ffi.new("uint32_t *")
        self._check(lib.pp_bus_read32(self._bus, addr, val), addr)
        return int(val[0])

    def write32(self, addr, value):
        """Writes the 32-bit value to APB address addr."""
        self._check(lib.pp_bus_write32(self._bus, addr, value), addr)

    def run(self, ops):
        """Runs a batch in as few round trips as the path allows.  ops: APB
        addresses to read (int) and (addr, value) pairs to write.  Returns
        one entry per op: the value read, or None for a write.  Raises the
        error of the first failed op (its index in .op)."""
        ops = list(ops)
        c = ffi.new("struct pp_op[]", max(len(ops), 1))
        for i, op in enumerate(ops):
            if isinstance(op, tuple):
                c[i].addr, c[i].wdata, c[i].write = op[0], op[1], 1
            else:
                c[i].addr = op
        lib.pp_bus_run(self._bus, c, len(ops))
        self._session._raise_trace_error()
        out = []
        for i, op in enumerate(ops):
            if c[i].st != lib.PP_OP_OK:
                e = error(lib.pp_op_status_err(c[i].st), "op %d at 0x%08X: %s"
                          % (i, c[i].addr, string(lib.pp_op_status_str(c[i].st))))
                e.op = i
                raise e
            out.append(None if c[i].write else int(c[i].rdata))
        return out

    def stats(self):
        """What the path spent so far: batches, ops, round_trips, tck."""
        st = ffi.new("struct pp_bus_stats *")
        lib.pp_bus_get_stats(self._bus, st)
        return {"batches": st.batches, "ops": st.ops, "round_trips": st.round_trips,
                "tck": st.tck}

    def _check(self, rc, addr):
        self._session._raise_trace_error()
        if rc != lib.PP_OK:
            detail = string(lib.pp_bus_errmsg(self._bus))
            raise error(rc, "0x%08X: %s%s" % (addr, string(lib.pp_strerror(rc)),
                                              ": " + detail if detail else ""))


class Counters(Closing):
    """Counters programmed on one core (pp_counters_*): open with
    Session.counters(); read() gives the 64-bit counts since the open by
    event name.  A context manager; close() stops the counters and
    releases the PMU."""

    def __init__(self, session, cpu, events):
        self._c = None
        self._session = session
        self.cpu = cpu_number(cpu)
        err = ffi.new("char[]", ERRLEN)
        out = ffi.new("struct pp_counters **")
        rc = lib.pp_counters_open(session._handle(), self.cpu, cstr(event_list(events)), out,
                                  err, ERRLEN)
        session._check(rc, err, cpu=self.cpu)
        self._c = out[0]
        self.names = [string(lib.pp_counters_name(self._c, i))
                      for i in range(lib.pp_counters_count(self._c))]
        session._children.add(self)

    def read(self):
        """{event name: count since the open}, in event order (one bus batch)."""
        return dict(zip(self.names, self.read_list()))

    def read_list(self):
        """The counts as a list, in event order."""
        if self._c is None:
            raise ValueError("counters of cpu%d are closed" % self.cpu)
        vals = ffi.new("uint64_t[]", max(len(self.names), 1))
        rc = lib.pp_counters_read(self._c, vals, len(self.names))
        self._session._check(rc, None, cpu=self.cpu)
        return [int(vals[i]) for i in range(len(self.names))]

    def close(self):
        """Stops the counters and releases the PMU; again is a no-op."""
        if self._c is None:
            return
        c, self._c = self._c, None
        self._session._children.discard(self)
        rc = lib.pp_counters_close(c)
        self._session._check(rc, None, cpu=self.cpu)


@dataclasses.dataclass(frozen=True)
class CoreStatus:
    """One core's state (pp_core_status): whether its PMU answers and, if
    not, why: cause ("core-off"), cause_text, evidence, remedy; the
    decoded flags and the raw registers (None where the read failed)."""
    cpu: int
    type: str
    pmu_ok: bool
    cause: str
    cause_text: str
    evidence: str
    remedy: Optional[str]
    powered: bool
    oslock: bool
    doublelock: bool
    halted: bool
    nid_enabled: bool
    edprsr: Optional[int]
    authstatus: Optional[int]
    pmcfgr: Optional[int]
    oslsr: Optional[int]


@dataclasses.dataclass(frozen=True)
class Field:
    """A register field: name, lsb, width, value, meaning (the map's text
    for this value, or None), desc."""
    name: str
    lsb: int
    width: int
    value: int
    meaning: Optional[str]
    desc: Optional[str]


@dataclasses.dataclass(frozen=True)
class Register:
    """A register read by name (pp_reg_read): name (canonical), block
    ("pmu", "debug"), desc, offset, addr, value, width (32/64), fields
    (list of Field; reg["E"] finds one by name) and text (what `pmuprobe
    read` prints).  int(reg) is the value."""
    cpu: int
    name: str
    block: str
    desc: Optional[str]
    offset: int
    addr: int
    value: int
    width: int
    fields: List[Field]
    text: str

    def __getitem__(self, name):
        for f in self.fields:
            if f.name == name:
                return f
        raise KeyError("%s has no field %r (fields: %s)"
                       % (self.name, name, ", ".join(f.name for f in self.fields)))

    def __int__(self):
        return self.value

    def __index__(self):
        return self.value


@dataclasses.dataclass(frozen=True)
class Event:
    """A PMU event of a core (pp_event_info): code, name (None for an
    advertised code no catalog knows), desc, component, common, checked
    (advertised comes from PMCEID), advertised."""
    code: int
    name: Optional[str]
    desc: Optional[str]
    component: Optional[str]
    common: bool
    checked: bool
    advertised: bool


class EventList(list):
    """A list of Event; note is the library's remark when PMCEID could not
    be read (the diagnosis), else ""."""
    note = ""


@dataclasses.dataclass(frozen=True)
class Component:
    """A CoreSight component found by scan(): addr, rom (the table listing
    it, 0 for the root), depth, error (None, or the pp_err name reading its
    IDs failed with), cls, part, designer, devarch, kind ("ROM table",
    "debug", "PMU", "CTI", ...), name ("Cortex-A76 PMU"), cpu (None when
    it belongs to no core of the session)."""
    addr: int
    rom: int
    depth: int
    error: Optional[str]
    cls: int
    part: int
    designer: int
    devarch: int
    kind: str
    name: str
    cpu: Optional[int]


def _opt(valid, value):
    return int(value) if valid else None


class Session(Closing):
    """A target reached over an access path (pp_session_*).  Use as a
    context manager, or call close().  One thread at a time, and nothing
    else while a capture runs (the capture's sampler owns the session)."""

    def __init__(self, probe="sim", target=None, trace=None, trace_level=None,
                 sim_time=None, faults=()):
        self._s = None
        self._children = weakref.WeakSet()
        self._trace = _Trace(trace) if trace is not None else None
        opts = ffi.new("struct pp_open_opts *")
        if sim_time not in SIM_TIMES:
            raise ValueError("sim_time %r: expected 'deterministic' or 'realtime'" % (sim_time,))
        opts.sim_time = SIM_TIMES[sim_time]
        keep = [ffi.new("char[]", str(f).encode()) for f in faults]
        fl = ffi.new("const char *[]", keep or [ffi.NULL])
        opts.faults, opts.nfaults = fl, len(keep)
        if self._trace:
            opts.trace, opts.trace_level = self._trace.cb, _level(trace_level)
        err = ffi.new("char[]", ERRLEN)
        out = ffi.new("struct pp_session **")
        rc = lib.pp_session_open(cstr(target), cstr(probe), opts, out, err, ERRLEN)
        if rc != lib.PP_OK:
            if self._trace:
                self._trace.close()
            raise error(rc, string(err))
        self._s = out[0]
        self.probe = probe
        self._cores = None
        self.bus = Bus(self)

    # -- life cycle ------------------------------------------------------
    def close(self):
        """Closes what is still open on the session (captures, counter
        sets), then the session and its trace file; again is a no-op."""
        if self._s is None:
            return
        for child in list(self._children):
            try:
                child.close()
            except Error:
                pass
        s, self._s = self._s, None
        lib.pp_session_close(s)
        if self._trace:
            self._trace.close()

    def _handle(self):
        if self._s is None:
            raise ValueError("the session is closed")
        return self._s

    def _raise_trace_error(self):
        if self._trace and self._trace.error is not None:
            e, self._trace.error = self._trace.error, None
            raise e

    def _check(self, rc, err, cpu=None):
        """Raises for rc (with err's text), with the core's diagnosis when
        an access to cpu failed and the message did not carry one."""
        self._raise_trace_error()
        if rc >= 0:
            return
        exc = error(rc, string(err) if err is not None and err[0] != b"\0" else None)
        if cpu is not None and isinstance(exc, Error):
            exc.cpu = cpu
            if rc in (lib.PP_E_SLVERR, lib.PP_E_FAULT, lib.PP_E_WAIT) and has("pp_core_status"):
                try:
                    st = self.status(cpu)
                except (Error, LookupError):
                    st = None
                if st is not None and not st.pmu_ok:
                    exc.cause, exc.cause_text = st.cause, st.cause_text
                    exc.evidence = exc.evidence or st.evidence
                    exc.remedy = exc.remedy or st.remedy
        raise exc

    # -- what the session is ---------------------------------------------
    @property
    def target(self):
        """The target's name ("a76-cluster")."""
        return string(lib.pp_session_target_name(self._handle()))

    @property
    def cores(self):
        """The target's cores, a list of Core (read once: MIDR over the bus)."""
        if self._cores is None:
            s = self._handle()
            info = ffi.new("struct pp_core_info *")
            cores = []
            for i in range(lib.pp_session_ncores(s)):
                self._check(lib.pp_session_core(s, i, info), None)
                cores.append(Core(i, info.cpu, info.cluster, string(info.type),
                                  string(info.pretty), _opt(info.midr_valid, info.midr),
                                  info.debug_base, info.pmu_base, info.counters))
            self._cores = cores
        return list(self._cores)

    def _index(self, cpu):
        n = cpu_number(cpu)
        for c in self.cores:
            if c.cpu == n:
                return c.index
        raise error(lib.PP_E_NOTFOUND, "no cpu%d on %s (cpus: %s)" % (
            n, self.target, ", ".join("cpu%d" % c.cpu for c in self.cores)))

    # -- raw access and counters -------------------------------------------
    def read32(self, addr):
        """The 32-bit word at APB address addr (see Bus)."""
        return self.bus.read32(addr)

    def write32(self, addr, value):
        """Writes a 32-bit word at APB address addr (see Bus)."""
        self.bus.write32(addr, value)

    def counters(self, cpu, events=("cycles", "instructions")):
        """Takes cpu's PMU and counts events (names as the CLI's -e, a list
        or a comma string); returns a Counters.  Busy when someone else
        uses the PMU; AccessError with the diagnosis when the core does
        not answer."""
        return Counters(self, cpu, events)

    def set_trace(self, trace, level=None):
        """Starts, changes or (trace None) stops the wire trace.  trace: a
        callable taking a TraceRecord, a file object (one line per record)
        or a path (written until the trace changes or the session closes).
        level: "apb", "dap" (default) or "wire"."""
        new = _Trace(trace) if trace is not None else None
        rc = lib.pp_session_set_trace(self._handle(), new.cb if new else ffi.NULL, ffi.NULL,
                                      _level(level) if new else 0)
        if rc != lib.PP_OK:
            if new:
                new.close()
            raise error(rc)
        old, self._trace = self._trace, new
        if old:
            old.close()

    # -- status, registers, events, discovery --------------------------------
    def status(self, cpu=None):
        """The diagnosis of cpu (a CoreStatus), or of every core (a list)
        when cpu is None.  A core that does not answer is a result
        (pmu_ok False, cause set), not an error."""
        _need("pp_core_status")
        if cpu is None:
            return [self.status(c.cpu) for c in self.cores]
        i = self._index(cpu)
        st = ffi.new("struct pp_core_status *")
        err = ffi.new("char[]", ERRLEN)
        self._check(lib.pp_core_status(self._handle(), i, st, err, ERRLEN), err)
        return CoreStatus(st.cpu, string(st.type), bool(st.pmu_ok),
                          string(lib.pp_cause_name(st.cause)), string(lib.pp_cause_str(st.cause)),
                          string(st.evidence), string(st.remedy), bool(st.powered),
                          bool(st.oslock), bool(st.doublelock), bool(st.halted),
                          bool(st.nid_enabled), _opt(st.edprsr_valid, st.edprsr),
                          _opt(st.authstatus_valid, st.authstatus),
                          _opt(st.pmcfgr_valid, st.pmcfgr), _opt(st.oslsr_valid, st.oslsr))

    def read(self, cpu, name):
        """Reads register name ("PMCR", "PMCCNTR", "EDPRSR", "pmu+0xE04")
        of cpu and decodes it: a Register.  NotFound (with a suggestion)
        for an unknown name; AccessError with the diagnosis when the core
        does not answer."""
        _need("pp_reg_read")
        n = cpu_number(cpu)
        r = ffi.new("struct pp_reg_value *")
        err = ffi.new("char[]", ERRLEN)
        self._check(lib.pp_reg_read(self._handle(), n, str(name).encode(), r, err, ERRLEN),
                    err, cpu=n)
        fields = [Field(string(f.name), f.lsb, f.width, int(f.value), string(f.meaning),
                        string(f.desc)) for f in r.fields[0:r.nfields]]
        return Register(n, string(r.name), string(r.block), string(r.desc), r.offset, r.addr,
                        int(r.value), r.width, fields, string(r.text))

    def write(self, cpu, name, value):
        """Writes value to register name of cpu (names as read()); returns
        the register read back, decoded, or None for a write-only register
        (PMSWINC)."""
        _need("pp_reg_write")
        n = cpu_number(cpu)
        err = ffi.new("char[]", ERRLEN)
        self._check(lib.pp_reg_write(self._handle(), n, str(name).encode(), int(value), err,
                                     ERRLEN), err, cpu=n)
        try:
            return self.read(n, name)
        except InvalidArgument:
            return None

    def events(self, cpu):
        """The events of cpu, as `pmuprobe events` lists them: an EventList
        of Event (advertised read from PMCEID; when the core does not
        answer, every checked is False and .note says why)."""
        _need("pp_events_list")
        n = cpu_number(cpu)
        out = ffi.new("struct pp_event_info **")
        cnt = ffi.new("size_t *")
        err = ffi.new("char[]", ERRLEN)
        self._check(lib.pp_events_list(self._handle(), n, out, cnt, err, ERRLEN), err, cpu=n)
        try:
            lst = EventList(Event(e.code, string(e.name), string(e.desc), string(e.component),
                                  bool(e.common), bool(e.checked), bool(e.advertised))
                            for e in out[0][0:cnt[0]])
        finally:
            lib.pp_events_free(out[0])
        lst.note = string(err) or ""
        return lst

    def scan(self):
        """Walks the ROM tables as `pmuprobe scan` does: a list of
        Component in walk order."""
        _need("pp_scan")
        out = ffi.new("struct pp_component **")
        cnt = ffi.new("size_t *")
        err = ffi.new("char[]", ERRLEN)
        self._check(lib.pp_scan(self._handle(), out, cnt, err, ERRLEN), err)
        try:
            return [Component(c.addr, c.rom, c.depth,
                              None if c.status == 0 else string(lib.pp_errname(c.status)),
                              c.cls, c.part, c.designer, c.devarch, string(c.kind),
                              string(c.name), None if c.cpu < 0 else c.cpu)
                    for c in out[0][0:cnt[0]]]
        finally:
            lib.pp_scan_free(out[0])

    def capture(self, events=("cycles", "instructions"), cores=None, interval=None,
                duration=None, count=None, **kw):
        """Samples events on cores (cpu numbers; None: every core) every
        interval ("10ms"; None: as fast as the path allows) for duration
        ("1s") or count intervals (neither: until stop()).  Returns a
        Capture: iterate it for Sample items as they arrive, or take it
        in batches (batches(): NumPy arrays, or plain lists; to_numpy()),
        the fast form.  See pmuprobe.capture.Capture for the other
        options."""
        from .capture import Capture
        return Capture(self, events=events, cores=cores, interval=interval,
                       duration=duration, count=count, **kw)

"""pmuprobe - Arm PMU counters over CoreSight external debug, from Python.

A thin layer over libpmuprobe (lib/pmuprobe.h) through cffi in ABI mode:
nothing is compiled when the package installs, and the declarations come
from the C header at build time.  The C library does the work and keeps
the timing (a capture samples on its own threads); Python gets the
results::

    import pmuprobe
    with pmuprobe.open(probe="rbb:127.0.0.1:9999", target="a76-cluster") as s:
        for item in s.capture(events=["cycles", "instructions"], cores=[0, 1],
                              interval="10ms", duration="1s"):
            if item.gap:
                print(item.time, item.core, item.cause)
            else:
                print(item.time, item.core, item.values["cycles"])

See docs/python.md for the whole reference.
"""
# The generated module (_build.py: declarations, libdir) is written into
# the build tree while the sources stay in the source tree; extend_path
# lets one package span both when the tests put both on sys.path.  An
# installed package has both files in one directory.
from pkgutil import extend_path

__path__ = extend_path(__path__, __name__)

from ._ffi import LIBRARY, ffi, lib  # noqa: E402
from ._util import to_ns  # noqa: E402
from .capture import Capture, Sample, cause_name  # noqa: E402
from .errors import (AccessError, Busy, Error, InvalidArgument, LinkError,  # noqa: E402
                     NotFound, Timeout, Unsupported)
from .session import (Bus, Component, Core, CoreStatus, Counters, Event, Field,  # noqa: E402
                      Register, Session, TraceRecord)

__all__ = ["open", "Session", "Bus", "Core", "Counters", "Capture", "Sample", "CoreStatus",
           "Register", "Field", "Event", "Component", "TraceRecord", "Error", "AccessError",
           "Busy", "InvalidArgument", "LinkError", "NotFound", "Timeout", "Unsupported",
           "cause_name", "to_ns", "LIBRARY", "ffi", "lib"]


def open(probe="sim", target=None, trace=None, trace_level=None, sim_time=None, faults=()):
    """Opens a session on target over probe; returns a Session (a context
    manager).

    probe: "sim" (the simulated SoC, in process), "rbb:HOST:PORT" or
    "rbb:unix:PATH" (remote_bitbang, e.g. to pmuprobe-sim).
    target: a target description's name ("a76-cluster") or path; None:
    "sim" builds a76-cluster, other probes discover the SoC.
    trace: the wire trace: a callable taking a TraceRecord, a file object
    or a path; trace_level "apb", "dap" (default) or "wire".
    sim_time ("deterministic", "realtime") and faults (["cpu1:off@200ms"],
    as the CLI's --fault): probe "sim" only.
    Raises NotFound, InvalidArgument, LinkError, Unsupported (Error)."""
    return Session(probe=probe, target=target, trace=trace, trace_level=trace_level,
                   sim_time=sim_time, faults=faults)

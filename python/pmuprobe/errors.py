"""Exceptions of the pmuprobe package.

Every failed libpmuprobe call raises an Error (or a subclass) carrying the
library's code and message; where the library diagnosed a core (a powered
down core, a lock, a disabled PMU) the diagnosis too: cause ("core-off"),
cause_text ("core powered off"), evidence ("EDPRSR=0x0000000A: SPD SR
(PU=0)") and remedy (what to do about it), the same facts `pmuprobe
status` prints.
"""
import re

from ._ffi import lib, string


class Error(Exception):
    """A libpmuprobe call failed.

    Attributes: code (the negative pp_err, e.g. -6), errname
    ("PP_E_SLVERR"), message (the library's reason, first line), cpu (the
    cpu number the call was about, or None), cause, cause_text, evidence,
    remedy (the diagnosis; None when the library gave none)."""

    def __init__(self, code, message, cpu=None, cause=None, cause_text=None,
                 evidence=None, remedy=None):
        self.code = code
        self.errname = string(lib.pp_errname(code))
        self.cpu = cpu
        self.cause = cause
        self.cause_text = cause_text
        self.evidence = evidence
        self.remedy = remedy
        lines = (message or string(lib.pp_strerror(code))).splitlines() or [""]
        # ... or on the first line, "...; evidence: ...; remedy: ..." (pp_reg_read).
        m = re.match(r"(.*?); evidence: (.*?)(?:; remedy: (.*))?$", lines[0])
        if m:
            lines[0], self.evidence = m.group(1), m.group(2)
            self.remedy = self.remedy or m.group(3)
        self.message = lines[0]
        # The library's message may carry the diagnosis on its own lines,
        # as the CLI prints it ("evidence: ...", "remedy: ...").
        for line in lines[1:]:
            m = re.match(r"\s*(evidence|remedy):\s*(.*)", line)
            if m and getattr(self, m.group(1)) is None:
                setattr(self, m.group(1), m.group(2))
        super().__init__(self.message)

    def __str__(self):
        text = self.message
        if self.evidence:
            text += "\n  evidence: " + self.evidence
        if self.remedy:
            text += "\n  remedy:   " + self.remedy
        return text


class InvalidArgument(Error, ValueError):
    """PP_E_INVAL, PP_E_PARSE: a bad argument, probe spec or description."""


class NotFound(Error, LookupError):
    """PP_E_NOTFOUND: no such target, cpu, register or event."""


class Busy(Error):
    """PP_E_BUSY: the PMU is in use (claim tag, counters enabled), or too
    many events for its counters."""


class AccessError(Error):
    """PP_E_SLVERR, PP_E_FAULT, PP_E_WAIT: the target refused an access;
    see cause, evidence and remedy."""


class LinkError(Error, ConnectionError):
    """PP_E_IO, PP_E_LINK, PP_E_PROTO: the access path failed."""


class Unsupported(Error, NotImplementedError):
    """PP_E_UNSUPPORTED: not on this target or path, or not in this
    library."""


class Timeout(Error, TimeoutError):
    """PP_E_TIMEOUT."""


_CLASSES = {
    lib.PP_E_INVAL: InvalidArgument, lib.PP_E_PARSE: InvalidArgument,
    lib.PP_E_NOTFOUND: NotFound, lib.PP_E_BUSY: Busy,
    lib.PP_E_SLVERR: AccessError, lib.PP_E_FAULT: AccessError, lib.PP_E_WAIT: AccessError,
    lib.PP_E_IO: LinkError, lib.PP_E_LINK: LinkError, lib.PP_E_PROTO: LinkError,
    lib.PP_E_UNSUPPORTED: Unsupported, lib.PP_E_TIMEOUT: Timeout,
}


def error(code, message=None, **diag):
    """The exception for pp_err code (MemoryError for PP_E_NOMEM)."""
    if code == lib.PP_E_NOMEM:
        return MemoryError(message or "libpmuprobe: out of memory")
    return _CLASSES.get(code, Error)(code, message, **diag)

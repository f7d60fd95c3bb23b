"""Small helpers: durations and cpu numbers as users write them."""
import datetime
import re

from ._ffi import ffi, lib, string
from .errors import Error, error


def to_ns(value, what="duration"):
    """Nanoseconds from a string the C library parses (pp_parse_duration,
    the units of the CLI's -i/-d: "10ms", "1.5s", "250us", "100ns", "2m",
    "1h"), a number of seconds (int or float), a datetime.timedelta, or
    None (None).  A string it refuses raises InvalidArgument (a
    ValueError) with the library's message."""
    if value is None:
        return None
    if isinstance(value, datetime.timedelta):
        return round(value.total_seconds() * 10**9)
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        if value < 0:
            raise ValueError("%s %r is negative" % (what, value))
        return round(value * 10**9)
    ns = ffi.new("uint64_t *")
    err = ffi.new("char[]", 256)
    rc = lib.pp_parse_duration(str(value).encode(), ns, err, len(err))
    if rc != lib.PP_OK:
        raise error(rc, "%s %s" % (what, string(err)))
    return int(ns[0])


def cpu_number(cpu):
    """3 from 3 or "cpu3"."""
    if isinstance(cpu, int) and not isinstance(cpu, bool) and cpu >= 0:
        return cpu
    m = re.fullmatch(r"(?:cpu)?([0-9]+)", str(cpu))
    if not m:
        raise ValueError("cpu %r: expected a cpu number (3) or name ('cpu3')" % (cpu,))
    return int(m.group(1))


def event_list(events):
    """The comma list libpmuprobe takes, from a list or a string."""
    if events is None:
        return None
    if isinstance(events, str):
        return events
    return ",".join(str(e) for e in events)


class Closing:
    """Objects with a close(): a context manager, closed when collected
    (an error on that late close is not raised: nobody could catch it)."""

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __del__(self):
        try:
            self.close()
        except Error:
            pass

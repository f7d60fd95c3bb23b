"""Small helpers: durations and cpu numbers as users write them."""
import datetime
import re

from .errors import Error

# The CLI's units (lib/timeunit.c: ns, us, ms, s, m, h), and "min".
_UNITS = {"ns": 1, "us": 10**3, "ms": 10**6, "s": 10**9, "m": 60 * 10**9, "min": 60 * 10**9,
          "h": 3600 * 10**9}


def to_ns(value, what="duration"):
    """Nanoseconds from "10ms", "1.5s", "250us", "100ns", "2m" (or "2min"), "1h", a number
    of seconds (int or float), a datetime.timedelta, or None (None)."""
    if value is None:
        return None
    if isinstance(value, datetime.timedelta):
        return round(value.total_seconds() * 10**9)
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        if value < 0:
            raise ValueError("%s %r is negative" % (what, value))
        return round(value * 10**9)
    m = re.fullmatch(r"\s*([0-9]+(?:\.[0-9]*)?|\.[0-9]+)\s*(ns|us|ms|s|min|m|h)\s*", str(value))
    if not m:
        raise ValueError("%s %r: expected a number and a unit (ns, us, ms, s, m, h), "
                         "e.g. '10ms'" % (what, value))
    return round(float(m.group(1)) * _UNITS[m.group(2)])


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

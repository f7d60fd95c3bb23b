#!/usr/bin/env python3
"""A reader of `perf stat -I N -A -x SEP` output, written from perf-stat(1),
section "CSV FORMAT", not from pmuprobe: it checks what a script written
against perf would rely on, then prints one line per interval, CPU and
event so two outputs can be compared.

perf-stat(1) gives the fields in this order: time stamp (with -I), CPU
identifier (with -A), counter value, unit of the counter value or empty,
event name, run time of the counter, percentage of measurement time the
counter was running, then the optional metric value and unit of metric;
"Additional metrics may be printed with all earlier fields being empty".
A counter perf could not read shows "<not counted>" (or "<not supported>")
as its value.

Usage: perfstat_csv.py SEP FILE
Prints "INTERVAL CPU EVENT STATE METRICS" per event row, STATE "counted"
or the <...> marker, METRICS the metric units attached to the row joined
by "|" ("-" for none).  Exits 1 naming the line that breaks the format.
"""
import re
import sys

BAD_COUNTS = ("<not counted>", "<not supported>")


class FormatError(Exception):
    pass


def number(text, what, integer=False):
    try:
        return int(text) if integer else float(text)
    except ValueError:
        raise FormatError("%s is not a number: %r" % (what, text))


def read_rows(sep, lines):
    """[(time, cpu, event, state, [metric units])] in file order."""
    rows, last_time = [], None
    for n, line in enumerate(lines, 1):
        f = line.rstrip("\n").split(sep)
        try:
            if len(f) not in (7, 9):
                raise FormatError("%d fields, expected 7 or 9" % len(f))
            time = number(f[0], "time")
            if last_time is not None and time < last_time:
                raise FormatError("time goes backwards")
            last_time = time
            if not re.fullmatch(r"CPU[0-9]+", f[1]):
                raise FormatError("CPU identifier %r" % f[1])
            mval, munit = (f[7], f[8]) if len(f) == 9 else ("", "")
            if bool(mval) != bool(munit):
                raise FormatError("metric value %r without its unit %r" % (mval, munit))
            if mval:
                number(mval, "metric value")
            if not any(f[2:7]):
                # an additional metric: it belongs to the row above it
                if not mval:
                    raise FormatError("a row with neither a count nor a metric")
                if not rows or rows[-1][0] != time or rows[-1][1] != f[1]:
                    raise FormatError("an additional metric with no event row above it")
                rows[-1][4].append(munit)
                continue
            if not f[4]:
                raise FormatError("no event name")
            counted = f[2] not in BAD_COUNTS
            if counted:
                number(f[2], "counter value")
            number(f[5], "run time", integer=True)
            pct = number(f[6], "percentage running")
            if not 0.0 <= pct <= 100.0:
                raise FormatError("percentage %r out of 0-100" % f[6])
            if not counted and mval:
                raise FormatError("a metric on a counter that was not counted")
            rows.append((time, f[1], f[4], "counted" if counted else f[2], [munit] if mval else []))
        except FormatError as e:
            raise FormatError("line %d: %s: %r" % (n, e, line.rstrip("\n")))
    return rows


def main():
    sep, path = sys.argv[1], sys.argv[2]
    with open(path, encoding="utf-8") as fh:
        lines = [l for l in fh if l.strip()]
    try:
        rows = read_rows(sep, lines)
    except FormatError as e:
        print("not perf stat -x output: %s" % e)
        return 1
    interval, last = 0, None
    for time, cpu, event, state, metrics in rows:
        if time != last:
            interval, last = interval + 1, time
        print("%d %s %s %s %s" % (interval, cpu, event, state.replace(" ", "_"),
                                  "|".join(m.replace(" ", "_") for m in metrics) or "-"))
    return 0


if __name__ == "__main__":
    sys.exit(main())

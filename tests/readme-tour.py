#!/usr/bin/env python3
"""readme-tour.py - README.md's console examples as a specification.

  readme-tour.py list README            one line per command to rerun:
                                        INDEX<TAB>COMMAND
  readme-tour.py check README INDEX OUT whether OUT (what the command
                                        printed) shows what README.md shows

Which commands: those of ```console blocks that run on the simulated SoC
with what a fresh build has (pmuprobe without -p, and head/cat of a file an
earlier command of the block wrote); commands for hardware, OpenOCD or a
server are left to their own tests.

What "shows" means: README.md prints real output, trimmed (lines left out,
or "..." where the cut shows).  Each of its lines must appear in the
output, in that order, other lines may come between; a line that is only
"..." stands for lines left out; a line (without a trailing "...") may be
the beginning of the output's line, up to a word's end: README.md may cut
a line short, never change it.  The output is read as a terminal shows
it: what a carriage return overwrote, and escape sequences, are gone.  Numbers written in decimal (counts, rates, times) may differ, as
they do from run to run and machine to machine; everything else (names,
hex addresses and register values, field layouts, words) must be as
written.  Runs of spaces before a number are padding and may differ too.
"""
import re
import sys

RUNNABLE = re.compile(r"^(pmuprobe(?!-sim)\s(?!.*(\s-p\s|--probe|\bftdi\b|\bopenocd\b|\brbb:))"
                      r"|head\s|cat\s)")
# A decimal number with its sign, and the unit after it when it has one:
# a slower machine prints "544.3 kB" where README.md has "7.4 MB", "-92.89 %"
# where it has "+0.09 %", "137.2 us" where it has "2208 ns".
UNIT = r"(?: (?:[kMGT]?B|[kMGT]?/s|[num]?s)(?!\w))?"
NUMBER = r"[+-]?\d+(?:,\d{3})*(?:\.\d+)?(?![\dA-Fa-fx])" + UNIT
DEC = re.compile(r"(?<![0-9A-Fa-fx.])" + NUMBER)


def literal(text):
    """Text between numbers: a run of two or more spaces is padding (any
    width); one space is one space."""
    return "".join(" +" if part.startswith("  ") else re.escape(part)
                   for part in re.split(r"(  +)", text) if part)


def blocks(text):
    """Each ```console block as a list of (command, [expected lines])."""
    out, cur, inside = [], None, False
    for line in text.splitlines():
        if line.startswith("```console"):
            inside, cur = True, []
            continue
        if inside and line.startswith("```"):
            inside = False
            out.append(cur)
            continue
        if not inside:
            continue
        if line.startswith("$ "):
            cur.append((line[2:], []))
        elif cur:
            cur[-1][1].append(line)
    return out


def runnable():
    """(index, command, expected) over every block whose commands all run here."""
    text = open(sys.argv[2], encoding="utf-8").read()
    n = 0
    for b in blocks(text):
        if not all(RUNNABLE.match(cmd) for cmd, _ in b):
            continue
        for cmd, want in b:
            n += 1
            yield n, cmd, want


def pattern(line):
    """A README line as a regex over the start of one output line."""
    body = line.rstrip()
    if body.endswith("...") and body.strip() != "...":
        body = body[:-3].rstrip()
    parts, pos = [], 0
    for m in DEC.finditer(body):
        before = body[pos:m.start()]
        # Padding before a number absorbs a wider or narrower number.
        parts.append(literal(before.rstrip(" ")) + (" *" if before.endswith(" ") else ""))
        parts.append(NUMBER)
        pos = m.end()
    parts.append(literal(body[pos:]))
    return re.compile("^" + "".join(parts) + r"(?![\w.])")


def screen(line):
    """What a terminal shows of one line: the text after its last carriage
    return, without CSI escape sequences (the progress line's erase)."""
    line = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", line)
    return line.rsplit("\r", 1)[-1]


def check(want, got):
    """None when got shows want, else the first README line it lacks."""
    i, last = 0, None
    for w in want:
        if w.strip() == "...":
            continue
        rx = pattern(w)
        while i < len(got) and not rx.match(got[i]):
            i += 1
        if i == len(got):
            return "expected line %r, not found%s" % (
                w, " after %r" % last if last is not None else "")
        last, i = w, i + 1
    return None


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "list":
        for n, cmd, _ in runnable():
            print("%d\t%s" % (n, cmd))
        return 0
    if len(sys.argv) == 5 and sys.argv[1] == "check":
        index = int(sys.argv[3])
        got = open(sys.argv[4], encoding="utf-8", errors="replace").read()
        got = [screen(l) for l in got.replace("\r\n", "\n").split("\n")]
        for n, cmd, want in runnable():
            if n == index:
                why = check(want, got)
                if why:
                    print("README.md: $ %s\n  %s" % (cmd, why))
                    return 1
                return 0
        print("no command %d" % index)
        return 2
    print(__doc__.split("\n\n")[0], file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())

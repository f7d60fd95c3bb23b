#!/usr/bin/env python3
"""soak-faults.py - the fault schedule of tests/soak.test, and its RSS probe.

Drives pmuprobe-sim's control channel (`fault SPEC`, `addr ADDR error|ok`,
one line each over one UNIX-socket connection: spawning `pmuprobe-sim ctl`
per command fell seconds behind the schedule on a loaded machine under
ASan) from a schedule drawn by random.Random(SEED): per
faulted core, windows of one fault kind (power off/on, OS lock set/clear,
authentication off/on, an error response on the core's PMCCNTR) separated by
healthy stretches.  The same seed gives the same schedule, so a failure is
replayed with PMUPROBE_SOAK_SEED.  Cores are never faulted twice at once, so
every gap has exactly one window that explains it.

Every second it also reads VmRSS of the pmuprobe process from /proc.

Writes JSON lines to --log: {"window": ...} per fault window with the
CLOCK_MONOTONIC times (ns) just before the fault was set and just after it was
cleared (clear_ns null for a window still open when pmuprobe ended: the
core may then end in a gap), {"rss_kb": ..., "t": ...} per RSS sample, and
{"late_s": ...}: how far behind its schedule the injector ran at worst.
"""
import argparse
import json
import os
import random
import socket
import sys
import time

# kind -> (set, clear, the cause pmuprobe must diagnose: lib/pmu/diag.h)
KINDS = {
    "off": ("fault cpu{c}:off", "fault cpu{c}:on", "core-off"),
    "oslock": ("fault cpu{c}:oslock", "fault cpu{c}:osunlock", "os-lock"),
    "noauth": ("fault cpu{c}:noauth", "fault cpu{c}:auth", "pmu-disabled"),
    # PMCCNTR (0x0F8, spec/arm-pmu-coresight.md 3.1) answers with an error
    # response: the core is reachable, so the diagnosis finds no cause.
    "addr": ("addr {a:#x} error", "addr {a:#x} ok", "unknown"),
}
PMCCNTR = 0x0F8


def plan(seed, cores, start, end, hold, idle):
    """[(t_set, t_clear, cpu, kind)] relative to the start, in seconds."""
    rng = random.Random(seed)
    out = []
    for c in cores:
        t = start + rng.uniform(0, idle[1])
        while True:
            length = rng.uniform(*hold)
            if t + length > end:
                break
            out.append((t, t + length, c, rng.choice(sorted(KINDS))))
            t += length + rng.uniform(*idle)
    return sorted(out)


class Control:
    """One connection to the control channel: a command line out, one
    reply line back ("ok ..." or "error ...")."""

    def __init__(self, path):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.connect(path)
        self.buf = b""

    def __call__(self, cmd):
        self.sock.sendall(cmd.encode() + b"\n")
        while b"\n" not in self.buf:
            more = self.sock.recv(4096)
            if not more:
                sys.exit("soak-faults: the control channel closed after '%s'" % cmd)
            self.buf += more
        line, self.buf = self.buf.split(b"\n", 1)
        if not line.startswith(b"ok"):
            sys.exit("soak-faults: '%s' failed: %s" % (cmd, line.decode(errors="replace")))


def rss_kb(pid):
    try:
        with open("/proc/%d/status" % pid) as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except OSError:
        return None
    return None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, required=True)
    ap.add_argument("--seconds", type=float, required=True, help="length of the capture")
    ap.add_argument("--ctl", required=True, help="its control socket")
    ap.add_argument("--pid", type=int, required=True, help="pmuprobe, for VmRSS")
    ap.add_argument("--cores", default="1,2,3", help="cores to fault (the others stay healthy)")
    ap.add_argument("--pmu-base", type=lambda s: int(s, 0), default=0x81030000)
    ap.add_argument("--pmu-stride", type=lambda s: int(s, 0), default=0x100000)
    ap.add_argument("--log", required=True)
    args = ap.parse_args()

    cores = [int(c) for c in args.cores.split(",") if c]
    # Faults start after 1 s and end 2 s before the capture does, so every
    # core is back (retry: 100 ms) and counted when the capture ends.
    # Healthy stretches (1 s or more) outlast the checker's slack after a
    # window (0.8 s), so no gap could be blamed on the wrong window.
    steps = plan(args.seed, cores, 1.0, args.seconds - 2.0, (0.3, 1.5), (1.0, 2.5))
    print("soak-faults: seed %d, %d fault windows on cpu %s" % (args.seed, len(steps), args.cores))
    actions = []
    for i, (ts, tc, c, kind) in enumerate(steps):
        actions.append((ts, 0, i))
        actions.append((tc, 1, i))
    actions.sort()
    ctl = Control(args.ctl)
    t0 = time.monotonic()
    done = {}
    late = 0.0
    next_rss = 0.0
    with open(args.log, "w") as log:
        while actions or time.monotonic() - t0 < args.seconds:
            now = time.monotonic() - t0
            if now >= next_rss:
                kb = rss_kb(args.pid)
                if kb is None:
                    break            # pmuprobe is gone
                log.write(json.dumps({"rss_kb": kb, "t": now}) + "\n")
                log.flush()
                next_rss += 1.0
            if actions and actions[0][0] <= now:
                when, clear, i = actions.pop(0)
                late = max(late, now - when)
                ts, tc, c, kind = steps[i]
                cmd = KINDS[kind][clear].format(c=c, a=args.pmu_base + c * args.pmu_stride + PMCCNTR)
                before = time.monotonic_ns()
                ctl(cmd)
                after = time.monotonic_ns()
                if not clear:
                    done[i] = before
                    continue
                log.write(json.dumps({"window": {"cpu": c, "kind": kind, "cause": KINDS[kind][2],
                                                 "set_ns": done[i], "clear_ns": after}}) + "\n")
                log.flush()
                continue
            wake = next_rss if not actions else min(next_rss, actions[0][0])
            time.sleep(max(0.0, min(wake - (time.monotonic() - t0), 0.2)))
        for i, set_ns in done.items():
            if any(a[2] == i for a in actions):
                ts, tc, c, kind = steps[i]
                log.write(json.dumps({"window": {"cpu": c, "kind": kind, "cause": KINDS[kind][2],
                                                 "set_ns": set_ns, "clear_ns": None}}) + "\n")
        log.write(json.dumps({"late_s": late}) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())

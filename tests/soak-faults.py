#!/usr/bin/env python3
"""soak-faults.py - the fault schedule of tests/soak.test, and its RSS probe.

A schedule drawn by random.Random(SEED): per faulted core, windows of one
fault kind (power off/on, OS lock set/clear, authentication off/on, an error
response on the core's cycle counter as the capture reads it) separated by healthy stretches.  The same
seed gives the same schedule, so a failure is replayed with
PMUPROBE_SOAK_SEED.  Cores are never faulted twice at once, so every gap has
exactly one window that explains it.  Each step is a fault spec of
pmuprobe(1) --fault, given one of two ways:

  soak-faults.py --ctl SOCK --pid PID ...   (rbb, openocd: pmuprobe-sim)
      Sends `fault SPEC` over the simulator's control channel as the
      schedule comes due (one UNIX-socket connection: spawning
      `pmuprobe-sim ctl` per command fell seconds behind the schedule on a
      loaded machine under ASan).
  soak-faults.py --plan SPECFILE ...        (sim, ftdi: no control channel)
      Writes the whole schedule as one comma-separated list of SPEC@TIME
      (sim time, which starts with the simulated SoC: `--fault` on -p sim,
      PMUPROBE_EMU_SIM_FAULTS for the FTDI emulator) and exits; then
      `soak-faults.py --pid PID ...` (no --ctl) only samples RSS.

Every second the running form also reads VmRSS of the pmuprobe process
from /proc, until --seconds have passed or the process is gone.

Writes JSON lines to --log: {"window": ...} per fault window with the
CLOCK_MONOTONIC times (ns) just before the fault was set and just after it was
cleared (clear_ns null for a window still open when pmuprobe ended: the
core may then end in a gap) or, planned, its sim times set_s and clear_s
with {"epoch_lo_ns": ...}: a time before the SoC started (soak-check.py
takes the capture's start as the latest it can have started);
{"rss_kb": ..., "t": ...} per RSS sample, {"faults": N}: the specs applied,
and {"late_s": ...}: how far behind its schedule the injector ran at worst.
"""
import argparse
import json
import os
import random
import socket
import sys
import time

# kind -> (set, clear, the cause pmuprobe must diagnose: lib/pmu/diag.h),
# as fault specs (pmuprobe(1) --fault)
KINDS = {
    "off": ("cpu{c}:off", "cpu{c}:on", "core-off"),
    "oslock": ("cpu{c}:oslock", "cpu{c}:osunlock", "os-lock"),
    "noauth": ("cpu{c}:noauth", "cpu{c}:auth", "pmu-disabled"),
    # The cycle counter's register as the capture reads it answers with an
    # error response: the core is reachable, so the diagnosis finds no cause.
    "addr": ("{a:#x}:error", "{a:#x}:ok", "unknown"),
}
# On a76-cluster the default plan reads the snapshot copies
# (docs/sample-plan.md): PMCCNTSR_LO (0x618, spec/arm-pmu-coresight.md 1.4),
# not the live PMCCNTR at 0x0F8 that --live reads.
CYCLE_REG = 0x618


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


def spec_of(args, step, clear):
    ts, tc, c, kind = step
    return KINDS[kind][clear].format(c=c, a=args.pmu_base + c * args.pmu_stride + CYCLE_REG)


def window_of(step, **times):
    ts, tc, c, kind = step
    return json.dumps({"window": dict({"cpu": c, "kind": kind, "cause": KINDS[kind][2]}, **times)})


def write_plan(args, steps):
    """The schedule as SPEC@TIME in sim time (microseconds), its windows in
    the log.  Sim time starts with the simulated SoC, after this call."""
    specs = []
    for step in steps:
        for clear, t in ((0, step[0]), (1, step[1])):
            specs.append("%s@%dus" % (spec_of(args, step, clear), round(t * 1e6)))
    with open(args.plan, "w") as f:
        f.write(",".join(specs) + "\n")
    with open(args.log, "a") as log:
        log.write(json.dumps({"epoch_lo_ns": time.monotonic_ns()}) + "\n")
        for step in steps:
            log.write(window_of(step, set_s=round(step[0] * 1e6) / 1e6,
                                 clear_s=round(step[1] * 1e6) / 1e6) + "\n")
        log.write(json.dumps({"faults": len(specs)}) + "\n")
    return 0


def run(args, steps):
    """Sends the schedule's steps as they come due (with --ctl) and samples
    VmRSS every second, for --seconds or until pmuprobe is gone."""
    actions = []
    for i, (ts, tc, c, kind) in enumerate(steps if args.ctl else []):
        actions.append((ts, 0, i))
        actions.append((tc, 1, i))
    actions.sort()
    ctl = Control(args.ctl) if args.ctl else None
    t0 = time.monotonic()
    done = {}
    late = 0.0
    next_rss = 0.0
    sent = 0
    with open(args.log, "a") as log:
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
                before = time.monotonic_ns()
                ctl("fault " + spec_of(args, steps[i], clear))
                after = time.monotonic_ns()
                sent += 1
                if not clear:
                    done[i] = before
                    continue
                log.write(window_of(steps[i], set_ns=done[i], clear_ns=after) + "\n")
                log.flush()
                continue
            wake = next_rss if not actions else min(next_rss, actions[0][0])
            time.sleep(max(0.0, min(wake - (time.monotonic() - t0), 0.2)))
        for i, set_ns in done.items():
            if any(a[2] == i for a in actions):
                log.write(window_of(steps[i], set_ns=set_ns, clear_ns=None) + "\n")
        if ctl:
            log.write(json.dumps({"faults": sent}) + "\n")
        log.write(json.dumps({"late_s": late}) + "\n")
    return 0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, required=True)
    ap.add_argument("--seconds", type=float, required=True, help="length of the capture")
    ap.add_argument("--ctl", help="the simulator's control socket: send the faults there")
    ap.add_argument("--plan", help="write the faults to this file as SPEC@TIME and exit")
    ap.add_argument("--pid", type=int, help="pmuprobe, for VmRSS")
    ap.add_argument("--cores", default="1,2,3", help="cores to fault (the others stay healthy)")
    ap.add_argument("--pmu-base", type=lambda s: int(s, 0), default=0x81030000)
    ap.add_argument("--pmu-stride", type=lambda s: int(s, 0), default=0x100000)
    ap.add_argument("--log", required=True, help="appended to")
    args = ap.parse_args()
    if not args.plan and args.pid is None:
        ap.error("--pid is needed unless --plan is given")

    cores = [int(c) for c in args.cores.split(",") if c]
    # Faults start after 1 s and end 2 s before the capture does, so every
    # core is back (retry: 100 ms) and counted when the capture ends.
    # Healthy stretches (1 s or more) outlast the checker's slack after a
    # window (0.8 s), so no gap could be blamed on the wrong window.  Sim
    # time starts before the capture (pmuprobe, or the emulator, sets up
    # and discovers first): planned faults start after 2 s.
    steps = plan(args.seed, cores, 2.0 if args.plan else 1.0, args.seconds - 2.0, (0.3, 1.5),
                 (1.0, 2.5))
    if args.plan:
        print("soak-faults: seed %d, %d fault windows on cpu %s, planned in sim time"
              % (args.seed, len(steps), args.cores))
        return write_plan(args, steps)
    if args.ctl:
        print("soak-faults: seed %d, %d fault windows on cpu %s" % (args.seed, len(steps), args.cores))
    return run(args, steps)


if __name__ == "__main__":
    sys.exit(main())

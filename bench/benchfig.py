"""bench/benchfig.py - renders a `make bench` result (the JSON bench/run
writes) as text tables for the terminal and as the Markdown regions of
README.md.  One renderer for both, so what the README shows is what the run
printed; bench/readme-tables puts the regions in place and checks them.

Every figure comes from the result's "figures" (measured counts and rates,
per row) or from its "date", "machine" and "rounds".  The TCK bound is
computed from a count and labelled so.  Rows over the FTDI emulator in
real time ("emulated real time") are measured: the emulator holds every
reply until its TCK and USB microframes have passed, so their rates and
their share of the bound are graded (bench/run has already failed a run
in which one beat its bound).  No rate is shown above its row's TCK
bound: the simulator and the emulator clock TCK in no time, so a rate can
beat what a 30 MHz JTAG allows; such a rate is named, not shown, and gets
no ratio and no grade.  CPU time is the kernel's tick-based accounting,
labelled as an estimate.  Rates of a noisy run (the machine busier
than its cores at the start, or a row's rate spread wide between rounds)
are shown but not graded either; counts are graded whatever the load.  A
real-time row that reaches its target is graded met even in a noisy run:
load can only slow it.
"""

# Graded targets: a row's measured figure against a goal (design.md rule 5).
TCK_MHZ = 30
# A rate target is not graded when its row's fastest round beat its
# slowest by more than this factor: the machine, not the code, set it.
RATE_SPREAD_MAX = 1.5
# The verdict of a rate target in a noisy run.
NOISY = "noisy"
# The verdict of a rate target whose rate beat its TCK bound.
ABOVE = "above"

# The README's generated regions, by name; each sits between its markers.
REGIONS = ("openocd", "results")


def begin_marker(name):
    return "<!-- bench:%s begin (bench/readme-tables writes this from bench/last.json; " \
           "do not edit) -->" % name


def end_marker(name):
    return "<!-- bench:%s end -->" % name


class RenderError(Exception):
    pass


# ---- numbers -----------------------------------------------------------------

def fmt(v, unit="", digits=None):
    if v is None:
        return "-"
    if digits is None:
        if abs(v) >= 1e6:
            return "%.2fM%s" % (v / 1e6, unit)
        if abs(v) >= 1e4:
            return "%.1fk%s" % (v / 1e3, unit)
        if abs(v) >= 100 or v == int(v):
            return "%.0f%s" % (v, unit)
        return "%.2f%s" % (v, unit)
    return "%.*f%s" % (digits, v, unit)


def fmt_kb(kb):
    return "-" if kb is None else "%.1f MB" % (kb / 1024.0)


# ---- tables --------------------------------------------------------------------

EMULATED = "emulated, not real time"
# A rate above its row's TCK bound, in place of the figure.
ABOVE_BOUND = "above the TCK bound"
# The CPU figure of a result from before ocd_bench measured its own
# sampling window: bench/run then took the child's whole CPU time less an
# attach cost fitted from two warm-up runs of different lengths.
FITTED = "~"
# Those rows: ocd_bench's.
OCD_BENCH_KEYS = ("mdw", "ocdb-block", "ocdb-loop")

PATH_HEAD = ["path", "samples/s", "reg reads/s", "x mdw", "CPU us/sample (est.)", "regs/sample",
             "TCK/read", "TCK/sample", "DR scans/sample", "host RT/sample", "JTAG RT/sample",
             "TCK bound @%dMHz (computed)" % TCK_MHZ, "rate / bound (not graded)"]
PIPE_HEAD = ["output (1 core x 7 counters)", "samples/s", "CPU us/sample (est.)", "bytes/sample",
             "peak RSS"]
CLI_HEAD = ["output (1 core x 7 counters)", "samples/s (whole process)",
            "samples/s (stream's summary)", "engine samples/s (table above)", "CLI / engine",
            "CPU us/sample (whole process)", "bytes/sample", "engine bytes/sample"]
SCALE_HEAD = ["plan (bin -> /dev/null)", "samples/s", "reg reads/s", "regs/sample",
              "CPU ns/reg (est.)", "bytes/sample", "peak RSS"]
PY_HEAD = ["plan: 1 core x 2 counters, -i 0", "Python samples/s", "engine samples/s (as the CLI)",
           "Python / engine", "Python CPU us/sample (est.)", "iterator samples/s (not graded)",
           "iterator / engine"]
OCD_HEAD = ["way", "RPC round trips / sample", "JTAG scans / sample", "TCK / sample",
            "samples/s"]
REALTIME = "emulated real time"
FTDI_HEAD = ["plan (own JTAG, FT2232H emulator, %s, %d MHz TCK)" % (REALTIME, TCK_MHZ), "mode",
             "samples/s", "regs/sample", "TCK/sample", "DR scans/sample", "USB RT/sample",
             "TCK bound (samples/s)", "share of bound"]
# Its rows: bench/run's keys (the 4 x 7 rows are the paths table's).
FTDI_ROWS = [("ftdi-1x1-sync", "1 core, cycle counter alone"),
             ("ftdi-1x1-repeat", "1 core, cycle counter alone"),
             ("ftdi-1x7-sync", "1 core x 7 counters"), ("ftdi-1x7-repeat", "1 core x 7 counters"),
             ("ftdi", "4 cores x 7 counters"), ("ftdi-repeat", "4 cores x 7 counters")]
OCDF_HEAD = ["way (OpenOCD 0.12 ftdi driver, FT2232H emulator, %s)" % REALTIME,
             "regs/sample", "samples/s", "OpenOCD commands/sample", "flushes/sample (0x87)",
             "USB transfers/sample (out + in)", "TCL RPC/sample", "TCK/sample", "DR scans/sample",
             "share of bound", "(c) / this"]
DAP_HEAD = ["way (CMSIS-DAP v2 emulator, %s)" % REALTIME, "regs/sample", "samples/s",
            "command packets/sample", "USB round trips/sample", "host waits/sample",
            "TCK/sample", "share of bound", "(c) pipelined / this"]
# The CMSIS-DAP targets: (c) pipelined over (row key), wanted; and the
# pipelined row's USB round trips per sample, below this.
DAP_RATIO_GOALS = (("dap-mdw", "(a)", 10.0), ("dap-tcl", "(b)", 3.0))
DAP_RT_MAX = 0.1
# The OpenOCD table's rows: bench/run's keys, as the README names them.
OCD_ROWS = [("mdw", "one `mdw` per register (a hand-written script)"),
            ("ocdb-block", "pmuprobe's block reads (`pp_bus_run`)"),
            ("ocdb-loop", "TCL loop inside OpenOCD (`pp_bus_run_repeat`)")]


def above_bound(f):
    """Whether the row's measured rate beats its computed TCK bound."""
    bound = f.get("tck_bound_samples_per_s")
    return bound is not None and f["samples_per_s"] > bound


def rate_cell(f, key):
    """A rate of the row, or ABOVE_BOUND in its place."""
    return ABOVE_BOUND if above_bound(f) else fmt(f[key])


def fitted_cpu(f):
    """Whether the row's CPU figure was fitted, not measured over its
    window (an ocd_bench row of a result without cpu_basis)."""
    return f.get("cpu_basis", "fitted" if f["key"] in OCD_BENCH_KEYS else "window") != "window"


def cpu_cell(f, scale=1.0, digits=1):
    v = f["cpu_us_per_sample"] * scale
    return (FITTED if fitted_cpu(f) else "") + fmt(v, "", digits)


def path_cells(f):
    if "na" in f:
        return [f["label"], f["na"]]
    emulated = f.get("emulated", False)
    hide = above_bound(f)
    if f.get("tck_bound_samples_per_s") is None or hide:
        share = "-"
    elif emulated:
        share = EMULATED
    else:
        share = fmt(100 * f["fraction_of_tck_bound"], "%", 1)
    return [f["label"], rate_cell(f, "samples_per_s"), rate_cell(f, "reg_reads_per_s"),
            fmt(f["ratio_to_mdw"], "x", 1) if f.get("ratio_to_mdw") and not emulated
            and not hide else "-",
            cpu_cell(f), fmt(f["regs_per_sample"], "", 1),
            fmt(f["tck_per_read"], "", 1) if f["tck_per_read"] else "-",
            fmt(f["tck_per_sample"]), fmt(f.get("dr_scans_per_sample"), "", 2),
            fmt(f["host_rt_per_sample"], "", 3),
            fmt(f["jtag_rt_per_sample"], "", 3) if f["jtag_rt_per_sample"] is not None else "-",
            fmt(f.get("tck_bound_samples_per_s")), share]


def ftdi_cells(f, label):
    if "na" in f:
        return [label, f["na"]]
    mode = "sync" if f["key"] in ("ftdi",) or f["key"].endswith("-sync") else "pipelined"
    return [label, mode, fmt(f["samples_per_s"]), fmt(f["regs_per_sample"], "", 1),
            fmt(f["tck_per_sample"]), fmt(f.get("dr_scans_per_sample"), "", 2),
            fmt(f["host_rt_per_sample"], "", 3),
            fmt(f["tck_bound_samples_per_s"]), fmt(100 * f["fraction_of_tck_bound"], "%", 1)]


def ftdi_rows(figs):
    by = {f["key"]: f for f in figs.get("paths", []) + figs.get("ftdi", [])}
    return [ftdi_cells(by[k], label) for k, label in FTDI_ROWS if k in by]


def flushes_per_command(rows):
    """2 when every way that counts its commands flushed exactly twice per
    command (OpenOCD's mem_ap read), else None: then (c)'s commands are
    not inferred from its flushes."""
    counted = [f for f in rows if f.get("ocd_cmds_per_sample")]
    if counted and all(f["flushes_per_sample"] == 2 * f["ocd_cmds_per_sample"] for f in counted):
        return 2
    return None


def ocdf_cells(f, pp, per_cmd):
    ratio = "-"
    if pp and f is not pp:
        ratio = fmt(pp["samples_per_s"] / f["samples_per_s"], "x", 2)
    return [f["label"], fmt(f["regs_per_sample"]), fmt(f["samples_per_s"], "", 1),
            fmt(f.get("ocd_cmds_per_sample")) if f.get("ocd_cmds_per_sample") else
            "%s (flushes / 2)" % fmt(f["flushes_per_sample"] / 2) if per_cmd else "-",
            fmt(f["flushes_per_sample"]), "%s (%s + %s)" % (fmt(f["usb_per_sample"]),
                                                            fmt(f["usb_out_per_sample"]),
                                                            fmt(f["usb_in_per_sample"])),
            fmt(f["rpc_per_sample"], "", 3), fmt(f["tck_per_sample"]),
            fmt(f.get("dr_scans_per_sample"), "", 2),
            fmt(100 * f["fraction_of_tck_bound"], "%", 1), ratio]


def ocdf_rows(figs):
    rows = figs.get("ocdftdi", [])
    pp = next((f for f in rows if f["key"] == "ocdf-pp"), None)
    return [ocdf_cells(f, pp, flushes_per_command(rows)) for f in rows]


def dap_cells(f, pp):
    ratio = "-"
    if pp and f is not pp:
        ratio = fmt(pp["samples_per_s"] / f["samples_per_s"], "x", 2)
    return [f["label"], fmt(f["regs_per_sample"]), fmt(f["samples_per_s"], "", 1),
            fmt(f["usb_cmds_per_sample"], "", 3), fmt(dap_rt(f), "", 3),
            fmt(f["host_rt_per_sample"], "", 3),
            fmt(f["tck_per_sample"]), fmt(100 * f["fraction_of_tck_bound"], "%", 1), ratio]


def dap_rt(f):
    """USB round trips per sample: the emulator's count of packets that
    found none in flight; a result from before it was counted had one
    packet in flight at a time, so its command packets."""
    return f.get("usb_rt_per_sample", f["usb_cmds_per_sample"])


def dap_rows(figs):
    rows = figs.get("cmsisdap", [])
    pp = next((f for f in rows if f["key"] == "dap-repeat"), None)
    return [dap_cells(f, pp) for f in rows]


def pipe_cells(f):
    if "na" in f:
        return [f["label"], f["na"]]
    return [f["label"], fmt(f["samples_per_s"]), cpu_cell(f, digits=2),
            fmt(f["bytes_per_sample"], "", 1), fmt_kb(f["peak_kb"])]


def cli_cells(f):
    e = f.get("engine_samples_per_s")
    return [f["label"], fmt(f["samples_per_s"]), fmt(f["stream_samples_per_s"]),
            fmt(e) if e else "-", "%.0f %%" % (100 * f["ratio_to_engine"]) if e else "-",
            fmt(f["cpu_us_per_sample"], "", 2), fmt(f["bytes_per_sample"], "", 1),
            fmt(f["engine_bytes_per_sample"], "", 1) if e else "-"]


def py_cells(f):
    """The graded (batch) rate, and the iterator's beside it where the
    result has one (older results measured the iterator alone)."""
    it = f.get("iter_samples_per_s")
    return [f["label"], fmt(f["samples_per_s"]), fmt(f["cli_samples_per_s"]),
            "%.0f %%" % (100 * f["ratio_to_cli"]), fmt(f["cpu_us_per_sample"], "", 1),
            fmt(it) if it else "-", "%.0f %%" % (100 * f["iter_ratio_to_cli"]) if it else "-"]


def scale_cells(f):
    if "na" in f:
        return [f["label"], f["na"]]
    return [f["label"], fmt(f["samples_per_s"]), fmt(f["reg_reads_per_s"]),
            fmt(f["regs_per_sample"], "", 1),
            cpu_cell(f, 1000 / f["regs_per_sample"]),
            fmt(f["bytes_per_sample"], "", 1), fmt_kb(f["peak_kb"])]


def text_table(head, rows):
    """Plain text; a row of two cells (label, why not measured) spans the
    rest of the line."""
    full = [r for r in rows if len(r) == len(head)]
    widths = [max(len(str(x)) for x in col) for col in zip(head, *full)]
    widths[0] = max([widths[0]] + [len(r[0]) for r in rows])

    def line(cells):
        if len(cells) < len(head):
            return "  ".join([cells[0].ljust(widths[0])] + list(cells[1:]))
        return "  ".join(str(c).rjust(w) if i else str(c).ljust(w)
                         for i, (c, w) in enumerate(zip(cells, widths)))
    return "\n".join([line(head), line(["-" * w for w in widths])] + [line(r) for r in rows])


def md_table(head, rows):
    out = ["| " + " | ".join(head) + " |", "|" + "|".join("---" for _ in head) + "|"]
    for r in rows:
        cells = list(r) + [""] * (len(head) - len(r))
        out.append("| " + " | ".join(str(c) for c in cells) + " |")
    return "\n".join(out)


def sections(doc):
    """(heading, head, rows) per table of the run, in order."""
    figs = doc["figures"]
    out = []
    spec = [("paths", "Access paths: plan 4 cores x (6 event counters + cycle counter) on %s, "
                      "deterministic sim time; samples through the capture engine (-i 0)"
             % doc["target"], PATH_HEAD, path_cells),
            ("pipeline", "Capture pipeline alone (in-process sim, -i 0), per output format",
             PIPE_HEAD, pipe_cells),
            ("cli", "The CLI as a user runs it: `pmuprobe -p sim --sim-time deterministic "
                    "stream -c 0 -e <the 7 events> -i 0 --format F -o DEST -f`, its "
                    "default output (metrics included), beside the engine's row of the same "
                    "output", CLI_HEAD, cli_cells),
            ("scaling", "Scaling with cores x counters (bench/%s)" % doc.get("big_target", "?"),
             SCALE_HEAD, scale_cells),
            ("python", "The Python package (bench/py-bench: in NumPy batches, graded; and "
                       "iterated, a Sample per slice) against the engine as the CLI runs it "
                       "(pp-bench, bin to /dev/null), same plan",
             PY_HEAD, py_cells)]
    for key, heading, head, cells in spec:
        if figs.get(key):
            out.append((heading, head, [cells(f) for f in figs[key]]))
        if key == "paths" and ftdi_rows(figs):
            out.append(("Own JTAG over the FT2232H emulator in %s at %d MHz TCK (PMUPROBE_EMU_"
                        "REALTIME=1: no reply before its TCK and USB microframes passed)"
                        % (REALTIME, TCK_MHZ), FTDI_HEAD, ftdi_rows(figs)))
        if key == "paths" and figs.get("ocdftdi"):
            f = figs["ocdftdi"][0]
            # A result with plan_writes has every way do the plan's writes too.
            writes = (" and %d writes" % f["plan_writes"]) if f.get("plan_writes") else ""
            out.append(("OpenOCD over FTDI, %s at %d MHz TCK: one register set, the %d reads%s "
                        "pmuprobe's capture makes per sample of 4 cores x 7 counters, three ways"
                        % (REALTIME, TCK_MHZ, f["plan_reads"], writes), OCDF_HEAD,
                        ocdf_rows(figs)))
        if key == "paths" and figs.get("cmsisdap"):
            f = figs["cmsisdap"][0]
            out.append(("CMSIS-DAP v2 probe (USB emulator), %s at %g MHz SWJ clock, JTAG: one "
                        "register set, the %d reads pmuprobe's capture makes per sample of 4 "
                        "cores x 7 counters; OpenOCD 0.12's cmsis-dap driver two ways, "
                        "pmuprobe's own cmsis-dap path two ways"
                        % (REALTIME, f["dap_hz"] / 1e6, f["plan_reads"]), DAP_HEAD,
                        dap_rows(figs)))
    return out


# ---- targets and notes --------------------------------------------------------

# The rate targets' rows: ratios to the mdw baseline, the in-process
# register rate, pipeline rates (row key, samples/s wanted).
OCD_RATIO_ROWS = ("ocd-block", "ocd-loop", "ocdb-block", "ocdb-loop")
PIPE_RATE_GOALS = (("pipe-bin-null", 1e6), ("pipe-csv-null", 2e5))
# The CLI's: (row key, samples/s wanted), the whole process's rate.
CLI_RATE_GOALS = (("cli-bin-null", 1e6),)
RATE_ROWS = OCD_RATIO_ROWS + ("mdw", "sim") + tuple(k for k, _ in PIPE_RATE_GOALS) \
    + tuple(k for k, _ in CLI_RATE_GOALS)


def spread(f):
    """A row's fastest round's rate over its slowest's."""
    lo, hi = f.get("samples_per_s_min"), f.get("samples_per_s_max")
    return hi / lo if lo and hi else float("inf")


def overloaded(doc):
    """Whether the 1-minute load average at the start exceeded the cores."""
    m = doc.get("machine", {})
    return m.get("loadavg", [0.0])[0] > m.get("cores", 0)


def rate_verdict(doc, rows, met):
    """met, unless a row the rate comes from beat its TCK bound (ABOVE)
    or the run or one of those rows was noisy (NOISY)."""
    if any(above_bound(f) for f in rows):
        return ABOVE
    if overloaded(doc) or any(spread(f) > RATE_SPREAD_MAX for f in rows):
        return NOISY
    return met


def goals(doc):
    """The targets against this run: (text, verdict) pairs, verdict True
    (met), False (not met), None (a projection: shown, never graded) or
    NOISY (a rate of a noisy run: shown, not graded) or ABOVE (a rate
    above its TCK bound: not shown, not graded).  Counts are graded
    whatever the load: they do not depend on the machine."""
    figs = doc["figures"]
    p = {f["key"]: f for f in figs.get("paths", []) if "na" not in f}
    pipe = {f["key"]: f for f in figs.get("pipeline", []) if "na" not in f}
    out = []
    own = [p[k] for k in ("rbb", "ftdi", "ftdi-repeat") if k in p and p[k]["tck_per_read"]]
    if own:
        worst = max(f["tck_per_read"] for f in own)
        out.append(("own JTAG stack: <= 45 TCK per register read: %.1f" % worst, worst <= 45))
    for k in ("rbb", "ftdi"):
        if k in p:
            rt = p[k]["host_rt_per_sample"]
            out.append(("%s: one round trip per sample: %.3f" % (p[k]["label"], rt), rt <= 1.0))
    if "ftdi-repeat" in p:
        f = p["ftdi-repeat"]
        out.append(("%s: < 0.1 round trips per sample: %.3f"
                    % (f["label"], f["host_rt_per_sample"]), f["host_rt_per_sample"] < 0.1))
    out += ftdi_goals(doc)
    out += ocdf_goals(doc)
    out += dap_goals(doc)
    for k in OCD_RATIO_ROWS:
        if k in p and p[k].get("ratio_to_mdw"):
            v = rate_verdict(doc, [p[k], p["mdw"]], p[k]["ratio_to_mdw"] >= 10)
            got = ABOVE_BOUND if v == ABOVE else "%.1fx" % p[k]["ratio_to_mdw"]
            out.append(("%s: >= 10x the mdw baseline: %s" % (p[k]["label"], got), v))
    if "sim" in p:
        out.append(("in-process: >= 1,000,000 register reads/s: %s" % fmt(p["sim"]["reg_reads_per_s"]),
                    rate_verdict(doc, [p["sim"]], p["sim"]["reg_reads_per_s"] >= 1e6)))
    for f in figs.get("python", []):
        beside = "; iterator %.0f %%, not graded" % (100 * f["iter_ratio_to_cli"]) \
            if f.get("iter_ratio_to_cli") else ""
        out.append(("%s: >= 90 %% of the engine's rate as the CLI runs it: %.0f %%%s"
                    % (f["label"], 100 * f["ratio_to_cli"], beside),
                    rate_verdict(doc, [f], f["ratio_to_cli"] >= 0.9)))
    cli = {f["key"]: f for f in figs.get("cli", [])}
    for key, want in CLI_RATE_GOALS:
        if key in cli:
            f = cli[key]
            out.append(("CLI: pmuprobe stream, 1 core x 7 counters, %s, start to exit: >= %s "
                        "samples/s: %s" % (f["label"], fmt(want), fmt(f["samples_per_s"])),
                        rate_verdict(doc, [f], f["samples_per_s"] >= want)))
    for key, want in PIPE_RATE_GOALS:
        if key in pipe:
            f = pipe[key]
            out.append(("pipeline, 1 core x 7 counters, %s: >= %s samples/s: %s"
                        % (f["label"], fmt(want), fmt(f["samples_per_s"])),
                        rate_verdict(doc, [f], f["samples_per_s"] >= want)))
    return out


# Own JTAG on the real-time FTDI emulator: (row key, plan, samples/s wanted).
FTDI_RATE_GOALS = (("ftdi-1x1-repeat", "1 core's cycle counter alone", 100e3),
                   ("ftdi-1x7-repeat", "1 core x 7 counters", 40e3),
                   ("ftdi-repeat", "4 cores x 7 counters", 12e3))
# OpenOCD over FTDI: (c) over (row key), wanted.
OCDF_RATIO_GOALS = (("ocdf-mdw", "(a)", 4.0), ("ocdf-tcl", "(b)", 1.5))


def rt_rate_verdict(doc, rows, met):
    """A rate target of real-time rows: met whatever the load (load only
    slows them), else NOISY in a noisy run, else not met."""
    if met:
        return True
    if overloaded(doc) or any(spread(f) > RATE_SPREAD_MAX for f in rows):
        return NOISY
    return False


def ftdi_goals(doc):
    figs = doc["figures"]
    by = {f["key"]: f for f in figs.get("paths", []) + figs.get("ftdi", []) if "na" not in f}
    out = []
    for k in ("ftdi-1x1-sync", "ftdi-1x7-sync"):
        if k in by:
            rt = by[k]["host_rt_per_sample"]
            out.append(("own JTAG / FTDI, %s, sync, %s: one USB round trip per sample: %.3f"
                        % (dict(FTDI_ROWS)[k], REALTIME, rt), rt <= 1.0))
    for k, plan, want in FTDI_RATE_GOALS:
        if k in by:
            f = by[k]
            out.append(("own JTAG / FTDI pipelined, %s, %s at %d MHz: >= %s samples/s: %s "
                        "(%.0f TCK/sample: bound %s, %.0f%% of it)"
                        % (plan, REALTIME, TCK_MHZ, fmt(want), fmt(f["samples_per_s"]),
                           f["tck_per_sample"], fmt(f["tck_bound_samples_per_s"]),
                           100 * f["fraction_of_tck_bound"]),
                        # A bound below the goal is a count: not met whatever the load.
                        False if f["tck_bound_samples_per_s"] < want else
                        rt_rate_verdict(doc, [f], f["samples_per_s"] >= want)))
    return out


def ocdf_goals(doc):
    by = {f["key"]: f for f in doc["figures"].get("ocdftdi", [])}
    if "ocdf-pp" not in by:
        return []
    pp, out = by["ocdf-pp"], []
    for k, name, want in OCDF_RATIO_GOALS:
        if k in by:
            ratio = pp["samples_per_s"] / by[k]["samples_per_s"]
            out.append(("OpenOCD ftdi driver, %s: %s >= %.1fx %s: %.2fx"
                        % (REALTIME, pp["label"], want, by[k]["label"], ratio),
                        rate_verdict(doc, [pp, by[k]], ratio >= want)))
    return out


def dap_goals(doc):
    """Direct CMSIS-DAP pipelined against OpenOCD's cmsis-dap driver (a
    rate ratio: not graded in a noisy run), and its USB round trips per
    sample (a count: graded whatever the load)."""
    by = {f["key"]: f for f in doc["figures"].get("cmsisdap", [])}
    if "dap-repeat" not in by:
        return []
    pp, out = by["dap-repeat"], []
    for k, name, want in DAP_RATIO_GOALS:
        if k in by:
            ratio = pp["samples_per_s"] / by[k]["samples_per_s"]
            out.append(("CMSIS-DAP, %s: %s >= %.0fx %s: %.2fx"
                        % (REALTIME, pp["label"], want, by[k]["label"], ratio),
                        rate_verdict(doc, [pp, by[k]], ratio >= want)))
    rt = dap_rt(pp)
    out.append(("%s: < %.1f USB round trips per sample: %.3f (command packets %.3f, host "
                "waits %.3f)" % (pp["label"], DAP_RT_MAX, rt, pp["usb_cmds_per_sample"],
                                 pp["host_rt_per_sample"]), rt < DAP_RT_MAX))
    return out


def verdict(v):
    return {True: "met", False: "NOT met", None: "not graded (projection)",
            NOISY: "not graded (noisy run)",
            ABOVE: "not graded (rate above the TCK bound)"}[v]


def noise_note(doc):
    """Why rate targets went ungraded, or None when every one was graded."""
    if NOISY not in [v for _, v in goals(doc)]:
        return None
    why = []
    if overloaded(doc):
        m = doc["machine"]
        why.append("the 1-minute load average at the start, %.1f, exceeded the %d cores"
                   % (m["loadavg"][0], m["cores"]))
    figs = doc["figures"]
    graded = [f for s in ("paths", "pipeline", "cli") for f in figs.get(s, [])
              if f["key"] in RATE_ROWS] + figs.get("python", [])
    wide = ["%s %.1fx" % (f["label"], spread(f))
            for f in graded if "na" not in f and spread(f) > RATE_SPREAD_MAX]
    if wide:
        why.append("rates varied between rounds by more than %.1fx (fastest / slowest): %s"
                   % (RATE_SPREAD_MAX, ", ".join(wide)))
    return ("Noisy run: rate targets not graded, as %s; their figures are shown as measured.  "
            "Count targets are graded: counts do not depend on the load." % "; and ".join(why))


def notes(doc):
    figs = doc["figures"]
    noisy = noise_note(doc)
    n = [noisy] if noisy else []
    n += ["CPU us/sample (est.): user + system time of the measuring process only, over its "
          "sampling window (getrusage; attaching is not in it), as the kernel accounts it: "
          "by scheduler ticks, so an estimate, coarse over a short window.  The capture "
          "engine's threads, the in-process SoC and the FTDI emulator run inside it; "
          "pmuprobe-sim's and OpenOCD's CPU is not included."]
    fitted = [f["label"] for f in figs.get("paths", []) if "na" not in f and fitted_cpu(f)]
    if fitted:
        n.append("%s before a CPU figure (%s): fitted, not measured over the window: this "
                 "result predates ocd_bench's own window figure, so bench/run took the "
                 "child's whole CPU time less an attach cost fitted from two warm-up runs of "
                 "different lengths." % (FITTED, ", ".join(fitted)))
    n += [
          "regs/sample: register accesses per sample on the bus, of the default plan "
          "(docs/sample-plan.md; per core: EDPRSR, then on a core with the snapshot block "
          "the PMSSCR write and the PMSSSR/snapshot copies, else the counters, the 64-bit "
          "cycle counter as hi/lo/hi, and the overflow flags only where a counter is 32-bit; "
          "plus the programming check's registers whose turn it is); the mdw baseline "
          "reads the counters only.",
          "TCK: pmuprobe-sim's count over the sampling window (OpenOCD, remote_bitbang: equal "
          "to the link driver's), the link driver's (pins: equal to the simulated TAP's; "
          "FTDI: its session total equal to the emulator's).  host RT: round trips on "
          "pmuprobe's own link (socket, USB, TCL RPC).  JTAG RT: round trips counted at the "
          "JTAG end, pmuprobe-sim's remote_bitbang server; '-' where nothing on that side "
          "counts them (in-process pins; FTDI, where the USB round trip is the host RT).",
          "TCK bound @%dMHz = %de6 / (TCK per sample), computed, not measured: the rate a "
          "JTAG path could reach if only TCK cost time.  'rate / bound' is the measured "
          "rate's share of it.  The in-process pins clock TCK in no time: their rates are "
          "%s and get no share and no mdw ratio.  The FTDI rows run the emulator in real "
          "time (%s: PMUPROBE_EMU_REALTIME=1, tests/ftdi-emu/rt.c): no reply before its TCK "
          "were clocked at %d MHz and its 125 us USB microframes passed, so their rates are "
          "measured, graded, and never above the bound (bench/run fails a run in which one "
          "is, and one whose emulator stats do not say realtime=1 at %d MHz)."
          % (TCK_MHZ, TCK_MHZ, EMULATED, REALTIME, TCK_MHZ, TCK_MHZ)]
    n += ocdf_notes(figs)
    above = [f["label"] for f in figs.get("paths", []) if "na" not in f and above_bound(f)]
    if above:
        n.append("'%s' (%s): the measured rate beat the computed TCK bound, which no real "
                 "%d MHz JTAG could; the simulated TAP clocks TCK in no time.  The rate is "
                 "not shown (the result keeps it) and gets no share, no mdw ratio and no grade."
                 % (ABOVE_BOUND, ", ".join(above), TCK_MHZ))
    for f in figs.get("paths", []):
        if f.get("projected_ft2232h"):
            fast, slow = f["projected_ft2232h"]   # USB round trip 0.25 ms, 1 ms
            n.append("%s, projected (not measured) for a real FT2232H at %d MHz from the "
                     "counts above (spec/ftdi-mpsse-jtag.md 4.8, R_sync): %s samples/s with a "
                     "1 ms USB round trip, %s with 0.25 ms."
                     % (f["label"], TCK_MHZ, fmt(slow), fmt(fast)))
        if "na" not in f and not f.get("counts_stable", True):
            n.append("%s: counts varied by over 1 %% between rounds (medians shown)." % f["label"])
    heavy = ["%s %.0f%%" % (f["label"], 100 * f["sys_us_per_sample"] / f["cpu_us_per_sample"])
             for f in figs.get("paths", []) if f.get("sys_us_per_sample") and
             f["sys_us_per_sample"] > 0.5 * f["cpu_us_per_sample"]]
    if heavy:
        n.append("Mostly system time in CPU us/sample (sockets, and the capture threads' "
                 "sleeps and wake-ups while a slow path reads): " + ", ".join(heavy) + ".")
    for f in figs.get("pipeline", []) + figs.get("scaling", []):
        if "na" not in f and not f.get("counts_stable", True):
            n.append("%s: counts varied by over 1 %% between rounds (medians shown)." % f["label"])
    if figs.get("cli"):
        n.append("The CLI table: samples/s (whole process) is the samples over the process's "
                 "life, from its start to its exit (loading the target, programming the "
                 "counters, stopping them and completing the output included); stream's "
                 "summary gives the capture's own rate.  CPU us/sample is the process's whole "
                 "user + system time.  Beside them, the engine's row of the same output "
                 "(pp-bench, the table above), which writes no metrics: the text formats' "
                 "bytes/sample differ by them (bin carries none).")
    p = {f["key"]: f for f in figs.get("paths", []) if "na" not in f}
    if "mdw" in p and "ocdb-block" in p and p["ocdb-block"].get("ratio_to_mdw") \
            and not above_bound(p["mdw"]) and not above_bound(p["ocdb-block"]):
        n.append("Through OpenOCD, replacing the mdw script's %s RPC round trips per sample by "
                 "%s (%s) gains %s: OpenOCD's own JTAG traffic (%s JTAG RT/sample) sets the pace."
                 % (fmt(p["mdw"]["host_rt_per_sample"]), fmt(p["ocdb-block"]["host_rt_per_sample"]),
                    p["ocdb-block"]["label"], fmt(p["ocdb-block"]["ratio_to_mdw"], "x", 1),
                    fmt(p["ocdb-block"]["jtag_rt_per_sample"])))
    n += dap_notes(figs)
    n += ["CROSS-CHECK FAILED: " + x for x in doc.get("cross_check_failures", [])]
    return n


def dap_notes(figs):
    """What the CMSIS-DAP table counts."""
    rows = figs.get("cmsisdap", [])
    if not rows:
        return []
    n = ["CMSIS-DAP: counted by the emulator (tests/cmsisdap-emu) over a run minus the "
         "warm-up run, per sample: command packets (each with its reply), and USB round "
         "trips, the packets that found none in flight (the host had waited for every reply "
         "before sending it; with one packet in flight at a time every packet is one); a "
         "packet holds about two samples at most (the reply bounds it: 4 bytes a read in "
         "512), so fewer than 0.1 round trips a sample needs several packets in flight; host "
         "waits are pmuprobe's link's round trips (a run of packets, up to the probe's "
         "Packet Count in flight) or, through OpenOCD, the TCL RPCs.  The emulator answers "
         "no command before its TCK at the SWJ clock and its USB microframes passed "
         "(PMUPROBE_EMU_REALTIME=1); bench/run fails a run whose stats say otherwise or "
         "whose rate beats the TCK bound."]
    pp = next((f for f in rows if f["key"] == "dap-repeat"), None)
    if pp and pp["host_rt_per_sample"] >= 1:
        n.append("%s: the capture engine's repeat sets (-i > 0) run one repetition per "
                 "round trip on this link: it has no TCK schedule to space and date "
                 "repetitions by (lib/link/cmsisdap.c leaves the link's tck_hz 0, "
                 "lib/adi/adi_bus.c runs them alone), so pipelined equals sync here."
                 % pp["label"])
    return n


def ocdf_b_text(by):
    """What (b) read: a result with the (b') row has the expert reading the
    register set in address order; an older result, blocks in the plan's
    order with the counter window in one read."""
    if "ocdf-tclo" not in by:
        return ("(b) reads each block once per sample, a PMU's counter window (0x000-0x0FC) "
                "in one read_memory; ")
    writes = ""
    if by["ocdf-tclo"].get("plan_writes"):
        writes = ("Every way does the plan's writes too (the snapshot plan's PMSSCR write a "
                  "core, without which the copies are stale): (a) by mww, (b) and (b') by a "
                  "write_memory each, in (b) just before the block it must precede.  ")
    return ("(b) reads the register set once per sample in address order, one read_memory "
            "per PMU window (0x000-0x0FC, 0x400-0x47C, 0xC00-0xCFC, 0xE00-0xE2C) and per debug "
            "register; (b') the same in the plan's order (PMCCNTR high, low, high; PMOVSSET "
            "before the counters; the programming check after them), which (c) keeps too, so "
            "a window read out of order costs another read_memory.  " + writes)


def ocdf_set_cost(pp):
    """What (c) pays once per repeat set, and how many samples a set held."""
    text = ("two CTRL/STAT overrun checks per repeat set (after its first sample and at its "
            "end) and the programming check's register (read in the set's first sample only), "
            "3 commands a set")
    rpc = pp.get("rpc_per_sample")
    if rpc:
        text += (" of %s samples here (a set spans at most 20 ms; each sample takes several USB "
                 "round trips)" % fmt(1 / rpc, "", 1))
    return text + ","


def ocdf_notes(figs):
    """What the OpenOCD-over-FTDI table counts, and where (c) spends what
    it loses to the fastest other way."""
    by = {f["key"]: f for f in figs.get("ocdftdi", [])}
    if "ocdf-pp" not in by:
        return []
    pp = by["ocdf-pp"]
    n = ["OpenOCD over FTDI: a fresh OpenOCD per run (the emulator writes its counters when "
         "OpenOCD exits); USB transfers, flushes (0x87 Send Immediate: OpenOCD ends each queue "
         "flush with one) and TCK per sample are a run's counts minus the warm-up run's over "
         "the samples between them.  OpenOCD commands: mdw or read_memory calls per sample "
         "where the script counts them; for (c) half its flushes (OpenOCD's mem_ap read "
         "flushed twice per call in (a) and (b)).  " + ocdf_b_text(by) + "(c) is pp-bench "
         "-P openocd -m repeat, the capture engine as `stream` runs it: it reads the "
         "programming check's register in a repeat set's first sample only (pp_op.once, "
         "docs/sample-plan.md), where (a), (b) and (b') read every register of the plan "
         "each sample (its regs/sample counts what it read)."]
    best = max((f for f in by.values() if f is not pp), key=lambda f: f["samples_per_s"],
               default=None)
    if best and best["samples_per_s"] >= pp["samples_per_s"] / 1.5 \
            and flushes_per_command(list(by.values())):
        n.append("%s reached %s samples/s against %s for %s: %s USB flushes per sample against "
                 "%s, each a USB round trip of at least one 125 us microframe each way, and "
                 "%s OpenOCD commands against %s; (c) adds %s and a status per word (a caught read_memory per block)%s.  The flushes set "
                 "the pace: the TCK bound is far (%s%% of it used)."
                 % (pp["label"], fmt(pp["samples_per_s"], "", 1), fmt(best["samples_per_s"], "", 1),
                    best["label"], fmt(pp["flushes_per_sample"]), fmt(best["flushes_per_sample"]),
                    fmt(pp["flushes_per_sample"] / 2), fmt(best.get("ocd_cmds_per_sample")),
                    ocdf_set_cost(pp) if pp.get("plan_writes") is not None
                    else "its per-batch CTRL/STAT overrun check",
                    ("; it keeps the plan's order, and the faster way reads %s TCK/sample against %s"
                     if "ocdf-tclo" in by else ", (b) reads more words (%s TCK/sample against "
                     "%s) but fewer blocks") % (fmt(best["tck_per_sample"]),
                                                fmt(pp["tck_per_sample"])),
                    fmt(100 * pp["fraction_of_tck_bound"], "", 1)))
    return n


def when(doc):
    return doc["date"].replace("T", " ")[:16]


def header(doc):
    m = doc["machine"]
    return ("Taken %s on `%s`, %s, %d cores (load average %.1f at the start); %d rounds, "
            "medians; the run took %.0f s."
            % (when(doc), m["arch"], m["cpu"], m["cores"], m["loadavg"][0], doc["rounds"],
               doc["elapsed_s"]))


# ---- whole renderings -----------------------------------------------------------

def render_text(doc):
    m = doc["machine"]
    out = ["pmuprobe bench, %s, %s %s (%d cores), load %.1f; %d rounds, median"
           % (when(doc), m["arch"], m["cpu"], m["cores"], m["loadavg"][0], doc["rounds"]), ""]
    for heading, head, rows in sections(doc):
        out += [heading, text_table(head, rows), ""]
    g = goals(doc)
    if g:
        out += ["Targets"] + ["  %-24s %s" % (verdict(v), t) for t, v in g] + [""]
    out += notes(doc)
    return "\n".join(out)


def render_results(doc):
    """The Benchmarks region: every table of the run, targets, notes."""
    out = [header(doc), ""]
    for heading, head, rows in sections(doc):
        out += ["**%s**" % heading, "", md_table(head, rows), ""]
    g = goals(doc)
    if g:
        out += ["**Targets**", ""] + ["- %s: %s" % (verdict(v), t) for t, v in g] + [""]
    out += ["- " + x for x in notes(doc)]
    return "\n".join(out)


def render_openocd(doc):
    """The Through OpenOCD region: the counts of the mdw baseline and of
    ocd_bench's block and loop over the same registers."""
    p = {f["key"]: f for f in doc["figures"].get("paths", []) if "na" not in f}
    missing = [k for k, _ in OCD_ROWS if k not in p]
    if missing:
        raise RenderError("the result has no %s row (a run of the paths section is needed)"
                          % ", ".join(missing))
    rows = [[label, fmt(p[k]["host_rt_per_sample"]), fmt(p[k]["dr_scans_per_sample"]),
             fmt(p[k]["tck_per_sample"]), rate_cell(p[k], "samples_per_s")]
            for k, label in OCD_ROWS]
    intro = ("Per sample of the %s counter registers of `%s` (each core's event counters and "
             "cycle counter) through OpenOCD and pmuprobe-sim, as `make bench` measured them "
             "(%s, %s; counts from pmuprobe-sim's own counters over the samples; the rate "
             "depends on the machine, the counts do not; `tests/openocd-bench.test` measures "
             "the counts again on `rpi3-a53` and asserts each one exactly):"
             % (fmt(p["mdw"]["regs_per_sample"]), doc["target"], when(doc),
                doc["machine"]["cpu"]))
    return "\n".join([intro, "", md_table(OCD_HEAD, rows)])


def render_regions(doc):
    if doc.get("cross_check_failures"):
        raise RenderError("the result failed its cross-checks: "
                          + "; ".join(doc["cross_check_failures"]))
    for key in ("paths", "ftdi", "ocdftdi", "pipeline", "cli", "scaling"):
        if not doc["figures"].get(key):
            raise RenderError("the result has no %s figures: the README needs a full run "
                              "(make bench without --sections)" % key)
    return {"openocd": render_openocd(doc), "results": render_results(doc)}


def place(text, name, body):
    """text with the region name's content replaced by body."""
    b, e = begin_marker(name), end_marker(name)
    i, j = text.find(b), text.find(e)
    if i < 0 or j < i or text.count(b) != 1 or text.count(e) != 1:
        raise RenderError("README has no single %s ... %s pair" % (b, e))
    return text[:i + len(b)] + "\n" + body.rstrip("\n") + "\n" + text[j:]


def place_all(text, regions):
    for name in REGIONS:
        text = place(text, name, regions[name])
    return text

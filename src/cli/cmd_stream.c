/*
 * cmd_stream.c - `pmuprobe stream` (alias `record`): sample the counters
 * of a set of cores at a steady rate into a file, a pipe or the terminal.
 *
 * The capture engine (lib/capture/capture.h) does the work: one bus batch
 * per sample for all cores, a sampler thread on absolute deadlines, a ring
 * to a writer thread, gaps with their causes.  This file picks the output:
 * a sink (csv, jsonl, perf, trace, bin: lib/capture/sink.h) for files and
 * pipes, or, on the terminal by default, a table with one row per core per
 * interval, as the first `stream` printed.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "clock.h"
#include "capture/sink.h"
#include "capture_cli.h"
#include "pmu/diag.h"
#include "pmu/extend.h"

enum { OPT_FORMAT = 400, OPT_LONG, OPT_METRICS, OPT_NO_METRICS };

void help_stream(FILE *out)
{
    fprintf(out,
        "Usage: pmuprobe [OPTIONS] stream [-c CPUS] [-e [TYPE:]EVENTS]... [-i INTERVAL]\n"
        "                  [-d DURATION | -n COUNT] [--format FMT] [-o FILE|- [-f]] [...]\n"
        "       pmuprobe [OPTIONS] record ...   (the same)\n"
        "Program the events on each core and sample them at a fixed interval: one\n"
        "bus batch per sample for all cores, against absolute deadlines so the rate\n"
        "does not drift, through a buffer to the output.\n");
    capcli_help_common(out);
    fprintf(out,
        "      --format FMT       table (the terminal default: a row per core per\n"
        "                         interval), csv, jsonl, perf (like perf stat -I),\n"
        "                         trace (Chrome trace-event JSON for Perfetto), bin\n"
        "                         (compact; turn it into the others with 'convert').\n"
        "                         With -o FILE the default follows the name: .csv,\n"
        "                         .jsonl, .json (trace), .bin, .txt (perf); else csv.\n"
        "                         Text (all but bin) reaches a pipe or a file live:\n"
        "                         each record within its interval, or within 100ms\n"
        "                         at faster rates (a kill -9 loses no more); bin is\n"
        "                         written in whole stdio buffers, for speed\n"
        "  -o, --output FILE|-    write to FILE, or '-' for stdout as a pipe (csv)\n"
        "  -f, --force            overwrite FILE if it exists (without it an existing\n"
        "                         file is refused; devices such as /dev/null are fine;\n"
        "                         a symlink or hard link is replaced, not written through)\n"
        "      --long             csv: one row per sample per core per event\n"
        "  -x SEP                 csv in the field order of perf stat -I -A -x SEP:\n"
        "                         metrics on their event's row, <not counted> for\n"
        "                         a core not read, no row for the baseline\n"
        "      --metrics          add derived metrics (IPC, MPKI, miss %%) to the table\n"
        "      --no-metrics       leave them out of csv, jsonl, perf and trace\n"
        "Counts are 64-bit totals and per-interval deltas, extended from the overflow\n"
        "flags; a reset or power cycle is a discontinuity (delta not trusted, shown as\n"
        "'-'), never a huge count.  A core that fails is a gap with its diagnosed\n"
        "cause (core-off, os-lock, ...); the other cores go on, and it is retried and\n"
        "comes back with a fresh baseline.  Ctrl-C (SIGINT) or SIGTERM stops cleanly:\n"
        "the output is completed.  A summary goes to stderr (rate, jitter, late,\n"
        "dropped, gaps per core and cause, bytes); on a terminal a status line shows\n"
        "progress.  Counters are stopped and the claim released at the end.\n"
        "Exit status: 0 done (also when stopped by a signal), 1 a core was refused,\n"
        "failed or had gaps, 2 bad arguments, 3 the access path failed, 4 the output\n"
        "could not be written.\n");
}

struct stream_opts {
    struct capcli_opts cap;
    const char *format, *output;
    struct pp_sink_opts sink;
    bool metrics_set, force;
};

/* ---- the table ------------------------------------------------------------------------- */

struct table {
    FILE *f;
    const struct pp_cap_meta *m;
    bool same;              /* every core has the same event names: one header */
    bool metrics;
    uint64_t bytes;         /* handed to f */
    uint64_t flushed;       /* of them, flushed without an error */
    uint64_t flushed_ns;    /* when (pp_sink_flush_due) */
    int err;
    const char *name;       /* "stdout" or the file, for the message */
    char msg[160];
};

static void tprintf(struct table *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void tprintf(struct table *t, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    cli_vcount(t->f, &t->bytes, fmt, ap);
    va_end(ap);
}

/* errno still holds why the stream's last write failed (ENOSPC, EPIPE). */
static int table_failed(struct table *t)
{
    snprintf(t->msg, sizeof(t->msg), "writing %s: %s", t->name, strerror(errno ? errno : EIO));
    t->err = PP_E_IO;
    return PP_E_IO;
}

/* The rows reach a pipe or a file as a sink's text does (sink.h). */
static int table_flush(struct table *t)
{
    errno = 0;
    if (fflush(t->f) != 0 || ferror(t->f))
        return table_failed(t);
    t->flushed = t->bytes;
    return PP_OK;
}

static bool same_events(const struct pp_cap_meta *m)
{
    for (unsigned k = 1; k < m->ncores; k++) {
        if (m->core[k].nev != m->core[0].nev)
            return false;
        for (unsigned i = 0; i < m->core[k].nev; i++)
            if (strcmp(m->core[k].ev[i].name, m->core[0].ev[i].name) != 0)
                return false;
    }
    return true;
}

static int table_begin(void *ctx, const struct pp_cap_meta *m)
{
    struct table *t = ctx;

    t->m = m;
    t->same = same_events(m);
    tprintf(t, "%10s %-5s", "time(s)", "cpu");
    if (t->same)
        for (unsigned i = 0; i < m->core[0].nev; i++)
            tprintf(t, " %16s", m->core[0].ev[i].name);
    tprintf(t, "\n");
    t->flushed_ns = pp_mono_ns();
    return table_flush(t);
}

static void table_metrics(struct table *t, const struct pp_cap_core *mc,
                          const struct pp_cap_val *v, uint32_t discont)
{
    for (unsigned j = 0; j < mc->nmetrics; j++) {
        double x;

        if (pp_cap_metric_eval(&mc->metric[j], v, discont, &x))
            tprintf(t, "  %s %.3f", mc->metric[j].name, x);
    }
}

static void table_row(struct table *t, const struct pp_cap_sample *s, unsigned k)
{
    const struct pp_cap_core *mc = &t->m->core[k];
    const struct pp_cap_cstat *cs = &pp_cap_cstats_c(s)[k];
    const struct pp_cap_val *v = pp_cap_vals_c(s) + mc->first;
    double at = (double)(s->t_start_ns - t->m->start_mono_ns) / 1e9;

    if (cs->status == PP_CAP_GAP) {
        tprintf(t, "%10.3f cpu%-2u  <not counted: %s>\n", at, mc->cpu,
                pp_cause_name(cs->cause));
        return;
    }
    /* A baseline (first sample, or back after a gap) has no deltas yet. */
    if (cs->why & (PP_EXT_WHY_START | PP_EXT_WHY_GAP))
        return;
    tprintf(t, "%10.3f cpu%-2u", at, mc->cpu);
    for (unsigned i = 0; i < mc->nev; i++) {
        if (!t->same)
            tprintf(t, " %s=", mc->ev[i].name);
        if (cs->discont >> i & 1u)
            tprintf(t, t->same ? " %16s" : "%s", "-");
        else
            tprintf(t, t->same ? " %16" PRIu64 : "%" PRIu64, v[i].delta);
    }
    if (t->metrics)
        table_metrics(t, mc, v, cs->discont);
    if (cs->why)
        tprintf(t, "  (discontinuity: %s)", pp_ext_why_str(cs->why & -cs->why));
    tprintf(t, "\n");
}

static int table_write(void *ctx, const struct pp_cap_sample *s)
{
    struct table *t = ctx;

    if (s->kind == PP_CAP_DROP)
        tprintf(t, "%10s %-5s  <%" PRIu32 " samples dropped: the output fell behind>\n",
                "-", "-", s->dropped);
    else
        for (unsigned k = 0; k < t->m->ncores; k++)
            table_row(t, s, k);
    if (ferror(t->f))
        return table_failed(t);
    if (pp_sink_flush_due(t->m->interval_ns, &t->flushed_ns))
        return table_flush(t);
    return PP_OK;
}

static int table_end(void *ctx, const struct pp_cap_summary *sum)
{
    struct table *t = ctx;

    (void)sum;
    /* Flushed here, with SIGPIPE still ignored (capcli_run): a closed
     * pipe is then EPIPE, not a kill at exit. */
    if (t->err)
        return t->err;
    return table_flush(t);
}

/* What reached the output: once it failed, what its last flush took. */
static uint64_t table_bytes(void *ctx)
{
    const struct table *t = ctx;

    return t->err ? t->flushed : t->bytes;
}

static const char *table_errmsg(void *ctx)
{
    return ((const struct table *)ctx)->msg;
}

/* ---- options ------------------------------------------------------------------------------ */

static const char *format_from_name(const char *path)
{
    static const struct { const char *ext, *format; } by_ext[] = {
        { ".csv", "csv" }, { ".jsonl", "jsonl" }, { ".ndjson", "jsonl" },
        { ".json", "trace" }, { ".bin", "bin" }, { ".txt", "perf" },
    };
    size_t n = strlen(path);

    for (size_t i = 0; i < sizeof(by_ext) / sizeof(by_ext[0]); i++) {
        size_t e = strlen(by_ext[i].ext);

        if (n > e && strcmp(path + n - e, by_ext[i].ext) == 0)
            return by_ext[i].format;
    }
    return "csv";
}

static int stream_option(int ch, const char *arg, void *ctx)
{
    struct stream_opts *so = ctx;

    switch (ch) {
    case OPT_FORMAT: so->format = arg; return 1;
    case 'o': so->output = arg; return 1;
    case 'f': so->force = true; return 1;
    case OPT_LONG: so->sink.long_form = true; return 1;
    case OPT_METRICS: so->sink.metrics = true; so->metrics_set = true; return 1;
    case OPT_NO_METRICS: so->sink.metrics = false; so->metrics_set = true; return 1;
    case 'x':
        if (strlen(arg) != 1) {
            cli_error("-x '%s': expected one separator character, e.g. -x ,", arg);
            return -1;
        }
        so->sink.sep = arg[0];
        so->sink.perf_x = true;
        return 1;
    default:
        return 0;
    }
}

static int parse_stream_opts(int argc, char **argv, struct stream_opts *so)
{
    static const struct option longopts[] = {
        CAPCLI_LONGOPTS,
        { "ring", required_argument, NULL, CAPOPT_RING },
        { "policy", required_argument, NULL, CAPOPT_POLICY },
        { "format", required_argument, NULL, OPT_FORMAT },
        { "output", required_argument, NULL, 'o' }, { "force", no_argument, NULL, 'f' },
        { "long", no_argument, NULL, OPT_LONG },
        { "metrics", no_argument, NULL, OPT_METRICS },
        { "no-metrics", no_argument, NULL, OPT_NO_METRICS },
        { NULL, 0, NULL, 0 },
    };

    memset(so, 0, sizeof(*so));
    so->cap.interval_ns = 100000000;
    so->sink.metrics = true;
    /* argv[0]: "stream" or "record", as typed, in the messages. */
    return capcli_parse(argc, argv, CAPCLI_SHORTOPTS "o:fx:", longopts, argv[0], &so->cap,
                        stream_option, so, help_stream);
}

/* ---- output ------------------------------------------------------------------------------- */

struct output {
    FILE *f;
    const char *name;
    struct pp_sink *sink;
    struct table table;
    struct pp_cap_out out;
};

static int open_output(const struct stream_opts *so, struct output *o)
{
    const char *format = so->format;
    struct pp_sink_opts sopts = so->sink;
    char err[256];

    memset(o, 0, sizeof(*o));
    o->f = stdout;
    o->name = "stdout";
    if (so->output && strcmp(so->output, "-") != 0) {
        o->name = so->output;
        o->f = cli_create_output(so->output, so->force, "wb");   /* prints why */
        if (!o->f)
            return EXIT_OUTPUT;
    }
    if (!format && (so->sink.perf_x || so->sink.long_form))
        format = "csv";           /* -x and --long shape csv: they ask for it */
    if (!format)
        format = so->output ? (strcmp(so->output, "-") ? format_from_name(so->output) : "csv")
                            : "table";
    if (strcmp(format, "table") == 0) {
        o->table = (struct table){ .f = o->f, .metrics = so->metrics_set && so->sink.metrics,
                                   .name = o->name };
        o->out = (struct pp_cap_out){ .ctx = &o->table, .begin = table_begin,
                                      .write = table_write, .end = table_end,
                                      .bytes = table_bytes, .errmsg = table_errmsg };
        return EXIT_OK;
    }
    sopts.name = o->name;
    sopts.live = true;
    o->sink = pp_sink_new(format, o->f, &sopts, err, sizeof(err));
    if (!o->sink) {
        cli_error("--format: %s (or table)", err);
        return EXIT_USAGE;
    }
    o->out = capcli_sink_out(o->sink);
    return EXIT_OK;
}

/*
 * A full disk stops the output inside a record, and a reader chokes on the
 * partial last line (jq -s, a csv row with too few fields): a text file is
 * cut back to its last complete line.  bin needs no cut (convert reads up
 * to its last complete record); trace is one JSON document, whole or not.
 */
static void cut_partial_line(const char *path)
{
    char buf[4096];
    struct stat st;
    off_t end, keep = 0;
    int fd = open(path, O_RDWR);

    if (fd < 0)
        return;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        close(fd);
        return;
    }
    for (end = st.st_size; end > 0 && !keep; ) {
        size_t n = end > (off_t)sizeof(buf) ? sizeof(buf) : (size_t)end;

        if (pread(fd, buf, n, end - (off_t)n) != (ssize_t)n) {
            close(fd);           /* cannot tell where the last line ends */
            return;
        }
        end -= (off_t)n;
        for (size_t i = n; i > 0 && !keep; i--)
            if (buf[i - 1] == '\n')
                keep = end + (off_t)i;
    }
    if (keep < st.st_size && ftruncate(fd, keep) == 0)
        fprintf(stderr, "pmuprobe: %s cut back to its last complete line (%jd bytes)\n",
                path, (intmax_t)keep);
    close(fd);
}

/* 0, or EXIT_OUTPUT when closing showed a write error. */
static int close_output(struct output *o, bool failed)
{
    const char *format = o->sink ? pp_sink_format(o->sink) : "table";
    bool text = strcmp(format, "bin") != 0 && strcmp(format, "trace") != 0;
    int rc = EXIT_OK;

    pp_sink_free(o->sink);
    if (!o->f || o->f == stdout)
        return rc;
    if (!cli_close_output(o->f, o->name))
        rc = EXIT_OUTPUT;
    if (failed && text)
        cut_partial_line(o->name);
    return rc;
}

static int worse(int a, int b)
{
    return a > b ? a : b;
}

int cmd_stream(const struct cli_opts *o, int argc, char **argv)
{
    struct stream_opts so;
    struct session s;
    struct pp_cap *cap;
    struct output out;
    bool progress, failed = false;
    int worst, rc = parse_stream_opts(argc, argv, &so);

    if (rc != EXIT_OK)
        return rc < 0 ? EXIT_OK : rc;
    /* An existing file is refused before any core is touched; the file
     * itself is created (O_EXCL) only once the capture is set up, so a
     * failed setup leaves nothing behind. */
    if (!cli_output_ok(so.output, so.force))
        return EXIT_OUTPUT;
    rc = capcli_setup(o, &so.cap, &s, &cap, &worst);
    if (rc != EXIT_OK)
        return rc;
    rc = open_output(&so, &out);
    if (rc != EXIT_OK) {
        capcli_close(cap, &s);
        return rc;
    }
    /* The status line would tear a table on the same terminal. */
    progress = !so.cap.quiet && isatty(STDERR_FILENO) && !(out.f == stdout && isatty(STDOUT_FILENO));
    rc = capcli_run(cap, &out.out, progress);
    if (rc == EXIT_OK) {
        if (!so.cap.quiet)
            capcli_summary(cap, "stream", out.name);
        else
            capcli_report_failure(cap, out.name);
        rc = capcli_exit_code(cap);
        failed = pp_cap_summary(cap)->stop == PP_CAP_STOP_SINK;
    }
    rc = worse(rc, worse(worst, close_output(&out, failed)));
    capcli_close(cap, &s);
    return rc;
}

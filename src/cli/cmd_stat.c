/*
 * cmd_stat.c - `pmuprobe stat`: count events over a run and print totals
 * per core at the end, like `perf stat -a -A`, and per interval with -I,
 * like `perf stat -I`.  The same capture engine as `stream` samples the
 * counters underneath (the 32-bit ones must be read often enough to be
 * extended to 64 bits); this file only adds the counts up and prints.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "capture/sink.h"
#include "capture_cli.h"
#include "json.h"
#include "pmu/diag.h"

enum { OPT_NO_METRICS = 400 };

void help_stat(FILE *out)
{
    fprintf(out,
        "Usage: pmuprobe [OPTIONS] stat [-c CPUS] [-e [TYPE:]EVENTS]... [-d DURATION |\n"
        "                  -n COUNT] [-I TIME] [-x SEP | -j] [-o FILE [-f]] [...]\n"
        "Count events on each core and print the totals at the end, as perf stat -a -A\n"
        "does; with -I every TIME the counts of that interval, as\n"
        "perf stat -I.  The counters are sampled underneath (every -i, default 100ms,\n"
        "or every -I) so 32-bit counters are extended to 64 bits.\n");
    capcli_help_options(out, &(const struct capcli_help){ "100ms", true, false });
    fprintf(out,
        "  -I, --interval-print TIME  print the counts of each interval of TIME: a bare\n"
        "                         number is milliseconds as perf's -I (-I 1000), or\n"
        "                         with a unit as for -i (10ms, 2s, 5m), 1ms to 1h\n"
        "  -x, --field-separator SEP  CSV in perf stat -x order: [time,]cpu,value,unit,\n"
        "                         event,run time (ns),percent counted,metric,metric unit\n"
        "  -j, --json             one JSON object per line, as perf stat -j: \"interval\"\n"
        "                         (with -I), \"cpu\", \"counter-value\" (a string),\n"
        "                         \"unit\", \"event\", \"event-runtime\" (ns), \"pcnt-running\",\n"
        "                         then \"metric-value\" and \"metric-unit\" when there is one\n"
        "  -o, --output FILE      print to FILE instead of stdout\n"
        "  -f, --force            overwrite FILE if it exists (a symlink or hard link\n"
        "                         is replaced, not written through)\n"
        "      --no-metrics       no derived metrics (IPC, MPKI, miss %%)\n"
        "A core that could not be read for part of the run shows the count of the\n"
        "part it was read, with the share of the time (as perf shows multiplexing);\n"
        "one never read shows <not counted>.  Ctrl-C stops and prints the totals.\n"
        "A failed write (closed pipe, full disk) stops the count and says why.\n"
        "Exit status: 0 done, 1 a core was refused, failed or had gaps, 2 bad\n"
        "arguments, 3 the access path failed, 4 the output could not be written.\n");
}

struct stat_opts {
    struct capcli_opts cap;
    uint64_t print_ns;
    char sep;                    /* 0: human text or JSON */
    const char *output;
    bool json;                   /* perf stat -j lines */
    bool no_metrics, interval_given, force;
};

/* ---- adding up ----------------------------------------------------------------------- */

struct stat_core {
    uint64_t sum[PP_CAP_MAX_EVENTS];     /* this print interval's trusted deltas */
    uint64_t total[PP_CAP_MAX_EVENTS];   /* the run's */
    uint64_t samples, gaps;              /* the run's, baseline excluded */
    uint64_t iv_samples, iv_gaps;        /* this print interval's */
};

struct stat_out {
    FILE *f;
    const struct stat_opts *so;
    const struct pp_cap_meta *m;
    uint64_t per_print;                  /* samples per printed interval */
    uint64_t last_print_ns, last_ns, since_print;
    struct stat_core core[PP_CAP_MAX_CORES];
    bool header_done;
    uint64_t bytes, flushed;             /* handed to f; of them, flushed well */
    char msg[256];                       /* why the first write failed */
};

static void out_printf(struct stat_out *st, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void out_printf(struct stat_out *st, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    cli_vcount(st->f, &st->bytes, fmt, ap);
    va_end(ap);
}

/* 0 when everything so far reached the output. */
static int out_flush(struct stat_out *st)
{
    errno = 0;
    if (fflush(st->f) != 0 || ferror(st->f))
        return -1;
    st->flushed = st->bytes;
    return 0;
}

static double at_s(const struct stat_out *st, uint64_t t_ns)
{
    return (double)(t_ns - st->m->start_mono_ns) / 1e9;
}

/*
 * perf stat -j: one object per counter and line, keys as perf-stat(1)
 * "JSON FORMAT" names them; "counter-value" is a string there, so a
 * counter not read is "<not counted>" in the same place.
 */
static void print_json(struct stat_out *st, unsigned k, unsigned i, const uint64_t *vals,
                       bool counted, double pct, double t, uint64_t run_ns,
                       const struct pp_cap_metric *use, double x)
{
    const struct pp_cap_core *mc = &st->m->core[k];
    char *line = NULL;
    size_t len = 0;
    /* Built in memory, then written through out_printf, which counts the
     * bytes for the summary (json_write_escaped takes a FILE). */
    FILE *f = open_memstream(&line, &len);

    if (!f) {
        out_printf(st, "{\"error\" : \"out of memory\"}\n");
        return;
    }
    fputc('{', f);
    if (st->so->print_ns)
        fprintf(f, "\"interval\" : %.9f, ", t);
    fprintf(f, "\"cpu\" : \"%u\", \"counter-value\" : ", mc->cpu);
    if (counted)
        fprintf(f, "\"%" PRIu64 "\"", vals[i]);
    else
        fputs("\"<not counted>\"", f);
    fputs(", \"unit\" : \"\", \"event\" : ", f);
    json_write_escaped(f, mc->ev[i].name);
    fprintf(f, ", \"event-runtime\" : %" PRIu64 ", \"pcnt-running\" : %.2f",
            counted ? run_ns : 0, counted ? pct : 0.0);
    if (use) {
        fprintf(f, ", \"metric-value\" : %.6f, \"metric-unit\" : ", x);
        json_write_escaped(f, use->name);
    }
    fputs("}\n", f);
    if (fclose(f) == 0)
        out_printf(st, "%s", line);
    free(line);
}

/* One line: value and event, then a metric comment, perf-stat style. */
static void print_line(struct stat_out *st, unsigned k, unsigned i, const uint64_t *vals,
                       uint64_t samples, uint64_t gaps, double t, uint64_t run_ns)
{
    const struct pp_cap_core *mc = &st->m->core[k];
    double pct = samples + gaps ? 100.0 * (double)samples / (double)(samples + gaps) : 0.0;
    char num[32], *end, metric[64] = "", mval[32] = "";
    const struct pp_cap_metric *use = NULL;
    double x = 0;

    for (unsigned j = 0; j < mc->nmetrics && !st->so->no_metrics; j++) {
        struct pp_cap_val v[PP_CAP_MAX_EVENTS];

        if (mc->metric[j].num != i)
            continue;
        for (unsigned e = 0; e < mc->nev; e++)
            v[e] = (struct pp_cap_val){ .total = vals[e], .delta = vals[e] };
        if (pp_cap_metric_eval(&mc->metric[j], v, 0, &x)) {
            use = &mc->metric[j];
            break;
        }
    }
    if (st->so->json) {
        print_json(st, k, i, vals, samples != 0, pct, t, run_ns, samples ? use : NULL, x);
        return;
    }
    if (use) {
        snprintf(mval, sizeof(mval), "%.2f", x);
        snprintf(metric, sizeof(metric), "%s", use->name);
    }
    if (st->so->sep) {
        char s = st->so->sep;

        if (st->so->print_ns)
            out_printf(st, "%.9f%c", t, s);
        if (samples)
            out_printf(st, "CPU%u%c%" PRIu64 "%c%c%s%c%" PRIu64 "%c%.2f%c%s%c%s\n", mc->cpu, s,
                    vals[i], s, s, mc->ev[i].name, s, run_ns, s, pct, s, mval, s, metric);
        else
            out_printf(st, "CPU%u%c<not counted>%c%c%s%c0%c0.00%c%c\n", mc->cpu, s, s, s,
                    mc->ev[i].name, s, s, s, s);
        return;
    }
    if (st->so->print_ns)
        out_printf(st, "%16.9f ", t);
    if (!samples) {
        out_printf(st, "CPU%-4u %20s      %s\n", mc->cpu, "<not counted>", mc->ev[i].name);
        return;
    }
    end = pp_fmt_u64_grouped(num, vals[i]);
    *end = '\0';
    out_printf(st, "CPU%-4u %20s      %s", mc->cpu, num, mc->ev[i].name);
    if (use)
        out_printf(st, "%*s #  %8s  %s", (int)(strlen(mc->ev[i].name) < 28 ?
                28 - strlen(mc->ev[i].name) : 0), "", mval, metric);
    if (gaps)
        out_printf(st, "  (%.2f%%)", pct);
    out_printf(st, "\n");
}

static void print_interval(struct stat_out *st, uint64_t t_ns)
{
    if (!st->header_done && !st->so->sep && !st->so->json) {
        out_printf(st, "#           time CPU                    counts      events\n");
        st->header_done = true;
    }
    for (unsigned k = 0; k < st->m->ncores; k++) {
        struct stat_core *sc = &st->core[k];

        for (unsigned i = 0; i < st->m->core[k].nev; i++)
            print_line(st, k, i, sc->sum, sc->iv_samples, sc->iv_gaps, at_s(st, t_ns),
                       t_ns - st->last_print_ns);
        memset(sc->sum, 0, sizeof(sc->sum));
        sc->iv_samples = sc->iv_gaps = 0;
    }
    st->last_print_ns = t_ns;
    (void)out_flush(st);                  /* a failure shows in ferror: stat_write */
}

/* errno still holds why the output's last write failed (ENOSPC, EPIPE);
 * kept from the first failure, as stream does, for the summary. */
static int stat_failed(struct stat_out *st)
{
    if (!st->msg[0])
        snprintf(st->msg, sizeof(st->msg), "writing %s: %s",
                 st->so->output && strcmp(st->so->output, "-") ? st->so->output : "stdout",
                 strerror(errno ? errno : EIO));
    return PP_E_IO;
}

static void add_sample(struct stat_out *st, const struct pp_cap_sample *s)
{
    const struct pp_cap_cstat *cs = pp_cap_cstats_c(s);
    const struct pp_cap_val *v = pp_cap_vals_c(s);

    if (s->seq == 0)
        return;                   /* the baseline: nothing counted yet */
    for (unsigned k = 0; k < st->m->ncores; k++) {
        const struct pp_cap_core *mc = &st->m->core[k];
        struct stat_core *sc = &st->core[k];

        if (cs[k].status == PP_CAP_GAP) {
            sc->gaps++;
            sc->iv_gaps++;
            continue;
        }
        sc->samples++;
        sc->iv_samples++;
        for (unsigned i = 0; i < mc->nev; i++) {
            sc->sum[i] += v[mc->first + i].delta;
            sc->total[i] = v[mc->first + i].total;
        }
    }
}

static int stat_begin(void *ctx, const struct pp_cap_meta *m)
{
    struct stat_out *st = ctx;

    st->m = m;
    st->last_print_ns = m->start_mono_ns;
    /* Intervals go by the sampling grid (sample k is due at k * -i from
     * the start), not by when samples happened to arrive: a late sample
     * still closes its own interval. */
    st->per_print = m->interval_ns && st->so->print_ns > m->interval_ns
                    ? st->so->print_ns / m->interval_ns : 1;
    return PP_OK;
}

static int stat_write(void *ctx, const struct pp_cap_sample *s)
{
    struct stat_out *st = ctx;

    if (s->kind != PP_CAP_SAMPLE)
        return PP_OK;             /* drop policy is never set by stat */
    add_sample(st, s);
    st->last_ns = s->t_start_ns;
    if (s->seq == 0)
        st->last_print_ns = s->t_start_ns;   /* counting starts at the baseline */
    else
        st->since_print++;
    if (st->so->print_ns && s->seq > 0 && s->seq % st->per_print == 0) {
        print_interval(st, s->t_start_ns);
        st->since_print = 0;
    }
    return ferror(st->f) ? stat_failed(st) : PP_OK;
}

static void print_totals(struct stat_out *st, const struct pp_cap_summary *sum)
{
    const struct pp_cap_meta *m = st->m;

    if (!st->so->sep && !st->so->json)
        out_printf(st, "\n Performance counter stats for %u core%s of '%s' (%s):\n\n",
                m->ncores, m->ncores == 1 ? "" : "s", m->target, m->probe);
    for (unsigned k = 0; k < m->ncores; k++)
        for (unsigned i = 0; i < m->core[k].nev; i++)
            print_line(st, k, i, st->core[k].total, st->core[k].samples, st->core[k].gaps,
                       at_s(st, st->last_ns), sum ? sum->elapsed_ns : 0);
    if (!st->so->sep && !st->so->json && sum)
        out_printf(st, "\n%17.9f seconds time elapsed\n\n", (double)sum->elapsed_ns / 1e9);
}

static int stat_end(void *ctx, const struct pp_cap_summary *sum)
{
    struct stat_out *st = ctx;

    if (st->so->print_ns && st->since_print)
        print_interval(st, st->last_ns);      /* the last, partial interval */
    if (!st->so->print_ns)
        print_totals(st, sum);
    /* Flushed here, with SIGPIPE still ignored (capcli_run). */
    return out_flush(st) == 0 ? PP_OK : stat_failed(st);
}

/* What reached the output: once it failed, what its last flush took. */
static uint64_t stat_bytes(void *ctx)
{
    const struct stat_out *st = ctx;

    return st->msg[0] ? st->flushed : st->bytes;
}

static const char *stat_errmsg(void *ctx)
{
    const struct stat_out *st = ctx;

    return st->msg[0] ? st->msg : "writing the counts failed";
}

/* ---- options --------------------------------------------------------------------------------- */

/* -I takes what -i takes (a bare number is milliseconds, as perf's -I),
 * from the shortest interval a print makes sense for. */
static const struct cli_time print_every = { "--interval-print", 1000000, 3600000000000ull,
                                             true };

static int stat_option(int ch, const char *arg, void *ctx)
{
    struct stat_opts *so = ctx;

    switch (ch) {
    case 'i':
        so->interval_given = true;
        return 0;                       /* and the shared option takes it */
    case 'I':
        return cli_parse_time(&print_every, arg, &so->print_ns) ? 1 : -1;
    case 'x':
        if (strlen(arg) != 1) {
            cli_error("-x '%s': expected one separator character, e.g. -x ,", arg);
            return -1;
        }
        so->sep = arg[0];
        return 1;
    case 'j': so->json = true; return 1;
    case 'o': so->output = arg; return 1;
    case 'f': so->force = true; return 1;
    case OPT_NO_METRICS: so->no_metrics = true; return 1;
    default: return 0;
    }
}

static int parse_stat_opts(int argc, char **argv, struct stat_opts *so)
{
    static const struct option longopts[] = {
        CAPCLI_LONGOPTS,
        { "interval-print", required_argument, NULL, 'I' },
        { "field-separator", required_argument, NULL, 'x' },
        { "json", no_argument, NULL, 'j' },
        { "output", required_argument, NULL, 'o' }, { "force", no_argument, NULL, 'f' },
        { "no-metrics", no_argument, NULL, OPT_NO_METRICS },
        { NULL, 0, NULL, 0 },
    };
    int rc;

    memset(so, 0, sizeof(*so));
    so->cap.interval_ns = 100000000;
    /* One sample per printed interval unless asked otherwise: the default
     * is set before parsing and corrected after, so -i wins either way. */
    rc = capcli_parse(argc, argv, CAPCLI_SHORTOPTS "I:x:jo:f", longopts, "stat", &so->cap,
                      stat_option, so, help_stat);
    if (rc == EXIT_OK && so->json && so->sep) {
        cli_error("stat: -x and -j are two output formats; pick one");
        return EXIT_USAGE;
    }
    if (rc == EXIT_OK && so->print_ns && !so->interval_given) {
        so->cap.interval_ns = so->print_ns;
        rc = capcli_check(&so->cap, "stat");
    }
    return rc;
}

int cmd_stat(const struct cli_opts *o, int argc, char **argv)
{
    struct stat_opts so;
    struct session s;
    struct pp_cap *cap;
    struct stat_out *st;
    struct pp_cap_out out;
    int worst, rc = parse_stat_opts(argc, argv, &so);

    if (rc != EXIT_OK)
        return rc < 0 ? EXIT_OK : rc;
    if (!cli_output_ok(so.output, so.force))    /* before any core is touched */
        return EXIT_OUTPUT;
    rc = capcli_setup(o, &so.cap, &s, &cap, &worst);
    if (rc != EXIT_OK)
        return rc;
    st = calloc(1, sizeof(*st));
    if (!st) {
        capcli_close(cap, &s);
        return EXIT_PATH;
    }
    st->so = &so;
    st->f = cli_create_output(so.output, so.force, "w");   /* prints why */
    if (!st->f) {
        free(st);
        capcli_close(cap, &s);
        return EXIT_OUTPUT;
    }
    out = (struct pp_cap_out){ .ctx = st, .begin = stat_begin, .write = stat_write,
                               .end = stat_end, .bytes = stat_bytes, .errmsg = stat_errmsg };
    rc = capcli_run(cap, &out, !so.cap.quiet && isatty(STDERR_FILENO) && !isatty(STDOUT_FILENO));
    if (rc == EXIT_OK) {
        rc = capcli_exit_code(cap);
        /* perf stat prints no capture summary: say more only when it matters */
        if (!so.cap.quiet && rc != EXIT_OK)
            capcli_summary(cap, "stat", so.output ? so.output : "stdout");
        else if (rc != EXIT_OK)
            capcli_report_failure(cap, so.output ? so.output : "stdout");
    }
    if (st->f != stdout && !cli_close_output(st->f, so.output))
        rc = rc > EXIT_OUTPUT ? rc : EXIT_OUTPUT;
    if (worst > rc)
        rc = worst;
    free(st);
    capcli_close(cap, &s);
    return rc;
}

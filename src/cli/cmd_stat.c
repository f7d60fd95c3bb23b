/*
 * cmd_stat.c - `pmuprobe stat`: count events over a run and print totals
 * per core at the end, like `perf stat -a -A`, and per interval with -I,
 * like `perf stat -I`.  The same capture engine as `stream` samples the
 * counters underneath (the 32-bit ones must be read often enough to be
 * extended to 64 bits); this file only adds the counts up and prints.
 */
#include <ctype.h>
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

enum { OPT_NO_METRICS = 400, OPT_LAVA, OPT_OPENMETRICS };

void help_stat(FILE *out)
{
    fprintf(out,
        "Usage: pmuprobe [OPTIONS] stat [-c CPUS] [-e [TYPE:]EVENTS]... [-d DURATION |\n"
        "                  -n COUNT] [-I TIME] [-x SEP | -j | --lava | --openmetrics]\n"
        "                  [-o FILE [-f]] [...]\n"
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
        "      --lava             the totals as LAVA test cases, one line per core and\n"
        "                         event, then per metric: lava-test-case cpu0-cycles\n"
        "                         --result pass --measurement N --units events; the\n"
        "                         result is fail for a core with gaps (its measurement\n"
        "                         is the part read) or never read (no measurement)\n"
        "      --openmetrics      the totals as OpenMetrics text for node_exporter's\n"
        "                         textfile collector: pmuprobe_events_total{cpu,event}\n"
        "                         (counter), pmuprobe_metric{cpu,metric} (gauge),\n"
        "                         pmuprobe_counted_ratio{cpu} (gauge), then # EOF\n"
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
    bool lava, openmetrics;      /* lab harness formats of the totals */
    bool no_metrics, interval_given, force;
};

/* The perf-like text: headings and grouped numbers; every other format is
 * for a program to read. */
static bool human(const struct stat_opts *so)
{
    return !so->sep && !so->json && !so->lava && !so->openmetrics;
}

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
    if (!st->header_done && human(st->so)) {
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

/* ---- lab harness formats -------------------------------------------------------------- */

/* Metric j of core k over the run's totals; false when its denominator
 * counted nothing (no value to give). */
static bool metric_total(const struct stat_out *st, unsigned k, unsigned j, double *x)
{
    const struct pp_cap_core *mc = &st->m->core[k];
    struct pp_cap_val v[PP_CAP_MAX_EVENTS];

    for (unsigned e = 0; e < mc->nev; e++)
        v[e] = (struct pp_cap_val){ .total = st->core[k].total[e],
                                    .delta = st->core[k].total[e] };
    return pp_cap_metric_eval(&mc->metric[j], v, 0, x);
}

/* A LAVA test case name is one shell word of letters, digits, '.', '_'
 * and '-': "%" becomes "pct", any other character '_' ("branch miss %"
 * is branch_miss_pct, "cycles:u" cycles_u). */
static void lava_word(char *out, size_t len, const char *s)
{
    size_t n = 0;

    for (; *s && n + 4 < len; s++) {
        if (isalnum((unsigned char)*s) || strchr("._-", *s))
            out[n++] = *s;
        else if (*s == '%')
            n += (size_t)snprintf(out + n, len - n, "pct");
        else if (n && out[n - 1] != '_')
            out[n++] = '_';
    }
    while (n && out[n - 1] == '_')
        n--;
    out[n] = '\0';
}

/* The unit of a metric, from its scale (metrics.c): a plain ratio, a
 * percentage, or a count per thousand of its denominator event. */
static void metric_units(char *out, size_t len, const struct pp_cap_core *mc,
                         const struct pp_cap_metric *mt)
{
    char den[PP_CAP_NAME_LEN + 8];

    if (mt->scale == 100.0) {
        snprintf(out, len, "percent");
    } else if (mt->scale == 1000.0) {
        lava_word(den, sizeof(den), mc->ev[mt->den].name);
        snprintf(out, len, "per_1000_%s", den);
    } else {
        snprintf(out, len, "ratio");
    }
}

/*
 * LAVA's lava-test-case lines (a job's test shell runs them, or a harness
 * parses them): per core, one per event with the run's total, then one
 * per metric.  pass: the core was read the whole run.  fail: it had gaps
 * (the measurement is the part read, as the text shows it with its
 * percentage) or was never read (no measurement, and no metrics).
 */
static void print_lava(struct stat_out *st)
{
    for (unsigned k = 0; k < st->m->ncores; k++) {
        const struct pp_cap_core *mc = &st->m->core[k];
        const struct stat_core *sc = &st->core[k];
        const char *result = sc->samples && !sc->gaps ? "pass" : "fail";
        char name[PP_CAP_NAME_LEN * 2], units[PP_CAP_NAME_LEN + 32];

        for (unsigned i = 0; i < mc->nev; i++) {
            lava_word(name, sizeof(name), mc->ev[i].name);
            if (!sc->samples) {
                out_printf(st, "lava-test-case cpu%u-%s --result fail\n", mc->cpu, name);
                continue;
            }
            out_printf(st, "lava-test-case cpu%u-%s --result %s --measurement %" PRIu64
                       " --units events\n", mc->cpu, name, result, sc->total[i]);
        }
        for (unsigned j = 0; j < mc->nmetrics && !st->so->no_metrics && sc->samples; j++) {
            double x;

            if (!metric_total(st, k, j, &x))
                continue;
            lava_word(name, sizeof(name), mc->metric[j].name);
            metric_units(units, sizeof(units), mc, &mc->metric[j]);
            out_printf(st, "lava-test-case cpu%u-%s --result %s --measurement %.6f --units %s\n",
                       mc->cpu, name, result, x, units);
        }
    }
}

/* An OpenMetrics label value: backslash, double quote and line feed are
 * the three characters escaped (OpenMetrics 1.0, "Escaping"). */
static void om_label(struct stat_out *st, const char *s)
{
    out_printf(st, "\"");
    for (; *s; s++) {
        if (*s == '\\' || *s == '"')
            out_printf(st, "\\%c", *s);
        else if (*s == '\n')
            out_printf(st, "\\n");
        else
            out_printf(st, "%c", *s);
    }
    out_printf(st, "\"");
}

/*
 * OpenMetrics text exposition of the run's totals.  Each family's samples
 * are together after its HELP and TYPE lines, as the format requires; the
 * counter family pmuprobe_events has samples named pmuprobe_events_total.
 * A core never read has no event samples (a counter has no "not counted"),
 * and its pmuprobe_counted_ratio is 0.
 */
static void print_openmetrics(struct stat_out *st)
{
    const struct pp_cap_meta *m = st->m;

    out_printf(st, "# HELP pmuprobe_events Events counted on each core over the run.\n"
               "# TYPE pmuprobe_events counter\n");
    for (unsigned k = 0; k < m->ncores; k++)
        for (unsigned i = 0; i < m->core[k].nev && st->core[k].samples; i++) {
            out_printf(st, "pmuprobe_events_total{cpu=\"%u\",event=", m->core[k].cpu);
            om_label(st, m->core[k].ev[i].name);
            out_printf(st, "} %" PRIu64 "\n", st->core[k].total[i]);
        }
    if (!st->so->no_metrics) {
        out_printf(st, "# HELP pmuprobe_metric Derived metrics of each core's totals.\n"
                   "# TYPE pmuprobe_metric gauge\n");
        for (unsigned k = 0; k < m->ncores; k++)
            for (unsigned j = 0; j < m->core[k].nmetrics && st->core[k].samples; j++) {
                double x;

                if (!metric_total(st, k, j, &x))
                    continue;
                out_printf(st, "pmuprobe_metric{cpu=\"%u\",metric=", m->core[k].cpu);
                om_label(st, m->core[k].metric[j].name);
                out_printf(st, "} %.6f\n", x);
            }
    }
    out_printf(st, "# HELP pmuprobe_counted_ratio Share of the run each core was read.\n"
               "# TYPE pmuprobe_counted_ratio gauge\n");
    for (unsigned k = 0; k < m->ncores; k++) {
        const struct stat_core *sc = &st->core[k];
        uint64_t all = sc->samples + sc->gaps;

        out_printf(st, "pmuprobe_counted_ratio{cpu=\"%u\"} %.6f\n", m->core[k].cpu,
                   all ? (double)sc->samples / (double)all : 0.0);
    }
    out_printf(st, "# EOF\n");
}

static void print_totals(struct stat_out *st, const struct pp_cap_summary *sum)
{
    const struct pp_cap_meta *m = st->m;

    if (st->so->lava) {
        print_lava(st);
        return;
    }
    if (st->so->openmetrics) {
        print_openmetrics(st);
        return;
    }

    if (human(st->so))
        out_printf(st, "\n Performance counter stats for %u core%s of '%s' (%s):\n\n",
                m->ncores, m->ncores == 1 ? "" : "s", m->target, m->probe);
    for (unsigned k = 0; k < m->ncores; k++)
        for (unsigned i = 0; i < m->core[k].nev; i++)
            print_line(st, k, i, st->core[k].total, st->core[k].samples, st->core[k].gaps,
                       at_s(st, st->last_ns), sum ? sum->elapsed_ns : 0);
    if (human(st->so) && sum)
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
    case OPT_LAVA: so->lava = true; return 1;
    case OPT_OPENMETRICS: so->openmetrics = true; return 1;
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
        { "lava", no_argument, NULL, OPT_LAVA },
        { "openmetrics", no_argument, NULL, OPT_OPENMETRICS },
        { NULL, 0, NULL, 0 },
    };
    int rc;

    memset(so, 0, sizeof(*so));
    so->cap.interval_ns = 100000000;
    /* One sample per printed interval unless asked otherwise: the default
     * is set before parsing and corrected after, so -i wins either way. */
    rc = capcli_parse(argc, argv, CAPCLI_SHORTOPTS "I:x:jo:f", longopts, "stat", &so->cap,
                      stat_option, so, help_stat);
    if (rc == EXIT_OK && (so->sep != 0) + so->json + so->lava + so->openmetrics > 1) {
        cli_error("stat: -x, -j, --lava and --openmetrics are output formats; pick one");
        return EXIT_USAGE;
    }
    /* A LAVA test case or an OpenMetrics counter is one value per run: a
     * name may appear once in a job, and a textfile holds one exposition. */
    if (rc == EXIT_OK && (so->lava || so->openmetrics) && so->print_ns) {
        cli_error("stat: --%s reports the run's totals; drop -I",
                  so->lava ? "lava" : "openmetrics");
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

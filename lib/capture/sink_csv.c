/*
 * sink_csv.c - the "csv" sink, in three shapes:
 *
 *  wide (default): a header row, then one row per sample per core:
 *    time,end,seq,cpu,status,cause[,realtime],<ev>_total,<ev>_delta...,<metric>...
 *    Columns are the union of the cores' events (big.LITTLE cores may count
 *    different ones); a core leaves the others' cells empty.
 *  long (--long): one row per sample per core per event (and per metric):
 *    time,end,seq,cpu,status,cause[,realtime],event,total,delta[,metric]
 *  perf_x (-x SEP): `perf stat -I -A -x SEP` field order, no header:
 *    time,CPU<n>,value,unit,event,run-time,pct,metric-value,metric-unit
 *    (perfx_rows says how gaps, metrics and the baseline are written)
 *
 * Gaps: status "gap", cause its name, value cells empty.  DISCONT: status "discont", cause the reasons ("power+reset"),
 * the untrusted deltas empty.  DROP: a row with status "drop" and cause
 * "N samples dropped" (none in perf_x).
 *
 * Speed: a whole sample (all its rows) is built in one buffer with the
 * integer formatters of sink.c and handed over with one pp_sink_put.  A
 * printf per field would parse its format and consult the locale each
 * time, which costs more than the rest of the row together.
 */
#include <stdlib.h>
#include <string.h>

#include "capture/sink.h"
#include "pmu/diag.h"
#include "pmuprobe.h"

#define ROW_FIXED 384u           /* time, end, seq, cpu, status, cause, realtime */
#define CELL_MAX  48u            /* one number or one metric, with its separator */
#define NAME_Q    (2u * PP_CAP_NAME_LEN + 3u) /* a quoted name and a separator */

struct csv_state {
    char sep;
    unsigned ncol, nmcol;        /* event and metric columns (wide) */
    const char **colname;        /* [ncol + nmcol], into the meta */
    int *ev_at;                  /* [ncores * ncol]: event index of the column, -1 none */
    int *m_at;                   /* [ncores * nmcol]: metric index of the column, -1 none */
    char (*cpu)[16];             /* per core: "0" or "CPU0" (perf_x) */
    char (*evq)[NAME_Q];         /* per value: its name, quoted when it must be */
    char (*mq)[PP_CAP_MAX_METRICS][NAME_Q]; /* per core and metric */
    char *line;
    size_t cap;
    uint64_t prev_t, prev_seq;   /* perf_x run time: since the previous sample */
};

/* A text field, quoted (RFC 4180) when it holds the separator, a quote or
 * a line break; p needs 2 * strlen + 2 bytes. */
static char *put_field(char *p, const char *str, char sep)
{
    bool quote = strchr(str, sep) || strpbrk(str, "\"\r\n");

    if (!quote)
        return pp_fmt_str(p, str);
    *p++ = '"';
    for (; *str; str++) {
        if (*str == '"')
            *p++ = '"';
        *p++ = *str;
    }
    *p++ = '"';
    return p;
}

static int csv_init(struct pp_sink *s)
{
    s->priv = calloc(1, sizeof(struct csv_state));
    return s->priv ? PP_OK : PP_E_NOMEM;
}

static void csv_fini(struct pp_sink *s)
{
    struct csv_state *c = s->priv;

    free(c->colname);
    free(c->ev_at);
    free(c->m_at);
    free(c->cpu);
    free(c->evq);
    free(c->mq);
    free(c->line);
    free(c);
}

static int find_name(const char **names, unsigned from, unsigned n, const char *name)
{
    for (unsigned i = from; i < from + n; i++)
        if (strcmp(names[i], name) == 0)
            return (int)(i - from);
    return -1;
}

/* Union of the cores' event names then metric names, in first-seen order. */
static void build_columns(struct csv_state *c, const struct pp_cap_meta *m)
{
    for (unsigned k = 0; k < m->ncores; k++)
        for (unsigned i = 0; i < m->core[k].nev; i++)
            if (find_name(c->colname, 0, c->ncol, m->core[k].ev[i].name) < 0)
                c->colname[c->ncol++] = m->core[k].ev[i].name;
    for (unsigned k = 0; k < m->ncores; k++)
        for (unsigned j = 0; j < m->core[k].nmetrics; j++)
            if (find_name(c->colname, c->ncol, c->nmcol, m->core[k].metric[j].name) < 0)
                c->colname[c->ncol + c->nmcol++] = m->core[k].metric[j].name;
    for (unsigned k = 0; k < m->ncores; k++) {
        for (unsigned col = 0; col < c->ncol; col++)
            c->ev_at[k * c->ncol + col] = -1;
        for (unsigned col = 0; col < c->nmcol; col++)
            c->m_at[k * c->nmcol + col] = -1;
        for (unsigned i = 0; i < m->core[k].nev; i++)
            c->ev_at[k * c->ncol + find_name(c->colname, 0, c->ncol, m->core[k].ev[i].name)] =
                (int)i;
        for (unsigned j = 0; j < m->core[k].nmetrics; j++)
            c->m_at[k * c->nmcol +
                    find_name(c->colname, c->ncol, c->nmcol, m->core[k].metric[j].name)] = (int)j;
    }
}

static int alloc_state(struct csv_state *c, const struct pp_cap_meta *m)
{
    unsigned nmet = 0;
    size_t wide, lng;

    for (unsigned k = 0; k < m->ncores; k++)
        nmet += m->core[k].nmetrics;
    c->colname = calloc(m->nvals + nmet + 1, sizeof(*c->colname));
    c->ev_at = calloc((size_t)m->ncores * (m->nvals + 1), sizeof(int));
    c->m_at = calloc((size_t)m->ncores * (nmet + 1), sizeof(int));
    c->cpu = calloc(m->ncores, sizeof(*c->cpu));
    c->evq = calloc(m->nvals + 1, sizeof(*c->evq));
    c->mq = calloc(m->ncores, sizeof(*c->mq));
    /* Bounds: wide, a row per core with every column; long, a row per
     * value and per metric plus one per core for a gap. */
    wide = (size_t)m->ncores * (ROW_FIXED + (2u * m->nvals + nmet) * CELL_MAX);
    lng = (size_t)(m->nvals + nmet + m->ncores) * (ROW_FIXED + NAME_Q + 3u * CELL_MAX);
    c->cap = (wide > lng ? wide : lng) + ROW_FIXED;
    c->line = malloc(c->cap);
    if (!c->colname || !c->ev_at || !c->m_at || !c->cpu || !c->evq || !c->mq || !c->line)
        return PP_E_NOMEM;
    return PP_OK;
}

static void name_strings(struct pp_sink *s, struct csv_state *c, const struct pp_cap_meta *m)
{
    for (unsigned k = 0; k < m->ncores; k++) {
        const struct pp_cap_core *core = &m->core[k];

        snprintf(c->cpu[k], sizeof(c->cpu[k]), "%s%u", s->opts.perf_x ? "CPU" : "", core->cpu);
        for (unsigned i = 0; i < core->nev; i++)
            *put_field(c->evq[core->first + i], core->ev[i].name, c->sep) = '\0';
        for (unsigned j = 0; j < core->nmetrics; j++)
            *put_field(c->mq[k][j], core->metric[j].name, c->sep) = '\0';
    }
}

static int csv_header(struct pp_sink *s, struct csv_state *c, const struct pp_cap_meta *m)
{
    char *p = c->line, sep = c->sep;
    static const char *const fixed[] = { "time", "end", "seq", "cpu", "status", "cause" };

    if (s->opts.perf_x)
        return PP_OK;            /* perf stat -x prints no header */
    for (size_t i = 0; i < 6; i++) {
        p = pp_fmt_str(p, fixed[i]);
        *p++ = sep;
    }
    if (m->realtime) {
        p = pp_fmt_str(p, "realtime");
        *p++ = sep;
    }
    if (s->opts.long_form) {
        p = pp_fmt_str(p, "event");
        *p++ = sep;
        p = pp_fmt_str(p, "total");
        *p++ = sep;
        p = pp_fmt_str(p, "delta");
        if (s->opts.metrics) {
            *p++ = sep;
            p = pp_fmt_str(p, "metric");
        }
        *p++ = '\n';
        return pp_sink_put(s, c->line, (size_t)(p - c->line));
    }
    for (unsigned col = 0; col < c->ncol; col++) {
        char name[PP_CAP_NAME_LEN + 8];

        snprintf(name, sizeof(name), "%s_total", c->colname[col]);
        p = put_field(p, name, sep);
        *p++ = sep;
        snprintf(name, sizeof(name), "%s_delta", c->colname[col]);
        p = put_field(p, name, sep);
        *p++ = sep;
    }
    for (unsigned col = 0; s->opts.metrics && col < c->nmcol; col++) {
        p = put_field(p, c->colname[c->ncol + col], sep);
        *p++ = sep;
    }
    p[-1] = '\n';                /* the last separator ends the row */
    return pp_sink_put(s, c->line, (size_t)(p - c->line));
}

static int csv_begin(struct pp_sink *s, const struct pp_cap_meta *m)
{
    struct csv_state *c = s->priv;

    c->sep = s->opts.sep;
    if (alloc_state(c, m) != PP_OK) {
        snprintf(s->errmsg, sizeof(s->errmsg), "out of memory");
        return PP_E_NOMEM;
    }
    build_columns(c, m);
    name_strings(s, c, m);
    c->prev_t = m->start_mono_ns;
    return csv_header(s, c, m);
}

/* time,end,seq,  then (per row) cpu,status,cause, then realtime. */
struct row_prefix {
    char time[96];               /* "time,end,seq," */
    size_t tlen;
    char real[32];               /* "realtime," or "" */
    size_t rlen;
};

static void make_prefix(const struct pp_sink *s, const struct pp_cap_sample *smp,
                        struct row_prefix *rp)
{
    const struct pp_cap_meta *m = s->meta;
    char sep = s->opts.sep, *p = rp->time;

    p = pp_fmt_ns_as_s(p, pp_sink_rel_ns(m, smp->t_start_ns));
    *p++ = sep;
    if (!s->opts.perf_x) {
        p = pp_fmt_ns_as_s(p, pp_sink_rel_ns(m, smp->t_end_ns));
        *p++ = sep;
        p = pp_fmt_u64(p, smp->seq);
        *p++ = sep;
    }
    rp->tlen = (size_t)(p - rp->time);
    p = rp->real;
    if (m->realtime && !s->opts.perf_x) {
        p = pp_fmt_ns_as_s(p, smp->t_real_ns);
        *p++ = sep;
    }
    rp->rlen = (size_t)(p - rp->real);
}

/* cpu,status,cause, with the realtime cell. */
static char *row_start(char *p, const struct row_prefix *rp, const char *cpu,
                       const char *status, const char *cause, char sep)
{
    memcpy(p, rp->time, rp->tlen);
    p += rp->tlen;
    p = pp_fmt_str(p, cpu);
    *p++ = sep;
    p = pp_fmt_str(p, status);
    *p++ = sep;
    p = put_field(p, cause, sep);
    *p++ = sep;
    memcpy(p, rp->real, rp->rlen);
    return p + rp->rlen;
}

static const char *core_cause(const struct pp_cap_cstat *cs, char *buf, size_t n)
{
    if (cs->status == PP_CAP_GAP)
        return pp_cause_name(cs->cause);
    if (cs->status == PP_CAP_DISCONT)
        return pp_sink_why_names(cs->why, buf, n);
    return "";
}

static char *wide_row(const struct pp_sink *s, const struct csv_state *c, char *p,
                      const struct row_prefix *rp, unsigned k, const struct pp_cap_cstat *cs,
                      const struct pp_cap_val *v)
{
    const struct pp_cap_core *core = &s->meta->core[k];
    char sep = c->sep, why[96];

    p = row_start(p, rp, c->cpu[k], pp_sink_status_name(cs->status),
                  core_cause(cs, why, sizeof(why)), sep);
    for (unsigned col = 0; col < c->ncol; col++) {
        int i = c->ev_at[k * c->ncol + col];

        if (i >= 0 && cs->status != PP_CAP_GAP) {
            p = pp_fmt_u64(p, v[i].total);
            *p++ = sep;
            if (!(cs->discont >> i & 1u))
                p = pp_fmt_u64(p, v[i].delta);
            *p++ = sep;
        } else {
            *p++ = sep;
            *p++ = sep;
        }
    }
    for (unsigned col = 0; s->opts.metrics && col < c->nmcol; col++) {
        int j = c->m_at[k * c->nmcol + col];
        double val;

        if (j >= 0 && cs->status != PP_CAP_GAP &&
            pp_cap_metric_eval(&core->metric[j], v, cs->discont, &val))
            p = pp_fmt_double(p, val, 3);
        *p++ = sep;
    }
    p[-1] = '\n';
    return p;
}

static char *long_rows(const struct pp_sink *s, const struct csv_state *c, char *p,
                       const struct row_prefix *rp, unsigned k, const struct pp_cap_cstat *cs,
                       const struct pp_cap_val *v)
{
    const struct pp_cap_core *core = &s->meta->core[k];
    const char *status = pp_sink_status_name(cs->status);
    char sep = c->sep, why[96];
    const char *cause = core_cause(cs, why, sizeof(why));
    bool gap = cs->status == PP_CAP_GAP;

    for (unsigned i = 0; i < core->nev; i++) {
        p = row_start(p, rp, c->cpu[k], status, cause, sep);
        p = pp_fmt_str(p, c->evq[core->first + i]);
        *p++ = sep;
        if (!gap)
            p = pp_fmt_u64(p, v[i].total);
        *p++ = sep;
        if (!gap && !(cs->discont >> i & 1u))
            p = pp_fmt_u64(p, v[i].delta);
        if (s->opts.metrics)
            *p++ = sep;
        *p++ = '\n';
    }
    for (unsigned j = 0; s->opts.metrics && j < core->nmetrics; j++) {
        double val;

        p = row_start(p, rp, c->cpu[k], status, cause, sep);
        p = pp_fmt_str(p, c->mq[k][j]);
        *p++ = sep;
        *p++ = sep;
        *p++ = sep;
        if (!gap && pp_cap_metric_eval(&core->metric[j], v, cs->discont, &val))
            p = pp_fmt_double(p, val, 3);
        *p++ = '\n';
    }
    return p;
}

/* Rows after an event's own: its further metrics, perf-stat(1) "CSV
 * FORMAT": "Additional metrics may be printed with all earlier fields
 * being empty" (time and CPU kept, as perf keeps its -I -A prefix). */
static char *perfx_more_metrics(const struct csv_state *c, char *p, const struct row_prefix *rp,
                                unsigned k, const struct pp_cap_core *core, unsigned i,
                                unsigned first, const struct pp_cap_val *v, uint32_t discont)
{
    char sep = c->sep;

    for (unsigned j = first + 1; j < core->nmetrics; j++) {
        double val;

        if (core->metric[j].num != i || !pp_cap_metric_eval(&core->metric[j], v, discont, &val))
            continue;
        memcpy(p, rp->time, rp->tlen);
        p += rp->tlen;
        p = pp_fmt_str(p, c->cpu[k]);
        for (unsigned f = 0; f < 6; f++)
            *p++ = sep;
        p = pp_fmt_double(p, val, 2);
        *p++ = sep;
        p = pp_fmt_str(p, c->mq[k][j]);
        *p++ = '\n';
    }
    return p;
}

/*
 * perf-stat(1) "CSV FORMAT" with -I and -A: time, CPU<n>, counter value,
 * unit, event, run time, percentage running, metric value, metric unit.
 * An event's first metric (the one it is the numerator of, as perf puts
 * IPC on instructions) ends its row; a counter that was not read for the
 * interval (gap, untrusted delta) is perf's "<not counted>" with run time
 * 0 and 0.00 percent, and the reason stays in the other formats.
 */
static char *perfx_rows(const struct pp_sink *s, const struct csv_state *c, char *p,
                        const struct row_prefix *rp, unsigned k, const struct pp_cap_cstat *cs,
                        const struct pp_cap_val *v, uint64_t runtime)
{
    const struct pp_cap_core *core = &s->meta->core[k];
    char sep = c->sep;

    for (unsigned i = 0; i < core->nev; i++) {
        bool counted = cs->status != PP_CAP_GAP && !(cs->discont >> i & 1u);
        unsigned j = core->nmetrics;
        double val = 0;

        for (unsigned m = 0; counted && s->opts.metrics && m < core->nmetrics; m++)
            if (core->metric[m].num == i &&
                pp_cap_metric_eval(&core->metric[m], v, cs->discont, &val)) {
                j = m;
                break;
            }
        memcpy(p, rp->time, rp->tlen);
        p += rp->tlen;
        p = pp_fmt_str(p, c->cpu[k]);
        *p++ = sep;
        p = counted ? pp_fmt_u64(p, v[i].delta) : pp_fmt_str(p, "<not counted>");
        *p++ = sep;
        *p++ = sep;              /* unit: none for counts */
        p = pp_fmt_str(p, c->evq[core->first + i]);
        *p++ = sep;
        p = pp_fmt_u64(p, counted ? runtime : 0);
        *p++ = sep;
        p = pp_fmt_str(p, counted ? "100.00" : "0.00");
        *p++ = sep;
        if (j < core->nmetrics) {
            p = pp_fmt_double(p, val, 2);
            *p++ = sep;
            p = pp_fmt_str(p, c->mq[k][j]);
        } else {
            *p++ = sep;
        }
        *p++ = '\n';
        if (j < core->nmetrics)
            p = perfx_more_metrics(c, p, rp, k, core, i, j, v, cs->discont);
    }
    return p;
}

static int csv_drop(struct pp_sink *s, struct csv_state *c, const struct pp_cap_sample *smp,
                    const struct row_prefix *rp)
{
    char msg[64], *p = c->line, sep = c->sep;
    unsigned cells = s->opts.long_form ? 3u + s->opts.metrics
                                       : 2u * c->ncol + (s->opts.metrics ? c->nmcol : 0u);

    snprintf(msg, sizeof(msg), "%u samples dropped", smp->dropped);
    p = row_start(p, rp, "", "drop", msg, sep);
    for (unsigned f = 1; f < cells; f++)
        *p++ = sep;
    if (!cells)
        p--;                     /* row_start's last separator ends the row */
    *p++ = '\n';
    return pp_sink_put(s, c->line, (size_t)(p - c->line));
}

/*
 * perf stat -I prints an interval when it ends: the baseline read (seq 0)
 * opens the first interval and prints nothing, as `stat` does.  A DROP
 * record has neither time nor counts and perf's format has no row for
 * lost intervals, so they are left out (the summary counts them).  Run
 * time is the sample's own interval: after lost samples, whose reads
 * still moved the baseline, the requested interval.
 */
static int perfx_write(struct pp_sink *s, struct csv_state *c, const struct pp_cap_sample *smp)
{
    const struct pp_cap_cstat *cs = pp_cap_cstats_c(smp);
    const struct pp_cap_val *v = pp_cap_vals_c(smp);
    struct row_prefix rp;
    char *p = c->line;
    bool next = smp->seq == c->prev_seq + 1 || !s->meta->interval_ns;
    uint64_t runtime;

    if (smp->kind == PP_CAP_DROP)
        return PP_OK;
    runtime = !next ? s->meta->interval_ns
                    : smp->t_start_ns > c->prev_t ? smp->t_start_ns - c->prev_t : 0;
    c->prev_t = smp->t_start_ns;
    c->prev_seq = smp->seq;
    if (smp->seq == 0)
        return PP_OK;
    make_prefix(s, smp, &rp);
    for (unsigned k = 0; k < s->meta->ncores; k++)
        p = perfx_rows(s, c, p, &rp, k, &cs[k], v + s->meta->core[k].first, runtime);
    return pp_sink_put(s, c->line, (size_t)(p - c->line));
}

static int csv_write(struct pp_sink *s, const struct pp_cap_sample *smp)
{
    struct csv_state *c = s->priv;
    const struct pp_cap_cstat *cs = pp_cap_cstats_c(smp);
    const struct pp_cap_val *v = pp_cap_vals_c(smp);
    struct row_prefix rp;
    char *p = c->line;

    if (s->opts.perf_x)
        return perfx_write(s, c, smp);
    make_prefix(s, smp, &rp);
    if (smp->kind == PP_CAP_DROP)
        return csv_drop(s, c, smp, &rp);
    for (unsigned k = 0; k < s->meta->ncores; k++) {
        const struct pp_cap_val *cv = v + s->meta->core[k].first;

        if (s->opts.long_form)
            p = long_rows(s, c, p, &rp, k, &cs[k], cv);
        else
            p = wide_row(s, c, p, &rp, k, &cs[k], cv);
    }
    return pp_sink_put(s, c->line, (size_t)(p - c->line));
}

static int csv_end(struct pp_sink *s, const struct pp_cap_summary *sum)
{
    (void)s;
    (void)sum;                   /* csv has no trailer: the rows are the record */
    return PP_OK;
}

const struct pp_sink_ops pp_sink_csv_ops = {
    .name = "csv",
    .init = csv_init,
    .begin = csv_begin,
    .write = csv_write,
    .end = csv_end,
    .fini = csv_fini,
};

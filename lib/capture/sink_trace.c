/*
 * sink_trace.c - the "trace" sink: Chrome trace-event JSON in its object
 * form, {"traceEvents":[...], "displayTimeUnit":"ns", "otherData":{...}},
 * which the Perfetto UI and chrome://tracing open.
 *
 * Each core is a process (pid = its index + 1, named "cpu2 cortex-a76")
 * with one thread "PMU".  Counter events ("ph":"C") are process-scoped
 * and keyed by name, so each core gets one counter track per event,
 * carrying the event's rate (per second) over an interval, and one per
 * metric.  A viewer holds a counter's value from its ts until the track's
 * next event, so each value is stamped at the START of the interval it
 * covers (the core's previous read), and an interval without a trusted
 * value (a gap, an untrusted delta, samples dropped, the time after the
 * last sample) starts with the value "NaN": the format has no null value,
 * and its readers take a string value as a number (Perfetto's importer
 * parses it with strtod), so "NaN" reads as not-a-number instead of the
 * previous value held on.  Gaps are complete events ("ph":"X") on the
 * core's thread spanning the gap with its cause; a DISCONT sample is an
 * instant event ("ph":"i") naming the reasons; a DROP record is a global
 * instant event.  ts and dur are in microseconds (the format's unit),
 * with ns decimals.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "capture/sink.h"
#include "pmu/diag.h"
#include "pmuprobe.h"

#define JNAME (6u * PP_CAP_NAME_LEN + 2u)

struct trace_gap {
    bool open;
    uint8_t cause;
    uint64_t start_ns, end_ns;   /* first gap sample's start, last one's end */
    uint64_t samples;
};

/* Where the next value of a core's tracks starts. */
struct trace_core {
    uint64_t prev_ns;            /* the core's latest read (relative) */
    bool prev_ok;                /* prev_ns starts the next interval (no gap or drop since) */
    uint64_t shown;              /* tracks now holding a number: bit i event i,
                                  * bit PP_CAP_MAX_EVENTS + j metric j */
};

struct trace_state {
    char (*evj)[JNAME];          /* per value: escaped event name */
    char (*mj)[PP_CAP_MAX_METRICS][JNAME];
    struct trace_gap *gap;       /* per core */
    struct trace_core *core;     /* per core */
    char *line;
    size_t cap;
};

static int trace_init(struct pp_sink *s)
{
    s->priv = calloc(1, sizeof(struct trace_state));
    return s->priv ? PP_OK : PP_E_NOMEM;
}

static void trace_fini(struct pp_sink *s)
{
    struct trace_state *t = s->priv;

    free(t->evj);
    free(t->mj);
    free(t->gap);
    free(t->core);
    free(t->line);
    free(t);
}

/* ,\n{"ph":"<ph>","pid":<pid>,"tid":<tid>,"ts":<ts> : the start of every
 * event after the first. */
static char *event_head(char *p, char ph, unsigned pid, unsigned tid, uint64_t rel_ns)
{
    p = pp_fmt_str(p, ",\n{\"ph\":\"");
    *p++ = ph;
    p = pp_fmt_u64(pp_fmt_str(p, "\",\"pid\":"), pid);
    p = pp_fmt_u64(pp_fmt_str(p, ",\"tid\":"), tid);
    return pp_fmt_ns_as_us(pp_fmt_str(p, ",\"ts\":"), rel_ns);
}

static char *meta_event(char *p, bool first, unsigned pid, unsigned tid, const char *what,
                        const char *key, const char *name, unsigned sort)
{
    p = pp_fmt_str(p, first ? "{\"ph\":\"M\",\"pid\":" : ",\n{\"ph\":\"M\",\"pid\":");
    p = pp_fmt_u64(p, pid);
    p = pp_fmt_u64(pp_fmt_str(p, ",\"tid\":"), tid);
    p = pp_fmt_str(pp_fmt_str(p, ",\"name\":\""), what);
    p = pp_fmt_str(pp_fmt_str(p, "\",\"args\":{\""), key);
    p = pp_fmt_str(p, "\":");
    p = name ? pp_fmt_json_str(p, name) : pp_fmt_u64(p, sort);
    return pp_fmt_str(p, "}}");
}

static int trace_alloc(struct trace_state *t, const struct pp_cap_meta *m)
{
    t->evj = calloc(m->nvals + 1, sizeof(*t->evj));
    t->mj = calloc(m->ncores, sizeof(*t->mj));
    t->gap = calloc(m->ncores, sizeof(*t->gap));
    t->core = calloc(m->ncores, sizeof(*t->core));
    /* Per core: metadata or a gap and a discont marker, its metrics; per
     * value a counter event; and the summary's otherData. */
    t->cap = 4096u + m->ncores * (1024u + PP_CAP_MAX_METRICS * (JNAME + 128u)) +
             m->nvals * (JNAME + 128u);
    t->line = malloc(t->cap);
    return t->evj && t->mj && t->gap && t->core && t->line ? PP_OK : PP_E_NOMEM;
}

static int trace_begin(struct pp_sink *s, const struct pp_cap_meta *m)
{
    struct trace_state *t = s->priv;
    char name[160], *p;

    if (trace_alloc(t, m) != PP_OK) {
        snprintf(s->errmsg, sizeof(s->errmsg), "out of memory");
        return PP_E_NOMEM;
    }
    for (unsigned k = 0; k < m->ncores; k++) {
        t->core[k].prev_ok = true;   /* the first deltas count from the start */
        for (unsigned i = 0; i < m->core[k].nev; i++)
            *pp_fmt_json_str(t->evj[m->core[k].first + i], m->core[k].ev[i].name) = '\0';
        for (unsigned i = 0; i < m->core[k].nmetrics; i++)
            *pp_fmt_json_str(t->mj[k][i], m->core[k].metric[i].name) = '\0';
    }
    p = pp_fmt_str(t->line, "{\"traceEvents\":[\n");
    snprintf(name, sizeof(name), "pmuprobe: %s via %s", m->target, m->probe);
    p = meta_event(p, true, 0, 0, "process_name", "name", name, 0);
    for (unsigned k = 0; k < m->ncores; k++) {
        snprintf(name, sizeof(name), "cpu%u %s", m->core[k].cpu, m->core[k].type);
        p = meta_event(p, false, k + 1, 1, "process_name", "name", name, 0);
        p = meta_event(p, false, k + 1, 1, "process_sort_index", "sort_index", NULL, k + 1);
        p = meta_event(p, false, k + 1, 1, "thread_name", "name", "PMU", 0);
        /* The write path may need the line for a whole sample; flush
         * the metadata core by core to stay within it. */
        if (pp_sink_put(s, t->line, (size_t)(p - t->line)) != PP_OK)
            return PP_E_IO;
        p = t->line;
    }
    return pp_sink_put(s, t->line, (size_t)(p - t->line));
}

static char *close_gap(char *p, struct trace_gap *g, unsigned pid, uint64_t until_ns)
{
    const char *cause = pp_cause_name(g->cause);

    p = event_head(p, 'X', pid, 1, g->start_ns);
    p = pp_fmt_ns_as_us(pp_fmt_str(p, ",\"dur\":"), until_ns > g->start_ns ? until_ns - g->start_ns : 0);
    p = pp_fmt_str(pp_fmt_str(p, ",\"cat\":\"gap\",\"name\":\"gap: "), cause);
    p = pp_fmt_str(pp_fmt_str(p, "\",\"args\":{\"cause\":\""), cause);
    p = pp_fmt_u64(pp_fmt_str(p, "\",\"samples\":"), g->samples);
    g->open = false;
    return pp_fmt_str(p, "}}");
}

static char *gap_sample(char *p, struct trace_gap *g, unsigned pid, uint8_t cause,
                        uint64_t t0, uint64_t t1)
{
    if (g->open && g->cause != cause)
        p = close_gap(p, g, pid, t0);
    if (!g->open) {
        g->open = true;
        g->cause = cause;
        g->start_ns = t0;
        g->samples = 0;
    }
    g->samples++;
    g->end_ns = t1;
    return p;
}

static char *discont_marker(char *p, unsigned pid, uint64_t ts, unsigned why)
{
    char names[96];

    pp_sink_why_names(why, names, sizeof(names));
    p = event_head(p, 'i', pid, 1, ts);
    p = pp_fmt_str(pp_fmt_str(p, ",\"s\":\"t\",\"cat\":\"discont\",\"name\":\"discont: "), names);
    p = pp_fmt_str(pp_fmt_str(p, "\",\"args\":{\"why\":\""), names);
    return pp_fmt_str(p, "\"}}");
}

/* One counter track: bit in trace_core.shown, core k, its JSON name, and
 * the args key ("rate" or "value"). */
struct track {
    unsigned k, bit;
    const char *jname, *key;
};

/* A counter event of the track at ts: *v with decimals digits, or "NaN"
 * (no value) when v is NULL. */
static char *counter(char *p, struct trace_core *tc, const struct track *t, uint64_t ts,
                     const double *v, unsigned decimals)
{
    p = event_head(p, 'C', t->k + 1, 1, ts);
    p = pp_fmt_str(pp_fmt_str(p, ",\"name\":"), t->jname);
    p = pp_fmt_str(pp_fmt_str(pp_fmt_str(p, ",\"args\":{\""), t->key), "\":");
    p = v ? pp_fmt_double(p, *v, decimals) : pp_fmt_str(p, "\"NaN\"");
    if (v)
        tc->shown |= 1ull << t->bit;
    else
        tc->shown &= ~(1ull << t->bit);
    return pp_fmt_str(p, "}}");
}

/* Ends, at the core's latest read, every track of core k that holds a
 * number: from there on nothing is known until the next trusted value. */
static char *end_values(const struct pp_sink *s, struct trace_state *t, char *p, unsigned k)
{
    const struct pp_cap_core *c = &s->meta->core[k];
    struct trace_core *tc = &t->core[k];

    for (unsigned i = 0; i < c->nev; i++)
        if (tc->shown >> i & 1u)
            p = counter(p, tc, &(struct track){ k, i, t->evj[c->first + i], "rate" }, tc->prev_ns,
                        NULL, 0);
    for (unsigned j = 0; j < c->nmetrics; j++)
        if (tc->shown >> (PP_CAP_MAX_EVENTS + j) & 1u)
            p = counter(p, tc, &(struct track){ k, PP_CAP_MAX_EVENTS + j, t->mj[k][j], "value" },
                        tc->prev_ns, NULL, 0);
    return p;
}

/* The values of a read of core k at t1 over [prev_ns, t1], stamped at
 * prev_ns; an untrusted one (or all, when the interval's start is not
 * known) is "NaN" where its track held a number. */
static char *core_values(const struct pp_sink *s, struct trace_state *t, char *p, unsigned k,
                         const struct pp_cap_cstat *cs, const struct pp_cap_val *v, uint64_t t1)
{
    const struct pp_cap_core *c = &s->meta->core[k];
    struct trace_core *tc = &t->core[k];
    const bool timed = tc->prev_ok && t1 > tc->prev_ns;
    const uint64_t ts = tc->prev_ns;

    for (unsigned i = 0; i < c->nev; i++) {
        const bool have = timed && !(cs->discont >> i & 1u);
        const double rate = have ? (double)v[i].delta * 1e9 / (double)(t1 - ts) : 0;

        if (have || tc->shown >> i & 1u)
            p = counter(p, tc, &(struct track){ k, i, t->evj[c->first + i], "rate" }, ts,
                        have ? &rate : NULL, 3);
    }
    for (unsigned j = 0; s->opts.metrics && j < c->nmetrics; j++) {
        const unsigned bit = PP_CAP_MAX_EVENTS + j;
        double val = 0;
        const bool have = timed && pp_cap_metric_eval(&c->metric[j], v, cs->discont, &val);

        if (have || tc->shown >> bit & 1u)
            p = counter(p, tc, &(struct track){ k, bit, t->mj[k][j], "value" }, ts,
                        have ? &val : NULL, 6);
    }
    tc->prev_ns = t1;
    tc->prev_ok = true;
    return p;
}

static char *core_events(const struct pp_sink *s, struct trace_state *t, char *p, unsigned k,
                         const struct pp_cap_cstat *cs, const struct pp_cap_val *v,
                         const struct pp_cap_sample *smp)
{
    uint64_t t0 = pp_sink_rel_ns(s->meta, smp->t_start_ns);

    if (cs->status == PP_CAP_GAP) {
        if (t->core[k].prev_ok)
            p = end_values(s, t, p, k);
        t->core[k].prev_ok = false;
        return gap_sample(p, &t->gap[k], k + 1, cs->cause, t0,
                          pp_sink_rel_ns(s->meta, smp->t_end_ns));
    }
    if (t->gap[k].open)
        p = close_gap(p, &t->gap[k], k + 1, t0);
    if (cs->status == PP_CAP_DISCONT)
        p = discont_marker(p, k + 1, t0, cs->why);
    return core_values(s, t, p, k, cs, v, t0);
}

static int trace_write(struct pp_sink *s, const struct pp_cap_sample *smp)
{
    struct trace_state *t = s->priv;
    const struct pp_cap_cstat *cs = pp_cap_cstats_c(smp);
    const struct pp_cap_val *v = pp_cap_vals_c(smp);
    char *p = t->line;

    if (smp->kind == PP_CAP_DROP) {
        /* The dropped samples were read: the next deltas count from an
         * unknown time, so every track has no value from its last read. */
        for (unsigned k = 0; k < s->meta->ncores; k++) {
            if (t->core[k].prev_ok)
                p = end_values(s, t, p, k);
            t->core[k].prev_ok = false;
        }
        p = event_head(p, 'i', 0, 0, pp_sink_rel_ns(s->meta, smp->t_start_ns));
        p = pp_fmt_u64(pp_fmt_str(p, ",\"s\":\"g\",\"cat\":\"drop\",\"name\":\""), smp->dropped);
        p = pp_fmt_u64(pp_fmt_str(p, " samples dropped\",\"args\":{\"seq\":"), smp->seq);
        p = pp_fmt_u64(pp_fmt_str(p, ",\"dropped\":"), smp->dropped);
        p = pp_fmt_str(p, "}}");
        return pp_sink_put(s, t->line, (size_t)(p - t->line));
    }
    for (unsigned k = 0; k < s->meta->ncores; k++)
        p = core_events(s, t, p, k, &cs[k], v + s->meta->core[k].first, smp);
    return pp_sink_put(s, t->line, (size_t)(p - t->line));
}

static char *kv_u64(char *p, const char *k, uint64_t v)
{
    return pp_fmt_u64(pp_fmt_str(p, k), v);
}

static char *other_data(const struct pp_sink *s, const struct pp_cap_summary *sum, char *p)
{
    const struct pp_cap_meta *m = s->meta;

    p = pp_fmt_json_str(pp_fmt_str(p, "\"otherData\":{\"generator\":\"pmuprobe\",\"target\":"),
                        m->target);
    p = pp_fmt_json_str(pp_fmt_str(p, ",\"probe\":"), m->probe);
    p = m->tck_hz ? kv_u64(p, ",\"tck_hz\":", m->tck_hz) : pp_fmt_str(p, ",\"tck_hz\":null");
    p = kv_u64(p, ",\"interval_ns\":", m->interval_ns);
    p = kv_u64(p, ",\"start_real_ns\":", m->start_real_ns);
    if (!sum)
        return pp_fmt_str(p, ",\"stop\":\"unknown\"}");
    p = pp_fmt_str(pp_fmt_str(p, ",\"stop\":\""), pp_sink_stop_name(sum->stop));
    p = pp_fmt_json_str(pp_fmt_str(p, "\",\"stop_msg\":"), sum->stop_msg);
    p = kv_u64(p, ",\"samples\":", sum->samples);
    p = kv_u64(p, ",\"late\":", sum->late);
    p = kv_u64(p, ",\"dropped\":", sum->dropped);
    p = pp_fmt_str(p, ",\"achieved_hz\":");
    p = isfinite(sum->achieved_hz) ? pp_fmt_double(p, sum->achieved_hz, 3) : pp_fmt_str(p, "null");
    p = kv_u64(p, ",\"jitter_p99_ns\":", sum->jitter_p99_ns);
    p = kv_u64(p, ",\"elapsed_ns\":", sum->elapsed_ns);
    return pp_fmt_str(p, "}");
}

static int trace_end(struct pp_sink *s, const struct pp_cap_summary *sum)
{
    struct trace_state *t = s->priv;
    char *p = t->line;

    for (unsigned k = 0; k < s->meta->ncores; k++) {
        if (t->gap[k].open)
            p = close_gap(p, &t->gap[k], k + 1, t->gap[k].end_ns);
        else
            p = end_values(s, t, p, k);   /* nothing is known after the last read */
    }
    p = pp_fmt_str(p, "\n],\n\"displayTimeUnit\":\"ns\",\n");
    p = other_data(s, sum, p);
    p = pp_fmt_str(p, "}\n");
    return pp_sink_put(s, t->line, (size_t)(p - t->line));
}

const struct pp_sink_ops pp_sink_trace_ops = {
    .name = "trace",
    .init = trace_init,
    .begin = trace_begin,
    .write = trace_write,
    .end = trace_end,
    .fini = trace_fini,
};

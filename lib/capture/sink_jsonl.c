/*
 * sink_jsonl.c - the "jsonl" sink: one JSON object per line.
 *
 *   {"type":"meta", ...}                  first: target, probe, cores, events
 *   {"type":"sample","seq":..,"t_ns":..,"cores":[{"cpu":0,"status":"ok",
 *     "events":[{"name":"cycles","total":..,"delta":..}],"metrics":[..]}]}
 *   {"type":"drop","seq":..,"dropped":3,"message":"3 samples dropped"}
 *   {"type":"summary", ...}               last
 *
 * A GAP core is {"cpu":1,"status":"gap","cause":"core-off"} (no values);
 * a DISCONT core lists "why" and gives "delta":null for untrusted deltas.
 * Times are integers in ns: t_ns and t_end_ns from the capture's start,
 * t_real_ns (with --realtime) since the epoch.  Names are escaped once at
 * begin; a sample is built in one buffer and written with one call.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "capture/sink.h"
#include "pmu/diag.h"
#include "pmuprobe.h"

#define JNAME (6u * PP_CAP_NAME_LEN + 2u)   /* an escaped name, worst case */

struct jsonl_state {
    char (*evj)[JNAME];          /* per value: escaped event name */
    char (*mj)[PP_CAP_MAX_METRICS][JNAME];
    char *line;
    size_t cap;
};

static int jsonl_init(struct pp_sink *s)
{
    s->priv = calloc(1, sizeof(struct jsonl_state));
    return s->priv ? PP_OK : PP_E_NOMEM;
}

static void jsonl_fini(struct pp_sink *s)
{
    struct jsonl_state *j = s->priv;

    free(j->evj);
    free(j->mj);
    free(j->line);
    free(j);
}

static char *key(char *p, const char *k)
{
    p = pp_fmt_str(p, k);        /* keys are ours: nothing to escape */
    return p;
}

static char *num_field(char *p, const char *k, uint64_t v)
{
    return pp_fmt_u64(key(p, k), v);
}

/* A JSON number, or null: JSON has no nan or inf. */
static char *json_double(char *p, double v, unsigned decimals)
{
    if (!isfinite(v))
        return pp_fmt_str(p, "null");
    return pp_fmt_double(p, v, decimals);
}

static char *meta_core(char *p, const struct pp_cap_core *c)
{
    p = num_field(p, "{\"cpu\":", c->cpu);
    p = pp_fmt_json_str(key(p, ",\"type\":"), c->type);
    p = key(p, ",\"events\":[");
    for (unsigned i = 0; i < c->nev; i++) {
        p = pp_fmt_json_str(key(p, i ? ",{\"name\":" : "{\"name\":"), c->ev[i].name);
        p = pp_fmt_json_str(key(p, ",\"mnemonic\":"), c->ev[i].mnemonic);
        p = num_field(p, ",\"code\":", c->ev[i].code);
        p = num_field(p, ",\"counter\":", c->ev[i].counter);
        *p++ = '}';
    }
    p = key(p, "],\"metrics\":[");
    for (unsigned i = 0; i < c->nmetrics; i++) {
        p = pp_fmt_json_str(key(p, i ? ",{\"name\":" : "{\"name\":"), c->metric[i].name);
        p = pp_fmt_json_str(key(p, ",\"num\":"), c->ev[c->metric[i].num].name);
        p = pp_fmt_json_str(key(p, ",\"den\":"), c->ev[c->metric[i].den].name);
        p = json_double(key(p, ",\"scale\":"), c->metric[i].scale, 3);
        *p++ = '}';
    }
    return key(p, "]}");
}

static int jsonl_alloc(struct jsonl_state *j, const struct pp_cap_meta *m)
{
    size_t per_core = 256u + PP_CAP_MAX_METRICS * (JNAME + 64u), meta, sample, summary;

    j->evj = calloc(m->nvals + 1, sizeof(*j->evj));
    j->mj = calloc(m->ncores, sizeof(*j->mj));
    /* Meta: every name escaped (three per metric); sample: every value. */
    meta = 1088u + m->ncores * (per_core + 3u * PP_CAP_MAX_METRICS * JNAME) +
           m->nvals * (2u * JNAME + 64u);
    sample = 512u + m->ncores * per_core + m->nvals * (JNAME + 96u);
    summary = 2048u + 6u * sizeof(((struct pp_cap_summary *)0)->stop_msg) +
              m->ncores * PP_CAP_NCAUSES * 96u;
    j->cap = meta > sample ? meta : sample;
    if (summary > j->cap)
        j->cap = summary;
    j->line = malloc(j->cap);
    return j->evj && j->mj && j->line ? PP_OK : PP_E_NOMEM;
}

static int jsonl_begin(struct pp_sink *s, const struct pp_cap_meta *m)
{
    struct jsonl_state *j = s->priv;
    char *p;

    if (jsonl_alloc(j, m) != PP_OK) {
        snprintf(s->errmsg, sizeof(s->errmsg), "out of memory");
        return PP_E_NOMEM;
    }
    for (unsigned k = 0; k < m->ncores; k++) {
        for (unsigned i = 0; i < m->core[k].nev; i++)
            *pp_fmt_json_str(j->evj[m->core[k].first + i], m->core[k].ev[i].name) = '\0';
        for (unsigned i = 0; i < m->core[k].nmetrics; i++)
            *pp_fmt_json_str(j->mj[k][i], m->core[k].metric[i].name) = '\0';
    }
    p = key(j->line, "{\"type\":\"meta\",\"format\":\"pmuprobe-jsonl\",\"version\":1");
    p = pp_fmt_json_str(key(p, ",\"target\":"), m->target);
    p = pp_fmt_json_str(key(p, ",\"probe\":"), m->probe);
    p = m->tck_hz ? num_field(p, ",\"tck_hz\":", m->tck_hz) : key(p, ",\"tck_hz\":null");
    p = num_field(p, ",\"interval_ns\":", m->interval_ns);
    p = num_field(p, ",\"start_mono_ns\":", m->start_mono_ns);
    p = num_field(p, ",\"start_real_ns\":", m->start_real_ns);
    p = key(p, m->realtime ? ",\"realtime\":true" : ",\"realtime\":false");
    p = key(p, m->snapshot ? ",\"snapshot\":true" : ",\"snapshot\":false");
    p = key(p, ",\"cores\":[");
    for (unsigned k = 0; k < m->ncores; k++) {
        if (k)
            *p++ = ',';
        p = meta_core(p, &m->core[k]);
    }
    p = key(p, "]}\n");
    return pp_sink_put(s, j->line, (size_t)(p - j->line));
}

static char *sample_core(const struct pp_sink *s, const struct jsonl_state *j, char *p,
                         unsigned k, const struct pp_cap_cstat *cs, const struct pp_cap_val *v)
{
    const struct pp_cap_core *c = &s->meta->core[k];

    p = num_field(p, "{\"cpu\":", c->cpu);
    p = pp_fmt_str(key(p, ",\"status\":\""), pp_sink_status_name(cs->status));
    *p++ = '"';
    if (cs->status == PP_CAP_GAP) {
        p = pp_fmt_str(key(p, ",\"cause\":\""), pp_cause_name(cs->cause));
        return key(p, "\"}");
    }
    if (cs->status == PP_CAP_DISCONT) {
        p = key(p, ",\"why\":[");
        for (unsigned bit = 0, n = 0; bit < 16; bit++) {
            char one[32];

            if (!(cs->why >> bit & 1u))
                continue;
            p = pp_fmt_json_str(key(p, n++ ? "," : ""), pp_sink_why_names(1u << bit, one, sizeof(one)));
        }
        *p++ = ']';
    }
    p = key(p, ",\"events\":[");
    for (unsigned i = 0; i < c->nev; i++) {
        p = pp_fmt_str(key(p, i ? ",{\"name\":" : "{\"name\":"), j->evj[c->first + i]);
        p = num_field(p, ",\"total\":", v[i].total);
        if (cs->discont >> i & 1u)
            p = key(p, ",\"delta\":null}");
        else
            p = num_field(p, ",\"delta\":", v[i].delta);
        if (!(cs->discont >> i & 1u))
            *p++ = '}';
    }
    *p++ = ']';
    if (s->opts.metrics && c->nmetrics) {
        p = key(p, ",\"metrics\":[");
        for (unsigned i = 0; i < c->nmetrics; i++) {
            double val;

            p = pp_fmt_str(key(p, i ? ",{\"name\":" : "{\"name\":"), j->mj[k][i]);
            p = key(p, ",\"value\":");
            if (pp_cap_metric_eval(&c->metric[i], v, cs->discont, &val))
                p = json_double(p, val, 6);
            else
                p = key(p, "null");
            *p++ = '}';
        }
        *p++ = ']';
    }
    *p++ = '}';
    return p;
}

static char *times(const struct pp_sink *s, const struct pp_cap_sample *smp, char *p)
{
    p = num_field(p, ",\"seq\":", smp->seq);
    p = num_field(p, ",\"t_ns\":", pp_sink_rel_ns(s->meta, smp->t_start_ns));
    p = num_field(p, ",\"t_end_ns\":", pp_sink_rel_ns(s->meta, smp->t_end_ns));
    if (s->meta->realtime)
        p = num_field(p, ",\"t_real_ns\":", smp->t_real_ns);
    return p;
}

static int jsonl_write(struct pp_sink *s, const struct pp_cap_sample *smp)
{
    struct jsonl_state *j = s->priv;
    const struct pp_cap_cstat *cs = pp_cap_cstats_c(smp);
    const struct pp_cap_val *v = pp_cap_vals_c(smp);
    char *p;

    if (smp->kind == PP_CAP_DROP) {
        p = times(s, smp, key(j->line, "{\"type\":\"drop\""));
        p = num_field(p, ",\"dropped\":", smp->dropped);
        p = num_field(p, ",\"message\":\"", smp->dropped);
        p = key(p, " samples dropped\"}\n");
        return pp_sink_put(s, j->line, (size_t)(p - j->line));
    }
    p = times(s, smp, key(j->line, "{\"type\":\"sample\""));
    p = num_field(p, ",\"late_ns\":", smp->late_ns);
    p = key(p, ",\"cores\":[");
    for (unsigned k = 0; k < s->meta->ncores; k++) {
        if (k)
            *p++ = ',';
        p = sample_core(s, j, p, k, &cs[k], v + s->meta->core[k].first);
    }
    p = key(p, "]}\n");
    return pp_sink_put(s, j->line, (size_t)(p - j->line));
}

static char *summary_gaps(const struct pp_sink *s, const struct pp_cap_summary *sum, char *p)
{
    unsigned n = 0;

    p = key(p, ",\"gaps\":[");
    for (unsigned k = 0; k < s->meta->ncores; k++)
        for (unsigned c = 0; c < PP_CAP_NCAUSES; c++) {
            if (!sum->gaps[k][c])
                continue;
            p = num_field(p, n++ ? ",{\"cpu\":" : "{\"cpu\":", s->meta->core[k].cpu);
            p = pp_fmt_str(key(p, ",\"cause\":\""), pp_cause_name((int)c));
            p = num_field(p, "\",\"samples\":", sum->gaps[k][c]);
            *p++ = '}';
        }
    *p++ = ']';
    return p;
}

static int jsonl_end(struct pp_sink *s, const struct pp_cap_summary *sum)
{
    struct jsonl_state *j = s->priv;
    char *p = key(j->line, "{\"type\":\"summary\"");

    if (!sum) {
        p = key(p, ",\"stop\":null}\n");
        return pp_sink_put(s, j->line, (size_t)(p - j->line));
    }
    p = pp_fmt_str(key(p, ",\"stop\":\""), pp_sink_stop_name(sum->stop));
    p = pp_fmt_json_str(key(p, "\",\"stop_msg\":"), sum->stop_msg);
    p = num_field(p, ",\"samples\":", sum->samples);
    p = num_field(p, ",\"written\":", sum->written);
    p = num_field(p, ",\"late\":", sum->late);
    p = num_field(p, ",\"dropped\":", sum->dropped);
    p = num_field(p, ",\"missed\":", sum->missed);
    p = num_field(p, ",\"blocked_ns\":", sum->blocked_ns);
    p = json_double(key(p, ",\"requested_hz\":"), sum->requested_hz, 3);
    p = json_double(key(p, ",\"achieved_hz\":"), sum->achieved_hz, 3);
    p = num_field(p, ",\"jitter_p50_ns\":", sum->jitter_p50_ns);
    p = num_field(p, ",\"jitter_p99_ns\":", sum->jitter_p99_ns);
    p = num_field(p, ",\"jitter_max_ns\":", sum->jitter_max_ns);
    p = num_field(p, ",\"elapsed_ns\":", sum->elapsed_ns);
    p = num_field(p, ",\"bytes\":", sum->bytes);
    p = num_field(p, ",\"bus_round_trips\":", sum->bus_round_trips);
    p = num_field(p, ",\"bus_tck\":", sum->bus_tck);
    p = summary_gaps(s, sum, p);
    p = key(p, "}\n");
    return pp_sink_put(s, j->line, (size_t)(p - j->line));
}

const struct pp_sink_ops pp_sink_jsonl_ops = {
    .name = "jsonl",
    .init = jsonl_init,
    .begin = jsonl_begin,
    .write = jsonl_write,
    .end = jsonl_end,
    .fini = jsonl_fini,
};

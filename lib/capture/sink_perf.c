/*
 * sink_perf.c - the "perf" sink: human text in the shape of `perf stat -I
 * -A` (interval time, cpu, count of the interval, event, metrics as '#'
 * comments), then a final block like perf stat's totals.
 *
 *   #           time cpu                 counts   events
 *        0.100003000 CPU0             2,000,000   cycles
 *        0.100003000 CPU0             3,000,000   instructions       #     1.50  IPC
 *        0.200004000 CPU1         <not counted>   cycles             # gap: core-off
 *        0.300005000                              3 samples dropped
 *
 * An untrusted delta (DISCONT) prints as <not counted> with its reason.
 */
#include <stdlib.h>
#include <string.h>

#include "capture/sink.h"
#include "pmu/diag.h"
#include "pmuprobe.h"

#define TIME_W  16u
#define CPU_W   5u
#define COUNT_W 20u
#define EVENT_W 25u
#define ROW_MAX (TIME_W + CPU_W + COUNT_W + 2u * PP_CAP_NAME_LEN + 160u)

struct perf_state {
    uint64_t *last;              /* per value: last total read */
    bool *seen;                  /* per value: a total was read */
    uint64_t last_t;             /* last sample, from the start */
    char *line;
    size_t cap;
};

static int perf_init(struct pp_sink *s)
{
    s->priv = calloc(1, sizeof(struct perf_state));
    return s->priv ? PP_OK : PP_E_NOMEM;
}

static void perf_fini(struct pp_sink *s)
{
    struct perf_state *ps = s->priv;

    free(ps->last);
    free(ps->seen);
    free(ps->line);
    free(ps);
}

/* text padded with spaces to width, on the right (align right) or left. */
static char *pad(char *p, const char *text, size_t len, size_t width, bool right)
{
    size_t fill = len < width ? width - len : 0;

    if (right) {
        memset(p, ' ', fill);
        p += fill;
    }
    memcpy(p, text, len);
    p += len;
    if (!right) {
        memset(p, ' ', fill);
        p += fill;
    }
    return p;
}

static char *pad_str(char *p, const char *text, size_t width, bool right)
{
    return pad(p, text, strlen(text), width, right);
}

/* Ends a row: the padding of a last column is not worth trailing blanks. */
static char *end_row(char *row, char *p)
{
    while (p > row && p[-1] == ' ')
        p--;
    *p++ = '\n';
    return p;
}

static char *row_head(char *p, const char *time, const char *cpu)
{
    p = pad_str(p, time, TIME_W, true);
    *p++ = ' ';
    return pad_str(p, cpu, CPU_W, false);
}

static char *count_cell(char *p, uint64_t v)
{
    char num[32];

    return pad(p, num, (size_t)(pp_fmt_u64_grouped(num, v) - num), COUNT_W, true);
}

static char *metric_comment(char *p, double v, const char *name)
{
    char num[40];

    p = pp_fmt_str(p, " # ");
    p = pad(p, num, (size_t)(pp_fmt_double(num, v, 2) - num), 8, true);
    *p++ = ' ';
    *p++ = ' ';
    return pp_fmt_str(p, name);
}

static int perf_begin(struct pp_sink *s, const struct pp_cap_meta *m)
{
    struct perf_state *ps = s->priv;
    unsigned nmet = 0;
    char *p;

    for (unsigned k = 0; k < m->ncores; k++)
        nmet += m->core[k].nmetrics;
    ps->last = calloc(m->nvals + 1, sizeof(*ps->last));
    ps->seen = calloc(m->nvals + 1, sizeof(*ps->seen));
    ps->cap = (size_t)(m->nvals + nmet + m->ncores + 8) * ROW_MAX + 1024u;
    ps->line = malloc(ps->cap);
    if (!ps->last || !ps->seen || !ps->line) {
        snprintf(s->errmsg, sizeof(s->errmsg), "out of memory");
        return PP_E_NOMEM;
    }
    p = ps->line + snprintf(ps->line, 512, "# pmuprobe capture of %s via %s, ", m->target, m->probe);
    if (m->tck_hz)
        p += sprintf(p, "TCK %u.%03u MHz, ", (unsigned)(m->tck_hz / 1000000u),
                     (unsigned)(m->tck_hz % 1000000u / 1000u));
    if (m->interval_ns) {
        p = pp_fmt_str(p, "interval ");
        p = pp_fmt_ns_as_s(p, m->interval_ns);
        p = pp_fmt_str(p, " s");
    } else {
        p = pp_fmt_str(p, "as fast as the path allows");
    }
    p = pp_fmt_str(p, m->snapshot ? ", snapshot\n" : "\n");
    p = row_head(p, "#           time", "cpu");
    p = pad_str(p, "counts", COUNT_W, true);
    p = pp_fmt_str(p, "   events\n");
    return pp_sink_put(s, ps->line, (size_t)(p - ps->line));
}

static char *event_row(char *p, const char *time, const char *cpu, const char *event,
                       const uint64_t *count, const char *note)
{
    p = row_head(p, time, cpu);
    p = count ? count_cell(p, *count) : pad_str(p, "<not counted>", COUNT_W, true);
    p = pp_fmt_str(p, "   ");
    p = pad_str(p, event, EVENT_W, false);
    if (note) {
        p = pp_fmt_str(p, " # ");
        p = pp_fmt_str(p, note);
    }
    return p;
}

/* A core's rows: each event, with the first metric whose numerator it is
 * as its comment (perf's way), further metrics on rows of their own. */
static char *core_rows(const struct pp_sink *s, char *p, const char *time, unsigned k,
                       const struct pp_cap_cstat *cs, const struct pp_cap_val *v)
{
    const struct pp_cap_core *c = &s->meta->core[k];
    char cpu[16], note[128], why[96];
    bool used[PP_CAP_MAX_METRICS] = { false };

    snprintf(cpu, sizeof(cpu), "CPU%u", c->cpu);
    if (cs->status == PP_CAP_GAP)
        snprintf(note, sizeof(note), "gap: %s", pp_cause_name(cs->cause));
    else
        snprintf(note, sizeof(note), "discont: %s", pp_sink_why_names(cs->why, why, sizeof(why)));
    for (unsigned i = 0; i < c->nev; i++) {
        bool counted = cs->status != PP_CAP_GAP && !(cs->discont >> i & 1u);
        char *row = p;

        p = event_row(p, time, cpu, c->ev[i].name, counted ? &v[i].delta : NULL,
                      counted ? NULL : note);
        for (unsigned j = 0; counted && s->opts.metrics && j < c->nmetrics; j++) {
            double val;

            if (c->metric[j].num != i || !pp_cap_metric_eval(&c->metric[j], v, cs->discont, &val))
                continue;
            used[j] = true;
            p = metric_comment(p, val, c->metric[j].name);
            break;
        }
        p = end_row(row, p);
    }
    for (unsigned j = 0; cs->status != PP_CAP_GAP && s->opts.metrics && j < c->nmetrics; j++) {
        double val;

        if (used[j] || !pp_cap_metric_eval(&c->metric[j], v, cs->discont, &val))
            continue;
        p = row_head(p, time, cpu);
        p = pad_str(p, "", COUNT_W + 3 + EVENT_W, false);
        p = metric_comment(p, val, c->metric[j].name);
        *p++ = '\n';
    }
    return p;
}

static int perf_write(struct pp_sink *s, const struct pp_cap_sample *smp)
{
    struct perf_state *ps = s->priv;
    const struct pp_cap_cstat *cs = pp_cap_cstats_c(smp);
    const struct pp_cap_val *v = pp_cap_vals_c(smp);
    char time[32], *p = ps->line;

    ps->last_t = pp_sink_rel_ns(s->meta, smp->t_start_ns);
    *pp_fmt_ns_as_s(time, ps->last_t) = '\0';
    if (smp->kind == PP_CAP_DROP) {
        p = row_head(p, time, "");
        p = pad_str(p, "", COUNT_W + 3, false);
        p = pp_fmt_u64(p, smp->dropped);
        p = pp_fmt_str(p, " samples dropped\n");
        return pp_sink_put(s, ps->line, (size_t)(p - ps->line));
    }
    for (unsigned k = 0; k < s->meta->ncores; k++) {
        const struct pp_cap_core *c = &s->meta->core[k];

        p = core_rows(s, p, time, k, &cs[k], v + c->first);
        if (cs[k].status == PP_CAP_GAP)
            continue;
        for (unsigned i = 0; i < c->nev; i++) {
            ps->last[c->first + i] = v[c->first + i].total;
            ps->seen[c->first + i] = true;
        }
    }
    return pp_sink_put(s, ps->line, (size_t)(p - ps->line));
}

/* perf stat's closing block: per core and event the count over the whole
 * capture, metrics over those totals. */
static char *totals(const struct pp_sink *s, const struct perf_state *ps, char *p)
{
    const struct pp_cap_meta *m = s->meta;

    p += sprintf(p, "\n Performance counter stats for %s via %s:\n\n", m->target, m->probe);
    for (unsigned k = 0; k < m->ncores; k++) {
        const struct pp_cap_core *c = &m->core[k];
        const uint64_t *t = ps->last + c->first;
        char cpu[16];

        snprintf(cpu, sizeof(cpu), "CPU%u", c->cpu);
        for (unsigned i = 0; i < c->nev; i++) {
            char *row = p;

            p = pad_str(p, cpu, CPU_W, false);
            p = ps->seen[c->first + i] ? count_cell(p, t[i]) : pad_str(p, "<not counted>", COUNT_W, true);
            p = pp_fmt_str(p, "   ");
            p = pad_str(p, c->ev[i].name, EVENT_W, false);
            for (unsigned j = 0; s->opts.metrics && j < c->nmetrics; j++) {
                const struct pp_cap_metric *mt = &c->metric[j];

                if (mt->num != i || !ps->seen[c->first + mt->den] || !t[mt->den])
                    continue;
                p = metric_comment(p, (double)t[mt->num] / (double)t[mt->den] * mt->scale,
                                   mt->name);
                break;
            }
            p = end_row(row, p);
        }
    }
    return p;
}

static char *gaps_line(const struct pp_sink *s, const struct pp_cap_summary *sum, char *p)
{
    bool any = false;

    p = pp_fmt_str(p, " gaps:");
    for (unsigned k = 0; k < s->meta->ncores; k++)
        for (unsigned c = 0; c < PP_CAP_NCAUSES; c++) {
            if (!sum->gaps[k][c])
                continue;
            p += sprintf(p, "%s cpu%u %s %llu", any ? "," : "", s->meta->core[k].cpu,
                         pp_cause_name((int)c), (unsigned long long)sum->gaps[k][c]);
            any = true;
        }
    return pp_fmt_str(p, any ? "\n" : " none\n");
}

static int perf_end(struct pp_sink *s, const struct pp_cap_summary *sum)
{
    struct perf_state *ps = s->priv;
    size_t need = (size_t)(s->meta->nvals + 16) * ROW_MAX +
                  (size_t)s->meta->ncores * PP_CAP_NCAUSES * 64u + 2048u;
    char *p;

    if (need > ps->cap) {
        char *bigger = realloc(ps->line, need);

        if (!bigger) {
            snprintf(s->errmsg, sizeof(s->errmsg), "out of memory");
            return PP_E_NOMEM;
        }
        ps->line = bigger;
        ps->cap = need;
    }
    p = totals(s, ps, ps->line);
    *p++ = '\n';
    p = pp_fmt_str(p, "     ");
    p = pp_fmt_ns_as_s(p, sum ? sum->elapsed_ns : ps->last_t);
    p = pp_fmt_str(p, " seconds time elapsed\n\n");
    if (!sum) {
        p = pp_fmt_str(p, " (no capture summary)\n");
        return pp_sink_put(s, ps->line, (size_t)(p - ps->line));
    }
    p += sprintf(p, " %llu samples, %llu written, %llu late, %llu dropped; stop: %s%s%s\n",
                 (unsigned long long)sum->samples, (unsigned long long)sum->written,
                 (unsigned long long)sum->late, (unsigned long long)sum->dropped,
                 pp_sink_stop_name(sum->stop), sum->stop_msg[0] ? ": " : "", sum->stop_msg);
    p += sprintf(p, " rate %.3f/s requested, %.3f/s achieved; jitter p50 %llu ns, p99 %llu ns, "
                 "max %llu ns\n", sum->requested_hz, sum->achieved_hz,
                 (unsigned long long)sum->jitter_p50_ns, (unsigned long long)sum->jitter_p99_ns,
                 (unsigned long long)sum->jitter_max_ns);
    p = gaps_line(s, sum, p);
    return pp_sink_put(s, ps->line, (size_t)(p - ps->line));
}

const struct pp_sink_ops pp_sink_perf_ops = {
    .name = "perf",
    .init = perf_init,
    .begin = perf_begin,
    .write = perf_write,
    .end = perf_end,
    .fini = perf_fini,
};

/*
 * topview.c - the model behind `pmuprobe top`: see topview.h.
 *
 * Records arrive on the capture's writer thread (topview_out) and are
 * folded into accumulators; topview_tick, on the display thread, turns
 * the accumulators of one display period into rates, metrics and one
 * history step, then copies the model out.  One mutex guards both sides;
 * each holds it for a few microseconds.
 */
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "pmu/extend.h"
#include "topview.h"

#define NS_PER_S 1e9

/* Deltas of one event over the open display period, and the time they
 * cover (samples whose delta is untrusted add neither). */
struct acc {
    uint64_t delta, ns;
};

struct core_acc {
    struct acc ev[PP_CAP_MAX_EVENTS];
    /* For metrics only samples where every delta of the core is trusted,
     * so numerator and denominator cover the same time. */
    struct pp_cap_val mval[PP_CAP_MAX_EVENTS];
    uint64_t mns;
    bool gap_last;               /* the latest sample was a gap */
};

struct topview {
    pthread_mutex_t lock;
    struct pp_cap_meta *meta;    /* copied at begin */
    struct topview_frame live;   /* the model; history shifts per tick */
    struct core_acc acc[PP_CAP_MAX_CORES];
    bool     have_prev;          /* prev_* describe the sample before */
    uint64_t prev_seq, prev_t;
    uint64_t tick_t;             /* latest sample at the previous closed period (0: none) */
    uint64_t period_first_t, period_last_t;   /* first and latest sample of this period */
};

struct topview *topview_new(void)
{
    struct topview *tv = calloc(1, sizeof(*tv));

    if (!tv)
        return NULL;
    if (pthread_mutex_init(&tv->lock, NULL) != 0) {
        free(tv);
        return NULL;
    }
    return tv;
}

void topview_free(struct topview *tv)
{
    if (!tv)
        return;
    pthread_mutex_destroy(&tv->lock);
    free(tv->meta);
    free(tv);
}

struct topview_frame *topview_frame_new(void)
{
    return calloc(1, sizeof(struct topview_frame));
}

/* ---- writer side ------------------------------------------------------------------ */

static void begin_core(struct topview_core *tc, const struct pp_cap_core *mc)
{
    tc->cpu = mc->cpu;
    snprintf(tc->type, sizeof(tc->type), "%s", mc->type);
    tc->nev = mc->nev;
    tc->nmetrics = mc->nmetrics;
    for (unsigned i = 0; i < mc->nev; i++)
        snprintf(tc->ev[i].name, sizeof(tc->ev[i].name), "%s", mc->ev[i].name);
    for (unsigned j = 0; j < mc->nmetrics; j++)
        snprintf(tc->metric[j].name, sizeof(tc->metric[j].name), "%s", mc->metric[j].name);
}

static int tv_begin(void *ctx, const struct pp_cap_meta *m)
{
    struct topview *tv = ctx;
    struct pp_cap_meta *copy = malloc(sizeof(*copy));
    struct topview_frame *f = &tv->live;

    if (!copy)
        return PP_E_NOMEM;
    *copy = *m;
    pthread_mutex_lock(&tv->lock);
    free(tv->meta);
    tv->meta = copy;
    snprintf(f->target, sizeof(f->target), "%s", m->target);
    snprintf(f->probe, sizeof(f->probe), "%s", m->probe);
    f->requested_hz = m->interval_ns ? NS_PER_S / (double)m->interval_ns : 0.0;
    f->ncores = m->ncores;
    for (unsigned k = 0; k < m->ncores; k++)
        begin_core(&f->core[k], &m->core[k]);
    f->begun = true;
    pthread_mutex_unlock(&tv->lock);
    return PP_OK;
}

static void fold_gap(struct topview_core *tc, struct core_acc *a, const struct pp_cap_cstat *cs)
{
    tc->cause = cs->cause;
    tc->gaps++;
    tc->period_gaps++;
    a->gap_last = true;
}

/* dt: ns since the previous sample, 0 when the deltas cannot be placed in
 * time (first sample, after dropped ones). */
static void fold_core(struct topview *tv, unsigned k, const struct pp_cap_sample *s, uint64_t dt)
{
    const struct pp_cap_core *mc = &tv->meta->core[k];
    const struct pp_cap_cstat *cs = &pp_cap_cstats_c(s)[k];
    const struct pp_cap_val *v = pp_cap_vals_c(s) + mc->first;
    struct topview_core *tc = &tv->live.core[k];
    struct core_acc *a = &tv->acc[k];
    bool clean = dt && cs->status == PP_CAP_OK && cs->discont == 0;

    if (cs->status == PP_CAP_GAP) {
        fold_gap(tc, a, cs);
        return;
    }
    a->gap_last = false;
    tc->why |= cs->why & ~(unsigned)PP_EXT_WHY_START;
    for (unsigned i = 0; i < mc->nev; i++) {
        tc->ev[i].total = v[i].total;
        if (dt && !(cs->discont >> i & 1u)) {
            a->ev[i].delta += v[i].delta;
            a->ev[i].ns += dt;
        }
        if (clean)
            a->mval[i].delta += v[i].delta;
    }
    if (clean)
        a->mns += dt;
}

/* Late as the engine counts it (lib/capture/sampler.c): started more than
 * half an interval after the deadline. */
static bool is_late(const struct pp_cap_meta *m, const struct pp_cap_sample *s)
{
    return m->interval_ns && s->late_ns > m->interval_ns / 2;
}

static void fold_sample(struct topview *tv, const struct pp_cap_sample *s)
{
    struct topview_frame *f = &tv->live;
    uint64_t dt = 0;

    /* A delta covers the time since the sample before it, which is only
     * known when that one reached us (none dropped in between). */
    if (tv->have_prev && s->seq == tv->prev_seq + 1 && s->t_start_ns > tv->prev_t)
        dt = s->t_start_ns - tv->prev_t;
    for (unsigned k = 0; k < tv->meta->ncores && k < s->ncores; k++)
        fold_core(tv, k, s, dt);
    f->samples++;
    f->period_samples++;
    if (is_late(tv->meta, s))
        f->late++;
    if (f->period_samples == 1)
        tv->period_first_t = s->t_start_ns;
    tv->period_last_t = s->t_start_ns;
    f->elapsed_ns = s->t_start_ns > tv->meta->start_mono_ns
                    ? s->t_start_ns - tv->meta->start_mono_ns : 0;
    tv->have_prev = true;
    tv->prev_seq = s->seq;
    tv->prev_t = s->t_start_ns;
}

static int tv_write(void *ctx, const struct pp_cap_sample *s)
{
    struct topview *tv = ctx;

    pthread_mutex_lock(&tv->lock);
    if (!tv->meta) {
        pthread_mutex_unlock(&tv->lock);
        return PP_E_INVAL;
    }
    if (s->kind == PP_CAP_DROP) {
        tv->live.dropped += s->dropped;
        tv->have_prev = false;
    } else {
        fold_sample(tv, s);
    }
    pthread_mutex_unlock(&tv->lock);
    return PP_OK;
}

static int tv_end(void *ctx, const struct pp_cap_summary *sum)
{
    struct topview *tv = ctx;

    pthread_mutex_lock(&tv->lock);
    tv->live.ended = true;
    tv->live.stop = sum->stop;
    pthread_mutex_unlock(&tv->lock);
    return PP_OK;
}

static const char *tv_errmsg(void *ctx)
{
    (void)ctx;
    return "top: a record arrived before the capture's description";
}

struct pp_cap_out topview_out(struct topview *tv)
{
    return (struct pp_cap_out){ .ctx = tv, .begin = tv_begin, .write = tv_write,
                                .end = tv_end, .errmsg = tv_errmsg };
}

/* ---- display side --------------------------------------------------------------------- */

static void push(struct topview_series *s, unsigned nhist, double v, bool ok)
{
    s->now = ok ? v : 0.0;
    s->ok = ok;
    if (nhist == TOPVIEW_HIST)
        memmove(s->hist, s->hist + 1, (TOPVIEW_HIST - 1) * sizeof(s->hist[0]));
    s->hist[nhist == TOPVIEW_HIST ? nhist - 1 : nhist] = ok ? (float)v : NAN;
}

static void close_core(struct topview *tv, unsigned k, unsigned nhist)
{
    const struct pp_cap_core *mc = &tv->meta->core[k];
    struct topview_core *tc = &tv->live.core[k];
    struct core_acc *a = &tv->acc[k];
    bool counted = false;

    for (unsigned i = 0; i < mc->nev; i++) {
        const struct acc *e = &a->ev[i];

        push(&tc->ev[i].rate, nhist, e->ns ? (double)e->delta * NS_PER_S / (double)e->ns : 0.0,
             e->ns != 0);
        counted |= e->ns != 0;
    }
    for (unsigned j = 0; j < mc->nmetrics; j++) {
        double x = 0.0;
        bool ok = a->mns && pp_cap_metric_eval(&mc->metric[j], a->mval, 0, &x);

        push(&tc->metric[j].val, nhist, x, ok);
    }
    /* Back from a gap with only a fresh baseline so far: waiting. */
    tc->state = a->gap_last ? TOPVIEW_GAP : counted ? TOPVIEW_OK : TOPVIEW_WAIT;
    memset(a->ev, 0, sizeof(a->ev));
    memset(a->mval, 0, sizeof(a->mval));
    a->mns = 0;
}

/* Achieved rate: the period's samples over the time since the previous
 * period's latest sample (one interval each); in the first period, the
 * intervals between its own samples. */
static double period_hz(const struct topview *tv)
{
    const struct topview_frame *f = &tv->live;

    if (tv->tick_t && tv->period_last_t > tv->tick_t)
        return (double)f->period_samples * NS_PER_S / (double)(tv->period_last_t - tv->tick_t);
    if (f->period_samples > 1 && tv->period_last_t > tv->period_first_t)
        return (double)(f->period_samples - 1) * NS_PER_S /
               (double)(tv->period_last_t - tv->period_first_t);
    return 0.0;
}

static void close_period(struct topview *tv)
{
    struct topview_frame *f = &tv->live;

    f->achieved_hz = period_hz(tv);
    for (unsigned k = 0; k < f->ncores; k++)
        close_core(tv, k, f->nhist);
    if (f->nhist < TOPVIEW_HIST)
        f->nhist++;
    tv->tick_t = tv->period_last_t;
}

static void copy_frame(const struct topview_frame *from, struct topview_frame *to)
{
    memcpy(to, from, offsetof(struct topview_frame, core));
    memcpy(to->core, from->core, from->ncores * sizeof(from->core[0]));
}

static void reset_period(struct topview_frame *f)
{
    f->period_samples = 0;
    for (unsigned k = 0; k < f->ncores; k++) {
        f->core[k].period_gaps = 0;
        f->core[k].why = 0;
    }
}

void topview_tick(struct topview *tv, struct topview_frame *f)
{
    bool fresh;

    pthread_mutex_lock(&tv->lock);
    fresh = tv->meta && tv->live.period_samples;
    if (fresh)
        close_period(tv);
    copy_frame(&tv->live, f);
    if (fresh)
        reset_period(&tv->live);
    pthread_mutex_unlock(&tv->lock);
}

/* ---- formatting shared by the two drawings -------------------------------------------------- */

const char *topview_fmt_rate(double r, char *buf, size_t n)
{
    static const struct { double div; const char *unit; } si[] = {
        { 1e12, "T/s" }, { 1e9, "G/s" }, { 1e6, "M/s" }, { 1e3, "K/s" },
    };
    const char *unit = "/s";
    double v = r;

    for (size_t i = 0; i < sizeof(si) / sizeof(si[0]); i++) {
        /* 999.95e6 would print as "1000 M/s": move up a prefix first. */
        if (r >= si[i].div * 0.9995) {
            v = r / si[i].div;
            unit = si[i].unit;
            break;
        }
    }
    if (v < 9.995)
        snprintf(buf, n, "%.2f %s", v, unit);
    else if (v < 99.95)
        snprintf(buf, n, "%.1f %s", v, unit);
    else
        snprintf(buf, n, "%.0f %s", v, unit);
    return buf;
}

int topview_level(float v, float lo, float hi, int levels)
{
    float span = fmaxf(fabsf(lo), fabsf(hi)) * TOPVIEW_MIN_SPAN;
    int l;

    if (isnan(v))
        return -1;
    /* Swings smaller than the timing noise of the sample times are a
     * steady rate: a flat line at mid height.  Scaled around their middle
     * instead, values either side of it would still round to two levels
     * and the line would wiggle. */
    if (!(hi - lo >= span) || !(hi > lo))
        return levels / 2;
    l = (int)lroundf((v - lo) / (hi - lo) * (float)(levels - 1));
    return l < 0 ? 0 : l >= levels ? levels - 1 : l;
}

/*
 * model.c - a capture folded into series and bands (plot.h).
 *
 * A point is a rate: the delta of one interval divided by the time since
 * the sample before (counts are cumulative, so raw totals would only show
 * a ramp).  A rate needs a contiguous pair of samples in which the core
 * was read and the delta is trusted (record.h: DISCONT deltas are 0, not
 * real); otherwise the line breaks (a NaN point) and the time without a
 * value becomes a band whose reason the legend names: the gap's cause
 * (spec/arm-pmu-coresight.md 2.3, core off, OS lock...), the
 * discontinuity's (EDPRSR.SR reset, counter ran backwards...), or samples
 * dropped by a full ring.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pmu/diag.h"
#include "pmu/extend.h"
#include "pmuprobe.h"
#include "plot/plot.h"

#define NO_BAND SIZE_MAX

const char *pp_plot_reason_str(unsigned reason)
{
    if (reason < PP_PLOT_WHY)
        return pp_cause_str((int)reason);
    if (reason < PP_PLOT_DROP)
        return pp_ext_why_str(1u << (reason - PP_PLOT_WHY));
    return "samples dropped (capture ring full)";
}

const char *pp_plot_reason_name(unsigned reason)
{
    if (reason < PP_PLOT_WHY)
        return pp_cause_name((int)reason);
    if (reason < PP_PLOT_DROP)
        return pp_ext_why_name(1u << (reason - PP_PLOT_WHY));
    return "drop";
}

static unsigned count_series(const struct pp_cap_meta *m, const struct pp_plot_sel *sel)
{
    unsigned n = 0;

    for (unsigned j = 0; j < sel->npanels; j++)
        for (unsigned k = 0; k < m->ncores; k++) {
            const struct pp_cap_core *c = &m->core[k];
            int i = sel->panel[j].metric ? pp_plot_find_metric(c, sel->panel[j].name)
                                         : pp_plot_find_event(c, sel->panel[j].name);

            n += (sel->cores >> k & 1u) && i >= 0;
        }
    return n;
}

/* Series panel-major, cores in capture order: the renderer draws them
 * in this order, so colours and stacking never depend on the data. */
static void lay_out_series(struct pp_plot *p)
{
    unsigned n = 0;

    for (unsigned j = 0; j < p->sel.npanels; j++)
        for (unsigned k = 0; k < p->meta.ncores; k++) {
            const struct pp_cap_core *c = &p->meta.core[k];
            int i = p->sel.panel[j].metric ? pp_plot_find_metric(c, p->sel.panel[j].name)
                                           : pp_plot_find_event(c, p->sel.panel[j].name);

            if (!(p->sel.cores >> k & 1u) || i < 0)
                continue;
            p->series[n++] = (struct pp_plot_series){ .panel = j, .core = k, .idx = (unsigned)i };
        }
}

struct pp_plot *pp_plot_new(const struct pp_cap_meta *m, const struct pp_plot_sel *sel)
{
    struct pp_plot *p = calloc(1, sizeof(*p));

    if (!p)
        return NULL;
    p->meta = *m;
    p->sel = *sel;
    p->nseries = count_series(m, sel);
    p->series = calloc(p->nseries ? p->nseries : 1, sizeof(*p->series));
    if (!p->series) {
        free(p);
        return NULL;
    }
    lay_out_series(p);
    for (unsigned k = 0; k < PP_CAP_MAX_CORES; k++)
        p->open_band[k] = NO_BAND;
    return p;
}

void pp_plot_free(struct pp_plot *p)
{
    if (!p)
        return;
    for (unsigned i = 0; i < p->nseries; i++)
        free(p->series[i].pts);
    free(p->series);
    free(p->bands);
    free(p);
}

static int push_point(struct pp_plot_series *s, double t, double v)
{
    /* One NaN is enough to lift the pen. */
    if (isnan(v) && (s->npts == 0 || isnan(s->pts[s->npts - 1].v)))
        return PP_OK;
    if (s->npts == s->cap) {
        size_t cap = s->cap ? s->cap * 2 : 256;
        struct pp_plot_point *np = realloc(s->pts, cap * sizeof(*np));

        if (!np)
            return PP_E_NOMEM;
        s->pts = np;
        s->cap = cap;
    }
    s->pts[s->npts++] = (struct pp_plot_point){ .t = t, .v = v };
    return PP_OK;
}

static int push_band(struct pp_plot *p, unsigned core, unsigned reason, double t0, double t1)
{
    if (p->nbands == p->bands_cap) {
        size_t cap = p->bands_cap ? p->bands_cap * 2 : 16;
        struct pp_plot_band *nb = realloc(p->bands, cap * sizeof(*nb));

        if (!nb)
            return PP_E_NOMEM;
        p->bands = nb;
        p->bands_cap = cap;
    }
    p->bands[p->nbands++] = (struct pp_plot_band){ .core = core, .reason = reason,
                                                    .t0 = t0, .t1 = t1 };
    return PP_OK;
}

/* Extends the core's open band when it has the same reason (or when
 * extend_any: the sample after a gap carries WHY_GAP, which is the same
 * stretch without values), else opens a new one. */
static int core_band(struct pp_plot *p, unsigned k, unsigned reason, bool extend_any,
                     double t0, double t1)
{
    size_t b = p->open_band[k];

    if (b != NO_BAND && (extend_any || p->bands[b].reason == reason) && p->bands[b].t1 >= t0) {
        p->bands[b].t1 = t1;
        return PP_OK;
    }
    p->open_band[k] = p->nbands;
    return push_band(p, k, reason, t0, t1);
}

static unsigned lowest_bit(unsigned v)
{
    unsigned b = 0;

    while (b < 15 && !(v >> b & 1u))
        b++;
    return b;
}

/* The band, if any, that this sample puts on core k. */
static int fold_band(struct pp_plot *p, unsigned k, const struct pp_cap_cstat *cs, double t)
{
    unsigned bits = cs->why & ~(unsigned)PP_EXT_WHY_START;
    double t0 = p->have_prev ? p->prev_t : t;

    if (cs->status == PP_CAP_GAP)
        return core_band(p, k, cs->cause < PP_CAP_NCAUSES ? cs->cause : PP_CAUSE_UNKNOWN,
                         false, t0, t);
    if (cs->status == PP_CAP_DISCONT && bits) {
        unsigned own = bits & ~(unsigned)PP_EXT_WHY_GAP;

        return core_band(p, k, PP_PLOT_WHY + lowest_bit(own ? own : bits),
                         (bits & PP_EXT_WHY_GAP) != 0, t0, t);
    }
    p->open_band[k] = NO_BAND;
    return PP_OK;
}

/* The series' value for this sample, NaN when there is none to trust. */
static double series_value(const struct pp_plot *p, const struct pp_plot_series *s,
                           const struct pp_cap_sample *smp, double dt)
{
    const struct pp_cap_core *c = &p->meta.core[s->core];
    const struct pp_cap_cstat *cs = &pp_cap_cstats_c(smp)[s->core];
    const struct pp_cap_val *v = pp_cap_vals_c(smp) + c->first;
    double out;

    if (cs->status == PP_CAP_GAP || dt <= 0.0 || !p->was_read[s->core])
        return NAN;
    if (p->sel.panel[s->panel].metric)
        return pp_cap_metric_eval(&c->metric[s->idx], v, cs->discont, &out) ? out : NAN;
    if (cs->discont >> s->idx & 1u)
        return NAN;
    return (double)v[s->idx].delta / dt;
}

static int fold_sample(struct pp_plot *p, const struct pp_cap_sample *smp)
{
    double t = smp->t_start_ns > p->meta.start_mono_ns
               ? (double)(smp->t_start_ns - p->meta.start_mono_ns) / 1e9 : 0.0;
    bool contiguous = p->have_prev && smp->seq == p->prev_seq + 1 && t > p->prev_t;
    double dt = contiguous ? t - p->prev_t : 0.0;
    int rc = PP_OK;

    if (p->drop_open) {
        rc = push_band(p, PP_CAP_MAX_CORES, PP_PLOT_DROP, p->drop_t0, t);
        p->drop_open = false;
    }
    for (unsigned i = 0; i < p->nseries && rc == PP_OK; i++)
        rc = push_point(&p->series[i], t, series_value(p, &p->series[i], smp, dt));
    for (unsigned k = 0; k < p->meta.ncores && k < smp->ncores && rc == PP_OK; k++) {
        const struct pp_cap_cstat *cs = &pp_cap_cstats_c(smp)[k];

        if (p->sel.cores >> k & 1u)
            rc = fold_band(p, k, cs, t);
        p->was_read[k] = cs->status != PP_CAP_GAP;
    }
    p->have_prev = true;
    p->prev_seq = smp->seq;
    p->prev_t = t;
    p->t_end = t;
    p->samples++;
    return rc;
}

int pp_plot_add(struct pp_plot *p, const struct pp_cap_sample *s)
{
    if (s->kind == PP_CAP_DROP) {
        p->dropped += s->dropped;
        if (!p->drop_open) {
            p->drop_open = true;
            p->drop_t0 = p->prev_t;
        }
        p->have_prev = false;    /* the next delta spans the lost samples */
        return PP_OK;
    }
    if (s->ncores != p->meta.ncores || s->nvals != p->meta.nvals)
        return PP_E_INVAL;
    return fold_sample(p, s);
}

size_t pp_plot_pieces(const struct pp_plot_series *s)
{
    size_t n = 0;
    bool in = false;

    for (size_t i = 0; i < s->npts; i++) {
        bool ok = !isnan(s->pts[i].v);

        n += ok && !in;
        in = ok;
    }
    return n;
}

const struct pp_plot_series *pp_plot_series_of(const struct pp_plot *p, unsigned panel,
                                               unsigned core)
{
    for (unsigned i = 0; i < p->nseries; i++)
        if (p->series[i].panel == panel && p->series[i].core == core)
            return &p->series[i];
    return NULL;
}

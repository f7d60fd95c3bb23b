/*
 * metrics.c - derived metrics per core type: which ratios of two captured
 * events a sink may print beside the counts (record.h pp_cap_metric).
 *
 * The tables name events the way a user would, and each name is resolved
 * for the core's own type (pp_event_resolve), so "instructions" is
 * INST_RETIRED (0x08) on most cores but 0x68 on Cortex-A9, which lacks
 * 0x08.  A metric is kept only when both of its events are in the
 * capture; the first PP_CAP_MAX_METRICS that fit win, so the tables list
 * the most asked-for first.
 */
#include <stdio.h>
#include <string.h>

#include "capture/capture.h"
#include "pmu/evname.h"

struct metric_def {
    const char *name;
    const char *num, *den;     /* event names, resolved per core type */
    double scale;
    const char *unless;        /* skip when this metric is already kept */
};

/* Armv8 PMUv3 cores: common events 0x00-0x3F (spec 1.3). */
static const struct metric_def armv8_metrics[] = {
    { "IPC",           "instructions",     "cycles",       1.0,    NULL },
    { "L1D MPKI",      "L1D_CACHE_REFILL", "instructions", 1000.0, NULL },
    { "branch miss %", "BR_MIS_PRED",      "BR_PRED",      100.0,  NULL },
    { "branch MPKI",   "BR_MIS_PRED",      "instructions", 1000.0, "branch miss %" },
    { "L2D MPKI",      "L2D_CACHE_REFILL", "instructions", 1000.0, NULL },
    { "L1D miss %",    "L1D_CACHE_REFILL", "L1D_CACHE",    100.0,  NULL },
    { "L1I MPKI",      "L1I_CACHE_REFILL", "instructions", 1000.0, NULL },
    { "dTLB MPKI",     "L1D_TLB_REFILL",   "instructions", 1000.0, NULL },
    { "FE stall %",    "STALL_FRONTEND",   "cycles",       100.0,  NULL },
    { "BE stall %",    "STALL_BACKEND",    "cycles",       100.0,  NULL },
};

/* Armv7 PMUv2 cores: the same ratios where the Armv7 common events exist;
 * no architectural stall events. */
static const struct metric_def armv7_metrics[] = {
    { "IPC",           "instructions",     "cycles",       1.0,    NULL },
    { "L1D MPKI",      "L1D_CACHE_REFILL", "instructions", 1000.0, NULL },
    { "branch miss %", "BR_MIS_PRED",      "BR_PRED",      100.0,  NULL },
    { "branch MPKI",   "BR_MIS_PRED",      "instructions", 1000.0, "branch miss %" },
    { "L1D miss %",    "L1D_CACHE_REFILL", "L1D_CACHE",    100.0,  NULL },
    { "L1I MPKI",      "L1I_CACHE_REFILL", "instructions", 1000.0, NULL },
    { "dTLB MPKI",     "L1D_TLB_REFILL",   "instructions", 1000.0, NULL },
};

/* Index of the captured event the name stands for on this core type, or
 * -1.  Events are matched by number, whichever counter counts them. */
static int find_event(const struct pp_cap_core *core, const struct pp_core_type *ct,
                      const char *name)
{
    struct pp_evsel sel;
    char err[160];

    if (pp_event_resolve(ct, name, &sel, err, sizeof(err)) != PP_OK)
        return -1;
    for (unsigned i = 0; i < core->nev; i++)
        if (core->ev[i].code == sel.code)
            return (int)i;
    return -1;
}

static bool has_metric(const struct pp_cap_core *core, const char *name)
{
    for (unsigned i = 0; i < core->nmetrics; i++)
        if (strcmp(core->metric[i].name, name) == 0)
            return true;
    return false;
}

static void add_metric(struct pp_cap_core *core, const struct pp_core_type *ct,
                       const struct metric_def *d)
{
    struct pp_cap_metric *m;
    int num, den;

    if (core->nmetrics >= PP_CAP_MAX_METRICS || (d->unless && has_metric(core, d->unless)))
        return;
    num = find_event(core, ct, d->num);
    den = find_event(core, ct, d->den);
    if (num < 0 || den < 0 || num == den)
        return;
    m = &core->metric[core->nmetrics++];
    snprintf(m->name, sizeof(m->name), "%s", d->name);
    m->num = (uint8_t)num;
    m->den = (uint8_t)den;
    m->scale = d->scale;
}

const char *pp_cap_metric_name(unsigned pmu_version, size_t i)
{
    if (pmu_version >= 3)
        return i < sizeof(armv8_metrics) / sizeof(armv8_metrics[0]) ? armv8_metrics[i].name
                                                                     : NULL;
    return i < sizeof(armv7_metrics) / sizeof(armv7_metrics[0]) ? armv7_metrics[i].name : NULL;
}

void pp_cap_metrics_fill(struct pp_cap_core *core, const struct pp_core_type *ct)
{
    const struct metric_def *t = ct->pmu_version >= 3 ? armv8_metrics : armv7_metrics;
    size_t n = ct->pmu_version >= 3 ? sizeof(armv8_metrics) / sizeof(armv8_metrics[0])
                                    : sizeof(armv7_metrics) / sizeof(armv7_metrics[0]);

    core->nmetrics = 0;
    for (size_t i = 0; i < n; i++)
        add_metric(core, ct, &t[i]);
}

/*
 * counters.c - the public counter-set API: claim, program and start a
 * core's counters, read them as 64-bit counts, stop and release.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bus/bus.h"
#include "errmsg.h"
#include "pmu/evname.h"
#include "pmu/program.h"
#include "session/session.h"

#define MAX_SET (PP_MAX_COUNTERS + 1)   /* every counter and the cycle counter */

struct pp_counters {
    struct pp_session *s;
    const struct pp_core_desc *core;
    unsigned n;
    struct pp_evsel ev[MAX_SET];
    uint32_t addr[MAX_SET];             /* counter register of event i */
    uint32_t last[MAX_SET];             /* its previous 32-bit reading */
    uint64_t total[MAX_SET];            /* extended count since open */
};

static int resolve_events(struct pp_counters *c, const char *events, char *err, size_t errlen)
{
    char list[512], *save = NULL;

    if (strlen(events) >= sizeof(list)) {
        pp_errmsg(err, errlen, "event list too long (at most %zu characters)", sizeof(list) - 1);
        return PP_E_INVAL;
    }
    strcpy(list, events);
    for (char *tok = strtok_r(list, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        int rc;

        if (c->n == MAX_SET) {
            pp_errmsg(err, errlen, "cpu%u: more than %d events; a PMU has at most %d "
                      "counters plus the cycle counter", c->core->cpu, MAX_SET, PP_MAX_COUNTERS);
            return PP_E_BUSY;
        }
        rc = pp_event_resolve(c->core->type, tok, &c->ev[c->n], err, errlen);
        if (rc != PP_OK)
            return rc;
        c->n++;
    }
    if (c->n == 0) {
        pp_errmsg(err, errlen, "no events given (expected e.g. \"cycles,instructions\")");
        return PP_E_INVAL;
    }
    return PP_OK;
}

/* Where each asked-for event is counted, per the allocation. */
static void map_counters(struct pp_counters *c, const struct pp_pmu_prog *p)
{
    for (unsigned i = 0; i < c->n; i++) {
        uint32_t off = p->slot[i] == PP_CYCLE_SLOT ? pp_pmu_ccntr_off(c->core)
                                                   : pp_pmu_evcntr_off(c->core, p->slot[i]);
        c->addr[i] = c->core->pmu_base + off;
    }
}

static int setup(struct pp_counters *c, unsigned cpu, const char *events, char *err,
                 size_t errlen)
{
    struct pp_pmu_prog prog;
    struct pp_pmu_state st;
    int rc;

    c->core = pp_target_core(c->s->target, cpu);
    if (!c->core) {
        pp_errmsg(err, errlen, "cpu%u: no such core in target %s", cpu, c->s->target->name);
        return PP_E_NOTFOUND;
    }
    rc = resolve_events(c, events, err, errlen);
    if (rc == PP_OK)
        rc = pp_pmu_allocate(c->core, c->ev, c->n, &prog, err, errlen);
    if (rc != PP_OK)
        return rc;
    map_counters(c, &prog);
    /* Read, ownership check (spec 3), claim and program+start from zero. */
    rc = pp_pmu_configure(c->s->bus, c->core, &prog, 0, &st, err, errlen);
    if (rc != PP_OK && !err[0])
        pp_errmsg(err, errlen, "cpu%u: programming the PMU: %s", cpu, pp_strerror(rc));
    if (rc == PP_OK)
        err[0] = '\0';
    return rc;
}

int pp_counters_open(struct pp_session *s, unsigned cpu, const char *events,
                     struct pp_counters **out, char *err, size_t errlen)
{
    char scratch[256];
    struct pp_counters *c;
    int rc;

    if (!err || !errlen) {
        err = scratch;
        errlen = sizeof(scratch);
    }
    err[0] = '\0';
    *out = NULL;
    if (!s || !events) {
        pp_errmsg(err, errlen, "session and events are required");
        return PP_E_INVAL;
    }
    c = calloc(1, sizeof(*c));
    if (!c) {
        pp_errmsg(err, errlen, "out of memory");
        return PP_E_NOMEM;
    }
    c->s = s;
    rc = setup(c, cpu, events, err, errlen);
    if (rc != PP_OK) {
        free(c);
        return rc;
    }
    *out = c;
    return PP_OK;
}

size_t pp_counters_count(const struct pp_counters *c)
{
    return c->n;
}

const char *pp_counters_name(const struct pp_counters *c, size_t i)
{
    return i < c->n ? c->ev[i].name : NULL;
}

int pp_counters_read(struct pp_counters *c, uint64_t *values, size_t n)
{
    struct pp_op ops[MAX_SET];
    int rc;

    if (n > c->n)
        return PP_E_INVAL;
    for (size_t i = 0; i < n; i++)
        ops[i] = (struct pp_op){ .addr = c->addr[i] };
    rc = pp_bus_run(c->s->bus, ops, n);
    if (rc != PP_OK)
        return rc;
    /* Unsigned 32-bit difference: right across one wrap, which is why the
     * header asks for a read every 2^32 events. */
    for (size_t i = 0; i < n; i++) {
        c->total[i] += (uint32_t)(ops[i].rdata - c->last[i]);
        c->last[i] = ops[i].rdata;
        values[i] = c->total[i];
    }
    return PP_OK;
}

int pp_counters_close(struct pp_counters *c)
{
    struct pp_pmu_state st;
    unsigned ctl = PP_CTL_STOP;
    int rc;

    if (!c)
        return PP_OK;
    /* PMCR is rewritten from what is read, so read it first. */
    rc = pp_pmu_read_state(c->s->bus, c->core, &st);
    if (rc == PP_OK) {
        if (st.claim_ok)
            ctl |= PP_CTL_RELEASE;
        rc = pp_pmu_control(c->s->bus, c->core, &st, ctl);
    }
    free(c);
    return rc;
}

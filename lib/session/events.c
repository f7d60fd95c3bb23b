/*
 * events.c - pp_events_list: a core's event catalog (lib/pmu/catalog.c)
 * checked against what the core advertises in PMCEID0-3 (spec
 * arm-pmu-coresight.md 1.3), as `pmuprobe events` lists it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "errmsg.h"
#include "pmu/catalog.h"
#include "pmu/evname.h"
#include "session/inspect.h"
#include "session/session.h"

bool pp_pmceid_read(struct pp_bus *bus, const struct pp_core_desc *c, uint32_t ceid[4],
                    struct pp_diag *d, bool *diag_ok)
{
    struct pp_op ops[4];
    unsigned n = c->type->pmuv3p1 ? 4 : 2;

    memset(ceid, 0, 4 * sizeof(ceid[0]));
    *diag_ok = false;
    for (unsigned i = 0; i < n; i++)
        ops[i] = (struct pp_op){ .addr = c->pmu_base + PP_PMU_PMCEID(i) };
    if (pp_bus_run(bus, ops, n) == PP_OK) {
        for (unsigned i = 0; i < n; i++)
            ceid[i] = ops[i].rdata;
        return true;
    }
    *diag_ok = pp_diag_core(bus, c, d) == PP_OK;
    return false;
}

static struct pp_event_info info_of(const struct pp_event *e, uint16_t code,
                                    const uint32_t ceid[4], bool have)
{
    struct pp_event_info i = {
        .code = code, .name = e ? e->name : NULL,
        .desc = e ? e->desc : "advertised by PMCEID, unknown to every catalog",
        .component = e ? e->component : NULL,
    };
    unsigned reg, bit;

    i.common = pp_pmceid_bit(code, &reg, &bit);
    i.checked = i.common && have;
    i.advertised = i.checked && ((ceid[reg] >> bit) & 1u);
    return i;
}

/* The advertised codes the core's own table lacks, counted, then listed:
 * both walks are pp_catalog_pmceid_each's. */
struct unlisted {
    const struct pp_catalog *cat;
    const uint32_t *ceid;
    struct pp_event_info *list;  /* NULL: only count */
    size_t k;
};

static void add_unlisted(void *ctx, uint16_t code, const struct pp_event *ev)
{
    struct unlisted *u = ctx;

    if (pp_event_core_has(u->cat, code))
        return;
    if (u->list)
        u->list[u->k] = info_of(ev, code, u->ceid, true);
    u->k++;
}

static size_t walk_unlisted(struct unlisted *u)
{
    for (unsigned r = 0; r < 4; r++)
        pp_catalog_pmceid_each(u->cat, r, u->ceid[r], add_unlisted, u);
    return u->k;
}

static int build(const struct pp_catalog *cat, const uint32_t ceid[4], bool have,
                 struct pp_event_info **out, size_t *n)
{
    struct unlisted u = { cat, ceid, NULL, 0 };
    size_t total = cat->n + (have ? walk_unlisted(&u) : 0);
    struct pp_event_info *list = calloc(total ? total : 1, sizeof(*list));

    if (!list)
        return PP_E_NOMEM;
    for (size_t i = 0; i < cat->n; i++)
        list[i] = info_of(&cat->events[i], cat->events[i].code, ceid, have);
    u.list = list + cat->n;
    u.k = 0;
    if (have)
        walk_unlisted(&u);
    *out = list;
    *n = cat->n + u.k;
    return PP_OK;
}

int pp_events_list(struct pp_session *s, unsigned cpu, struct pp_event_info **out, size_t *n,
                   char *err, size_t errlen)
{
    const struct pp_core_desc *c;
    const struct pp_catalog *cat;
    struct pp_diag d;
    uint32_t ceid[4];
    bool have, diag_ok;
    int rc;

    if (err && errlen)
        err[0] = '\0';
    if (!s || !out || !n)
        return PP_E_INVAL;
    *out = NULL;
    *n = 0;
    c = pp_target_core(s->target, cpu);
    cat = c ? pp_catalog_find(c->type->catalog) : NULL;
    if (!c || !cat) {
        if (c)
            pp_errmsg(err, errlen, "no event catalog for %s", c->type->pretty);
        else
            pp_errmsg(err, errlen, "cpu%u: no such core on target %s", cpu, s->target->name);
        return PP_E_NOTFOUND;
    }
    have = pp_pmceid_read(s->bus, c, ceid, &d, &diag_ok);
    if (!have && !diag_ok) {
        /* Neither PMCEID nor the diagnosis came back: the path failed. */
        pp_errmsg(err, errlen, "cpu%u: access path failed: %s", cpu, pp_bus_errmsg(s->bus));
        return PP_E_LINK;
    }
    rc = build(cat, ceid, have, out, n);
    if (rc != PP_OK)
        pp_errmsg(err, errlen, "out of memory");
    else if (!have)
        pp_errmsg(err, errlen, "PMCEID unreadable on cpu%u: %s (%s); the catalog only", cpu,
                  pp_cause_str(d.cause), d.evidence);
    return rc;
}

void pp_events_free(struct pp_event_info *list)
{
    free(list);
}

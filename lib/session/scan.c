/*
 * scan.c - pp_scan: the CoreSight components the ROM tables list
 * (lib/coresight/romwalk.c), as data, each tied to the core whose block
 * it is; what `pmuprobe scan` prints as its component table.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "errmsg.h"
#include "coresight/coresight.h"
#include "session/inspect.h"
#include "session/session.h"

struct collect {
    const struct pp_target *t;
    struct pp_component *list;
    size_t n, cap;
};

static const char *kind_name(const struct pp_cs_component *c)
{
    if (c->status != PP_OK)
        return "unreadable";
    switch (pp_cs_kind(&c->id)) {
    case PP_CS_ROM:   return "ROM table";
    case PP_CS_DEBUG: return "debug";
    case PP_CS_PMU:   return "PMU";
    case PP_CS_CTI:   return "CTI";
    case PP_CS_ETM:   return "ETM";
    case PP_CS_OTHER: break;
    }
    return "other";
}

/* The cpu number of the target's core with a block at base, or -1. */
static int owner(const struct pp_target *t, uint32_t base)
{
    for (unsigned i = 0; i < t->ncores; i++) {
        const struct pp_core_desc *c = &t->cores[i];

        if (base == c->debug_base || base == c->pmu_base || base == c->cti_base)
            return (int)c->cpu;
    }
    return -1;
}

static int add(void *ctx, const struct pp_cs_component *c)
{
    struct collect *col = ctx;
    struct pp_component *p;
    char name[sizeof(p->name)];

    if (col->n == col->cap) {
        size_t cap = col->cap ? 2 * col->cap : 16;
        struct pp_component *grown = realloc(col->list, cap * sizeof(*grown));

        if (!grown)
            return PP_E_NOMEM;
        col->list = grown;
        col->cap = cap;
    }
    p = &col->list[col->n++];
    *p = (struct pp_component){
        .addr = c->base, .rom = c->rom, .depth = c->depth, .status = c->status,
        .kind = kind_name(c), .cpu = owner(col->t, c->base),
    };
    if (c->status != PP_OK)
        return 0;
    p->cls = c->id.cls;
    p->part = c->id.part;
    p->designer = c->id.designer;
    p->devarch = c->id.devarch;
    snprintf(p->name, sizeof(p->name), "%s", pp_cs_part_name(&c->id, name, sizeof(name)));
    return 0;
}

int pp_scan_bus(struct pp_bus *bus, const struct pp_target *t, struct pp_component **out,
                size_t *n, char *err, size_t errlen)
{
    struct collect col = { .t = t };
    int rc = pp_cs_walk(bus, t->rom_base, add, &col);

    *out = col.list;
    *n = col.n;
    if (rc != PP_OK && err && errlen)
        pp_errmsg(err, errlen, "ROM table walk from 0x%08" PRIX32 " failed: %s", t->rom_base,
                  rc == PP_E_LINK ? pp_bus_errmsg(bus) : pp_strerror(rc));
    return rc;
}

int pp_scan(struct pp_session *s, struct pp_component **out, size_t *n, char *err,
            size_t errlen)
{
    int rc;

    if (err && errlen)
        err[0] = '\0';
    if (!s || !out || !n)
        return PP_E_INVAL;
    rc = pp_scan_bus(s->bus, s->target, out, n, err, errlen);
    if (rc != PP_OK) {
        free(*out);
        *out = NULL;
        *n = 0;
    }
    return rc;
}

void pp_scan_free(struct pp_component *list)
{
    free(list);
}

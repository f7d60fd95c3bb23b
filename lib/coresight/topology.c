/*
 * topology.c - from a ROM table walk to cores: each debug block is a core,
 * numbered in walk order, with its PMU and CTI paired to it.
 *
 * Pairing (spec/arm-pmu-coresight.md 3.5, 4.2, 8): Armv8 blocks carry
 * DEVAFF (a copy of the core's MPIDR), so equal non-zero DEVAFF means same
 * core.  Armv7 blocks have none, and some SoCs' Armv8 blocks read 0: there
 * the address conventions decide.  Each core's blocks sit in its own slot
 * after its debug block: PMU at debug + 0x1000 in the 8 KB Armv7 / v7-map
 * slot (spec 4.2, 8.2), at debug + 0x20000 in the 1 MB v8-map slot (spec
 * 8.1).  So the PMU is the nearest one above the debug block and below the
 * next core's debug block, at most 1 MB away.  CTIs sit apart from the
 * cores in the v7 map, so without DEVAFF they follow the cores in walk
 * order.
 */
#include <string.h>

#include "coresight/coresight.h"
#include "pmu/regs.h"

/* PMUs and CTIs seen; a SoC may have system CTIs besides the per-core ones. */
#define TOPO_MAX_BLOCKS (2u * PP_MAX_CORES)

/* spec 8.1: the v8 memory map gives each core 1 MB; no core's PMU is
 * further from its debug block. */
#define SLOT_MAX 0x100000u

struct block {
    uint32_t base;
    uint64_t devaff;
    bool     taken;
};

struct found {
    struct pp_topology *topo;
    unsigned npmu, ncti;
    struct block pmu[TOPO_MAX_BLOCKS];
    struct block cti[TOPO_MAX_BLOCKS];
};

static void add_block(struct block *list, unsigned *n, const struct pp_cs_component *c)
{
    /* Extra system blocks beyond the table size cannot belong to a core we
     * can hold, so dropping them loses nothing. */
    if (*n >= TOPO_MAX_BLOCKS)
        return;
    list[(*n)++] = (struct block){ .base = c->base, .devaff = c->id.devaff };
}

static int collect(void *ctx, const struct pp_cs_component *c)
{
    struct found *f = ctx;
    struct pp_cs_core *core;

    /* Unreadable components cannot be classified; the walk's caller sees
     * them through pp_cs_walk if it wants the evidence. */
    if (c->status != PP_OK)
        return 0;
    switch (pp_cs_kind(&c->id)) {
    case PP_CS_DEBUG:
        if (f->topo->ncores >= PP_MAX_CORES)
            return PP_E_UNSUPPORTED;
        core = &f->topo->cores[f->topo->ncores];
        core->cpu = f->topo->ncores++;
        core->debug_base = c->base;
        core->debug_part = c->id.part;
        core->affinity = c->id.devaff;
        core->rom = c->rom;
        return 0;
    case PP_CS_ROM:
        if (f->topo->nroms < PP_TOPO_MAX_ROMS)
            f->topo->roms[f->topo->nroms++] = (struct pp_cs_rom){
                .base = c->base, .cls = c->id.cls, .part = c->id.part };
        return 0;
    case PP_CS_PMU:
        add_block(f->pmu, &f->npmu, c);
        return 0;
    case PP_CS_CTI:
        add_block(f->cti, &f->ncti, c);
        return 0;
    default:
        return 0;
    }
}

static struct block *take_by_affinity(struct block *list, unsigned n, uint64_t aff)
{
    for (unsigned i = 0; i < n; i++)
        if (!list[i].taken && list[i].devaff == aff) {
            list[i].taken = true;
            return &list[i];
        }
    return NULL;
}

/* The first debug block above base, or the end of the slot if sooner. */
static uint32_t slot_end(const struct pp_topology *topo, uint32_t base)
{
    uint64_t end = (uint64_t)base + SLOT_MAX;

    for (unsigned i = 0; i < topo->ncores; i++) {
        uint32_t d = topo->cores[i].debug_base;

        if (d > base && d < end)
            end = d;
    }
    return end > UINT32_MAX ? UINT32_MAX : (uint32_t)end;
}

/* The nearest untaken block in (base, end). */
static struct block *take_in_slot(struct block *list, unsigned n, uint32_t base, uint32_t end)
{
    struct block *best = NULL;

    for (unsigned i = 0; i < n; i++)
        if (!list[i].taken && list[i].base > base && list[i].base < end &&
            (!best || list[i].base < best->base))
            best = &list[i];
    if (best)
        best->taken = true;
    return best;
}

/* Armv7: the next CTI, in walk order, that carries no affinity. */
static struct block *take_next_unaffined(struct block *list, unsigned n)
{
    for (unsigned i = 0; i < n; i++)
        if (!list[i].taken && list[i].devaff == 0) {
            list[i].taken = true;
            return &list[i];
        }
    return NULL;
}

/* First pass: by affinity, so that no core's address guess can take a
 * block that DEVAFF gives to another. */
static void pair_by_affinity(struct found *f, struct pp_cs_core *core)
{
    struct block *pmu, *cti;

    if (core->affinity == 0)
        return;
    pmu = take_by_affinity(f->pmu, f->npmu, core->affinity);
    cti = take_by_affinity(f->cti, f->ncti, core->affinity);
    if (pmu) {
        core->pmu_base = pmu->base;
        core->paired = PP_PAIR_AFFINITY;
    }
    if (cti)
        core->cti_base = cti->base;
}

/* Second pass: what affinity left unpaired, by address and walk order. */
static void pair_by_address(struct found *f, struct pp_cs_core *core)
{
    struct block *b;

    if (core->paired == PP_PAIR_NONE &&
        (b = take_in_slot(f->pmu, f->npmu, core->debug_base,
                          slot_end(f->topo, core->debug_base))) != NULL) {
        core->pmu_base = b->base;
        core->paired = PP_PAIR_ADDRESS;
    }
    if (core->cti_base == 0 && (b = take_next_unaffined(f->cti, f->ncti)) != NULL)
        core->cti_base = b->base;
}

const char *pp_cs_pairing_name(enum pp_cs_pairing p)
{
    switch (p) {
    case PP_PAIR_AFFINITY: return "affinity";
    case PP_PAIR_ADDRESS:  return "address";
    default:               return "none";
    }
}

/* All MIDRs in one batch.  MIDR is in the core power domain: a core that is
 * off answers with an error, keeps midr 0 and is typed by its debug part. */
static void read_midrs(struct pp_bus *bus, struct pp_topology *topo)
{
    struct pp_op ops[PP_MAX_CORES];

    for (unsigned i = 0; i < topo->ncores; i++)
        ops[i] = (struct pp_op){ .addr = topo->cores[i].debug_base + PP_DBG_MIDR };
    (void)pp_bus_run(bus, ops, topo->ncores);
    for (unsigned i = 0; i < topo->ncores; i++) {
        struct pp_cs_core *core = &topo->cores[i];

        core->midr = ops[i].st == PP_OP_OK ? ops[i].rdata : 0;
        core->type = core->midr ? pp_core_type_by_midr(core->midr) : NULL;
        if (!core->type)
            core->type = pp_core_type_by_debug_part(core->debug_part);
    }
}

int pp_topology_discover(struct pp_bus *bus, uint32_t rom_base, struct pp_topology *topo)
{
    struct found f = { .topo = topo };
    int rc;

    if (!bus || !topo)
        return PP_E_INVAL;
    memset(topo, 0, sizeof(*topo));
    rc = pp_cs_walk(bus, rom_base, collect, &f);
    if (rc != PP_OK)
        return rc;
    if (topo->ncores == 0)
        return PP_E_NOTFOUND;
    for (unsigned i = 0; i < topo->ncores; i++)
        pair_by_affinity(&f, &topo->cores[i]);
    for (unsigned i = 0; i < topo->ncores; i++)
        pair_by_address(&f, &topo->cores[i]);
    read_midrs(bus, topo);
    return PP_OK;
}

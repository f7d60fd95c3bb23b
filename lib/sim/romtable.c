/*
 * romtable.c - the simulated ROM tables (spec 6.2, 6.3).
 *
 * The top table (at target->rom_base) has one entry per cluster, pointing
 * at the cluster's table; a cluster table has three entries per core slot,
 * in slot order: debug, CTI, PMU.  A slot without a core, or a core
 * without a CTI (cti_base 0), gives not-present entries 0x00000002 (class
 * 0x1: Format=1, Present=0; class 0x9: PRESENT=0b10, not present, not the
 * end).  Then the end marker 0.  Entry offsets are signed 4 KB offsets
 * from the table (two's complement, wrapping in 32 bits).
 */
#include "sim/sim_internal.h"

#define ENTRY_PRESENT     0x3u  /* class 0x1: Format|Present; class 0x9: 0b11 */
#define ENTRY_NOT_PRESENT 0x2u
#define ROM9_DEVARCH      0x47700AF7u

static uint32_t entry(uint32_t table, uint32_t target)
{
    return ((target - table) & 0xFFFFF000u) | ENTRY_PRESENT;
}

static uint32_t top_entry(const struct pp_sim *sim, unsigned i)
{
    if (i >= sim->t.nclusters)
        return 0;
    return entry(sim->t.rom_base, sim->t.clusters[i].rom_base);
}

static const struct pp_core_desc *core_at(const struct pp_sim *sim, unsigned cl, unsigned slot)
{
    for (unsigned i = 0; i < sim->t.ncores; i++)
        if (sim->t.cores[i].cluster == cl && sim->t.cores[i].slot == slot)
            return &sim->t.cores[i];
    return NULL;
}

static uint32_t cluster_entry(const struct pp_sim *sim, unsigned cl, unsigned i)
{
    const struct pp_cluster_desc *cd = &sim->t.clusters[cl];
    const struct pp_core_desc *d;
    uint32_t blk;

    if (i / 3u >= cd->slots)
        return 0;
    d = core_at(sim, cl, i / 3u);
    if (!d)
        return ENTRY_NOT_PRESENT;
    blk = i % 3u == 0 ? d->debug_base : i % 3u == 1 ? d->cti_base : d->pmu_base;
    if (i % 3u == 1 && !blk)
        return ENTRY_NOT_PRESENT;
    return entry(cd->rom_base, blk);
}

int sim_rom_read(struct pp_sim *sim, const struct sim_block *b, uint32_t off, uint32_t *val)
{
    bool top = b->kind == BLK_ROM_TOP;
    uint8_t cls = top ? sim->t.rom_class : sim->t.clusters[b->idx].rom_class;
    uint16_t part = top ? sim->t.rom_part : sim->t.clusters[b->idx].rom_part;
    uint32_t nentries = cls == 0x9 ? 512u : 960u;

    *val = 0;
    if (sim_id_read(part, cls, off, val))
        return PP_OP_OK;
    if (off / 4u < nentries) {
        *val = top ? top_entry(sim, off / 4u) : cluster_entry(sim, b->idx, off / 4u);
        return PP_OP_OK;
    }
    /* Class 0x9: DEVARCH, DEVID FORMAT=0 (32-bit entries), DEVTYPE 0.
     * Class 0x1: MEMTYPE (0xFCC) 0, no system memory. */
    if (cls == 0x9 && off == 0xFBC)
        *val = ROM9_DEVARCH;
    return PP_OP_OK;
}

/*
 * soc.c - the simulated SoC: construction from a target description, the
 * APB address map, access dispatch, and target time.
 *
 * The address map is an array of 4 KB blocks sorted by base; an access
 * finds its block by binary search and costs no allocation.  Unmapped
 * addresses answer with an error response, as the interconnect's default
 * slave does.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "errmsg.h"
#include "sim/sim_internal.h"

static void block_name(const struct pp_sim *sim, const struct sim_block *b, char *buf, size_t len)
{
    static const char *const kind[] = { "top ROM table", "ROM table", "debug", "PMU", "CTI" };

    if (b->kind == BLK_ROM_TOP)
        snprintf(buf, len, "%s", kind[b->kind]);
    else if (b->kind == BLK_ROM_CLUSTER)
        snprintf(buf, len, "cluster %u %s", sim->t.clusters[b->idx].id, kind[b->kind]);
    else
        snprintf(buf, len, "cpu%u %s", sim->t.cores[b->idx].cpu, kind[b->kind]);
}

static int cmp_block(const void *a, const void *b)
{
    uint32_t x = ((const struct sim_block *)a)->base, y = ((const struct sim_block *)b)->base;

    return x < y ? -1 : x > y;
}

static int add_block(struct pp_sim *sim, uint32_t base, unsigned kind, unsigned idx,
                     char *err, size_t errlen)
{
    struct sim_block *b = &sim->blocks[sim->nblocks];
    char name[48];

    b->base = base;
    b->kind = (uint8_t)kind;
    b->idx = (uint16_t)idx;
    if (base & 0xFFFu) {
        block_name(sim, b, name, sizeof(name));
        pp_errmsg(err, errlen, "%s at 0x%08X is not 4 KB aligned", name, base);
        return PP_E_INVAL;
    }
    sim->nblocks++;
    return PP_OK;
}

static int check_overlaps(struct pp_sim *sim, char *err, size_t errlen)
{
    char a[48], b[48];

    qsort(sim->blocks, sim->nblocks, sizeof(sim->blocks[0]), cmp_block);
    for (unsigned i = 1; i < sim->nblocks; i++) {
        if (sim->blocks[i].base != sim->blocks[i - 1].base)
            continue;
        block_name(sim, &sim->blocks[i - 1], a, sizeof(a));
        block_name(sim, &sim->blocks[i], b, sizeof(b));
        pp_errmsg(err, errlen, "%s and %s both at 0x%08X", a, b, sim->blocks[i].base);
        return PP_E_INVAL;
    }
    return PP_OK;
}

static int check_class(uint8_t cls, const char *what, char *err, size_t errlen)
{
    if (cls == 0x1 || cls == 0x9)
        return PP_OK;
    pp_errmsg(err, errlen, "%s has ROM table class 0x%X; expected 0x1 or 0x9", what, cls);
    return PP_E_INVAL;
}

static int check_core(const struct pp_target *t, unsigned i, char *err, size_t errlen)
{
    const struct pp_core_desc *d = &t->cores[i];

    if (!d->type) {
        pp_errmsg(err, errlen, "cpu%u has no core type", d->cpu);
        return PP_E_INVAL;
    }
    if (d->cluster >= t->nclusters || d->slot >= t->clusters[d->cluster].slots) {
        pp_errmsg(err, errlen, "cpu%u: cluster %u slot %u does not exist", d->cpu, d->cluster, d->slot);
        return PP_E_INVAL;
    }
    if (d->counters > SIM_MAX_EVCNT) {
        pp_errmsg(err, errlen, "cpu%u: %u counters; at most %u", d->cpu, d->counters, SIM_MAX_EVCNT);
        return PP_E_INVAL;
    }
    for (unsigned j = 0; j < i; j++)
        if (t->cores[j].cluster == d->cluster && t->cores[j].slot == d->slot) {
            pp_errmsg(err, errlen, "cpu%u and cpu%u share cluster %u slot %u",
                 t->cores[j].cpu, d->cpu, d->cluster, d->slot);
            return PP_E_INVAL;
        }
    return PP_OK;
}

static int check_target(const struct pp_target *t, char *err, size_t errlen)
{
    int rc;

    if (t->ncores > PP_MAX_CORES || t->nclusters > PP_MAX_CLUSTERS) {
        pp_errmsg(err, errlen, "too many cores or clusters");
        return PP_E_INVAL;
    }
    if ((rc = check_class(t->rom_class, "the top ROM table", err, errlen)) != PP_OK)
        return rc;
    for (unsigned i = 0; i < t->nclusters; i++)
        if ((rc = check_class(t->clusters[i].rom_class, "a cluster ROM table", err, errlen)) != PP_OK)
            return rc;
    for (unsigned i = 0; i < t->ncores; i++)
        if ((rc = check_core(t, i, err, errlen)) != PP_OK)
            return rc;
    return PP_OK;
}

static int build_map(struct pp_sim *sim, char *err, size_t errlen)
{
    const struct pp_target *t = &sim->t;
    int rc = add_block(sim, t->rom_base, BLK_ROM_TOP, 0, err, errlen);

    for (unsigned i = 0; rc == PP_OK && i < t->nclusters; i++)
        rc = add_block(sim, t->clusters[i].rom_base, BLK_ROM_CLUSTER, i, err, errlen);
    for (unsigned i = 0; rc == PP_OK && i < t->ncores; i++) {
        const struct pp_core_desc *d = &t->cores[i];

        rc = add_block(sim, d->debug_base, BLK_DEBUG, i, err, errlen);
        if (rc == PP_OK)
            rc = add_block(sim, d->pmu_base, BLK_PMU, i, err, errlen);
        if (rc == PP_OK && d->cti_base)
            rc = add_block(sim, d->cti_base, BLK_CTI, i, err, errlen);
    }
    return rc == PP_OK ? check_overlaps(sim, err, errlen) : rc;
}

struct pp_sim *pp_sim_new(const struct pp_target *t, char *err, size_t errlen)
{
    struct pp_sim *sim;

    if (!t) {
        pp_errmsg(err, errlen, "no target");
        return NULL;
    }
    if (check_target(t, err, errlen) != PP_OK)
        return NULL;
    sim = calloc(1, sizeof(*sim));
    if (!sim) {
        pp_errmsg(err, errlen, "out of memory");
        return NULL;
    }
    sim->t = *t;
    sim->cores = calloc(t->ncores ? t->ncores : 1, sizeof(*sim->cores));
    sim->blocks = calloc(1 + t->nclusters + 3u * t->ncores, sizeof(*sim->blocks));
    if (!sim->cores || !sim->blocks) {
        pp_errmsg(err, errlen, "out of memory");
        pp_sim_free(sim);
        return NULL;
    }
    if (build_map(sim, err, errlen) != PP_OK) {
        pp_sim_free(sim);
        return NULL;
    }
    for (unsigned i = 0; i < t->ncores; i++)
        sim_core_init(&sim->cores[i], &sim->t.cores[i]);
    sim->next_fault_ns = UINT64_MAX;
    sim->start_ns = pp_mono_ns();
    return sim;
}

void pp_sim_free(struct pp_sim *sim)
{
    if (!sim)
        return;
    free(sim->cores);
    free(sim->blocks);
    free(sim->err_addrs);
    free(sim->timed);
    free(sim);
}

const struct pp_target *pp_sim_target(const struct pp_sim *sim)
{
    return &sim->t;
}

struct sim_core *sim_core_by_cpu(struct pp_sim *sim, unsigned cpu)
{
    for (unsigned i = 0; i < sim->t.ncores; i++)
        if (sim->t.cores[i].cpu == cpu)
            return &sim->cores[i];
    return NULL;
}

/* ---- time ------------------------------------------------------------------- */

uint64_t sim_now(struct pp_sim *sim)
{
    uint64_t now;

    if (sim->t.time_mode != PP_TIME_REALTIME)
        return sim->now_ns;
    if (sim->held)
        return sim->held_ns;
    now = pp_mono_ns();
    return now > sim->start_ns ? now - sim->start_ns : 0;
}

/* An in-process batch's accesses are one instant of real-time target
 * time: they take well under a microsecond, and reading the clock for
 * each (two or three times an access) was a quarter of an in-process
 * sample's cost.  Deterministic time still moves per access. */
void pp_sim_hold_time(struct pp_sim *sim, bool hold)
{
    sim->held = false;
    if (hold)
        sim->held_ns = sim_now(sim);
    sim->held = hold;
}

uint64_t pp_sim_now_ns(struct pp_sim *sim)
{
    return sim_now(sim);
}

/* Real-time mode follows the clock alone; the call does nothing there. */
void pp_sim_advance_ns(struct pp_sim *sim, uint64_t ns)
{
    if (sim->t.time_mode != PP_TIME_REALTIME)
        sim->now_ns += ns;
}

/* ---- APB access ----------------------------------------------------------------- */

static const struct sim_block *find_block(const struct pp_sim *sim, uint32_t base)
{
    unsigned lo = 0, hi = sim->nblocks;

    while (lo < hi) {
        unsigned mid = lo + (hi - lo) / 2;

        if (sim->blocks[mid].base == base)
            return &sim->blocks[mid];
        if (sim->blocks[mid].base < base)
            lo = mid + 1;
        else
            hi = mid;
    }
    return NULL;
}

static bool addr_in_error(const struct pp_sim *sim, uint32_t addr)
{
    unsigned lo = 0, hi = sim->nerr;

    while (lo < hi) {
        unsigned mid = lo + (hi - lo) / 2;

        if (sim->err_addrs[mid] == addr)
            return true;
        if (sim->err_addrs[mid] < addr)
            lo = mid + 1;
        else
            hi = mid;
    }
    return false;
}

/* The access happens at the end of its slot: time first moves by
 * access_ns (deterministic mode), then the block sees the access. */
static int apb_access(struct pp_sim *sim, uint32_t addr, bool write, uint32_t wval, uint32_t *rval)
{
    const struct sim_block *b;
    struct sim_core *c;
    uint32_t off = addr & 0xFFCu;       /* APB ignores PADDR[1:0] */

    if (sim->t.time_mode != PP_TIME_REALTIME)
        sim->now_ns += sim->t.access_ns;
    sim_poll_faults(sim);
    *rval = 0;
    if (sim->nerr && addr_in_error(sim, addr & ~3u))
        return PP_OP_SLVERR;
    b = find_block(sim, addr & ~0xFFFu);
    if (!b)
        return PP_OP_SLVERR;
    if (b->kind == BLK_ROM_TOP || b->kind == BLK_ROM_CLUSTER)
        return write ? PP_OP_OK : sim_rom_read(sim, b, off, rval);
    c = &sim->cores[b->idx];
    sim_core_tick(c, sim_now(sim));
    switch (b->kind) {
    case BLK_DEBUG:
        return write ? sim_debug_write(sim, c, off, wval) : sim_debug_read(sim, c, off, rval);
    case BLK_PMU:
        return write ? sim_pmu_write(sim, c, off, wval) : sim_pmu_read(sim, c, off, rval);
    default:
        return write ? PP_OP_OK : sim_cti_read(sim, c, off, rval);
    }
}

int pp_sim_apb_read(struct pp_sim *sim, uint32_t addr, uint32_t *val)
{
    int rc = apb_access(sim, addr, false, 0, val);

    sim->stats.reads++;
    if (rc != PP_OP_OK) {
        sim->stats.errors++;
        *val = 0;
    }
    return rc;
}

int pp_sim_apb_write(struct pp_sim *sim, uint32_t addr, uint32_t val)
{
    uint32_t dummy;
    int rc = apb_access(sim, addr, true, val, &dummy);

    sim->stats.writes++;
    if (rc != PP_OP_OK)
        sim->stats.errors++;
    return rc;
}

void pp_sim_get_stats(const struct pp_sim *sim, struct pp_sim_stats *out)
{
    *out = sim->stats;
}

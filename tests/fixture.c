/*
 * fixture.c - see fixture.h.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "adi/adi.h"
#include "link/simpins.h"
#include "sim/jtag.h"
#include "fixture.h"

struct pp_target *fx_target(const char *name, uint32_t rom, uint8_t cls, uint16_t part,
                            uint32_t access_ns)
{
    struct pp_target *t = calloc(1, sizeof(*t));

    ck_assert_ptr_nonnull(t);
    snprintf(t->name, sizeof(t->name), "%s", name);
    t->dp_idcode = 0x4BA00477u;
    t->ap_idr = 0x54770002u;
    t->rom_base = rom;
    t->rom_class = cls;
    t->rom_part = part;
    t->time_mode = PP_TIME_DETERMINISTIC;
    t->access_ns = access_ns;
    return t;
}

void fx_add_cluster(struct pp_target *t, uint32_t rom, uint8_t cls, uint16_t part,
                    unsigned slots)
{
    struct pp_cluster_desc *c = &t->clusters[t->nclusters];

    ck_assert_uint_lt(t->nclusters, PP_MAX_CLUSTERS);
    c->id = t->nclusters++;
    c->rom_base = rom;
    c->rom_class = cls;
    c->rom_part = part;
    c->slots = slots;
}

struct pp_core_desc *fx_add_core(struct pp_target *t, const char *type, unsigned cluster,
                                 unsigned slot, uint32_t debug, uint32_t pmu, uint32_t cti,
                                 uint64_t mpidr, const struct pp_workload *wl)
{
    struct pp_core_desc *c = &t->cores[t->ncores];

    ck_assert_uint_lt(t->ncores, PP_MAX_CORES);
    c->cpu = t->ncores++;
    c->cluster = cluster;
    c->slot = slot;
    c->type = pp_core_type_find(type);
    ck_assert_msg(c->type != NULL, "core type %s missing", type);
    c->debug_base = debug;
    c->pmu_base = pmu;
    c->cti_base = cti;
    c->mpidr = mpidr;
    c->counters = c->type->counters;
    c->snapshot = c->type->snapshot;
    c->pcsample = c->type->pcsample;
    c->init = (struct pp_core_init){ .powered = true, .auth = PP_AUTH_ALL, .os_unlock_us = -1 };
    c->wl = *wl;
    c->wl.seed = wl->seed + c->cpu;
    return c;
}

void fx_rig_build(struct fx_rig *r, struct pp_target *t)
{
    char err[256] = "";

    r->t = t;
    r->sim = pp_sim_new(t, err, sizeof(err));
    ck_assert_msg(r->sim != NULL, "pp_sim_new(%s): %s", t->name, err);
    r->bus = pp_bus_sim_new(r->sim);
    ck_assert_ptr_nonnull(r->bus);
}

void fx_rig_parse(struct fx_rig *r, const char *text)
{
    char err[256] = "";
    struct pp_target *t = NULL;

    ck_assert_msg(pp_target_parse(text, "t", &t, err, sizeof(err)) == PP_OK, "%s", err);
    fx_rig_build(r, t);
}

void fx_rig_down(struct fx_rig *r)
{
    pp_bus_close(r->bus);
    pp_sim_free(r->sim);
    pp_target_free(r->t);
    memset(r, 0, sizeof(*r));
}

struct pp_simjtag *fx_simjtag(struct pp_sim *sim)
{
    char err[256] = "";
    struct pp_simjtag *j = pp_simjtag_new(sim, err, sizeof(err));

    ck_assert_msg(j != NULL, "pp_simjtag_new: %s", err);
    return j;
}

struct pp_bus *fx_adi_bus(struct pp_simjtag *j, const struct pp_target *t,
                          const unsigned *tdo, unsigned ntdo, const unsigned *tdi,
                          unsigned ntdi, struct pp_link **lnk)
{
    char err[512] = "";
    struct pp_link *l = pp_link_simpins_new(j, tdo, ntdo, tdi, ntdi, err, sizeof(err));
    struct pp_bus *b;

    ck_assert_msg(l != NULL, "pp_link_simpins_new: %s", err);
    b = pp_bus_adi_new(l, t, err, sizeof(err));
    ck_assert_msg(b != NULL, "pp_bus_adi_new: %s", err);
    if (lnk)
        *lnk = l;
    return b;
}

void fx_ipc_meta(struct pp_cap_meta *m, unsigned ncores, uint64_t interval_ns,
                 uint64_t start_ns)
{
    memset(m, 0, sizeof(*m));
    snprintf(m->target, sizeof(m->target), "hand-made");
    snprintf(m->probe, sizeof(m->probe), "sim");
    m->interval_ns = interval_ns;
    m->start_mono_ns = start_ns;
    m->ncores = ncores;
    m->nvals = 2 * ncores;
    for (unsigned k = 0; k < ncores; k++) {
        struct pp_cap_core *c = &m->core[k];

        c->cpu = k;
        snprintf(c->type, sizeof(c->type), "cortex-a76");
        c->nev = 2;
        snprintf(c->ev[0].name, sizeof(c->ev[0].name), "cycles");
        snprintf(c->ev[0].mnemonic, sizeof(c->ev[0].mnemonic), "CPU_CYCLES");
        c->ev[0].code = 0x11;
        c->ev[0].counter = 31;
        snprintf(c->ev[1].name, sizeof(c->ev[1].name), "instructions");
        snprintf(c->ev[1].mnemonic, sizeof(c->ev[1].mnemonic), "INST_RETIRED");
        c->ev[1].code = 0x08;
        c->first = 2 * k;
        c->nmetrics = 1;
        c->metric[0] = (struct pp_cap_metric){ .name = "IPC", .num = 1, .den = 0, .scale = 1.0 };
    }
}

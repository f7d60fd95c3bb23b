/*
 * resolve.c - turns what parse.c gathered into a struct pp_target: applies
 * the defaults (man/pmuprobe-target.5, DEFAULTS) and runs the checks that
 * need the whole description: required keys, clusters and slots, 4 KB
 * alignment and overlapping blocks.  The first problem found is reported,
 * with the line of the key (or section) it comes from.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pmu/catalog.h"
#include "target/keys.h"

/* Defaults of [soc].  The top ROM part is ours: 0x4D0 is no Arm part in the
 * lists of spec/arm-pmu-coresight.md 5.4 (nor OpenOCD's), so a tool never
 * mistakes the SoC table for a cluster's.  IDCODE 0x4BA00477 is an ADIv5
 * JTAG-DP (spec 7.1), APB-AP IDR 0x54770002 a CoreSight SoC-400 APB-AP
 * (spec 7.3). */
#define DEF_DP_IDCODE   0x4BA00477u
#define DEF_AP_IDR      0x54770002u
/* TARGETID: TPARTNO 0, TDESIGNER Arm (JEP106 0x4, 0x3B), bit 0 set
 * (spec/cmsis-dap-swd.md 4.6). */
#define DEF_DP_TARGETID 0x00000477u
#define DEF_SOC_ROMPART 0x4D0u
#define DEF_ACCESS_NS   1000u
#define DEF_OS_UNLOCK   100

/* Offsets of the v8 memory map, spec 8.1: CTI = debug + 0x10000, PMU =
 * debug + 0x20000; Armv7: PMU = debug + 0x1000 (spec 4.2). */
#define V8_CTI_OFF 0x10000u
#define V8_PMU_OFF 0x20000u
#define V7_PMU_OFF 0x1000u

struct block {
    uint32_t addr;
    unsigned line;
    const char *key;          /* "debug" */
    bool dflt;                /* address came from a default */
    char owner[24];           /* "core 2", "cluster 0", "soc" */
    const char *what;         /* "debug block" */
};

static const struct tk_val *val(const struct tk_val *v, enum tk_id id)
{
    return v[id].set ? &v[id] : NULL;
}

static unsigned line_of(const struct tk_val *v, enum tk_id id, unsigned fallback)
{
    return v[id].set ? v[id].line : fallback;
}

static const char *arch_name(const struct pp_core_type *ct)
{
    return ct->arch == PP_ARCH_V7 ? "Armv7" : "Armv8";
}

/* ---- [soc] ------------------------------------------------------------ */

static void default_name(struct tk_state *st)
{
    const char *base = strrchr(st->name, '/');
    size_t n;

    base = base ? base + 1 : st->name;
    n = strlen(base);
    if (n > 7 && strcmp(base + n - 7, ".target") == 0)
        n -= 7;
    if (n >= sizeof(st->t->name))
        n = sizeof(st->t->name) - 1;
    memcpy(st->t->name, base, n);
    st->t->name[n] = '\0';
}

/*
 * jtag.chain builds the simulator's chain, so every TAP but the DAP needs
 * its IR length and its IDCODE (the first of several alternatives is the
 * one served; "none" for a TAP that shows BYPASS after reset).  The DAP's
 * own TAP is the JTAG-DP: IDCODE dp.idcode, IR 4 bits capturing 0001.
 */
static int resolve_chain(struct tk_state *st)
{
    const struct pp_jtag_chain *c = &st->t->jtag;
    unsigned line = st->soc[K_JTAG_CHAIN].line;

    for (unsigned i = 0; i < c->n; i++) {
        const struct pp_jtag_chain_tap *tp = &c->tap[i];

        if (tp->dap && (tp->irlen || tp->nids || tp->no_idcode || tp->ircapture_set))
            return tk_fail(st, line, "soc: jtag.chain: 'dap' takes no options here (its "
                           "IDCODE is dp.idcode, its IR 4 bits capturing 0001)");
        if (tp->dap)
            continue;
        if (!tp->irlen)
            return tk_fail(st, line, "soc: jtag.chain: TAP '%s' has no irlen (expected "
                           "%s:irlen=N: the simulator builds it)", tp->name, tp->name);
        if (!tp->nids && !tp->no_idcode)
            return tk_fail(st, line, "soc: jtag.chain: TAP '%s' has no idcode (expected "
                           "%s:idcode=ID, or idcode=none for a TAP in BYPASS after reset)",
                           tp->name, tp->name);
    }
    return PP_OK;
}

static int resolve_soc(struct tk_state *st)
{
    struct pp_target *t = st->t;
    const struct tk_val *v = st->soc;

    if (!val(v, K_ROM_BASE))
        return tk_fail(st, st->soc_line, "soc: missing 'rom.base' (required: the address "
                       "of the top-level ROM table, as the AP's BASE register gives it)");
    if (t->name[0] == '\0')
        default_name(st);
    t->dp_idcode = val(v, K_DP_IDCODE) ? (uint32_t)v[K_DP_IDCODE].i : DEF_DP_IDCODE;
    if (!(t->dp_idcode & 1u))
        return tk_fail(st, v[K_DP_IDCODE].line, "soc: 'dp.idcode' = 0x%08X has bit 0 clear "
                       "(expected an IDCODE with bit 0 set, as IEEE 1149.1 requires)",
                       t->dp_idcode);
    t->dp_kind = val(v, K_DP) ? (enum pp_dp_kind)v[K_DP].i : PP_DP_JTAG;
    t->dp_targetid = val(v, K_DP_TARGETID) ? (uint32_t)v[K_DP_TARGETID].i : DEF_DP_TARGETID;
    if (!(t->dp_targetid & 1u))
        return tk_fail(st, v[K_DP_TARGETID].line, "soc: 'dp.targetid' = 0x%08X has bit 0 clear "
                       "(expected a TARGETID with bit 0 set, as ADIv5.2 requires)",
                       t->dp_targetid);
    t->ap_index = val(v, K_AP_INDEX) ? (unsigned)v[K_AP_INDEX].i : 0;
    t->ap_idr = val(v, K_AP_IDR) ? (uint32_t)v[K_AP_IDR].i : DEF_AP_IDR;
    t->rom_base = (uint32_t)v[K_ROM_BASE].i;
    t->rom_class = val(v, K_ROM_CLASS) ? (uint8_t)v[K_ROM_CLASS].i : 1;
    t->rom_part = val(v, K_ROM_PART) ? (uint16_t)v[K_ROM_PART].i : DEF_SOC_ROMPART;
    t->time_mode = val(v, K_TIME) ? (enum pp_time_mode)v[K_TIME].i : PP_TIME_DETERMINISTIC;
    t->access_ns = val(v, K_TIME_ACCESS_NS) ? (uint32_t)v[K_TIME_ACCESS_NS].i : DEF_ACCESS_NS;
    return resolve_chain(st);
}

/* ---- [core ...] ------------------------------------------------------- */

static int core_int(struct tk_state *st, const struct tk_entity *e, enum tk_id id,
                    int64_t dflt, int64_t *out)
{
    const struct tk_val *v = &e->v[id];
    const struct tk_def *def = tk_key_by_id(id);

    if (!v->set) {
        *out = dflt;
        return PP_OK;
    }
    if (!tk_int_at(v, e->id, out))
        return tk_fail(st, v->line, "core %u: '%s' = %lld %+lld per cpu is too large for "
                       "this core (expected %s)", e->id, def->name, (long long)v->i,
                       (long long)v->istep, def->expect);
    if (*out < def->min || *out > def->max)
        return tk_fail(st, v->line, "core %u: '%s' works out to %lld (0x%llX) for this "
                       "core, out of range (expected %s)", e->id, def->name, (long long)*out,
                       (unsigned long long)*out, def->expect);
    return PP_OK;
}

static int core_float(struct tk_state *st, const struct tk_entity *e, enum tk_id id,
                      double dflt, double *out)
{
    const struct tk_val *v = &e->v[id];
    const struct tk_def *def = tk_key_by_id(id);

    *out = v->set ? tk_float_at(v, e->id) : dflt;
    if (v->set && (*out < def->fmin || *out > def->fmax))
        return tk_fail(st, v->line, "core %u: '%s' works out to %g for this core, out of "
                       "range (expected %s)", e->id, def->name, *out, def->expect);
    return PP_OK;
}

static bool core_bool(const struct tk_entity *e, enum tk_id id, bool dflt)
{
    return e->v[id].set ? e->v[id].i != 0 : dflt;
}

static void list_clusters(const struct tk_state *st, char *buf, size_t len)
{
    size_t used = 0;

    buf[0] = '\0';
    for (unsigned i = 0; i < st->ncl; i++) {
        int w = snprintf(buf + used, len - used, "%s%u", i ? ", " : "", st->cl[i].id);
        if (w > 0 && (size_t)w < len - used)
            used += (size_t)w;
    }
    if (st->ncl == 0)
        snprintf(buf, len, "none");
}

static int core_cluster(struct tk_state *st, const struct tk_entity *e, struct pp_core_desc *c)
{
    int64_t id;
    char known[80];
    int rc = core_int(st, e, K_CLUSTER, 0, &id);

    if (rc != PP_OK)
        return rc;
    for (unsigned i = 0; i < st->ncl; i++)
        if (st->cl[i].id == (unsigned)id) {
            c->cluster = i;
            return PP_OK;
        }
    list_clusters(st, known, sizeof(known));
    if (e->v[K_CLUSTER].set)
        return tk_fail(st, e->v[K_CLUSTER].line, "core %u: 'cluster' = %lld names a cluster "
                       "that is not defined (defined: %s; add a [cluster %lld] section)",
                       e->id, (long long)id, known, (long long)id);
    return tk_fail(st, e->line, "core %u: cluster 0 (the default) is not defined (defined: "
                   "%s; add a [cluster 0] section or set 'cluster')", e->id, known);
}

static int core_blocks(struct tk_state *st, const struct tk_entity *e, struct pp_core_desc *c)
{
    const struct pp_core_type *ct = c->type;
    bool v7 = ct->arch == PP_ARCH_V7;
    int64_t debug, pmu, cti;
    int rc;

    if (!e->v[K_DEBUG].set)
        return tk_fail(st, e->line, "core %u: missing 'debug' (required: the address of "
                       "the core's external debug block)", e->id);
    if (v7 && !e->v[K_CTI].set)
        return tk_fail(st, e->line, "core %u: missing 'cti' (required on %s cores such as "
                       "%s: their CTI has no fixed offset from the debug block)", e->id,
                       arch_name(ct), ct->pretty);
    rc = core_int(st, e, K_DEBUG, 0, &debug);
    if (rc == PP_OK)
        rc = core_int(st, e, K_PMU, debug + (v7 ? V7_PMU_OFF : V8_PMU_OFF), &pmu);
    if (rc == PP_OK)
        rc = core_int(st, e, K_CTI, debug + V8_CTI_OFF, &cti);
    if (rc != PP_OK)
        return rc;
    if (pmu > 0xFFFFFFFFll || cti > 0xFFFFFFFFll)
        return tk_fail(st, e->v[K_DEBUG].line, "core %u: the default %s block lies beyond "
                       "4 GB (expected a lower 'debug', or set '%s')", e->id,
                       pmu > 0xFFFFFFFFll ? "PMU" : "CTI", pmu > 0xFFFFFFFFll ? "pmu" : "cti");
    c->debug_base = (uint32_t)debug;
    c->pmu_base = (uint32_t)pmu;
    c->cti_base = (uint32_t)cti;
    return PP_OK;
}

/* A feature may be turned off on a core that has it, never on where the
 * core type lacks it: the simulator would model hardware that cannot exist. */
static int core_feature(struct tk_state *st, const struct tk_entity *e, const struct pp_core_desc *c,
                        enum tk_id id, bool has, bool dflt, const char *lack, bool *out)
{
    *out = core_bool(e, id, dflt);
    if (*out && !has)
        return tk_fail(st, e->v[id].line, "core %u: '%s' = yes but %s %s (expected no)",
                       e->id, tk_key_by_id(id)->name, c->type->pretty, lack);
    return PP_OK;
}

static int core_pmu(struct tk_state *st, const struct tk_entity *e, struct pp_core_desc *c)
{
    const struct pp_core_type *ct = c->type;
    int64_t n;
    int rc = core_int(st, e, K_COUNTERS, ct->counters, &n);

    if (rc != PP_OK)
        return rc;
    c->counters = (unsigned)n;
    /* 64-bit counters are a PMUv3p5 option: allowed on any PMUv3 core so the
     * tool's 64-bit path can be exercised, refused on PMUv2. */
    rc = core_feature(st, e, c, K_COUNTER64, ct->pmu_version >= 3, false,
                      "has a PMUv2 with 32-bit counters", &c->counter64);
    if (rc == PP_OK)
        rc = core_feature(st, e, c, K_SNAPSHOT, ct->snapshot, ct->snapshot,
                          "has no snapshot block", &c->snapshot);
    if (rc == PP_OK)
        rc = core_feature(st, e, c, K_PCSAMPLE, ct->pcsample, ct->pcsample,
                          "has no PC sampling (FEAT_PCSRv8p2)", &c->pcsample);
    return rc;
}

static int core_init(struct tk_state *st, const struct tk_entity *e, struct pp_core_desc *c)
{
    struct pp_core_init *in = &c->init;
    int64_t v = 0;
    int rc;

    in->powered = core_bool(e, K_POWER, true);
    in->oslock = core_bool(e, K_OSLOCK, false);
    in->halted = core_bool(e, K_HALTED, false);
    in->auth = e->v[K_AUTH].set ? (unsigned)e->v[K_AUTH].i : PP_AUTH_ALL;
    rc = core_feature(st, e, c, K_DOUBLELOCK, c->type->double_lock, false,
                      "has no OS Double Lock (FEAT_DoubleLock)", &in->doublelock);
    /* MDCR_EL3.EPMAD is Armv8 (spec 2.2): Armv7 gates external PMU access
     * by DBGEN/NIDEN alone. */
    if (rc == PP_OK)
        rc = core_feature(st, e, c, K_EPMAD, c->type->arch != PP_ARCH_V7, false,
                          "is Armv7 and has no EPMAD (MDCR_EL3 is Armv8)", &in->epmad);
    if (rc == PP_OK)
        rc = core_int(st, e, K_OS_UNLOCK_US, DEF_OS_UNLOCK, &v);
    in->os_unlock_us = (int32_t)v;
    return rc;
}

/* PMCEID2/3 exist with PMUv3p1 only (spec 1.3); on other cores they are
 * not registers the simulator could set bits in. */
static int sim_pmceid_regs(struct tk_state *st, const struct tk_entity *e,
                           const struct pp_core_desc *c, enum tk_id id)
{
    const struct tk_val *v = &e->v[id];

    if (!v->set || c->type->pmuv3p1 || !(v->ev[2] | v->ev[3]))
        return PP_OK;
    return tk_fail(st, v->line, "core %u: '%s' names an event from 0x4000 but %s has no "
                   "PMCEID2/3 (they come with PMUv3p1; expected events 0x00-0x3F)", e->id,
                   tk_key_by_id(id)->name, c->type->pretty);
}

/* The sim.* keys (struct pp_core_sim). */
static int core_sim(struct tk_state *st, const struct tk_entity *e, struct pp_core_desc *c)
{
    const struct tk_val *set = &e->v[K_SIM_PMCEID_SET], *clr = &e->v[K_SIM_PMCEID_CLEAR];
    struct pp_core_sim *sim = &c->sim;
    int64_t midr, n;
    int rc = core_int(st, e, K_SIM_MIDR, 0, &midr);

    if (rc == PP_OK)
        rc = core_int(st, e, K_SIM_COUNTERS, 0, &n);
    if (rc == PP_OK)
        rc = sim_pmceid_regs(st, e, c, K_SIM_PMCEID_SET);
    if (rc == PP_OK)
        rc = sim_pmceid_regs(st, e, c, K_SIM_PMCEID_CLEAR);
    if (rc != PP_OK)
        return rc;
    sim->midr_set = e->v[K_SIM_MIDR].set;
    sim->midr = (uint32_t)midr;
    sim->counters_set = e->v[K_SIM_COUNTERS].set;
    sim->counters = (unsigned)n;
    /* Unset lists are all zero (parse.c clears every value). */
    for (unsigned r = 0; r < 4; r++) {
        if (set->ev[r] & clr->ev[r])
            return tk_fail(st, set->line > clr->line ? set->line : clr->line, "core %u: "
                           "event 0x%04X is in both 'sim.pmceid.set' and 'sim.pmceid.clear' "
                           "(expected each event in one of them)", e->id,
                           (unsigned)pp_pmceid_code(r, (unsigned)__builtin_ctz(set->ev[r] &
                                                                              clr->ev[r])));
        sim->pmceid_set[r] = set->ev[r];
        sim->pmceid_clear[r] = clr->ev[r];
    }
    return PP_OK;
}

/* When one rate bounds another, say so against the later of the two keys. */
static int wl_pair(struct tk_state *st, const struct tk_entity *e, enum tk_id lo, double lov,
                   enum tk_id hi, double hiv)
{
    unsigned l1 = line_of(e->v, lo, e->line), l2 = line_of(e->v, hi, e->line);

    if (lov <= hiv)
        return PP_OK;
    return tk_fail(st, l1 > l2 ? l1 : l2, "core %u: '%s' = %g exceeds '%s' = %g (expected "
                   "misses not to outnumber accesses)", e->id, tk_key_by_id(lo)->name, lov,
                   tk_key_by_id(hi)->name, hiv);
}

static int core_workload(struct tk_state *st, const struct tk_entity *e, struct pp_core_desc *c)
{
    static const struct { enum tk_id id; size_t off; double dflt; } rates[] = {
        { K_WL_IPC,       offsetof(struct pp_workload, ipc),      1.0 },
        { K_WL_L1D_PKI,   offsetof(struct pp_workload, l1d_pki),  400 },
        { K_WL_L1D_MPKI,  offsetof(struct pp_workload, l1d_mpki), 12 },
        { K_WL_L1I_MPKI,  offsetof(struct pp_workload, l1i_mpki), 3 },
        { K_WL_L2D_PKI,   offsetof(struct pp_workload, l2d_pki),  20 },
        { K_WL_L2D_MPKI,  offsetof(struct pp_workload, l2d_mpki), 4 },
        { K_WL_BR_PKI,    offsetof(struct pp_workload, br_pki),   170 },
        { K_WL_BR_MPKI,   offsetof(struct pp_workload, br_mpki),  5 },
        { K_WL_TLB_MPKI,  offsetof(struct pp_workload, tlb_mpki), 1.5 },
        { K_WL_STALL_FE,  offsetof(struct pp_workload, stall_fe), 0.15 },
        { K_WL_STALL_BE,  offsetof(struct pp_workload, stall_be), 0.30 },
        { K_WL_SWING,     offsetof(struct pp_workload, swing),    0.2 },
    };
    /* Clock by generation: Armv7 parts ship near 1 GHz, v8.0 near 1.5 GHz,
     * DynamIQ (v8.2) cores at 2 GHz and more. */
    double clock = c->type->arch == PP_ARCH_V7 ? 1000 :
                   c->type->arch == PP_ARCH_V8_0 ? 1500 : 2000;
    struct pp_workload *w = &c->wl;
    int64_t v = 0;
    int rc = core_float(st, e, K_WL_CLOCK_MHZ, clock, &w->clock_mhz);

    for (size_t i = 0; rc == PP_OK && i < sizeof(rates) / sizeof(rates[0]); i++)
        rc = core_float(st, e, rates[i].id, rates[i].dflt,
                        (double *)(void *)((char *)w + rates[i].off));
    if (rc == PP_OK)
        rc = core_int(st, e, K_WL_PHASE_US, 20000, &v);
    w->phase_us = (uint32_t)v;
    if (rc == PP_OK)
        rc = core_int(st, e, K_WL_SEED, (int64_t)e->id + 1, &v);
    w->seed = (uint64_t)v;
    if (rc == PP_OK)
        rc = wl_pair(st, e, K_WL_L1D_MPKI, w->l1d_mpki, K_WL_L1D_PKI, w->l1d_pki);
    if (rc == PP_OK)
        rc = wl_pair(st, e, K_WL_L2D_MPKI, w->l2d_mpki, K_WL_L2D_PKI, w->l2d_pki);
    if (rc == PP_OK)
        rc = wl_pair(st, e, K_WL_BR_MPKI, w->br_mpki, K_WL_BR_PKI, w->br_pki);
    if (rc == PP_OK && w->stall_fe + w->stall_be > 1.0) {
        unsigned l1 = line_of(e->v, K_WL_STALL_FE, e->line);
        unsigned l2 = line_of(e->v, K_WL_STALL_BE, e->line);
        rc = tk_fail(st, l1 > l2 ? l1 : l2, "core %u: 'workload.stall_fe' + "
                     "'workload.stall_be' = %g (expected at most 1: they are fractions of "
                     "the same cycles)", e->id, w->stall_fe + w->stall_be);
    }
    return rc;
}

static int resolve_core(struct tk_state *st, const struct tk_entity *e, struct pp_core_desc *c)
{
    char known[256];
    int rc;

    c->cpu = e->id;
    c->line = e->line;
    if (!e->v[K_TYPE].set) {
        pp_core_type_names(known, sizeof(known));
        return tk_fail(st, e->line, "core %u: missing 'type' (required: a core type, or auto "
                       "to read it from the silicon; known: %s)", e->id, known);
    }
    c->type = e->v[K_TYPE].type;
    if (!c->type) {
        c->type_auto = true;
        c->type = st->types && st->types[e->id] ? st->types[e->id] : pp_core_type_generic();
    }
    rc = core_cluster(st, e, c);
    if (rc == PP_OK)
        rc = core_blocks(st, e, c);
    if (rc == PP_OK)
        rc = core_pmu(st, e, c);
    if (rc == PP_OK)
        rc = core_init(st, e, c);
    if (rc == PP_OK)
        rc = core_workload(st, e, c);
    if (rc == PP_OK)
        rc = core_sim(st, e, c);
    return rc;
}

/* ---- [cluster N]: slots, ROM table, affinity -------------------------- */

static int cluster_slots(struct tk_state *st, unsigned ci, const struct tk_entity *ce)
{
    struct pp_target *t = st->t;
    struct pp_cluster_desc *cl = &t->clusters[ci];
    const struct pp_core_desc *by_slot[256] = { NULL };
    unsigned order = 0, top = 0;

    /* Default slot: the core's order in its cluster, by cpu. */
    for (unsigned i = 0; i < t->ncores; i++) {
        struct pp_core_desc *c = &t->cores[i];
        int64_t s;
        int rc;

        if (c->cluster != ci)
            continue;
        rc = core_int(st, &st->co[i], K_SLOT, order++, &s);
        if (rc != PP_OK)
            return rc;
        c->slot = (unsigned)s;
        if (c->slot + 1 > top)
            top = c->slot + 1;
    }
    cl->slots = ce->v[K_SLOTS].set ? (unsigned)ce->v[K_SLOTS].i : (top > order ? top : order);
    for (unsigned i = 0; i < t->ncores; i++) {
        const struct pp_core_desc *c = &t->cores[i];
        unsigned line = line_of(st->co[i].v, K_SLOT, c->line);

        if (c->cluster != ci)
            continue;
        if (c->slot >= cl->slots)
            return tk_fail(st, line, "core %u: slot %u is beyond cluster %u's slots = %u "
                           "(expected 0..%u, or raise 'slots')", c->cpu, c->slot, cl->id,
                           cl->slots, cl->slots - 1);
        if (by_slot[c->slot])
            return tk_fail(st, line, "core %u: slot %u of cluster %u is already taken by "
                           "core %u (expected a free slot)", c->cpu, c->slot, cl->id,
                           by_slot[c->slot]->cpu);
        by_slot[c->slot] = c;
    }
    return PP_OK;
}

static int resolve_cluster(struct tk_state *st, unsigned ci)
{
    struct pp_target *t = st->t;
    const struct tk_entity *ce = &st->cl[ci];
    struct pp_cluster_desc *cl = &t->clusters[ci];
    const struct pp_core_desc *first = NULL;

    cl->id = ce->id;
    if (!ce->v[K_ROM_BASE].set)
        return tk_fail(st, ce->line, "cluster %u: missing 'rom.base' (required: the address "
                       "of the cluster's ROM table)", ce->id);
    for (unsigned i = 0; i < t->ncores && !first; i++)
        if (t->cores[i].cluster == ci)
            first = &t->cores[i];
    if (!first)
        return tk_fail(st, ce->line, "cluster %u has no cores (expected at least one [core] "
                       "with cluster = %u)", ce->id, ce->id);
    cl->rom_base = (uint32_t)ce->v[K_ROM_BASE].i;
    /* DynamIQ (Armv8.2) clusters carry a class 0x9 CoreSight ROM table,
     * older clusters a class 0x1 one (spec 6.2, 6.3). */
    cl->rom_class = ce->v[K_ROM_CLASS].set ? (uint8_t)ce->v[K_ROM_CLASS].i :
                    first->type->arch == PP_ARCH_V8_2 ? 9 : 1;
    cl->rom_part = ce->v[K_ROM_PART].set ? (uint16_t)ce->v[K_ROM_PART].i :
                   first->type->rom_part;
    return cluster_slots(st, ci, ce);
}

static int resolve_mpidr(struct tk_state *st)
{
    struct pp_target *t = st->t;

    for (unsigned i = 0; i < t->ncores; i++) {
        struct pp_core_desc *c = &t->cores[i];
        int64_t v;
        int rc = core_int(st, &st->co[i], K_MPIDR, 0x80000000ll |
                          (int64_t)t->clusters[c->cluster].id << 8 | c->slot, &v);
        if (rc != PP_OK)
            return rc;
        c->mpidr = (uint64_t)v;
        c->devaff_zero = core_bool(&st->co[i], K_DEVAFF_ZERO, false);
    }
    return PP_OK;
}

/* ---- addresses -------------------------------------------------------- */

static void add_block(struct block *b, unsigned *n, uint32_t addr, unsigned line,
                      const char *key, bool dflt, const char *owner, const char *what)
{
    struct block *x = &b[(*n)++];

    x->addr = addr;
    x->line = line;
    x->key = key;
    x->dflt = dflt;
    snprintf(x->owner, sizeof(x->owner), "%s", owner);
    x->what = what;
}

static unsigned collect_blocks(const struct tk_state *st, struct block *b)
{
    const struct pp_target *t = st->t;
    unsigned n = 0;
    char owner[24];

    add_block(b, &n, t->rom_base, st->soc[K_ROM_BASE].line, "rom.base", false, "soc",
              "top-level ROM table");
    for (unsigned i = 0; i < t->nclusters; i++) {
        snprintf(owner, sizeof(owner), "cluster %u", t->clusters[i].id);
        add_block(b, &n, t->clusters[i].rom_base, st->cl[i].v[K_ROM_BASE].line, "rom.base",
                  false, owner, "ROM table");
    }
    for (unsigned i = 0; i < t->ncores; i++) {
        const struct pp_core_desc *c = &t->cores[i];
        const struct tk_val *v = st->co[i].v;
        unsigned dl = v[K_DEBUG].line;

        snprintf(owner, sizeof(owner), "core %u", c->cpu);
        add_block(b, &n, c->debug_base, dl, "debug", false, owner, "debug block");
        add_block(b, &n, c->pmu_base, line_of(v, K_PMU, dl), "pmu", !v[K_PMU].set, owner,
                  "PMU block");
        add_block(b, &n, c->cti_base, line_of(v, K_CTI, dl), "cti", !v[K_CTI].set, owner,
                  "CTI block");
    }
    return n;
}

static int by_addr_then_line(const void *a, const void *b)
{
    const struct block *x = a, *y = b;

    if (x->addr != y->addr)
        return x->addr < y->addr ? -1 : 1;
    return (x->line > y->line) - (x->line < y->line);
}

static int check_blocks(struct tk_state *st)
{
    struct block *b = calloc(1 + PP_MAX_CLUSTERS + 3 * PP_MAX_CORES, sizeof(*b));
    unsigned n;
    int rc = PP_OK;

    if (!b)
        return PP_E_NOMEM;
    n = collect_blocks(st, b);
    for (unsigned i = 0; i < n && rc == PP_OK; i++)
        if (b[i].addr & 0xFFFu)
            rc = tk_fail(st, b[i].line, "%s: '%s' = 0x%08X%s is not 4 KB aligned (expected "
                         "a multiple of 0x1000)", b[i].owner, b[i].key, b[i].addr,
                         b[i].dflt ? " (the default)" : "");
    if (rc == PP_OK)
        qsort(b, n, sizeof(*b), by_addr_then_line);
    /* All blocks are 4 KB and aligned, so two overlap only when equal. */
    for (unsigned i = 1; i < n && rc == PP_OK; i++)
        if (b[i].addr == b[i - 1].addr)
            rc = tk_fail(st, b[i].line, "%s: '%s' = 0x%08X%s overlaps %s's %s at the same "
                         "address (expected every ROM table, debug, PMU and CTI block in a "
                         "4 KB of its own)", b[i].owner, b[i].key, b[i].addr,
                         b[i].dflt ? " (the default)" : "", b[i - 1].owner, b[i - 1].what);
    free(b);
    return rc;
}

/* ---- the whole ---------------------------------------------------------- */

static int by_id(const void *a, const void *b)
{
    const struct tk_entity *x = a, *y = b;

    return (x->id > y->id) - (x->id < y->id);
}

int tk_resolve(struct tk_state *st)
{
    struct pp_target *t = st->t;
    int rc;

    if (!st->have_soc)
        return tk_fail(st, 1, "no [soc] section (expected exactly one, with at least "
                       "rom.base)");
    if (st->nco == 0)
        return tk_fail(st, st->last_line, "no cores (expected at least one [core N] "
                       "section)");
    rc = resolve_soc(st);
    if (rc != PP_OK)
        return rc;
    qsort(st->cl, st->ncl, sizeof(st->cl[0]), by_id);
    qsort(st->co, st->nco, sizeof(st->co[0]), by_id);
    t->nclusters = st->ncl;
    t->ncores = st->nco;
    for (unsigned i = 0; i < st->nco && rc == PP_OK; i++)
        rc = resolve_core(st, &st->co[i], &t->cores[i]);
    for (unsigned i = 0; i < st->ncl && rc == PP_OK; i++)
        rc = resolve_cluster(st, i);
    if (rc == PP_OK)
        rc = resolve_mpidr(st);
    if (rc == PP_OK)
        rc = check_blocks(st);
    return rc;
}

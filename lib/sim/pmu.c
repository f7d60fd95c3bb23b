/*
 * pmu.c - the PMU block of a simulated core: the PMUv3 FEAT_PMUv3_EXT32
 * view (spec 1.1) for Armv8 cores and the PMUv2 memory-mapped view (spec
 * 4.1) for Armv7 cores, with the Cortex-A55/A76 IMP DEF snapshot block
 * (spec 1.4) and PC sampling (spec 1.1, PMPCSR).
 *
 * Access conditions, in the architecture's order (spec 2.1, 2.6): core
 * off, double lock, OS lock, AllowExternalPMUAccess() (which sets
 * EDPRSR.SPMAD when it is the deciding condition).  PC-sample registers
 * ignore EPMAD; snapshot registers only obey off and double lock;
 * management registers 0xF00-0xFFC always answer.
 *
 * Reserved offsets below 0xF00 read 0 and ignore writes (spec 2.3, RES0
 * policy) while the core domain is reachable; with the core off or double
 * locked they answer with an error like their neighbours (a permitted
 * CONSTRAINED UNPREDICTABLE choice).
 */
#include <string.h>

#include "pmu/regs.h"
#include "sim/sim_internal.h"

#define PMCR_D  (1u << 3)
#define PMCR_X  (1u << 4)
#define PMCR_DP (1u << 5)
#define PMCR_LP (1u << 7)

#define PMDEVARCH_V3  0x47702A16u
#define PMDEVTYPE     0x16u

enum gate {
    G_CORE,         /* Off, DLK, OSLK, EPMAD */
    G_NOEPMAD,      /* Off, DLK, OSLK (PC sample group) */
    G_SNAP,         /* Off, DLK (IMP DEF snapshot, and reserved offsets) */
};

enum preg {
    R_RES, R_EVCNT_LO, R_EVCNT_HI, R_CCNT_LO, R_CCNT_HI,
    R_PCSR_LO, R_PCSR_HI, R_PCS_CID1, R_PCS_VID, R_PCS_CID2,
    R_EVTYPER, R_CCFILTR, R_SS, R_SSCR,
    R_CNTENSET, R_CNTENCLR, R_INTENSET, R_INTENCLR, R_OVSCLR, R_SWINC, R_OVSSET,
    R_CFGR, R_PMCR, R_USERENR, R_CEID, R_MMIR,
};

struct preg_ref {
    uint8_t id;     /* enum preg */
    uint8_t idx;    /* counter or PMCEID number */
    uint8_t gate;   /* enum gate */
};

static bool is_v3(const struct sim_core *c)
{
    return c->type->pmu_version >= 3;
}

static struct preg_ref ref(unsigned id, unsigned idx, unsigned gate)
{
    struct preg_ref r = { (uint8_t)id, (uint8_t)idx, (uint8_t)gate };

    return r;
}

/* 0xC00-0xE2C: the same offsets in both views. */
static bool classify_common(uint32_t off, struct preg_ref *r)
{
    static const struct { uint16_t off; uint8_t id; } map[] = {
        { PP_PMU_PMCNTENSET, R_CNTENSET }, { PP_PMU_PMCNTENCLR, R_CNTENCLR },
        { PP_PMU_PMINTENSET, R_INTENSET }, { PP_PMU_PMINTENCLR, R_INTENCLR },
        { PP_PMU_PMOVSCLR, R_OVSCLR },     { PP_PMU_PMSWINC, R_SWINC },
        { PP_PMU_PMOVSSET, R_OVSSET },     { PP_PMU_PMCFGR, R_CFGR },
        { PP_PMU_PMCR, R_PMCR },
    };

    for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++)
        if (map[i].off == off) {
            *r = ref(map[i].id, 0, G_CORE);
            return true;
        }
    if (off == PP_PMU_PMCEID(0) || off == PP_PMU_PMCEID(1)) {
        *r = ref(R_CEID, (off - PP_PMU_PMCEID(0)) / 4u, G_CORE);
        return true;
    }
    return false;
}

static struct preg_ref classify_v3(const struct sim_core *c, uint32_t off)
{
    struct preg_ref r = ref(R_RES, 0, G_SNAP);

    if (off < 0x100) {
        unsigned n = off / 8u;
        bool hi = (off & 4u) != 0;

        if (n == SIM_CCNT)
            return ref(hi ? R_CCNT_HI : R_CCNT_LO, SIM_CCNT, G_CORE);
        if (n < c->ncnt && (!hi || c->desc->counter64))
            return ref(hi ? R_EVCNT_HI : R_EVCNT_LO, n, G_CORE);
        return r;
    }
    if (c->desc->pcsample && off >= 0x200 && off < 0x230) {
        switch (off) {
        case 0x200: case 0x220: return ref(R_PCSR_LO, 0, G_NOEPMAD);
        case 0x204: case 0x224: return ref(R_PCSR_HI, 0, G_NOEPMAD);
        case 0x208: case 0x228: return ref(R_PCS_CID1, 0, G_NOEPMAD);
        case 0x20C:             return ref(R_PCS_VID, 0, G_NOEPMAD);
        case 0x22C:             return ref(R_PCS_CID2, 0, G_NOEPMAD);
        default:                return r;
        }
    }
    if (off >= 0x400 && off < 0x480) {
        unsigned n = (off - 0x400) / 4u;

        if (n == SIM_CCNT)
            return ref(R_CCFILTR, SIM_CCNT, G_CORE);
        return n < c->ncnt ? ref(R_EVTYPER, n, G_CORE) : r;
    }
    if (c->desc->snapshot && off >= 0x600 && off < 0x700)
        return ref(off == PP_PMU_PMSSCR_IMPDEF ? R_SSCR : R_SS, 0, G_SNAP);
    if (classify_common(off, &r))
        return r;
    if (c->type->pmuv3p1 && (off == PP_PMU_PMCEID(2) || off == PP_PMU_PMCEID(3)))
        return ref(R_CEID, (off - PP_PMU_PMCEID(0)) / 4u, G_CORE);
    if (off == PP_PMU_PMMIR && c->type->arch == PP_ARCH_V8_2)
        return ref(R_MMIR, 0, G_CORE);
    return ref(R_RES, 0, G_SNAP);
}

static struct preg_ref classify_v2(const struct sim_core *c, uint32_t off)
{
    struct preg_ref r = ref(R_RES, 0, G_SNAP);

    if (off == PP_PMU_PMCCNTR_V2)
        return ref(R_CCNT_LO, SIM_CCNT, G_CORE);
    if (off < PP_PMU_PMCCNTR_V2)
        return off / 4u < c->ncnt ? ref(R_EVCNT_LO, off / 4u, G_CORE) : r;
    if (off >= 0x400 && off < 0x480) {
        unsigned n = (off - 0x400) / 4u;

        if (n == SIM_CCNT)
            return ref(R_CCFILTR, SIM_CCNT, G_CORE);
        return n < c->ncnt ? ref(R_EVTYPER, n, G_CORE) : r;
    }
    if (off == 0xE08)
        return ref(R_USERENR, 0, G_CORE);
    if (classify_common(off, &r))
        return r;
    return ref(R_RES, 0, G_SNAP);
}

/*
 * The architecture's error order (spec 2.6).  On Armv7 PMUs whether the OS
 * lock blocks access is UNCONFIRMED (spec 4.3); we apply the Armv8 order.
 * Armv7 DBGPRSR has no SPMAD, so only PMUv3 records it.
 */
static int gate(struct sim_core *c, unsigned g)
{
    if (!c->powered || sim_core_dlk(c))
        return PP_OP_SLVERR;
    if (g == G_SNAP)
        return PP_OP_OK;
    if (c->oslock)
        return PP_OP_SLVERR;
    if (g == G_CORE && !sim_core_allow_pmu(c)) {
        if (is_v3(c))
            c->sticky |= PP_EDPRSR_SPMAD;
        return PP_OP_SLVERR;
    }
    return PP_OP_OK;
}

static uint64_t tau_now(struct pp_sim *sim, const struct sim_core *c)
{
    return sim_core_tau(c, sim_now(sim));
}

static void sync(struct pp_sim *sim, struct sim_core *c)
{
    sim_pmu_sync(c, tau_now(sim, c));
}

static void rebase_all(struct pp_sim *sim, struct sim_core *c)
{
    uint64_t tau = tau_now(sim, c);

    for (unsigned i = 0; i < c->ncnt; i++)
        sim_counter_rebase(c, i, tau);
    sim_counter_rebase(c, SIM_CCNT, tau);
}

void sim_pmu_reset(struct sim_core *c, uint64_t tau)
{
    c->pmcr = 0;
    c->cnten = c->inten = c->ovs = c->userenr = 0;
    memset(c->evtyper, 0, sizeof(c->evtyper));
    c->ccfiltr = 0;
    memset(c->cnt, 0, sizeof(c->cnt));
    c->pcs_hi = c->pcs_cid1 = c->pcs_cid2 = c->pcs_vid = 0;
    c->ss_pc_lo = c->ss_pc_hi = c->ss_cid1 = c->ss_cid2 = 0;
    c->ss_ovs = 0;
    c->ss_ccnt = 0;
    memset(c->ss_cnt, 0, sizeof(c->ss_cnt));
    c->ss_nc = 1;                       /* PMSSSR.NC: nothing captured yet */
    for (unsigned i = 0; i < c->ncnt; i++)
        sim_counter_rebase(c, i, tau);
    sim_counter_rebase(c, SIM_CCNT, tau);
}

/* ---- PC sampling and snapshot ------------------------------------------------ */

/* PMPCSR[31:0] read: takes a sample and latches the companion registers.
 * 0xFFFFFFFF in Debug state or with non-invasive debug disabled. */
static uint32_t pc_sample(struct pp_sim *sim, struct sim_core *c, uint32_t *hi, uint32_t *cid)
{
    uint64_t s;

    if (c->halted || !(c->auth & (PP_AUTH_DBGEN | PP_AUTH_NIDEN))) {
        *hi = 0xFFFFFFFFu;
        *cid = 0;
        return 0xFFFFFFFFu;
    }
    s = sim_pc_sample(c, tau_now(sim, c), cid);
    *hi = (uint32_t)(s >> 32);
    return (uint32_t)s;
}

/* PMSSCR.SS=1: every copy from one instant (spec 1.4 table 2). */
static void snapshot(struct pp_sim *sim, struct sim_core *c)
{
    if (c->ss_refuse) {
        /* The TRM's PMSSSR.NC = 1: not captured, the copies keep their
         * old values (fault cpuN:nocapture). */
        c->ss_nc = 1;
        return;
    }
    sync(sim, c);
    c->ss_ccnt = c->cnt[SIM_CCNT].val;
    for (unsigned n = 0; n < 6; n++)
        c->ss_cnt[n] = n < c->ncnt ? (uint32_t)c->cnt[n].val : 0;
    c->ss_ovs = c->ovs;
    if (c->desc->pcsample)
        c->ss_pc_lo = pc_sample(sim, c, &c->ss_pc_hi, &c->ss_cid1);
    c->ss_cid2 = 0;
    c->ss_nc = 0;
}

static uint32_t snapshot_read(const struct sim_core *c, uint32_t off)
{
    switch (off) {
    case 0x600: return c->ss_pc_lo;
    case 0x604: return c->ss_pc_hi;
    case 0x608: return c->ss_cid1;
    case 0x60C: return c->ss_cid2;
    case 0x610: return c->ss_nc;
    case 0x614: return c->ss_ovs;
    case 0x618: return (uint32_t)c->ss_ccnt;
    case 0x61C: return (uint32_t)(c->ss_ccnt >> 32);
    default:
        if (off >= 0x620 && off < 0x638)
            return c->ss_cnt[(off - 0x620) / 4u];
        return 0;
    }
}

/* ---- PMCR ------------------------------------------------------------------------ */

/* Stored PMCR bits.  External PMUv3 view: E, D, X, DP, LC, LP (with 64-bit
 * event counters); [31:11] RAZ/WI, P and C write-only (spec 1.3). */
static uint32_t pmcr_mask(const struct sim_core *c)
{
    uint32_t m = PP_PMCR_E | PMCR_D | PMCR_X | PMCR_DP;

    if (!is_v3(c))
        return m;
    return m | PP_PMCR_LC | (c->desc->counter64 ? PMCR_LP : 0u);
}

/* PMUv2: we answer like the CP15 view, IMP[31:24] = 0x41, IDCODE[23:16]
 * (low byte of the part number: A9 0x09, A15 0x0F, A7 0x07), N[15:11]. */
static uint32_t pmcr_read(const struct sim_core *c)
{
    uint32_t v = c->pmcr & pmcr_mask(c);

    if (is_v3(c))
        return v;
    return (uint32_t)c->type->implementer << 24 | (c->type->midr_part & 0xFFu) << 16 |
           (c->ncnt & 0x1Fu) << 11 | v;
}

static void pmcr_write(struct pp_sim *sim, struct sim_core *c, uint32_t w)
{
    sync(sim, c);
    c->pmcr = w & pmcr_mask(c);
    if (w & PP_PMCR_P)
        for (unsigned i = 0; i < c->ncnt; i++)
            c->cnt[i].val = 0;
    if (w & PP_PMCR_C)
        c->cnt[SIM_CCNT].val = 0;
    rebase_all(sim, c);
}

/* PMMIR.SLOTS (v8.2 cores): the dispatch width, A55 2, A76/N1 4.  The
 * values are ours, UNCONFIRMED by the spec. */
static uint32_t pmmir(const struct sim_core *c)
{
    return c->type->midr_part == 0xD05 ? 2u : 4u;
}

/* ---- register access ------------------------------------------------------------- */

static uint32_t mgmt_read(const struct sim_core *c, uint32_t off)
{
    const struct pp_core_type *t = c->type;
    bool v3 = is_v3(c);
    uint32_t v = 0;

    if (sim_id_read(t->pmu_part, 0x9, off, &v))
        return v;
    switch (off) {
    case PP_PMU_PMDEVAFF0:      return (uint32_t)sim_core_devaff(c);
    case PP_PMU_PMDEVAFF0 + 4:  return (uint32_t)(sim_core_devaff(c) >> 32);
    case PP_PMU_PMAUTHSTATUS:   return sim_core_authstatus(c) & 0xCCu;  /* NSNID, SNID */
    case PP_PMU_PMDEVARCH:      return v3 ? PMDEVARCH_V3 : 0;
    case PP_PMU_PMDEVID:        return v3 && c->desc->pcsample ? 1u : 0u;
    case PP_PMU_PMDEVTYPE:      return PMDEVTYPE;
    default:                    return 0;   /* PMLSR 0 for DAP accesses, RES0 */
    }
}

static uint32_t counter_read(struct pp_sim *sim, struct sim_core *c, unsigned i, bool hi)
{
    sim_pmu_sync_one(c, i, tau_now(sim, c));
    return hi ? (uint32_t)(c->cnt[i].val >> 32) : (uint32_t)c->cnt[i].val;
}

static uint32_t reg_read(struct pp_sim *sim, struct sim_core *c, struct preg_ref r, uint32_t off)
{
    switch (r.id) {
    case R_EVCNT_LO: case R_CCNT_LO:    return counter_read(sim, c, r.idx, false);
    case R_EVCNT_HI: case R_CCNT_HI:    return counter_read(sim, c, r.idx, true);
    case R_PCSR_LO:     return pc_sample(sim, c, &c->pcs_hi, &c->pcs_cid1);
    case R_PCSR_HI:     return c->pcs_hi;
    case R_PCS_CID1:    return c->pcs_cid1;
    case R_PCS_VID:     return c->pcs_vid;
    case R_PCS_CID2:    return c->pcs_cid2;
    case R_EVTYPER:     return c->evtyper[r.idx];
    case R_CCFILTR:     return c->ccfiltr;
    case R_SS:          return snapshot_read(c, off);
    case R_CNTENSET: case R_CNTENCLR:   return c->cnten;
    case R_INTENSET: case R_INTENCLR:   return c->inten;
    case R_OVSCLR: case R_OVSSET:       sync(sim, c); return c->ovs;
    case R_CFGR:
        return pp_core_type_pmcfgr(c->type, c->ncnt, c->desc->snapshot);
    case R_PMCR:        return pmcr_read(c);
    case R_USERENR:     return c->userenr;
    case R_CEID:        return c->pmceid[r.idx];
    case R_MMIR:        return pmmir(c);
    default:            return 0;       /* reserved, PMSWINC, PMSSCR */
    }
}

/* PMEVTYPER: P U NSK NSU NSH M (v3) / P U NSK NSU NSH (v2) and evtCount.
 * NSK/NSU/NSH/M are stored; the workload runs at Non-secure EL0/EL1 and
 * only P and U filter it. */
static uint32_t evtyper_mask(const struct sim_core *c, bool cc)
{
    uint32_t ev;

    if (!is_v3(c))
        return 0xF8000000u | (cc ? 0u : 0xFFu);
    ev = c->type->arch == PP_ARCH_V8_0 ? 0x3FFu : 0xFFFFu;
    return 0xFC000000u | (cc ? 0u : ev);
}

static void counter_write(struct pp_sim *sim, struct sim_core *c, unsigned i, bool hi, uint32_t w)
{
    struct sim_counter *k = &c->cnt[i];

    sync(sim, c);
    if (hi)
        k->val = (k->val & 0xFFFFFFFFu) | (uint64_t)w << 32;
    else
        k->val = (k->val & ~(uint64_t)0xFFFFFFFFu) | w;
}

static void swinc(struct pp_sim *sim, struct sim_core *c, uint32_t w)
{
    sync(sim, c);
    if (!(c->pmcr & PP_PMCR_E))
        return;
    for (unsigned i = 0; i < c->ncnt; i++)
        if ((w & c->cnten) >> i & 1u && c->cnt[i].fn.kind == FN_SWINC)
            sim_counter_add(c, i, 1);
}

static void enable_write(struct pp_sim *sim, struct sim_core *c, uint32_t *reg, uint32_t w, bool set)
{
    sync(sim, c);
    if (set)
        *reg |= w & c->cnt_mask;
    else
        *reg &= ~w;
    rebase_all(sim, c);
}

static void reg_write(struct pp_sim *sim, struct sim_core *c, struct preg_ref r, uint32_t w)
{
    switch (r.id) {
    case R_EVCNT_LO: case R_CCNT_LO:    counter_write(sim, c, r.idx, false, w); break;
    case R_EVCNT_HI: case R_CCNT_HI:    counter_write(sim, c, r.idx, true, w); break;
    case R_EVTYPER: case R_CCFILTR:
        sync(sim, c);
        if (r.id == R_CCFILTR)
            c->ccfiltr = w & evtyper_mask(c, true);
        else
            c->evtyper[r.idx] = w & evtyper_mask(c, false);
        sim_counter_rebase(c, r.idx, tau_now(sim, c));
        break;
    case R_SSCR:
        if (w & 1u)
            snapshot(sim, c);
        break;
    case R_CNTENSET:    enable_write(sim, c, &c->cnten, w, true); break;
    case R_CNTENCLR:    enable_write(sim, c, &c->cnten, w, false); break;
    case R_INTENSET:    c->inten |= w & c->cnt_mask; break;
    case R_INTENCLR:    c->inten &= ~w; break;
    case R_OVSCLR:      sync(sim, c); c->ovs &= ~w; break;
    case R_OVSSET:      sync(sim, c); c->ovs |= w & c->cnt_mask; break;
    case R_SWINC:       swinc(sim, c, w); break;
    case R_PMCR:        pmcr_write(sim, c, w); break;
    case R_USERENR:     c->userenr = w & 0xFu; break;
    default:            break;  /* read-only or reserved: ignored */
    }
}

static struct preg_ref classify(const struct sim_core *c, uint32_t off)
{
    return is_v3(c) ? classify_v3(c, off) : classify_v2(c, off);
}

int sim_pmu_read(struct pp_sim *sim, struct sim_core *c, uint32_t off, uint32_t *val)
{
    struct preg_ref r;
    int rc;

    if (off >= 0xF00) {
        *val = mgmt_read(c, off);
        return PP_OP_OK;
    }
    r = classify(c, off);
    rc = gate(c, r.gate);
    if (rc != PP_OP_OK)
        return rc;
    *val = reg_read(sim, c, r, off);
    return PP_OP_OK;
}

int sim_pmu_write(struct pp_sim *sim, struct sim_core *c, uint32_t off, uint32_t val)
{
    struct preg_ref r;
    int rc;

    if (off >= 0xF00)
        return PP_OP_OK;        /* PMLAR etc.: no effect for DAP accesses */
    r = classify(c, off);
    rc = gate(c, r.gate);
    if (rc != PP_OP_OK)
        return rc;
    reg_write(sim, c, r, val);
    return PP_OP_OK;
}

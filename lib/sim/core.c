/*
 * core.c - per-core state of the simulated SoC: power, OS lock, double
 * lock, halting, authentication signals, cold reset and running time.
 *
 * Facts: spec/arm-pmu-coresight.md 2.2 (conditions), 3.1 (EDPRSR), 3.5
 * (DBGAUTHSTATUS), 4.3 (Armv7 DBGPRSR).
 */
#include <string.h>

#include "pmu/regs.h"
#include "sim/sim_internal.h"

#define EDPRCR_CORENPDRQ (1u << 0)
#define STICKY_BITS (PP_EDPRSR_SPD | PP_EDPRSR_SR | PP_EDPRSR_SDAD | PP_EDPRSR_SPMAD | PP_EDPRSR_SDR)

/* Armv7.1 debug: Cortex-A7, A15, A17 (the A9 is Armv7.0). */
static bool is_v71(const struct pp_core_type *t)
{
    return t->arch == PP_ARCH_V7 &&
           (t->midr_part == 0xC07 || t->midr_part == 0xC0F || t->midr_part == 0xC0E);
}

void sim_core_init(struct sim_core *c, const struct pp_core_desc *d)
{
    const struct pp_core_init *in = &d->init;
    unsigned n = d->counters ? d->counters : d->type->counters;

    if (d->sim.counters_set)
        n = d->sim.counters;
    memset(c, 0, sizeof(*c));
    c->desc = d;
    c->type = d->type;
    c->cat = pp_catalog_find(d->type->catalog);
    c->ncnt = n > SIM_MAX_EVCNT ? SIM_MAX_EVCNT : n;
    c->cnt_mask = ((1u << c->ncnt) - 1u) | (1u << SIM_CCNT);
    /* The catalog's, then the description's sim.pmceid.* on top, so the
     * simulated silicon may disagree with what the tool checks it by
     * (target.h, struct pp_core_sim). */
    for (unsigned r = 0; r < 4; r++)
        if (r < 2 || d->type->pmuv3p1)
            c->pmceid[r] = (pp_catalog_pmceid(c->cat, r) | d->sim.pmceid_set[r]) &
                           ~d->sim.pmceid_clear[r];
    c->v71 = is_v71(d->type);
    sim_wl_init(&c->wl, &d->wl, d->cpu);

    /* The SoC starts some time after a Cold reset nobody has looked at:
     * SPD and SR are still set (spec 3.1 worked values). */
    c->powered = in->powered;
    c->oslock = in->oslock;
    c->dlock = in->doublelock;
    c->halted = in->halted;
    c->auth = in->auth & PP_AUTH_ALL;
    c->epmad = in->epmad;
    c->sticky = PP_EDPRSR_SPD | PP_EDPRSR_SR;
    c->unlock_at = SIM_NO_UNLOCK;
    if (c->powered && c->oslock && in->os_unlock_us >= 0)
        c->unlock_at = (uint64_t)in->os_unlock_us * 1000u;
    sim_pmu_reset(c, 0);
}

/* Lets the simulated OS do what it scheduled. */
void sim_core_tick(struct sim_core *c, uint64_t now)
{
    if (c->unlock_at != SIM_NO_UNLOCK && now >= c->unlock_at) {
        c->unlock_at = SIM_NO_UNLOCK;
        if (c->powered)
            c->oslock = false;
    }
}

static bool running(const struct sim_core *c)
{
    return c->powered && !c->halted;
}

uint64_t sim_core_tau(const struct sim_core *c, uint64_t now)
{
    return c->tau + (running(c) && now > c->tau_at ? now - c->tau_at : 0);
}

/* Banks the running time so far; call before running() changes. */
static void freeze(struct sim_core *c, uint64_t now)
{
    c->tau = sim_core_tau(c, now);
    c->tau_at = now;
}

/*
 * Power-up is a Cold reset of the core domain: OS lock set, EDPRSR.SPD and
 * SR set, PMU and debug core-domain registers at their reset values (spec
 * 3.1).  The workload's running time carries on: the counts it produced
 * are not registers.
 */
void sim_core_set_power(struct sim_core *c, bool on, uint64_t now)
{
    int32_t us = c->desc->init.os_unlock_us;

    if (on == c->powered)
        return;
    freeze(c, now);
    c->powered = on;
    c->unlock_at = SIM_NO_UNLOCK;
    if (!on) {
        c->sticky |= PP_EDPRSR_SPD;
        return;
    }
    c->oslock = true;
    c->dlock = false;
    c->halted = false;
    c->sticky |= PP_EDPRSR_SPD | PP_EDPRSR_SR;
    c->edprcr &= ~EDPRCR_CORENPDRQ;
    c->claim = 0;
    c->dscr_rw = 0;
    sim_pmu_reset(c, c->tau);
    if (us >= 0)
        c->unlock_at = now + (uint64_t)us * 1000u;
}

void sim_core_set_halted(struct sim_core *c, bool halted, uint64_t now)
{
    if (halted == c->halted)
        return;
    freeze(c, now);
    if (!halted)
        c->sticky |= PP_EDPRSR_SDR;     /* left Debug state */
    c->halted = halted;
}

/* DoubleLockStatus(), spec 2.2. */
bool sim_core_dlk(const struct sim_core *c)
{
    return c->type->double_lock && c->powered && c->dlock &&
           !(c->edprcr & EDPRCR_CORENPDRQ) && !c->halted;
}

static bool sig(const struct sim_core *c, unsigned s)
{
    return (c->auth & s) != 0;
}

static bool noninvasive(const struct sim_core *c)
{
    return sig(c, PP_AUTH_DBGEN) || sig(c, PP_AUTH_NIDEN);
}

/* ExternalSecureNoninvasiveDebugEnabled(): DBGAUTHSTATUS.SNID (spec 3.5). */
static bool secure_noninvasive(const struct sim_core *c)
{
    return noninvasive(c) && (sig(c, PP_AUTH_SPIDEN) || sig(c, PP_AUTH_SPNIDEN));
}

/*
 * AllowExternalPMUAccess(), pre-Armv8.4 non-invasive variant (spec 2.2):
 * refused without DBGEN or NIDEN; otherwise allowed when Secure
 * non-invasive debug is enabled, else by MDCR_EL3.EPMAD.  Armv7 has no
 * EPMAD: the fault and the target key that set it are refused there.
 */
bool sim_core_allow_pmu(const struct sim_core *c)
{
    return noninvasive(c) && (secure_noninvasive(c) || !c->epmad);
}

/*
 * DEVAFF of the core's debug, PMU and CTI blocks: a copy of MPIDR_EL1 (spec
 * 3.5) on Armv8; Armv7 blocks have none.  A target may make it read 0, as
 * some SoCs' blocks do, to exercise pairing by address (lib/coresight).
 */
uint64_t sim_core_devaff(const struct sim_core *c)
{
    if (c->type->arch == PP_ARCH_V7 || c->desc->devaff_zero)
        return 0;
    return c->desc->mpidr;
}

/* DBGAUTHSTATUS: 0b10 implemented and disabled, 0b11 enabled. */
uint32_t sim_core_authstatus(const struct sim_core *c)
{
    bool nsid = sig(c, PP_AUTH_DBGEN);
    bool sid = nsid && sig(c, PP_AUTH_SPIDEN);

    return (nsid ? 3u : 2u) | (noninvasive(c) ? 3u : 2u) << 2 |
           (sid ? 3u : 2u) << 4 | (secure_noninvasive(c) ? 3u : 2u) << 6;
}

/*
 * EDPRSR / DBGPRSR as read now, with the read's side effect: when the core
 * is up (PU=1, not double locked) SPD, SR, SDAD, SPMAD and SDR clear
 * (spec 3.1); with PU=0 nothing clears.  Armv8.2 cores report a double
 * locked core as PU=0 and DLK as 0.
 */
uint32_t sim_core_edprsr(struct sim_core *c)
{
    bool v8 = c->type->arch != PP_ARCH_V7;
    bool dlk = sim_core_dlk(c);
    bool pu = c->powered && !(dlk && c->type->arch == PP_ARCH_V8_2);
    uint32_t v = pu ? PP_EDPRSR_PU : 0;

    v |= c->sticky & (v8 ? STICKY_BITS : (PP_EDPRSR_SPD | PP_EDPRSR_SR));
    if (c->powered && (v8 || c->v71)) {
        if (c->halted)
            v |= PP_EDPRSR_HALTED;
        if (c->in_reset)
            v |= PP_EDPRSR_R;
        if (c->oslock)
            v |= PP_EDPRSR_OSLK;
        if (dlk && c->type->arch != PP_ARCH_V8_2)
            v |= PP_EDPRSR_DLK;
    }
    if (v8 && !sig(c, PP_AUTH_DBGEN))
        v |= PP_EDPRSR_EDAD;
    if (v8 && !sim_core_allow_pmu(c))
        v |= PP_EDPRSR_EPMAD;
    if (pu && !dlk)
        c->sticky &= ~STICKY_BITS;
    return v;
}

/*
 * jtag_dp.c - the simulated ADIv5 JTAG-DP: the JTAG front end of the DP
 * and AP model in dap.c.
 *
 * A DPACC/APACC scan captures ACK plus the ReadResult latch (the result
 * of the previous read: posted reads, spec 7.1) and does its own
 * transaction at Update-DR.  An AP access then keeps the AP busy for
 * apb_tck TCKs; a DPACC/APACC Capture-DR in that time answers WAIT, is
 * not accepted, and sets STICKYORUN when ORUNDETECT is on (spec 7.2,
 * spec/openocd.md 4).  What is the JTAG-DP's own (the rest is dap.c):
 *
 *  - ABORT is an IR, always accepted at once; its bits [4:1] are
 *    "Reserved, SBZ" on a JTAG-DP (SoC-400 DAP TRM, spec 7.2): no effect;
 *    sticky flags clear by W1C in CTRL/STAT only.
 *  - ADIv5 JTAG-DP has one ACK for OK and FAULT: an APACC the DP discards
 *    after a sticky error answers OK, does nothing, and the latch keeps
 *    its value (spec 7.4).
 *  - Every read, DP or AP, lands in the one ReadResult latch.
 */
#include "pmu/regs.h"
#include "sim/jtag_internal.h"
#include "sim/sim_internal.h"

void jt_dp_init(struct pp_simjtag *j)
{
    const struct pp_target *t = pp_sim_target(j->sim);

    j->idcode = t->dp_idcode ? t->dp_idcode : 0x4BA00477u;
    sim_dap_init(&j->dap, j->sim, &j->st);
    j->sim->dp = j;         /* DP faults (dp:wait, dp:overrun) reach us */
}

void jt_dp_detach(struct pp_simjtag *j)
{
    if (j->sim && j->sim->dp == j)
        j->sim->dp = NULL;
}

void pp_simjtag_set_overrun(struct pp_simjtag *j)
{
    sim_dap_set_overrun(&j->dap);
}

static void dp_access(struct pp_simjtag *j, uint32_t a, bool rnw, uint32_t data)
{
    if (rnw)
        sim_dap_dp_read(&j->dap, a, &j->rdata);
    else if (a != SIM_DP_DPIDR)     /* a JTAG-DP has ABORT as an IR instead */
        sim_dap_dp_write(&j->dap, a, data, true);
    else
        j->st.dpacc++;
}

uint64_t jt_dp_capture(struct pp_simjtag *j)
{
    uint64_t out;

    sim_poll_faults(j->sim);    /* timed DP faults fire between scans */
    out = (uint64_t)j->rdata << 3;
    j->scan_ok = true;
    if (j->ir == JT_IR_ABORT)   /* always accepted at once (spec 7.2) */
        return out | JT_ACK_OK;
    if (!sim_dap_wait(&j->dap))
        return out | JT_ACK_OK;
    j->scan_ok = false;
    return out | JT_ACK_WAIT;
}

void jt_dp_update(struct pp_simjtag *j, uint64_t dr)
{
    bool rnw = (dr & 1u) != 0;
    uint32_t a = (uint32_t)(dr & 0x6u) << 1;
    uint32_t data = (uint32_t)(dr >> 3);

    if (j->ir == JT_IR_ABORT) {
        sim_dap_abort(&j->dap, data, false);
        return;
    }
    if (!j->scan_ok)            /* a WAITed scan is not accepted */
        return;
    j->scan_ok = false;
    if (j->ir == JT_IR_DPACC)
        dp_access(j, a, rnw, data);
    else if (rnw)
        sim_dap_ap_read(&j->dap, a, &j->rdata);     /* FAULT: ACK was OK */
    else
        sim_dap_ap_write(&j->dap, a, data);
}

/*
 * nSRST: a Warm reset of every powered core for as long as it is held.
 * PMU registers take their reset values (PMCR.E = 0, PMSSSR.NC = 1; spec
 * 1.3, 1.4) and EDPRSR.SR is set (spec 3.1); while held, EDPRSR.R reads 1
 * (the core is in reset), and on release the PMU is reset once more, so
 * nothing written while the core was held survives, as on silicon, whose
 * PMU stays in reset.  The OS lock, the debug power domain and the DP/AP
 * are untouched: they reset on Cold reset or power-on only.
 */
void jt_srst(struct pp_simjtag *j, bool held)
{
    struct pp_sim *sim = j->sim;
    uint64_t now = sim_now(sim);

    for (unsigned i = 0; i < sim->t.ncores; i++) {
        struct sim_core *c = &sim->cores[i];

        c->in_reset = held && c->powered;
        if (!c->powered)
            continue;
        sim_pmu_reset(c, sim_core_tau(c, now));
        c->sticky |= PP_EDPRSR_SR;
    }
}

/*
 * jtag_dp.c - the simulated ADIv5 JTAG-DP and the APB MEM-AP behind it.
 *
 * A DPACC/APACC scan captures ACK plus the ReadResult latch (the result
 * of the previous read: posted reads, spec 7.1) and does its own
 * transaction at Update-DR.  An AP access then keeps the AP busy for
 * apb_tck TCKs; a DPACC/APACC Capture-DR in that time answers WAIT, is
 * not accepted, and sets STICKYORUN when ORUNDETECT is on (spec 7.2,
 * spec/openocd.md 4).  Choices where the spec leaves room:
 *
 *  - DPIDR (DPACC read of 0x0) is a DPv1 value derived from the IDCODE:
 *    REVISION and PARTNO (IDCODE[27:20]) and DESIGNER carried over,
 *    VERSION = 1, MIN = 0: 0x4BA00477 gives 0x4BA01477.
 *  - The AP does its APB access at Update-DR; busy only models the time,
 *    so ABORT.DAPABORT just ends the busy time.  ABORT bits [4:1] are
 *    "Reserved, SBZ" on a JTAG-DP (SoC-400 DAP TRM, spec 7.2): no effect;
 *    sticky flags clear by W1C in CTRL/STAT only.
 *  - CTRL/STAT: TRNCNT and TRNMODE read 0 (no pushed operations, so
 *    STICKYCMP is never set); MASKLANE is kept; CDBGRSTREQ is mirrored in
 *    CDBGRSTACK and resets nothing.  Other DPBANKSEL values read 0.
 *  - Read results after an APB error, a discarded or an absent-AP read:
 *    the latch keeps its previous value (UNKNOWN in the spec), except that
 *    an absent AP reads 0 as spec 7.2 requires.
 */
#include "pmu/regs.h"
#include "sim/jtag_internal.h"
#include "sim/sim_internal.h"

#define DP_A_DPIDR   0x0u
#define DP_A_CTRL    0x4u
#define DP_A_SELECT  0x8u
#define DP_A_RDBUFF  0xCu

#define SELECT_MASK  0xFF0000FFu        /* APSEL, APBANKSEL, DPBANKSEL */
#define CTRL_RW (JT_CS_ORUNDETECT | JT_CS_MASKLANE | JT_CS_CDBGRSTREQ | \
                 JT_CS_CDBGPWRUPREQ | JT_CS_CSYSPWRUPREQ)

/* MEM-AP registers (spec 7.3). */
#define AP_CSW    0x00u
#define AP_TAR    0x04u
#define AP_DRW    0x0Cu
#define AP_BD0    0x10u
#define AP_BD3    0x1Cu
#define AP_CFG    0xF4u
#define AP_BASE   0xF8u
#define AP_IDR    0xFCu

/* CSW of the APB-AP (spec 7.3): Size fixed at word, AddrInc bit 5 RAZ/WI
 * (no packed increment), DeviceEn reads 1, Prot[30:24] and
 * DbgSwEnable[31] kept as written (DbgSwEnable gates the system-side
 * software path, which the sim does not have). */
#define CSW_SIZE_WORD 0x2u
#define CSW_ADDRINC1  (1u << 4)
#define CSW_DEVICEEN  (1u << 6)
#define CSW_KEPT      (0xFF000000u | CSW_ADDRINC1)

/* TAR auto-increment wraps inside 1 KB (spec 7.3). */
#define TAR_BLOCK 0x3FFu

void jt_dp_init(struct pp_simjtag *j)
{
    const struct pp_target *t = pp_sim_target(j->sim);

    j->idcode = t->dp_idcode ? t->dp_idcode : 0x4BA00477u;
    j->apsel = (uint8_t)t->ap_index;
    j->ap_idr = t->ap_idr ? t->ap_idr : JT_AP_IDR_DEFAULT;
    j->apb_tck = 3;
    j->sim->dp = j;         /* DP faults (dp:wait, dp:overrun) reach us */
}

void jt_dp_detach(struct pp_simjtag *j)
{
    if (j->sim && j->sim->dp == j)
        j->sim->dp = NULL;
}

void pp_simjtag_set_overrun(struct pp_simjtag *j)
{
    if (!(j->ctrl & JT_CS_STICKYORUN))
        j->st.sticky++;
    j->ctrl |= JT_CS_STICKYORUN;
}

static uint32_t dpidr(const struct pp_simjtag *j)
{
    return (j->idcode & 0xFFF00FFFu) | (1u << 12) | 1u;
}

static void set_stickyerr(struct pp_simjtag *j)
{
    if (!(j->ctrl & JT_CS_STICKYERR))
        j->st.sticky++;
    j->ctrl |= JT_CS_STICKYERR;
}

/* Power-up requests are acknowledged at once (spec/openocd.md 2.2: dap
 * init polls for the ACKs). */
static uint32_t ctrl_read(const struct pp_simjtag *j)
{
    uint32_t v = j->ctrl;

    if (v & JT_CS_CDBGPWRUPREQ)
        v |= JT_CS_CDBGPWRUPACK;
    if (v & JT_CS_CSYSPWRUPREQ)
        v |= JT_CS_CSYSPWRUPACK;
    if (v & JT_CS_CDBGRSTREQ)
        v |= JT_CS_CDBGRSTACK;
    return v;
}

/* Sticky flags are R/W1C on a JTAG-DP (spec 7.2). */
static void ctrl_write(struct pp_simjtag *j, uint32_t v)
{
    uint32_t sticky = j->ctrl & JT_CS_STICKY & ~v;

    j->ctrl = sticky | (v & CTRL_RW);
}

static void dp_access(struct pp_simjtag *j, uint32_t a, bool rnw, uint32_t data)
{
    bool bank0 = (j->select & 0xFu) == 0;

    j->st.dpacc++;
    switch (a) {
    case DP_A_DPIDR:
        if (rnw)
            j->rdata = dpidr(j);
        break;                  /* a JTAG-DP has ABORT as an IR instead */
    case DP_A_CTRL:
        if (rnw)
            j->rdata = bank0 ? ctrl_read(j) : 0;
        else if (bank0)
            ctrl_write(j, data);
        break;
    case DP_A_SELECT:
        if (rnw)
            j->rdata = j->select;
        else
            j->select = data & SELECT_MASK;
        break;
    default:                    /* RDBUFF: the latch as it is */
        break;
    }
}

static uint32_t csw_read(const struct pp_simjtag *j)
{
    return (j->csw & CSW_KEPT) | CSW_DEVICEEN | CSW_SIZE_WORD;
}

/* One APB access made by the AP.  An error response sets STICKYERR
 * (spec 7.4); TAR then stays at the failing address. */
static bool mem_access(struct pp_simjtag *j, uint32_t addr, bool rnw, uint32_t data)
{
    uint32_t v = 0;
    int rc;

    if (rnw) {
        j->st.ap_reads++;
        rc = pp_sim_apb_read(j->sim, addr, &v);
    } else {
        j->st.ap_writes++;
        rc = pp_sim_apb_write(j->sim, addr, data);
    }
    if (rc != PP_OP_OK) {
        set_stickyerr(j);
        return false;
    }
    if (rnw)
        j->rdata = v;
    if (rnw && j->on_read)
        j->on_read(j->on_read_arg, addr, v);
    return true;
}

static void drw_access(struct pp_simjtag *j, bool rnw, uint32_t data)
{
    if (!mem_access(j, j->tar, rnw, data))
        return;
    if (j->csw & CSW_ADDRINC1)
        j->tar = (j->tar & ~TAR_BLOCK) | ((j->tar + 4u) & TAR_BLOCK);
}

static void ap_read(struct pp_simjtag *j, uint32_t reg)
{
    const struct pp_target *t = pp_sim_target(j->sim);

    if (reg >= AP_BD0 && reg <= AP_BD3) {
        mem_access(j, (j->tar & ~0xFu) + (reg & 0xCu), true, 0);
        return;
    }
    switch (reg) {
    case AP_CSW:  j->rdata = csw_read(j); break;
    case AP_TAR:  j->rdata = j->tar; break;
    case AP_DRW:  drw_access(j, true, 0); break;
    case AP_BASE: j->rdata = t->rom_base | 0x3u; break;  /* format 1, present (spec 6.1) */
    case AP_IDR:  j->rdata = j->ap_idr; break;
    default:      j->rdata = 0; break;    /* CFG, BASE64, TAR64, MBT: 0 */
    }
}

static void ap_write(struct pp_simjtag *j, uint32_t reg, uint32_t data)
{
    if (reg >= AP_BD0 && reg <= AP_BD3) {
        mem_access(j, (j->tar & ~0xFu) + (reg & 0xCu), false, data);
        return;
    }
    switch (reg) {
    case AP_CSW: j->csw = data & CSW_KEPT; break;
    case AP_TAR: j->tar = data; break;
    case AP_DRW: drw_access(j, false, data); break;
    default:     break;                   /* read-only or absent */
    }
}

static void ap_access(struct pp_simjtag *j, uint32_t a, bool rnw, uint32_t data)
{
    uint32_t reg = (j->select & 0xF0u) | a;

    j->st.apacc++;
    /* After an error, APACC transactions are discarded until the sticky
     * flag is cleared: ACK OK, nothing done, stale data (spec 7.4). */
    if (j->ctrl & JT_CS_STICKY)
        return;
    /* The AP lives in the debug power domain (spec 7.4: "the DP accessing
     * an AP that is not present/powered"). */
    if (!(j->ctrl & JT_CS_CDBGPWRUPREQ)) {
        set_stickyerr(j);
        return;
    }
    j->busy = j->apb_tck;
    if ((j->select >> 24) != j->apsel) {
        /* No AP at APSEL: reads return 0, writes are ignored (spec 7.2). */
        if (rnw)
            j->rdata = 0;
        return;
    }
    if (rnw)
        ap_read(j, reg);
    else
        ap_write(j, reg, data);
}

uint64_t jt_dp_capture(struct pp_simjtag *j)
{
    uint64_t out;

    sim_poll_faults(j->sim);    /* timed DP faults fire between scans */
    out = (uint64_t)j->rdata << 3;
    j->scan_ok = true;
    if (j->ir == JT_IR_ABORT)   /* always accepted at once (spec 7.2) */
        return out | JT_ACK_OK;
    if (j->busy == 0 && j->wait_n == 0)
        return out | JT_ACK_OK;
    if (j->busy == 0)
        j->wait_n--;            /* injected WAIT (DP WAIT storm) */
    j->scan_ok = false;
    j->st.waits++;
    if (j->ctrl & JT_CS_ORUNDETECT)
        j->ctrl |= JT_CS_STICKYORUN;
    return out | JT_ACK_WAIT;
}

void jt_dp_update(struct pp_simjtag *j, uint64_t dr)
{
    bool rnw = (dr & 1u) != 0;
    uint32_t a = (uint32_t)(dr & 0x6u) << 1;
    uint32_t data = (uint32_t)(dr >> 3);

    if (j->ir == JT_IR_ABORT) {
        if (data & 1u)          /* DAPABORT */
            j->busy = 0;
        return;
    }
    if (!j->scan_ok)            /* a WAITed scan is not accepted */
        return;
    j->scan_ok = false;
    if (j->ir == JT_IR_DPACC)
        dp_access(j, a, rnw, data);
    else
        ap_access(j, a, rnw, data);
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

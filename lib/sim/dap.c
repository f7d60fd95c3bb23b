/*
 * dap.c - the simulated DP and APB MEM-AP registers, shared by the
 * JTAG-DP (jtag_dp.c) and SW-DP (swdp.c) front ends; see dap.h.
 *
 * Choices where the spec leaves room:
 *  - DPIDR is derived from the IDCODE: REVISION and PARTNO (IDCODE[27:20])
 *    and DESIGNER carried over, MIN = 0, VERSION 1 for a JTAG-DP and 2 for
 *    a SW-DP or SWJ-DP (a DPv2, swd 4.6): 0x4BA00477 gives 0x4BA01477 and
 *    0x4BA02477.
 *  - The AP does its APB access when the access is accepted; busy only
 *    models the time, so ABORT.DAPABORT just ends the busy time.
 *  - CTRL/STAT: TRNCNT and TRNMODE read 0 (no pushed operations, so
 *    STICKYCMP is never set); MASKLANE is kept; CDBGRSTREQ is mirrored in
 *    CDBGRSTACK and resets nothing.  On a DPv1 other DPBANKSEL values read
 *    0; a DPv2 has DLCR (bank 1, reads 0x40: TURNROUND 0, the only
 *    turnaround served), TARGETID (2) and DLPIDR (3, PROTVSN 1, instance 0).
 *  - An absent AP reads 0 as spec 7.2 requires; an APB error, a discarded
 *    or an unpowered read gives no result (the caller's latch keeps its
 *    previous value: UNKNOWN in the spec).
 */
#include "sim/dap.h"
#include "sim/sim_internal.h"

#define SELECT_MASK  0xFF0000FFu        /* APSEL, APBANKSEL, DPBANKSEL */
#define CTRL_RW (SIM_CS_ORUNDETECT | SIM_CS_MASKLANE | SIM_CS_CDBGRSTREQ | \
                 SIM_CS_CDBGPWRUPREQ | SIM_CS_CSYSPWRUPREQ)
#define CTRL_W1C (SIM_CS_STICKYORUN | SIM_CS_STICKYCMP | SIM_CS_STICKYERR)

#define DLCR_VALUE   0x00000040u        /* swd 4.6, as OpenDAP reads back */
#define DLPIDR_VALUE 0x00000001u        /* PROTVSN 1, TINSTANCE 0 */

/* MEM-AP registers (spec 7.3). */
#define AP_CSW    0x00u
#define AP_TAR    0x04u
#define AP_DRW    0x0Cu
#define AP_BD0    0x10u
#define AP_BD3    0x1Cu
#define AP_BASE   0xF8u
#define AP_IDR    0xFCu

#define AP_IDR_DEFAULT 0x54770002u      /* APB-AP, CoreSight SoC-400 (spec 7.3) */

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

void sim_dap_init(struct sim_dap *d, struct pp_sim *sim, struct pp_simjtag_stats *st)
{
    const struct pp_target *t = pp_sim_target(sim);
    uint32_t idcode = t->dp_idcode ? t->dp_idcode : 0x4BA00477u;
    uint32_t version = t->dp_kind == PP_DP_JTAG ? 1u : 2u;

    d->soc = sim;
    d->stats = st;
    d->dpidr = (idcode & 0xFFF00FFFu) | (version << 12) | 1u;
    d->targetid = version >= 2 ? t->dp_targetid : 0;
    d->apsel = (uint8_t)t->ap_index;
    d->ap_idr = t->ap_idr ? t->ap_idr : AP_IDR_DEFAULT;
    d->apb_tck = 3;
}

void sim_dap_set_sticky(struct sim_dap *d, uint32_t bit)
{
    if (!(d->ctrl & bit))
        d->stats->sticky++;
    d->ctrl |= bit;
}

void sim_dap_set_overrun(struct sim_dap *d)
{
    sim_dap_set_sticky(d, SIM_CS_STICKYORUN);
}

bool sim_dap_wait(struct sim_dap *d)
{
    if (d->busy == 0 && d->wait_n == 0)
        return false;
    if (d->busy == 0)
        d->wait_n--;            /* injected WAIT (DP WAIT storm) */
    d->stats->waits++;
    if (d->ctrl & SIM_CS_ORUNDETECT)
        d->ctrl |= SIM_CS_STICKYORUN;
    return true;
}

uint32_t sim_dap_ctrl_read(const struct sim_dap *d)
{
    uint32_t v = d->ctrl;

    if (v & SIM_CS_CDBGPWRUPREQ)
        v |= SIM_CS_CDBGPWRUPACK;
    if (v & SIM_CS_CSYSPWRUPREQ)
        v |= SIM_CS_CSYSPWRUPACK;
    if (v & SIM_CS_CDBGRSTREQ)
        v |= SIM_CS_CDBGRSTACK;
    return v;
}

void sim_dap_ctrl_write(struct sim_dap *d, uint32_t v, bool w1c)
{
    uint32_t kept = d->ctrl & (SIM_CS_STICKY | SIM_CS_READOK);

    if (w1c)
        kept &= ~(v & CTRL_W1C);
    d->ctrl = kept | (v & CTRL_RW);
}

void sim_dap_abort(struct sim_dap *d, uint32_t v, bool clears)
{
    if (v & SIM_ABORT_DAPABORT)
        d->busy = 0;
    if (!clears)
        return;
    if (v & SIM_ABORT_STKCMPCLR)
        d->ctrl &= ~SIM_CS_STICKYCMP;
    if (v & SIM_ABORT_STKERRCLR)
        d->ctrl &= ~SIM_CS_STICKYERR;
    if (v & SIM_ABORT_WDERRCLR)
        d->ctrl &= ~SIM_CS_WDATAERR;
    if (v & SIM_ABORT_ORUNERRCLR)
        d->ctrl &= ~SIM_CS_STICKYORUN;
}

/* CTRL/STAT's address in DP banks 1-3 of a DPv2 (swd 4.6). */
static uint32_t dp_bank_read(const struct sim_dap *d, unsigned bank)
{
    if (bank == 0)
        return sim_dap_ctrl_read(d);
    if (!d->targetid)           /* a DPv1: other banks read 0 */
        return 0;
    switch (bank) {
    case 1:  return DLCR_VALUE;
    case 2:  return d->targetid;
    case 3:  return DLPIDR_VALUE;
    default: return 0;
    }
}

void sim_dap_dp_read(struct sim_dap *d, uint32_t addr, uint32_t *v)
{
    d->stats->dpacc++;
    switch (addr) {
    case SIM_DP_DPIDR:
        *v = d->dpidr;
        break;
    case SIM_DP_CTRL:
        *v = dp_bank_read(d, d->select & 0xFu);
        break;
    case SIM_DP_SELECT:
        *v = d->select;
        break;
    default:                    /* RDBUFF: the front end's latch */
        break;
    }
}

void sim_dap_dp_write(struct sim_dap *d, uint32_t addr, uint32_t v, bool w1c)
{
    d->stats->dpacc++;
    if (addr == SIM_DP_CTRL && (d->select & 0xFu) == 0)
        sim_dap_ctrl_write(d, v, w1c);
    else if (addr == SIM_DP_SELECT)
        d->select = v & SELECT_MASK;
    /* DLCR writes are ignored: only TURNROUND 0 is served */
}

static uint32_t csw_read(const struct sim_dap *d)
{
    return (d->csw & CSW_KEPT) | CSW_DEVICEEN | CSW_SIZE_WORD;
}

/* One APB access made by the AP.  An error response sets STICKYERR
 * (spec 7.4); TAR then stays at the failing address. */
static bool mem_access(struct sim_dap *d, uint32_t addr, bool rnw, uint32_t *data)
{
    uint32_t v = 0;
    int rc;

    if (rnw) {
        d->stats->ap_reads++;
        rc = pp_sim_apb_read(d->soc, addr, &v);
    } else {
        d->stats->ap_writes++;
        rc = pp_sim_apb_write(d->soc, addr, *data);
    }
    if (rc != PP_OP_OK) {
        sim_dap_set_sticky(d, SIM_CS_STICKYERR);
        return false;
    }
    if (!rnw)
        return true;
    *data = v;
    if (d->on_read)
        d->on_read(d->on_read_arg, addr, v);
    return true;
}

static void drw_access(struct sim_dap *d, bool rnw, uint32_t *data)
{
    if (!mem_access(d, d->tar, rnw, data))
        return;
    if (d->csw & CSW_ADDRINC1)
        d->tar = (d->tar & ~TAR_BLOCK) | ((d->tar + 4u) & TAR_BLOCK);
}

static void ap_reg_read(struct sim_dap *d, uint32_t reg, uint32_t *v)
{
    const struct pp_target *t = pp_sim_target(d->soc);

    if (reg >= AP_BD0 && reg <= AP_BD3) {
        mem_access(d, (d->tar & ~0xFu) + (reg & 0xCu), true, v);
        return;
    }
    switch (reg) {
    case AP_CSW:  *v = csw_read(d); break;
    case AP_TAR:  *v = d->tar; break;
    case AP_DRW:  drw_access(d, true, v); break;
    case AP_BASE: *v = t->rom_base | 0x3u; break;  /* format 1, present (spec 6.1) */
    case AP_IDR:  *v = d->ap_idr; break;
    default:      *v = 0; break;      /* CFG, BASE64, TAR64, MBT: 0 */
    }
}

static void ap_reg_write(struct sim_dap *d, uint32_t reg, uint32_t v)
{
    if (reg >= AP_BD0 && reg <= AP_BD3) {
        mem_access(d, (d->tar & ~0xFu) + (reg & 0xCu), false, &v);
        return;
    }
    switch (reg) {
    case AP_CSW: d->csw = v & CSW_KEPT; break;
    case AP_TAR: d->tar = v; break;
    case AP_DRW: drw_access(d, false, &v); break;
    default:     break;                   /* read-only or absent */
    }
}

/* What every APACC checks first; false when it is not to be done. */
static bool ap_start(struct sim_dap *d, enum sim_ack *ack)
{
    d->stats->apacc++;
    *ack = SIM_ACK_OK;
    /* After an error, APACC transactions are discarded until the sticky
     * flag is cleared (spec 7.4). */
    if (d->ctrl & SIM_CS_STICKY) {
        *ack = SIM_ACK_FAULT;
        return false;
    }
    /* The AP lives in the debug power domain (spec 7.4: "the DP accessing
     * an AP that is not present/powered"). */
    if (!(d->ctrl & SIM_CS_CDBGPWRUPREQ)) {
        sim_dap_set_sticky(d, SIM_CS_STICKYERR);
        return false;
    }
    d->busy = d->apb_tck;
    return true;
}

enum sim_ack sim_dap_ap_read(struct sim_dap *d, uint32_t addr, uint32_t *v)
{
    enum sim_ack ack;

    if (!ap_start(d, &ack))
        return ack;
    if ((d->select >> 24) != d->apsel)
        *v = 0;             /* no AP at APSEL: reads return 0 (spec 7.2) */
    else
        ap_reg_read(d, (d->select & 0xF0u) | addr, v);
    return SIM_ACK_OK;
}

enum sim_ack sim_dap_ap_write(struct sim_dap *d, uint32_t addr, uint32_t v)
{
    enum sim_ack ack;

    if (!ap_start(d, &ack))
        return ack;
    if ((d->select >> 24) == d->apsel)     /* else ignored (spec 7.2) */
        ap_reg_write(d, (d->select & 0xF0u) | addr, v);
    return SIM_ACK_OK;
}

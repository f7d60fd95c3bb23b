/*
 * dap.h - the simulated SoC's Debug Port and APB MEM-AP registers, apart
 * from the wire that reaches them (internal to lib/sim/).
 *
 * One model for every transport: the JTAG-DP front end (jtag_dp.c) and the
 * SW-DP front end (swdp.c) both call these functions, so CTRL/STAT, SELECT,
 * the AP's CSW/TAR/DRW/BD0-BD3, the sticky flags and the AP's busy time are
 * one state, whichever wire the host uses (a SWJ-DP switches wires, never
 * registers).  What differs between the wires is passed in: how a sticky
 * flag clears (W1C in CTRL/STAT on a JTAG-DP, ABORT on a SW-DP, spec 7.2)
 * and what a discarded AP access answers (ACK OK on a JTAG-DP, FAULT on a
 * SW-DP, spec 7.4).
 *
 * Facts: spec/arm-pmu-coresight.md 7.2-7.4 ("spec 7.x"),
 * spec/cmsis-dap-swd.md 4.6-4.8 ("swd 4.x").
 */
#ifndef PP_SIM_DAP_H
#define PP_SIM_DAP_H

#include <stdbool.h>
#include <stdint.h>

#include "sim/jtag.h"

/* What an access answers, as the ACK of an SW-DP would say it. */
enum sim_ack {
    SIM_ACK_OK,
    SIM_ACK_WAIT,     /* not accepted, no effect: the host retries */
    SIM_ACK_FAULT     /* not done: a sticky flag is set (spec 7.4) */
};

/* CTRL/STAT bits (spec 7.2). */
#define SIM_CS_ORUNDETECT   (1u << 0)
#define SIM_CS_STICKYORUN   (1u << 1)
#define SIM_CS_STICKYCMP    (1u << 4)
#define SIM_CS_STICKYERR    (1u << 5)
#define SIM_CS_READOK       (1u << 6)
#define SIM_CS_WDATAERR     (1u << 7)
#define SIM_CS_MASKLANE     (0xFu << 8)
#define SIM_CS_CDBGRSTREQ   (1u << 26)
#define SIM_CS_CDBGRSTACK   (1u << 27)
#define SIM_CS_CDBGPWRUPREQ (1u << 28)
#define SIM_CS_CDBGPWRUPACK (1u << 29)
#define SIM_CS_CSYSPWRUPREQ (1u << 30)
#define SIM_CS_CSYSPWRUPACK (1u << 31)
#define SIM_CS_STICKY (SIM_CS_STICKYORUN | SIM_CS_STICKYCMP | SIM_CS_STICKYERR | \
                       SIM_CS_WDATAERR)

/* ABORT bits (spec 7.2): DAPABORT, then the SW-DP's clear bits. */
#define SIM_ABORT_DAPABORT   (1u << 0)
#define SIM_ABORT_STKCMPCLR  (1u << 1)
#define SIM_ABORT_STKERRCLR  (1u << 2)
#define SIM_ABORT_WDERRCLR   (1u << 3)
#define SIM_ABORT_ORUNERRCLR (1u << 4)

/* DP register addresses A[3:2] << 2 (spec 7.2). */
#define SIM_DP_DPIDR  0x0u
#define SIM_DP_CTRL   0x4u
#define SIM_DP_SELECT 0x8u
#define SIM_DP_RDBUFF 0xCu

/* The fields, once, so that struct pp_simjtag can name them both as its
 * member dap and directly (jtag_internal.h). */
#define SIM_DAP_FIELDS                                                        \
    struct pp_sim *soc;           /* the SoC whose APB the AP reaches */   \
    struct pp_simjtag_stats *stats; /* dpacc, apacc, waits, sticky...  */  \
    uint32_t dpidr;               /* DPIDR as read on either wire */         \
    uint32_t targetid;            /* DPv2 TARGETID (bank 2); 0 on a DPv1 */  \
    uint32_t ctrl;                /* stored CTRL/STAT bits */                \
    uint32_t select;                                                          \
    unsigned busy;                /* clocks until the AP access completes */ \
    unsigned apb_tck;             /* clocks an AP access takes */            \
    unsigned wait_n;              /* injected WAITs still to give */         \
    uint8_t  apsel;               /* the target's ap_index */                \
    uint32_t ap_idr;                                                          \
    uint32_t csw;                 /* stored CSW bits (dap.c) */              \
    uint32_t tar;                                                             \
    pp_simjtag_read_fn on_read;   /* pp_simjtag_set_read_hook */             \
    void *on_read_arg;

struct sim_dap {
    SIM_DAP_FIELDS
};

/* The DAP of sim's target: DPIDR a DPv1 (dp = jtag) or DPv2 (swd, swj)
 * value derived from dp.idcode, the APB-AP at ap_index.  Counts into st. */
void sim_dap_init(struct sim_dap *d, struct pp_sim *sim, struct pp_simjtag_stats *st);

/* One clock of the wire: the AP access in flight progresses. */
static inline void sim_dap_tick(struct sim_dap *d)
{
    if (d->busy)
        d->busy--;
}

/* Must an access that can be WAITed wait now?  True while the AP is busy
 * or an injected WAIT is due (it is then used up); counts the WAIT and
 * sets STICKYORUN when ORUNDETECT is on (spec 7.2, swd 4.8). */
bool sim_dap_wait(struct sim_dap *d);

/* CTRL/STAT as read: power-up and reset ACKs follow their requests at
 * once (spec/openocd.md 2.2: dap init polls for them). */
uint32_t sim_dap_ctrl_read(const struct sim_dap *d);
/* CTRL/STAT written: the RW bits; with w1c (JTAG-DP) a 1 in a sticky bit
 * clears it, else (SW-DP) sticky bits are read-only (spec 7.2). */
void sim_dap_ctrl_write(struct sim_dap *d, uint32_t v, bool w1c);
/* ABORT written: DAPABORT ends the AP's busy time; with clears (SW-DP)
 * bits [4:1] clear the sticky flags, on a JTAG-DP they are SBZ (spec 7.2). */
void sim_dap_abort(struct sim_dap *d, uint32_t v, bool clears);
/* A DP read of A = addr other than ABORT/RESEND/TARGETSEL, which are the
 * wire's own: DPIDR, CTRL/STAT and its banks (DLCR, TARGETID, DLPIDR on a
 * DPv2), SELECT.  RDBUFF is the front end's latch; *v untouched. */
void sim_dap_dp_read(struct sim_dap *d, uint32_t addr, uint32_t *v);
/* A DP write of CTRL/STAT (bank 0) or SELECT. */
void sim_dap_dp_write(struct sim_dap *d, uint32_t addr, uint32_t v, bool w1c);

/*
 * An APACC at A = addr (banked by SELECT.APBANKSEL).  SIM_ACK_FAULT when a
 * sticky flag made the DP discard it (nothing done); else SIM_ACK_OK,
 * also when the access itself fails (an APB error or the debug domain
 * off sets STICKYERR: later accesses FAULT; spec 7.4).  A read stores its
 * result in *v only when it has one, so *v keeps what the caller put there
 * (its latch) otherwise.  Starts the AP's busy time.
 */
enum sim_ack sim_dap_ap_read(struct sim_dap *d, uint32_t addr, uint32_t *v);
enum sim_ack sim_dap_ap_write(struct sim_dap *d, uint32_t addr, uint32_t v);

/* An overrun as ORUNDETECT would catch it (fault injection dp:overrun). */
void sim_dap_set_overrun(struct sim_dap *d);
/* A sticky error from the wire itself (a write-data parity error sets
 * WDATAERR, swd 4.7). */
void sim_dap_set_sticky(struct sim_dap *d, uint32_t bit);

#endif

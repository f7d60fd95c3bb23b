/*
 * jtag_internal.h - state of the simulated JTAG-DP, shared by the files
 * of the sim's TAP (internal to lib/sim/).
 *
 * jtag.c     IEEE 1149.1 TAP: states, IR/DR shift, pins, resets, stats
 * jtag_dp.c  ADIv5 JTAG-DP front end: DPACC/APACC/ABORT scans onto the
 *            shared DP/AP model (dap.c: CTRL/STAT, SELECT, the APB MEM-AP)
 * swdp.c     SW-DP front end (SWCLK/SWDIO) onto the same model, and the
 *            SWJ-DP's switch between the two wires
 *
 * Facts: spec/arm-pmu-coresight.md 7.1-7.4 (cited as "spec 7.x").
 */
#ifndef PP_SIM_JTAG_INTERNAL_H
#define PP_SIM_JTAG_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "sim/dap.h"
#include "sim/jtag.h"
#include "sim/swdp_internal.h"

/* IR codes, 4 bits (spec 7.1); anything else selects BYPASS. */
#define JT_IR_ABORT  0x8u
#define JT_IR_DPACC  0xAu
#define JT_IR_APACC  0xBu
#define JT_IR_IDCODE 0xEu
#define JT_IR_BYPASS 0xFu
#define JT_IR_LEN    4u
#define JT_IR_CAPTURE 0x1u          /* Capture-IR loads 0b0001 */

#define JT_ACC_LEN   35u            /* DPACC/APACC/ABORT DR length */
#define JT_ACK_OK    0x2u           /* ADIv5 OK/FAULT (spec 7.1) */
#define JT_ACK_WAIT  0x1u

/* A TAP of the chain other than the DAP (the target's jtag.chain;
 * spec/jtag-chains.md 3): IDCODE selected by Test-Logic-Reset when it has
 * one, else BYPASS; every IR value an IR scan loads selects BYPASS (the
 * tools only ever load BYPASS into such TAPs). */
struct jt_xtap {
    uint32_t idcode;            /* 0: none, BYPASS after reset too */
    uint32_t ircapture;         /* Capture-IR value */
    uint8_t  irlen;             /* 1..32 */
    bool     idsel;             /* IDCODE selected, else BYPASS */
    uint32_t ir_sr;             /* IR shift register */
    uint32_t dr_sr;             /* DR shift register, bit 0 next out */
    uint8_t  dr_len;            /* 32 (IDCODE) or 1 (BYPASS) */
};

#define JT_MAX_XTAPS 15         /* a chain of 16 (link/jtag.h) */

/* IEEE 1149.1 TAP controller states. */
enum jt_state {
    JT_TLR, JT_IDLE,
    JT_SEL_DR, JT_CAP_DR, JT_SHIFT_DR, JT_EXIT1_DR, JT_PAUSE_DR, JT_EXIT2_DR, JT_UPD_DR,
    JT_SEL_IR, JT_CAP_IR, JT_SHIFT_IR, JT_EXIT1_IR, JT_PAUSE_IR, JT_EXIT2_IR, JT_UPD_IR,
    JT_NSTATES
};

struct pp_simjtag {
    struct pp_sim *sim;

    /* TAP */
    uint8_t  state;             /* enum jt_state */
    uint8_t  ir;                /* current instruction */
    uint8_t  ir_sr;             /* IR shift register */
    uint8_t  dr_len;            /* length of the selected DR */
    uint64_t dr_sr;             /* DR shift register, bit 0 next out */
    bool     tck;               /* pin levels last driven */
    bool     trst, srst;
    bool     tdo;               /* TDO as driven now */
    bool     tdo_next;          /* what the next falling edge drives */

    /* JTAG-DP (jtag_dp.c) */
    uint32_t idcode;
    uint32_t rdata;             /* ReadResult latch: captured by the next scan */
    bool     scan_ok;           /* this DR scan's Capture-DR answered OK */

    /* The DP and AP registers (dap.c), shared with the SW-DP below.  The
     * anonymous twin names the same fields directly (j->select, j->csw,
     * j->tar), as the code and tests written before the split do. */
    union {
        struct sim_dap dap;
        struct { SIM_DAP_FIELDS };
    };

    /* SW-DP (swdp.c): which wire answers, and the serial engine. */
    uint8_t  kind;              /* enum pp_dp_kind of the target */
    bool     swd;               /* SWCLK/SWDIO answer, not the TAP */
    struct sim_swdp sw;

    /* The chain: positions 0..nx counted from TDI, the DAP at dap_pos,
     * x[] the others in TDI-to-TDO order (jtag.c). */
    unsigned nx, dap_pos;
    struct jt_xtap x[JT_MAX_XTAPS];

    struct pp_simjtag_stats st;
};

/* jtag.c */
/* One rising edge of TCK (SWCLK) with TMS (SWDIO) and TDI at these levels. */
void jt_clock_rise(struct pp_simjtag *j, bool tms, bool tdi);
/* Test-Logic-Reset, IDCODE (or BYPASS) selected in every TAP. */
void jt_tap_reset(struct pp_simjtag *j);

/* jtag_dp.c */
void jt_dp_init(struct pp_simjtag *j);
/* The sim forgets its TAP (DP faults then have nowhere to go). */
void jt_dp_detach(struct pp_simjtag *j);
/* Capture-DR of DPACC/APACC/ABORT: decides ACK, returns the 35 bits. */
uint64_t jt_dp_capture(struct pp_simjtag *j);
/* Update-DR of DPACC/APACC/ABORT with the 35 bits shifted in. */
void jt_dp_update(struct pp_simjtag *j, uint64_t dr);
/* nSRST asserted (held true) or released: warm reset of the cores while
 * held (DP and AP keep their state). */
void jt_srst(struct pp_simjtag *j, bool held);

#endif

/*
 * swdp_internal.h - state of the simulated SW-DP's serial engine (internal
 * to lib/sim/; the pins are in swdp.h, the registers in dap.h).
 *
 * Facts: spec/cmsis-dap-swd.md 4 ("swd 4.x"), spec/arm-pmu-coresight.md
 * 7.5 ("spec 7.5").
 */
#ifndef PP_SIM_SWDP_INTERNAL_H
#define PP_SIM_SWDP_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

struct pp_simjtag;

/* Link states of a DPv2 SW-DP (swd 4.5); dormant is not modelled. */
enum sw_link {
    SW_LOCKOUT,       /* SWDIO not driven until a line reset */
    SW_RESET,         /* after a line reset: only a DPIDR read or TARGETSEL */
    SW_ACTIVE
};

/* Where in a packet the engine is (swd 4.2). */
enum sw_phase {
    SW_IDLE,          /* waiting for a Start bit */
    SW_HIGH,          /* line held high: not a request, wait for a 0 */
    SW_REQ,           /* request bits 1..7 */
    SW_TRN_ACK,       /* turnaround before the ACK */
    SW_ACK,           /* the target drives 3 ACK bits */
    SW_RDATA,         /* the target drives 32 data bits + parity */
    SW_TRN,           /* turnaround back to the host, then `after` */
    SW_WDATA,         /* the host drives 32 data bits + parity */
    SW_SKIP           /* `left` clocks ignored, then idle (or a TARGETSEL's data) */
};

struct sim_swdp {
    uint8_t  link;              /* enum sw_link */
    uint8_t  phase;             /* enum sw_phase */
    uint8_t  after;             /* SW_TRN: the phase that follows */
    uint8_t  req;               /* request bits so far, LSB first */
    uint8_t  ack;               /* 1 OK, 2 WAIT, 4 FAULT (spec 7.5) */
    bool     targetsel;         /* SW_WDATA: a TARGETSEL, not a register write */
    unsigned nbit;              /* bits done in this phase */
    unsigned left;              /* SW_SKIP: clocks still to ignore */
    uint64_t sr;                /* data shift register, bit 0 next */
    bool     drive;             /* the target drives SWDIO now */
    bool     out;               /* ... with this level */
    bool     on_tdi;            /* SWDIO on TDI/TDO (pp_simswd_set_swdio_pin) */
    uint32_t rdbuf;             /* RDBUFF: the last AP read's result */
    uint32_t resend;            /* RESEND: the last AP/RDBUFF read's data */
    unsigned ones;              /* consecutive 1s the host left on the line */
    /* SWJ-DP select detector (swd 4.4): after >= 50 ones, the next 16
     * bits from the first 0 on. */
    bool     armed;
    unsigned nseq;
    uint16_t seq;
};

/* swdp.c: called by jtag.c */
/* The TAP was built: SW-DP state for the target's dp kind. */
void sw_init(struct pp_simjtag *j);
/* The SWDIO level the host sees now: the target's bit while it drives,
 * else 1 (what TDO reads with SWDIO on TDI/TDO, before the host's bit). */
bool sw_line_out(const struct pp_simjtag *j);
/* One rising edge of SWCLK/TCK with SWDIO/TMS at line, on a SW-DP or a
 * SWJ-DP (a SWJ-DP in JTAG mode only watches for the select sequence).
 * True when SWD took the edge: the TAP must not see it. */
bool sw_edge(struct pp_simjtag *j, bool line);

#endif

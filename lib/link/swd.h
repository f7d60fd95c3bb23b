/*
 * swd.h - the SWD wire engine (internal API): ADIv5 DP/AP transfers as
 * Serial Wire Debug packets, over a small bit-level wire of its own.
 *
 * Facts: spec/cmsis-dap-swd.md 4 ("swd 4.x") and 5 (FTDI), spec/arm-pmu-
 * coresight.md 7.2 and 7.5 ("spec 7.x").
 *
 * The engine queues whole packets on the wire and flushes once per batch,
 * the way an FTDI MPSSE adapter wants it (swd 5.2): the request, then the
 * turnaround/ACK/data phase read in one go, then for a write the 33 data
 * bits, whatever the ACK.  That is only safe with CTRL/STAT.ORUNDETECT
 * set: a WAIT or FAULT then makes the SW-DP ignore the data phase and
 * FAULT every later access until ABORT.ORUNERRCLR, so nothing after a
 * WAIT runs out of order (swd 4.8).  pp_swd_power_up sets it.
 *
 * The transfers are lib/adi's struct pp_dp_xfer, so the DP transport
 * boundary can hand the JTAG-DP's lists to this engine unchanged.
 */
#ifndef PP_LINK_SWD_H
#define PP_LINK_SWD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "adi/adi.h"

/* ---- the wire below the engine ------------------------------------------- */

struct pp_swd_wire;

/* One per way of moving SWCLK/SWDIO (in-process sim pins: swd_simpins.c;
 * an FTDI MPSSE layout later).  Bits are LSB first in each byte, one
 * SWCLK per bit.  Returns PP_OK or a negative pp_err; never prints. */
struct pp_swd_wire_ops {
    const char *name;
    /* Queue n clocks with the host driving SWDIO to bits[]. */
    int (*seq_out)(struct pp_swd_wire *w, const uint8_t *bits, unsigned n);
    /* Queue n clocks with SWDIO released, sampled (SWCLK low) into in[],
     * which must stay valid until the next flush fills it. */
    int (*seq_in)(struct pp_swd_wire *w, uint8_t *in, unsigned n);
    /* Run what is queued: every seq_in buffer is filled on return. */
    int (*flush)(struct pp_swd_wire *w);
    /* Frees the wire; optional (NULL: nothing to free). */
    void (*free)(struct pp_swd_wire *w);
    /* What the layer below said of its last failure ("" or NULL: nothing
     * more than the error code); optional.  An unplugged adapter must be
     * named as such, not only as a lost link (docs/reliability.md). */
    const char *(*errmsg)(struct pp_swd_wire *w);
};

struct pp_swd_wire {
    const struct pp_swd_wire_ops *ops;
    const char *name;         /* this wire's own name, or NULL for ops->name */
};

/* ---- the engine ---------------------------------------------------------- */

/* ACK values on the wire, LSB first (spec 7.5). */
#define PP_SWD_ACK_OK    0x1u
#define PP_SWD_ACK_WAIT  0x2u
#define PP_SWD_ACK_FAULT 0x4u

/* SW-DP ABORT bits (spec 7.2). */
#define PP_SWD_ABORT_DAPABORT   (1u << 0)
#define PP_SWD_ABORT_STKCMPCLR  (1u << 1)
#define PP_SWD_ABORT_STKERRCLR  (1u << 2)
#define PP_SWD_ABORT_WDERRCLR   (1u << 3)
#define PP_SWD_ABORT_ORUNERRCLR (1u << 4)
#define PP_SWD_ABORT_CLEARALL   0x1Eu

#define PP_SWD_WAIT_RETRIES 8u      /* default WAIT rounds per pp_swd_exec */

struct pp_swd_stats {
    uint64_t runs;            /* pp_swd_exec calls */
    uint64_t packets;         /* packets sent (transfers, SELECT, RDBUFF, CTRL/STAT, ABORT) */
    uint64_t clocks;          /* SWCLK cycles queued */
    uint64_t flushes;         /* wire flushes: round trips */
    uint64_t select_writes;   /* SELECT writes the cache did not save */
    uint64_t waits;           /* packets answered WAIT */
    uint64_t wait_rounds;     /* recoveries after a WAIT (ABORT ORUNERRCLR, resend) */
    uint64_t faults;          /* packets answered FAULT */
};

struct pp_swd;

/* An engine over wire (which the caller keeps and frees after the
 * engine).  NULL on OOM. */
struct pp_swd *pp_swd_new(struct pp_swd_wire *wire);
void pp_swd_free(struct pp_swd *s);

/*
 * Brings the SW-DP up: from_jtag sends JTAG-to-SWD (>= 50 ones, 0xE79E),
 * then always a line reset (>= 50 ones, 2 idle) and the DPIDR read that
 * must follow it (swd 4.4, 4.5).  One flush.  *dpidr (may be NULL) gets
 * DPIDR.  PP_E_NOTFOUND when nothing answers (ACK 0b111: no SW-DP, or a
 * JTAG-only DP that ignored the sequence), PP_E_PROTO on another bad ACK
 * or a data parity error; the message is in pp_swd_errmsg.  Forgets the
 * SELECT cache.
 */
int pp_swd_connect(struct pp_swd *s, bool from_jtag, uint32_t *dpidr);

/* SWD-to-JTAG (>= 50 ones, 0xE73C, >= 5 ones) for a SWJ-DP; one flush. */
int pp_swd_to_jtag(struct pp_swd *s);

/*
 * Clears every sticky flag (ABORT 0x1E), asks for debug and system power
 * with ORUNDETECT set, and polls CTRL/STAT for both ACKs (spec 7.2).  One
 * round trip when the DP acknowledges at once; PP_E_TIMEOUT after 16.
 */
int pp_swd_power_up(struct pp_swd *s, char *err, size_t errlen);

/*
 * Runs x[i] for every i in [0, n) with done == 0, in order, in as few
 * flushes as WAITs allow (one when none comes), the way pp_dp_exec does
 * for the JTAG-DP (adi.h), with the SW-DP's rules:
 *  - DP transfers: addr 0x0 read DPIDR / write ABORT, 0x4 CTRL/STAT (or
 *    the bank SELECT.DPBANKSEL names), 0x8 read RESEND / write SELECT,
 *    0xC read RDBUFF.  A TARGETSEL write (0xC) is refused (PP_E_INVAL):
 *    it belongs right after a line reset, to pp_swd_connect.
 *  - AP transfers: SELECT is written where apsel or the register's bank
 *    (addr & 0xF0) changes, cached across calls.  Reads are posted: a
 *    read's result is taken from the next AP read's data phase, or from
 *    an RDBUFF read the engine appends after the last one; a read is done
 *    once its result is in.
 *  - Every run ends with a CTRL/STAT read into *ctrl (may be NULL), so a
 *    sticky error of the last AP access is seen, and 8 idle clocks (swd
 *    4.9).  Every x[i].tck_at gets the clock position, from the start of
 *    the run, where its packet ended; x[i].not_before is honoured with
 *    idle clocks (repeat mode).
 *  - WAIT: the transfers before it are kept; the WAIT set STICKYORUN, so
 *    every later packet was FAULTed and did nothing.  The engine writes
 *    ABORT.ORUNERRCLR and sends the rest again, at most wait_retries
 *    times (pp_swd_set_wait_retries), then returns PP_E_WAIT.
 *  - FAULT (a sticky flag other than an overrun the engine caused, e.g.
 *    STICKYERR after an APB error response): PP_E_FAULT; the transfers
 *    after the last done one are not done (a posted read whose result
 *    never came stays not done), *ctrl holds CTRL/STAT, and the flags stay
 *    set for the caller to read and clear (pp_swd_abort).
 *  - PP_E_PROTO on an ACK that is none of OK/WAIT/FAULT (the SW-DP is
 *    locked out: pp_swd_connect again) or a read-data parity error;
 *    the wire's error (PP_E_LINK, ...) as it comes.  Message in
 *    pp_swd_errmsg.
 */
int pp_swd_exec(struct pp_swd *s, struct pp_dp_xfer *x, size_t n, uint32_t *ctrl);

/* Writes ABORT (always accepted, spec 7.2): bits PP_SWD_ABORT_*.  One
 * flush.  Forgets nothing but the SELECT cache stays valid. */
int pp_swd_abort(struct pp_swd *s, uint32_t bits);

/* WAIT rounds pp_swd_exec makes before PP_E_WAIT (default 8). */
void pp_swd_set_wait_retries(struct pp_swd *s, unsigned n);
/* Forget the SELECT cache (after a reconnect or something that wrote
 * SELECT behind the engine's back). */
void pp_swd_forget_select(struct pp_swd *s);

void pp_swd_get_stats(const struct pp_swd *s, struct pp_swd_stats *out);
const char *pp_swd_errmsg(const struct pp_swd *s);

/* The request byte of a packet (swd 4.1): Start, APnDP, RnW, A[3:2],
 * even parity over those four, Stop 0, Park 1. */
uint8_t pp_swd_request(bool ap, bool rnw, uint8_t addr);

#endif

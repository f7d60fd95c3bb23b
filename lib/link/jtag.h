/*
 * jtag.h - the JTAG layer over a pp_link (internal API): TAP state
 * tracking, IR/DR scans on a chain of TAPs, idle cycles, and the TCK and
 * round-trip counts the link keeps.
 *
 * Every call below only queues TCK cycles on the link; pp_jtag_flush()
 * sends them and fills the TDO buffers, so everything between two flushes
 * is one round trip on a pipelined link (design.md rule 1).
 *
 * The chain: taps[0] is the TAP nearest TDO, taps[n-1] the one nearest
 * TDI.  A scan's bits go out LSB first; the first bits shifted in end up
 * in taps[0] and the first bits out come from taps[0].  Scans address one
 * "active" TAP; the others get BYPASS in IR scans (all ones) and their
 * one-bit bypass register in DR scans.
 *
 * Costs (spec/ftdi-mpsse-jtag.md 4.2): a DR scan of n bits from Update-xR
 * or Run-Test/Idle is 3 + n + 1 TCK up to Update-DR (+1 per bypassed TAP);
 * an IR scan of the 4-bit JTAG-DP alone is 9 TCK.  Idle cycles asked for
 * after a scan come on top.
 *
 * Every TMS move holds TDI at the last bit shifted (TDI is sampled in
 * Shift-xR only), so a link can fold a scan's last bit and the moves after
 * it into one TMS command (spec/ftdi-mpsse-jtag.md 4.3).
 */
#ifndef PP_LINK_JTAG_H
#define PP_LINK_JTAG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "link/link.h"

/* IEEE 1149.1 TAP controller states. */
enum pp_tap_state {
    PP_TAP_RESET, PP_TAP_IDLE,
    PP_TAP_DRSELECT, PP_TAP_DRCAPTURE, PP_TAP_DRSHIFT, PP_TAP_DREXIT1, PP_TAP_DRPAUSE,
    PP_TAP_DREXIT2, PP_TAP_DRUPDATE,
    PP_TAP_IRSELECT, PP_TAP_IRCAPTURE, PP_TAP_IRSHIFT, PP_TAP_IREXIT1, PP_TAP_IRPAUSE,
    PP_TAP_IREXIT2, PP_TAP_IRUPDATE,
    PP_TAP_NSTATES,
    PP_TAP_UNKNOWN = PP_TAP_NSTATES   /* after a link error, before the first reset */
};

/* The state a TMS level leads to on a rising TCK edge. */
enum pp_tap_state pp_tap_next(enum pp_tap_state s, bool tms);
/* "Run-Test/Idle"; never NULL. */
const char *pp_tap_state_name(enum pp_tap_state s);
/* Shortest TMS path from one known state to another: bits in *tms (LSB
 * first), returns the number of TCKs (0..8). */
unsigned pp_tap_path(enum pp_tap_state from, enum pp_tap_state to, uint8_t *tms);

#define PP_JTAG_MAX_TAPS 16
#define PP_JTAG_MAX_IRLEN 32

struct pp_jtag_tap {
    unsigned irlen;
    uint32_t idcode;          /* 0: the TAP has no IDCODE (BYPASS after reset) */
};

struct pp_jtag;

/* A JTAG layer over link, which it does not own.  Starts with a one-TAP
 * chain of IR length 4 (a lone JTAG-DP) and the TAP state unknown.  NULL
 * when out of memory. */
struct pp_jtag *pp_jtag_new(struct pp_link *link);
void pp_jtag_free(struct pp_jtag *j);            /* NULL-safe */
struct pp_link *pp_jtag_link(const struct pp_jtag *j);
/* Reports every IR/DR scan and round trip to tr (not owned; NULL stops):
 * lib/trace.h. */
struct pp_trace;
void pp_jtag_set_trace(struct pp_jtag *j, struct pp_trace *tr);

/* Describes the chain (taps[0] nearest TDO) and which TAP the scans
 * address.  PP_E_INVAL for an empty or too long chain, an IR length
 * outside 1..32, or active out of range. */
int pp_jtag_set_chain(struct pp_jtag *j, const struct pp_jtag_tap *taps, unsigned ntaps,
                      unsigned active);
const struct pp_jtag_tap *pp_jtag_tap(const struct pp_jtag *j, unsigned i);
/* Which TAP the scans address (taps[0] nearest TDO). */
unsigned pp_jtag_active(const struct pp_jtag *j);

/* What one look at the chain found (pp_jtag_scan). */
struct pp_jtag_scan {
    unsigned n;                             /* TAPs, from the IDCODE scan */
    uint32_t idcode[PP_JTAG_MAX_TAPS];      /* nearest TDO first; 0: BYPASS */
    unsigned irtotal;                       /* sum of the IR lengths */
    uint8_t  ircap[PP_JTAG_MAX_TAPS * PP_JTAG_MAX_IRLEN / 8]; /* Capture-IR bits,
                                             * first out (nearest TDO) = bit 0 */
};

/*
 * Looks at the chain in one flush: resets the TAPs and reads every IDCODE
 * (a TAP without one shows its one-bit BYPASS; the ones shifted in end
 * the chain), then makes two Shift-IR passes through Capture-IR, one
 * feeding ones and one feeding 32 zeros then ones: the captured bits are
 * the same in both, so the first bit where the two differ is the total IR
 * length (the probe-rs method, spec/jtag-chains.md 2.5).  Both passes end
 * with ones in every IR: every TAP is left in BYPASS.  PP_E_NOTFOUND when
 * no TAP answered (TDO stuck) or the chain is longer than
 * PP_JTAG_MAX_TAPS, link errors as pp_jtag_flush.
 */
int pp_jtag_scan(struct pp_jtag *j, struct pp_jtag_scan *out);

/*
 * pp_jtag_scan, then the IR lengths without a description: known IDCODEs
 * from the table (pp_jtag_known_irlen), the rest split where each
 * capture pattern starts (its mandatory ...01; right when the rest of
 * the pattern is zeros, as for the JTAG-DP's 0b0001).  Fills
 * taps[0..*ntaps) nearest TDO first.  PP_E_NOTFOUND as pp_jtag_scan,
 * PP_E_PARSE when the IR lengths cannot be told (describe the chain:
 * pp_jtag_chain_apply).  Does not change the chain description.
 */
int pp_jtag_detect(struct pp_jtag *j, struct pp_jtag_tap *taps, unsigned max, unsigned *ntaps);

/* Queues five TCKs with TMS high: Test-Logic-Reset from any state. */
int pp_jtag_tlr(struct pp_jtag *j);
/* Queues the shortest path to a state (through Test-Logic-Reset when the
 * state is unknown). */
int pp_jtag_goto(struct pp_jtag *j, enum pp_tap_state to);
/* Queues n TCKs with TMS low ending in Run-Test/Idle.  From Update-xR or
 * Run-Test/Idle the first of them is the step into Run-Test/Idle; from
 * elsewhere the path there comes first. */
int pp_jtag_idle(struct pp_jtag *j, unsigned n);

/* Queues an IR scan loading ir into the active TAP and BYPASS into the
 * others, ending in Update-IR.  Skipped (no TCK) when the chain already
 * holds exactly that. */
int pp_jtag_ir(struct pp_jtag *j, uint32_t ir);
/* Forgets what the IRs hold (the next pp_jtag_ir always scans). */
void pp_jtag_forget_ir(struct pp_jtag *j);
/*
 * Queues a DR scan of nbits through the active TAP (the other TAPs'
 * bypass bits are added and dropped here), ending in Update-DR, then
 * idle TCKs as pp_jtag_idle.  tdi NULL shifts zeros; tdo (NULL: not
 * captured) is filled by the next flush and must stay valid until then.
 */
int pp_jtag_dr(struct pp_jtag *j, const uint8_t *tdi, uint8_t *tdo, unsigned nbits,
               unsigned idle);
/* Queues a scan of the whole IR or DR chain as it is (no bypass
 * handling), ending in end (a state reachable after Exit1-xR). */
int pp_jtag_scan_chain(struct pp_jtag *j, bool ir, const uint8_t *tdi, uint8_t *tdo,
                       unsigned nbits, enum pp_tap_state end);

/* Sends what is queued and waits for the replies: one round trip.  On a
 * link error the TAP state and IRs become unknown. */
int pp_jtag_flush(struct pp_jtag *j);

enum pp_tap_state pp_jtag_state(const struct pp_jtag *j);
/* TCKs queued since the layer was made (stats.tck_queued): where the next
 * TCK falls in the schedule. */
uint64_t pp_jtag_tck_queued(const struct pp_jtag *j);

struct pp_jtag_stats {
    uint64_t ir_scans, dr_scans;   /* scans queued */
    uint64_t ir_skipped;           /* pp_jtag_ir calls that needed no scan */
    uint64_t tck_queued;           /* TCKs queued so far, flushed or not: a
                                    * position in the TCK schedule */
};
void pp_jtag_get_stats(const struct pp_jtag *j, struct pp_jtag_stats *out);

/* Bit helpers for LSB-first buffers. */
static inline bool pp_bit_get(const uint8_t *buf, unsigned i)
{
    return (buf[i / 8] >> (i % 8)) & 1u;
}

static inline void pp_bit_put(uint8_t *buf, unsigned i, bool v)
{
    if (v)
        buf[i / 8] = (uint8_t)(buf[i / 8] | (1u << (i % 8)));
    else
        buf[i / 8] = (uint8_t)(buf[i / 8] & ~(1u << (i % 8)));
}

#endif

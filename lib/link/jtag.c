/*
 * jtag.c - TAP state tracking and IR/DR scans on a chain, built from the
 * link's three queueing primitives (link.h).  The state is tracked on the
 * host side only: nothing here reads the TAP back, so a link error makes
 * it unknown and the next move starts with a reset.
 *
 * TDI during TMS moves: IEEE 1149.1 samples TDI only on edges in
 * Shift-xR, so every move holds TDI at the last bit shifted.  The last
 * bit of a scan rides on the TMS edge into Exit1-xR, and the moves after
 * it (to Update-xR, Run-Test/Idle, the next Shift-xR) then have the same
 * TDI, so an MPSSE encoder can fold the scan tail into one TMS command
 * (spec/ftdi-mpsse-jtag.md 4.3: "6B 04 (0x07 | bit34<<7)").
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "link/jtag.h"
#include "trace.h"

/* next[state][tms] (IEEE 1149.1 figure 6-1). */
static const uint8_t tap_next[PP_TAP_NSTATES][2] = {
    [PP_TAP_RESET]     = { PP_TAP_IDLE, PP_TAP_RESET },
    [PP_TAP_IDLE]      = { PP_TAP_IDLE, PP_TAP_DRSELECT },
    [PP_TAP_DRSELECT]  = { PP_TAP_DRCAPTURE, PP_TAP_IRSELECT },
    [PP_TAP_DRCAPTURE] = { PP_TAP_DRSHIFT, PP_TAP_DREXIT1 },
    [PP_TAP_DRSHIFT]   = { PP_TAP_DRSHIFT, PP_TAP_DREXIT1 },
    [PP_TAP_DREXIT1]   = { PP_TAP_DRPAUSE, PP_TAP_DRUPDATE },
    [PP_TAP_DRPAUSE]   = { PP_TAP_DRPAUSE, PP_TAP_DREXIT2 },
    [PP_TAP_DREXIT2]   = { PP_TAP_DRSHIFT, PP_TAP_DRUPDATE },
    [PP_TAP_DRUPDATE]  = { PP_TAP_IDLE, PP_TAP_DRSELECT },
    [PP_TAP_IRSELECT]  = { PP_TAP_IRCAPTURE, PP_TAP_RESET },
    [PP_TAP_IRCAPTURE] = { PP_TAP_IRSHIFT, PP_TAP_IREXIT1 },
    [PP_TAP_IRSHIFT]   = { PP_TAP_IRSHIFT, PP_TAP_IREXIT1 },
    [PP_TAP_IREXIT1]   = { PP_TAP_IRPAUSE, PP_TAP_IRUPDATE },
    [PP_TAP_IRPAUSE]   = { PP_TAP_IRPAUSE, PP_TAP_IREXIT2 },
    [PP_TAP_IREXIT2]   = { PP_TAP_IRSHIFT, PP_TAP_IRUPDATE },
    [PP_TAP_IRUPDATE]  = { PP_TAP_IDLE, PP_TAP_DRSELECT },
};

static const char *const tap_names[PP_TAP_NSTATES + 1] = {
    "Test-Logic-Reset", "Run-Test/Idle",
    "Select-DR-Scan", "Capture-DR", "Shift-DR", "Exit1-DR", "Pause-DR", "Exit2-DR",
    "Update-DR",
    "Select-IR-Scan", "Capture-IR", "Shift-IR", "Exit1-IR", "Pause-IR", "Exit2-IR",
    "Update-IR",
    "unknown",
};

/* Longest IDCODE/IR scan detect makes: every TAP at its longest, plus the
 * 32 ones that mark the chain's end. */
#define DETECT_BITS (PP_JTAG_MAX_TAPS * 32u + 32u)

/* BYPASS is all ones in every TAP's IR (IEEE 1149.1 8.4); 640 bits at a
 * time, enough for a whole detect scan. */
#define ONES8 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF
static const uint8_t ones[80] = { ONES8, ONES8, ONES8, ONES8, ONES8, ONES8, ONES8, ONES8,
                                  ONES8, ONES8 };
#define ONES_BITS (8u * sizeof(ones))
_Static_assert(ONES_BITS >= DETECT_BITS, "detect scans shift ones in one piece");

struct pp_jtag {
    struct pp_link *link;
    struct pp_jtag_tap taps[PP_JTAG_MAX_TAPS];
    unsigned ntaps, active;
    enum pp_tap_state state;
    bool tdi_hold;            /* the last bit shifted (see the top) */
    bool ir_known;
    uint32_t ir;
    struct pp_jtag_stats st;
    /* The wire trace (trace.h): scans queued since the last flush, shown
     * with their TDO once it came back. */
    struct pp_trace *trace;
    struct wire_scan *wire;
    size_t nwire, wirecap;
    struct pp_link_stats wire_last;
};

enum pp_tap_state pp_tap_next(enum pp_tap_state s, bool tms)
{
    if (s >= PP_TAP_NSTATES)
        return PP_TAP_UNKNOWN;
    return (enum pp_tap_state)tap_next[s][tms ? 1 : 0];
}

const char *pp_tap_state_name(enum pp_tap_state s)
{
    return s <= PP_TAP_NSTATES ? tap_names[s] : tap_names[PP_TAP_NSTATES];
}

/* Breadth-first over the 16 states; every state is at most 8 TCKs from
 * every other (Pause-IR to Pause-DR and the like), so the path fits one
 * byte. */
unsigned pp_tap_path(enum pp_tap_state from, enum pp_tap_state to, uint8_t *tms)
{
    uint8_t prev[PP_TAP_NSTATES], bit[PP_TAP_NSTATES], queue[PP_TAP_NSTATES];
    bool seen[PP_TAP_NSTATES] = { false };
    unsigned head = 0, tail = 0, len = 0;
    uint8_t path = 0;

    *tms = 0;
    if (from >= PP_TAP_NSTATES || to >= PP_TAP_NSTATES || from == to)
        return 0;
    seen[from] = true;
    queue[tail++] = (uint8_t)from;
    while (head < tail && !seen[to]) {
        uint8_t s = queue[head++];

        for (unsigned b = 0; b < 2; b++) {
            uint8_t n = tap_next[s][b];

            if (seen[n])
                continue;
            seen[n] = true;
            prev[n] = s;
            bit[n] = (uint8_t)b;
            queue[tail++] = n;
        }
    }
    /* Walk back from 'to', then reverse into LSB-first order. */
    for (uint8_t s = (uint8_t)to; s != from; s = prev[s])
        path = (uint8_t)(path << 1 | bit[s]), len++;
    *tms = path;
    return len;
}

struct pp_jtag *pp_jtag_new(struct pp_link *link)
{
    struct pp_jtag *j = calloc(1, sizeof(*j));

    if (!j)
        return NULL;
    j->link = link;
    j->taps[0].irlen = 4;
    j->ntaps = 1;
    j->state = PP_TAP_UNKNOWN;
    return j;
}

void pp_jtag_free(struct pp_jtag *j)
{
    if (!j)
        return;
    free(j->wire);
    free(j);
}

struct pp_link *pp_jtag_link(const struct pp_jtag *j)
{
    return j->link;
}

int pp_jtag_set_chain(struct pp_jtag *j, const struct pp_jtag_tap *taps, unsigned ntaps,
                      unsigned active)
{
    if (!ntaps || ntaps > PP_JTAG_MAX_TAPS || active >= ntaps)
        return PP_E_INVAL;
    for (unsigned i = 0; i < ntaps; i++)
        if (taps[i].irlen < 1 || taps[i].irlen > PP_JTAG_MAX_IRLEN)
            return PP_E_INVAL;
    memcpy(j->taps, taps, ntaps * sizeof(*taps));
    j->ntaps = ntaps;
    j->active = active;
    j->ir_known = false;
    return PP_OK;
}

const struct pp_jtag_tap *pp_jtag_tap(const struct pp_jtag *j, unsigned i)
{
    return i < j->ntaps ? &j->taps[i] : NULL;
}

unsigned pp_jtag_active(const struct pp_jtag *j)
{
    return j->active;
}

enum pp_tap_state pp_jtag_state(const struct pp_jtag *j)
{
    return j->state;
}

uint64_t pp_jtag_tck_queued(const struct pp_jtag *j)
{
    return j->st.tck_queued;
}

void pp_jtag_get_stats(const struct pp_jtag *j, struct pp_jtag_stats *out)
{
    *out = j->st;
}

/* Every TCK goes through these two, which count it and keep TDI. */
static int move(struct pp_jtag *j, const uint8_t *tms, unsigned n)
{
    int rc = pp_link_tms(j->link, tms, n, j->tdi_hold);

    if (rc == PP_OK)
        j->st.tck_queued += n;
    return rc;
}

static int shift(struct pp_jtag *j, const uint8_t *tdi, uint8_t *tdo, unsigned n,
                 bool last_tms)
{
    int rc = pp_link_shift(j->link, tdi, tdo, n, last_tms);

    if (rc != PP_OK)
        return rc;
    j->st.tck_queued += n;
    if (n)
        j->tdi_hold = tdi && pp_bit_get(tdi, n - 1);
    return PP_OK;
}

int pp_jtag_tlr(struct pp_jtag *j)
{
    static const uint8_t five = 0x1F;
    int rc = move(j, &five, 5);

    if (rc != PP_OK)
        return rc;
    j->state = PP_TAP_RESET;
    j->ir_known = false;          /* Test-Logic-Reset loads IDCODE or BYPASS */
    return PP_OK;
}

int pp_jtag_goto(struct pp_jtag *j, enum pp_tap_state to)
{
    uint8_t tms;
    unsigned n;
    int rc;

    if (to >= PP_TAP_NSTATES)
        return PP_E_INVAL;
    if (j->state == PP_TAP_UNKNOWN && (rc = pp_jtag_tlr(j)) != PP_OK)
        return rc;
    n = pp_tap_path(j->state, to, &tms);
    if (n && (rc = move(j, &tms, n)) != PP_OK)
        return rc;
    j->state = to;
    return PP_OK;
}

int pp_jtag_idle(struct pp_jtag *j, unsigned n)
{
    static const uint8_t zeros[128];
    int rc;

    if (!n)
        return PP_OK;
    if (j->state != PP_TAP_IDLE && j->state != PP_TAP_DRUPDATE &&
        j->state != PP_TAP_IRUPDATE && (rc = pp_jtag_goto(j, PP_TAP_IDLE)) != PP_OK)
        return rc;
    while (n) {
        unsigned k = n > 8 * sizeof(zeros) ? 8 * sizeof(zeros) : n;

        if ((rc = move(j, zeros, k)) != PP_OK)
            return rc;
        n -= k;
    }
    j->state = PP_TAP_IDLE;
    return PP_OK;
}

/* Shifts n bits of all ones (IR bypass) or zeros (DR bypass, tdi NULL). */
static int shift_fill(struct pp_jtag *j, bool one, unsigned n, bool last_tms)
{
    while (n) {
        unsigned k = n > ONES_BITS ? ONES_BITS : n;
        int rc = shift(j, one ? ones : NULL, NULL, k, last_tms && k == n);

        if (rc != PP_OK)
            return rc;
        n -= k;
    }
    return PP_OK;
}

/* Shifts pre fill bits, the active TAP's bits, post fill bits, and steps
 * from Exit1 to Update.  The caller has moved to Shift-xR. */
static int shift_through(struct pp_jtag *j, bool ir, unsigned pre, const uint8_t *tdi,
                         uint8_t *tdo, unsigned nbits, unsigned post)
{
    static const uint8_t one = 1;
    int rc;

    if (pre && (rc = shift_fill(j, ir, pre, false)) != PP_OK)
        return rc;
    if ((rc = shift(j, tdi, tdo, nbits, post == 0)) != PP_OK)
        return rc;
    if (post && (rc = shift_fill(j, ir, post, true)) != PP_OK)
        return rc;
    if ((rc = move(j, &one, 1)) != PP_OK)
        return rc;
    j->state = ir ? PP_TAP_IRUPDATE : PP_TAP_DRUPDATE;
    return PP_OK;
}

/* ---- the wire trace ------------------------------------------------------- */

/* One scan as the trace shows it: up to 64 bits of TDI and TDO. */
struct wire_scan {
    bool ir;
    unsigned nbits;
    uint64_t tdi;
    const uint8_t *tdo;       /* the caller's buffer, filled by the flush */
};

void pp_jtag_set_trace(struct pp_jtag *j, struct pp_trace *tr)
{
    j->trace = tr;
    j->nwire = 0;
    j->wire_last = j->link->stats;
}

static uint64_t bits64(const uint8_t *buf, unsigned nbits)
{
    uint64_t v = 0;

    for (unsigned b = 0; b < nbits && b < 64; b++)
        v |= (uint64_t)pp_bit_get(buf, b) << b;
    return v;
}

/* Remembers a queued scan; a trace that cannot grow loses the record,
 * never the scan. */
static void wire_note(struct pp_jtag *j, bool ir, const uint8_t *tdi, const uint8_t *tdo,
                      unsigned nbits)
{
    if (!pp_trace_on(j->trace, PP_TRACE_WIRE))
        return;
    if (j->nwire == j->wirecap) {
        size_t cap = j->wirecap ? 2 * j->wirecap : 64;
        struct wire_scan *w = realloc(j->wire, cap * sizeof(*w));

        if (!w)
            return;
        j->wire = w;
        j->wirecap = cap;
    }
    j->wire[j->nwire++] = (struct wire_scan){ .ir = ir, .nbits = nbits, .tdo = tdo,
                                              .tdi = tdi ? bits64(tdi, nbits) : 0 };
}

static void wire_flushed(struct pp_jtag *j, int rc)
{
    const struct pp_link_stats *now = &j->link->stats;

    if (!pp_trace_on(j->trace, PP_TRACE_WIRE))
        return;
    for (size_t i = 0; rc == PP_OK && i < j->nwire; i++) {
        const struct wire_scan *w = &j->wire[i];
        char tdo[24] = "-";

        if (w->tdo)
            snprintf(tdo, sizeof(tdo), "0x%0*" PRIX64, (int)((w->nbits + 3) / 4),
                     bits64(w->tdo, w->nbits));
        pp_trace_text(j->trace, PP_TRACE_WIRE, "wire %s %2u bits  tdi 0x%0*" PRIX64 "  tdo %s%s",
                      w->ir ? "IR" : "DR", w->nbits, (int)((w->nbits + 3) / 4), w->tdi, tdo,
                      w->nbits > 64 ? "  (first 64 bits)" : "");
    }
    if (rc == PP_OK)
        pp_trace_text(j->trace, PP_TRACE_WIRE, "wire round trip: %" PRIu64 " TCK, %" PRIu64
                      " bytes out, %" PRIu64 " bytes in", now->tck - j->wire_last.tck,
                      now->bytes_out - j->wire_last.bytes_out,
                      now->bytes_in - j->wire_last.bytes_in);
    else
        pp_trace_text(j->trace, PP_TRACE_WIRE, "wire round trip failed: %s",
                      j->link->errmsg[0] ? j->link->errmsg : pp_strerror(rc));
    j->nwire = 0;
    j->wire_last = *now;
}

/* ---- scans ---------------------------------------------------------------- */

int pp_jtag_ir(struct pp_jtag *j, uint32_t ir)
{
    unsigned pre = 0, post = 0, len = j->taps[j->active].irlen;
    uint8_t buf[4] = { (uint8_t)ir, (uint8_t)(ir >> 8), (uint8_t)(ir >> 16),
                       (uint8_t)(ir >> 24) };
    int rc;

    if (j->ir_known && j->ir == ir) {
        j->st.ir_skipped++;
        return PP_OK;
    }
    for (unsigned i = 0; i < j->ntaps; i++) {
        if (i < j->active)
            pre += j->taps[i].irlen;
        else if (i > j->active)
            post += j->taps[i].irlen;
    }
    if ((rc = pp_jtag_goto(j, PP_TAP_IRSHIFT)) != PP_OK)
        return rc;
    /* The link copies tdi when queueing (link.h), so buf may go. */
    if ((rc = shift_through(j, true, pre, buf, NULL, len, post)) != PP_OK)
        return rc;
    wire_note(j, true, buf, NULL, len);
    j->st.ir_scans++;
    j->ir_known = true;
    j->ir = ir;
    return PP_OK;
}

void pp_jtag_forget_ir(struct pp_jtag *j)
{
    j->ir_known = false;
}

int pp_jtag_dr(struct pp_jtag *j, const uint8_t *tdi, uint8_t *tdo, unsigned nbits,
               unsigned idle)
{
    int rc;

    if (!nbits)
        return PP_E_INVAL;
    if ((rc = pp_jtag_goto(j, PP_TAP_DRSHIFT)) != PP_OK)
        return rc;
    rc = shift_through(j, false, j->active, tdi, tdo, nbits, j->ntaps - 1 - j->active);
    if (rc != PP_OK)
        return rc;
    wire_note(j, false, tdi, tdo, nbits);
    j->st.dr_scans++;
    return pp_jtag_idle(j, idle);
}

int pp_jtag_scan_chain(struct pp_jtag *j, bool ir, const uint8_t *tdi, uint8_t *tdo,
                       unsigned nbits, enum pp_tap_state end)
{
    int rc;

    if (!nbits)
        return PP_E_INVAL;
    if ((rc = pp_jtag_goto(j, ir ? PP_TAP_IRSHIFT : PP_TAP_DRSHIFT)) != PP_OK)
        return rc;
    if ((rc = shift(j, tdi, tdo, nbits, true)) != PP_OK)
        return rc;
    wire_note(j, ir, tdi, tdo, nbits);
    j->state = ir ? PP_TAP_IREXIT1 : PP_TAP_DREXIT1;
    if (ir) {
        j->ir_known = false;
        j->st.ir_scans++;
    } else
        j->st.dr_scans++;
    return pp_jtag_goto(j, end);
}

int pp_jtag_flush(struct pp_jtag *j)
{
    int rc = pp_link_flush(j->link);

    wire_flushed(j, rc);
    if (rc != PP_OK) {
        j->state = PP_TAP_UNKNOWN;
        j->ir_known = false;
    }
    return rc;
}

/* ---- looking at the chain ------------------------------------------------- */

static uint32_t get32(const uint8_t *buf, unsigned at)
{
    uint32_t v = 0;

    for (unsigned i = 0; i < 32; i++)
        v |= (uint32_t)pp_bit_get(buf, at + i) << i;
    return v;
}

/* IDCODE DR scan after reset: a 1 starts a 32-bit IDCODE (its bit 0 is
 * always 1, IEEE 1149.1 12.1.1), a 0 is a one-bit BYPASS; the ones shifted
 * in read as an IDCODE of 0xFFFFFFFF, which ends the chain. */
static int parse_idcodes(const uint8_t *dr, struct pp_jtag_scan *s)
{
    unsigned i = 0;

    s->n = 0;
    while (i + 32 <= DETECT_BITS) {
        uint32_t id = 0;

        if (pp_bit_get(dr, i)) {
            id = get32(dr, i);
            if (id == 0xFFFFFFFFu)
                return s->n ? PP_OK : PP_E_NOTFOUND;
        }
        if (s->n == PP_JTAG_MAX_TAPS)
            return PP_E_NOTFOUND;       /* TDO stuck low, or a chain too long */
        s->idcode[s->n++] = id;
        i += id ? 32 : 1;
    }
    return PP_E_NOTFOUND;
}

/* Zeros, then ones: the second IR pass (see pp_jtag_scan). */
#define IR_ZEROS 32u
_Static_assert(DETECT_BITS - IR_ZEROS >= PP_JTAG_MAX_TAPS * PP_JTAG_MAX_IRLEN,
               "the IR pass ends with a whole chain of ones: every TAP in BYPASS");

int pp_jtag_scan(struct pp_jtag *j, struct pp_jtag_scan *out)
{
    uint8_t dr[DETECT_BITS / 8], ir1[DETECT_BITS / 8], ir0[DETECT_BITS / 8];
    uint8_t feed[DETECT_BITS / 8];
    unsigned len = 0;
    int rc;

    memset(out, 0, sizeof(*out));
    memset(dr, 0, sizeof(dr));
    memset(ir1, 0, sizeof(ir1));
    memset(ir0, 0, sizeof(ir0));
    memset(feed, 0xFF, sizeof(feed));
    memset(feed, 0, IR_ZEROS / 8);
    if ((rc = pp_jtag_tlr(j)) != PP_OK ||
        (rc = pp_jtag_scan_chain(j, false, ones, dr, DETECT_BITS, PP_TAP_DRUPDATE)) != PP_OK ||
        (rc = pp_jtag_tlr(j)) != PP_OK ||
        (rc = pp_jtag_scan_chain(j, true, ones, ir1, DETECT_BITS, PP_TAP_IRUPDATE)) != PP_OK ||
        (rc = pp_jtag_scan_chain(j, true, feed, ir0, DETECT_BITS, PP_TAP_IDLE)) != PP_OK ||
        (rc = pp_jtag_flush(j)) != PP_OK)
        return rc;
    j->ir_known = false;          /* every TAP now holds BYPASS */
    if ((rc = parse_idcodes(dr, out)) != PP_OK)
        return rc;
    while (len < DETECT_BITS && pp_bit_get(ir1, len) == pp_bit_get(ir0, len))
        len++;
    if (len == 0 || len > PP_JTAG_MAX_TAPS * PP_JTAG_MAX_IRLEN)
        return PP_E_NOTFOUND;     /* TDO does not follow TDI: no chain */
    out->irtotal = len;
    memcpy(out->ircap, ir1, (len + 7) / 8);
    return PP_OK;
}

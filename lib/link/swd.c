/*
 * swd.c - the SWD wire engine (swd.h): packets, posted reads, the SELECT
 * cache, WAIT recovery and FAULT reporting over a struct pp_swd_wire.
 *
 * A run is planned as a list of packets (the caller's transfers, with the
 * SELECT writes, RDBUFF read and CTRL/STAT read the engine adds), queued
 * on the wire as OpenOCD's FTDI driver does it (swd 5.2): 8 request bits
 * out; for a read 38 bits in (turnaround, 3 ACK, 32 data, parity,
 * turnaround), for a write 5 bits in (turnaround, ACK, turnaround) then 33
 * bits out; 8 idle clocks at the end (swd 4.9); one flush.  The results
 * are then read in order; the first packet that is not ACKed OK ends the
 * run (swd 4.7, 4.8: with ORUNDETECT, every later packet FAULTed).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "errmsg.h"
#include "link/swd.h"

#define LINE_RESET_ONES 56u       /* >= 50 (swd 4.4) */
#define IDLE_AFTER_RESET 2u
#define IDLE_AFTER_RUN 8u         /* swd 4.9 */
#define JTAG_TO_SWD 0xE79Eu       /* LSB first (spec 7.5) */
#define SWD_TO_JTAG 0xE73Cu
#define READ_IN_BITS 38u          /* T + ACK + 32 data + parity + T */
#define WRITE_IN_BITS 5u          /* T + ACK + T */
#define DATA_BITS 33u
#define POWER_POLLS 16u
#define NO_XFER SIZE_MAX

enum pkt_role { P_XFER, P_SELECT, P_RDBUFF, P_CTRL, P_ABORT, P_DPIDR };

struct pkt {
    uint8_t  req;
    uint8_t  role;            /* enum pkt_role */
    bool     rnw;
    uint32_t wdata;
    size_t   xi;              /* the transfer it is for, or precedes */
    uint64_t not_before;      /* idle until this clock position */
    uint64_t end;             /* clock position after it */
    uint8_t  cap[5];          /* READ_IN_BITS or WRITE_IN_BITS captured */
};

struct pp_swd {
    struct pp_swd_wire *w;
    struct pkt *p;
    size_t np, cap;
    uint32_t select;          /* SELECT as the DP has it, if select_ok */
    bool select_ok;
    size_t pending;           /* AP read whose result is still in RDBUFF */
    unsigned wait_retries;
    uint64_t pos;             /* clocks queued in this run */
    struct pp_swd_stats st;
    char err[200];
};

static unsigned parity32(uint32_t v)
{
    v ^= v >> 16;
    v ^= v >> 8;
    v ^= v >> 4;
    v ^= v >> 2;
    v ^= v >> 1;
    return v & 1u;
}

uint8_t pp_swd_request(bool ap, bool rnw, uint8_t addr)
{
    unsigned a2 = (addr >> 2) & 1u, a3 = (addr >> 3) & 1u;
    unsigned par = (unsigned)ap ^ (unsigned)rnw ^ a2 ^ a3;

    return (uint8_t)(1u | (unsigned)ap << 1 | (unsigned)rnw << 2 | a2 << 3 | a3 << 4 |
                     par << 5 | 1u << 7);
}

static int fail(struct pp_swd *s, int rc, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(s->err, sizeof(s->err), fmt, ap);
    va_end(ap);
    return rc;
}

static const char *wire_name(const struct pp_swd_wire *w)
{
    return w->name ? w->name : w->ops->name;
}

/* A wire failure, in the words of the layer below where it has some. */
static int wire_fail(struct pp_swd *s, int rc)
{
    const char *why = s->w->ops->errmsg ? s->w->ops->errmsg(s->w) : NULL;

    if (why && *why)
        return fail(s, rc, "swd: the %s wire failed: %s", wire_name(s->w), why);
    return fail(s, rc, "swd: the %s wire failed (%s)", wire_name(s->w), pp_strerror(rc));
}

struct pp_swd *pp_swd_new(struct pp_swd_wire *wire)
{
    struct pp_swd *s = calloc(1, sizeof(*s));

    if (!s)
        return NULL;
    s->w = wire;
    s->pending = NO_XFER;
    s->wait_retries = PP_SWD_WAIT_RETRIES;
    return s;
}

void pp_swd_free(struct pp_swd *s)
{
    if (!s)
        return;
    free(s->p);
    free(s);
}

/* ---- the wire ------------------------------------------------------------ */

static int out_bits(struct pp_swd *s, const uint8_t *bits, unsigned n)
{
    s->pos += n;
    s->st.clocks += n;
    return s->w->ops->seq_out(s->w, bits, n);
}

static int in_bits(struct pp_swd *s, uint8_t *in, unsigned n)
{
    s->pos += n;
    s->st.clocks += n;
    return s->w->ops->seq_in(s->w, in, n);
}

/* n clocks of one level (idle is low, a line reset high). */
static int level(struct pp_swd *s, bool high, uint64_t n)
{
    static const uint8_t zeros[8], ones[8] = { 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF };
    int rc = PP_OK;

    while (n > 0 && rc == PP_OK) {
        unsigned k = n > 64 ? 64u : (unsigned)n;

        rc = out_bits(s, high ? ones : zeros, k);
        n -= k;
    }
    return rc;
}

static int out_word(struct pp_swd *s, uint64_t v, unsigned n)
{
    uint8_t b[8];

    for (unsigned i = 0; i < 8; i++)
        b[i] = (uint8_t)(v >> (8 * i));
    return out_bits(s, b, n);
}

static int flush(struct pp_swd *s)
{
    s->st.flushes++;
    return s->w->ops->flush(s->w);
}

/* ---- packets ------------------------------------------------------------- */

static int reserve(struct pp_swd *s, size_t n)
{
    struct pkt *p;

    if (n <= s->cap)
        return PP_OK;
    p = realloc(s->p, n * sizeof(*p));
    if (!p)
        return fail(s, PP_E_NOMEM, "swd: out of memory");
    s->p = p;
    s->cap = n;
    return PP_OK;
}

static struct pkt *add(struct pp_swd *s, enum pkt_role role, bool ap, bool rnw, uint8_t addr,
                       uint32_t wdata, size_t xi)
{
    struct pkt *p = &s->p[s->np++];

    memset(p, 0, sizeof(*p));
    p->req = pp_swd_request(ap, rnw, addr);
    p->role = (uint8_t)role;
    p->rnw = rnw;
    p->wdata = wdata;
    p->xi = xi;
    return p;
}

static int queue_pkt(struct pp_swd *s, struct pkt *p)
{
    int rc = PP_OK;

    if (s->pos < p->not_before)
        rc = level(s, false, p->not_before - s->pos);
    if (rc == PP_OK)
        rc = out_bits(s, &p->req, 8);
    if (rc == PP_OK)
        rc = in_bits(s, p->cap, p->rnw ? READ_IN_BITS : WRITE_IN_BITS);
    if (rc == PP_OK && !p->rnw)
        rc = out_word(s, p->wdata | (uint64_t)parity32(p->wdata) << 32, DATA_BITS);
    p->end = s->pos;
    s->st.packets++;
    return rc;
}

/* Queues s->p[0..np), the idle tail, and flushes. */
static int send(struct pp_swd *s)
{
    int rc = PP_OK;

    for (size_t k = 0; k < s->np && rc == PP_OK; k++)
        rc = queue_pkt(s, &s->p[k]);
    if (rc == PP_OK)
        rc = level(s, false, IDLE_AFTER_RUN);
    if (rc == PP_OK)
        rc = flush(s);
    if (rc != PP_OK)
        return wire_fail(s, rc);
    return PP_OK;
}

static unsigned cap_bit(const struct pkt *p, unsigned i)
{
    return (p->cap[i / 8] >> (i % 8)) & 1u;
}

static unsigned pkt_ack(const struct pkt *p)
{
    return cap_bit(p, 1) | cap_bit(p, 2) << 1 | cap_bit(p, 3) << 2;
}

/* A read packet's data, checked against its parity bit. */
static int pkt_data(struct pp_swd *s, const struct pkt *p, uint32_t *v)
{
    uint32_t d = 0;

    for (unsigned i = 0; i < 32; i++)
        d |= (uint32_t)cap_bit(p, 4 + i) << i;
    if (cap_bit(p, 36) != parity32(d))
        return fail(s, PP_E_PROTO, "swd: read data 0x%08X with a bad parity bit "
                    "(request 0x%02X)", d, p->req);
    *v = d;
    return PP_OK;
}

static int bad_ack(struct pp_swd *s, const struct pkt *p, unsigned ack)
{
    return fail(s, PP_E_PROTO, "swd: request 0x%02X got ACK %u%u%u, none of OK/WAIT/FAULT "
                "(%s; the SW-DP wants a line reset)", p->req, ack & 1u, (ack >> 1) & 1u,
                ack >> 2, ack == 7u ? "nothing drove SWDIO" : "garbled");
}

/* ---- connect, abort, power --------------------------------------------- */

static int one_read(struct pp_swd *s, enum pkt_role role, uint8_t addr, uint32_t *v)
{
    int rc = reserve(s, 1);
    unsigned ack;

    if (rc != PP_OK)
        return rc;
    s->np = 0;
    add(s, role, false, true, addr, 0, NO_XFER);
    rc = send(s);
    if (rc != PP_OK)
        return rc;
    ack = pkt_ack(&s->p[0]);
    if (ack != PP_SWD_ACK_OK)
        return ack == 7u && role == P_DPIDR
            ? fail(s, PP_E_NOTFOUND, "swd: no SW-DP answered the DPIDR read after a line "
                   "reset (SWDIO stayed high: no SWD target, or a JTAG-only DP)")
            : bad_ack(s, &s->p[0], ack);
    return pkt_data(s, &s->p[0], v);
}

int pp_swd_connect(struct pp_swd *s, bool from_jtag, uint32_t *dpidr)
{
    uint32_t v = 0;
    int rc = PP_OK;

    s->pos = 0;
    s->select_ok = false;
    s->pending = NO_XFER;
    if (from_jtag) {
        rc = level(s, true, LINE_RESET_ONES);
        if (rc == PP_OK)
            rc = out_word(s, JTAG_TO_SWD, 16);
    }
    if (rc == PP_OK)
        rc = level(s, true, LINE_RESET_ONES);
    if (rc == PP_OK)
        rc = level(s, false, IDLE_AFTER_RESET);
    if (rc != PP_OK)
        return wire_fail(s, rc);
    /* The first packet after a line reset must read DPIDR (swd 4.5). */
    rc = one_read(s, P_DPIDR, PP_DP_DPIDR, &v);
    if (rc == PP_OK && dpidr)
        *dpidr = v;
    return rc;
}

int pp_swd_to_jtag(struct pp_swd *s)
{
    int rc;

    s->pos = 0;
    s->select_ok = false;
    s->pending = NO_XFER;
    rc = level(s, true, LINE_RESET_ONES);
    if (rc == PP_OK)
        rc = out_word(s, SWD_TO_JTAG, 16);
    if (rc == PP_OK)
        rc = level(s, true, 8);     /* >= 5 ones: the TAP to Test-Logic-Reset */
    if (rc == PP_OK)
        rc = flush(s);
    if (rc != PP_OK)
        return wire_fail(s, rc);
    return PP_OK;
}

int pp_swd_abort(struct pp_swd *s, uint32_t bits)
{
    int rc = reserve(s, 1);
    unsigned ack;

    if (rc != PP_OK)
        return rc;
    s->pos = 0;
    s->np = 0;
    add(s, P_ABORT, false, false, PP_DP_DPIDR, bits, NO_XFER);
    rc = send(s);
    if (rc != PP_OK)
        return rc;
    ack = pkt_ack(&s->p[0]);
    return ack == PP_SWD_ACK_OK ? PP_OK : bad_ack(s, &s->p[0], ack);
}

int pp_swd_power_up(struct pp_swd *s, char *err, size_t errlen)
{
    const uint32_t req = PP_CS_CSYSPWRUPREQ | PP_CS_CDBGPWRUPREQ | PP_CS_ORUNDETECT;
    const uint32_t acks = PP_CS_CSYSPWRUPACK | PP_CS_CDBGPWRUPACK;
    struct pp_dp_xfer w = { .addr = PP_DP_CTRLSTAT, .wdata = req };
    uint32_t ctrl = 0;
    int rc = pp_swd_abort(s, PP_SWD_ABORT_CLEARALL);

    if (rc == PP_OK)
        rc = pp_swd_exec(s, &w, 1, &ctrl);
    for (unsigned i = 0; rc == PP_OK && (ctrl & acks) != acks && i < POWER_POLLS; i++)
        rc = one_read(s, P_CTRL, PP_DP_CTRLSTAT, &ctrl);
    if (rc == PP_OK && (ctrl & acks) != acks)
        rc = fail(s, PP_E_TIMEOUT, "swd: CTRL/STAT = 0x%08X: no power-up ACK after %u polls",
                  ctrl, POWER_POLLS);
    if (rc != PP_OK && err && errlen)
        pp_errmsg(err, errlen, "%s", s->err);
    return rc;
}

/* ---- runs ---------------------------------------------------------------- */

/* The SELECT value an AP transfer needs (spec 7.2): APSEL, APBANKSEL. */
static uint32_t ap_select(const struct pp_dp_xfer *x)
{
    return (uint32_t)x->apsel << 24 | (x->addr & 0xF0u);
}

/* Packets for x[from..n) not done, plus the RDBUFF and CTRL/STAT tail;
 * abort first when a WAIT left STICKYORUN set. */
static int plan(struct pp_swd *s, struct pp_dp_xfer *x, size_t n, size_t from, bool abort)
{
    uint32_t sel = s->select;
    bool sel_ok = s->select_ok, pend = s->pending != NO_XFER;
    int rc = reserve(s, 2 * (n - from) + 4);

    if (rc != PP_OK)
        return rc;
    s->np = 0;
    if (abort)
        add(s, P_ABORT, false, false, PP_DP_DPIDR, PP_SWD_ABORT_ORUNERRCLR, NO_XFER);
    for (size_t i = from; i < n; i++) {
        uint64_t nb = x[i].not_before;

        if (x[i].done)
            continue;
        if (x[i].ap && (!sel_ok || (sel & ~0xFu) != ap_select(&x[i]))) {
            sel = ap_select(&x[i]) | (sel_ok ? sel & 0xFu : 0u);
            sel_ok = true;
            add(s, P_SELECT, false, false, PP_DP_SELECT, sel, i)->not_before = nb;
            s->st.select_writes++;
            nb = 0;
        } else if (!x[i].ap && !x[i].rnw && x[i].addr == PP_DP_SELECT) {
            sel = x[i].wdata;
            sel_ok = true;
        }
        add(s, P_XFER, x[i].ap, x[i].rnw, x[i].ap ? x[i].addr & 0xCu : x[i].addr,
            x[i].wdata, i)->not_before = nb;
        if (x[i].rnw && (x[i].ap || x[i].addr == PP_DP_RDBUFF))
            pend = x[i].ap;
    }
    if (pend)
        add(s, P_RDBUFF, false, true, PP_DP_RDBUFF, 0, n);
    if (sel_ok && (sel & 0xFu))     /* CTRL/STAT lives in DP bank 0 */
        add(s, P_SELECT, false, false, PP_DP_SELECT, sel & ~0xFu, n);
    add(s, P_CTRL, false, true, PP_DP_CTRLSTAT, 0, n);
    return PP_OK;
}

/* Hands a posted read's result to the transfer waiting for it. */
static void collect(struct pp_swd *s, struct pp_dp_xfer *x, uint32_t v)
{
    if (s->pending == NO_XFER)
        return;
    x[s->pending].rdata = v;
    x[s->pending].done = 1;
    s->pending = NO_XFER;
}

/* An OK packet's effect on the transfers and the engine's state. */
static int settle(struct pp_swd *s, struct pp_dp_xfer *x, const struct pkt *p, uint32_t *ctrl)
{
    uint32_t v = 0;
    int rc = p->rnw ? pkt_data(s, p, &v) : PP_OK;

    if (rc != PP_OK)
        return rc;
    switch (p->role) {
    case P_SELECT:
        s->select = p->wdata;
        s->select_ok = true;
        return PP_OK;
    case P_RDBUFF:
        collect(s, x, v);
        return PP_OK;
    case P_CTRL:
        if (ctrl)
            *ctrl = v;
        return PP_OK;
    case P_XFER:
        break;
    default:
        return PP_OK;
    }
    x[p->xi].tck_at = p->end;
    if (!p->rnw) {
        x[p->xi].done = 1;
        if (!x[p->xi].ap && x[p->xi].addr == PP_DP_SELECT) {
            s->select = p->wdata;
            s->select_ok = true;
        }
        return PP_OK;
    }
    if (x[p->xi].ap) {              /* posted: this data is the previous read's */
        collect(s, x, v);
        s->pending = p->xi;
        return PP_OK;
    }
    if (x[p->xi].addr == PP_DP_RDBUFF)
        collect(s, x, v);
    x[p->xi].rdata = v;
    x[p->xi].done = 1;
    return PP_OK;
}

/* After a FAULT, later packets did nothing, but the CTRL/STAT read at the
 * end is always answered (swd 4.7): it says which flag is set. */
static void fault_ctrl(struct pp_swd *s, uint32_t *ctrl)
{
    const struct pkt *p = &s->p[s->np - 1];
    uint32_t v;

    if (ctrl && p->role == P_CTRL && pkt_ack(p) == PP_SWD_ACK_OK && pkt_data(s, p, &v) == PP_OK)
        *ctrl = v;
}

/* Reads the results in order.  PP_E_WAIT with *resume = the first transfer
 * to send again. */
static int parse(struct pp_swd *s, struct pp_dp_xfer *x, uint32_t *ctrl, size_t n,
                 size_t *resume)
{
    for (size_t k = 0; k < s->np; k++) {
        const struct pkt *p = &s->p[k];
        unsigned ack = pkt_ack(p);
        int rc;

        if (ack == PP_SWD_ACK_WAIT) {
            s->st.waits++;
            *resume = p->xi == NO_XFER ? n : p->xi;
            return PP_E_WAIT;
        }
        if (ack == PP_SWD_ACK_FAULT) {
            s->st.faults++;
            fault_ctrl(s, ctrl);
            return fail(s, PP_E_FAULT, "swd: request 0x%02X answered FAULT: a sticky flag is "
                        "set (CTRL/STAT %s)", p->req, ctrl ? "read" : "not read");
        }
        if (ack != PP_SWD_ACK_OK)
            return bad_ack(s, p, ack);
        rc = settle(s, x, p, ctrl);
        if (rc != PP_OK)
            return rc;
    }
    return PP_OK;
}

static int check_xfers(struct pp_swd *s, const struct pp_dp_xfer *x, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!x[i].ap && !x[i].rnw && x[i].addr == PP_DP_RDBUFF)
            return fail(s, PP_E_INVAL, "swd: transfer %zu is a TARGETSEL write: it belongs "
                        "after a line reset (pp_swd_connect)", i);
    return PP_OK;
}

int pp_swd_exec(struct pp_swd *s, struct pp_dp_xfer *x, size_t n, uint32_t *ctrl)
{
    size_t from = 0;
    int rc = check_xfers(s, x, n);

    s->st.runs++;
    s->pos = 0;
    s->pending = NO_XFER;           /* a read an earlier run left has no transfer now */
    for (unsigned round = 0; rc == PP_OK; round++) {
        bool again = round > 0;

        rc = plan(s, x, n, from, again);
        if (rc == PP_OK)
            rc = send(s);
        if (rc == PP_OK)
            rc = parse(s, x, ctrl, n, &from);
        if (rc != PP_E_WAIT)
            break;
        if (round >= s->wait_retries)
            return fail(s, PP_E_WAIT, "swd: still WAIT after %u rounds (transfer %zu)",
                        round, from);
        s->st.wait_rounds++;
        rc = PP_OK;
    }
    return rc;
}

void pp_swd_set_wait_retries(struct pp_swd *s, unsigned n)
{
    s->wait_retries = n;
}

void pp_swd_forget_select(struct pp_swd *s)
{
    s->select_ok = false;
}

void pp_swd_get_stats(const struct pp_swd *s, struct pp_swd_stats *out)
{
    *out = s->st;
}

const char *pp_swd_errmsg(const struct pp_swd *s)
{
    return s->err;
}

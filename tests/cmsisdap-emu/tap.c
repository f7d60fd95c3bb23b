/*
 * tap.c - the probe's JTAG engine: what CMSIS-DAP firmware does with the
 * TAP pins for DAP_JTAG_Sequence, DAP_JTAG_IDCODE, DAP_WriteABORT and,
 * in JTAG mode, DAP_Transfer and DAP_TransferBlock (spec/cmsis-dap-swd.md
 * 2.2, 2.4, 2.5; the JTAG-DP scans of spec/arm-pmu-coresight.md 7.1).
 *
 * TAP index 0 is the one nearest TDO (the first bits shifted in end up
 * there), as in the reference firmware's ir_before/ir_after sums.
 * DAP_Transfer: every JTAG-DP read is posted (its data comes with the next
 * scan), so the probe holds one read pending and collects it with the
 * next read of the same kind or, before anything else and at the end,
 * with an RDBUFF read; a command ending in a write reads RDBUFF to see
 * it accepted.  Each scan answered WAIT is repeated up to wait_retry
 * times.  A read is counted when it is posted.
 *
 * In SWD mode (DAP_Connect port 1) the same run goes out as SW-DP packets
 * (swd.c): only AP reads are posted (a DP read answers in its own
 * packet), there is no IR and the DAP index is ignored (spec 2.4).
 */
#include <string.h>

#include "emu.h"

#define IR_ABORT  0x8u
#define IR_DPACC  0xAu
#define IR_APACC  0xBu
#define IR_IDCODE 0xEu
#define DP_RDBUFF 0xCu

#define REQ_APNDP 0x01u
#define REQ_RNW   0x02u
#define REQ_MATCH_VALUE 0x10u
#define REQ_MATCH_MASK  0x20u
#define REQ_TIMESTAMP   0x80u
#define RESP_MISMATCH   0x10u

bool tap_cycle(struct dap *d, bool tms, bool tdi)
{
    bool tdo = true;

    d->n.tck++;
    d->cmd_tck++;
    if (d->tap)
        tdo = pp_simjtag_cycle(d->tap, tms, tdi);
    if (d->state != PP_TAP_UNKNOWN)
        d->state = pp_tap_next(d->state, tms);
    return tdo;
}

/* Five TMS highs reach Test-Logic-Reset from anywhere. */
static void tap_goto(struct dap *d, enum pp_tap_state to)
{
    uint8_t tms;
    unsigned n;

    if (d->state == PP_TAP_UNKNOWN) {
        for (int i = 0; i < 5; i++)
            tap_cycle(d, true, true);
        d->state = PP_TAP_RESET;
    }
    n = pp_tap_path(d->state, to, &tms);
    for (unsigned i = 0; i < n; i++)
        tap_cycle(d, (tms >> i) & 1u, true);
}

static unsigned ir_bits(const struct dap *d, unsigned from, unsigned to)
{
    unsigned n = 0;

    for (unsigned i = from; i < to && i < d->ntaps; i++)
        n += d->irlen[i];
    return n;
}

/* Ends a shift whose last bit left Shift-xR: Update-xR, Run-Test/Idle. */
static void to_idle(struct dap *d)
{
    tap_cycle(d, true, true);
    tap_cycle(d, false, true);
}

/* IR of TAP index, BYPASS (all ones) in the others. */
static void scan_ir(struct dap *d, unsigned index, uint32_t ir)
{
    unsigned before = ir_bits(d, 0, index), len = d->irlen[index];
    unsigned after = ir_bits(d, index + 1, d->ntaps), total = before + len + after;

    tap_goto(d, PP_TAP_IRSHIFT);
    for (unsigned i = 0; i < total; i++) {
        bool bit = i < before || i >= before + len ? true : (ir >> (i - before)) & 1u;

        tap_cycle(d, i + 1 == total, bit);
    }
    to_idle(d);
}

/* DR bits of TAP index: n bits of out (LSB first), TDO into *in; the
 * other TAPs are in BYPASS (one bit each).  stop_after: bits after which
 * the shift ends early (an ACK other than OK), 0 none. */
static uint64_t scan_dr(struct dap *d, unsigned index, uint64_t out, unsigned n,
                        unsigned stop_after, uint8_t *stop_ack)
{
    unsigned after = d->ntaps - index - 1;
    uint64_t in = 0;

    tap_goto(d, PP_TAP_DRSHIFT);
    for (unsigned i = 0; i < index; i++)
        tap_cycle(d, false, false);
    for (unsigned i = 0; i < n; i++) {
        bool last = i + 1 == n && !after;
        bool tdo = tap_cycle(d, last, (out >> i) & 1u);

        in |= (uint64_t)tdo << i;
        if (stop_after && i + 1 == stop_after) {
            /* JTAG ACK 0b010 OK, 0b001 WAIT (spec 7.1) to DAP's 1 and 2:
             * the first TDO bit is ACK[0] (spec 2.4: "JTAG maps OK and
             * FAULT both to 1"). */
            uint8_t a = (uint8_t)in;

            *stop_ack = (uint8_t)(((a & 1u) << 1) | ((a >> 1) & 1u) | (a & 4u));
            if (*stop_ack != DAP_ACK_OK) {
                tap_cycle(d, true, false);      /* Exit1-DR: nothing updated */
                to_idle(d);
                return in;
            }
        }
    }
    for (unsigned i = 0; i < after; i++)
        tap_cycle(d, i + 1 == after, false);
    to_idle(d);
    return in;
}

/* One DPACC/APACC scan: request bits RnW, A[3:2] then 32 data bits. */
static uint8_t scan_acc(struct dap *d, unsigned index, uint8_t req, uint32_t wdata,
                        uint32_t *rdata)
{
    uint64_t out = ((req >> 1) & 1u) | (uint64_t)((req >> 2) & 3u) << 1 | (uint64_t)wdata << 3;
    uint8_t ack = 0;
    uint64_t in;

    d->n.scans++;
    d->cmd_xfers++;
    in = scan_dr(d, index, out, 35, 3, &ack);
    if (ack == DAP_ACK_OK) {
        *rdata = (uint32_t)(in >> 3);
        for (unsigned i = 0; i < d->idle; i++)
            tap_cycle(d, false, false);
    }
    return ack;
}

static bool swd_mode(const struct dap *d)
{
    return d->port == DAP_PORT_SWD;
}

/* A scan (an SWD packet) repeated while it WAITs, up to wait_retry more
 * times. */
static uint8_t scan_retry(struct dap *d, unsigned index, uint8_t req, uint32_t wdata,
                          uint32_t *rdata)
{
    uint8_t ack;

    for (unsigned t = 0;; t++) {
        if (swd_mode(d)) {
            d->n.scans++;
            d->cmd_xfers++;
            ack = swd_packet(d, req, wdata, rdata);
        } else {
            ack = scan_acc(d, index, req, wdata, rdata);
        }
        if (ack != DAP_ACK_WAIT || t >= d->wait_retry)
            return ack;
        d->n.waits++;
    }
}

/* What one DAP_Transfer (or TransferBlock) run keeps. */
struct run {
    struct dap *d;
    unsigned index;
    uint32_t ir;               /* 0: written at the first scan */
    bool pending;              /* a posted read waits for its data */
    uint8_t ack;
    uint8_t *out;              /* data words (and stamps) go here */
    size_t len, cap;
};

static void put32(struct run *r, uint32_t v)
{
    if (r->len + 4 > r->cap)
        return;
    for (unsigned b = 0; b < 4; b++)
        r->out[r->len++] = (uint8_t)(v >> (8 * b));
}

static uint8_t scan_in(struct run *r, uint32_t ir, uint8_t req, uint32_t wdata,
                       uint32_t *rdata)
{
    if (!swd_mode(r->d) && r->ir != ir) {
        scan_ir(r->d, r->index, ir);
        r->ir = ir;
    }
    return r->ack = scan_retry(r->d, r->index, req, wdata, rdata);
}

/* Collects the pending read with RDBUFF. */
static bool collect(struct run *r)
{
    uint32_t data = 0;

    if (!r->pending)
        return true;
    if (scan_in(r, IR_DPACC, REQ_RNW | DP_RDBUFF, 0, &data) != DAP_ACK_OK)
        return false;
    put32(r, data);
    r->pending = false;
    return true;
}

static uint32_t ir_of(uint8_t req)
{
    return req & REQ_APNDP ? IR_APACC : IR_DPACC;
}

static void stamp(struct run *r, uint8_t req)
{
    if (req & REQ_TIMESTAMP) {
        uint32_t t = dap_timer(r->d);

        put32(r, t);
        r->d->n.timestamps++;
        dap_log("stamp req 0x%02X timer %u", req, t);
    }
}

/* A read: the pending one's data comes with this scan when it is of the
 * same kind; else RDBUFF collects it first and this one is posted. */
static bool do_read(struct run *r, uint8_t req)
{
    uint32_t data = 0;
    bool posted = !swd_mode(r->d) || (req & REQ_APNDP);

    if (!posted) {
        if (!collect(r) || scan_in(r, ir_of(req), req, 0, &data) != DAP_ACK_OK)
            return false;
        stamp(r, req);
        put32(r, data);
        return true;
    }
    if (r->pending && (swd_mode(r->d) || r->ir == ir_of(req))) {
        if (scan_in(r, ir_of(req), req, 0, &data) != DAP_ACK_OK)
            return false;
        put32(r, data);
        stamp(r, req);
        return true;
    }
    if (!collect(r) || scan_in(r, ir_of(req), req, 0, &data) != DAP_ACK_OK)
        return false;
    stamp(r, req);
    r->pending = true;
    return true;
}

static bool do_write(struct run *r, uint8_t req, uint32_t wdata)
{
    uint32_t data;

    if (!collect(r) || scan_in(r, ir_of(req), req, wdata, &data) != DAP_ACK_OK)
        return false;
    stamp(r, req);
    return true;
}

/* Value match: re-read until (value & mask) == match (spec 2.4). */
static bool do_match(struct run *r, uint8_t req, uint32_t match, uint32_t mask)
{
    uint32_t data = 0;

    if (!collect(r))
        return false;
    for (unsigned t = 0; t <= r->d->match_retry; t++) {
        if (scan_in(r, ir_of(req), req, 0, &data) != DAP_ACK_OK ||
            scan_in(r, IR_DPACC, REQ_RNW | DP_RDBUFF, 0, &data) != DAP_ACK_OK)
            return false;
        if ((data & mask) == match)
            return true;
    }
    r->ack |= RESP_MISMATCH;
    return false;
}

/* The end of a command: the pending read collected, or the last write
 * checked by an RDBUFF read whose data is dropped. */
static void finish(struct run *r, bool last_write)
{
    uint32_t data;

    if (r->ack != DAP_ACK_OK)
        return;
    if (r->pending)
        collect(r);
    else if (last_write)
        scan_in(r, IR_DPACC, REQ_RNW | DP_RDBUFF, 0, &data);
}

static uint32_t get32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* How many request bytes transfer k takes (its data word included). */
static size_t req_len(uint8_t req)
{
    return (req & REQ_RNW) && !(req & REQ_MATCH_VALUE) ? 1 : 5;
}

size_t tap_transfer(struct dap *d, const uint8_t *p, size_t n, uint8_t *out, size_t *used)
{
    struct run r = { .d = d, .ack = DAP_ACK_OK, .out = out + 2, .cap = d->size - 3 };
    unsigned count = n >= 2 ? p[1] : 0, done = 0;
    size_t at = 2;
    bool last_write = false, ok = true;

    r.index = n ? p[0] : 0;
    if (!swd_mode(d) && r.index >= d->ntaps)
        ok = false, r.ack = 0;
    for (; ok && done < count && at < n; done++) {
        uint8_t req = p[at];

        if (at + req_len(req) > n)
            break;
        if ((req & REQ_RNW) && (req & REQ_MATCH_VALUE))
            ok = do_match(&r, req, get32(p + at + 1), d->match_mask);
        else if (req & REQ_RNW)
            ok = do_read(&r, req);
        else if (req & REQ_MATCH_MASK)
            d->match_mask = get32(p + at + 1);
        else
            ok = do_write(&r, req, get32(p + at + 1));
        last_write = !(req & REQ_RNW) && !(req & REQ_MATCH_MASK);
        at += req_len(req);
        if (!ok)
            break;
    }
    for (unsigned k = done + (ok ? 0 : 1); k < count && at < n; k++)
        at += req_len(p[at]);         /* the rest is skipped */
    if (ok)
        finish(&r, last_write);
    *used = at;
    out[0] = (uint8_t)done;
    out[1] = r.ack;
    return 2 + r.len;
}

size_t tap_transfer_block(struct dap *d, const uint8_t *p, size_t n, uint8_t *out,
                          size_t *used)
{
    struct run r = { .d = d, .ack = DAP_ACK_OK, .out = out + 3, .cap = d->size - 4 };
    unsigned count = n >= 4 ? (unsigned)p[1] | (unsigned)p[2] << 8 : 0, done = 0;
    uint8_t req = n >= 4 ? p[3] & 0x0Fu : 0;
    bool write = !(req & REQ_RNW), ok = n >= 4;

    r.index = n ? p[0] : 0;
    *used = n < 4 ? n : 4 + (write ? 4u * count : 0u);
    if (*used > n) {
        *used = n;
        ok = false;
    }
    if (!swd_mode(d) && r.index >= d->ntaps)
        ok = false, r.ack = 0;
    for (; ok && done < count; done++)
        ok = write ? do_write(&r, req, get32(p + 4 + 4 * done)) : do_read(&r, req);
    if (ok)
        finish(&r, write);
    out[0] = (uint8_t)(done - (ok ? 0 : done ? 1 : 0));
    out[1] = (uint8_t)((done - (ok ? 0 : done ? 1 : 0)) >> 8);
    out[2] = r.ack;
    return 3 + r.len;
}

void tap_write_abort(struct dap *d, unsigned index, uint32_t value)
{
    uint8_t ack;
    uint32_t data;

    if (swd_mode(d)) {
        swd_packet(d, 0x00u, value, &data);   /* DP write ABORT, ACK ignored */
        return;
    }
    if (index >= d->ntaps)
        return;
    scan_ir(d, index, IR_ABORT);
    scan_dr(d, index, (uint64_t)value << 3, 35, 0, &ack);
}

bool tap_idcode(struct dap *d, unsigned index, uint32_t *idcode)
{
    uint8_t ack;

    if (index >= d->ntaps)
        return false;
    scan_ir(d, index, IR_IDCODE);
    *idcode = (uint32_t)scan_dr(d, index, 0, 32, 0, &ack);
    return true;
}

size_t tap_jtag_sequence(struct dap *d, const uint8_t *p, size_t n, uint8_t *out, size_t *used)
{
    unsigned nseq = n ? p[0] : 0;
    size_t at = 1, o = 1;

    out[0] = 0;
    for (unsigned s = 0; s < nseq && at < n; s++) {
        uint8_t info = p[at++];
        unsigned bits = info & 0x3Fu ? info & 0x3Fu : 64u, nbytes = (bits + 7) / 8;
        bool tms = info & 0x40u, capture = info & 0x80u;

        if (at + nbytes > n) {
            out[0] = 0xFF;
            break;
        }
        if (capture && o + nbytes <= d->size)
            memset(out + o, 0, nbytes);
        for (unsigned i = 0; i < bits; i++) {
            bool tdo = tap_cycle(d, tms, (p[at + i / 8] >> (i % 8)) & 1u);

            if (capture && tdo && o + i / 8 < d->size)
                out[o + i / 8] |= (uint8_t)(1u << (i % 8));
        }
        at += nbytes;
        if (capture)
            o += nbytes;
    }
    *used = at;
    return o < d->size ? o : d->size - 1;
}

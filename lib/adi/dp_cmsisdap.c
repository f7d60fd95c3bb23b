/*
 * dp_cmsisdap.c - the DP transport over a CMSIS-DAP probe (dp_port.h): DP
 * and AP transfers as DAP_Transfer packets, runs of one repeated read as
 * DAP_TransferBlock, every packet of a run sent with Packet Count in
 * flight (lib/link/cmsisdap.h).  Facts: spec/cmsis-dap-swd.md 2.4-2.6.
 *
 * The probe resolves posted reads (each read's data comes back in request
 * order) and repeats a WAITed transfer up to its wait_retry (64, set at
 * connect).  So ORUNDETECT stays off: with it on, the first WAIT would
 * make the DP drop the probe's retries.  In JTAG mode FAULT reads as OK
 * (spec 2.4), so errors show in CTRL/STAT as on the JTAG-DP, which the
 * bus reads at the end of every batch.
 *
 * A WAIT that outlasts the probe's retries ends the run: the transfers the
 * probe counted before it are done, packets after it are not trusted (the
 * probe ran them after a skipped transfer), SELECT is forgotten, CTRL/STAT
 * read into *ctrl and PP_E_WAIT returned, as pp_dp_exec documents.
 *
 * Dating (link.h date_hz): a transfer the caller marks dated asks the
 * probe's Test Domain Timer for a stamp (request bit 7, spec 2.4), and
 * its tck_at is the stamp's ticks after the run's first stamp; without a
 * timer, the host's ns at which its reply arrived, after the run's start.
 * A transfer with not_before (ns after the run's start, repeat spacing)
 * waits in the probe: a DAP_Delay packet ahead of it for what the
 * transfers before it are not estimated to take (TCKs at the SWJ clock;
 * the probe's own overhead is not known, so the spacing is approximate,
 * the dates are not).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "adi/dap_packets.h"
#include "adi/dp_port.h"
#include "errmsg.h"
#include "grow.h"
#include "link/cmsisdap.h"
#include "trace.h"

#define ID_TRANSFER_CONFIGURE 0x04u
#define ID_WRITE_ABORT        0x08u
#define ID_JTAG_CONFIGURE     0x15u
#define ACK_OK    1u
#define ACK_WAIT  2u
#define ACK_FAULT 4u
#define XI_NONE   (-1)
#define XI_CLEAR  (-2)
#define TCK_PER_XFER 41u          /* a 35-bit DR scan and its TAP moves: an
                                   * estimate for pacing (the probe clocks it) */
#define TCK_PER_SWD  46u          /* an SWD packet, turnaround 1 (swd 4.2) */
#define DELAY_MAX_US 65535u       /* DAP_Delay's u16 (spec 2.2) */
#define ID_EXECUTE_COMMANDS 0x7Fu
#define FOLD_BYTES 5u             /* 7F n and DAP_Delay's 3 (request; reply 4) */
#define WAIT_RETRY 64u
#define DP_ABORT_W 0x00u       /* DP write, A = 0x0: ABORT */
#define ABORT_CLEAR 0x1Eu         /* STKCMPCLR|STKERRCLR|WDERRCLR|ORUNERRCLR (swd 4.6) */
#define RECOVER_TRIES 8

struct cdp {
    struct pp_cmsisdap *probe;
    struct pp_jtag *jtag;         /* the chain: DAP index and IR lengths */
    uint8_t index;
    bool swd;                     /* SWD: no chain, DAP index 0 */
    bool configured;
    unsigned idle_sent;           /* TransferConfigure idle in force */
    struct pp_dap_req *r;
    size_t nr, rcap;
    struct pp_dap_pkt *p;
    size_t np, pcap;
    uint8_t *out, *in;            /* np packets of size bytes each */
    struct pp_cmsisdap_pkt *run;
    size_t bufcap;                /* packets out/in/run have room for */
    struct pace { size_t at; uint64_t us; } *pace;   /* waits before r[at] */
    size_t npace, pacecap;
};

static struct cdp *C(const struct pp_dp *dp)
{
    return dp->priv;
}

static size_t psize(const struct cdp *c)
{
    return pp_cmsisdap_info(c->probe)->packet_size;
}

static bool add_req(struct cdp *c, uint8_t req, uint32_t wdata, int32_t xi)
{
    struct pp_dap_req *r = pp_grow(c->r, &c->rcap, c->nr + 1, sizeof(*r), 64);

    if (!r)
        return false;
    c->r = r;
    c->r[c->nr++] = (struct pp_dap_req){ .req = req, .wdata = wdata, .xi = xi };
    return true;
}

static uint8_t req_of(const struct pp_dp_xfer *x)
{
    return (uint8_t)((x->ap ? PP_DAP_APNDP : 0) | (x->rnw ? PP_DAP_RNW : 0) | (x->addr & 0x0Cu));
}

static const struct pp_link *link_of(const struct cdp *c)
{
    return pp_jtag_link(c->jtag);
}

/* The probe stamps dated transfers (link.h: a timer, not reply arrival). */
static bool timer_on(const struct cdp *c)
{
    return link_of(c)->date_hz && !link_of(c)->date_upper;
}

/* What one wire transfer takes at the SWJ clock asked for (an estimate:
 * the probe's own overhead comes on top). */
static uint64_t xfer_ns(const struct pp_dp *dp)
{
    const struct cdp *c = C(dp);
    uint64_t hz = pp_cmsisdap_info(c->probe)->clock_hz;
    uint64_t tck = (c->swd ? TCK_PER_SWD : TCK_PER_XFER) + dp->idle_cur;

    return hz ? tck * 1000000000u / hz : 0;
}

/* A transfer due not_before ns after the run's start: a wait in the probe
 * before request c->nr for what the requests before it leave over. */
static bool add_pace(struct pp_dp *dp, uint64_t not_before, uint64_t *waited_ns)
{
    struct cdp *c = C(dp);
    uint64_t est = (uint64_t)c->nr * xfer_ns(dp) + *waited_ns, us;
    struct pace *p;

    if (not_before < est + 1000u)
        return true;
    us = (not_before - est) / 1000u;
    p = pp_grow(c->pace, &c->pacecap, c->npace + 1, sizeof(*p), 16);
    if (!p)
        return false;
    c->pace = p;
    c->pace[c->npace++] = (struct pace){ c->nr, us };
    *waited_ns += us * 1000u;
    return true;
}

/* The wire requests for x[0..n): the pending clear, SELECT where it
 * changes, the transfers, the waits before paced ones. */
static bool build_reqs(struct pp_dp *dp, const struct pp_dp_xfer *x, size_t n)
{
    struct cdp *c = C(dp);
    const bool paced = link_of(c)->date_hz, timer = timer_on(c);
    uint64_t waited = 0;

    c->nr = 0;
    c->npace = 0;
    /* An SW-DP's sticky flags are read-only in CTRL/STAT and cleared
     * through ABORT (spec/cmsis-dap-swd.md 4.6, 4.7). */
    if (dp->clear_next && c->swd && !add_req(c, DP_ABORT_W, ABORT_CLEAR, XI_CLEAR))
        return false;
    if (dp->clear_next && !c->swd &&
        !add_req(c, PP_DP_CTRLSTAT, pp_dp_ctrl_word(dp, PP_CS_STICKY), XI_CLEAR))
        return false;
    for (size_t i = 0; i < n; i++) {
        uint32_t sel = (uint32_t)x[i].apsel << 24 | (x[i].addr & 0xF0u);
        uint8_t stamp = x[i].dated && timer ? PP_DAP_TIMESTAMP : 0;

        if (paced && x[i].not_before && !add_pace(dp, x[i].not_before, &waited))
            return false;
        if (x[i].ap && (!dp->select_known || dp->select != sel)) {
            dp->select = sel;
            dp->select_known = true;
            dp->st.select_writes++;
            if (!add_req(c, PP_DP_SELECT, sel, XI_NONE))
                return false;
        }
        /* A CTRL/STAT write that clears sticky flags (the JTAG-DP way,
         * W1C) is an ABORT write on an SW-DP, where CTRL/STAT's sticky
         * bits are read-only and the write itself would FAULT while one
         * is set (swd 4.6, 4.7). */
        if (c->swd && !x[i].ap && !x[i].rnw && x[i].addr == PP_DP_CTRLSTAT &&
            (x[i].wdata & PP_CS_STICKY) && !add_req(c, DP_ABORT_W, ABORT_CLEAR, XI_NONE))
            return false;
        if (!add_req(c, req_of(&x[i]) | stamp, x[i].wdata, (int32_t)i))
            return false;
    }
    return true;
}

static size_t delay_pkts(const struct cdp *c)
{
    size_t n = 0;

    for (size_t j = 0; j < c->npace; j++)
        n += (size_t)((c->pace[j].us + DELAY_MAX_US - 1) / DELAY_MAX_US);
    return n;
}

/* The probe runs DAP_ExecuteCommands (capabilities bit 4, spec 2.3.1). */
static bool atomic_on(const struct cdp *c)
{
    return pp_cmsisdap_info(c->probe)->caps & PP_CMSISDAP_CAP_ATOMIC;
}

/* Packs r[lo..hi) at the end of c->p; the first packet with a wait of
 * fold us ahead of it, in one DAP_ExecuteCommands (FOLD_BYTES more each
 * way, so it is packed that much smaller).  Returns the new count. */
static size_t pack_segment(struct cdp *c, size_t np, size_t lo, size_t hi, uint16_t fold)
{
    size_t k0 = np, at = lo;

    if (fold && hi > lo) {
        pp_dap_pack(c->r + lo, hi - lo, psize(c) - FOLD_BYTES, c->p + np);
        c->p[np].first += lo;
        c->p[np].delay_us = fold;
        at = lo + c->p[np].n;
        k0 = ++np;
    }
    np += pp_dap_pack(c->r + at, hi - at, psize(c), c->p + np);
    for (size_t k = k0; k < np; k++)
        c->p[k].first += at;
    return np;
}

/*
 * Packets for the requests, cut where a wait goes in: DAP_Delay packets
 * (at most DELAY_MAX_US each), the last one folded into the next
 * transfer packet where the probe takes DAP_ExecuteCommands, which saves
 * a packet per paced sample.
 */
static size_t pack_all(struct cdp *c)
{
    size_t np = 0, lo = 0;
    uint16_t fold = 0;

    for (size_t j = 0; j <= c->npace; j++) {
        size_t hi = j < c->npace ? c->pace[j].at : c->nr;

        np = pack_segment(c, np, lo, hi, fold);
        fold = 0;
        for (uint64_t us = j < c->npace ? c->pace[j].us : 0; us;) {
            uint64_t w = us < DELAY_MAX_US ? us : DELAY_MAX_US;

            us -= w;
            if (!us && atomic_on(c)) {
                fold = (uint16_t)w;
                break;
            }
            c->p[np++] = (struct pp_dap_pkt){ .kind = PP_DAP_DELAY, .first = hi,
                                              .delay_us = (uint16_t)w };
        }
        lo = hi;
    }
    if (fold)                             /* nothing after it: cannot happen */
        c->p[np++] = (struct pp_dap_pkt){ .kind = PP_DAP_DELAY, .first = c->nr,
                                          .delay_us = fold };
    return np;
}

/* Packet p's bytes: a folded wait as DAP_ExecuteCommands {DAP_Delay,
 * the transfer} (spec 2.7). */
static size_t encode_pkt(const struct pp_dp *dp, const struct pp_dap_pkt *p, uint8_t *o)
{
    const struct cdp *c = C(dp);

    if (p->kind == PP_DAP_DELAY || !p->delay_us)
        return pp_dap_encode(c->r, p, c->index, o);
    o[0] = ID_EXECUTE_COMMANDS;
    o[1] = 2;
    o[2] = PP_DAP_DELAY;
    o[3] = (uint8_t)p->delay_us;
    o[4] = (uint8_t)(p->delay_us >> 8);
    return FOLD_BYTES + pp_dap_encode(c->r, p, c->index, o + FOLD_BYTES);
}

/* Room for n packets: pp_dap_pack makes at most one per request. */
static bool reserve_pkts(struct cdp *c, size_t n)
{
    struct pp_dap_pkt *p;

    if (n <= c->pcap)
        return true;
    if (!(p = realloc(c->p, n * sizeof(*p))))
        return false;
    c->p = p;
    c->pcap = n;
    return true;
}

static bool reserve_bufs(struct cdp *c, size_t n)
{
    size_t size = psize(c);

    if (n <= c->bufcap)
        return true;
    uint8_t *o = realloc(c->out, n * size), *i;

    if (!o)
        return false;
    c->out = o;
    if (!(i = realloc(c->in, n * size)))
        return false;
    c->in = i;
    struct pp_cmsisdap_pkt *r = realloc(c->run, n * sizeof(*r));

    if (!r)
        return false;
    c->run = r;
    c->bufcap = n;
    return true;
}

/* DAP_JTAG_Configure from the chain the JTAG layer found, and the DAP's
 * index in it; DAP_TransferConfigure when the idle count changed. */
static size_t config_packets(struct pp_dp *dp, size_t at)
{
    struct cdp *c = C(dp);
    size_t k = at, size = psize(c);

    if (!c->configured && !c->swd) {
        uint8_t *o = c->out + k * size;
        unsigned n = 0;

        o[0] = ID_JTAG_CONFIGURE;
        for (const struct pp_jtag_tap *t; n < 255 && (t = pp_jtag_tap(c->jtag, n)); n++)
            o[2 + n] = (uint8_t)t->irlen;
        o[1] = (uint8_t)n;
        c->index = (uint8_t)pp_jtag_active(c->jtag);
        c->run[k] = (struct pp_cmsisdap_pkt){ .out = o, .olen = 2 + n, .in = c->in + k * size };
        k++;
    }
    if (!c->configured || c->idle_sent != dp->idle_cur) {
        uint8_t *o = c->out + k * size;
        unsigned idle = dp->idle_cur > 255 ? 255 : dp->idle_cur;

        o[0] = ID_TRANSFER_CONFIGURE;
        o[1] = (uint8_t)idle;
        o[2] = WAIT_RETRY & 0xFF;
        o[3] = WAIT_RETRY >> 8;
        o[4] = o[5] = 0;
        c->run[k] = (struct pp_cmsisdap_pkt){ .out = o, .olen = 6, .in = c->in + k * size };
        k++;
    }
    return k - at;
}

/* The trace record of request q (its read value when it has one). */
static void trace_req(struct pp_dp *dp, const struct pp_dap_req *q, bool has, uint32_t v,
                      const char *ack)
{
    struct pp_trace_dap d = { .ap = q->req & PP_DAP_APNDP, .rnw = q->req & PP_DAP_RNW,
                              .a = q->req & 0x0Cu, .value = has ? v : q->wdata,
                              .has_value = has, .ack = ack, .retry = dp->trace_retry };

    if (pp_trace_on(dp->trace, PP_TRACE_DAP))
        pp_trace_dap(dp->trace, &d);
}

static void deliver(struct pp_dp *dp, struct pp_dp_xfer *x, struct pp_dap_req *q,
                    const uint8_t **data, const uint8_t *end)
{
    bool rd = q->req & PP_DAP_RNW, has;
    uint32_t v;

    /* A stamp goes before the request's data word (spec 2.4). */
    if ((q->req & PP_DAP_TIMESTAMP) && *data + 4 <= end) {
        q->stamp = pp_cmsisdap_get32(*data);
        q->has_stamp = 1;
        *data += 4;
    }
    has = rd && *data + 4 <= end;
    v = has ? pp_cmsisdap_get32(*data) : 0;
    /* Every read's data word is in the reply, in request order (the
     * probe resolved the posting); a read counted when posted may lack
     * it when the collecting RDBUFF failed (spec 2.4). */
    if (has)
        *data += 4;
    trace_req(dp, q, has, v, "OK");
    if (q->xi == XI_CLEAR)
        dp->clear_next = false;
    if (q->xi < 0 || (rd && !has))
        return;
    if (rd)
        x[q->xi].rdata = v;
    x[q->xi].done = 1;
}

static int bad_reply(struct pp_dp *dp, const struct pp_dap_pkt *w, size_t ilen)
{
    dp->select_known = false;
    snprintf(dp->errmsg, sizeof(dp->errmsg), "cmsis-dap: %s reply of %zu bytes is too short",
             w->kind == PP_DAP_TRANSFER ? "DAP_Transfer" : "DAP_TransferBlock", ilen);
    return PP_E_PROTO;
}

static int link_failed(struct pp_dp *dp, int rc)
{
    struct pp_link *l = pp_jtag_link(C(dp)->jtag);

    dp->select_known = false;
    C(dp)->configured = false;
    pp_trace_dap_forget(dp->trace);
    snprintf(dp->errmsg, sizeof(dp->errmsg), "%s", l->errmsg[0] ? l->errmsg : pp_strerror(rc));
    return rc;
}

/* Reads CTRL/STAT after a WAIT the probe could not ride out: the read
 * itself may WAIT while the AP is still busy, so it is repeated (each
 * time with the probe's own retries) before the AP is given up on. */
static int after_wait(struct pp_dp *dp, uint32_t *ctrl)
{
    struct cdp *c = C(dp);
    uint8_t out[4] = { PP_DAP_TRANSFER, c->index, 1, PP_DAP_RNW | PP_DP_CTRLSTAT };
    uint8_t in[PP_CMSISDAP_MAX_PACKET];
    struct pp_cmsisdap_pkt p = { .out = out, .olen = 4, .in = in };

    dp->st.waits++;
    dp->st.wait_rounds++;
    dp->trace_retry++;
    dp->select_known = false;
    pp_dp_grow_idle(dp);
    for (int t = 0; t < RECOVER_TRIES; t++) {
        int rc = pp_cmsisdap_run(c->probe, &p, 1);

        if (rc != PP_OK)
            return link_failed(dp, rc);
        if (p.ilen >= 7 && in[1] == 1 && in[2] == ACK_OK) {
            *ctrl = pp_cmsisdap_get32(in + 3);
            return PP_E_WAIT;
        }
        if (p.ilen < 3 || in[2] != ACK_WAIT)
            break;
        dp->st.waits++;
    }
    snprintf(dp->errmsg, sizeof(dp->errmsg), "cmsis-dap: the DP kept answering WAIT "
             "through %d reads of CTRL/STAT, each retried %u times by the probe",
             RECOVER_TRIES, WAIT_RETRY);
    return PP_E_BUSY;
}

/* One request alone in a DAP_Transfer; its ACK (0 on a short reply). */
static int send_one(struct pp_dp *dp, const struct pp_dap_req *q, uint32_t *v, uint8_t *ack)
{
    uint8_t out[8] = { PP_DAP_TRANSFER, 0, 1, q->req & (uint8_t)~PP_DAP_TIMESTAMP };
    uint8_t in[PP_CMSISDAP_MAX_PACKET];
    struct pp_cmsisdap_pkt p = { .out = out, .olen = q->req & PP_DAP_RNW ? 4 : 8, .in = in };
    int rc;

    pp_cmsisdap_put32(out + 4, q->wdata);
    if ((rc = pp_cmsisdap_run(C(dp)->probe, &p, 1)) != PP_OK)
        return link_failed(dp, rc);
    *ack = p.ilen >= 3 ? in[2] : 0;
    if (*ack == ACK_OK && (q->req & PP_DAP_RNW) && p.ilen >= 7)
        *v = pp_cmsisdap_get32(in + 3);
    return PP_OK;
}

static bool sticky_exempt(uint8_t req)
{
    req &= (uint8_t)~PP_DAP_TIMESTAMP;
    return req == (PP_DAP_RNW | 0x0u) || req == DP_ABORT_W || req == (PP_DAP_RNW | PP_DP_CTRLSTAT);
}

/*
 * SWD: request k answered FAULT, so a sticky flag is set and the SW-DP
 * FAULTs everything but a DPIDR read, an ABORT write and a CTRL/STAT read
 * until ABORT clears it (swd 4.7).  The rest of the run goes one request
 * at a time the way the JTAG-DP would take it: what the DP refuses counts
 * as done with no effect (a read gives 0), as the JTAG-DP discards APACCs
 * while STICKYERR is set; the bus's CTRL/STAT reads see the flag and its
 * clears (ABORT writes) go out, after which the SELECT held back is
 * written before the next AP access.  Packets the probe ran after the
 * faulted one stopped at their first refused request; the exempt ones at
 * their head are sent again, which repeats a read or a clear.  Request k
 * itself is sent again only when exempt: then it never ran, the FAULT was
 * the probe's own RDBUFF read collecting an AP read before it.
 */
static int fault_rest(struct pp_dp *dp, struct pp_dp_xfer *x, size_t k)
{
    struct cdp *c = C(dp);
    bool sticky = true, sel_held = false;
    uint32_t sel = 0;
    int rc;

    for (size_t i = 0; i < k; i++)       /* counted reads the probe had no data for */
        if (c->r[i].xi >= 0 && !x[c->r[i].xi].done)
            x[c->r[i].xi].done = 1, x[c->r[i].xi].rdata = 0;
    for (size_t i = k; i < c->nr; i++) {
        const struct pp_dap_req *q = &c->r[i];
        uint32_t v = 0;
        uint8_t ack = ACK_FAULT;

        if (sticky && q->req == PP_DP_SELECT) {
            sel = q->wdata, sel_held = true;
            continue;
        }
        if (!sticky && sel_held && (q->req & PP_DAP_APNDP)) {
            struct pp_dap_req s = { .req = PP_DP_SELECT, .wdata = sel, .xi = XI_NONE };

            if ((rc = send_one(dp, &s, &v, &ack)) != PP_OK)
                return rc;
            sel_held = false;
        }
        if ((!sticky || sticky_exempt(q->req)) &&
            (rc = send_one(dp, q, &v, &ack)) != PP_OK)
            return rc;
        if (ack != ACK_OK && ack != ACK_FAULT) {
            dp->select_known = false;
            snprintf(dp->errmsg, sizeof(dp->errmsg), "cmsis-dap: SWD transfer answered "
                     "0x%02X after a FAULT", ack);
            return PP_E_PROTO;
        }
        sticky = ack == ACK_FAULT || (sticky && q->req != DP_ABORT_W);
        trace_req(dp, q, ack == ACK_OK && (q->req & PP_DAP_RNW), v,
                  ack == ACK_OK ? "OK" : "FAULT");
        if (q->xi == XI_CLEAR && ack == ACK_OK)
            dp->clear_next = false;
        if (q->xi >= 0)
            x[q->xi].rdata = v, x[q->xi].done = 1;
    }
    if (sel_held)
        dp->select_known = false;
    return PP_OK;
}

/* The replies of packets [0..np) (after ncfg configuration ones). */
static int parse(struct pp_dp *dp, struct pp_dp_xfer *x, size_t ncfg, uint32_t *ctrl)
{
    struct cdp *c = C(dp);

    for (size_t k = 0; k < ncfg; k++)
        if (c->run[k].ilen < 2 || c->run[k].in[1] != 0) {
            snprintf(dp->errmsg, sizeof(dp->errmsg), "cmsis-dap: the probe refused "
                     "command 0x%02X (the chain or the transfer settings)", c->run[k].out[0]);
            return PP_E_PROTO;
        }
    c->configured = true;
    c->idle_sent = dp->idle_cur;
    for (size_t k = 0; k < c->np; k++) {
        const struct pp_dap_pkt *w = &c->p[k];
        struct pp_cmsisdap_pkt rr = c->run[ncfg + k];
        const struct pp_cmsisdap_pkt *r = &rr;
        bool block = w->kind == PP_DAP_TRANSFER_BLOCK;

        /* A folded wait: 7F 02, DAP_Delay's 09 status, then the reply. */
        if (w->kind != PP_DAP_DELAY && w->delay_us) {
            if (rr.ilen < 4 || rr.in[2] != PP_DAP_DELAY || rr.in[3] != 0)
                return bad_reply(dp, w, rr.ilen);
            rr.in += 4;
            rr.ilen -= 4;
        }
        if (w->kind == PP_DAP_DELAY) {
            if (r->ilen < 2 || r->in[1] != 0) {
                snprintf(dp->errmsg, sizeof(dp->errmsg), "cmsis-dap: the probe refused "
                         "DAP_Delay");
                return PP_E_PROTO;
            }
            continue;
        }
        size_t head = block ? 4 : 3;
        const uint8_t *data = r->in + head, *end = r->in + r->ilen;

        if (r->ilen < head)
            return bad_reply(dp, w, r->ilen);
        size_t count = block ? (size_t)(r->in[1] | r->in[2] << 8) : r->in[1];
        uint8_t ack = r->in[head - 1];

        for (size_t i = 0; i < count && i < w->n; i++)
            deliver(dp, x, &c->r[w->first + i], &data, end);
        if (ack == ACK_WAIT && count < w->n)
            trace_req(dp, &c->r[w->first + count], false, 0, "WAIT");
        if (ack == ACK_WAIT)
            return after_wait(dp, ctrl);
        if ((ack & 7u) == ACK_FAULT && !(ack & 8u) && c->swd)
            return fault_rest(dp, x, w->first + count);
        if (ack != ACK_OK) {
            dp->select_known = false;
            snprintf(dp->errmsg, sizeof(dp->errmsg), "cmsis-dap: transfer answered 0x%02X, "
                     "neither OK nor WAIT: check the JTAG chain, the clock and that the "
                     "target is powered", ack);
            return PP_E_PROTO;
        }
    }
    return PP_OK;
}

/* tck_at of the dated transfers and run_tck, as measured (see the top):
 * stamps after the run's first one, or reply arrivals after t0.  A packet
 * whose reply never came (recv_ns before t0) dates nothing. */
static void date(struct pp_dp *dp, struct pp_dp_xfer *x, size_t ncfg, uint64_t t0)
{
    struct cdp *c = C(dp);
    const bool timer = timer_on(c);
    bool first = true;
    uint32_t s0 = 0;

    dp->run_tck = 0;
    for (size_t i = 0; i < c->nr; i++)   /* none left from an earlier run */
        if (c->r[i].xi >= 0)
            x[c->r[i].xi].tck_at = 0;
    for (size_t k = 0; k < c->np; k++) {
        const struct pp_dap_pkt *w = &c->p[k];
        uint64_t got = c->run[ncfg + k].recv_ns;

        if (got < t0)
            continue;
        for (size_t i = w->first; i < w->first + w->n; i++) {
            const struct pp_dap_req *q = &c->r[i];
            uint64_t at;

            if (timer && !q->has_stamp)
                continue;
            if (timer && first)
                s0 = q->stamp, first = false;
            at = timer ? (uint32_t)(q->stamp - s0) : got - t0;   /* the timer wraps */
            if (q->xi >= 0 && x[q->xi].dated)
                x[q->xi].tck_at = at;
            if (at > dp->run_tck)
                dp->run_tck = at;
        }
    }
}

static int cdp_exec(struct pp_dp *dp, struct pp_dp_xfer *x, size_t n, uint32_t *ctrl)
{
    struct cdp *c = C(dp);
    size_t ncfg;
    uint64_t t0;
    int rc;

    dp->errmsg[0] = '\0';
    dp->st.runs++;
    dp->run_tck = 0;
    for (size_t i = 0; i < n; i++)
        x[i].done = 0;
    if (!build_reqs(dp, x, n) || !reserve_pkts(c, c->nr) || !reserve_bufs(c, c->nr + 2)) {
        snprintf(dp->errmsg, sizeof(dp->errmsg), "out of memory");
        return PP_E_NOMEM;
    }
    if (!reserve_pkts(c, c->nr + delay_pkts(c))) {
        snprintf(dp->errmsg, sizeof(dp->errmsg), "out of memory");
        return PP_E_NOMEM;
    }
    c->np = pack_all(c);
    if (!c->nr)
        return PP_OK;
    if (!reserve_bufs(c, c->np + 2)) {
        snprintf(dp->errmsg, sizeof(dp->errmsg), "out of memory");
        return PP_E_NOMEM;
    }
    /* The JTAG layer may have scanned since: its queue goes first. */
    if ((rc = pp_jtag_flush(c->jtag)) != PP_OK)
        return link_failed(dp, rc);
    ncfg = config_packets(dp, 0);
    for (size_t k = 0; k < c->np; k++) {
        uint8_t *o = c->out + (ncfg + k) * psize(c);

        c->run[ncfg + k] = (struct pp_cmsisdap_pkt){ .out = o, .olen = encode_pkt(dp, &c->p[k], o),
                                                     .in = c->in + (ncfg + k) * psize(c) };
    }
    dp->st.scans += c->nr;
    t0 = pp_mono_ns();
    rc = pp_cmsisdap_run(c->probe, c->run, ncfg + c->np);
    if (rc != PP_OK)
        return link_failed(dp, rc);
    rc = parse(dp, x, ncfg, ctrl);
    date(dp, x, ncfg, t0);
    if (rc == PP_OK)
        dp->trace_retry = 0;
    return rc;
}

static int cdp_abort(struct pp_dp *dp)
{
    struct cdp *c = C(dp);
    uint8_t out[6] = { ID_WRITE_ABORT, c->index }, in[PP_CMSISDAP_MAX_PACKET];
    struct pp_cmsisdap_pkt p = { .out = out, .olen = 6, .in = in };
    int rc;

    pp_cmsisdap_put32(out + 2, 1u);   /* DAPABORT */
    rc = pp_cmsisdap_run(c->probe, &p, 1);
    dp->select_known = false;
    dp->clear_next = true;
    pp_trace_dap_forget(dp->trace);
    pp_trace_text(dp->trace, PP_TRACE_DAP, "dap  ABORT W DAPABORT (DAP_WriteABORT): the AP "
                  "transaction that kept answering WAIT is ended");
    return rc == PP_OK ? PP_OK : link_failed(dp, rc);
}

static void cdp_free(void *priv)
{
    struct cdp *c = priv;

    free(c->r);
    free(c->p);
    free(c->out);
    free(c->in);
    free(c->run);
    free(c->pace);
    free(c);
}

static const struct pp_dp_ops cdp_ops = {
    .name = "CMSIS-DAP",
    .exec = cdp_exec,
    .abort = cdp_abort,
    .free_priv = cdp_free,
};

struct pp_dp *pp_dp_cmsisdap_new(struct pp_jtag *jtag)
{
    struct pp_cmsisdap *probe = pp_link_cmsisdap(pp_jtag_link(jtag));
    struct cdp *c = probe ? calloc(1, sizeof(*c)) : NULL;
    struct pp_dp *dp;

    if (!c)
        return NULL;
    c->probe = probe;
    c->jtag = jtag;
    c->swd = pp_cmsisdap_info(probe)->swd;
    dp = pp_dp_port_new(&cdp_ops, c);
    if (dp) {
        dp->no_orundetect = true;
        dp->swd = c->swd;
    }
    return dp;
}

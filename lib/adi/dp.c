/*
 * dp.c - the ADIv5 JTAG-DP transaction engine (spec 7.1, 7.2, 7.4).
 *
 * A run turns transfers into 35-bit DPACC/APACC scans, queues them on the
 * JTAG layer and flushes once.  The scan that follows a read carries the
 * read's result (posted reads), so results are matched to transfers by
 * walking the ACKs in order.  The JTAG-DP has one ACK for OK and FAULT:
 * errors are only visible in CTRL/STAT, which the caller reads with a
 * transfer of its own (the bus puts one at the end of every batch).
 *
 * WAIT: ORUNDETECT is always on, so the first WAITed scan sets
 * STICKYORUN and the DP discards every later APACC until it is cleared;
 * what ran is exactly the scans before the first WAIT.  DP accesses are
 * not discarded, so a later CTRL/STAT read may have overwritten the read
 * buffer: then the pending read's result is lost and the caller re-issues
 * that read (counted in lost_reads).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "adi/dp_port.h"
#include "errmsg.h"
#include "trace.h"

#define RECOVER_TRIES  8
/* An IR scan between two DR scans already gives the AP this many TCKs. */
#define IR_SCAN_TCK    9u

#define XI_NONE  (-1)         /* internal scan: SELECT write, RDBUFF collector */
#define XI_CLEAR (-2)         /* internal scan: the sticky clear at the start */

struct scan {
    uint8_t  ir;
    uint8_t  rnw, a;
    uint32_t wdata;
    int32_t  xi;              /* transfer index, or XI_* */
    uint64_t not_before;      /* TCK position this scan waits for (repeat spacing) */
    uint64_t tck_end;         /* position after the scan and its idle */
    uint8_t  tdi[5], tdo[5];
};

/* The JTAG-DP transport's own state (dp_port.h holds the shared part). */
struct jtagdp {
    struct pp_jtag *jtag;
    struct scan *scan;
    size_t cap;
};

static struct jtagdp *J(const struct pp_dp *dp)
{
    return dp->priv;
}

/* ---- building and queueing scans ------------------------------------------ */

static bool reserve(struct pp_dp *dp, size_t need)
{
    struct scan *s;
    size_t cap = J(dp)->cap ? J(dp)->cap : 64;

    if (need <= J(dp)->cap)
        return true;
    while (cap < need)
        cap *= 2;
    s = realloc(J(dp)->scan, cap * sizeof(*s));
    if (!s)
        return false;
    J(dp)->scan = s;
    J(dp)->cap = cap;
    return true;
}

static void put_scan(struct scan *s, uint8_t ir, bool rnw, uint8_t a, uint32_t wdata,
                     int32_t xi)
{
    uint64_t v = (rnw ? 1u : 0u) | (uint64_t)((a >> 2) & 3u) << 1 | (uint64_t)wdata << 3;

    memset(s, 0, sizeof(*s));
    s->ir = ir;
    s->rnw = rnw;
    s->a = a & 0xCu;
    s->wdata = wdata;
    s->xi = xi;
    for (unsigned b = 0; b < 5; b++)
        s->tdi[b] = (uint8_t)(v >> (8 * b));
}

static uint32_t select_for(const struct pp_dp_xfer *x)
{
    return (uint32_t)x->apsel << 24 | (x->addr & 0xF0u);
}

/* Scans for x[from..to) of x[0..n), after the k built so far: the pending
 * clear first, SELECT where it changes, the transfers, and RDBUFF to
 * collect a read at the end.  Returns the new count. */
static size_t build(struct pp_dp *dp, const struct pp_dp_xfer *x, size_t from, size_t to,
                    size_t n, size_t k)
{
    if (from == 0 && dp->clear_next)
        put_scan(&J(dp)->scan[k++], PP_JTAGDP_IR_DPACC, false, PP_DP_CTRLSTAT,
                 pp_dp_ctrl_word(dp, PP_CS_STICKY), XI_CLEAR);
    for (size_t i = from; i < to; i++) {
        size_t first = k;

        if (x[i].ap && (!dp->select_known || dp->select != select_for(&x[i]))) {
            dp->select = select_for(&x[i]);
            dp->select_known = true;
            dp->st.select_writes++;
            put_scan(&J(dp)->scan[k++], PP_JTAGDP_IR_DPACC, false, PP_DP_SELECT, dp->select,
                     XI_NONE);
        }
        put_scan(&J(dp)->scan[k++], x[i].ap ? PP_JTAGDP_IR_APACC : PP_JTAGDP_IR_DPACC,
                 x[i].rnw, x[i].ap ? x[i].addr & 0xCu : x[i].addr, x[i].wdata, (int32_t)i);
        J(dp)->scan[first].not_before = x[i].not_before;
    }
    if (to == n && k && J(dp)->scan[k - 1].rnw)
        put_scan(&J(dp)->scan[k++], PP_JTAGDP_IR_DPACC, true, PP_DP_RDBUFF, 0, XI_NONE);
    return k;
}

/* Idle after scan i: an AP access runs from Update-DR and must be over by
 * the next Capture-DR (jtag.h of the sim, mpsse 4.2); an IR scan in
 * between already gives it IR_SCAN_TCK. */
static unsigned idle_after(const struct pp_dp *dp, const struct scan *s, size_t i, size_t n)
{
    if (s[i].ir != PP_JTAGDP_IR_APACC || i + 1 == n)
        return 0;
    if (s[i + 1].ir == s[i].ir)
        return dp->idle_cur;
    return dp->idle_cur > IR_SCAN_TCK ? dp->idle_cur - IR_SCAN_TCK : 0;
}

/* Run-Test/Idle until position want (from base) when the queue is not
 * there yet: the spacing of a repeat run's repetitions. */
static int wait_for(struct pp_dp *dp, uint64_t base, uint64_t want)
{
    uint64_t at = pp_jtag_tck_queued(J(dp)->jtag) - base;

    if (!want || at >= want)
        return PP_OK;
    return pp_jtag_idle(J(dp)->jtag, (unsigned)(want - at));
}

/* Queues s[*done..upto) of the n built so far, positions counted from
 * base (the queue's position before s[0]); a transfer of x (NULL for
 * internal scans) gets its scan's end position as it is queued. */
static int queue_part(struct pp_dp *dp, struct scan *s, uint64_t base, size_t *done,
                      size_t upto, size_t n, struct pp_dp_xfer *x)
{
    int rc = PP_OK;

    for (size_t i = *done; i < upto && rc == PP_OK; i++) {
        rc = wait_for(dp, base, s[i].not_before);
        if (rc == PP_OK)
            rc = pp_jtag_ir(J(dp)->jtag, s[i].ir);
        if (rc == PP_OK)
            rc = pp_jtag_dr(J(dp)->jtag, s[i].tdi, s[i].tdo, PP_JTAGDP_DRLEN,
                            idle_after(dp, s, i, n));
        s[i].tck_end = pp_jtag_tck_queued(J(dp)->jtag) - base;
        if (x && s[i].xi >= 0)
            x[s[i].xi].tck_at = s[i].tck_end;
        dp->st.scans++;
        *done = i + 1;
    }
    return rc;
}

static int queue(struct pp_dp *dp, struct scan *s, size_t n)
{
    size_t done = 0;

    return queue_part(dp, s, pp_jtag_tck_queued(J(dp)->jtag), &done, n, n, NULL);
}

/*
 * Builds and queues the scans of x[0..n) a piece at a time: the link
 * sends a chunk as soon as it fills (lib/link/ftdi.c stream_step), so the
 * chip starts on the first piece while the rest is being built instead
 * of waiting for the whole batch (a run_repeat set is thousands of
 * transfers).  A piece's last scan is queued with the next piece:
 * its idle depends on the scan after it (idle_after).  Each transfer gets
 * its scan's position as that is queued (queue_part), not in a pass over
 * the whole set that the last chunk would wait for.  Returns the count.
 */
#define BUILD_PIECE 256u

static int build_and_queue(struct pp_dp *dp, struct pp_dp_xfer *x, size_t n, size_t *ns)
{
    uint64_t base = pp_jtag_tck_queued(J(dp)->jtag);
    size_t from = 0, done = 0, k = 0;
    int rc = PP_OK;

    do {
        size_t to = n - from > BUILD_PIECE ? from + BUILD_PIECE : n;

        k = build(dp, x, from, to, n, k);
        rc = queue_part(dp, J(dp)->scan, base, &done, to == n ? k : k - 1, k, x);
        from = to;
    } while (rc == PP_OK && from < n);
    *ns = k;
    return rc;
}

static int link_failed(struct pp_dp *dp, int rc)
{
    struct pp_link *l = pp_jtag_link(J(dp)->jtag);

    dp->select_known = false;
    pp_trace_dap_forget(dp->trace);
    snprintf(dp->errmsg, sizeof(dp->errmsg), "%s",
             l->errmsg[0] ? l->errmsg : pp_strerror(rc));
    return rc;
}

static int flush(struct pp_dp *dp)
{
    int rc = pp_jtag_flush(J(dp)->jtag);

    return rc == PP_OK ? PP_OK : link_failed(dp, rc);
}

static unsigned ack_of(const struct scan *s)
{
    return s->tdo[0] & 7u;
}

static uint32_t data_of(const struct scan *s)
{
    uint64_t v = 0;

    for (unsigned b = 0; b < 5; b++)
        v |= (uint64_t)s->tdo[b] << (8 * b);
    return (uint32_t)(v >> 3);
}

static int bad_ack(struct pp_dp *dp, unsigned ack)
{
    dp->select_known = false;
    pp_jtag_forget_ir(J(dp)->jtag);
    snprintf(dp->errmsg, sizeof(dp->errmsg),
             "JTAG-DP answered ACK 0x%x, neither OK (0x2) nor WAIT (0x1): check the JTAG "
             "chain, the TCK speed and that the target is powered", ack);
    return PP_E_PROTO;
}

/* ---- the trace ------------------------------------------------------------ */

static const char *ack_name(unsigned ack, bool dropped)
{
    if (dropped)
        return "discarded";
    return ack == PP_JTAGDP_ACK_OK ? "OK" : ack == PP_JTAGDP_ACK_WAIT ? "WAIT" : "ACK?";
}

/*
 * Scans s[0..n) as the DP answered them, once flushed.  A read shows the
 * result the next scan brought back (posted reads, spec 7.1).  After the
 * first WAIT the overrun check makes the DP drop every APACC (spec 7.2):
 * those are "discarded" whatever their ACK bits say; DP accesses still run.
 */
static void trace_scans(struct pp_dp *dp, const struct scan *s, size_t n)
{
    bool waited = false;

    if (!pp_trace_on(dp->trace, PP_TRACE_DAP))
        return;
    for (size_t i = 0; i < n; i++) {
        unsigned ack = ack_of(&s[i]);
        struct pp_trace_dap d = { .ap = s[i].ir == PP_JTAGDP_IR_APACC, .rnw = s[i].rnw,
                                  .a = s[i].a, .value = s[i].wdata,
                                  .retry = dp->trace_retry };

        d.ack = ack_name(ack, waited && d.ap);
        waited |= ack == PP_JTAGDP_ACK_WAIT;
        if (d.rnw && !waited && i + 1 < n && ack_of(&s[i + 1]) == PP_JTAGDP_ACK_OK) {
            d.value = data_of(&s[i + 1]);
            d.has_value = true;
        }
        pp_trace_dap(dp->trace, &d);
    }
}

/* ---- running -------------------------------------------------------------- */

static void deliver(struct pp_dp_xfer *x, const struct scan *s, uint32_t data)
{
    if (s->xi >= 0) {
        x[s->xi].rdata = data;
        x[s->xi].done = 1;
    }
}

/* A DP read other than RDBUFF loads the read buffer (spec 7.1). */
static bool loads_rdbuf(const struct scan *s, unsigned ack)
{
    return ack == PP_JTAGDP_ACK_OK && s->ir == PP_JTAGDP_IR_DPACC && s->rnw &&
           s->a != PP_DP_RDBUFF;
}

/* One recovery scan sequence in its own flush; PP_OK when every scan was
 * accepted, PP_E_WAIT when one was not. */
static int run_internal(struct pp_dp *dp, struct scan *s, size_t n)
{
    int rc;

    if ((rc = pp_jtag_idle(J(dp)->jtag, dp->idle_cur)) != PP_OK ||
        (rc = queue(dp, s, n)) != PP_OK)
        return link_failed(dp, rc);
    if ((rc = flush(dp)) != PP_OK)
        return rc;
    trace_scans(dp, s, n);
    for (size_t i = 0; i < n; i++) {
        unsigned ack = ack_of(&s[i]);

        if (ack == PP_JTAGDP_ACK_WAIT) {
            dp->st.waits++;
            return PP_E_WAIT;
        }
        if (ack != PP_JTAGDP_ACK_OK)
            return bad_ack(dp, ack);
    }
    return PP_OK;
}

/*
 * After a WAIT: collect the pending read with an RDBUFF read on its own
 * (a WAITed scan changes nothing, so this is safe to repeat), then clear
 * STICKYORUN (W1C, STICKYERR left for the caller's check) and read
 * CTRL/STAT.  Two flushes, each repeated with more idle while it WAITs.
 */
static int recover(struct pp_dp *dp, struct pp_dp_xfer *x, const struct scan *pending,
                   uint32_t *ctrl)
{
    struct scan s[3];
    int rc = PP_E_WAIT;

    for (int t = 0; pending && t < RECOVER_TRIES && rc == PP_E_WAIT; t++) {
        put_scan(&s[0], PP_JTAGDP_IR_DPACC, true, PP_DP_RDBUFF, 0, XI_NONE);
        rc = run_internal(dp, s, 1);
        if (rc == PP_OK) {
            deliver(x, pending, data_of(&s[0]));
            pp_trace_text(dp->trace, PP_TRACE_DAP, "dap  (the RDBUFF scan brought back "
                          "0x%08X: the result of the read before the WAIT)", data_of(&s[0]));
        }
        else if (rc == PP_E_WAIT)
            pp_dp_grow_idle(dp);
    }
    if (pending && rc != PP_OK)
        return rc == PP_E_WAIT ? PP_E_BUSY : rc;
    rc = PP_E_WAIT;
    for (int t = 0; t < RECOVER_TRIES && rc == PP_E_WAIT; t++) {
        put_scan(&s[0], PP_JTAGDP_IR_DPACC, false, PP_DP_CTRLSTAT,
                 pp_dp_ctrl_word(dp, PP_CS_STICKYORUN), XI_NONE);
        put_scan(&s[1], PP_JTAGDP_IR_DPACC, true, PP_DP_CTRLSTAT, 0, XI_NONE);
        put_scan(&s[2], PP_JTAGDP_IR_DPACC, true, PP_DP_RDBUFF, 0, XI_NONE);
        rc = run_internal(dp, s, 3);
        if (rc == PP_OK)
            *ctrl = data_of(&s[2]);
        else if (rc == PP_E_WAIT)
            pp_dp_grow_idle(dp);
    }
    return rc == PP_E_WAIT ? PP_E_BUSY : rc;
}

static int after_wait(struct pp_dp *dp, struct pp_dp_xfer *x, size_t k, size_t n,
                      long pending, uint32_t *ctrl)
{
    const struct scan *s = J(dp)->scan;
    const struct scan *keep = NULL;
    int rc;

    for (size_t j = k; j < n; j++)
        if (ack_of(&s[j]) == PP_JTAGDP_ACK_WAIT)
            dp->st.waits++;
    if (pending >= 0 && s[pending].xi >= 0) {     /* a collector needs no result */
        keep = &s[pending];
        for (size_t j = k + 1; j < n && keep; j++)
            if (loads_rdbuf(&s[j], ack_of(&s[j])))
                keep = NULL;
        if (!keep)
            dp->st.lost_reads++;
    }
    dp->st.wait_rounds++;
    dp->trace_retry++;
    dp->select_known = false;
    pp_dp_grow_idle(dp);
    rc = recover(dp, x, keep, ctrl);
    return rc == PP_OK ? PP_E_WAIT : rc;
}

static int jtagdp_exec(struct pp_dp *dp, struct pp_dp_xfer *x, size_t n, uint32_t *ctrl)
{
    long pending = -1;
    size_t ns;
    int rc;

    dp->errmsg[0] = '\0';
    dp->st.runs++;
    for (size_t i = 0; i < n; i++)
        x[i].done = 0;
    if (!reserve(dp, 2 * n + 2)) {
        snprintf(dp->errmsg, sizeof(dp->errmsg), "out of memory");
        return PP_E_NOMEM;
    }
    dp->run_tck = 0;
    if ((rc = build_and_queue(dp, x, n, &ns)) != PP_OK)
        return link_failed(dp, rc);
    if (!ns)
        return PP_OK;
    dp->run_tck = J(dp)->scan[ns - 1].tck_end;
    if ((rc = flush(dp)) != PP_OK)
        return rc;
    trace_scans(dp, J(dp)->scan, ns);
    for (size_t i = 0; i < ns; i++) {
        const struct scan *s = &J(dp)->scan[i];
        unsigned ack = ack_of(s);

        if (ack == PP_JTAGDP_ACK_WAIT)
            return after_wait(dp, x, i, ns, pending, ctrl);
        if (ack != PP_JTAGDP_ACK_OK)
            return bad_ack(dp, ack);
        if (pending >= 0)
            deliver(x, &J(dp)->scan[pending], data_of(s));
        pending = s->rnw ? (long)i : -1;
        if (!s->rnw && s->xi >= 0)
            x[s->xi].done = 1;
        if (s->xi == XI_CLEAR)
            dp->clear_next = false;
    }
    dp->trace_retry = 0;        /* the retries of the next run start again */
    return PP_OK;
}

static int jtagdp_abort(struct pp_dp *dp)
{
    struct scan s;
    int rc;

    /* DAPABORT is bit 0 of the data field: bit 3 of the 35-bit DR. */
    put_scan(&s, PP_JTAGDP_IR_ABORT, false, 0, 1u, XI_NONE);
    if ((rc = pp_jtag_ir(J(dp)->jtag, PP_JTAGDP_IR_ABORT)) != PP_OK ||
        (rc = pp_jtag_dr(J(dp)->jtag, s.tdi, NULL, PP_JTAGDP_DRLEN, 0)) != PP_OK)
        return link_failed(dp, rc);
    dp->select_known = false;
    dp->clear_next = true;
    pp_trace_dap_forget(dp->trace);
    pp_trace_text(dp->trace, PP_TRACE_DAP, "dap  ABORT W DAPABORT: the AP transaction that "
                  "kept answering WAIT is ended");
    return flush(dp);
}

static void jtagdp_free(void *priv)
{
    struct jtagdp *j = priv;

    free(j->scan);
    free(j);
}

static const struct pp_dp_ops jtagdp_ops = {
    .name = "JTAG-DP",
    .exec = jtagdp_exec,
    .abort = jtagdp_abort,
    .free_priv = jtagdp_free,
};

struct pp_dp *pp_dp_new(struct pp_jtag *jtag)
{
    struct jtagdp *j = calloc(1, sizeof(*j));

    if (!j)
        return NULL;
    j->jtag = jtag;
    return pp_dp_port_new(&jtagdp_ops, j);
}

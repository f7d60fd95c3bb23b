/*
 * dp_swd.c - the DP transport over pmuprobe's own SWD engine (dp_port.h,
 * lib/link/swd.h), on a JTAG link whose TDI (through a resistor) and TDO
 * are tied to SWDIO (lib/link/swd_link.c; spec/cmsis-dap-swd.md 5.3).
 *
 * The engine already runs a list of transfers the way pp_dp_exec does
 * (posted reads resolved, SELECT cached, a CTRL/STAT read at the end), so
 * this file only translates what differs on a SW-DP (spec/arm-pmu-
 * coresight.md 7.2, spec/cmsis-dap-swd.md 4.7):
 *  - sticky flags are read-only in CTRL/STAT and cleared through ABORT,
 *    so a CTRL/STAT write that asks to clear them (the bus's per-op
 *    check, a pending clear) becomes an ABORT write with the matching
 *    *CLR bits, followed by the CTRL/STAT write without them;
 *  - a FAULT (a sticky flag set) ends the run early: what was not done is
 *    reported not done with PP_E_WAIT and CTRL/STAT in *ctrl, so that the
 *    bus sees STICKYERR there and attributes it per op, as after a
 *    JTAG-DP run (adi_bus.c); any other flag is cleared here and the rest
 *    re-issued;
 *  - the engine retries WAITs itself; when it gives up, STICKYORUN is
 *    cleared before PP_E_WAIT goes up, as the JTAG-DP does.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "adi/dp_port.h"
#include "errmsg.h"
#include "link/swd.h"
#include "link/swd_link.h"
#include "trace.h"

struct sdp {
    struct pp_swd_wire *wire;
    struct pp_swd *swd;
    struct pp_dp_xfer *x;          /* the translated run */
    size_t *from;                  /* x[k] stands for the caller's x[from[k]] */
    size_t cap;
    bool trace_sel_ok;             /* the SELECT the trace was last told */
    uint32_t trace_sel;
};

static struct sdp *S(const struct pp_dp *dp)
{
    return dp->priv;
}

static bool reserve(struct sdp *s, size_t n)
{
    struct pp_dp_xfer *x;
    size_t *f;

    if (n <= s->cap)
        return true;
    if (!(x = realloc(s->x, n * sizeof(*x))))
        return false;
    s->x = x;
    if (!(f = realloc(s->from, n * sizeof(*f))))
        return false;
    s->from = f;
    s->cap = n;
    return true;
}

/* ABORT's clear bits for CTRL/STAT's sticky bits (spec 7.2). */
static uint32_t abort_bits(uint32_t sticky)
{
    return ((sticky & PP_CS_STICKYORUN) ? PP_SWD_ABORT_ORUNERRCLR : 0) |
           ((sticky & PP_CS_STICKYCMP) ? PP_SWD_ABORT_STKCMPCLR : 0) |
           ((sticky & PP_CS_STICKYERR) ? PP_SWD_ABORT_STKERRCLR : 0);
}

static bool clears_sticky(const struct pp_dp_xfer *x)
{
    return !x->ap && !x->rnw && x->addr == PP_DP_CTRLSTAT && (x->wdata & PP_CS_STICKY);
}

#define FROM_CLEAR ((size_t)-1)

static void put(struct sdp *s, size_t *k, struct pp_dp_xfer x, size_t from)
{
    s->x[*k] = x;
    s->from[(*k)++] = from;
}

/* The run the engine gets: the pending clear, then x[0..n) not done with
 * sticky clears turned into ABORT writes. */
static size_t translate(struct pp_dp *dp, const struct pp_dp_xfer *x, size_t n)
{
    struct sdp *s = S(dp);
    size_t k = 0;

    if (dp->clear_next)
        put(s, &k, (struct pp_dp_xfer){ .addr = PP_DP_DPIDR, .wdata = PP_SWD_ABORT_CLEARALL },
            FROM_CLEAR);
    for (size_t i = 0; i < n; i++) {
        struct pp_dp_xfer t = x[i];

        if (t.done)
            continue;
        t.done = 0;
        if (clears_sticky(&t)) {
            put(s, &k, (struct pp_dp_xfer){ .addr = PP_DP_DPIDR,
                                             .wdata = abort_bits(t.wdata),
                                             .not_before = t.not_before }, FROM_CLEAR);
            t.wdata &= ~PP_CS_STICKY;
            t.not_before = 0;
        }
        put(s, &k, t, i);
    }
    return k;
}

/* The DAP record of a transfer the engine completed (ACK OK; its SELECT
 * writes are shown where the AP or bank changes, so that the trace names
 * AP registers right). */
static void trace_done(struct pp_dp *dp, const struct pp_dp_xfer *t)
{
    struct sdp *s = S(dp);
    uint32_t sel = (uint32_t)t->apsel << 24 | (t->addr & 0xF0u);

    if (!pp_trace_on(dp->trace, PP_TRACE_DAP))
        return;
    if (t->ap && (!s->trace_sel_ok || s->trace_sel != sel)) {
        pp_trace_dap(dp->trace, &(struct pp_trace_dap){ .a = PP_DP_SELECT, .value = sel,
                                                        .ack = "OK" });
        s->trace_sel = sel;
        s->trace_sel_ok = true;
    }
    pp_trace_dap(dp->trace, &(struct pp_trace_dap){
        .ap = t->ap, .rnw = t->rnw, .a = t->addr & 0xCu, .has_value = t->rnw,
        .value = t->rnw ? t->rdata : t->wdata, .ack = "OK", .retry = dp->trace_retry });
}

/* What the engine did goes back to the caller's transfers. */
static void settle(struct pp_dp *dp, struct pp_dp_xfer *x, size_t k)
{
    struct sdp *s = S(dp);

    for (size_t j = 0; j < k; j++) {
        const struct pp_dp_xfer *t = &s->x[j];

        if (!t->done)
            continue;
        trace_done(dp, t);
        if (s->from[j] == FROM_CLEAR) {
            if (t->wdata == PP_SWD_ABORT_CLEARALL)
                dp->clear_next = false;
            continue;
        }
        x[s->from[j]].rdata = t->rdata;
        x[s->from[j]].tck_at = t->tck_at;
        x[s->from[j]].done = 1;
        if (t->ap) {
            dp->select = (uint32_t)t->apsel << 24 | (t->addr & 0xF0u);
            dp->select_known = true;
        }
    }
}

static void count(struct pp_dp *dp, const struct pp_swd_stats *before)
{
    struct pp_swd_stats now;

    pp_swd_get_stats(S(dp)->swd, &now);
    dp->st.runs++;
    dp->st.scans += now.packets - before->packets;
    dp->st.select_writes += now.select_writes - before->select_writes;
    dp->st.waits += now.waits - before->waits;
    dp->st.wait_rounds += now.wait_rounds - before->wait_rounds;
    dp->run_tck = now.clocks - before->clocks;
}

static int failed(struct pp_dp *dp, int rc)
{
    S(dp)->trace_sel_ok = false;
    pp_trace_dap_forget(dp->trace);
    dp->select_known = false;
    pp_swd_forget_select(S(dp)->swd);
    snprintf(dp->errmsg, sizeof(dp->errmsg), "%s", pp_swd_errmsg(S(dp)->swd));
    return rc;
}

/* Clears the flags in bits and reads CTRL/STAT into *ctrl. */
static int clear_and_read(struct pp_dp *dp, uint32_t bits, uint32_t *ctrl)
{
    struct pp_dp_xfer r = { .addr = PP_DP_CTRLSTAT, .rnw = 1 };
    int rc = pp_swd_abort(S(dp)->swd, bits);

    if (rc == PP_OK)
        rc = pp_swd_exec(S(dp)->swd, &r, 1, ctrl);
    return rc == PP_OK ? PP_OK : failed(dp, rc);
}

static int swdp_exec(struct pp_dp *dp, struct pp_dp_xfer *x, size_t n, uint32_t *ctrl)
{
    struct sdp *s = S(dp);
    struct pp_swd_stats before;
    uint32_t c = 0;
    size_t k;
    int rc;

    if (!reserve(s, 2 * n + 1)) {
        snprintf(dp->errmsg, sizeof(dp->errmsg), "swd: out of memory");
        return PP_E_NOMEM;
    }
    k = translate(dp, x, n);
    pp_swd_get_stats(s->swd, &before);
    rc = pp_swd_exec(s->swd, s->x, k, &c);
    count(dp, &before);
    settle(dp, x, k);
    if (ctrl)
        *ctrl = c;
    if (rc == PP_OK) {
        dp->trace_retry = 0;
        return PP_OK;
    }
    dp->select_known = false;
    s->trace_sel_ok = false;
    dp->trace_retry++;
    if (rc == PP_E_WAIT) {
        /* The engine's last round left STICKYORUN set. */
        pp_dp_grow_idle(dp);
        rc = clear_and_read(dp, PP_SWD_ABORT_ORUNERRCLR, ctrl ? ctrl : &c);
        return rc == PP_OK ? PP_E_WAIT : rc;
    }
    if (rc != PP_E_FAULT)
        return failed(dp, rc);
    /* STICKYERR stays for the bus to attribute and clear; a flag the
     * host caused (an overrun the FAULT itself set, a write data parity
     * error) is cleared here and the rest re-issued. */
    if (c & PP_CS_STICKYERR) {
        if (ctrl)
            *ctrl = c & ~PP_CS_STICKYORUN;
        return PP_E_WAIT;
    }
    rc = clear_and_read(dp, PP_SWD_ABORT_CLEARALL, ctrl ? ctrl : &c);
    return rc == PP_OK ? PP_E_WAIT : rc;
}

static int swdp_abort(struct pp_dp *dp)
{
    int rc = pp_swd_abort(S(dp)->swd, PP_SWD_ABORT_DAPABORT);

    dp->select_known = false;
    dp->clear_next = true;
    return rc == PP_OK ? PP_OK : failed(dp, rc);
}

/* JTAG-to-SWD, line reset, DPIDR, then the engine's power-up (which clears
 * every sticky flag through ABORT and sets ORUNDETECT). */
static int swdp_power_up(struct pp_dp *dp, char *err, size_t errlen)
{
    struct sdp *s = S(dp);
    uint32_t dpidr = 0;
    int rc = pp_swd_connect(s->swd, true, &dpidr);

    /* A JTAG-only DP ignores the switch: the line then floats high (no
     * ACK, PP_E_NOTFOUND) or TDO, not driven by a SW-DP, reads garbage
     * (PP_E_PROTO). */
    if (rc == PP_E_NOTFOUND || rc == PP_E_PROTO) {
        pp_errmsg(err, errlen, "swd: no SW-DP answered the JTAG-to-SWD switch and line reset "
                  "(%s): expected a SW-DP or SWJ-DP with SWDIO wired to TDI (through a "
                  "resistor) and TDO; a JTAG-only DP (target dp = jtag) needs --transport jtag",
                  pp_swd_errmsg(s->swd));
        return rc;
    }
    if (rc != PP_OK) {
        pp_errmsg(err, errlen, "swd: connect: %s", pp_swd_errmsg(s->swd));
        return rc;
    }
    dp->select_known = false;
    dp->clear_next = false;
    return pp_swd_power_up(s->swd, err, errlen);
}

static void swdp_free(void *priv)
{
    struct sdp *s = priv;

    pp_swd_free(s->swd);
    if (s->wire && s->wire->ops->free)
        s->wire->ops->free(s->wire);
    free(s->x);
    free(s->from);
    free(s);
}

static const struct pp_dp_ops swdp_ops = {
    .name = "SW-DP",
    .exec = swdp_exec,
    .abort = swdp_abort,
    .power_up = swdp_power_up,
    .free_priv = swdp_free,
};

struct pp_dp *pp_dp_swd_new(struct pp_link *link)
{
    struct sdp *s = calloc(1, sizeof(*s));
    struct pp_dp *dp;

    if (!s)
        return NULL;
    s->wire = pp_swd_link_wire_new(link);
    s->swd = s->wire ? pp_swd_new(s->wire) : NULL;
    if (!s->swd) {
        swdp_free(s);
        return NULL;
    }
    dp = pp_dp_port_new(&swdp_ops, s);
    if (dp)
        dp->swd = true;
    return dp;
}

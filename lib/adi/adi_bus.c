/*
 * adi_bus.c - struct pp_bus over the JTAG-DP and the APB-AP: the path of
 * `--probe rbb:...` and `--probe ftdi...`.
 *
 * A batch is one flush when nothing goes wrong: the memap plan, then one
 * CTRL/STAT read at the end, the only place a JTAG-DP reports an error
 * response (spec 7.4).  Errors are attributed per op as follows.
 *
 *  - STICKYERR at the end of the first run: the AP discarded every APACC
 *    after the failing one, but which one failed is not known.  The sticky
 *    flag is cleared and the whole batch runs again with a CTRL/STAT read
 *    and a STICKYERR clear after every op, which names each failing op
 *    and lets every op run.  Ops before the first failure keep their
 *    first-run results (a read such as EDPRSR clears bits, so the second
 *    read would hide what the first saw); the failing op and every op
 *    after it report the second run, which for them is the first run that
 *    was not discarded.  When the second run names no failing op (the
 *    error went away between the runs), every op reports the second run:
 *    the first run's results past its unknown failure are discarded ones.
 *    Writes before the failure run twice: callers that mix writes with
 *    reads that may fail should know (the writes of this tool are
 *    idempotent, PMCR, PMCNTENSET, OSLAR, ..., but for PMSSCR's capture,
 *    which then takes a second snapshot: a core's reads all come from
 *    one run, so from one snapshot, unless its own slice failed).
 *  - WAIT: the ops whose transfers all ran are kept, the rest are issued
 *    again in order with more idle cycles (dp.c), up to WAIT_ROUNDS times;
 *    then the AP transaction is aborted (DAPABORT) and the rest end
 *    PP_OP_WAIT.  An op interrupted by a WAIT may run twice.
 *  - Link lost: every op without a final status ends PP_OP_LINK and the
 *    bus message names the endpoint (the link's message).
 *
 * Repeat mode (bus.h run_repeat) queues every repetition into one
 * pp_dp_exec, so one flush: one write and one read on remote_bitbang, one
 * set of USB transfers on FTDI.  The repetitions follow each other with
 * no CTRL/STAT tail in between (each one's last read is collected by the
 * next one's first scan, spec/ftdi-mpsse-jtag.md 4.4 (c)) and one
 * CTRL/STAT read ends the set.  When the link knows its TCK frequency,
 * repetition k starts k intervals (in TCKs) after the first, Run-Test/
 * Idle filling the gaps, and is dated by the TCK schedule: the host time
 * after the flush minus the TCKs still to run after it.  Without a clock
 * (remote_bitbang) nothing on the wire measures time, so a set is only
 * queued when the caller wants the repetitions back to back (interval 0),
 * dated by interpolating host time over the TCK schedule; with an
 * interval each repetition runs on its own at its host-time deadline, so
 * the samples keep their spacing (one round trip each).  Each repetition
 * also gets its window (bus.h): the host times around its own run, or
 * around the set's flush narrowed by the TCK schedule (set_window).
 * Errors inside a set: STICKYERR at the end cannot be pinned on a
 * repetition (the AP discarded every APACC after the failing one), so
 * the set's results are dropped and every repetition runs again on its own with the attribution above; after a
 * WAIT the repetitions done before it are kept (the recovery's CTRL/STAT
 * read shows they raised no error) and the rest run on their own.
 *
 * A link that dates transfers by measurement (link.h date_hz: CMSIS-DAP,
 * whose probe runs the transfers) takes the same path with another
 * clock: the last transfer of each repetition and the tail are marked
 * dated, the DP engine returns where they fell in the link's time (a
 * probe timer's ticks, or the host's reply arrival), and repetitions are
 * paced by not_before in ns.  The dating and the windows are the TCK
 * schedule's formulas on those measured positions; a date that bounds
 * only from above (date_upper) narrows the window's upper end alone.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "adi/adi.h"
#include "link/cmsisdap.h"
#include "bus/bus.h"
#include "errmsg.h"
#include "trace.h"

#define WAIT_ROUNDS 16

struct adi {
    struct pp_link *link;
    struct pp_jtag *jtag;
    struct pp_dp *dp;
    struct pp_memap ap;
    struct pp_dp_xfer *x;
    size_t xcap;
    struct pp_op *first;      /* first-run results, for the sticky path */
    uint8_t *final;           /* op has its final status */
    uint8_t *skip;            /* op not sent (unaligned); kept, like the
                               * buffers above, so a batch allocates nothing */
    size_t opcap;
    uint8_t *rep_done;        /* repeat mode, per repetition: done */
    size_t *rep_last;         /* and its last transfer's index in x */
    struct pp_bus_window *rep_win;  /* windows for a caller that wants none */
    unsigned repcap;
    bool had_wait;
};

static bool reserve(struct adi *a, size_t n)
{
    size_t xn = n * PP_MEMAP_XFERS_PER_OP + 2;

    if (xn > a->xcap) {
        struct pp_dp_xfer *x = realloc(a->x, xn * sizeof(*x));

        if (!x)
            return false;
        a->x = x;
        a->xcap = xn;
    }
    if (n > a->opcap) {
        struct pp_op *f = realloc(a->first, n * sizeof(*f));
        uint8_t *fin;

        if (!f)
            return false;
        a->first = f;
        fin = realloc(a->final, n);
        if (!fin)
            return false;
        a->final = fin;
        fin = realloc(a->skip, n);
        if (!fin)
            return false;
        a->skip = fin;
        a->opcap = n;
    }
    return true;
}

/* Zeroed per-repetition arrays for count repetitions, kept from call to
 * call like reserve's buffers. */
static bool reserve_reps(struct adi *a, unsigned count)
{
    size_t c = count ? count : 1;

    if (c > a->repcap) {
        uint8_t *d = realloc(a->rep_done, c);
        size_t *l;
        struct pp_bus_window *w;

        if (!d)
            return false;
        a->rep_done = d;
        l = realloc(a->rep_last, c * sizeof(*l));
        if (!l)
            return false;
        a->rep_last = l;
        w = realloc(a->rep_win, c * sizeof(*w));
        if (!w)
            return false;
        a->rep_win = w;
        a->repcap = (unsigned)c;
    }
    memset(a->rep_done, 0, c);
    memset(a->rep_last, 0, c * sizeof(*a->rep_last));
    return true;
}

/* The result of one op, whose transfers are x[0..n) (all done). */
static void apply(struct pp_op *op, const struct pp_dp_xfer *x, size_t n, bool per_op)
{
    if (!per_op)
        op->st = PP_OP_OK;
    for (size_t i = 0; i < n; i++) {
        if (x[i].role == PP_MEMAP_ROLE_DATA && !op->write)
            op->rdata = x[i].rdata;
        if (x[i].role == PP_MEMAP_ROLE_CHECK)
            op->st = (x[i].rdata & PP_CS_STICKYERR) ? PP_OP_SLVERR : PP_OP_OK;
    }
}

/* Results of one run: an op is final when every transfer it owns was done.
 * The plan emits each op's transfers together, so one pass suffices. */
static void collect(struct adi *a, struct pp_op *ops, size_t nx, bool per_op)
{
    size_t i = 0;

    while (i < nx) {
        int32_t tag = a->x[i].tag;
        size_t j = i;
        bool done = true;

        for (; j < nx && a->x[j].tag == tag; j++)
            done = done && a->x[j].done;
        if (tag >= 0 && done && !a->final[tag]) {
            apply(&ops[tag], &a->x[i], j - i, per_op);
            a->final[tag] = 1;
        }
        i = j;
    }
}

static void mark_rest(struct pp_op *ops, const uint8_t *final, size_t n, uint8_t st)
{
    for (size_t i = 0; i < n; i++)
        if (!final[i])
            ops[i].st = st;
}

static int link_lost(struct pp_bus *bus, struct adi *a, struct pp_op *ops, size_t n, int rc)
{
    mark_rest(ops, a->final, n, PP_OP_LINK);
    pp_bus_set_errmsg(bus, "%s", pp_dp_errmsg(a->dp));
    pp_memap_forget(&a->ap);
    return rc == PP_E_NOMEM ? rc : PP_E_LINK;
}

static int wait_timeout(struct pp_bus *bus, struct adi *a, struct pp_op *ops, size_t n)
{
    mark_rest(ops, a->final, n, PP_OP_WAIT);
    pp_bus_set_errmsg(bus, "the %s kept answering WAIT after %d retries (last idle "
                      "%u TCK); the AP transaction was aborted",
                      pp_dp_is_swd(a->dp) ? "SW-DP" : "JTAG-DP", WAIT_ROUNDS, pp_dp_idle(a->dp));
    (void)pp_dp_abort(a->dp);
    pp_memap_forget(&a->ap);
    return PP_E_WAIT;
}

/*
 * STICKYORUN in the tail CTRL/STAT without a WAIT seen (an overrun the
 * host did not cause, or one left from before): the DP discarded every
 * APACC from some unknown point on, answering OK with stale data (spec
 * 7.2, 7.4), so no result of the run can be trusted.  The flag is cleared
 * before the next run, which does everything again.
 */
static bool overrun(struct adi *a, uint32_t ctrl)
{
    if (!(ctrl & PP_CS_STICKYORUN))
        return false;
    pp_dp_clear_sticky_next(a->dp);
    pp_memap_forget(&a->ap);
    a->had_wait = true;
    return true;
}

/* How one round of run_pass ended: run_pass decides what follows. */
enum round_end {
    ROUND_DONE,              /* every op final (or nothing left to plan) */
    ROUND_STICKY,            /* first run (per_op false) ended with STICKYERR */
    ROUND_AGAIN,             /* a WAIT or an overrun left ops to re-issue */
    ROUND_BUSY,              /* the DP stays busy: retrying will not help */
    ROUND_LINK,              /* the path failed: the error is in *rc */
};

/* Results of a round that the DP carried (rc PP_OK, PP_E_WAIT or
 * PP_E_BUSY), ctrl its CTRL/STAT. */
static enum round_end round_results(struct adi *a, struct pp_op *ops, size_t n, size_t nx,
                                    bool per_op, int rc, uint32_t ctrl)
{
    collect(a, ops, nx, per_op);
    for (size_t i = 0; i < n; i++)
        if (!a->final[i])
            ops[i].st = PP_OP_PENDING;    /* planned again next round */
    if (rc != PP_OK) {
        a->had_wait = true;
        pp_memap_forget(&a->ap);
    }
    if (ctrl & PP_CS_STICKYERR) {
        if (!per_op)
            return ROUND_STICKY;
        pp_dp_clear_sticky_next(a->dp);   /* an op whose check WAITed failed */
    }
    if (rc == PP_OK)
        return ROUND_DONE;
    return rc == PP_E_BUSY ? ROUND_BUSY : ROUND_AGAIN;
}

/* Plans the ops not yet final, runs them (a first run, per_op false, ends
 * with a CTRL/STAT read) and keeps what completed. */
static enum round_end run_round(struct adi *a, struct pp_op *ops, size_t n, bool per_op,
                                int *rc)
{
    size_t nx = 0;
    uint32_t ctrl = 0;

    *rc = pp_memap_plan(&a->ap, a->dp, &(struct pp_memap_req){ .ops = ops, .n = n,
                                                               .per_op_check = per_op,
                                                               .x = a->x, .nx = &nx,
                                                               .cap = a->xcap });
    if (*rc != PP_OK)
        return ROUND_LINK;
    if (!nx)
        return ROUND_DONE;
    if (!per_op)
        a->x[nx++] = (struct pp_dp_xfer){ .rnw = 1, .addr = PP_DP_CTRLSTAT, .tag = -1,
                                          .role = PP_MEMAP_ROLE_TAIL };
    *rc = pp_dp_exec(a->dp, a->x, nx, &ctrl);
    if (*rc != PP_OK && *rc != PP_E_WAIT && *rc != PP_E_BUSY)
        return ROUND_LINK;
    if (*rc == PP_OK && !per_op) {
        ctrl = a->x[nx - 1].rdata;
        if (overrun(a, ctrl))
            return ROUND_AGAIN;           /* nothing of this run is trusted */
    }
    return round_results(a, ops, n, nx, per_op, *rc, ctrl);
}

/*
 * Runs the pending ops until each has a final status, re-issuing what a
 * WAIT or an overrun left undone, for at most WAIT_ROUNDS rounds.  *sticky
 * is set when the first run (per_op false) ends with STICKYERR.  Returns
 * PP_OK, PP_E_WAIT (gave up), or a link error.
 */
static int run_pass(struct pp_bus *bus, struct adi *a, struct pp_op *ops, size_t n,
                    bool per_op, bool *sticky)
{
    for (int round = 0; round < WAIT_ROUNDS; round++) {
        int rc = PP_OK;

        switch (run_round(a, ops, n, per_op, &rc)) {
        case ROUND_DONE:
            return PP_OK;
        case ROUND_STICKY:
            *sticky = true;
            return PP_OK;
        case ROUND_LINK:
            return link_lost(bus, a, ops, n, rc);
        case ROUND_BUSY:
            return wait_timeout(bus, a, ops, n);
        case ROUND_AGAIN:
            break;
        }
    }
    return wait_timeout(bus, a, ops, n);
}

/* Second run after STICKYERR (see the top of the file). */
static int attribute_sticky(struct pp_bus *bus, struct adi *a, struct pp_op *ops, size_t n,
                            const uint8_t *skip)
{
    size_t fail = n;
    bool dummy = false;
    int rc;

    memcpy(a->first, ops, n * sizeof(*ops));
    for (size_t i = 0; i < n; i++) {
        a->first[i].st = a->final[i] && !skip[i] ? PP_OP_OK : PP_OP_PENDING;
        a->final[i] = skip[i];
        if (!skip[i])
            ops[i].st = PP_OP_PENDING;
    }
    pp_dp_clear_sticky_next(a->dp);
    pp_memap_forget(&a->ap);
    rc = run_pass(bus, a, ops, n, true, &dummy);
    pp_memap_forget(&a->ap);          /* TAR after an error is not known */
    for (size_t i = 0; i < n && fail == n; i++)
        if (!skip[i] && ops[i].st == PP_OP_SLVERR)
            fail = i;
    /* No op failed this time: the error of the first run went away
     * between the two (a fault that cleared), so where the first run
     * stopped being carried is not known, and none of its results after
     * that point can be told from the discarded ones.  The second run,
     * checked op by op, is then the only one to trust, for every op.
     * (A clear-on-read bit the first run saw, EDPRSR.SPD, is lost with
     * it: the capture then sees the power cycle as counters that went
     * backwards, a discontinuity still, never a wrong delta.) */
    if (fail == n)
        return rc;
    for (size_t i = 0; i < fail; i++)
        if (!skip[i] && a->first[i].st == PP_OP_OK && ops[i].st == PP_OP_OK)
            ops[i] = a->first[i];
    return rc;
}

static int first_error(const struct pp_op *ops, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        int rc = pp_op_status_err(ops[i].st);

        if (rc != PP_OK)
            return rc;
    }
    return PP_OK;
}

static void update_stats(struct pp_bus *bus, const struct adi *a)
{
    bus->stats.round_trips = a->link->stats.round_trips;
    bus->stats.tck = a->link->stats.tck;
}

static int adi_run(struct pp_bus *bus, struct pp_op *ops, size_t n)
{
    struct adi *a = bus->priv;
    bool sticky = false;
    uint8_t *skip;
    int rc;

    if (!n)
        return PP_OK;
    if (!reserve(a, n)) {
        pp_bus_set_errmsg(bus, "out of memory");
        return PP_E_NOMEM;
    }
    skip = a->skip;
    /* APB accesses are words (spec 7.3: an APB-AP has no other size). */
    for (size_t i = 0; i < n; i++) {
        skip[i] = (ops[i].addr & 3u) != 0;
        a->final[i] = skip[i];
        ops[i].st = skip[i] ? PP_OP_FAULT : PP_OP_PENDING;
    }
    a->had_wait = false;
    rc = run_pass(bus, a, ops, n, false, &sticky);
    if (rc == PP_OK && sticky)
        rc = attribute_sticky(bus, a, ops, n, skip);
    pp_dp_batch_done(a->dp, a->had_wait);
    update_stats(bus, a);
    return rc == PP_OK ? first_error(ops, n) : rc;
}

/* ---- repeat mode (see the top of the file) ------------------------------- */

/* One repetition on its own: a plain run, its window the host times
 * around it (every read of it, WAIT retries included, falls inside),
 * dated when it returns. */
static int run_one(struct pp_bus *bus, struct pp_op *ops, size_t n, uint64_t *t,
                   struct pp_bus_window *w)
{
    uint64_t lo = pp_mono_ns();
    int rc = adi_run(bus, ops, n);

    *t = pp_mono_ns();
    *w = (struct pp_bus_window){ lo, *t };
    return rc;
}

struct set {
    size_t n;
    unsigned count;
    size_t *last;             /* per repetition: index in x of its last transfer */
    uint64_t t_before, t_after, run_tck;
};

/* What the MEM-AP planner starts a repetition from (memap.c). */
struct ap_state {
    uint8_t bank;
    bool tar_known;
    uint32_t tar;
};

static struct ap_state ap_state_of(const struct pp_memap *m)
{
    return (struct ap_state){ m->bank_end, m->tar_known, m->tar_known ? m->tar : 0 };
}

static bool same_ap_state(const struct ap_state *x, const struct ap_state *y)
{
    return x->bank == y->bank && x->tar_known == y->tar_known && x->tar == y->tar;
}

static bool same_ops(const struct pp_op *x, const struct pp_op *y, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (x[i].addr != y[i].addr || x[i].write != y[i].write || x[i].st != y[i].st ||
            (x[i].write && x[i].wdata != y[i].wdata))
            return false;
    return true;
}

/* Repetition k as a copy of k - 1's transfers, tags moved on by n: the
 * planner is deterministic, so the same ops from the same MEM-AP state
 * give the same transfers and leave the same state.  It is most of the
 * host's time per sample otherwise, and the MPSSE waits for it between
 * round trips. */
static int copy_rep(struct adi *a, const struct set *s, unsigned k, size_t *nx)
{
    size_t from = k >= 2 ? s->last[k - 2] + 1 : 0, len = s->last[k - 1] + 1 - from;

    if (*nx + len > a->xcap)
        return PP_E_NOMEM;
    for (size_t i = 0; i < len; i++) {
        struct pp_dp_xfer x = a->x[from + i];

        if (x.tag >= 0)
            x.tag += (int32_t)s->n;
        x.rdata = 0;
        x.done = 0;
        x.not_before = x.tck_at = 0;
        a->x[(*nx)++] = x;
    }
    return PP_OK;
}

/* Plans every repetition into a->x, spaced gap TCKs apart, and ends the
 * set with the CTRL/STAT read. */
static int plan_set(struct adi *a, struct pp_op *ops, struct set *s, uint64_t gap,
                    size_t *nx)
{
    struct ap_state prev = { 0 };

    *nx = 0;
    for (unsigned k = 0; k < s->count; k++) {
        size_t at = *nx;
        int32_t tag = (int32_t)((size_t)k * s->n);
        const struct pp_memap_req r = { .ops = ops + (size_t)k * s->n, .n = s->n,
                                        .first_tag = tag, .x = a->x, .nx = nx, .cap = a->xcap };
        struct ap_state st = ap_state_of(&a->ap);
        int rc;

        if (k >= 2 && same_ap_state(&st, &prev) &&
            same_ops(r.ops, r.ops - s->n, s->n))
            rc = copy_rep(a, s, k, nx);
        else
            rc = k == 0 ? pp_memap_plan(&a->ap, a->dp, &r) : pp_memap_plan_next(&a->ap, a->dp, &r);
        prev = st;
        if (rc != PP_OK)
            return rc;
        if (*nx == at)
            return PP_E_INVAL;            /* every op is pending: cannot happen */
        a->x[at].not_before = (uint64_t)k * gap;
        s->last[k] = *nx - 1;
        a->x[*nx - 1].dated = 1;
    }
    if (*nx + 1 > a->xcap)
        return PP_E_NOMEM;
    a->x[0].dated = 1;                /* the origin of measured positions */
    a->x[(*nx)++] = (struct pp_dp_xfer){ .rnw = 1, .addr = PP_DP_CTRLSTAT, .tag = -1,
                                         .role = PP_MEMAP_ROLE_TAIL, .dated = 1 };
    return PP_OK;
}

/* The clock tck_at counts on this link: a measured one, else the TCK
 * schedule's (0: none). */
static uint32_t date_hz(const struct adi *a)
{
    return a->link->date_hz ? a->link->date_hz : a->link->tck_hz;
}

/* TCK position p in ns at hz (0 when there is no clock). */
static uint64_t tck_ns(uint64_t p, uint32_t hz)
{
    return hz ? p * 1000000000u / hz : 0;
}

/*
 * Repetition k's window (bus.h): the host times around the flush bound
 * every read in it.  A link never clocks TCK faster than it says (USB and
 * the host only add delay), so where the flush took at least its TCKs'
 * time, the schedule tightens the bound: the first scan of repetition k
 * starts at TCK p0 (the end of the previous transfer), no earlier than
 * t_before + p0/hz; its last transfer's access starts by TCK p1, no later
 * than t_after - (run_tck - p1)/hz.  A link that ran faster than its
 * clock (an emulator) keeps the flush's bounds.
 */
static struct pp_bus_window set_window(const struct adi *a, const struct set *s, unsigned k)
{
    uint32_t hz = date_hz(a);
    uint64_t wall = s->t_after - s->t_before;
    uint64_t p0 = k ? a->x[s->last[k - 1]].tck_at : 0, p1 = a->x[s->last[k]].tck_at;
    struct pp_bus_window w = { s->t_before, s->t_after };

    if (!hz || tck_ns(s->run_tck, hz) > wall || p1 > s->run_tck || p0 > p1)
        return w;
    if (!a->link->date_upper)         /* a reply's arrival says nothing of the start */
        w.lo += tck_ns(p0, hz);
    w.hi -= tck_ns(s->run_tck - p1, hz);
    return w;
}

/*
 * t_ns[k] for the repetitions done in the set's flush (bus.h): where the
 * end of repetition k falls in the TCK schedule, anchored at the host
 * time after the flush.  Host time interpolated over the schedule is a
 * floor: it is what a link without a clock gets, and it wins only when a
 * link ran faster than its clock says (an emulator); measured dates
 * (date_hz) take no floor.  The estimate is kept inside the repetition's
 * window, which never goes backwards.
 */
static void date_set(const struct adi *a, const struct set *s, const uint8_t *done,
                     uint64_t *t_ns, struct pp_bus_window *win)
{
    uint32_t hz = date_hz(a);
    uint64_t wall = s->t_after - s->t_before;

    for (unsigned k = 0; k < s->count; k++) {
        uint64_t at = a->x[s->last[k]].tck_at;
        struct pp_bus_window w = set_window(a, s, k);

        if (!done[k])
            continue;
        if (at > s->run_tck)
            at = s->run_tck;
        t_ns[k] = s->t_before + (s->run_tck ? wall * at / s->run_tck : wall);
        if (a->link->date_hz)
            t_ns[k] = s->t_before;        /* raised to the measured date below */
        if (hz) {
            uint64_t back = tck_ns(s->run_tck - at, hz);

            if (s->t_after - back > t_ns[k] && back < wall)
                t_ns[k] = s->t_after - back;
        }
        t_ns[k] = t_ns[k] < w.lo ? w.lo : t_ns[k] > w.hi ? w.hi : t_ns[k];
        win[k] = w;
    }
}

/* done[k]: every op of repetition k has its final status. */
static void reps_done(const struct adi *a, const struct set *s, uint8_t *done)
{
    for (unsigned k = 0; k < s->count; k++) {
        done[k] = 1;
        for (size_t i = 0; i < s->n && done[k]; i++)
            done[k] = a->final[(size_t)k * s->n + i];
    }
}

/*
 * The ops the caller needs in the first repetition only (pp_op.once) are
 * not planned in the others: there they end PP_OP_SKIPPED, final from the
 * start.  A repetition keeps at least one op (its first transfer carries
 * its pacing and its last one its date), so when every op is once, all
 * are carried.  Only a set queued as one exec skips: a repetition run on
 * its own (run_alone) carries all of its ops, which costs a few scans and
 * is never wrong.
 */
static void skip_once(struct adi *a, struct pp_op *ops, size_t n, unsigned count)
{
    size_t kept = 0;

    for (size_t i = 0; i < n; i++)
        kept += !ops[i].once;
    if (kept == 0 || kept == n)
        return;
    for (unsigned k = 1; k < count; k++)
        for (size_t i = 0; i < n; i++)
            if (ops[i].once) {
                ops[(size_t)k * n + i].st = PP_OP_SKIPPED;
                a->final[(size_t)k * n + i] = 1;
            }
}

/* One exec for the whole set.  Fills done[]; returns PP_OK (some
 * repetitions may still be undone) or a link error. */
static int exec_set(struct pp_bus *bus, struct adi *a, struct pp_op *ops, struct set *s,
                    uint64_t gap, uint8_t *done, uint64_t *t_ns, struct pp_bus_window *win)
{
    size_t total = s->n * s->count, nx = 0;
    uint32_t ctrl = 0;
    int rc;

    memset(a->final, 0, total);
    memset(done, 0, s->count);
    skip_once(a, ops, s->n, s->count);
    rc = plan_set(a, ops, s, gap, &nx);
    if (rc != PP_OK) {
        pp_memap_forget(&a->ap);
        return rc == PP_E_INVAL ? PP_OK : link_lost(bus, a, ops, total, rc);
    }
    s->t_before = pp_mono_ns();
    rc = pp_dp_exec(a->dp, a->x, nx, &ctrl);
    s->t_after = pp_mono_ns();
    s->run_tck = pp_dp_run_tck(a->dp);
    if (rc == PP_OK)
        ctrl = a->x[nx - 1].rdata;
    if (rc != PP_OK && rc != PP_E_WAIT && rc != PP_E_BUSY)
        return link_lost(bus, a, ops, total, rc);
    if (rc != PP_OK) {
        a->had_wait = true;
        pp_memap_forget(&a->ap);
    }
    if (rc == PP_E_BUSY)
        return PP_OK;                     /* no CTRL/STAT to trust: all run again */
    if (rc == PP_OK && overrun(a, ctrl))
        return PP_OK;                     /* discarded from some point: all run again */
    if (ctrl & PP_CS_STICKYERR) {
        pp_dp_clear_sticky_next(a->dp);
        pp_memap_forget(&a->ap);
        return PP_OK;                     /* nothing kept: all run again */
    }
    collect(a, ops, nx, false);
    reps_done(a, s, done);
    date_set(a, s, done, t_ns, win);
    return PP_OK;
}

static bool all_aligned(const struct pp_op *ops, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (ops[i].addr & 3u)
            return false;
    return true;
}

/* A repeat request as adi_run_repeat got it, and which repetitions the
 * set finished. */
struct reps {
    struct pp_op *ops;        /* count repetitions of n ops */
    size_t n;
    unsigned count;
    uint64_t start_ns, interval_ns;
    uint64_t *t_ns;
    struct pp_bus_window *win;
    const uint8_t *done;
};

/* Sleeps until repetition k's deadline, start + k * interval (CLOCK_MONOTONIC);
 * at once when it has passed. */
static void pace(const struct reps *r, unsigned k)
{
    if (r->interval_ns && k)
        pp_sleep_until(r->start_ns + r->interval_ns * k);
}

/*
 * What the set did not finish, one repetition at a time (adi_run's
 * attribution).  Once the link is lost (err, or a run that loses it) the
 * rest are not tried: their ops end PP_OP_LINK.  Returns PP_OK or the
 * link (or memory) error.
 */
static int run_alone(struct pp_bus *bus, const struct reps *r, int err)
{
    const size_t n = r->n;
    uint64_t *t_ns = r->t_ns;
    struct pp_bus_window *win = r->win;

    for (unsigned k = 0; k < r->count; k++) {
        struct pp_op *rep = r->ops + (size_t)k * n;

        if (r->done[k])
            continue;
        if (err == PP_OK) {
            pace(r, k);
            int rc = run_one(bus, rep, n, &t_ns[k], &win[k]);

            if (rc == PP_E_LINK || rc == PP_E_NOMEM)
                err = rc;
            continue;
        }
        t_ns[k] = pp_mono_ns();
        win[k] = (struct pp_bus_window){ t_ns[k], t_ns[k] };   /* nothing read */
        for (size_t i = 0; err == PP_E_LINK && i < n; i++)
            if (rep[i].st == PP_OP_PENDING)
                rep[i].st = PP_OP_LINK;
    }
    return err;
}

static int adi_run_repeat(struct pp_bus *bus, struct pp_op *ops, size_t n, unsigned count,
                          uint64_t interval_ns, uint64_t *t_ns, struct pp_bus_window *win)
{
    struct adi *a = bus->priv;
    size_t total = n * count;
    struct set s = { .n = n, .count = count };
    uint8_t *done;
    /* not_before counts TCKs on a scheduled link, ns on a measured one. */
    uint32_t pace_hz = a->link->tck_hz ? a->link->tck_hz : a->link->date_hz ? 1000000000u : 0;
    uint64_t gap = pace_hz ? interval_ns * pace_hz / 1000000000u : 0;
    uint64_t start = pp_mono_ns();
    bool timed = pace_hz || !interval_ns;
    int err = PP_OK;

    if (!reserve_reps(a, count) || !reserve(a, total)) {
        pp_bus_set_errmsg(bus, "out of memory");
        return PP_E_NOMEM;
    }
    done = a->rep_done;
    s.last = a->rep_last;
    if (!win)
        win = a->rep_win;
    a->had_wait = false;
    if (count > 1 && timed && all_aligned(ops, total))
        err = exec_set(bus, a, ops, &s, gap, done, t_ns, win);
    pp_dp_batch_done(a->dp, a->had_wait);
    err = run_alone(bus, &(struct reps){ .ops = ops, .n = n, .count = count, .start_ns = start,
                                         .interval_ns = interval_ns, .t_ns = t_ns, .win = win,
                                         .done = done }, err);
    update_stats(bus, a);
    return err != PP_OK ? err : first_error(ops, total);
}

static void adi_close(struct pp_bus *bus)
{
    struct adi *a = bus->priv;

    if (!a)
        return;
    pp_memap_free(&a->ap);
    pp_dp_free(a->dp);
    pp_jtag_free(a->jtag);
    pp_link_close(a->link);
    free(a->x);
    free(a->first);
    free(a->final);
    free(a->skip);
    free(a->rep_done);
    free(a->rep_last);
    free(a->rep_win);
    free(a);
}

/* The DP engine reports DAP records and the JTAG layer wire records. */
static void adi_set_trace(struct pp_bus *bus, struct pp_trace *tr)
{
    struct adi *a = bus->priv;

    pp_dp_set_trace(a->dp, tr);
    pp_jtag_set_trace(a->jtag, tr);
}

static const struct pp_bus_ops adi_ops = {
    .name = "jtag",
    .run = adi_run,
    .run_repeat = adi_run_repeat,
    .close = adi_close,
    .set_trace = adi_set_trace,
};

/* The bus takes the link's name, so that pp_bus_name says "rbb" or "ftdi";
 * a link of another kind leaves the table's "jtag". */
static const char *name_for(const struct pp_link *l)
{
    static const char *const links[] = { "rbb", "ftdi", "simpins", "cmsis-dap" };

    for (size_t i = 0; l->ops->name && i < sizeof(links) / sizeof(links[0]); i++)
        if (strcmp(l->ops->name, links[i]) == 0)
            return links[i];
    return NULL;
}

/* The chain as the target describes it (jtag.chain), or found by itself
 * (lib/link/jtagchain.c); the DAP's TAP is the one the scans address. */
static int pick_dp(struct adi *a, const struct pp_target *t, char *err, size_t errlen)
{
    return pp_jtag_chain_apply(a->jtag, &t->jtag, t->dp_idcode, err, errlen);
}

static int bring_up(struct adi *a, const struct pp_target *t, char *err, size_t errlen)
{
    int rc;

    /* Over SWD there is no chain: the SW-DP is the only thing on the wire. */
    if (!pp_dp_is_swd(a->dp) && (rc = pick_dp(a, t, err, errlen)) != PP_OK)
        return rc;
    if ((rc = pp_dp_power_up(a->dp, err, errlen)) != PP_OK)
        return rc;
    return pp_memap_setup(&a->ap, a->dp, t, err, errlen);
}

static struct pp_bus *adi_new(struct pp_link *link, const struct pp_target *t, bool swd,
                              struct pp_trace *tr, char *err, size_t errlen);

struct pp_bus *pp_bus_adi_new(struct pp_link *link, const struct pp_target *t, char *err,
                              size_t errlen)
{
    return pp_bus_adi_new_traced(link, t, NULL, err, errlen);
}

struct pp_bus *pp_bus_adi_new_traced(struct pp_link *link, const struct pp_target *t,
                                     struct pp_trace *tr, char *err, size_t errlen)
{
    return adi_new(link, t, false, tr, err, errlen);
}

struct pp_bus *pp_bus_adi_swd_new_traced(struct pp_link *link, const struct pp_target *t,
                                         struct pp_trace *tr, char *err, size_t errlen)
{
    return adi_new(link, t, true, tr, err, errlen);
}

static struct pp_bus *adi_new(struct pp_link *link, const struct pp_target *t, bool swd,
                              struct pp_trace *tr, char *err, size_t errlen)
{
    struct adi *a;
    struct pp_bus *bus;

    if (!link || !t) {
        pp_errmsg(err, errlen, "adi: no link or no target");
        pp_link_close(link);
        pp_trace_free(tr);
        return NULL;
    }
    a = calloc(1, sizeof(*a));
    if (a) {
        a->link = link;
        a->jtag = pp_jtag_new(link);
        /* A CMSIS-DAP probe moves DP transfers itself (DAP_Transfer);
         * every other link gets the host's JTAG-DP engine. */
        a->dp = !a->jtag ? NULL : swd ? pp_dp_swd_new(link)
                : pp_link_cmsisdap(link) ? pp_dp_cmsisdap_new(a->jtag) : pp_dp_new(a->jtag);
    }
    bus = a && a->dp ? pp_bus_new(&adi_ops, a) : NULL;
    if (!bus) {
        pp_errmsg(err, errlen, "adi: out of memory");
        if (a) {
            pp_dp_free(a->dp);
            pp_jtag_free(a->jtag);
            free(a);
        }
        pp_link_close(link);
        pp_trace_free(tr);
        return NULL;
    }
    bus->name = name_for(link);
    /* Before bring-up: a board that fails there is the one to trace. */
    pp_bus_set_trace(bus, tr);
    if (bring_up(a, t, err, errlen) != PP_OK) {
        pp_bus_close(bus);
        return NULL;
    }
    bus->ap = (struct pp_bus_ap){ .known = a->ap.base_known, .apsel = a->ap.apsel,
                                  .idr = a->ap.idr, .base = a->ap.base };
    update_stats(bus, a);
    return bus;
}

struct pp_dp *pp_bus_adi_dp(struct pp_bus *bus)
{
    if (!bus || bus->ops->run != adi_run)
        return NULL;
    return ((struct adi *)bus->priv)->dp;
}

struct pp_link *pp_bus_adi_link(struct pp_bus *bus)
{
    if (!bus || bus->ops->run != adi_run)
        return NULL;
    return ((struct adi *)bus->priv)->link;
}

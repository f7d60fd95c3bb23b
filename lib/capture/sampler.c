/*
 * sampler.c - the sampler thread: one bus batch per sample at absolute
 * deadlines, decoded per core into a record that goes into the ring.
 *
 * Deadlines are t0 + k * interval on CLOCK_MONOTONIC, slept to with
 * clock_nanosleep(TIMER_ABSTIME): a late wake-up delays one sample, never
 * the ones after it, so the rate does not drift.  A sample that starts
 * after its deadline is taken at once and counted late when it starts
 * more than half an interval after its deadline.  Under --duration the
 * end is the promise: once the deadline after the last sample has come,
 * the samples still untaken (a path slower than the interval, a wait for
 * the writer) are not taken but dropped and counted as missed, so the
 * capture never runs longer than its duration by the backlog (with
 * --count, or no limit, every sample is taken).  A short stall costs
 * nothing: the samples behind it are taken late and the schedule caught
 * up.
 *
 * A core whose reads fail becomes a gap, is diagnosed once (pp_diag_core:
 * one batch) and leaves the hot batch, so the other cores never wait for
 * it; every retry_ns it is probed again (one diagnosis batch), and when
 * its PMU answers it is programmed again (its state is lost with power)
 * and rejoins with a fresh baseline.
 */
#include <stdio.h>
#include <string.h>
#include <time.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

#include "clock.h"
#include "bus/bus.h"
#include "capture/engine.h"
#include "pmu/regs.h"

#define NS_PER_S     1000000000ull
#define SLEEP_CHUNK  20000000ull   /* re-check the stop flag at least this often */
#define BLOCK_POLL   20000ull      /* ring full, block policy: retry every 20 us */

uint64_t cap_real_ns(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_REALTIME, &ts);
    return (uint64_t)ts.tv_sec * NS_PER_S + (uint64_t)ts.tv_nsec;
}

static bool stopping(struct pp_cap *c)
{
    return atomic_load_explicit(&c->stop, memory_order_relaxed) ||
           atomic_load_explicit(&c->sink_failed, memory_order_relaxed);
}

/* Sleeps to the deadline in chunks, so a stop request is seen soon. */
static void wait_deadline(struct pp_cap *c, uint64_t deadline)
{
    for (;;) {
        uint64_t now = pp_mono_ns();

        if (now >= deadline || stopping(c))
            return;
        pp_sleep_until(deadline - now > SLEEP_CHUNK ? now + SLEEP_CHUNK : deadline);
    }
}

static void mark_link_dead(struct pp_cap *c)
{
    const char *m = pp_bus_errmsg(c->cfg.bus);

    if (c->link_dead)
        return;
    c->link_dead = true;
    snprintf(c->link_msg, sizeof(c->link_msg), "access path lost%s%s", *m ? ": " : "", m);
}

/* ---- failures and recovery ---------------------------------------------------- */

/* A gap's cause: what the diagnosis found in the core; failing that, a
 * read the DP kept answering WAIT (the sample's own, or the diagnosis's)
 * says the stall was in the debug port or behind it, not in the core. */
int cap_gap_cause(int diag_rc, const struct pp_diag *d, bool waited)
{
    if (diag_rc == PP_OK && d->cause != PP_CAUSE_NONE)
        return d->cause;
    if (waited || diag_rc == PP_E_WAIT)
        return PP_CAUSE_DP_WAIT;
    return PP_CAUSE_UNKNOWN;
}

static bool slice_waited(const struct cap_core *cc)
{
    for (size_t i = 0; i < cc->nslice; i++)
        if (cc->slice[i].st == PP_OP_WAIT)
            return true;
    return false;
}

/* A diagnosis the capture made itself (the summary's "last diagnosis"),
 * where no register read names the cause. */
static void set_diag(struct cap_core *cc, int cause, const char *evidence, const char *remedy)
{
    struct pp_diag *d = &cc->diag;

    memset(d, 0, sizeof(*d));
    d->cpu = cc->desc->cpu;
    d->cause = cause;
    /* cut to the field: the evidence is one line, the first words say it */
    snprintf(d->evidence, sizeof(d->evidence), "%.*s", (int)sizeof(d->evidence) - 1, evidence);
    d->remedy = remedy;
}

/* The core answers its diagnosis, yet the sample's reads failed: the
 * cause is in the access path, whose message says which (an OpenOCD
 * whose pmuprobe procs another client redefined, a reply that does not
 * parse), rather than a gap with no evidence at all. */
static void explain_by_path(struct cap_core *cc, const char *msg)
{
    set_diag(cc, PP_CAUSE_UNKNOWN, msg, "the core answers its diagnosis: act on the access "
             "path's message (the evidence); the core is retried meanwhile");
}

/* A core's reads failed: one diagnosis for the episode, then out of the
 * hot batch until a retry finds its PMU answering.  Once a diagnosis has
 * met a stalled DP, no other runs before the next record (dp_stalled):
 * each would wait out the same stall (through OpenOCD a second or more
 * apiece), and a WAIT storm would leave seconds with no record at all
 * (docs/reliability.md: a capture accounts for every interval). */
void cap_core_fail(struct pp_cap *c, struct cap_core *cc)
{
    int rc = PP_E_WAIT;

    if (c->dp_stalled)
        memset(&cc->diag, 0, sizeof(cc->diag));   /* as a stalled diagnosis leaves it */
    else
        rc = pp_diag_core(c->cfg.bus, cc->desc, &cc->diag);
    c->dp_stalled = rc == PP_E_WAIT;
    cc->out = true;
    cc->episodes++;
    cc->reprogram = !c->cfg.observe;
    cc->retry_at_ns = pp_mono_ns() + c->cfg.retry_ns;
    if (rc == PP_E_LINK)
        mark_link_dead(c);
    cc->cause = cap_gap_cause(rc, &cc->diag, slice_waited(cc));
    if (cc->cause == PP_CAUSE_UNKNOWN && rc == PP_OK && c->batch_msg[0])
        explain_by_path(cc, c->batch_msg);
}

/* Forces a fresh baseline: the extension sees one failed sample. */
static void rebaseline(struct cap_core *cc)
{
    struct pp_ext_raw raw;
    struct pp_ext_sample scratch;

    memset(&raw, 0, sizeof(raw));
    raw.err = PP_E_IO;
    raw.bad_op = 0;
    pp_ext_feed(&cc->ext, &raw, NULL, &scratch);
}

static void retry_core(struct pp_cap *c, struct cap_core *cc)
{
    struct pp_diag d;
    char msg[256];
    int rc = pp_diag_core(c->cfg.bus, cc->desc, &d);

    cc->retry_at_ns = pp_mono_ns() + c->cfg.retry_ns;
    c->dp_stalled = rc == PP_E_WAIT;
    if (rc == PP_E_LINK) {
        mark_link_dead(c);
        return;
    }
    if (rc != PP_OK || d.cause != PP_CAUSE_NONE) {
        if (rc == PP_OK)
            cc->diag = d;
        if (rc == PP_OK || rc == PP_E_WAIT)
            cc->cause = cap_gap_cause(rc, &d, false);
        return;
    }
    if (cc->reprogram) {
        rc = cap_core_configure(c, cc, msg, sizeof(msg));
        if (rc == PP_E_LINK)
            mark_link_dead(c);
        if (rc != PP_OK) {
            /* Answering but refused (someone took the PMU) or failing. */
            cc->cause = PP_CAUSE_UNKNOWN;
            if (rc == PP_E_UNSUPPORTED)   /* the plan's snapshot block not confirmed */
                set_diag(cc, PP_CAUSE_UNKNOWN, msg, "SS clear: capture again without "
                         "--snapshot (the core is then read live), or correct the snapshot "
                         "key of its target description; PMCFGR unreadable: nothing, each "
                         "retry reads it again");
            return;
        }
    }
    rebaseline(cc);
    cc->out = false;
    cc->reprogram = false;
    cc->cause = PP_CAUSE_NONE;
}

/* Between samples: the retries that are due, until one meets a stalled
 * DP (the others wait for the next pause, after a record). */
static void service_cores(struct pp_cap *c)
{
    uint64_t now = pp_mono_ns();

    for (unsigned k = 0; k < c->meta.ncores && !c->link_dead && !c->dp_stalled; k++) {
        struct cap_core *cc = &c->core[k];

        if (cc->out && !cc->taken && now >= cc->retry_at_ns)
            retry_core(c, cc);
    }
}

/* ---- one record ----------------------------------------------------------------- */

static void gap_core(struct pp_cap *c, unsigned k, struct pp_cap_cstat *cs,
                     struct pp_cap_val *v)
{
    struct cap_core *cc = &c->core[k];
    const struct pp_cap_core *mc = &c->meta.core[k];

    cs->status = PP_CAP_GAP;
    cs->cause = (uint8_t)cc->cause;
    cs->why = PP_EXT_WHY_READ;
    cs->discont = mc->nev >= 32 ? 0xFFFFFFFFu : (1u << mc->nev) - 1u;
    for (unsigned i = 0; i < mc->nev; i++)
        v[i] = (struct pp_cap_val){ .total = cc->ext.total[cc->ctr[i]], .delta = 0 };
    if ((unsigned)cc->cause < PP_CAP_NCAUSES)
        c->summary.gaps[k][cc->cause]++;
    atomic_fetch_add_explicit(&c->n_gaps, 1, memory_order_relaxed);
}

/* A power cycle or reset seen in EDPRSR left the PMU at its reset values:
 * program it again before the next sample.  The baseline's too: the
 * programming step read EDPRSR just before writing (cap_core_configure),
 * which cleared whatever SPD/SR predates it (spec/arm-pmu-coresight.md
 * 3.1), so SPD or SR in the first sample is a power cycle or reset after
 * the counters were programmed.  Cores pmuprobe did not program (observe)
 * have nothing to restore. */
static bool lost_programming(const struct pp_cap *c, const struct cap_core *cc, unsigned why)
{
    return !c->cfg.observe && cc->programmed && (why & (PP_EXT_WHY_POWER | PP_EXT_WHY_RESET));
}

/* The programming changed: a power cycle or reset (EDPRSR.SPD, SR; spec
 * 3.1) puts the PMU back at its reset values, anything else is another
 * agent.  EDPRSR comes from this sample's batch, or, under --no-edprsr,
 * from one read now (clearing what it shows, as the batch's would). */
static bool lost_power(struct pp_cap *c, const struct cap_core *cc)
{
    struct pp_op ed = { .addr = cc->desc->debug_base + PP_DBG_EDPRSR };
    const struct pp_op *op = cc->ext_at ? &cc->slice[0] : &ed;

    if (!cc->ext_at && pp_bus_run(c->cfg.bus, &ed, 1) == PP_E_LINK)
        mark_link_dead(c);
    return op->st == PP_OP_OK && (op->rdata & (PP_EDPRSR_SPD | PP_EDPRSR_SR));
}

/* Someone else took the counters: a gap with cause taken-over now and
 * for the rest of the capture (no retry: they are not ours to take
 * back), and nothing written to the PMU at the end. */
static void taken_over(struct cap_core *cc, const char *evidence)
{
    cc->out = true;
    cc->taken = true;
    cc->reprogram = false;
    cc->programmed = false;
    cc->cause = PP_CAUSE_TAKEN_OVER;
    cc->episodes++;
    set_diag(cc, PP_CAUSE_TAKEN_OVER, evidence,
             "find the agent the evidence names (a second pmuprobe run with --steal, an "
             "OpenOCD script, a config --stop, perf on the target), stop it, then capture "
             "again");
}

/* The programming check (plan.c) before any value is used.  true: the
 * sample goes on to the values; false: cs and v hold a gap. */
static bool check_programming(struct pp_cap *c, unsigned k, struct pp_cap_cstat *cs,
                              struct pp_cap_val *v)
{
    struct cap_core *cc = &c->core[k];
    char ev[160] = "";
    int rc = cap_guard_check(cc, ev, sizeof(ev));

    if (rc == PP_OK)
        return true;
    if (rc != PP_E_BUSY) {
        cap_core_fail(c, cc);
    } else if (!lost_power(c, cc)) {
        taken_over(cc, ev);
    } else if (cc->ext_at) {
        return true;                   /* EDPRSR explains it: lost_programming */
    } else {
        cc->out = true;                /* no EDPRSR in the batch: the values are */
        cc->reprogram = true;          /* the reset PMU's, not a count */
        cc->cause = PP_CAUSE_CORE_OFF;
        cc->retry_at_ns = 0;
    }
    gap_core(c, k, cs, v);
    return false;
}

static void fill_core(struct pp_cap *c, unsigned k, size_t rep, uint64_t read_ns,
                      struct pp_cap_cstat *cs, struct pp_cap_val *v)
{
    struct cap_core *cc = &c->core[k];
    const struct pp_cap_core *mc = &c->meta.core[k];
    struct pp_ext_sample s;

    /* Rule 4's read window is this sample's, as long as the path took
     * (extend.h): a slow read must not turn a wrap into a reset. */
    pp_ext_set_limits(&cc->ext, 0, pp_ext_window_for(read_ns));
    cap_plan_collect(c, cc, rep);
    if (!check_programming(c, k, cs, v))
        return;
    cap_core_decode(c, cc, &s);
    if (s.why & PP_EXT_WHY_READ) {
        cap_core_fail(c, cc);
        gap_core(c, k, cs, v);
        return;
    }
    cs->status = s.why ? PP_CAP_DISCONT : PP_CAP_OK;
    cs->cause = 0;
    cs->why = (uint16_t)s.why;
    cs->discont = 0;
    for (unsigned i = 0; i < mc->nev; i++) {
        const struct pp_ext_val *ev = &s.v[cc->ctr[i]];

        v[i] = (struct pp_cap_val){ .total = ev->total, .delta = ev->delta };
        if (ev->flags & PP_EXT_F_DISCONT)
            cs->discont |= 1u << i;
    }
    if (lost_programming(c, cc, s.why)) {
        cc->out = true;
        cc->reprogram = true;
        cc->cause = PP_CAUSE_UNKNOWN;
        cc->retry_at_ns = 0;           /* at once, before the next sample */
    }
}

/* read_ns: how long one repetition's reads took (bounds every core's
 * read window in it). */
static void build_record(struct pp_cap *c, const bool *in_batch, size_t rep, uint64_t seq,
                         uint64_t deadline, uint64_t t_start, uint64_t t_end, uint64_t read_ns)
{
    struct pp_cap_sample *r = c->rec;
    struct pp_cap_cstat *cs;
    struct pp_cap_val *v;

    memset(r, 0, c->rec_size);
    r->kind = PP_CAP_SAMPLE;
    r->ncores = c->meta.ncores;
    r->nvals = c->meta.nvals;
    r->seq = seq;
    r->t_start_ns = t_start;
    r->t_end_ns = t_end;
    r->t_real_ns = c->cfg.realtime ? cap_real_ns() : 0;
    r->late_ns = c->cfg.interval_ns && t_start > deadline ? t_start - deadline : 0;
    cs = pp_cap_cstats(r);
    v = pp_cap_vals(r);              /* after ncores: the values follow the statuses */
    for (unsigned k = 0; k < c->meta.ncores; k++) {
        struct pp_cap_val *cv = v + c->meta.core[k].first;

        if (!in_batch[k] || c->core[k].out)
            gap_core(c, k, &cs[k], cv);
        else
            fill_core(c, k, rep, read_ns, &cs[k], cv);
    }
}

/* ---- the ring ------------------------------------------------------------------ */

static void put(struct pp_cap *c, const struct pp_cap_sample *r, void *slot)
{
    memcpy(slot, r, c->rec_size);
    pp_ring_publish(c->ring);
}

static void put_drop_record(struct pp_cap *c)
{
    struct pp_cap_sample *d = c->droprec;

    memset(d, 0, c->rec_size);
    d->kind = PP_CAP_DROP;
    d->ncores = c->meta.ncores;
    d->nvals = c->meta.nvals;
    d->seq = c->first_dropped;
    d->dropped = (uint32_t)c->pending_drops;
    put(c, d, pp_ring_claim(c->ring));
    c->pending_drops = 0;
}

/* The pending DROP record, waiting for room in the ring. */
static void put_drop_blocking(struct pp_cap *c)
{
    while (!pp_ring_claim(c->ring))
        pp_sleep_until(pp_mono_ns() + BLOCK_POLL);
    put_drop_record(c);
}

/* Block policy, and the last DROP record: wait for the writer. */
static void put_blocking(struct pp_cap *c, const struct pp_cap_sample *r)
{
    void *slot;
    uint64_t t0;

    if (c->pending_drops)
        put_drop_blocking(c);          /* missed samples (time_is_up) go first */
    slot = pp_ring_claim(c->ring);
    if (slot) {
        put(c, r, slot);
        return;
    }
    t0 = pp_mono_ns();
    while (!(slot = pp_ring_claim(c->ring)))
        pp_sleep_until(pp_mono_ns() + BLOCK_POLL);
    atomic_fetch_add_explicit(&c->blocked_ns, pp_mono_ns() - t0, memory_order_relaxed);
    put(c, r, slot);
}

/* Drop policy: a DROP record goes first whenever samples were lost, so
 * it needs room for two; a DROP record counts at most 2^32 - 1. */
static void put_dropping(struct pp_cap *c, const struct pp_cap_sample *r)
{
    size_t need = c->pending_drops ? 2 : 1;

    if (pp_ring_space(c->ring) >= need && c->pending_drops < UINT32_MAX) {
        if (c->pending_drops)
            put_drop_record(c);
        put(c, r, pp_ring_claim(c->ring));
        return;
    }
    if (c->pending_drops == 0)
        c->first_dropped = r->seq;
    c->pending_drops++;
    atomic_fetch_add_explicit(&c->n_dropped, 1, memory_order_relaxed);
}

static void emit(struct pp_cap *c)
{
    if (c->cfg.policy == PP_CAP_POLICY_DROP)
        put_dropping(c, c->rec);
    else
        put_blocking(c, c->rec);
    atomic_fetch_add_explicit(&c->n_samples, 1, memory_order_relaxed);
}

/* ---- the loop ------------------------------------------------------------------ */

/* Samples first .. first + n - 1 are missing: they join the pending DROP
 * record (which goes into the ring before the next sample), one record
 * per 2^32 - 2 of them. */
static void add_drops(struct pp_cap *c, uint64_t first, uint64_t n)
{
    while (n) {
        uint64_t take = (UINT32_MAX - 1u) - c->pending_drops;

        if (!c->pending_drops)
            c->first_dropped = first;
        if (take > n)
            take = n;
        c->pending_drops += take;
        first += take;
        n -= take;
        if (n)
            put_drop_blocking(c);
    }
}

/*
 * --duration: has its time run out with samples seq .. limit - 1 still
 * untaken?  It has once the deadline after the last sample has come,
 * counted from the baseline (always taken: a sampler thread that starts
 * late, as under valgrind, must not leave a capture without one): the
 * last is then an interval late, and taking the backlog would only
 * stretch the run by it.  Those samples are dropped (a DROP record marks
 * them) and counted, as dropped and as missed in the summary, and true
 * is returned.
 */
static bool time_is_up(struct pp_cap *c, uint64_t seq, uint64_t limit)
{
    uint64_t I = c->cfg.interval_ns;

    if (!I || !c->cfg.duration_ns || c->cfg.count || seq == 0 || seq >= limit)
        return false;
    if (pp_mono_ns() - c->first_start < limit * I)
        return false;
    add_drops(c, seq, limit - seq);
    atomic_fetch_add_explicit(&c->n_dropped, limit - seq, memory_order_relaxed);
    atomic_fetch_add_explicit(&c->n_missed, limit - seq, memory_order_relaxed);
    return true;
}

static uint64_t sample_limit(const struct pp_cap *c)
{
    if (c->cfg.count)
        return c->cfg.count + 1;
    if (c->cfg.duration_ns && c->cfg.interval_ns)
        return c->cfg.duration_ns / c->cfg.interval_ns + 1;
    return UINT64_MAX;
}

static bool op_link_lost(const struct pp_cap *c, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (c->ops[i].st == PP_OP_LINK)
            return true;
    return false;
}

/* What the path said of the batch just run, if anything: a failure that
 * the core's diagnosis cannot explain (it answers fine) then shows the
 * path's own reason (cap_core_fail). */
static void note_batch_msg(struct pp_cap *c, unsigned errseq)
{
    const struct pp_bus *bus = c->cfg.bus;

    if (bus->errseq == errseq)
        c->batch_msg[0] = '\0';
    else
        snprintf(c->batch_msg, sizeof(c->batch_msg), "%s", pp_bus_errmsg(bus));
}

/* One bus call: a plain run, or reps repetitions in repeat mode. */
static int run_batch(struct pp_cap *c, unsigned reps, uint64_t *t_start, uint64_t *t_end)
{
    const unsigned errseq = c->cfg.bus->errseq;
    int rc;

    *t_start = pp_mono_ns();
    if (c->nops == 0) {
        *t_end = *t_start;
        c->batch_msg[0] = '\0';
        return PP_OK;
    }
    if (reps == 1) {
        rc = pp_bus_run(c->cfg.bus, c->ops, c->nops);
    } else {
        for (unsigned r = 1; r < reps; r++)
            memcpy(c->ops + (size_t)r * c->nops, c->ops, c->nops * sizeof(*c->ops));
        rc = pp_bus_run_repeat_window(c->cfg.bus, c->ops, c->nops, reps, c->cfg.interval_ns,
                                      c->rep_t, c->rep_win);
    }
    *t_end = pp_mono_ns();
    note_batch_msg(c, errseq);
    return rc;
}

/* A set is planned to span at most PP_CAP_REPEAT_WINDOW (plan.c): that is
 * what lets every repetition reuse the set's first overflow-flag clear.
 * A path slower than planned (a loaded OpenOCD took 0.8 s for a set of 10
 * at 1 ms, and a healthy core's counters then went `backwards`) gets
 * smaller sets, down to one sample a call; a set inside the window lets
 * the next one grow towards filling it, at most twice as large.  Either
 * way the next holds reps x W / span: a round trip's fixed cost (the
 * host's turn-around, USB microframes) only makes that set's span
 * smaller than W, never larger, so a set that fit keeps fitting, and
 * larger sets spread the fixed cost thinner (over FTDI at 30 MHz 1 core's
 * cycles go from sets of 512, 4.8 ms, to about 2000). */
unsigned cap_next_reps(unsigned reps, unsigned planned, unsigned max, uint64_t span)
{
    uint64_t W = PP_CAP_REPEAT_WINDOW, r = reps;

    if (span > W)
        r = r * W / span;
    else if (reps == planned)
        r = span && r * W / span < 2 * r ? r * W / span : 2 * r;
    else
        r = planned;                  /* a short last set says nothing */
    return r < 1 ? 1 : r > max ? max : (unsigned)r;
}

/* The first set after a call of one sample (the baseline's) that took
 * span: as many as fit PP_CAP_FIRST_SPAN at that pace, at most cap.  The
 * call's fixed cost (a round trip) only makes the set span less. */
unsigned cap_first_reps(uint64_t span, unsigned cap)
{
    uint64_t r = span ? PP_CAP_FIRST_SPAN / span : cap;

    return r < 1 ? 1 : r > cap ? cap : (unsigned)r;
}

static void fit_reps(struct pp_cap *c, unsigned reps, uint64_t span)
{
    if (c->reps < 2 || reps == 0)
        return;
    if (!c->reps_timed) {
        c->reps_timed = true;
        c->reps_now = c->cfg.first_set ? c->reps_first : cap_first_reps(span, c->reps_first);
        return;
    }
    c->reps_now = cap_next_reps(reps, c->reps_now, c->reps, span);
}

/*
 * One bus call for reps samples from seq on.  Each record's window is
 * [t_start, t_end] around its own reads (the path's bounds in repeat
 * mode, bus.h), so it contains the real read time and never goes back.
 * With every core out there is nothing to read: one gap record, dated
 * now, and the next sample waits for its own deadline (a set's worth of
 * gaps would have no time of their own).  Returns the samples taken, 0
 * when the link is lost.
 */
static unsigned sample_once(struct pp_cap *c, uint64_t seq, unsigned reps)
{
    uint64_t I = c->cfg.interval_ns, t_start, t_end, read_ns;
    bool in_batch[PP_CAP_MAX_CORES];
    int rc;

    if (c->cfg.hook)
        c->cfg.hook(c->cfg.hook_arg, seq);
    c->dp_stalled = false;           /* this call ends in a record */
    cap_plan_lay(c);
    if (c->nops == 0)
        reps = 1;
    for (unsigned k = 0; k < c->meta.ncores; k++)
        in_batch[k] = !c->core[k].out;
    rc = run_batch(c, reps, &t_start, &t_end);
    if (rc == PP_E_LINK || op_link_lost(c, c->nops * reps)) {
        mark_link_dead(c);
        return 0;
    }
    if (c->nops)
        fit_reps(c, reps, t_end - t_start);
    /* Rule 4 takes the set's mean read time per repetition (a shorter
     * window only makes rule 4 stricter, so an error costs a delta, never
     * a wrong one). */
    read_ns = (t_end - t_start) / reps;
    for (unsigned r = 0; r < reps && !c->link_dead; r++) {
        uint64_t ts = reps > 1 ? c->rep_win[r].lo : t_start;
        uint64_t te = reps > 1 ? c->rep_win[r].hi : t_end;
        uint64_t deadline = c->t0 + (seq + r) * I;

        build_record(c, in_batch, r, seq + r, deadline, ts, te, read_ns);
        cap_stats_sample(c, reps > 1 ? c->rep_t[r] : t_start, deadline);
        emit(c);
    }
    return c->link_dead ? 0 : reps;
}

static void sampler_tune(void)
{
#ifdef __linux__
    /* The default 50 us timer slack would be half of a 100 us interval. */
    (void)prctl(PR_SET_TIMERSLACK, 1UL, 0UL, 0UL, 0UL);
#endif
}

void *cap_sampler_main(void *arg)
{
    struct pp_cap *c = arg;
    uint64_t limit = sample_limit(c), seq = 0, I = c->cfg.interval_ns;

    sampler_tune();
    while (seq < limit && !stopping(c)) {
        unsigned reps = c->reps_now;

        if (I == 0 && c->cfg.duration_ns && seq > 0 && pp_mono_ns() - c->t0 >= c->cfg.duration_ns)
            break;
        if (I) {
            wait_deadline(c, c->t0 + seq * I);
            if (stopping(c))
                break;
            if (time_is_up(c, seq, limit))
                break;
        }
        if (reps > limit - seq)
            reps = (unsigned)(limit - seq);
        reps = sample_once(c, seq, reps);
        if (!reps)
            break;
        seq += reps;
        service_cores(c);
        if (c->link_dead)
            break;
    }
    if (c->pending_drops)
        put_drop_blocking(c);
    c->next_seq = seq;
    c->t_stop = pp_mono_ns();
    cap_sampler_finished(c);
    return NULL;
}

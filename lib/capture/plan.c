/*
 * plan.c - the batch one sample needs, for every core at once, and the
 * decoding of each core's share of it.
 *
 * Compiled once per capture: the core order (ascending PMU address, so a
 * path that merges adjacent accesses into block or banked BD0-3 reads
 * finds them next to each other), each core's slot count, and the batch
 * buffer sized for the worst case of every repetition.  Per sample only
 * the extension's optional PMOVSCLR write comes and goes, which
 * pp_ext_plan decides (lib/pmu/extend.h), and the programming check's
 * registers take their turn (guard_select); within a core the order is the
 * extension's (flags, then counters in ascending address), after one
 * EDPRSR read that shows a power cycle or reset since the last sample
 * (spec/arm-pmu-coresight.md 3.1: SPD, SR), and before the programming
 * check (below, guard_ops) that shows the counters were taken.
 *
 * Each core plans into its own slice; the batch is the concatenation of
 * the slices' ops that go on the bus.  Under --observe the extension's
 * flag clear never goes (it is a write); its slot stays in the slice so
 * the slice still matches the plan pp_ext_decode checks.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bus/bus.h"
#include "capture/engine.h"
#include "pmu/regs.h"

/* A run_repeat set spans at most PP_CAP_REPEAT_WINDOW (20 ms): far under
 * the 1.3 s a 32-bit counter needs to wrap at 3.3 GHz (160 ms even at 8
 * counts a cycle), which the reuse of the set's first flag clear in every
 * repetition relies on (see as_current_plan).  The pace of a path is not
 * known before it has been timed, so the baseline sample is a call of its
 * own, and the first set holds what fits PP_CAP_FIRST_SPAN (100 ms) at
 * the baseline's pace, at most FIRST_REPS (sampler.c fit_reps): a round
 * trip's fixed cost makes the baseline slower than a sample in a set, so
 * the first set spans less than 100 ms, never more (a set of 256, the
 * old first set, took 1.55 s through OpenOCD's ftdi driver for 4 x 7:
 * pp-bench -S 256 on the real-time emulator).  A set whose
 * span was inside the window grows the next towards filling it, up to
 * MAX_REPS, so only a path that showed it runs 256 samples well within
 * 20 ms gets more.  Over FTDI
 * at 30 MHz that is 1 core's cycles (about 2000 a set, 18.7 ms of TCK)
 * and 1 core x 7 counters (about 940): each round trip has a fixed cost
 * (the host's turn-around, USB microframes at both ends of the set) that
 * larger sets spread thinner: 20 ms sets measured 0.9 % more samples/s
 * than 10 ms sets for 1 core's cycles, 0.7 % for 4 x 7
 * (docs/sample-plan.md).
 *
 * An interval over PP_CAP_REPEAT_MAX_INTERVAL (5 ms) samples one call at a
 * time: a round trip is then a small part of the interval on every path,
 * so repeating saves little, and each record leaves as soon as it is read
 * (a `top` at its default 10 ms stays live). */
#define FIRST_REPS 256u
#define MAX_REPS 2048u

static unsigned repetitions(const struct pp_cap *c)
{
    uint64_t r;

    if (c->cfg.no_repeat || c->cfg.interval_ns == 0 || !c->cfg.bus->ops->run_repeat ||
        c->cfg.interval_ns > PP_CAP_REPEAT_MAX_INTERVAL)
        return 1;
    r = PP_CAP_REPEAT_WINDOW / c->cfg.interval_ns;
    if (r > MAX_REPS)
        r = MAX_REPS;
    return r < 2 ? 1 : (unsigned)r;
}

int cap_plan_alloc(struct pp_cap *c)
{
    c->reps = repetitions(c);
    c->reps_first = c->cfg.first_set ? c->cfg.first_set : FIRST_REPS;
    if (c->reps_first > c->reps)
        c->reps_first = c->reps;
    c->reps_now = 1;
    c->ops_cap = (size_t)c->reps * c->meta.ncores * CAP_CORE_OPS;
    c->ops = calloc(c->ops_cap, sizeof(*c->ops));
    c->rep_t = calloc(c->reps, sizeof(*c->rep_t));
    c->rep_win = calloc(c->reps, sizeof(*c->rep_win));
    if (!c->ops || !c->rep_t || !c->rep_win)
        return PP_E_NOMEM;
    return PP_OK;
}

/*
 * The programming check: whether the counters are still the ones
 * pmuprobe programmed (spec/arm-pmu-coresight.md 1.1, 1.3; claim tags 3).
 * Another agent takes a running capture's counters in one of three ways,
 * and each shows in its own registers only:
 *   reprogramming  PMEVTYPER<n> (PMCCFILTR for the cycle counter): the
 *                  counter goes on counting another event under our name;
 *   disabling      PMCNTENSET (PMCNTENCLR writes) or PMCR.E: the counts
 *                  freeze and read like an idle core;
 *   claiming       DBGCLAIMCLR: the only witness of a second pmuprobe that
 *                  programs the same events (it takes the other live tag,
 *                  program.h) or of a `config --stop --steal`.
 * No read of the sample proper stands in for these: counter values cannot
 * tell a frozen or renamed counter from an idle or busy core, and the
 * overflow flags only say a counter wrapped.  The registers (cap_guard in
 * engine.h: PMCR, PMCNTENSET, DBGCLAIMCLR when the core has the tags,
 * PMCCFILTR when cycles are counted, PMEVTYPER<n> of the counters in use)
 * are G = 2 + [claim] + [cycles] + events per core, each one APACC scan
 * and nearly always a TAR write on JTAG (they sit in four places), which
 * was most of a sample: 10 of the 22 reads of 1 core x 7 counters.
 *
 * So a sample reads a few of them, in turn: the items of all cores, in
 * core address order, form one cycle of S = sum of G, and each sample reads
 * the next n of it,
 *   n = ceil(S * interval / CAP_GUARD_LATENCY_NS), at least 1, at most S,
 * and all S under --no-edprsr (then the PMCR.E check is what sees a reset,
 * sampler.c lost_power).  Every register is read again within
 * K = ceil(S / n) samples: a takeover is seen within K samples, and K times
 * the interval is at most CAP_GUARD_LATENCY_NS (100 ms) whenever the
 * interval is at least 100 ms / S; faster captures read one register a
 * sample and see it within S samples (4 cores x 7 counters with claim
 * tags: S = 40, 4 ms at 10,000 samples/s).  In a run_repeat set the
 * first repetition reads them (guard_ops), so there K counts sets (each
 * up to PP_CAP_REPEAT_WINDOW, 20 ms: 0.8 s for that S).  A sample
 * between the takeover and its detection carries the other agent's counts
 * (a frozen or renamed counter) without a mark: that is the price of
 * reading one register instead of S, stated in docs/sample-plan.md and
 * pmuprobe(1).  The check comes after the counter reads: programming that
 * reads as ours after the values were read means those values were ours.
 */
#define CAP_GUARD_LATENCY_NS 100000000ull

/* How many guard registers each sample reads, of total in all. */
static unsigned guard_per_sample(const struct pp_cap *c, unsigned total)
{
    uint64_t n;

    if (total == 0)
        return 0;
    if (c->cfg.no_edprsr)
        return total;
    n = ((uint64_t)total * c->cfg.interval_ns + CAP_GUARD_LATENCY_NS - 1) / CAP_GUARD_LATENCY_NS;
    return n < 1 ? 1 : n > total ? total : (unsigned)n;
}

/* Picks this sample's guard items of every core: positions next..next+n-1
 * (mod the total) of the cycle over all cores in address order. */
static void guard_select(struct pp_cap *c)
{
    unsigned total = 0, n, at = 0;

    for (unsigned k = 0; k < c->meta.ncores; k++) {
        const struct cap_guard *g = &c->core[k].guard;

        total += g->on ? g->n : 0;
    }
    n = guard_per_sample(c, total);
    c->guard_per_sample = n;
    if (total)
        c->guard_next %= total;
    for (unsigned k = 0; k < c->meta.ncores; k++) {
        struct cap_guard *g = &c->core[c->order[k]].guard;

        g->nsel = 0;
        for (unsigned i = 0; g->on && i < g->n; i++, at++)
            if ((at + total - c->guard_next) % total < n)
                g->sel[g->nsel++] = i;
    }
    if (total)
        c->guard_next = (c->guard_next + n) % total;
}

/*
 * The guard's reads of this sample.  In a run_repeat set every repetition
 * would read the same registers (the turn moves once per set), so after
 * the first they only see a takeover within the set sooner; the worst
 * case, a takeover just after the set's first repetition read its
 * register, is seen when that register's turn comes again, K sets later,
 * either way.  So they are read once per set (pp_op.once): 2 JTAG scans a
 * sample fewer (docs/sample-plan.md).  Not under --no-edprsr, where
 * PMCR.E in the guard is what shows a reset, every sample.
 */
static size_t guard_ops(const struct pp_cap *c, const struct cap_core *cc, struct pp_op *ops)
{
    const struct cap_guard *g = &cc->guard;

    for (unsigned j = 0; j < g->nsel; j++)
        ops[j] = (struct pp_op){ .addr = g->item[g->sel[j]].addr, .once = !c->cfg.no_edprsr };
    return g->nsel;
}

static void guard_evidence(const struct cap_guard_item *it, uint32_t v, char *ev, size_t evlen)
{
    switch (it->kind) {
    case CAP_G_CLAIM:
        snprintf(ev, evlen, "DBGCLAIMCLR=0x%08X (held: 0x%02X)", v, it->want);
        break;
    case CAP_G_TYPER:
        snprintf(ev, evlen, "PMEVTYPER%u=0x%08X (programmed 0x%08X)", it->idx, v, it->want);
        break;
    case CAP_G_CCFILTR:
        snprintf(ev, evlen, "PMCCFILTR=0x%08X (programmed 0x%08X)", v, it->want);
        break;
    case CAP_G_CNTEN:
        snprintf(ev, evlen, "PMCNTENSET=0x%08X (enabled 0x%08X)", v, it->want);
        break;
    default:
        snprintf(ev, evlen, "PMCR=0x%08X (E=0)", v);
        break;
    }
}

/* This sample's checked registers against the programming. */
int cap_guard_check(const struct cap_core *cc, char *ev, size_t evlen)
{
    const struct cap_guard *g = &cc->guard;
    const struct pp_op *op = cc->slice + cc->ext_at + cc->ext_n;
    size_t n = cc->nslice - cc->ext_at - cc->ext_n;

    for (size_t i = 0; i < n; i++) {
        int rc = pp_op_status_err(op[i].st);

        if (rc != PP_OK)
            return rc;
    }
    if (!g->on)
        return PP_OK;
    for (unsigned j = 0; j < g->nsel && j < n; j++) {
        const struct cap_guard_item *it = &g->item[g->sel[j]];

        if (op[j].st == PP_OP_SKIPPED)
            continue;                 /* read in the set's first repetition */
        if ((op[j].rdata & it->mask) != it->want) {
            guard_evidence(it, op[j].rdata, ev, evlen);
            return PP_E_BUSY;
        }
    }
    return PP_OK;
}

/*
 * One core's slice for the next sample, and why each read is in it: every
 * read catches a discontinuity no other read of the sample shows, within
 * the sample it happens in (docs/sample-plan.md has the whole argument).
 *   EDPRSR (debug+0x314)  a power cycle or reset since the last sample:
 *       SPD and SR are sticky, cleared by this read (spec 3.1).  Nothing
 *       in the PMU witnesses it: counters and flags reset to UNKNOWN
 *       values or are reprogrammed, and the snapshot's PMSSSR.NC (reset to
 *       1) is cleared by the sample's own capture (spec 1.4).  Debug
 *       domain, so it answers with the core off.  Not read under
 *       --no-edprsr.
 *   the extension's plan (lib/pmu/extend.h, snapshot.h)
 *       PMOVSCLR write     only after a wrap was counted: clears its flag
 *                          so it is not counted twice (spec 2.8);
 *       PMOVSSET, PMOVSSR  the overflow flags, only when a 32-bit counter
 *                          is sampled: a wrap (rules 1, 2) or two;
 *       hi, lo, hi         a 64-bit live counter: a carry between the two
 *                          word reads, i.e. a torn value (spec 2.8);
 *       PMSSCR write, PMSSSR.NC   snapshot: the capture, and whether it
 *                          was refused (NC = 1: the copies are stale);
 *       the counters or their copies.
 *   the guard's registers of this sample (above): a takeover.
 * The extension's part changes only with the flags awaiting a clear
 * (extend.h: the rest is fixed when the capture starts), so most samples
 * reuse it; the guard's part changes every sample.
 */
void cap_plan_core(struct pp_cap *c, struct cap_core *cc)
{
    size_t n = 0;

    if (!cc->planned || cc->planned_consumed != cc->ext.consumed) {
        cc->ext_at = 0;
        if (!c->cfg.no_edprsr) {
            cc->slice[n++] = (struct pp_op){ .addr = cc->desc->debug_base + PP_DBG_EDPRSR };
            cc->ext_at = 1;
        }
        /* Cannot fail: the slice holds PP_EXT_PLAN_MAX after the EDPRSR slot. */
        (void)pp_ext_plan(&cc->ext, cc->slice, cc->ext_at + PP_EXT_PLAN_MAX, &n);
        cc->ext_n = n - cc->ext_at;
        cc->planned = true;
        cc->planned_consumed = cc->ext.consumed;
    }
    n = cc->ext_at + cc->ext_n;
    n += guard_ops(c, cc, cc->slice + n);
    cc->nslice = n;
}

/* Lays the batch of one repetition from the cores in the hot set. */
void cap_plan_lay(struct pp_cap *c)
{
    c->nops = 0;
    guard_select(c);
    for (unsigned k = 0; k < c->meta.ncores; k++) {
        struct cap_core *cc = &c->core[c->order[k]];

        if (cc->out)
            continue;
        cap_plan_core(c, cc);
        for (size_t i = 0; i < cc->nslice; i++) {
            if (c->cfg.observe && cc->slice[i].write) {
                cc->sent[i] = CAP_NOT_SENT;
                continue;
            }
            cc->sent[i] = c->nops;
            c->ops[c->nops++] = cc->slice[i];
        }
    }
}

/* Copies repetition rep's results back into the core's slice. */
void cap_plan_collect(struct pp_cap *c, struct cap_core *cc, size_t rep)
{
    for (size_t i = 0; i < cc->nslice; i++) {
        const struct pp_op *op;

        if (cc->sent[i] == CAP_NOT_SENT) {
            /* observe: the clear was withheld; its flags are ignored anyway */
            cc->slice[i].st = PP_OP_OK;
            continue;
        }
        op = &c->ops[rep * c->nops + cc->sent[i]];
        cc->slice[i].rdata = op->rdata;
        cc->slice[i].st = op->st;
    }
}

static bool is_clear(const struct cap_core *cc, const struct pp_op *op)
{
    return op->write && op->addr == cc->desc->pmu_base + PP_PMU_PMOVSCLR;
}

/*
 * The executed ops as the extension's current plan.  In repetition 0 they
 * are the same.  In later repetitions of a run_repeat set the set's first
 * clear ran again, while the extension may now want another clear (a wrap
 * consumed meanwhile) or none: the reads are the same, so they are carried
 * over, and a clear the set did not make is marked not run (PENDING), which
 * pp_ext_decode treats as a refused clear: its flags stay consumed and are
 * not counted twice.  Re-running the set's own clear is harmless: a counter
 * cannot wrap twice within a set (PP_CAP_REPEAT_WINDOW above).  false on a
 * mismatch.
 */
static bool as_current_plan(const struct cap_core *cc, struct pp_op *cur, size_t *m)
{
    const struct pp_op *ex = cc->slice + cc->ext_at;
    size_t nex = cc->ext_n, a, b;

    if (cc->ext.consumed == cc->planned_consumed) {
        /* the plan the slice was laid from, clear included */
        *m = nex;
        memcpy(cur, ex, nex * sizeof(*cur));
        return true;
    }
    *m = 0;
    if (pp_ext_plan(&cc->ext, cur, PP_EXT_PLAN_MAX, m) != PP_OK)
        return false;
    a = nex && is_clear(cc, &ex[0]) ? 1 : 0;
    b = *m && is_clear(cc, &cur[0]) ? 1 : 0;
    if (nex - a != *m - b)
        return false;
    for (size_t j = 0; j < nex - a; j++) {
        if (cur[b + j].addr != ex[a + j].addr)
            return false;
        cur[b + j].rdata = ex[a + j].rdata;
        cur[b + j].st = ex[a + j].st;
    }
    if (b)
        cur[0].st = a && ex[0].wdata == cur[0].wdata ? ex[0].st : PP_OP_PENDING;
    return true;
}

/* The first failed op after the clear, as pp_ext_decode would name it had
 * the clear not been marked PENDING. */
static void rename_first_failure(const struct pp_op *cur, size_t m, struct pp_ext_raw *raw)
{
    raw->err = PP_OK;
    raw->bad_op = -1;
    for (size_t i = 1; i < m; i++) {
        if (cur[i].st != PP_OP_OK) {
            raw->err = pp_op_status_err(cur[i].st);
            raw->bad_op = (int)i;
            return;
        }
    }
}

/* Feeds this core's collected slice to its extension. */
void cap_core_decode(struct pp_cap *c, struct cap_core *cc, struct pp_ext_sample *out)
{
    struct pp_op cur[PP_EXT_PLAN_MAX];
    struct pp_ext_raw raw;
    const uint32_t *edprsr = NULL;
    size_t m;

    if (!as_current_plan(cc, cur, &m) || pp_ext_decode(&cc->ext, cur, m, &raw) != PP_OK) {
        /* Cannot happen with slices from cap_plan_core; a gap if it does. */
        memset(&raw, 0, sizeof(raw));
        raw.err = PP_E_INVAL;
        raw.bad_op = 0;
    } else if (m && cur[0].st == PP_OP_PENDING && raw.bad_op == 0) {
        rename_first_failure(cur, m, &raw);
    }
    if (cc->ext_at && cc->slice[0].st == PP_OP_OK)
        edprsr = &cc->slice[0].rdata;
    if (c->cfg.observe && raw.ok) {
        /* The overflow flags belong to the target's software, which may
         * clear them at any time, and ours may not be cleared: count
         * modulo 2^32 instead (extend.h rule 4 with every flag taken as
         * just cleared: one wrap per interval at most, below period_max). */
        raw.ovs = 0;
        raw.cleared = cc->ext.mask;
    }
    pp_ext_feed(&cc->ext, &raw, edprsr, out);
}

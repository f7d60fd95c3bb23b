/*
 * plan.c - the batch one sample needs, for every core at once, and the
 * decoding of each core's share of it.
 *
 * Compiled once per capture: the core order (ascending PMU address, so a
 * path that merges adjacent accesses into block or banked BD0-3 reads
 * finds them next to each other), each core's slot count, and the batch
 * buffer sized for the worst case of every repetition.  Per sample only
 * the extension's optional PMOVSCLR write comes and goes, which
 * pp_ext_plan decides (lib/pmu/extend.h); within a core the order is the
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

/* A run_repeat set spans at most PP_CAP_REPEAT_WINDOW: well under the
 * 1.3 s a 32-bit counter needs to wrap at 3.3 GHz, which the reuse of
 * the set's first flag clear in every repetition relies on (see
 * cap_core_decode). */
#define MAX_REPS 256u

static unsigned repetitions(const struct pp_cap *c)
{
    uint64_t r;

    if (c->cfg.no_repeat || c->cfg.interval_ns == 0 || !c->cfg.bus->ops->run_repeat)
        return 1;
    r = PP_CAP_REPEAT_WINDOW / c->cfg.interval_ns;
    if (r > MAX_REPS)
        r = MAX_REPS;
    return r < 2 ? 1 : (unsigned)r;
}

int cap_plan_alloc(struct pp_cap *c)
{
    c->reps = repetitions(c);
    c->reps_now = c->reps;
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
 * The sample plan reads none of them (EDPRSR, PMOVSSET, the counters), and
 * no read stands in for another: counter values cannot tell a frozen or
 * renamed counter from an idle or busy core, and PMOVSSET only says a
 * counter wrapped.  So the check is the minimum that sees all three within
 * one sample: DBGCLAIMCLR (when the core has the tags), PMEVTYPER<n> of
 * the counters in use, PMCCFILTR when cycles are counted, PMCNTENSET and
 * PMCR; 3 reads plus one per counter.  Each costs what a counter read
 * costs (one APACC scan on JTAG, about 45 TCK; one more word of a block
 * read through OpenOCD), and the PMEVTYPERs are adjacent words, so paths
 * that merge adjacent reads (banked BD0-3, block reads) take them
 * together.  For 2 events and cycles on a PMUv3 core the sample goes from
 * 7 reads (EDPRSR, PMOVSSET, 2 counters, PMCCNTR hi/lo/hi) to 13.
 * The check comes after the counter reads: programming that reads as ours
 * after the values were read means the values were ours; a change between
 * them costs a gap, never a value.
 */
static size_t guard_ops(const struct cap_core *cc, struct pp_op *ops)
{
    const struct cap_guard *g = &cc->guard;
    uint32_t pmu = cc->desc->pmu_base;
    size_t n = 0;

    if (!g->on)
        return 0;
    if (g->claim_mask)
        ops[n++] = (struct pp_op){ .addr = cc->desc->debug_base + PP_DBG_CLAIMCLR };
    for (unsigned i = 0; i < g->ntyper; i++)
        ops[n++] = (struct pp_op){ .addr = pmu + PP_PMU_PMEVTYPER(i) };
    if (g->cycles)
        ops[n++] = (struct pp_op){ .addr = pmu + PP_PMU_PMCCFILTR };
    ops[n++] = (struct pp_op){ .addr = pmu + PP_PMU_PMCNTENSET };
    ops[n++] = (struct pp_op){ .addr = pmu + PP_PMU_PMCR };
    return n;
}

/* The checked registers against the programming, in guard_ops' order. */
int cap_guard_check(const struct cap_core *cc, char *ev, size_t evlen)
{
    const struct cap_guard *g = &cc->guard;
    const struct pp_op *op = cc->slice + cc->ext_at + cc->ext_n;
    size_t n = cc->nslice - cc->ext_at - cc->ext_n, k = 0;
    uint32_t v;

    for (size_t i = 0; i < n; i++)
        if (op[i].st != PP_OP_OK)
            return pp_op_status_err(op[i].st);
    if (!g->on)
        return PP_OK;
    if (g->claim_mask && ((v = op[k++].rdata) & g->claim_mask) != g->claim) {
        snprintf(ev, evlen, "DBGCLAIMCLR=0x%08X (held: 0x%02X)", v, g->claim);
        return PP_E_BUSY;
    }
    for (unsigned i = 0; i < g->ntyper; i++, k++) {
        if (op[k].rdata != g->typer[i]) {
            snprintf(ev, evlen, "PMEVTYPER%u=0x%08X (programmed 0x%08X)", i, op[k].rdata,
                     g->typer[i]);
            return PP_E_BUSY;
        }
    }
    if (g->cycles && (v = op[k++].rdata) != g->ccfiltr) {
        snprintf(ev, evlen, "PMCCFILTR=0x%08X (programmed 0x%08X)", v, g->ccfiltr);
        return PP_E_BUSY;
    }
    if (((v = op[k++].rdata) & g->cnten) != g->cnten) {
        snprintf(ev, evlen, "PMCNTENSET=0x%08X (enabled 0x%08X)", v, g->cnten);
        return PP_E_BUSY;
    }
    if (!((v = op[k].rdata) & PP_PMCR_E)) {
        snprintf(ev, evlen, "PMCR=0x%08X (E=0)", v);
        return PP_E_BUSY;
    }
    return PP_OK;
}

/* One core's slice for the next sample.  The extension's plan changes
 * only with the flags awaiting a clear (extend.h: the rest is fixed when
 * the capture starts), so most samples reuse the last one. */
void cap_plan_core(struct pp_cap *c, struct cap_core *cc)
{
    size_t n = 0;

    if (cc->planned && cc->planned_consumed == cc->ext.consumed)
        return;

    cc->ext_at = 0;
    if (!c->cfg.no_edprsr) {
        cc->slice[n++] = (struct pp_op){ .addr = cc->desc->debug_base + PP_DBG_EDPRSR };
        cc->ext_at = 1;
    }
    /* Cannot fail: the slice holds PP_EXT_PLAN_MAX after the EDPRSR slot. */
    (void)pp_ext_plan(&cc->ext, cc->slice, cc->ext_at + PP_EXT_PLAN_MAX, &n);
    cc->ext_n = n - cc->ext_at;
    n += guard_ops(cc, cc->slice + n);
    cc->nslice = n;
    cc->planned = true;
    cc->planned_consumed = cc->ext.consumed;
}

/* Lays the batch of one repetition from the cores in the hot set. */
void cap_plan_lay(struct pp_cap *c)
{
    c->nops = 0;
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
 * cannot wrap twice within a set (MAX_REPS above).  false on a mismatch.
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

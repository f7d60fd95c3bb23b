/*
 * extend.c - 64-bit counting over 32-bit counters: read plan, decoding and
 * the wrap/reset rules documented in extend.h.
 * Offsets: spec/arm-pmu-coresight.md 1.1 (PMUv3 EXT32), 4.1 (PMUv2);
 * 64-bit reads and flags: 2.8; EDPRSR: 3.1.
 */
#include <stdio.h>
#include <string.h>

#include "errmsg.h"
#include "pmu/extend.h"
#include "pmu/regs.h"
#include "pmu/snapshot.h"

#define WRAP32 0x100000000ull

const char *pp_ext_why_name(unsigned why)
{
    switch (why) {
#define PP_EXT_WHY_SHORT(name, bit, shortname, msg) case name: return shortname;
    PP_EXT_WHYS(PP_EXT_WHY_SHORT)
#undef PP_EXT_WHY_SHORT
    }
    return "unknown";
}

const char *pp_ext_why_str(unsigned why)
{
    switch (why) {
#define PP_EXT_WHY_MSG(name, bit, shortname, msg) case name: return msg;
    PP_EXT_WHYS(PP_EXT_WHY_MSG)
#undef PP_EXT_WHY_MSG
    }
    return "unknown cause";
}

uint64_t pp_ext_join64(uint32_t hi1, uint32_t lo, uint32_t hi2)
{
    /* The low word carried between the high reads: a small lo was read
     * after the carry and belongs to the second high word. */
    if (hi1 != hi2 && lo < 0x80000000u)
        return (uint64_t)hi2 << 32 | lo;
    return (uint64_t)hi1 << 32 | lo;
}

/* ---- setup ------------------------------------------------------------------ */

static unsigned core_counters(const struct pp_core_desc *core)
{
    unsigned n = core->counters ? core->counters : core->type->counters;

    return n > PP_EXT_CYCLE ? PP_EXT_CYCLE : n;
}

int pp_ext_init(struct pp_ext *x, const struct pp_core_desc *core, uint32_t mask,
                char *err, size_t errlen)
{
    unsigned n = core_counters(core);
    uint32_t have = (n >= 31 ? 0x7FFFFFFFu : (1u << n) - 1u) | 1u << PP_EXT_CYCLE;
    bool v3 = core->type->pmu_version >= 3;

    memset(x, 0, sizeof(*x));
    if (mask == 0 || (mask & ~have)) {
        pp_errmsg(err, errlen, "cpu%u: counter mask 0x%08X names counters %s lacks "
                  "(it has PMEVCNTR0-%u and the cycle counter)", core->cpu, mask,
                  core->type->pretty, n ? n - 1 : 0);
        return PP_E_INVAL;
    }
    x->cpu = core->cpu;
    x->pmu_base = core->pmu_base;
    x->pmu_version = core->type->pmu_version;
    x->mask = mask;
    if (v3)
        x->wide = (mask & 1u << PP_EXT_CYCLE) | (core->counter64 ? mask & 0x7FFFFFFFu : 0u);
    x->period_max = PP_EXT_PERIOD_MAX_DEFAULT;
    x->window_max = PP_EXT_WINDOW_MAX_DEFAULT;
    return PP_OK;
}

uint32_t pp_ext_prog_mask(const struct pp_pmu_prog *p)
{
    uint32_t m = p->nev >= 31 ? 0x7FFFFFFFu : (1u << p->nev) - 1u;

    return m | (p->cycles ? 1u << PP_EXT_CYCLE : 0u);
}

void pp_ext_set_limits(struct pp_ext *x, uint64_t period_max, uint64_t window_max)
{
    if (period_max)
        x->period_max = period_max;
    if (window_max)
        x->window_max = window_max;
}

uint64_t pp_ext_window_for(uint64_t read_ns)
{
    const uint64_t top = WRAP32 - 1u;

    if (read_ns > top / PP_EXT_COUNTS_PER_NS)
        return top;
    if (read_ns * PP_EXT_COUNTS_PER_NS < PP_EXT_WINDOW_MAX_DEFAULT)
        return PP_EXT_WINDOW_MAX_DEFAULT;
    return read_ns * PP_EXT_COUNTS_PER_NS;
}

/* ---- plan -------------------------------------------------------------------- */

/* The lowest set bit of *m, cleared: loops over the counters of a mask
 * visit only those (this runs for every core of every sample). */
static unsigned take_bit(uint32_t *m)
{
    unsigned i = (unsigned)__builtin_ctz(*m);

    *m &= *m - 1;
    return i;
}

static bool is_wide(const struct pp_ext *x, unsigned i)
{
    return (x->wide >> i & 1u) != 0;
}

static uint32_t counter_off(const struct pp_ext *x, unsigned i)
{
    bool v3 = x->pmu_version >= 3;

    if (i == PP_EXT_CYCLE)
        return v3 ? PP_PMU_PMCCNTR_V3 : PP_PMU_PMCCNTR_V2;
    return v3 ? PP_PMU_PMEVCNTR_V3(i) : PP_PMU_PMEVCNTR_V2(i);
}

static struct pp_op rd(uint32_t addr)
{
    return (struct pp_op){ .addr = addr };
}

/* Flags are only needed when some sampled counter is 32-bit. */
static bool live_needs_flags(const struct pp_ext *x)
{
    return (x->mask & ~x->wide) != 0;
}

/* The plan is rebuilt and checked every sample for every core, so these
 * walk the set bits of the mask only (the capture pipeline's hot path). */
static size_t live_plan_len(const struct pp_ext *x)
{
    size_t n = live_needs_flags(x) ? 1 : 0;

    return n + (size_t)__builtin_popcount(x->mask) +
           2u * (size_t)__builtin_popcount(x->mask & x->wide);
}

static size_t live_plan_ops(const struct pp_ext *x, struct pp_op *ops)
{
    size_t n = 0;

    if (live_needs_flags(x))
        ops[n++] = rd(x->pmu_base + PP_PMU_PMOVSSET);
    for (uint32_t m = x->mask; m;) {
        unsigned i = take_bit(&m);
        uint32_t a = x->pmu_base + counter_off(x, i);

        if (!is_wide(x, i)) {
            ops[n++] = rd(a);
            continue;
        }
        /* hi, lo, hi: spec 2.8, joined by pp_ext_join64 */
        ops[n++] = rd(a + 4);
        ops[n++] = rd(a);
        ops[n++] = rd(a + 4);
    }
    return n;
}

bool pp_ext_clear_op(const struct pp_ext *x, struct pp_op *op)
{
    if (!x->consumed)
        return false;
    *op = (struct pp_op){ .addr = x->pmu_base + PP_PMU_PMOVSCLR, .wdata = x->consumed,
                          .write = 1 };
    return true;
}

size_t pp_ext_plan_len(const struct pp_ext *x)
{
    size_t n = x->consumed ? 1 : 0;

    return n + (x->snapshot ? pp_snap_plan_len(x) : live_plan_len(x));
}

int pp_ext_plan(const struct pp_ext *x, struct pp_op *ops, size_t cap, size_t *n)
{
    size_t at = *n;

    if (at > cap || cap - at < pp_ext_plan_len(x))
        return PP_E_INVAL;
    if (pp_ext_clear_op(x, &ops[at]))
        at++;
    at += x->snapshot ? pp_snap_plan_ops(x, ops + at) : live_plan_ops(x, ops + at);
    *n = at;
    return PP_OK;
}

/* ---- decode ------------------------------------------------------------------- */

static void live_fill(const struct pp_ext *x, const struct pp_op *ops, struct pp_ext_raw *raw)
{
    size_t k = 0;

    if (live_needs_flags(x))
        raw->ovs = ops[k++].rdata;
    for (uint32_t m = x->mask; m;) {
        unsigned i = take_bit(&m);

        if (!is_wide(x, i)) {
            raw->val[i] = ops[k++].rdata;
            continue;
        }
        raw->val[i] = pp_ext_join64(ops[k].rdata, ops[k + 1].rdata, ops[k + 2].rdata);
        k += 3;
    }
}

/* The slice must be the plan of x: same length, addresses and writes. */
static bool slice_matches(const struct pp_ext *x, const struct pp_op *ops, size_t n)
{
    struct pp_op want[PP_EXT_PLAN_MAX];
    size_t m = 0;

    if (n != pp_ext_plan_len(x) || n > PP_EXT_PLAN_MAX)
        return false;
    if (pp_ext_plan(x, want, PP_EXT_PLAN_MAX, &m) != PP_OK)
        return false;
    for (size_t i = 0; i < n; i++)
        if (ops[i].addr != want[i].addr || ops[i].write != want[i].write ||
            (want[i].write && ops[i].wdata != want[i].wdata))
            return false;
    return true;
}

int pp_ext_decode(const struct pp_ext *x, const struct pp_op *ops, size_t n,
                  struct pp_ext_raw *raw)
{
    size_t first = x->consumed ? 1 : 0;

    if (!slice_matches(x, ops, n))
        return PP_E_INVAL;
    memset(raw, 0, sizeof(*raw));
    raw->ok = true;
    raw->err = PP_OK;
    raw->bad_op = -1;
    for (size_t i = 0; i < n; i++) {
        if (ops[i].st == PP_OP_OK)
            continue;
        if (raw->bad_op < 0) {
            raw->bad_op = (int)i;
            raw->err = pp_op_status_err(ops[i].st);
        }
        /* A refused clear only leaves its flags consumed; everything else
         * (reads, the snapshot's capture write) spoils the sample. */
        if (i >= first)
            raw->ok = false;
    }
    if (first && ops[0].st == PP_OP_OK)
        raw->cleared = ops[0].wdata;
    if (!raw->ok)
        return PP_OK;
    if (x->snapshot)
        pp_snap_fill(x, ops + first, raw);
    else
        live_fill(x, ops + first, raw);
    return PP_OK;
}

/* ---- the rules ------------------------------------------------------------------ */

static void rebase_counter(struct pp_ext *x, const struct pp_ext_raw *raw, unsigned i,
                           struct pp_ext_sample *out)
{
    x->last[i] = raw->val[i];
    out->v[i].flags |= PP_EXT_F_DISCONT;
    if (is_wide(x, i))
        return;
    /* Whatever flag this counter shows now predates the new baseline, and
     * a wrap inside this sample's read window would raise one later: clear
     * it before the next flags read so it is never counted. */
    if ((raw->ovs >> i & 1u) || (!raw->coherent && raw->val[i] <= x->window_max))
        x->consumed |= 1u << i;
}

static void rebase_all(struct pp_ext *x, const struct pp_ext_raw *raw, struct pp_ext_sample *out)
{
    for (unsigned i = 0; i < PP_EXT_NCTR; i++)
        if (x->mask >> i & 1u)
            rebase_counter(x, raw, i, out);
    x->based = true;
}

static void gap(struct pp_ext *x, struct pp_ext_sample *out)
{
    for (unsigned i = 0; i < PP_EXT_NCTR; i++)
        if (x->mask >> i & 1u)
            out->v[i].flags |= PP_EXT_F_GAP | PP_EXT_F_DISCONT;
    x->based = false;
}

/* Rule 4: a wrap the flags read could not show, or a reset? */
static bool unseen_wrap(const struct pp_ext *x, const struct pp_ext_raw *raw, unsigned i,
                        uint64_t last, uint64_t r)
{
    bool wiped = (raw->cleared >> i & 1u) != 0;
    bool in_window = !raw->coherent && r <= x->window_max;

    return WRAP32 - last + r <= x->period_max && (wiped || in_window);
}

/* Rules 1-5 for one counter with a baseline.  Returns a PP_EXT_WHY_* bit
 * when the counter had to be rebased, else 0. */
static unsigned step_counter(struct pp_ext *x, const struct pp_ext_raw *raw, uint32_t fresh,
                             unsigned i, struct pp_ext_sample *out)
{
    uint64_t last = x->last[i], r = raw->val[i];
    struct pp_ext_val *v = &out->v[i];
    bool flag = (fresh >> i & 1u) != 0;

    if (is_wide(x, i) || !flag) {
        if (r >= last) {
            v->delta = r - last;
        } else if (!is_wide(x, i) && unseen_wrap(x, raw, i, last, r)) {
            v->delta = WRAP32 + r - last;
            v->flags |= PP_EXT_F_WINDOW;
            x->consumed |= 1u << i;
        } else {
            rebase_counter(x, raw, i, out);
            return PP_EXT_WHY_BACKWARDS;
        }
    } else if (r < last) {
        v->delta = WRAP32 + r - last;
        v->flags |= PP_EXT_F_WRAP;
        x->consumed |= 1u << i;
    } else {
        rebase_counter(x, raw, i, out);
        return PP_EXT_WHY_AMBIGUOUS;
    }
    x->last[i] = r;
    x->total[i] += v->delta;
    return 0;
}

static unsigned core_why(const struct pp_ext_raw *raw, const uint32_t *edprsr)
{
    unsigned why = 0;

    if (!raw->ok)
        why |= PP_EXT_WHY_READ;
    if (raw->nocapture)
        why |= PP_EXT_WHY_NOCAPTURE;
    if (edprsr && (*edprsr & PP_EDPRSR_SPD))
        why |= PP_EXT_WHY_POWER;
    if (edprsr && (*edprsr & PP_EDPRSR_SR))
        why |= PP_EXT_WHY_RESET;
    return why;
}

static void finish(const struct pp_ext *x, const struct pp_ext_raw *raw, struct pp_ext_sample *out)
{
    for (uint32_t m = x->mask; m;) {
        unsigned i = take_bit(&m);

        out->v[i].total = x->total[i];
        if (!(out->v[i].flags & PP_EXT_F_GAP))
            out->v[i].raw = raw->val[i];
    }
}

void pp_ext_feed(struct pp_ext *x, const struct pp_ext_raw *raw, const uint32_t *edprsr,
                 struct pp_ext_sample *out)
{
    uint32_t fresh;

    /* Only the counters in the mask: the whole of v[] is 1 KiB, cleared
     * for every core of every sample (a million times a second). */
    for (uint32_t m = x->mask; m;)
        out->v[take_bit(&m)] = (struct pp_ext_val){ 0 };
    out->mask = x->mask;
    out->ovs = raw->ovs;
    out->err = raw->err;
    out->bad_op = raw->bad_op;
    /* The clear ran before the flags read, so those flags are gone. */
    x->consumed &= ~raw->cleared;
    out->why = core_why(raw, edprsr);
    if (!x->based)
        out->why |= x->samples ? PP_EXT_WHY_GAP : PP_EXT_WHY_START;
    if (out->why & (PP_EXT_WHY_READ | PP_EXT_WHY_NOCAPTURE)) {
        gap(x, out);
    } else if (out->why) {
        rebase_all(x, raw, out);
    } else {
        fresh = raw->ovs & ~x->consumed;
        for (uint32_t m = x->mask; m;)
            out->why |= step_counter(x, raw, fresh, take_bit(&m), out);
    }
    x->samples++;
    finish(x, raw, out);
}

int pp_ext_update(struct pp_ext *x, const struct pp_op *ops, size_t n, const uint32_t *edprsr,
                  struct pp_ext_sample *out)
{
    struct pp_ext_raw raw;
    int rc = pp_ext_decode(x, ops, n, &raw);

    if (rc != PP_OK)
        return rc;
    pp_ext_feed(x, &raw, edprsr, out);
    return PP_OK;
}

/*
 * check_extend.c - 64-bit extension of PMU counters and snapshot sampling,
 * against the simulated SoC (deterministic time, ACCESS_NS per access).
 *
 * The target is built here:
 *   cluster 0 (class 0x9): cpu0 Cortex-A76 with the snapshot block,
 *                          cpu1 Cortex-A76 with 64-bit event counters;
 *   cluster 1 (class 0x1): cpu2 Cortex-A53;
 *   cluster 2 (class 0x1): cpu3 Cortex-A7 (PMUv2).
 *
 * Exact expectations come from pp_sim_event_total.  Where a counter read
 * is the last op of a batch, the total read right after the batch is the
 * count at that read.  Where a test needs the count at a time still to
 * come (to place a wrap inside a read window), it asks a second sim built
 * from the same target: the workload is a pure function of running time.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "bus/bus.h"
#include "pmu/coretype.h"
#include "pmu/extend.h"
#include "pmu/program.h"
#include "pmu/regs.h"
#include "pmu/snapshot.h"
#include "sim/sim.h"
#include "fixture.h"

#define TOP_ROM   0x80400000u
#define CL0_ROM   0x81000000u
#define CL1_ROM   0x80000000u
#define CL2_ROM   0x80800000u
#define ACCESS_NS 100u

#define CPU_SNAP  0u            /* A76 with snapshot */
#define CPU_C64   1u            /* A76 with 64-bit event counters */
#define CPU_A53   2u
#define CPU_A7    3u

#define EV_INST   0x08u
#define EV_CYCLES 0x11u
#define MS        1000000ull

static struct pp_target *tgt;
static struct pp_sim *sim;
static struct pp_bus *bus;

/* The last batch run by sample(): ops and where the core's slice starts. */
static struct pp_op bops[160];
static size_t bn, bat;
static uint64_t bt0;            /* target time before that batch */

static const struct pp_workload test_wl = {
    .clock_mhz = 2000, .ipc = 1.5, .l1d_pki = 350, .l1d_mpki = 12, .l1i_mpki = 4,
    .l2d_pki = 30, .l2d_mpki = 3, .br_pki = 180, .br_mpki = 6, .tlb_mpki = 1.5,
    .stall_fe = 0.12, .stall_be = 0.25, .phase_us = 1000, .swing = 0.3, .seed = 7,
};

/* ---- target and fixture ------------------------------------------------------ */

static struct pp_target *make_target(void)
{
    struct pp_target *t = fx_target("test-extend", TOP_ROM, 0x1, 0x4B5, ACCESS_NS);

    fx_add_cluster(t, CL0_ROM, 0x9, 0x4E4, 2);
    fx_add_cluster(t, CL1_ROM, 0x1, 0x4A1, 1);
    fx_add_cluster(t, CL2_ROM, 0x1, 0x4A7, 1);
    fx_add_core(t, "cortex-a76", 0, 0, CL0_ROM + 0x10000u, CL0_ROM + 0x30000u,
                CL0_ROM + 0x20000u, 0x81000000u, &test_wl);
    fx_add_core(t, "cortex-a76", 0, 1, CL0_ROM + 0x110000u, CL0_ROM + 0x130000u,
                CL0_ROM + 0x120000u, 0x81000100u, &test_wl)->counter64 = true;
    fx_add_core(t, "cortex-a53", 1, 0, CL1_ROM + 0x10000u, CL1_ROM + 0x30000u,
                CL1_ROM + 0x20000u, 0x80000100u, &test_wl);
    fx_add_core(t, "cortex-a7", 2, 0, CL2_ROM + 0x10000u, CL2_ROM + 0x11000u,
                CL2_ROM + 0x18000u, 0, &test_wl);
    return t;
}

static void setup(void)
{
    char err[256] = "";

    tgt = make_target();
    sim = pp_sim_new(tgt, err, sizeof(err));
    ck_assert_msg(sim != NULL, "pp_sim_new: %s", err);
    bus = pp_bus_sim_new(sim);
    ck_assert_ptr_nonnull(bus);
}

static void teardown(void)
{
    pp_bus_close(bus);
    pp_sim_free(sim);
    free(tgt);
}

/* ---- helpers ---------------------------------------------------------------- */

static const struct pp_core_desc *core(unsigned cpu)
{
    return &tgt->cores[cpu];
}

static uint32_t pmu(unsigned cpu)
{
    return core(cpu)->pmu_base;
}

static struct pp_op wr(uint32_t addr, uint32_t val)
{
    return (struct pp_op){ .addr = addr, .wdata = val, .write = 1 };
}

/* Programs events (0xFFFF = the cycle counter) and starts them. */
static struct pp_pmu_prog program(unsigned cpu, const uint16_t *ev, unsigned n)
{
    struct pp_evsel sel[8];
    struct pp_pmu_prog p;
    char err[256] = "";

    memset(sel, 0, sizeof(sel));
    for (unsigned i = 0; i < n; i++) {
        sel[i].code = ev[i] == 0xFFFF ? EV_CYCLES : ev[i];
        sel[i].cycle_counter = ev[i] == 0xFFFF;
    }
    ck_assert_int_eq(pp_pmu_allocate(core(cpu), sel, n, &p, err, sizeof(err)), PP_OK);
    ck_assert_int_eq(pp_pmu_program(bus, core(cpu), &p), PP_OK);
    return p;
}

static void init_live(struct pp_ext *x, unsigned cpu, uint32_t mask)
{
    char err[256] = "";

    ck_assert_msg(pp_ext_init(x, core(cpu), mask, err, sizeof(err)) == PP_OK, "%s", err);
}

static void init_snap(struct pp_ext *x, unsigned cpu, uint32_t mask)
{
    char err[256] = "";

    ck_assert_msg(pp_snap_init(x, core(cpu), mask, err, sizeof(err)) == PP_OK, "%s", err);
}

/*
 * One sample in one batch: the pre ops, an EDPRSR read when asked, then
 * the core's plan.  Leaves the batch in bops[0..bn) with the slice at bat.
 */
static void sample_with(struct pp_ext *x, const struct pp_op *pre, size_t npre, bool edprsr,
                        struct pp_ext_sample *out)
{
    const uint32_t *ed = NULL;
    size_t e = npre;

    bn = 0;
    for (size_t i = 0; i < npre; i++)
        bops[bn++] = pre[i];
    if (edprsr)
        bops[bn++] = (struct pp_op){ .addr = core(x->cpu)->debug_base + PP_DBG_EDPRSR };
    bat = bn;
    ck_assert_int_eq(pp_ext_plan(x, bops, sizeof(bops) / sizeof(bops[0]), &bn), PP_OK);
    bt0 = pp_sim_now_ns(sim);
    (void)pp_bus_run(bus, bops, bn);
    if (edprsr && bops[e].st == PP_OP_OK)
        ed = &bops[e].rdata;
    ck_assert_int_eq(pp_ext_update(x, bops + bat, bn - bat, ed, out), PP_OK);
}

static void sample(struct pp_ext *x, struct pp_ext_sample *out)
{
    sample_with(x, NULL, 0, false, out);
}

/* Target time at which op i of the last batch happened. */
static uint64_t op_time(size_t i)
{
    return bt0 + (uint64_t)(i + 1) * ACCESS_NS;
}

/* The count of an event at target time t, from a fresh sim of the same
 * target (valid while the core has run without pause since time 0). */
static uint64_t count_at(unsigned cpu, uint16_t ev, uint64_t t)
{
    char err[256] = "";
    struct pp_sim *s = pp_sim_new(tgt, err, sizeof(err));
    uint64_t v;

    ck_assert_msg(s != NULL, "%s", err);
    ck_assert_uint_ge(t, pp_sim_now_ns(s));
    pp_sim_advance_ns(s, t - pp_sim_now_ns(s));
    v = pp_sim_event_total(s, cpu, ev);
    pp_sim_free(s);
    return v;
}

static void unlock_os(unsigned cpu)
{
    ck_assert_int_eq(pp_bus_write32(bus, core(cpu)->debug_base + PP_DBG_OSLAR, 0), PP_OK);
}

static void power_cycle(unsigned cpu)
{
    ck_assert_int_eq(pp_sim_set_power(sim, cpu, false), PP_OK);
    ck_assert_int_eq(pp_sim_set_power(sim, cpu, true), PP_OK);
}

/* ---- 64-bit extension ------------------------------------------------------------- */

START_TEST(total_follows_a_32bit_counter_across_many_wraps)
{
    static const uint16_t ev[] = { EV_INST };
    struct pp_ext x;
    struct pp_ext_sample s;
    struct pp_op pre = wr(pmu(CPU_A53) + PP_PMU_PMEVCNTR_V3(0), 0xFFFFFF00u);
    uint64_t e0, sum = 0;
    unsigned wraps = 0;

    program(CPU_A53, ev, 1);
    init_live(&x, CPU_A53, 1u);
    sample_with(&x, &pre, 1, false, &s);
    ck_assert_uint_eq(s.why, PP_EXT_WHY_START);
    e0 = pp_sim_event_total(sim, CPU_A53, EV_INST);      /* counter read was the last op */
    for (int k = 0; k < 40; k++) {
        pp_sim_advance_ns(sim, 500 * MS);
        sample(&x, &s);
        ck_assert_uint_eq(s.why, 0);
        wraps += (s.v[0].flags & PP_EXT_F_WRAP) != 0;
        sum += s.v[0].delta;
    }
    ck_assert_uint_ge(wraps, 10);
    ck_assert_uint_eq(s.v[0].total, pp_sim_event_total(sim, CPU_A53, EV_INST) - e0);
    ck_assert_uint_eq(s.v[0].total, sum);
    ck_assert_uint_gt(s.v[0].total, 10ull << 32);
}
END_TEST

START_TEST(overflow_flag_is_counted_once_and_cleared_once)
{
    static const uint16_t ev[] = { EV_INST };
    struct pp_ext x;
    struct pp_ext_sample s;
    struct pp_op pre[2] = {
        wr(pmu(CPU_A53) + PP_PMU_PMEVCNTR_V3(0), 0xFFFFFFFFu - 1000000u),
        wr(pmu(CPU_A53) + PP_PMU_PMOVSSET, 1u << 3),     /* a flag we do not own */
    };
    uint64_t e0, e;
    unsigned clears = 0;

    program(CPU_A53, ev, 1);
    init_live(&x, CPU_A53, 1u);
    sample_with(&x, pre, 2, false, &s);
    e0 = pp_sim_event_total(sim, CPU_A53, EV_INST);
    for (int k = 0; k < 4; k++) {
        pp_sim_advance_ns(sim, 1 * MS);
        sample(&x, &s);
        e = pp_sim_event_total(sim, CPU_A53, EV_INST);
        if (bops[bat].write) {
            ck_assert_uint_eq(bops[bat].addr, pmu(CPU_A53) + PP_PMU_PMOVSCLR);
            ck_assert_uint_eq(bops[bat].wdata, 1u);      /* exactly the flag consumed */
            clears++;
        }
        ck_assert_uint_eq(s.why, 0);
        ck_assert_uint_eq((s.v[0].flags & PP_EXT_F_WRAP) != 0, k == 0);
        ck_assert_uint_eq(s.v[0].total, e - e0);
        ck_assert_uint_eq(s.ovs & (1u << 3), 1u << 3);   /* left alone */
        if (k == 1)
            ck_assert_uint_eq(s.ovs & 1u, 0);            /* cleared before this read */
    }
    ck_assert_uint_eq(clears, 1);
}
END_TEST

/*
 * Builds the read-window wrap on the A53: batch 1 = preload + baseline
 * sample, batch 2 = a sample whose PMOVSSET read still sees the counter
 * below 2^32 and whose counter read sees it wrapped.  Returns the count at
 * the baseline's counter read.
 */
static uint64_t wrap_in_window(struct pp_ext *x, struct pp_ext_sample *s)
{
    static const uint16_t ev[] = { EV_INST };
    uint64_t t = 0, f1, f3, f4, f5, e2;
    struct pp_op pre;

    program(CPU_A53, ev, 1);
    init_live(x, CPU_A53, 1u);
    /* batch 1: write @t+1, PMOVSSET @t+2, counter @t+3;
     * batch 2: PMOVSSET @t+4, counter @t+5 (in accesses) */
    t = pp_sim_now_ns(sim);
    f1 = count_at(CPU_A53, EV_INST, t + 1 * ACCESS_NS);
    f3 = count_at(CPU_A53, EV_INST, t + 3 * ACCESS_NS);
    f4 = count_at(CPU_A53, EV_INST, t + 4 * ACCESS_NS);
    f5 = count_at(CPU_A53, EV_INST, t + 5 * ACCESS_NS);
    e2 = f5 - f4;
    ck_assert_uint_ge(e2, 2);
    pre = wr(pmu(CPU_A53) + PP_PMU_PMEVCNTR_V3(0), (uint32_t)(0xFFFFFFFFu - (f4 - f1) - e2 / 2));
    sample_with(x, &pre, 1, false, s);
    ck_assert_uint_eq(s->why, PP_EXT_WHY_START);
    ck_assert_uint_eq(op_time(bn - 1), t + 3 * ACCESS_NS);
    sample(x, s);
    ck_assert_uint_eq(op_time(bn - 1), t + 5 * ACCESS_NS);
    ck_assert_uint_eq(s->ovs & 1u, 0);                   /* flag read before the wrap */
    ck_assert_uint_lt(s->v[0].raw, e2);                  /* counter read after it */
    ck_assert_uint_eq(s->why, 0);
    ck_assert_uint_eq(s->v[0].flags, PP_EXT_F_WINDOW);
    ck_assert_uint_eq(s->v[0].delta, f5 - f3);
    return f3;
}

START_TEST(wrap_between_flag_read_and_counter_read_is_counted_once)
{
    struct pp_ext x;
    struct pp_ext_sample s;
    uint64_t f3 = wrap_in_window(&x, &s);

    pp_sim_advance_ns(sim, 1 * MS);
    sample(&x, &s);
    ck_assert_uint_eq(s.why, 0);
    ck_assert_uint_eq(s.v[0].flags, 0);
    ck_assert_uint_eq(s.v[0].total, pp_sim_event_total(sim, CPU_A53, EV_INST) - f3);
}
END_TEST

START_TEST(window_wrap_flag_not_counted_again_while_its_clear_is_refused)
{
    struct pp_ext x;
    struct pp_ext_sample s;
    uint64_t f3 = wrap_in_window(&x, &s);

    ck_assert_int_eq(pp_sim_set_addr_error(sim, pmu(CPU_A53) + PP_PMU_PMOVSCLR, true), PP_OK);
    for (int k = 0; k < 2; k++) {
        pp_sim_advance_ns(sim, 1 * MS);
        sample(&x, &s);
        ck_assert_int_eq(s.err, PP_E_SLVERR);
        ck_assert_int_eq(s.bad_op, 0);                   /* the clear, nothing else */
        ck_assert_uint_eq(s.ovs & 1u, 1u);               /* still set, already counted */
        ck_assert_uint_eq(s.why, 0);
        ck_assert_uint_eq(s.v[0].flags, 0);
        ck_assert_uint_eq(s.v[0].total, pp_sim_event_total(sim, CPU_A53, EV_INST) - f3);
    }
    ck_assert_int_eq(pp_sim_set_addr_error(sim, pmu(CPU_A53) + PP_PMU_PMOVSCLR, false), PP_OK);
    pp_sim_advance_ns(sim, 1 * MS);
    sample(&x, &s);
    ck_assert_int_eq(s.err, PP_OK);
    ck_assert_uint_eq(s.ovs & 1u, 0);
    ck_assert_uint_eq(s.v[0].total, pp_sim_event_total(sim, CPU_A53, EV_INST) - f3);
    ck_assert_uint_eq(pp_ext_plan_len(&x), 2);           /* nothing left to clear */
}
END_TEST

/*
 * PMCCNTR preloaded to 5:V so that its low word carries between the first
 * high read and the low read (carry_before_lo) or between the low read and
 * the second high read.  Returns the expected 64-bit value at the low
 * read, whose time goes to *t_lo.
 */
static uint64_t torn_pmccntr(struct pp_ext *x, struct pp_ext_sample *s, bool carry_before_lo,
                             uint64_t *t_lo)
{
    static const uint16_t ev[] = { 0xFFFF };
    uint32_t b = pmu(CPU_SNAP);
    uint64_t t, c2, c3, c4, c5;
    uint32_t v;
    struct pp_op pre[2];

    program(CPU_SNAP, ev, 1);
    init_live(x, CPU_SNAP, 1u << PP_EXT_CYCLE);
    ck_assert_uint_eq(pp_ext_plan_len(x), 3);            /* hi, lo, hi; no flags */
    /* write hi @t+1, write lo @t+2, hi @t+3, lo @t+4, hi @t+5 */
    t = pp_sim_now_ns(sim);
    c2 = count_at(CPU_SNAP, EV_CYCLES, t + 2 * ACCESS_NS);
    c3 = count_at(CPU_SNAP, EV_CYCLES, t + 3 * ACCESS_NS);
    c4 = count_at(CPU_SNAP, EV_CYCLES, t + 4 * ACCESS_NS);
    c5 = count_at(CPU_SNAP, EV_CYCLES, t + 5 * ACCESS_NS);
    if (carry_before_lo)
        v = (uint32_t)(0xFFFFFFFFu - (c3 - c2) - (c4 - c3) / 2);
    else
        v = (uint32_t)(0xFFFFFFFFu - (c4 - c2) - (c5 - c4) / 2);
    pre[0] = wr(b + PP_PMU_PMCCNTR_V3 + 4, 5);
    pre[1] = wr(b + PP_PMU_PMCCNTR_V3, v);
    sample_with(x, pre, 2, false, s);
    ck_assert_uint_eq(bops[bat].rdata, 5);               /* the read really tore */
    ck_assert_uint_eq(bops[bat + 2].rdata, 6);
    *t_lo = op_time(bat + 1);
    ck_assert_uint_eq(*t_lo, t + 4 * ACCESS_NS);
    return (5ull << 32 | v) + (c4 - c2);
}

/* The next sample, 1 ms on: its delta is the cycles between the low reads. */
static void check_next_delta(struct pp_ext *x, uint64_t t_lo)
{
    struct pp_ext_sample s;

    pp_sim_advance_ns(sim, 1 * MS);
    sample(x, &s);
    ck_assert_uint_eq(s.why, 0);
    ck_assert_uint_eq(s.v[PP_EXT_CYCLE].delta, count_at(CPU_SNAP, EV_CYCLES, op_time(bat + 1)) -
                                               count_at(CPU_SNAP, EV_CYCLES, t_lo));
}

START_TEST(pmccntr_carry_before_low_read_pairs_low_with_second_high)
{
    struct pp_ext x;
    struct pp_ext_sample s;
    uint64_t t_lo, want = torn_pmccntr(&x, &s, true, &t_lo);

    ck_assert_uint_lt(bops[bat + 1].rdata, 0x80000000u);
    ck_assert_uint_eq(want >> 32, 6);
    ck_assert_uint_eq(s.v[PP_EXT_CYCLE].raw, want);
    check_next_delta(&x, t_lo);
}
END_TEST

START_TEST(pmccntr_carry_after_low_read_pairs_low_with_first_high)
{
    struct pp_ext x;
    struct pp_ext_sample s;
    uint64_t t_lo, want = torn_pmccntr(&x, &s, false, &t_lo);

    ck_assert_uint_ge(bops[bat + 1].rdata, 0x80000000u);
    ck_assert_uint_eq(want >> 32, 5);
    ck_assert_uint_eq(s.v[PP_EXT_CYCLE].raw, want);
    check_next_delta(&x, t_lo);
}
END_TEST

START_TEST(counter_reset_by_pmcr_p_is_a_discontinuity_not_a_huge_delta)
{
    static const uint16_t ev[] = { EV_INST };
    struct pp_ext x;
    struct pp_ext_sample s;
    uint64_t total, e;

    program(CPU_A53, ev, 1);
    init_live(&x, CPU_A53, 1u);
    sample(&x, &s);
    pp_sim_advance_ns(sim, 2 * MS);
    sample(&x, &s);
    total = s.v[0].total;
    ck_assert_uint_gt(total, 1000000);
    ck_assert_int_eq(pp_bus_write32(bus, pmu(CPU_A53) + PP_PMU_PMCR,
                                    PP_PMCR_E | PP_PMCR_P | PP_PMCR_LC), PP_OK);
    pp_sim_advance_ns(sim, 10000);
    sample(&x, &s);
    ck_assert_uint_eq(s.why, PP_EXT_WHY_BACKWARDS);
    ck_assert_uint_eq(s.v[0].flags, PP_EXT_F_DISCONT);
    ck_assert_uint_eq(s.v[0].delta, 0);
    ck_assert_uint_eq(s.v[0].total, total);
    e = pp_sim_event_total(sim, CPU_A53, EV_INST);
    pp_sim_advance_ns(sim, 1 * MS);
    sample(&x, &s);                                      /* baseline restarted */
    ck_assert_uint_eq(s.why, 0);
    ck_assert_uint_eq(s.v[0].total, total + pp_sim_event_total(sim, CPU_A53, EV_INST) - e);
}
END_TEST

START_TEST(power_cycle_seen_in_edprsr_is_a_discontinuity)
{
    static const uint16_t ev[] = { EV_INST };
    struct pp_ext x;
    struct pp_ext_sample s;
    struct pp_op pre;
    uint64_t total, last, e;

    program(CPU_A53, ev, 1);
    init_live(&x, CPU_A53, 1u);
    sample_with(&x, NULL, 0, true, &s);
    ck_assert_uint_eq(s.why & PP_EXT_WHY_START, PP_EXT_WHY_START);
    pp_sim_advance_ns(sim, 1 * MS);
    sample_with(&x, NULL, 0, true, &s);
    ck_assert_uint_eq(s.why, 0);
    total = s.v[0].total;
    last = s.v[0].raw;
    power_cycle(CPU_A53);
    unlock_os(CPU_A53);
    program(CPU_A53, ev, 1);
    /* The counter comes back above its last value: only EDPRSR can tell. */
    pre = wr(pmu(CPU_A53) + PP_PMU_PMEVCNTR_V3(0), (uint32_t)last + 5000000u);
    pp_sim_advance_ns(sim, 1 * MS);
    sample_with(&x, &pre, 1, true, &s);
    ck_assert_uint_gt(s.v[0].raw, last);
    ck_assert_uint_eq(s.why & PP_EXT_WHY_POWER, PP_EXT_WHY_POWER);
    ck_assert_uint_eq(s.v[0].flags, PP_EXT_F_DISCONT);
    ck_assert_uint_eq(s.v[0].delta, 0);
    ck_assert_uint_eq(s.v[0].total, total);
    e = pp_sim_event_total(sim, CPU_A53, EV_INST);
    pp_sim_advance_ns(sim, 1 * MS);
    sample_with(&x, NULL, 0, true, &s);
    ck_assert_uint_eq(s.why, 0);
    ck_assert_uint_eq(s.v[0].total, total + pp_sim_event_total(sim, CPU_A53, EV_INST) - e);
}
END_TEST

START_TEST(failed_read_is_a_gap_and_next_good_sample_restarts_baseline)
{
    static const uint16_t ev[] = { EV_INST };
    struct pp_ext x;
    struct pp_ext_sample s;
    uint64_t total, e;

    program(CPU_A53, ev, 1);
    init_live(&x, CPU_A53, 1u);
    sample(&x, &s);
    pp_sim_advance_ns(sim, 1 * MS);
    sample(&x, &s);
    total = s.v[0].total;
    ck_assert_int_eq(pp_sim_set_power(sim, CPU_A53, false), PP_OK);
    pp_sim_advance_ns(sim, 1 * MS);
    sample(&x, &s);
    ck_assert_uint_eq(s.why, PP_EXT_WHY_READ);
    ck_assert_int_eq(s.err, PP_E_SLVERR);
    ck_assert_int_eq(s.bad_op, 0);
    ck_assert_uint_eq(s.v[0].flags, PP_EXT_F_GAP | PP_EXT_F_DISCONT);
    ck_assert_uint_eq(s.v[0].delta, 0);
    ck_assert_uint_eq(s.v[0].total, total);
    ck_assert_int_eq(pp_sim_set_power(sim, CPU_A53, true), PP_OK);
    unlock_os(CPU_A53);
    program(CPU_A53, ev, 1);
    pp_sim_advance_ns(sim, 1 * MS);
    sample(&x, &s);
    ck_assert_uint_eq(s.why, PP_EXT_WHY_GAP);
    ck_assert_uint_eq(s.v[0].flags, PP_EXT_F_DISCONT);
    ck_assert_uint_eq(s.v[0].delta, 0);
    ck_assert_uint_eq(s.v[0].total, total);
    e = pp_sim_event_total(sim, CPU_A53, EV_INST);
    pp_sim_advance_ns(sim, 1 * MS);
    sample(&x, &s);
    ck_assert_uint_eq(s.why, 0);
    ck_assert_uint_eq(s.v[0].delta, pp_sim_event_total(sim, CPU_A53, EV_INST) - e);
    ck_assert_uint_eq(s.v[0].total, total + s.v[0].delta);
}
END_TEST

START_TEST(pmuv2_cycle_counter_is_extended_with_overflow_flag_31)
{
    static const uint16_t ev[] = { 0xFFFF };
    struct pp_ext x;
    struct pp_ext_sample s;
    struct pp_op pre = wr(pmu(CPU_A7) + PP_PMU_PMCCNTR_V2, 0xFFFF0000u);
    uint64_t c0;
    unsigned wraps = 0;

    program(CPU_A7, ev, 1);
    init_live(&x, CPU_A7, 1u << PP_EXT_CYCLE);
    sample_with(&x, &pre, 1, false, &s);
    ck_assert_uint_eq(bn - bat, 2);                       /* PMOVSSET, PMCCNTR */
    ck_assert_uint_eq(bops[bat + 1].addr, pmu(CPU_A7) + 0x07Cu);
    c0 = pp_sim_event_total(sim, CPU_A7, EV_CYCLES);
    ck_assert_uint_gt(c0, 0);
    for (int k = 0; k < 10; k++) {
        pp_sim_advance_ns(sim, 1000 * MS);
        sample(&x, &s);
        ck_assert_uint_eq(s.why, 0);
        if (s.v[PP_EXT_CYCLE].flags & PP_EXT_F_WRAP) {
            ck_assert_uint_eq(s.ovs >> 31, 1);
            wraps++;
        }
    }
    ck_assert_uint_ge(wraps, 4);
    ck_assert_uint_eq(s.v[PP_EXT_CYCLE].total, pp_sim_event_total(sim, CPU_A7, EV_CYCLES) - c0);
}
END_TEST

START_TEST(counter64_event_counter_is_read_whole_with_hi_lo_hi)
{
    static const uint16_t ev[] = { EV_INST };
    struct pp_ext x;
    struct pp_ext_sample s;
    struct pp_op pre = wr(pmu(CPU_C64) + PP_PMU_PMEVCNTR_V3(0) + 4, 3);
    uint64_t t_lo;

    program(CPU_C64, ev, 1);
    init_live(&x, CPU_C64, 1u);
    ck_assert_uint_eq(pp_ext_plan_len(&x), 3);
    sample_with(&x, &pre, 1, false, &s);
    ck_assert_uint_eq(bops[bat].addr, pmu(CPU_C64) + 0x004u);
    ck_assert_uint_eq(bops[bat + 1].addr, pmu(CPU_C64) + 0x000u);
    ck_assert_uint_eq(s.v[0].raw >> 32, 3);
    t_lo = op_time(bat + 1);
    pp_sim_advance_ns(sim, 2000 * MS);                    /* > 2^32 counts */
    sample(&x, &s);
    ck_assert_uint_eq(s.why, 0);
    ck_assert_uint_gt(s.v[0].delta, 1ull << 32);
    ck_assert_uint_eq(s.v[0].delta, count_at(CPU_C64, EV_INST, op_time(bat + 1)) -
                                    count_at(CPU_C64, EV_INST, t_lo));
}
END_TEST

START_TEST(plans_of_several_cores_share_one_batch)
{
    static const uint16_t ev[] = { EV_INST, 0xFFFF };
    struct pp_ext x[3];
    struct pp_ext_sample s;
    struct pp_bus_stats st0, st1;
    struct pp_op ops[3 * PP_EXT_PLAN_MAX];
    size_t at[4], n = 0;
    static const unsigned cpus[3] = { CPU_SNAP, CPU_A53, CPU_A7 };

    for (unsigned i = 0; i < 3; i++)
        program(cpus[i], ev, 2);
    init_snap(&x[0], CPU_SNAP, 1u | 1u << PP_EXT_CYCLE);
    init_live(&x[1], CPU_A53, 1u | 1u << PP_EXT_CYCLE);
    init_live(&x[2], CPU_A7, 1u | 1u << PP_EXT_CYCLE);
    for (unsigned i = 0; i < 3; i++) {
        at[i] = n;
        ck_assert_int_eq(pp_ext_plan(&x[i], ops, sizeof(ops) / sizeof(ops[0]), &n), PP_OK);
    }
    at[3] = n;
    pp_bus_get_stats(bus, &st0);
    ck_assert_int_eq(pp_bus_run(bus, ops, n), PP_OK);
    pp_bus_get_stats(bus, &st1);
    ck_assert_uint_eq(st1.batches - st0.batches, 1);
    for (unsigned i = 0; i < 3; i++) {
        ck_assert_int_eq(pp_ext_update(&x[i], ops + at[i], at[i + 1] - at[i], NULL, &s), PP_OK);
        ck_assert_uint_eq(s.why, PP_EXT_WHY_START);
        ck_assert_uint_gt(s.v[PP_EXT_CYCLE].raw, 0);
    }
    /* A slice that is not the plan is refused. */
    ck_assert_int_eq(pp_ext_update(&x[1], ops + at[0], at[1] - at[0], NULL, &s), PP_E_INVAL);
}
END_TEST

/* ---- snapshot ----------------------------------------------------------------- */

START_TEST(snapshot_captures_all_counters_at_one_instant)
{
    static const uint16_t ev[] = { EV_INST, EV_INST, 0xFFFF };
    uint32_t b = pmu(CPU_SNAP);
    struct pp_ext x;
    struct pp_ext_sample s;
    struct pp_op ops[PP_EXT_PLAN_MAX + 2];
    size_t n = 0, live;
    uint64_t e_start, c_start, t_cap;

    program(CPU_SNAP, ev, 3);
    e_start = pp_sim_event_total(sim, CPU_SNAP, EV_INST);   /* PMCNTENSET was the last op */
    c_start = pp_sim_event_total(sim, CPU_SNAP, EV_CYCLES);
    init_snap(&x, CPU_SNAP, 3u | 1u << PP_EXT_CYCLE);
    pp_sim_advance_ns(sim, 1 * MS);
    ck_assert_int_eq(pp_ext_plan(&x, ops, sizeof(ops) / sizeof(ops[0]), &n), PP_OK);
    ck_assert_uint_eq(ops[0].addr, b + 0x6F0u);
    ck_assert_uint_eq(ops[0].write, 1);
    live = n;
    ops[n++] = (struct pp_op){ .addr = b + PP_PMU_PMEVCNTR_V3(0) };
    ops[n++] = (struct pp_op){ .addr = b + PP_PMU_PMEVCNTR_V3(1) };
    t_cap = pp_sim_now_ns(sim) + ACCESS_NS;
    ck_assert_int_eq(pp_bus_run(bus, ops, n), PP_OK);
    ck_assert_int_eq(pp_ext_update(&x, ops, live, NULL, &s), PP_OK);
    ck_assert_uint_eq(s.why, PP_EXT_WHY_START);
    /* the copies agree; the live reads, one access apart, do not */
    ck_assert_uint_eq(s.v[0].raw, s.v[1].raw);
    ck_assert_uint_lt(s.v[0].raw, ops[live].rdata);
    ck_assert_uint_lt(ops[live].rdata, ops[live + 1].rdata);
    ck_assert_uint_eq(s.v[0].raw, count_at(CPU_SNAP, EV_INST, t_cap) - e_start);
    ck_assert_uint_eq(s.v[PP_EXT_CYCLE].raw, count_at(CPU_SNAP, EV_CYCLES, t_cap) - c_start);
}
END_TEST

START_TEST(snapshot_samples_feed_the_same_extension_across_wraps)
{
    static const uint16_t ev[] = { EV_INST };
    struct pp_ext x;
    struct pp_ext_sample s;
    struct pp_op pre = wr(pmu(CPU_SNAP) + PP_PMU_PMEVCNTR_V3(0), 0xFFFFF000u);
    uint64_t t_first, t_last;
    unsigned wraps = 0;

    program(CPU_SNAP, ev, 1);
    init_snap(&x, CPU_SNAP, 1u);
    sample_with(&x, &pre, 1, false, &s);
    ck_assert_uint_eq(s.why, PP_EXT_WHY_START);
    t_first = op_time(bat);                              /* the PMSSCR write */
    for (int k = 0; k < 12; k++) {
        pp_sim_advance_ns(sim, 500 * MS);
        sample(&x, &s);
        ck_assert_uint_eq(s.why, 0);
        wraps += (s.v[0].flags & PP_EXT_F_WRAP) != 0;
    }
    /* the capture is the plan's first op, or its second after a clear */
    t_last = op_time(bops[bat].addr == pmu(CPU_SNAP) + PP_PMU_PMOVSCLR ? bat + 1 : bat);
    ck_assert_uint_ge(wraps, 3);
    ck_assert_uint_eq(s.v[0].total, count_at(CPU_SNAP, EV_INST, t_last) -
                                    count_at(CPU_SNAP, EV_INST, t_first));
}
END_TEST

START_TEST(snapshot_without_capture_is_reported_as_a_gap)
{
    static const uint16_t ev[] = { EV_INST };
    struct pp_ext x;
    struct pp_ext_sample s;

    program(CPU_SNAP, ev, 1);
    init_snap(&x, CPU_SNAP, 1u);
    ck_assert_int_eq(pp_sim_set_addr_error(sim, pmu(CPU_SNAP) + 0x6F0u, true), PP_OK);
    sample(&x, &s);
    ck_assert_int_eq(s.err, PP_E_SLVERR);
    ck_assert_uint_eq(s.why & PP_EXT_WHY_READ, PP_EXT_WHY_READ);
    ck_assert_uint_eq(s.v[0].flags, PP_EXT_F_GAP | PP_EXT_F_DISCONT);
    ck_assert_uint_eq(bops[bat + 1].rdata & PP_SNAP_NC, PP_SNAP_NC);   /* PMSSSR says so too */
    ck_assert_int_eq(pp_sim_set_addr_error(sim, pmu(CPU_SNAP) + 0x6F0u, false), PP_OK);
    sample(&x, &s);
    ck_assert_uint_eq(s.why, PP_EXT_WHY_GAP);
    ck_assert_uint_eq(bops[bat + 1].rdata & PP_SNAP_NC, 0);
}
END_TEST

START_TEST(snapshot_refused_on_cores_without_the_block)
{
    struct pp_ext x;
    char err[256] = "";

    ck_assert_int_eq(pp_snap_init(&x, core(CPU_A53), 1u, err, sizeof(err)), PP_E_UNSUPPORTED);
    ck_assert_ptr_nonnull(strstr(err, "Cortex-A53"));
    ck_assert_ptr_nonnull(strstr(err, "snapshot"));
    err[0] = '\0';
    ck_assert_int_eq(pp_snap_init(&x, core(CPU_A7), 1u, err, sizeof(err)), PP_E_UNSUPPORTED);
    ck_assert_ptr_nonnull(strstr(err, "snapshot"));
    ck_assert_int_eq(pp_snap_init(&x, core(CPU_SNAP), 1u << 6, err, sizeof(err)), PP_E_INVAL);
}
END_TEST

static Suite *extend_suite(void)
{
    Suite *su = suite_create("extend");
    TCase *tc;

    tc = tcase_create("wraps");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, total_follows_a_32bit_counter_across_many_wraps);
    tcase_add_test(tc, overflow_flag_is_counted_once_and_cleared_once);
    tcase_add_test(tc, wrap_between_flag_read_and_counter_read_is_counted_once);
    tcase_add_test(tc, window_wrap_flag_not_counted_again_while_its_clear_is_refused);
    tcase_add_test(tc, pmuv2_cycle_counter_is_extended_with_overflow_flag_31);
    suite_add_tcase(su, tc);

    tc = tcase_create("64-bit reads");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, pmccntr_carry_before_low_read_pairs_low_with_second_high);
    tcase_add_test(tc, pmccntr_carry_after_low_read_pairs_low_with_first_high);
    tcase_add_test(tc, counter64_event_counter_is_read_whole_with_hi_lo_hi);
    suite_add_tcase(su, tc);

    tc = tcase_create("discontinuities");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, counter_reset_by_pmcr_p_is_a_discontinuity_not_a_huge_delta);
    tcase_add_test(tc, power_cycle_seen_in_edprsr_is_a_discontinuity);
    tcase_add_test(tc, failed_read_is_a_gap_and_next_good_sample_restarts_baseline);
    suite_add_tcase(su, tc);

    tc = tcase_create("plan");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, plans_of_several_cores_share_one_batch);
    suite_add_tcase(su, tc);

    tc = tcase_create("snapshot");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, snapshot_captures_all_counters_at_one_instant);
    tcase_add_test(tc, snapshot_samples_feed_the_same_extension_across_wraps);
    tcase_add_test(tc, snapshot_without_capture_is_reported_as_a_gap);
    tcase_add_test(tc, snapshot_refused_on_cores_without_the_block);
    suite_add_tcase(su, tc);
    return su;
}

int main(void)
{
    SRunner *sr = srunner_create(extend_suite());
    int failed;

    srunner_run_all(sr, CK_NORMAL);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

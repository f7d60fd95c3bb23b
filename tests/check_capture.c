/*
 * check_capture.c - the capture engine against the simulated SoC.
 *
 * The target is built here, in deterministic time with no time per
 * access, so a whole sample's batch happens at one instant of target time
 * and only the per-sample hook moves time on:
 *   cluster 0 (class 0x9): cpu0, cpu1 Cortex-A76 (snapshot block);
 *   cluster 1 (class 0x1): cpu2 Cortex-A53;
 *   cluster 2 (class 0x1): cpu3 Cortex-A7 (PMUv2).
 * The hook, on the sampler thread before each batch, advances target time
 * and notes pp_sim_event_total of every captured event: the exact counts
 * each sample must show.  Output goes to an in-memory collector through
 * the same struct pp_cap_out a sink is driven by (a double of the output,
 * never of the SoC).
 */
#include <check.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "clock.h"
#include "bus/bus.h"
#include "capture/capture.h"
#include "capture/engine.h"
#include "pmu/diag.h"
#include "pmu/evname.h"
#include "pmu/extend.h"
#include "pmu/program.h"
#include "pmu/regs.h"
#include "sim/sim.h"
#include "fixture.h"

#define TOP_ROM   0x80400000u
#define CL0_ROM   0x81000000u
#define CL1_ROM   0x80000000u
#define CL2_ROM   0x80800000u

#define MS        1000000ull
#define MAXSEQ    512u
#define MAXEV     8u

static struct fx_rig rig;

static const struct pp_workload test_wl = {
    .clock_mhz = 2000, .ipc = 1.5, .l1d_pki = 350, .l1d_mpki = 12, .l1i_mpki = 4,
    .l2d_pki = 30, .l2d_mpki = 3, .br_pki = 180, .br_mpki = 6, .tlb_mpki = 1.5,
    .stall_fe = 0.12, .stall_be = 0.25, .phase_us = 1000, .swing = 0.3, .seed = 11,
};

static void setup(void)
{
    struct pp_target *t = fx_target("test-capture", TOP_ROM, 0x1, 0x4B5, 0);

    fx_add_cluster(t, CL0_ROM, 0x9, 0x4E4, 2);
    fx_add_cluster(t, CL1_ROM, 0x1, 0x4A1, 1);
    fx_add_cluster(t, CL2_ROM, 0x1, 0x4A7, 1);
    fx_add_core(t, "cortex-a76", 0, 0, CL0_ROM + 0x10000u, CL0_ROM + 0x30000u,
                CL0_ROM + 0x20000u, 0x81000000u, &test_wl);
    fx_add_core(t, "cortex-a76", 0, 1, CL0_ROM + 0x110000u, CL0_ROM + 0x130000u,
                CL0_ROM + 0x120000u, 0x81000100u, &test_wl);
    fx_add_core(t, "cortex-a53", 1, 0, CL1_ROM + 0x10000u, CL1_ROM + 0x30000u,
                CL1_ROM + 0x20000u, 0x80000100u, &test_wl);
    fx_add_core(t, "cortex-a7", 2, 0, CL2_ROM + 0x10000u, CL2_ROM + 0x11000u,
                CL2_ROM + 0x18000u, 0, &test_wl);
    fx_rig_build(&rig, t);
}

static void teardown(void)
{
    fx_rig_down(&rig);
}

/* ---- an in-memory output ------------------------------------------------------- */

struct collector {
    struct pp_cap_meta meta;
    size_t size;                  /* record size */
    unsigned char *recs;
    size_t n, cap;
    bool begun, ended;
    struct pp_cap_summary sum;
    unsigned delay_us;            /* a slow writer */
    size_t fail_after;            /* writes that succeed before one fails (0: never) */
};

static int col_begin(void *ctx, const struct pp_cap_meta *m)
{
    struct collector *col = ctx;

    ck_assert(!col->begun);
    col->meta = *m;
    col->size = pp_cap_record_size(m);
    col->begun = true;
    return PP_OK;
}

static int col_write(void *ctx, const struct pp_cap_sample *s)
{
    struct collector *col = ctx;

    if (col->fail_after && col->n == col->fail_after)
        return PP_E_IO;
    if (col->delay_us) {
        struct timespec ts = { 0, (long)col->delay_us * 1000L };

        nanosleep(&ts, NULL);
    }
    if (col->n == col->cap) {
        col->cap = col->cap ? 2 * col->cap : 64;
        col->recs = realloc(col->recs, col->cap * col->size);
        ck_assert_ptr_nonnull(col->recs);
    }
    memcpy(col->recs + col->n * col->size, s, col->size);
    col->n++;
    return PP_OK;
}

static int col_end(void *ctx, const struct pp_cap_summary *sum)
{
    struct collector *col = ctx;

    col->sum = *sum;
    col->ended = true;
    return PP_OK;
}

static const char *col_errmsg(void *ctx)
{
    (void)ctx;
    return "collector: write refused";
}

static struct pp_cap_out col_out(struct collector *col)
{
    return (struct pp_cap_out){ .ctx = col, .begin = col_begin, .write = col_write,
                                .end = col_end, .errmsg = col_errmsg };
}

static const struct pp_cap_sample *rec(const struct collector *col, size_t i)
{
    return (const struct pp_cap_sample *)(col->recs + i * col->size);
}

static const struct pp_cap_cstat *cst(const struct collector *col, size_t i, unsigned k)
{
    return &pp_cap_cstats_c(rec(col, i))[k];
}

static const struct pp_cap_val *val(const struct collector *col, size_t i, unsigned k,
                                    unsigned e)
{
    return &pp_cap_vals_c(rec(col, i))[col->meta.core[k].first + e];
}

/* ---- the hook: time and the exact counts ------------------------------------------ */

struct hook {
    struct pp_cap *cap;
    uint64_t advance_ns;
    void (*fault)(struct hook *h, uint64_t seq);
    uint64_t e[MAXSEQ][4][MAXEV];  /* event totals at each sample's batch */
    uint64_t calls;
};

static void hook_fn(void *arg, uint64_t seq)
{
    struct hook *h = arg;
    const struct pp_cap_meta *m = pp_cap_meta(h->cap);

    h->calls++;
    if (seq > 0)
        pp_sim_advance_ns(rig.sim, h->advance_ns);
    if (h->fault)
        h->fault(h, seq);
    ck_assert_uint_lt(seq, MAXSEQ);
    for (unsigned k = 0; k < m->ncores && k < 4; k++)
        for (unsigned i = 0; i < m->core[k].nev && i < MAXEV; i++)
            h->e[seq][k][i] = pp_sim_event_total(rig.sim, m->core[k].cpu, m->core[k].ev[i].code);
}

/* ---- helpers ------------------------------------------------------------------------- */

static struct pp_cap_config config(uint64_t interval_ns, uint64_t count)
{
    return (struct pp_cap_config){ .bus = rig.bus, .target = "test-capture", .probe = "sim",
                                   .interval_ns = interval_ns, .count = count };
}

static struct pp_cap *new_cap(struct pp_cap_config *cfg, struct hook *h)
{
    struct pp_cap *c;

    if (h) {
        cfg->hook = hook_fn;
        cfg->hook_arg = h;
    }
    c = pp_cap_new(cfg);
    ck_assert_ptr_nonnull(c);
    if (h)
        h->cap = c;
    return c;
}

static void add(struct pp_cap *c, unsigned cpu, const char *list)
{
    const struct pp_core_desc *core = pp_target_core(rig.t, cpu);
    struct pp_evsel ev[MAXEV];
    char buf[256], err[256] = "", *save = NULL;
    unsigned n = 0;

    ck_assert_ptr_nonnull(core);
    snprintf(buf, sizeof(buf), "%s", list);
    for (char *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        ck_assert_msg(pp_event_resolve(core->type, tok, &ev[n], err, sizeof(err)) == PP_OK,
                      "%s", err);
        n++;
    }
    ck_assert_msg(pp_cap_add_core(c, core, ev, n, err, sizeof(err)) == PP_OK, "%s", err);
}

static void program_all(struct pp_cap *c)
{
    char msg[512];

    for (unsigned k = 0; k < pp_cap_ncores(c); k++)
        ck_assert_msg(pp_cap_program(c, k, 0, msg, sizeof(msg)) == PP_OK, "%s", msg);
}

static void run(struct pp_cap *c, struct collector *col)
{
    struct pp_cap_out out = col_out(col);

    ck_assert_int_eq(pp_cap_run(c, &out), PP_OK);
    ck_assert(col->begun);
    ck_assert(col->ended);
}

/* A capture of cpu2's instructions and cycles over bus, run to its end. */
static struct pp_cap *capture_cpu2_on(struct pp_bus *bus, struct pp_cap_config *cfg,
                                      struct hook *h, struct collector *col)
{
    struct pp_cap *c;

    cfg->bus = bus;
    c = new_cap(cfg, h);
    add(c, 2, "instructions,cycles");
    program_all(c);
    run(c, col);
    return c;
}

static void finish(struct pp_cap *c, struct collector *col)
{
    pp_cap_free(c);
    free(col->recs);
}

/* Every trusted sample of core k: delta and total equal the sim's counts. */
static void assert_exact(const struct collector *col, const struct hook *h, unsigned k,
                         size_t from, size_t to)
{
    const struct pp_cap_core *mc = &col->meta.core[k];

    for (size_t s = from; s <= to; s++) {
        ck_assert_uint_eq(cst(col, s, k)->status, PP_CAP_OK);
        for (unsigned i = 0; i < mc->nev; i++) {
            uint64_t want = h->e[s][k][i] - h->e[s - 1][k][i];

            ck_assert_msg(val(col, s, k, i)->delta == want,
                          "cpu%u %s sample %zu: delta %llu, sim says %llu", mc->cpu,
                          mc->ev[i].name, s, (unsigned long long)val(col, s, k, i)->delta,
                          (unsigned long long)want);
            ck_assert_uint_eq(val(col, s, k, i)->total - val(col, s - 1, k, i)->total, want);
        }
    }
}

/* ---- values ---------------------------------------------------------------------------- */

START_TEST(baseline_then_deltas_equal_the_simulated_counts_on_every_core)
{
    struct pp_cap_config cfg = config(0, 20);
    struct hook h = { .advance_ns = 1 * MS };
    struct collector col = { 0 };
    struct pp_cap *c = new_cap(&cfg, &h);

    for (unsigned cpu = 0; cpu < 4; cpu++)
        add(c, cpu, "cycles,instructions,L1D_CACHE_REFILL");
    program_all(c);
    run(c, &col);
    ck_assert_uint_eq(col.n, 21);
    for (unsigned k = 0; k < 4; k++) {
        ck_assert_uint_eq(cst(&col, 0, k)->status, PP_CAP_DISCONT);
        ck_assert_uint_eq(cst(&col, 0, k)->why & PP_EXT_WHY_START, PP_EXT_WHY_START);
        ck_assert_uint_eq(val(&col, 0, k, 0)->total, 0);
        assert_exact(&col, &h, k, 1, 20);
        ck_assert_uint_eq(val(&col, 20, k, 1)->total, h.e[20][k][1] - h.e[0][k][1]);
        ck_assert_uint_gt(val(&col, 20, k, 1)->total, 0);
    }
    ck_assert_int_eq(col.sum.stop, PP_CAP_STOP_DONE);
    ck_assert_uint_eq(col.sum.samples, 21);
    ck_assert_uint_eq(col.sum.written, 21);
    finish(c, &col);
}
END_TEST

START_TEST(records_are_numbered_and_stamped_around_the_read_window)
{
    struct pp_cap_config cfg = config(0, 5);
    struct collector col = { 0 };
    struct pp_cap *c;

    cfg.realtime = true;
    c = new_cap(&cfg, NULL);
    add(c, 0, "cycles");
    program_all(c);
    run(c, &col);
    for (size_t i = 0; i < col.n; i++) {
        ck_assert_uint_eq(rec(&col, i)->kind, PP_CAP_SAMPLE);
        ck_assert_uint_eq(rec(&col, i)->seq, i);
        ck_assert_uint_ge(rec(&col, i)->t_start_ns, col.meta.start_mono_ns);
        ck_assert_uint_ge(rec(&col, i)->t_end_ns, rec(&col, i)->t_start_ns);
        ck_assert_uint_ge(rec(&col, i)->t_real_ns, col.meta.start_real_ns);
        if (i)
            ck_assert_uint_ge(rec(&col, i)->t_start_ns, rec(&col, i - 1)->t_end_ns);
    }
    ck_assert(col.meta.realtime);
    finish(c, &col);
}
END_TEST

START_TEST(a_32bit_counter_wrapping_many_times_is_counted_in_full)
{
    struct pp_cap_config cfg = config(0, 40);
    struct hook h = { .advance_ns = 500 * MS };     /* 1.5e9 instructions a sample */
    struct collector col = { 0 };
    struct pp_cap *c = new_cap(&cfg, &h);

    add(c, 2, "instructions");                       /* Cortex-A53: 32-bit counters */
    program_all(c);
    run(c, &col);
    assert_exact(&col, &h, 0, 1, 40);
    ck_assert_uint_eq(val(&col, 40, 0, 0)->total, h.e[40][0][0] - h.e[0][0][0]);
    ck_assert_uint_gt(val(&col, 40, 0, 0)->total, 10ull << 32);
    finish(c, &col);
}
END_TEST

START_TEST(snapshot_samples_equal_the_simulated_counts)
{
    struct pp_cap_config cfg = config(0, 10);
    struct hook h = { .advance_ns = 2 * MS };
    struct collector col = { 0 };
    struct pp_cap *c;

    cfg.snapshot = true;
    c = new_cap(&cfg, &h);
    add(c, 0, "cycles,instructions");
    program_all(c);
    run(c, &col);
    ck_assert(col.meta.snapshot);
    assert_exact(&col, &h, 0, 1, 10);
    finish(c, &col);
}
END_TEST

START_TEST(snapshot_on_a_core_without_the_block_is_refused)
{
    struct pp_cap_config cfg = config(0, 1);
    struct pp_cap *c;
    struct pp_evsel ev;
    char err[256] = "";

    cfg.snapshot = true;
    c = new_cap(&cfg, NULL);
    ck_assert_int_eq(pp_event_resolve(pp_target_core(rig.t, 2)->type, "cycles", &ev, err,
                                      sizeof(err)), PP_OK);
    ck_assert_int_eq(pp_cap_add_core(c, pp_target_core(rig.t, 2), &ev, 1, err, sizeof(err)),
                     PP_E_UNSUPPORTED);
    ck_assert_ptr_nonnull(strstr(err, "snapshot"));
    ck_assert_uint_eq(pp_cap_ncores(c), 0);
    pp_cap_free(c);
}
END_TEST

/* ---- failing cores ------------------------------------------------------------------------ */

/* A core powered up as its OS would leave it: the OS lock, set by the
 * power-up, cleared (the OS's job). */
static void power_up(unsigned cpu)
{
    ck_assert_int_eq(pp_sim_set_power(rig.sim, cpu, true), PP_OK);
    ck_assert_int_eq(pp_sim_set_oslock(rig.sim, cpu, false), PP_OK);
}

static void power_off_5_on_10(struct hook *h, uint64_t seq)
{
    (void)h;
    if (seq == 5)
        ck_assert_int_eq(pp_sim_set_power(rig.sim, 1, false), PP_OK);
    if (seq == 10)
        power_up(1);
}

START_TEST(gap_cause_is_the_diagnosed_condition_even_when_the_reads_waited)
{
    struct pp_diag d = { .cause = PP_CAUSE_CORE_OFF };

    ck_assert_int_eq(cap_gap_cause(PP_OK, &d, true), PP_CAUSE_CORE_OFF);
}
END_TEST

START_TEST(gap_cause_is_dp_wait_when_the_reads_waited_and_the_core_looks_fine)
{
    struct pp_diag d = { .cause = PP_CAUSE_NONE };

    ck_assert_int_eq(cap_gap_cause(PP_OK, &d, true), PP_CAUSE_DP_WAIT);
    ck_assert_int_eq(cap_gap_cause(PP_E_WAIT, &d, false), PP_CAUSE_DP_WAIT);
    ck_assert_str_eq(pp_cause_name(PP_CAUSE_DP_WAIT), "dp-wait");
}
END_TEST

START_TEST(gap_cause_is_unknown_when_nothing_explains_the_failure)
{
    struct pp_diag d = { .cause = PP_CAUSE_NONE };

    ck_assert_int_eq(cap_gap_cause(PP_OK, &d, false), PP_CAUSE_UNKNOWN);
    ck_assert_int_eq(cap_gap_cause(PP_E_IO, &d, false), PP_CAUSE_UNKNOWN);
}
END_TEST

START_TEST(core_powered_down_and_up_is_a_gap_with_its_cause_and_no_bogus_delta)
{
    struct pp_cap_config cfg = config(0, 20);
    struct hook h = { .advance_ns = 1 * MS, .fault = power_off_5_on_10 };
    struct collector col = { 0 };
    struct pp_cap *c;
    uint64_t episodes;

    cfg.retry_ns = 1;                      /* retry after every sample */
    c = new_cap(&cfg, &h);
    add(c, 0, "cycles,instructions");
    add(c, 1, "cycles,instructions");
    program_all(c);
    run(c, &col);
    ck_assert_uint_eq(col.n, 21);
    /* the other core is not held up: every sample exact */
    assert_exact(&col, &h, 0, 1, 20);
    assert_exact(&col, &h, 1, 1, 4);
    for (size_t s = 5; s <= 10; s++) {
        ck_assert_uint_eq(cst(&col, s, 1)->status, PP_CAP_GAP);
        ck_assert_uint_eq(cst(&col, s, 1)->cause, PP_CAUSE_CORE_OFF);
        ck_assert_uint_eq(val(&col, s, 1, 1)->delta, 0);
        ck_assert_uint_eq(val(&col, s, 1, 1)->total, val(&col, 4, 1, 1)->total);
    }
    /* back with a fresh baseline, then exact again */
    ck_assert_uint_eq(cst(&col, 11, 1)->status, PP_CAP_DISCONT);
    ck_assert_uint_eq(cst(&col, 11, 1)->why & PP_EXT_WHY_GAP, PP_EXT_WHY_GAP);
    ck_assert_uint_eq(val(&col, 11, 1, 1)->delta, 0);
    ck_assert_uint_eq(val(&col, 11, 1, 1)->total, val(&col, 4, 1, 1)->total);
    assert_exact(&col, &h, 1, 12, 20);
    ck_assert_uint_eq(col.sum.gaps[1][PP_CAUSE_CORE_OFF], 6);
    ck_assert_uint_eq(col.sum.gaps[0][PP_CAUSE_CORE_OFF], 0);
    ck_assert_int_eq(pp_cap_core_diag(c, 1, &episodes)->cause, PP_CAUSE_CORE_OFF);
    ck_assert_uint_eq(episodes, 1);
    finish(c, &col);
}
END_TEST

static void power_cycle_at_5(struct hook *h, uint64_t seq)
{
    (void)h;
    if (seq != 5)
        return;
    ck_assert_int_eq(pp_sim_set_power(rig.sim, 2, false), PP_OK);
    power_up(2);
}

START_TEST(power_cycle_between_samples_is_seen_in_edprsr_and_counting_resumes)
{
    struct pp_cap_config cfg = config(0, 12);
    struct hook h = { .advance_ns = 1 * MS, .fault = power_cycle_at_5 };
    struct collector col = { 0 };
    struct pp_cap *c = new_cap(&cfg, &h);

    add(c, 2, "instructions,L1D_CACHE_REFILL");
    program_all(c);
    run(c, &col);
    assert_exact(&col, &h, 0, 1, 4);
    ck_assert_uint_eq(cst(&col, 5, 0)->status, PP_CAP_DISCONT);
    ck_assert_uint_eq(cst(&col, 5, 0)->why & PP_EXT_WHY_POWER, PP_EXT_WHY_POWER);
    ck_assert_uint_eq(val(&col, 5, 0, 0)->delta, 0);
    /* programmed again at once: sample 6 is the new baseline */
    ck_assert_uint_eq(cst(&col, 6, 0)->status, PP_CAP_DISCONT);
    assert_exact(&col, &h, 0, 7, 12);
    ck_assert_uint_eq(val(&col, 12, 0, 0)->total, val(&col, 4, 0, 0)->total +
                      h.e[12][0][0] - h.e[6][0][0]);
    finish(c, &col);
}
END_TEST

/* ---- the default plan --------------------------------------------------------------- */

/* Which plan each core gets: the snapshot block on the A76 when more than
 * the cycle counter is counted, live on the A53 (no block) and for the
 * cycle counter alone; --live and --snapshot force one. */
START_TEST(default_plan_is_the_snapshot_where_it_is_cheaper_and_live_elsewhere)
{
    struct pp_cap_config cfg = config(0, 1);
    const struct pp_core_desc *a53 = pp_target_core(rig.t, 2);
    struct pp_evsel ev;
    struct pp_cap *c = new_cap(&cfg, NULL);
    char err[256];

    add(c, 0, "cycles,instructions");
    add(c, 1, "cycles");
    add(c, 2, "cycles,instructions");
    ck_assert(c->core[0].ext.snapshot);
    ck_assert(!c->core[1].ext.snapshot);
    ck_assert(!c->core[2].ext.snapshot);
    pp_cap_free(c);

    cfg.live = true;
    c = new_cap(&cfg, NULL);
    add(c, 0, "cycles,instructions");
    ck_assert(!c->core[0].ext.snapshot);
    pp_cap_free(c);

    cfg.live = false;
    cfg.snapshot = true;
    c = new_cap(&cfg, NULL);
    add(c, 1, "cycles");
    ck_assert(c->core[0].ext.snapshot);
    ck_assert_int_eq(pp_event_resolve(a53->type, "cycles", &ev, err, sizeof(err)), PP_OK);
    ck_assert_int_eq(pp_cap_add_core(c, a53, &ev, 1, err, sizeof(err)), PP_E_UNSUPPORTED);
    pp_cap_free(c);

    cfg.live = true;
    c = new_cap(&cfg, NULL);
    ck_assert_int_eq(pp_cap_add_core(c, a53, &ev, 1, err, sizeof(err)), PP_E_INVAL);
    ck_assert_ptr_nonnull(strstr(err, "exclude"));
    pp_cap_free(c);
}
END_TEST

static void power_cycle_cpu0_at_5(struct hook *h, uint64_t seq)
{
    (void)h;
    if (seq != 5)
        return;
    ck_assert_int_eq(pp_sim_set_power(rig.sim, 0, false), PP_OK);
    power_up(0);
}

/* Under the default plan (the A76's snapshot block) a power cycle between
 * two samples is a discontinuity in the first sample after it: EDPRSR.SPD,
 * read before the capture; nothing in the block shows it, as the capture
 * itself clears PMSSSR.NC. */
START_TEST(default_plan_sees_a_power_cycle_between_two_samples)
{
    struct pp_cap_config cfg = config(0, 12);
    struct hook h = { .advance_ns = 1 * MS, .fault = power_cycle_cpu0_at_5 };
    struct collector col = { 0 };
    struct pp_cap *c = new_cap(&cfg, &h);

    add(c, 0, "cycles,instructions");
    ck_assert(c->core[0].ext.snapshot);
    program_all(c);
    run(c, &col);
    assert_exact(&col, &h, 0, 1, 4);
    ck_assert_uint_eq(cst(&col, 5, 0)->status, PP_CAP_DISCONT);
    ck_assert_uint_eq(cst(&col, 5, 0)->why & PP_EXT_WHY_POWER, PP_EXT_WHY_POWER);
    ck_assert_uint_eq(val(&col, 5, 0, 0)->delta, 0);
    ck_assert_uint_eq(val(&col, 5, 0, 1)->delta, 0);
    ck_assert_uint_eq(cst(&col, 6, 0)->status, PP_CAP_DISCONT);   /* reprogrammed: baseline */
    assert_exact(&col, &h, 0, 7, 12);
    finish(c, &col);
}
END_TEST

/* Under the default plan a 32-bit event counter wraps every few samples:
 * each wrap is counted from the captured flags (PMOVSSR), so every delta is
 * exact, and the 64-bit cycle copy needs no flag. */
START_TEST(default_plan_counts_every_overflow)
{
    struct pp_cap_config cfg = config(0, 40);
    struct hook h = { .advance_ns = 500 * MS };     /* 1.5e9 instructions a sample */
    struct collector col = { 0 };
    struct pp_cap *c = new_cap(&cfg, &h);

    add(c, 0, "cycles,instructions");
    ck_assert(c->core[0].ext.snapshot);
    program_all(c);
    run(c, &col);
    assert_exact(&col, &h, 0, 1, 40);
    ck_assert_uint_gt(val(&col, 40, 0, 1)->total, 10ull << 32);
    finish(c, &col);
}
END_TEST

/* Without EDPRSR in the batch (--no-edprsr) every sample reads the whole
 * programming check: PMCR.E, reset to 0, is then what shows the power
 * cycle, in the sample after it, as a gap (never a delta). */
START_TEST(without_edprsr_every_sample_reads_the_whole_programming_check)
{
    struct pp_cap_config cfg = config(0, 8);
    struct hook h = { .advance_ns = 1 * MS, .fault = power_cycle_cpu0_at_5 };
    struct collector col = { 0 };
    struct pp_cap *c;

    cfg.no_edprsr = true;
    cfg.retry_ns = UINT64_MAX / 4;     /* stays out: the gap is what is checked */
    c = new_cap(&cfg, &h);
    add(c, 0, "cycles,instructions");
    program_all(c);
    run(c, &col);
    /* PMCR, PMCNTENSET, DBGCLAIMCLR, PMCCFILTR, PMEVTYPER0 */
    ck_assert_uint_eq(c->core[0].guard.n, 5);
    ck_assert_uint_eq(c->guard_per_sample, 5);
    assert_exact(&col, &h, 0, 1, 4);
    ck_assert_uint_eq(cst(&col, 5, 0)->status, PP_CAP_GAP);
    ck_assert_uint_eq(cst(&col, 5, 0)->cause, PP_CAUSE_CORE_OFF);
    finish(c, &col);
}
END_TEST

static void refuse_capture_at_5(struct hook *h, uint64_t seq)
{
    (void)h;
    if (seq == 5)
        ck_assert_int_eq(pp_sim_set_snapshot_refused(rig.sim, 0, true), PP_OK);
    if (seq == 6)
        ck_assert_int_eq(pp_sim_set_snapshot_refused(rig.sim, 0, false), PP_OK);
}

/* A capture the block refuses (PMSSSR.NC = 1: the copies are the last
 * sample's) is a discontinuity in that very sample, never a delta of 0
 * taken for an idle core; the next sample is a new baseline. */
START_TEST(default_plan_sees_a_refused_snapshot)
{
    struct pp_cap_config cfg = config(0, 10);
    struct hook h = { .advance_ns = 1 * MS, .fault = refuse_capture_at_5 };
    struct collector col = { 0 };
    struct pp_cap *c = new_cap(&cfg, &h);

    add(c, 0, "cycles,instructions");
    ck_assert(c->core[0].ext.snapshot);
    program_all(c);
    run(c, &col);
    assert_exact(&col, &h, 0, 1, 4);
    ck_assert_uint_eq(cst(&col, 5, 0)->status, PP_CAP_DISCONT);
    ck_assert_uint_eq(cst(&col, 5, 0)->why & PP_EXT_WHY_NOCAPTURE, PP_EXT_WHY_NOCAPTURE);
    ck_assert_uint_eq(cst(&col, 5, 0)->discont, 3u);
    ck_assert_uint_eq(val(&col, 5, 0, 1)->delta, 0);
    ck_assert_uint_eq(cst(&col, 6, 0)->status, PP_CAP_DISCONT);
    assert_exact(&col, &h, 0, 7, 10);
    finish(c, &col);
}
END_TEST

/* The core loses power after pmuprobe programmed it, before the first
 * sample: its PMU is back at reset values with nothing counting. */
static void power_cycle_before_the_first_sample(struct hook *h, uint64_t seq)
{
    (void)h;
    if (seq == 0)
        power_cycle_at_5(h, 5);
}

START_TEST(power_cycle_before_the_first_sample_reprograms_the_core)
{
    struct pp_cap_config cfg = config(0, 10);
    struct hook h = { .advance_ns = 1 * MS, .fault = power_cycle_before_the_first_sample };
    struct collector col = { 0 };
    struct pp_cap *c = new_cap(&cfg, &h);

    add(c, 2, "cycles,instructions");
    program_all(c);
    run(c, &col);
    ck_assert_uint_eq(cst(&col, 0, 0)->status, PP_CAP_DISCONT);
    ck_assert_uint_eq(cst(&col, 0, 0)->why & (PP_EXT_WHY_START | PP_EXT_WHY_POWER),
                      PP_EXT_WHY_START | PP_EXT_WHY_POWER);
    /* programmed again at once: sample 1 is the new baseline, then every
     * delta is the simulated count, not a run of zeros */
    ck_assert_uint_eq(cst(&col, 1, 0)->status, PP_CAP_DISCONT);
    assert_exact(&col, &h, 0, 2, 10);
    ck_assert_uint_gt(val(&col, 10, 0, 0)->total, 0);
    ck_assert_uint_gt(val(&col, 10, 0, 1)->total, 0);
    finish(c, &col);
}
END_TEST

static void power_on_cpu0_at_3(struct hook *h, uint64_t seq)
{
    (void)h;
    if (seq != 3)
        return;
    power_up(0);
}

/* cpu0 (Cortex-A76, snapshot block) counting cycles and instructions,
 * powered off when the capture programs it (so the programming fails and
 * PMCFGR cannot be read), on at sample 3, retried at once. */
static struct pp_cap *cpu0_off_at_start(struct pp_cap_config *cfg, struct hook *h)
{
    struct pp_cap *c;
    char msg[512];

    h->advance_ns = 1 * MS;
    h->fault = power_on_cpu0_at_3;
    cfg->retry_ns = 1;
    c = new_cap(cfg, h);
    add(c, 0, "cycles,instructions");
    ck_assert(c->core[0].ext.snapshot);
    ck_assert_int_eq(pp_sim_set_power(rig.sim, 0, false), PP_OK);
    ck_assert_int_ne(pp_cap_program(c, 0, 0, msg, sizeof(msg)), PP_OK);
    return c;
}

/* A core off when the capture starts cannot show PMCFGR.SS, so the
 * default plan does not take its snapshot block on the table's word: it
 * reads the core live, and counts exactly once the core answers. */
START_TEST(default_plan_reads_a_core_off_at_start_live)
{
    struct pp_cap_config cfg = config(0, 10);
    struct hook h = { 0 };
    struct collector col = { 0 };
    struct pp_cap *c = cpu0_off_at_start(&cfg, &h);

    ck_assert(!c->core[0].ext.snapshot);
    run(c, &col);
    ck_assert(!col.meta.snapshot);
    ck_assert_uint_eq(cst(&col, 0, 0)->status, PP_CAP_GAP);
    ck_assert_uint_eq(cst(&col, 10, 0)->status, PP_CAP_OK);
    assert_exact(&col, &h, 0, 5, 10);
    finish(c, &col);
}
END_TEST

/* A description that claims a snapshot block the silicon lacks, on a core
 * off at start: --snapshot keeps the block (nothing says otherwise yet)
 * and checks PMCFGR.SS when the core rejoins.  SS is clear, so the core
 * stays a gap: its block would read zeros, and PMSSSR.NC 0, which would
 * pass for captured copies of counters that never move.  The summary's
 * diagnosis says why and what to do. */
START_TEST(a_core_that_rejoins_without_its_snapshot_block_stays_a_gap)
{
    struct pp_cap_config cfg = config(0, 10);
    struct hook h = { 0 };
    struct collector col = { 0 };
    const struct pp_diag *d;
    struct pp_cap *c;

    /* The simulator's own copy of the description is the silicon. */
    ((struct pp_core_desc *)pp_target_core(pp_sim_target(rig.sim), 0))->snapshot = false;
    ck_assert(pp_target_core(rig.t, 0)->snapshot);
    cfg.snapshot = true;
    c = cpu0_off_at_start(&cfg, &h);
    ck_assert(c->core[0].ext.snapshot);
    run(c, &col);
    for (size_t i = 0; i <= 10; i++)
        ck_assert_msg(cst(&col, i, 0)->status == PP_CAP_GAP, "sample %zu: status %u", i,
                      cst(&col, i, 0)->status);
    d = pp_cap_core_diag(c, 0, NULL);
    ck_assert_ptr_nonnull(strstr(d->evidence, "SS (bit 22) clear"));
    ck_assert_ptr_nonnull(d->remedy);
    ck_assert_ptr_nonnull(strstr(d->remedy, "without --snapshot"));
    finish(c, &col);
}
END_TEST

/* A bus whose second read of PMCFGR at addr after it is armed fails: of a
 * rejoin, the diagnosis reads it first (lib/pmu/diag.c), then the snapshot
 * check (capture.c check_snapshot). */
struct flaky {
    struct pp_bus *inner;
    uint32_t addr;
    bool armed;
    unsigned seen;
};

static struct flaky *flaky_now;

static int flaky_run(struct pp_bus *bus, struct pp_op *ops, size_t n)
{
    struct flaky *f = bus->priv;
    int rc = pp_bus_run(f->inner, ops, n);

    for (size_t i = 0; f->armed && i < n; i++) {
        if (ops[i].addr != f->addr || ops[i].write || ++f->seen != 2)
            continue;
        ops[i].st = PP_OP_SLVERR;
        if (rc == PP_OK)
            rc = pp_op_status_err(PP_OP_SLVERR);
    }
    return rc;
}

static void flaky_close(struct pp_bus *bus)
{
    (void)bus;
}

static const struct pp_bus_ops flaky_ops = { .name = "flaky", .run = flaky_run,
                                             .close = flaky_close };

static void power_on_cpu0_at_3_and_arm(struct hook *h, uint64_t seq)
{
    power_on_cpu0_at_3(h, seq);
    if (seq == 3)
        flaky_now->armed = true;
}

/* --snapshot on a core off at start, whose PMCFGR answers the diagnosis
 * of its rejoin and then fails the snapshot check: the block is not
 * confirmed, so that rejoin is refused (sample 4 a gap, the diagnosis
 * naming PMCFGR); the next retry reads SS set and the core joins. */
START_TEST(a_rejoin_whose_pmcfgr_cannot_be_read_is_refused_until_it_can)
{
    struct flaky f = { .inner = rig.bus, .addr = pp_target_core(rig.t, 0)->pmu_base +
                                                 PP_PMU_PMCFGR };
    struct pp_bus *bus = pp_bus_new(&flaky_ops, &f);
    struct pp_cap_config cfg = config(0, 10);
    struct hook h = { 0 };
    struct collector col = { 0 };
    const struct pp_diag *d;
    struct pp_cap *c;

    flaky_now = &f;
    cfg.bus = bus;
    cfg.snapshot = true;
    c = cpu0_off_at_start(&cfg, &h);
    h.fault = power_on_cpu0_at_3_and_arm;
    run(c, &col);
    ck_assert_uint_ge(f.seen, 2);
    for (size_t i = 0; i <= 4; i++)
        ck_assert_msg(cst(&col, i, 0)->status == PP_CAP_GAP, "sample %zu: status %u", i,
                      cst(&col, i, 0)->status);
    for (size_t i = 5; i <= 10; i++)
        ck_assert_msg(cst(&col, i, 0)->status != PP_CAP_GAP, "sample %zu: a gap", i);
    d = pp_cap_core_diag(c, 0, NULL);
    ck_assert_msg(strstr(d->evidence, "PMCFGR cannot be read") != NULL, "%s", d->evidence);
    finish(c, &col);
    pp_bus_close(bus);
}
END_TEST

/* A bus that, once armed, fails every op of its next batch (the sample's:
 * the hook arms it just before) with a message of its own, or with none,
 * and then works again: the core answers its diagnosis. */
struct garble {
    struct pp_bus *inner;
    const char *say;                  /* the batch's message; NULL: none */
    const char *before;               /* said before the capture; NULL: nothing */
    bool armed;
};

static struct garble *garble_now;

static int garble_run(struct pp_bus *bus, struct pp_op *ops, size_t n)
{
    struct garble *g = bus->priv;

    if (!g->armed)
        return pp_bus_run(g->inner, ops, n);
    g->armed = false;
    for (size_t i = 0; i < n; i++)
        ops[i].st = PP_OP_FAULT;
    if (g->say)
        pp_bus_set_errmsg(bus, "%s", g->say);
    return pp_op_status_err(PP_OP_FAULT);
}

static const struct pp_bus_ops garble_ops = { .name = "garble", .run = garble_run,
                                              .close = flaky_close };

static void garble_at_3(struct hook *h, uint64_t seq)
{
    (void)h;
    if (seq == 3)
        garble_now->armed = true;
}

/* Runs 6 samples of cpu0's cycles over g; sample 3's batch fails. */
static const struct pp_diag *run_garbled(struct garble *g, struct pp_cap **c,
                                         struct collector *col, struct pp_bus **bus)
{
    struct pp_cap_config cfg = config(0, 6);
    struct hook h = { .fault = garble_at_3 };
    char msg[512];

    garble_now = g;
    *bus = pp_bus_new(&garble_ops, g);
    if (g->before)
        pp_bus_set_errmsg(*bus, "%s", g->before);
    cfg.bus = *bus;
    *c = new_cap(&cfg, &h);
    add(*c, 0, "cycles");
    ck_assert_int_eq(pp_cap_program(*c, 0, 0, msg, sizeof(msg)), PP_OK);
    run(*c, col);
    ck_assert_uint_eq(cst(col, 3, 0)->status, PP_CAP_GAP);
    ck_assert_uint_eq(cst(col, 3, 0)->cause, PP_CAUSE_UNKNOWN);
    return pp_cap_core_diag(*c, 0, NULL);
}

START_TEST(a_failure_the_core_does_not_explain_is_diagnosed_by_the_paths_message)
{
    struct garble g = { .inner = rig.bus, .say = "OpenOCD answered 3 values for 8 words" };
    struct collector col = { 0 };
    struct pp_bus *bus;
    struct pp_cap *c;
    const struct pp_diag *d = run_garbled(&g, &c, &col, &bus);

    ck_assert_int_eq(d->cause, PP_CAUSE_UNKNOWN);
    ck_assert_str_eq(d->evidence, "OpenOCD answered 3 values for 8 words");
    ck_assert_ptr_nonnull(d->remedy);
    ck_assert_ptr_nonnull(strstr(d->remedy, "access path's message"));
    finish(c, &col);
    pp_bus_close(bus);
}
END_TEST

/* pp_bus_errmsg keeps the last error of any earlier call: a failure the
 * path said nothing about must not be pinned on it. */
START_TEST(a_failure_the_path_said_nothing_of_does_not_quote_an_older_message)
{
    struct garble g = { .inner = rig.bus, .say = NULL, .before = "an older failure" };
    struct collector col = { 0 };
    struct pp_bus *bus;
    struct pp_cap *c;
    const struct pp_diag *d = run_garbled(&g, &c, &col, &bus);

    ck_assert_str_eq(pp_bus_errmsg(bus), "an older failure");
    ck_assert_int_eq(d->cause, PP_CAUSE_NONE);          /* the core's own diagnosis */
    ck_assert_msg(strstr(d->evidence, "older") == NULL, "%s", d->evidence);
    finish(c, &col);
    pp_bus_close(bus);
}
END_TEST

START_TEST(core_that_cannot_be_programmed_is_a_gap_and_joins_when_it_answers)
{
    struct pp_cap_config cfg = config(0, 10);
    struct hook h = { .advance_ns = 1 * MS };
    struct collector col = { 0 };
    struct pp_cap *c;
    char msg[512];

    cfg.retry_ns = 1;
    c = new_cap(&cfg, &h);
    add(c, 0, "cycles");
    add(c, 1, "cycles");
    ck_assert_int_eq(pp_sim_set_oslock(rig.sim, 1, true), PP_OK);
    ck_assert_int_eq(pp_cap_program(c, 0, 0, msg, sizeof(msg)), PP_OK);
    ck_assert_int_eq(pp_cap_program(c, 1, 0, msg, sizeof(msg)), PP_E_SLVERR);
    ck_assert_ptr_nonnull(strstr(msg, "cpu1"));
    ck_assert_ptr_nonnull(strstr(msg, "OS lock"));
    h.fault = NULL;
    run(c, &col);
    ck_assert_uint_eq(cst(&col, 0, 1)->status, PP_CAP_GAP);
    ck_assert_uint_eq(cst(&col, 0, 1)->cause, PP_CAUSE_OS_LOCK);
    ck_assert_uint_eq(cst(&col, 10, 1)->status, PP_CAP_GAP);
    assert_exact(&col, &h, 0, 1, 10);
    finish(c, &col);
}
END_TEST

/* ---- observe --------------------------------------------------------------------------------- */

START_TEST(observe_counts_what_the_target_programmed_without_writing)
{
    struct pp_cap_config cfg = config(0, 30);
    struct hook h = { .advance_ns = 400 * MS };      /* wraps, below 2^31 per sample */
    struct collector col = { 0 };
    const struct pp_core_desc *a53 = pp_target_core(rig.t, 2);
    struct pp_evsel ev[2];
    struct pp_pmu_prog p;
    struct pp_sim_stats s0, s1;
    struct pp_cap *c;
    char err[256] = "";

    ck_assert_int_eq(pp_event_resolve(a53->type, "instructions", &ev[0], err, sizeof(err)), 0);
    ck_assert_int_eq(pp_event_resolve(a53->type, "cycles", &ev[1], err, sizeof(err)), 0);
    ck_assert_int_eq(pp_pmu_allocate(a53, ev, 2, &p, err, sizeof(err)), PP_OK);
    ck_assert_int_eq(pp_pmu_program(rig.bus, a53, &p), PP_OK);      /* "the target's perf" */
    cfg.observe = true;
    c = new_cap(&cfg, &h);
    ck_assert_msg(pp_cap_add_observed(c, a53, err, sizeof(err)) == PP_OK, "%s", err);
    ck_assert_uint_eq(pp_cap_meta(c)->core[0].nev, 2);
    ck_assert_str_eq(pp_cap_meta(c)->core[0].ev[0].name, "cycles");
    ck_assert_str_eq(pp_cap_meta(c)->core[0].ev[1].name, "INST_RETIRED");
    program_all(c);                                  /* nothing under observe */
    pp_sim_get_stats(rig.sim, &s0);
    run(c, &col);
    pp_sim_get_stats(rig.sim, &s1);
    ck_assert_uint_eq(s1.writes, s0.writes);
    assert_exact(&col, &h, 0, 1, 30);
    ck_assert_uint_gt(val(&col, 30, 0, 1)->total, 2ull << 32);
    pp_cap_release(c);
    pp_sim_get_stats(rig.sim, &s0);
    ck_assert_uint_eq(s0.writes, s1.writes);
    finish(c, &col);
}
END_TEST

START_TEST(observe_on_a_core_where_nothing_counts_is_refused)
{
    struct pp_cap_config cfg = config(0, 1);
    struct pp_cap *c;
    char err[256] = "";

    cfg.observe = true;
    c = new_cap(&cfg, NULL);
    ck_assert_int_eq(pp_cap_add_observed(c, pp_target_core(rig.t, 0), err, sizeof(err)),
                     PP_E_NOTFOUND);
    ck_assert_ptr_nonnull(strstr(err, "nothing is counting"));
    pp_cap_free(c);
}
END_TEST

/* ---- ring policies --------------------------------------------------------------------------- */

START_TEST(slow_writer_under_block_loses_nothing_and_the_wait_shows_as_lateness)
{
    struct pp_cap_config cfg = config(100000, 40);   /* 100 us */
    struct collector col = { .delay_us = 5000 };      /* slower than any sample */
    struct pp_cap *c;

    cfg.ring_slots = 4;
    cfg.policy = PP_CAP_POLICY_BLOCK;
    c = new_cap(&cfg, NULL);
    add(c, 0, "cycles,instructions");
    program_all(c);
    run(c, &col);
    ck_assert_uint_eq(col.n, 41);
    for (size_t i = 0; i < col.n; i++) {
        ck_assert_uint_eq(rec(&col, i)->kind, PP_CAP_SAMPLE);
        ck_assert_uint_eq(rec(&col, i)->seq, i);
    }
    ck_assert_uint_eq(col.sum.dropped, 0);
    ck_assert_uint_gt(col.sum.blocked_ns, 0);
    ck_assert_uint_gt(col.sum.late, 0);
    ck_assert_uint_gt(rec(&col, 40)->late_ns, 0);
    finish(c, &col);
}
END_TEST

START_TEST(slow_writer_under_drop_counts_drops_and_leaves_drop_records)
{
    struct pp_cap_config cfg = config(0, 100);
    struct collector col = { .delay_us = 5000 };      /* slower than any sample */
    struct pp_cap *c;
    uint64_t next = 0, dropped = 0, drop_recs = 0;

    cfg.ring_slots = 4;
    cfg.policy = PP_CAP_POLICY_DROP;
    c = new_cap(&cfg, NULL);
    add(c, 0, "cycles");
    program_all(c);
    run(c, &col);
    /* seq is continuous: every sample is either a record or inside a DROP */
    for (size_t i = 0; i < col.n; i++) {
        const struct pp_cap_sample *r = rec(&col, i);

        ck_assert_uint_eq(r->seq, next);
        if (r->kind == PP_CAP_DROP) {
            ck_assert_uint_gt(r->dropped, 0);
            dropped += r->dropped;
            drop_recs++;
            next += r->dropped;
        } else {
            next++;
        }
    }
    ck_assert_uint_eq(next, 101);
    ck_assert_uint_gt(drop_recs, 0);
    ck_assert_uint_eq(dropped, col.sum.dropped);
    ck_assert_uint_eq(col.sum.samples, 101);
    ck_assert_uint_eq(col.sum.written, col.n);
    finish(c, &col);
}
END_TEST

/* ---- --duration is a promise --------------------------------------------------------------- */

/* A path slower than the interval: every sample costs the sampler at
 * least 30 ms (sleeping only makes it slower, never faster). */
static void slow_path(struct hook *h, uint64_t seq)
{
    struct timespec ts = { 0, 30 * (long)MS };

    (void)h;
    (void)seq;
    nanosleep(&ts, NULL);
}

/* seq is continuous from 0 to the end of the schedule: every sample is a
 * record or inside a DROP record.  Returns the sample records. */
static uint64_t walk_schedule(const struct collector *col, uint64_t want_end,
                              uint64_t *dropped)
{
    uint64_t next = 0, taken = 0;

    *dropped = 0;
    for (size_t i = 0; i < col->n; i++) {
        const struct pp_cap_sample *r = rec(col, i);

        ck_assert_uint_eq(r->seq, next);
        if (r->kind == PP_CAP_DROP) {
            *dropped += r->dropped;
            next += r->dropped;
        } else {
            taken++;
            next++;
        }
    }
    ck_assert_uint_eq(next, want_end);
    return taken;
}

static void duration_on_a_slow_path(enum pp_cap_policy policy)
{
    struct pp_cap_config cfg = config(10 * MS, 0);
    struct hook h = { .fault = slow_path };
    struct collector col = { 0 };
    struct pp_cap *c;
    uint64_t taken, dropped;

    cfg.duration_ns = 300 * MS;        /* the schedule: samples 0..30 */
    cfg.policy = policy;
    c = new_cap(&cfg, &h);
    add(c, 0, "cycles");
    program_all(c);
    run(c, &col);
    ck_assert_int_eq(col.sum.stop, PP_CAP_STOP_DONE);
    taken = walk_schedule(&col, 31, &dropped);
    /* Each sample held the sampler 30 ms, and none after the baseline
     * starts once the deadline after the last has come (310 ms after the
     * baseline): sample k starts at least 30 (k - 1) ms after it, so at
     * most 12 are taken, whatever the load; the rest are accounted for,
     * not taken late. */
    ck_assert_uint_le(taken, 12);
    ck_assert_uint_eq(col.sum.samples, taken);
    ck_assert_uint_eq(col.sum.samples + col.sum.missed, 31);
    ck_assert_uint_eq(col.sum.missed, dropped);
    ck_assert_uint_eq(col.sum.dropped, dropped);
    ck_assert_uint_eq(col.sum.written, col.n);
    finish(c, &col);
}

START_TEST(duration_on_a_path_slower_than_the_interval_ends_on_schedule_under_block)
{
    duration_on_a_slow_path(PP_CAP_POLICY_BLOCK);
}
END_TEST

START_TEST(duration_on_a_path_slower_than_the_interval_ends_on_schedule_under_drop)
{
    duration_on_a_slow_path(PP_CAP_POLICY_DROP);
}
END_TEST

/* With --count the count is the promise: a slow path takes every sample,
 * late. */
START_TEST(count_on_a_path_slower_than_the_interval_takes_every_sample_late)
{
    struct pp_cap_config cfg = config(10 * MS, 5);
    struct hook h = { .fault = slow_path };
    struct collector col = { 0 };
    struct pp_cap *c;
    uint64_t dropped;

    c = new_cap(&cfg, &h);
    add(c, 0, "cycles");
    program_all(c);
    run(c, &col);
    ck_assert_uint_eq(walk_schedule(&col, 6, &dropped), 6);
    ck_assert_uint_eq(dropped, 0);
    ck_assert_uint_eq(col.sum.missed, 0);
    ck_assert_uint_gt(col.sum.late, 0);
    finish(c, &col);
}
END_TEST

/* ---- stopping ------------------------------------------------------------------------------ */

START_TEST(stop_request_ends_the_capture_with_a_complete_output)
{
    struct pp_cap_config cfg = config(1 * MS, 0);
    struct collector col = { 0 };
    struct pp_cap_out out = col_out(&col);
    struct pp_cap_progress p;
    struct pp_cap *c = new_cap(&cfg, NULL);

    add(c, 0, "cycles");
    program_all(c);
    ck_assert_int_eq(pp_cap_start(c, &out), PP_OK);
    ck_assert(!pp_cap_wait(c, 20 * MS));            /* no limit: still running */
    pp_cap_stop(c);
    ck_assert(pp_cap_wait(c, UINT64_MAX));
    pp_cap_progress(c, &p);
    ck_assert(p.done);
    ck_assert(col.ended);
    ck_assert_int_eq(col.sum.stop, PP_CAP_STOP_SIGNAL);
    ck_assert_uint_ge(col.n, 1);
    ck_assert_uint_eq(col.sum.written, col.n);
    ck_assert_uint_eq(pp_cap_summary(c)->samples, col.n);
    finish(c, &col);
}
END_TEST

START_TEST(failed_output_stops_the_capture_and_still_ends_it)
{
    struct pp_cap_config cfg = config(100000, 0);     /* no limit but the failure */
    struct collector col = { .fail_after = 5 };
    struct pp_cap *c = new_cap(&cfg, NULL);

    add(c, 0, "cycles");
    program_all(c);
    run(c, &col);
    ck_assert_int_eq(col.sum.stop, PP_CAP_STOP_SINK);
    ck_assert_ptr_nonnull(strstr(col.sum.stop_msg, "write refused"));
    ck_assert_uint_eq(col.sum.written, 5);
    ck_assert_uint_ge(col.sum.samples, 5);
    finish(c, &col);
}
END_TEST

START_TEST(release_stops_the_counters_and_clears_the_claim)
{
    struct pp_cap_config cfg = config(0, 2);
    struct collector col = { 0 };
    struct pp_cap *c = new_cap(&cfg, NULL);
    struct pp_pmu_state st;

    add(c, 2, "cycles,instructions");
    program_all(c);
    ck_assert_int_eq(pp_pmu_read_state(rig.bus, pp_target_core(rig.t, 2), &st), PP_OK);
    ck_assert_uint_eq(st.claim & PP_CLAIM_EXTERNAL, PP_CLAIM_EXTERNAL);
    run(c, &col);
    pp_cap_release(c);
    ck_assert_int_eq(pp_pmu_read_state(rig.bus, pp_target_core(rig.t, 2), &st), PP_OK);
    ck_assert_uint_eq(st.pmcr & PP_PMCR_E, 0);
    ck_assert_uint_eq(st.claim & PP_CLAIM_EXTERNAL, 0);
    finish(c, &col);
}
END_TEST

/* ---- taken over ---------------------------------------------------------------------------------- */

/* What another agent does to cpu2 (Cortex-A53) before sample 5. */
struct takeover {
    const char *what;
    uint32_t off;                 /* PMU block offset, or ~0: a second client */
    uint32_t val;
    unsigned client;              /* 1: a second stream (configure, live tag),
                                   * 2: config -e --steal, 3: config --stop --steal */
    const char *evidence;
};

static const struct takeover takeovers[] = {
    { "reprograms PMEVTYPER0",     0x400u, 0x03u,        0, "PMEVTYPER0=0x00000003" },
    { "reprograms PMCCFILTR",      0x47Cu, 0x80000000u,  0, "PMCCFILTR=0x80000000" },
    { "disables counter 0",        0xC20u, 0x1u,         0, "PMCNTENSET=0x80000000" },
    { "disables the cycle counter", 0xC20u, 0x80000000u, 0, "PMCNTENSET=0x00000001" },
    { "clears PMCR.E",             0xE04u, 0x0u,         0, "PMCR=0x" },
    { "a second stream --steal, same events", ~0u, 0,    1, "DBGCLAIMCLR=0x00000009" },
    { "config -e --steal, same events",       ~0u, 0,    2, "DBGCLAIMCLR=0x00000001" },
    /* the stop clears PMCR.E as well as the claim: PMCR comes round first */
    { "config --stop --steal",                ~0u, 0,    3, "PMCR=0x00000040 (E=0)" },
};

static const struct takeover *the_takeover;

static void take_cpu2_at_5(struct hook *h, uint64_t seq)
{
    const struct takeover *t = the_takeover;
    const struct pp_core_desc *a53 = pp_target_core(rig.t, 2);
    struct pp_pmu_prog p;
    struct pp_pmu_state st;
    struct pp_evsel ev[2];
    char err[512];

    (void)h;
    if (seq != 5)
        return;
    if (t->client == 0) {
        ck_assert_int_eq(pp_bus_write32(rig.bus, a53->pmu_base + t->off, t->val), PP_OK);
        return;
    }
    if (t->client == 3) {
        ck_assert_int_eq(pp_pmu_read_state(rig.bus, a53, &st), PP_OK);
        ck_assert_int_eq(pp_pmu_control(rig.bus, a53, &st, PP_CTL_STOP | PP_CTL_RELEASE),
                         PP_OK);
        return;
    }
    ck_assert_int_eq(pp_event_resolve(a53->type, "cycles", &ev[0], err, sizeof(err)), PP_OK);
    ck_assert_int_eq(pp_event_resolve(a53->type, "instructions", &ev[1], err, sizeof(err)),
                     PP_OK);
    ck_assert_int_eq(pp_pmu_allocate(a53, ev, 2, &p, err, sizeof(err)), PP_OK);
    /* without --steal it is refused, naming the running capture */
    ck_assert_int_eq(pp_pmu_configure_ex(rig.bus, a53, &p, t->client == 1 ? PP_PROG_LIVE : 0,
                                         0, &st, err, sizeof(err)), PP_E_BUSY);
    ck_assert_msg(strstr(err, "a running capture") != NULL, "%s", err);
    ck_assert_int_eq(pp_pmu_configure_ex(rig.bus, a53, &p, PP_PROG_FORCE |
                                         (t->client == 1 ? PP_PROG_LIVE : 0), 0, &st, err,
                                         sizeof(err)), PP_OK);
}

/* The programming check reads one of its registers per sample at -i 0
 * (plan.c): cpu0 and cpu2 with cycles and instructions have PMCR,
 * PMCNTENSET, DBGCLAIMCLR, PMCCFILTR and PMEVTYPER0 each, so every
 * register comes round within K = 10 samples. */
#define TAKEOVER_K 10u
#define TAKEOVER_N 30u

START_TEST(counters_taken_by_another_agent_are_gaps_within_k_samples)
{
    const struct takeover *t = &takeovers[_i];
    struct pp_cap_config cfg = config(0, TAKEOVER_N);
    struct hook h = { .advance_ns = 1 * MS, .fault = take_cpu2_at_5 };
    struct collector col = { 0 };
    const struct pp_core_desc *a53 = pp_target_core(rig.t, 2);
    struct pp_pmu_state before, after;
    struct pp_cap *c;
    uint64_t episodes;
    const struct pp_diag *dg;
    size_t d;

    the_takeover = t;
    cfg.retry_ns = 1;                  /* a core that could rejoin would, at once */
    c = new_cap(&cfg, &h);
    add(c, 0, "cycles,instructions");
    add(c, 2, "cycles,instructions");  /* cpu2, the one taken */
    program_all(c);
    run(c, &col);
    ck_assert_uint_eq(col.n, TAKEOVER_N + 1);
    assert_exact(&col, &h, 0, 1, TAKEOVER_N);  /* the other core never notices */
    assert_exact(&col, &h, 1, 1, 4);
    /* seen within K samples of the takeover at sample 5, a gap from then on */
    for (d = 5; d <= TAKEOVER_N && cst(&col, d, 1)->status != PP_CAP_GAP; d++)
        ;
    ck_assert_msg(d < 5 + TAKEOVER_K, "%s: first gap at sample %zu, not within %u samples of 5",
                  t->what, d, TAKEOVER_K);
    for (size_t s = d; s <= TAKEOVER_N; s++) {
        ck_assert_msg(cst(&col, s, 1)->status == PP_CAP_GAP, "%s: sample %zu status %u why "
                      "0x%x", t->what, s, cst(&col, s, 1)->status, cst(&col, s, 1)->why);
        ck_assert_uint_eq(cst(&col, s, 1)->cause, PP_CAUSE_TAKEN_OVER);
        ck_assert_uint_eq(val(&col, s, 1, 1)->delta, 0);
        ck_assert_uint_eq(val(&col, s, 1, 1)->total, val(&col, d - 1, 1, 1)->total);
    }
    ck_assert_uint_eq(col.sum.gaps[1][PP_CAUSE_TAKEN_OVER], TAKEOVER_N + 1 - d);
    dg = pp_cap_core_diag(c, 1, &episodes);
    ck_assert_int_eq(dg->cause, PP_CAUSE_TAKEN_OVER);
    ck_assert_msg(strstr(dg->evidence, t->evidence) != NULL, "%s: evidence '%s', expected '%s'",
                  t->what, dg->evidence, t->evidence);
    ck_assert_uint_eq(episodes, 1);
    /* the end of the capture leaves the new owner's PMU as it was, and
     * drops its own claim tags where the new owner left them */
    ck_assert_int_eq(pp_pmu_read_state(rig.bus, a53, &before), PP_OK);
    pp_cap_release(c);
    ck_assert_int_eq(pp_pmu_read_state(rig.bus, a53, &after), PP_OK);
    ck_assert_uint_eq(after.pmcr, before.pmcr);
    ck_assert_uint_eq(after.cntenset, before.cntenset);
    ck_assert_uint_eq(after.evtyper[0], before.evtyper[0]);
    ck_assert_uint_eq(after.claim, t->client == 0 ? 0 : before.claim);
    finish(c, &col);
}
END_TEST

START_TEST(a_second_capture_on_a_programmed_core_is_refused_unless_forced)
{
    struct pp_cap_config cfg = config(0, 2);
    struct pp_cap *c1 = new_cap(&cfg, NULL), *c2 = new_cap(&cfg, NULL);
    const struct pp_core_desc *a53 = pp_target_core(rig.t, 2);
    struct pp_pmu_state st;
    char msg[512];

    add(c1, 2, "cycles,instructions");
    add(c2, 2, "cycles,instructions");
    program_all(c1);
    ck_assert_int_eq(pp_pmu_read_state(rig.bus, a53, &st), PP_OK);
    ck_assert_uint_eq(st.claim, PP_CLAIM_EXTERNAL | PP_CLAIM_LIVE0);
    ck_assert_int_eq(pp_cap_program(c2, 0, 0, msg, sizeof(msg)), PP_E_BUSY);
    ck_assert_msg(strstr(msg, "cpu2: a running capture") != NULL, "%s", msg);
    ck_assert_int_eq(pp_pmu_read_state(rig.bus, a53, &st), PP_OK);
    ck_assert_uint_eq(st.claim, PP_CLAIM_EXTERNAL | PP_CLAIM_LIVE0);   /* nothing written */
    /* forced, it holds the other live tag and clears the first's */
    ck_assert_int_eq(pp_cap_program(c2, 0, PP_CAP_FORCE, msg, sizeof(msg)), PP_OK);
    ck_assert_int_eq(pp_pmu_read_state(rig.bus, a53, &st), PP_OK);
    ck_assert_uint_eq(st.claim, PP_CLAIM_EXTERNAL | PP_CLAIM_LIVE1);
    pp_cap_free(c1);
    pp_cap_free(c2);
}
END_TEST

/* ---- the batch -------------------------------------------------------------------------------- */

/* A path that passes batches to the sim and notes them (and can repeat). */
struct spy {
    struct pp_bus *inner;
    uint64_t runs, repeats;
    uint32_t first[64];
    size_t nfirst;
};

static int spy_run(struct pp_bus *bus, struct pp_op *ops, size_t n)
{
    struct spy *s = bus->priv;

    if (s->runs++ == 0)
        for (size_t i = 0; i < n && i < 64; i++)
            s->first[s->nfirst++] = ops[i].addr;
    return pp_bus_run(s->inner, ops, n);
}

/* The OpenOCD-side loop in miniature: target time moves one interval
 * between repetitions. */
static int spy_repeat(struct pp_bus *bus, struct pp_op *ops, size_t n, unsigned count,
                      uint64_t interval_ns, uint64_t *t_ns, struct pp_bus_window *win)
{
    struct spy *s = bus->priv;
    int rc = PP_OK, r;

    s->repeats++;
    for (unsigned k = 0; k < count; k++) {
        struct timespec ts;

        uint64_t lo;

        if (k)
            pp_sim_advance_ns(rig.sim, interval_ns);
        clock_gettime(CLOCK_MONOTONIC, &ts);
        lo = (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
        r = pp_bus_run(s->inner, ops + (size_t)k * n, n);
        rc = rc == PP_OK ? r : rc;
        clock_gettime(CLOCK_MONOTONIC, &ts);
        t_ns[k] = (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
        if (win)
            win[k] = (struct pp_bus_window){ lo, t_ns[k] };
    }
    return rc;
}

static void spy_close(struct pp_bus *bus)
{
    (void)bus;
}

static const struct pp_bus_ops spy_ops = { .name = "spy", .run = spy_run, .close = spy_close };
static const struct pp_bus_ops spy_repeat_ops = { .name = "spy", .run = spy_run,
                                                  .run_repeat = spy_repeat,
                                                  .close = spy_close };

START_TEST(one_bus_batch_per_sample_with_cores_in_address_order)
{
    struct spy s = { .inner = rig.bus };
    struct pp_bus *bus = pp_bus_new(&spy_ops, &s);
    struct pp_cap_config cfg = config(0, 9);
    struct collector col = { 0 };
    struct pp_cap *c;
    struct pp_bus_stats b0, b1;

    cfg.bus = bus;
    c = new_cap(&cfg, NULL);
    add(c, 0, "cycles,instructions");      /* PMU 0x81030000 */
    add(c, 2, "cycles,instructions");      /* PMU 0x80030000 */
    program_all(c);
    pp_bus_get_stats(bus, &b0);
    s.runs = 0;
    s.nfirst = 0;
    run(c, &col);
    pp_bus_get_stats(bus, &b1);
    ck_assert_uint_eq(b1.batches - b0.batches, 10);
    ck_assert_uint_eq(s.runs, 10);
    /* cpu2 first (lower PMU address): its EDPRSR, then its counters */
    ck_assert_uint_eq(s.first[0], CL1_ROM + 0x10000u + PP_DBG_EDPRSR);
    ck_assert_uint_eq(s.first[1] & 0xFFFF0000u, CL1_ROM + 0x30000u);
    ck_assert_uint_eq(s.first[s.nfirst - 1] & 0xFFFF0000u, CL0_ROM + 0x30000u);
    pp_cap_free(c);
    free(col.recs);
    pp_bus_close(bus);
}
END_TEST

START_TEST(repeat_mode_decodes_each_repetition_in_order)
{
    struct spy s = { .inner = rig.bus };
    struct pp_bus *bus = pp_bus_new(&spy_repeat_ops, &s);
    struct pp_cap_config cfg = config(100000, 50);    /* 100 us: the baseline, then 50
                                                        * samples in one call */
    struct hook h = { .advance_ns = 100000 };          /* the set's first interval */
    struct collector col = { 0 };
    struct pp_cap *c;
    uint64_t sum = 0;

    c = capture_cpu2_on(bus, &cfg, &h, &col);
    ck_assert_uint_eq(s.repeats, 1);
    ck_assert_uint_eq(h.calls, 2);
    ck_assert_uint_eq(col.n, 51);
    for (size_t i = 1; i < col.n; i++) {
        ck_assert_uint_eq(rec(&col, i)->seq, i);
        ck_assert_uint_eq(cst(&col, i, 0)->status, PP_CAP_OK);
        ck_assert_uint_gt(val(&col, i, 0, 0)->delta, 0);
        sum += val(&col, i, 0, 0)->delta;
    }
    /* time stood still after the last repetition: the sim's count now */
    ck_assert_uint_eq(sum, pp_sim_event_total(rig.sim, 2, 0x08) - h.e[0][0][0]);
    pp_cap_free(c);
    free(col.recs);
    pp_bus_close(bus);
}
END_TEST

/* spy_repeat, but its second call fails as a whole, as a reply that does
 * not parse does: every op FAULT, no repetition dated. */
static int broken_repeat(struct pp_bus *bus, struct pp_op *ops, size_t n, unsigned count,
                         uint64_t interval_ns, uint64_t *t_ns, struct pp_bus_window *win)
{
    struct spy *s = bus->priv;

    if (s->repeats++ != 1) {
        s->repeats--;                  /* spy_repeat counts it */
        return spy_repeat(bus, ops, n, count, interval_ns, t_ns, win);
    }
    for (size_t i = 0; i < n * count; i++)
        ops[i].st = PP_OP_FAULT;
    return pp_op_status_err(PP_OP_FAULT);
}

static const struct pp_bus_ops broken_repeat_ops = { .name = "broken", .run = spy_run,
                                                     .run_repeat = broken_repeat,
                                                     .close = spy_close };

START_TEST(a_repeat_set_that_failed_as_a_whole_is_dated_within_its_call)
{
    struct spy s = { .inner = rig.bus };
    struct pp_bus *bus = pp_bus_new(&broken_repeat_ops, &s);
    struct pp_cap_config cfg = config(1 * MS, 60);
    struct collector col = { 0 };
    struct pp_cap *c;
    size_t gaps = 0;

    cfg.bus = bus;
    cfg.first_set = 10;
    c = new_cap(&cfg, NULL);
    add(c, 2, "cycles");
    program_all(c);
    run(c, &col);
    ck_assert_uint_ge(s.repeats, 2);               /* one set decoded, one failed */
    for (size_t i = 1; i < col.n; i++) {
        const struct pp_cap_sample *a = rec(&col, i - 1), *b = rec(&col, i);

        ck_assert_msg(b->t_start_ns >= a->t_start_ns && b->t_end_ns >= a->t_end_ns,
                      "record %zu dated [%" PRIu64 ", %" PRIu64 "] before record %zu's [%"
                      PRIu64 ", %" PRIu64 "]", i, b->t_start_ns, b->t_end_ns, i - 1,
                      a->t_start_ns, a->t_end_ns);
        ck_assert_uint_le(b->t_start_ns, b->t_end_ns);
        gaps += cst(&col, i, 0)->status == PP_CAP_GAP;
    }
    ck_assert_uint_ge(gaps, 10);                 /* the failed set's */
    finish(c, &col);
    pp_bus_close(bus);
}
END_TEST

/* Notes the size of each repeat set, then runs it as spy_repeat does;
 * a plain run takes at least slow_ns (a slow path's round trip). */
struct sets {
    struct spy spy;               /* first: spy_repeat takes bus->priv as it */
    unsigned first, max, n;
    uint64_t slow_ns;
};

static int sets_run(struct pp_bus *bus, struct pp_op *ops, size_t n)
{
    const struct sets *s = bus->priv;

    if (s->slow_ns)
        pp_sleep_until(pp_mono_ns() + s->slow_ns);
    return spy_run(bus, ops, n);
}

static int sets_repeat(struct pp_bus *bus, struct pp_op *ops, size_t n, unsigned count,
                       uint64_t interval_ns, uint64_t *t_ns, struct pp_bus_window *win)
{
    struct sets *s = bus->priv;

    if (s->n++ == 0)
        s->first = count;
    if (count > s->max)
        s->max = count;
    return spy_repeat(bus, ops, n, count, interval_ns, t_ns, win);
}

static const struct pp_bus_ops sets_ops = { .name = "sets", .run = sets_run,
                                            .run_repeat = sets_repeat, .close = spy_close };

/* Sets of a capture with interval_ns over the sets bus: count + 1 samples,
 * all of them taken. */
static void run_sets(struct sets *s, uint64_t interval_ns, uint64_t count)
{
    struct pp_bus *bus = pp_bus_new(&sets_ops, s);
    struct pp_cap_config cfg = config(interval_ns, count);
    struct collector col = { 0 };
    struct pp_cap *c;

    cfg.bus = bus;
    c = new_cap(&cfg, NULL);
    add(c, 2, "cycles");
    program_all(c);
    run(c, &col);
    ck_assert_uint_eq(col.n, count + 1);
    pp_cap_free(c);
    free(col.recs);
    pp_bus_close(bus);
}

/* plan.c: the baseline is a call of its own, whose time sizes the first
 * set: 5 samples after it are one set of 5, not 6. */
START_TEST(the_baseline_sample_is_a_call_of_its_own)
{
    struct sets s = { .spy = { .inner = rig.bus } };

    run_sets(&s, 1, 5);
    ck_assert_uint_eq(s.n, 1);
    ck_assert_uint_eq(s.first, 5);
}
END_TEST

/* sampler.c cap_first_reps: what fits PP_CAP_FIRST_SPAN (100 ms) at the
 * baseline's pace, at least 1, at most the cap. */
START_TEST(the_first_set_holds_what_fits_100ms_at_the_baselines_pace)
{
    ck_assert_uint_eq(cap_first_reps(1000000, 256), 100);      /* 1 ms a sample */
    ck_assert_uint_eq(cap_first_reps(6500000, 256), 15);       /* 4 x 7 through OpenOCD */
    ck_assert_uint_eq(cap_first_reps(100000, 256), 256);       /* the cap */
    ck_assert_uint_eq(cap_first_reps(100000, 20), 20);         /* a 1 ms capture's set */
    ck_assert_uint_eq(cap_first_reps(300000000, 256), 1);
}
END_TEST

/* A path whose round trip takes 10 ms starts with sets of at most 10, not
 * 256 (2.6 s, past a fast 32-bit counter's wrap).  Only the bound is
 * asserted: a loaded host makes the baseline slower still. */
START_TEST(a_slow_paths_first_set_is_sized_from_the_baseline)
{
    struct sets s = { .spy = { .inner = rig.bus }, .slow_ns = 10000000 };

    run_sets(&s, 1, 30);
    ck_assert_uint_ge(s.n, 1);
    ck_assert_uint_le(s.first, 10);
}
END_TEST

/* plan.c: the first set of an as-fast-as-possible capture on a fast path
 * has 256 repetitions (what fits 100 ms at the baseline's pace is more);
 * later sets may grow on a path that showed it is fast, never beyond
 * 2048.  (Whether they grow depends on the host's pace, so it is not
 * asserted; 8000 samples let a fast host reach a fifth set, which
 * doubling would make 4096.) */
START_TEST(repeat_sets_start_at_256_repetitions_and_never_exceed_2048)
{
    struct sets s = { .spy = { .inner = rig.bus } };

    run_sets(&s, 1, 8000);
    ck_assert_uint_eq(s.first, 256);
    ck_assert_uint_le(s.max, 2048);
}
END_TEST

/* plan.c repetitions: up to PP_CAP_REPEAT_MAX_INTERVAL a set holds
 * PP_CAP_REPEAT_WINDOW / interval samples, 4 at 5 ms. */
START_TEST(a_5ms_interval_samples_in_sets_of_4)
{
    struct sets s = { .spy = { .inner = rig.bus } };

    run_sets(&s, 5000000, 8);
    ck_assert_uint_eq(s.first, 4);
    ck_assert_uint_eq(s.max, 4);
}
END_TEST

/* Over it every sample is its own call: no set at all. */
START_TEST(an_interval_over_5ms_samples_one_call_at_a_time)
{
    struct sets s = { .spy = { .inner = rig.bus } };

    run_sets(&s, 6000000, 4);
    ck_assert_uint_eq(s.n, 0);
}
END_TEST

/* sampler.c fit_reps: a set that fit the 20 ms window makes the next
 * fill it (reps x W / span), at most twice as large; one past it shrinks
 * the next to fit; a short set (the capture's last, or all cores out)
 * keeps the size planned. */
START_TEST(the_next_set_grows_towards_filling_the_window_and_shrinks_to_fit_it)
{
    const uint64_t W = PP_CAP_REPEAT_WINDOW;

    ck_assert_uint_eq(cap_next_reps(256, 256, 1024, W / 10), 512);        /* at most x2 */
    ck_assert_uint_eq(cap_next_reps(512, 512, 1024, W / 2 + W / 50), 984); /* 0.52 W */
    ck_assert_uint_eq(cap_next_reps(980, 980, 1024, W - W / 100), 989);
    ck_assert_uint_eq(cap_next_reps(1000, 1000, 1024, W / 4), 1024);      /* at most max */
    ck_assert_uint_eq(cap_next_reps(500, 500, 1024, 2 * W), 250);
    ck_assert_uint_eq(cap_next_reps(10, 10, 1024, 100 * W), 1);
    ck_assert_uint_eq(cap_next_reps(3, 600, 1024, W / 1000), 600);
}
END_TEST

/* A path that honours pp_op.once (bus.h), as the adi bus does: the later
 * repetitions of a set carry only the ops not marked once; the others end
 * PP_OP_SKIPPED.  It notes which ops were marked. */
struct once_spy {
    struct spy spy;               /* first: spy_repeat takes bus->priv as it */
    uint64_t sets, carried_once, skipped;
    uint32_t stray;               /* a once op outside the programming check, or 0 */
};

/* Whether addr is one of the programming check's registers (plan.c):
 * anything of a core but its EDPRSR, counters (below 0x400) and
 * snapshot block (0x600-0x6FF). */
static bool is_check_reg(uint32_t addr)
{
    for (unsigned k = 0; k < rig.t->ncores; k++) {
        const struct pp_core_desc *d = &rig.t->cores[k];
        uint32_t off = addr - d->pmu_base;

        if (addr == d->debug_base + PP_DBG_EDPRSR)
            return false;
        if (addr >= d->pmu_base && addr < d->pmu_base + 0x1000u)
            return !(off < 0x400u || (off >= 0x600u && off < 0x700u));
        if (addr >= d->debug_base && addr < d->debug_base + 0x1000u)
            return true;
    }
    return false;
}

static int once_repeat(struct pp_bus *bus, struct pp_op *ops, size_t n, unsigned count,
                       uint64_t interval_ns, uint64_t *t_ns, struct pp_bus_window *win)
{
    struct once_spy *s = bus->priv;
    struct pp_op kept[256];
    size_t idx[256];
    int rc = PP_OK;

    ck_assert_uint_le(n, 256);
    s->sets++;
    for (size_t i = 0; i < n; i++) {
        s->carried_once += ops[i].once;
        if (ops[i].once && !is_check_reg(ops[i].addr))
            s->stray = ops[i].addr;
    }
    for (unsigned k = 0; k < count; k++) {
        struct pp_op *rep = ops + (size_t)k * n;
        size_t m = 0;
        int r;

        if (k)
            pp_sim_advance_ns(rig.sim, interval_ns);
        for (size_t i = 0; i < n; i++) {
            if (k && rep[i].once) {
                rep[i].st = PP_OP_SKIPPED;
                s->skipped++;
                continue;
            }
            idx[m] = i;
            kept[m++] = rep[i];
        }
        r = pp_bus_run(s->spy.inner, kept, m);
        rc = rc == PP_OK ? r : rc;
        for (size_t j = 0; j < m; j++)
            rep[idx[j]] = kept[j];
        t_ns[k] = pp_mono_ns();
        if (win)
            win[k] = (struct pp_bus_window){ t_ns[k], t_ns[k] };
    }
    return rc;
}

static const struct pp_bus_ops once_ops = { .name = "once", .run = spy_run,
                                            .run_repeat = once_repeat, .close = spy_close };

/* plan.c guard_ops: in a set every repetition would read the same check
 * registers, so only the first does; the later ones skip them and their
 * samples are still whole. */
START_TEST(the_programming_check_is_read_in_the_first_repetition_of_a_set_only)
{
    struct once_spy s = { .spy = { .inner = rig.bus } };
    struct pp_bus *bus = pp_bus_new(&once_ops, &s);
    struct pp_cap_config cfg = config(100000, 50);    /* 100 us: one check read a sample */
    struct hook h = { .advance_ns = 0 };
    struct collector col = { 0 };
    struct pp_cap *c;
    uint64_t sum = 0;

    c = capture_cpu2_on(bus, &cfg, &h, &col);
    ck_assert_uint_eq(col.n, 51);
    ck_assert_uint_ge(s.sets, 1);
    ck_assert_msg(s.stray == 0, "op at 0x%08X marked once", s.stray);
    ck_assert_uint_eq(s.carried_once, s.sets);          /* one check read a set */
    ck_assert_uint_ge(s.skipped, 50 - s.sets);
    for (size_t i = 1; i < col.n; i++) {
        ck_assert_uint_eq(cst(&col, i, 0)->status, PP_CAP_OK);
        sum += val(&col, i, 0, 0)->delta;
    }
    ck_assert_uint_eq(sum, pp_sim_event_total(rig.sim, 2, 0x08) - h.e[0][0][0]);
    finish(c, &col);
    pp_bus_close(bus);
}
END_TEST

/* The turn still reaches every check register: a takeover in the middle
 * of a capture whose sets read the check once is seen within K = 5 sets
 * (cpu2 with 2 counters: PMCR, PMCNTENSET, DBGCLAIMCLR, PMCCFILTR,
 * PMEVTYPER0, one a set at 1 ms), and the core is a gap from then on. */
static bool retyped;

static void retype_cpu2_once(struct hook *h, uint64_t seq)
{
    const struct pp_core_desc *a53 = pp_target_core(rig.t, 2);

    (void)h;
    if (seq < 20 || retyped)
        return;
    ck_assert_int_eq(pp_bus_write32(rig.bus, a53->pmu_base + 0x400u, 0x11u), PP_OK);
    retyped = true;
}

START_TEST(a_takeover_is_seen_within_k_sets_when_the_check_is_read_once_per_set)
{
    struct once_spy s = { .spy = { .inner = rig.bus } };
    struct pp_bus *bus = pp_bus_new(&once_ops, &s);
    struct pp_cap_config cfg = config(1 * MS, 200);     /* sets of 20 */
    struct hook h = { .advance_ns = 0, .fault = retype_cpu2_once };
    struct collector col = { 0 };
    const struct pp_diag *dg;
    uint64_t episodes;
    struct pp_cap *c;
    size_t d;

    retyped = false;
    c = capture_cpu2_on(bus, &cfg, &h, &col);
    ck_assert_uint_eq(col.n, 201);
    ck_assert_uint_ge(s.skipped, 1);
    for (d = 1; d < col.n && cst(&col, d, 0)->status != PP_CAP_GAP; d++)
        ;
    ck_assert_msg(d >= 20 && d < 20 + 6 * 20, "first gap at sample %zu", d);
    for (size_t i = d; i < col.n; i++)
        ck_assert_uint_eq(cst(&col, i, 0)->cause, PP_CAUSE_TAKEN_OVER);
    dg = pp_cap_core_diag(c, 0, &episodes);
    ck_assert_msg(strstr(dg->evidence, "PMEVTYPER0=0x00000011") != NULL, "%s", dg->evidence);
    finish(c, &col);
    pp_bus_close(bus);
}
END_TEST

/* Under --no-edprsr the check's PMCR.E is what shows a reset, in every
 * sample (plan.c), so nothing is left to the first repetition. */
START_TEST(without_edprsr_no_check_read_is_left_to_the_first_repetition)
{
    struct once_spy s = { .spy = { .inner = rig.bus } };
    struct pp_bus *bus = pp_bus_new(&once_ops, &s);
    struct pp_cap_config cfg = config(100000, 30);
    struct collector col = { 0 };
    struct pp_cap *c;

    cfg.no_edprsr = true;
    c = capture_cpu2_on(bus, &cfg, NULL, &col);
    ck_assert_uint_eq(col.n, 31);
    ck_assert_uint_ge(s.sets, 1);
    ck_assert_uint_eq(s.carried_once, 0);
    ck_assert_uint_eq(s.skipped, 0);
    finish(c, &col);
    pp_bus_close(bus);
}
END_TEST

/* A path whose one armed batch is slow: it runs up to the watched flags
 * read, lets target time run on (the counter wraps) and host time pass
 * (the read is slow, as one OpenOCD read sometimes is), then runs the
 * rest.  The wrap thus falls inside that core's read window. */
struct slow {
    struct pp_bus *inner;
    uint32_t flags_addr;          /* the watched core's PMOVSSET */
    uint64_t target_ns, host_ns;  /* in the window */
    bool armed;
    unsigned cpu;                 /* the watched core, and its counts ... */
    uint16_t code[MAXEV];
    unsigned nev;
    uint64_t mid[MAXEV];          /* ... at the end of the window */
};

static int slow_run(struct pp_bus *bus, struct pp_op *ops, size_t n)
{
    struct slow *s = bus->priv;
    struct timespec ts;
    size_t i = 0;
    int r1, r2;

    if (!s->armed)
        return pp_bus_run(s->inner, ops, n);
    s->armed = false;
    while (i < n && !(ops[i].addr == s->flags_addr && !ops[i].write))
        i++;
    ck_assert_uint_lt(i, n);
    r1 = pp_bus_run(s->inner, ops, i + 1);
    pp_sim_advance_ns(rig.sim, s->target_ns);
    ts = (struct timespec){ 0, (long)s->host_ns };
    nanosleep(&ts, NULL);
    for (unsigned e = 0; e < s->nev; e++)
        s->mid[e] = pp_sim_event_total(rig.sim, s->cpu, s->code[e]);
    r2 = pp_bus_run(s->inner, ops + i + 1, n - i - 1);
    return r1 != PP_OK ? r1 : r2;
}

static const struct pp_bus_ops slow_ops = { .name = "slow", .run = slow_run,
                                            .close = spy_close };

static struct slow *the_slow;

/* Sample 0: the A7's counters 8 M below a wrap.  Sample 1: its read is
 * slow and 20 ms of target time pass in it, wrapping both. */
static void near_wrap_then_slow_read(struct hook *h, uint64_t seq)
{
    const struct pp_core_desc *a7 = pp_target_core(rig.t, 3);

    (void)h;
    if (seq == 0) {
        ck_assert_int_eq(pp_bus_write32(rig.bus, a7->pmu_base + PP_PMU_PMCCNTR_V2,
                                        0xFF800000u), PP_OK);
        ck_assert_int_eq(pp_bus_write32(rig.bus, a7->pmu_base + PP_PMU_PMEVCNTR_V2(0),
                                        0xFF800000u), PP_OK);
    }
    if (seq == 1)
        the_slow->armed = true;
}

START_TEST(a_wrap_inside_a_slow_read_is_a_delta_not_a_reset)
{
    const struct pp_core_desc *a7 = pp_target_core(rig.t, 3);
    struct slow sl = { .inner = rig.bus, .flags_addr = a7->pmu_base + PP_PMU_PMOVSSET,
                       .target_ns = 20 * MS, .host_ns = 3 * MS, .cpu = 3, .nev = 2,
                       .code = { 0x11, 0x08 } };
    struct pp_bus *bus = pp_bus_new(&slow_ops, &sl);
    struct pp_cap_config cfg = config(0, 8);
    struct hook h = { .advance_ns = 1 * MS, .fault = near_wrap_then_slow_read };
    struct collector col = { 0 };
    struct pp_cap *c;

    the_slow = &sl;
    cfg.bus = bus;
    c = new_cap(&cfg, &h);
    add(c, 3, "cycles,instructions");
    program_all(c);
    run(c, &col);
    ck_assert_uint_eq(col.n, 9);
    for (unsigned i = 0; i < 2; i++) {
        /* 32-bit counters that wrapped between the flags read and their
         * own read, 20 ms of counts from 2^32 - 8M: well over the 2^24 a
         * fixed window allows, and under 40 counts/ns of a 3 ms read */
        ck_assert_uint_lt(val(&col, 0, 0, i)->total, 1);
        ck_assert_msg(cst(&col, 1, 0)->status == PP_CAP_OK && cst(&col, 2, 0)->status ==
                      PP_CAP_OK, "samples 1, 2: status %u why 0x%x, %u why 0x%x",
                      cst(&col, 1, 0)->status, cst(&col, 1, 0)->why, cst(&col, 2, 0)->status,
                      cst(&col, 2, 0)->why);
        ck_assert_uint_eq(val(&col, 1, 0, i)->delta, sl.mid[i] - h.e[0][0][i]);
        ck_assert_uint_eq(val(&col, 2, 0, i)->delta, h.e[2][0][i] - sl.mid[i]);
        ck_assert_uint_gt(sl.mid[i] - h.e[0][0][i], 0x800000u + 0x1000000u);
    }
    assert_exact(&col, &h, 0, 3, 8);
    pp_cap_free(c);
    free(col.recs);
    pp_bus_close(bus);
}
END_TEST

/* ---- metrics ---------------------------------------------------------------------------------- */

static void core_with(struct pp_cap_core *mc, const uint16_t *codes, unsigned n)
{
    memset(mc, 0, sizeof(*mc));
    mc->nev = n;
    for (unsigned i = 0; i < n; i++)
        mc->ev[i].code = codes[i];
}

static const struct pp_cap_metric *metric(const struct pp_cap_core *mc, const char *name)
{
    for (unsigned i = 0; i < mc->nmetrics; i++)
        if (strcmp(mc->metric[i].name, name) == 0)
            return &mc->metric[i];
    return NULL;
}

START_TEST(metrics_are_those_whose_events_are_in_the_capture)
{
    static const uint16_t codes[] = { 0x11, 0x08, 0x03 };  /* cycles, inst, L1D refill */
    struct pp_cap_core mc;
    const struct pp_cap_metric *m;

    core_with(&mc, codes, 3);
    pp_cap_metrics_fill(&mc, pp_core_type_find("cortex-a76"));
    m = metric(&mc, "IPC");
    ck_assert_ptr_nonnull(m);
    ck_assert_uint_eq(m->num, 1);
    ck_assert_uint_eq(m->den, 0);
    m = metric(&mc, "L1D MPKI");
    ck_assert_ptr_nonnull(m);
    ck_assert(m->scale == 1000.0);
    ck_assert_ptr_null(metric(&mc, "branch miss %"));
    core_with(&mc, codes + 1, 2);
    pp_cap_metrics_fill(&mc, pp_core_type_find("cortex-a76"));
    ck_assert_ptr_null(metric(&mc, "IPC"));
}
END_TEST

START_TEST(branch_misses_are_a_rate_of_branches_or_else_per_kilo_instruction)
{
    static const uint16_t both[] = { 0x10, 0x12, 0x08 };
    static const uint16_t no_pred[] = { 0x10, 0x08 };
    struct pp_cap_core mc;

    core_with(&mc, both, 3);
    pp_cap_metrics_fill(&mc, pp_core_type_find("cortex-a53"));
    ck_assert_ptr_nonnull(metric(&mc, "branch miss %"));
    ck_assert_ptr_null(metric(&mc, "branch MPKI"));
    core_with(&mc, no_pred, 2);
    pp_cap_metrics_fill(&mc, pp_core_type_find("cortex-a53"));
    ck_assert_ptr_null(metric(&mc, "branch miss %"));
    ck_assert_ptr_nonnull(metric(&mc, "branch MPKI"));
}
END_TEST

START_TEST(ipc_on_cortex_a9_uses_its_own_instruction_event)
{
    static const uint16_t a9[] = { 0x11, 0x68 };
    static const uint16_t v8[] = { 0x11, 0x08 };
    struct pp_cap_core mc;

    core_with(&mc, a9, 2);
    pp_cap_metrics_fill(&mc, pp_core_type_find("cortex-a9"));
    ck_assert_ptr_nonnull(metric(&mc, "IPC"));
    core_with(&mc, v8, 2);
    pp_cap_metrics_fill(&mc, pp_core_type_find("cortex-a9"));
    ck_assert_ptr_null(metric(&mc, "IPC"));
}
END_TEST

START_TEST(capture_meta_carries_the_metrics_of_each_core)
{
    struct pp_cap_config cfg = config(0, 3);
    struct hook h = { .advance_ns = 1 * MS };
    struct collector col = { 0 };
    struct pp_cap *c = new_cap(&cfg, &h);
    double ipc;

    add(c, 0, "cycles,instructions,L1D_CACHE_REFILL");
    program_all(c);
    run(c, &col);
    ck_assert_uint_ge(col.meta.core[0].nmetrics, 2);
    ck_assert_str_eq(col.meta.core[0].metric[0].name, "IPC");
    ck_assert(pp_cap_metric_eval(&col.meta.core[0].metric[0], val(&col, 3, 0, 0),
                                 cst(&col, 3, 0)->discont, &ipc));
    ck_assert(ipc > 0.5 && ipc < 5.0);
    ck_assert(!pp_cap_metric_eval(&col.meta.core[0].metric[0], val(&col, 0, 0, 0),
                                  cst(&col, 0, 0)->discont, &ipc));
    finish(c, &col);
}
END_TEST

/* A path's time estimate may put a sample before the previous one; the
 * interval statistics then see a large error, never an unsigned wrap
 * (a 2^64 ns jitter maximum). */
START_TEST(a_sample_dated_before_the_previous_one_is_a_bounded_jitter)
{
    struct pp_cap *c = calloc(1, sizeof(*c));
    const uint64_t ms = 1000000u;

    ck_assert_ptr_nonnull(c);
    c->cfg.interval_ns = ms;
    cap_stats_sample(c, 100 * ms, 100 * ms);
    cap_stats_sample(c, 101 * ms, 101 * ms);
    cap_stats_sample(c, 100 * ms + ms / 2, 102 * ms);   /* 0.5 ms back */
    ck_assert_uint_eq(c->jitter.n, 2);
    ck_assert_uint_eq(c->jitter.max, ms + ms / 2);
    ck_assert_uint_le(cap_hist_quantile(&c->jitter, 0.99), ms + ms / 2);
    free(c);
}
END_TEST

static Suite *capture_suite(void)
{
    Suite *s = suite_create("capture");
    TCase *values = tcase_create("values");
    TCase *fail = tcase_create("failing cores");
    TCase *observe = tcase_create("observe");
    TCase *ring = tcase_create("ring policies");
    TCase *stop = tcase_create("stop and release");
    TCase *batch = tcase_create("batch");
    TCase *metrics = tcase_create("metrics");
    TCase *taken = tcase_create("taken over");
    TCase *all[] = { values, fail, observe, ring, stop, batch, taken };

    for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++) {
        tcase_add_checked_fixture(all[i], setup, teardown);
        tcase_set_timeout(all[i], 120);
    }
    tcase_add_test(values, baseline_then_deltas_equal_the_simulated_counts_on_every_core);
    tcase_add_test(values, records_are_numbered_and_stamped_around_the_read_window);
    tcase_add_test(values, a_32bit_counter_wrapping_many_times_is_counted_in_full);
    tcase_add_test(values, snapshot_samples_equal_the_simulated_counts);
    tcase_add_test(values, snapshot_on_a_core_without_the_block_is_refused);
    tcase_add_test(values, capture_meta_carries_the_metrics_of_each_core);
    suite_add_tcase(s, values);
    tcase_add_test(fail, core_powered_down_and_up_is_a_gap_with_its_cause_and_no_bogus_delta);
    tcase_add_test(fail, power_cycle_between_samples_is_seen_in_edprsr_and_counting_resumes);
    tcase_add_test(fail, default_plan_is_the_snapshot_where_it_is_cheaper_and_live_elsewhere);
    tcase_add_test(fail, default_plan_sees_a_power_cycle_between_two_samples);
    tcase_add_test(fail, default_plan_counts_every_overflow);
    tcase_add_test(fail, default_plan_sees_a_refused_snapshot);
    tcase_add_test(fail, without_edprsr_every_sample_reads_the_whole_programming_check);
    tcase_add_test(fail, power_cycle_before_the_first_sample_reprograms_the_core);
    tcase_add_test(fail, core_that_cannot_be_programmed_is_a_gap_and_joins_when_it_answers);
    tcase_add_test(fail, default_plan_reads_a_core_off_at_start_live);
    tcase_add_test(fail, a_core_that_rejoins_without_its_snapshot_block_stays_a_gap);
    tcase_add_test(fail, a_rejoin_whose_pmcfgr_cannot_be_read_is_refused_until_it_can);
    tcase_add_test(fail, gap_cause_is_the_diagnosed_condition_even_when_the_reads_waited);
    tcase_add_test(fail, gap_cause_is_dp_wait_when_the_reads_waited_and_the_core_looks_fine);
    tcase_add_test(fail, gap_cause_is_unknown_when_nothing_explains_the_failure);
    tcase_add_test(fail, a_failure_the_core_does_not_explain_is_diagnosed_by_the_paths_message);
    tcase_add_test(fail, a_failure_the_path_said_nothing_of_does_not_quote_an_older_message);
    suite_add_tcase(s, fail);
    tcase_add_test(observe, observe_counts_what_the_target_programmed_without_writing);
    tcase_add_test(observe, observe_on_a_core_where_nothing_counts_is_refused);
    suite_add_tcase(s, observe);
    tcase_add_test(ring, slow_writer_under_block_loses_nothing_and_the_wait_shows_as_lateness);
    tcase_add_test(ring, slow_writer_under_drop_counts_drops_and_leaves_drop_records);
    tcase_add_test(ring, duration_on_a_path_slower_than_the_interval_ends_on_schedule_under_block);
    tcase_add_test(ring, duration_on_a_path_slower_than_the_interval_ends_on_schedule_under_drop);
    tcase_add_test(ring, count_on_a_path_slower_than_the_interval_takes_every_sample_late);
    suite_add_tcase(s, ring);
    tcase_add_test(stop, stop_request_ends_the_capture_with_a_complete_output);
    tcase_add_test(stop, failed_output_stops_the_capture_and_still_ends_it);
    tcase_add_test(stop, release_stops_the_counters_and_clears_the_claim);
    suite_add_tcase(s, stop);
    tcase_add_test(batch, one_bus_batch_per_sample_with_cores_in_address_order);
    tcase_add_test(batch, repeat_mode_decodes_each_repetition_in_order);
    tcase_add_test(batch, a_repeat_set_that_failed_as_a_whole_is_dated_within_its_call);
    tcase_add_test(batch, the_baseline_sample_is_a_call_of_its_own);
    tcase_add_test(batch, the_first_set_holds_what_fits_100ms_at_the_baselines_pace);
    tcase_add_test(batch, a_slow_paths_first_set_is_sized_from_the_baseline);
    tcase_add_test(batch, repeat_sets_start_at_256_repetitions_and_never_exceed_2048);
    tcase_add_test(batch, a_5ms_interval_samples_in_sets_of_4);
    tcase_add_test(batch, an_interval_over_5ms_samples_one_call_at_a_time);
    tcase_add_test(batch, the_next_set_grows_towards_filling_the_window_and_shrinks_to_fit_it);
    tcase_add_test(batch, the_programming_check_is_read_in_the_first_repetition_of_a_set_only);
    tcase_add_test(batch, a_takeover_is_seen_within_k_sets_when_the_check_is_read_once_per_set);
    tcase_add_test(batch, without_edprsr_no_check_read_is_left_to_the_first_repetition);
    tcase_add_test(batch, a_wrap_inside_a_slow_read_is_a_delta_not_a_reset);
    tcase_add_test(batch, a_sample_dated_before_the_previous_one_is_a_bounded_jitter);
    suite_add_tcase(s, batch);
    tcase_add_loop_test(taken, counters_taken_by_another_agent_are_gaps_within_k_samples, 0,
                        (int)(sizeof(takeovers) / sizeof(takeovers[0])));
    tcase_add_test(taken, a_second_capture_on_a_programmed_core_is_refused_unless_forced);
    suite_add_tcase(s, taken);
    tcase_add_test(metrics, metrics_are_those_whose_events_are_in_the_capture);
    tcase_add_test(metrics, branch_misses_are_a_rate_of_branches_or_else_per_kilo_instruction);
    tcase_add_test(metrics, ipc_on_cortex_a9_uses_its_own_instruction_event);
    suite_add_tcase(s, metrics);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(capture_suite());
    int failed;

    srunner_run_all(sr, CK_NORMAL);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

/*
 * check_topview.c - the model behind `pmuprobe top` (src/cli/topview.c) and
 * its plain-text frame (src/cli/topdraw.c).
 *
 * Most tests feed records built by hand into the model through the same
 * struct pp_cap_out the capture engine drives, with sample times chosen
 * so that every rate is an exact number.  The last ones run a real
 * capture on the simulated SoC (deterministic target time, advanced by
 * the sampler hook) and compare the model with the simulator's counts.
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bus/bus.h"
#include "capture/capture.h"
#include "pmu/diag.h"
#include "pmu/evname.h"
#include "pmu/extend.h"
#include "sim/sim.h"
#include "fixture.h"
#include "topview.h"

#define MS   1000000ull
#define T0   (5000 * MS)           /* CLOCK_MONOTONIC at the capture's start */

enum { CYC = 0, INS = 1 };         /* event indices in each core */

static struct pp_cap_meta meta;
static struct topview *tv;
static struct pp_cap_out out;
static struct topview_frame *fr;
static struct pp_cap_sample *rec;
static uint64_t totals[PP_CAP_MAX_CORES * 2];

/* ---- hand-built records -------------------------------------------------------------- */

/* Two Cortex-A76 cores counting cycles and instructions every 10 ms. */
static void setup(void)
{
    memset(totals, 0, sizeof(totals));
    fx_ipc_meta(&meta, 2, 10 * MS, T0);
    tv = topview_new();
    fr = topview_frame_new();
    rec = calloc(1, pp_cap_record_size(&meta));
    ck_assert(tv && fr && rec);
    out = topview_out(tv);
    ck_assert_int_eq(out.begin(out.ctx, &meta), PP_OK);
}

static void teardown(void)
{
    topview_free(tv);
    free(fr);
    free(rec);
}

/* A sample at T0 + t_us with every core OK and no deltas yet. */
static struct pp_cap_sample *sample(uint64_t seq, uint64_t t_us)
{
    memset(rec, 0, pp_cap_record_size(&meta));
    rec->kind = PP_CAP_SAMPLE;
    rec->ncores = meta.ncores;
    rec->nvals = meta.nvals;
    rec->seq = seq;
    rec->t_start_ns = T0 + t_us * 1000u;
    rec->t_end_ns = rec->t_start_ns + 1000u;
    for (unsigned v = 0; v < meta.nvals; v++)
        pp_cap_vals(rec)[v].total = totals[v];
    return rec;
}

static void delta(unsigned k, unsigned i, uint64_t d)
{
    unsigned v = meta.core[k].first + i;

    totals[v] += d;
    pp_cap_vals(rec)[v] = (struct pp_cap_val){ .total = totals[v], .delta = d };
}

/* Both cores, both events. */
static void deltas(uint64_t c0, uint64_t i0, uint64_t c1, uint64_t i1)
{
    delta(0, CYC, c0);
    delta(0, INS, i0);
    delta(1, CYC, c1);
    delta(1, INS, i1);
}

static void discont(unsigned k, unsigned why, uint32_t mask)
{
    pp_cap_cstats(rec)[k] = (struct pp_cap_cstat){ .status = PP_CAP_DISCONT, .why = (uint16_t)why,
                                                   .discont = mask };
}

static void gap(unsigned k, int cause)
{
    pp_cap_cstats(rec)[k] = (struct pp_cap_cstat){ .status = PP_CAP_GAP, .cause = (uint8_t)cause };
}

static void deliver(void)
{
    ck_assert_int_eq(out.write(out.ctx, rec), PP_OK);
}

/* The capture's first record: the baseline, every core DISCONT "start". */
static void baseline(uint64_t t_us)
{
    sample(0, t_us);
    discont(0, PP_EXT_WHY_START, 3);
    discont(1, PP_EXT_WHY_START, 3);
    deliver();
}

/* Samples seq .. seq + n - 1, 10 ms apart from t_us on, each with the
 * same deltas. */
static void steady(uint64_t seq, uint64_t t_us, unsigned n, uint64_t c0, uint64_t i0,
                   uint64_t c1, uint64_t i1)
{
    for (unsigned s = 0; s < n; s++) {
        sample(seq + s, t_us + s * 10000u);
        deltas(c0, i0, c1, i1);
        deliver();
    }
}

static const struct topview_series *rate(unsigned k, unsigned i)
{
    return &fr->core[k].ev[i].rate;
}

/* ---- rates -------------------------------------------------------------------------------- */

START_TEST(rate_is_the_period_deltas_per_second_of_sample_time)
{
    baseline(0);
    steady(1, 10000, 10, 20000000, 30000000, 1000, 500);   /* 20M cycles per 10 ms */
    topview_tick(tv, fr);
    ck_assert(rate(0, CYC)->ok);
    ck_assert_double_eq_tol(rate(0, CYC)->now, 2.0e9, 1e-3);
    ck_assert_double_eq_tol(rate(0, INS)->now, 3.0e9, 1e-3);
    ck_assert_double_eq_tol(rate(1, CYC)->now, 100000.0, 1e-6);
    ck_assert_uint_eq(fr->core[0].ev[CYC].total, 200000000);
}
END_TEST

START_TEST(rate_follows_the_sample_times_not_the_sample_count)
{
    baseline(0);
    /* Two samples 40 ms apart each (the sampler ran late): 1000 per 40 ms. */
    sample(1, 40000);
    deltas(1000, 1000, 1000, 1000);
    deliver();
    sample(2, 80000);
    deltas(1000, 1000, 1000, 1000);
    deliver();
    topview_tick(tv, fr);
    ck_assert_double_eq_tol(rate(0, CYC)->now, 25000.0, 1e-6);
}
END_TEST

START_TEST(each_tick_shows_only_its_own_period)
{
    baseline(0);
    steady(1, 10000, 10, 1000, 1000, 0, 0);
    topview_tick(tv, fr);
    steady(11, 110000, 10, 3000, 3000, 0, 0);
    topview_tick(tv, fr);
    ck_assert_double_eq_tol(rate(0, CYC)->now, 300000.0, 1e-6);
}
END_TEST

START_TEST(baseline_alone_gives_no_rate_and_the_core_waits)
{
    baseline(0);
    topview_tick(tv, fr);
    ck_assert(fr->begun);
    ck_assert_uint_eq(fr->period_samples, 1);
    ck_assert(!rate(0, CYC)->ok);
    ck_assert_int_eq(fr->core[0].state, TOPVIEW_WAIT);
    ck_assert_uint_eq(fr->core[0].why, 0);     /* the start is no discontinuity to show */
}
END_TEST

START_TEST(untrusted_delta_is_left_out_of_that_events_rate_only)
{
    baseline(0);
    steady(1, 10000, 4, 1000, 1000, 0, 0);
    sample(5, 50000);
    deltas(0, 999999, 0, 0);
    discont(0, PP_EXT_WHY_AMBIGUOUS, 1u << INS);
    delta(0, CYC, 1000);
    deliver();
    topview_tick(tv, fr);
    ck_assert_double_eq_tol(rate(0, CYC)->now, 100000.0, 1e-6);   /* 5 x 1000 in 50 ms */
    ck_assert_double_eq_tol(rate(0, INS)->now, 100000.0, 1e-6);   /* 4 x 1000 in 40 ms */
    ck_assert_uint_eq(fr->core[0].why, PP_EXT_WHY_AMBIGUOUS);
}
END_TEST

START_TEST(tick_without_new_samples_keeps_rates_and_history)
{
    baseline(0);
    steady(1, 10000, 5, 1000, 1000, 0, 0);
    topview_tick(tv, fr);
    topview_tick(tv, fr);
    ck_assert_uint_eq(fr->period_samples, 0);
    ck_assert_uint_eq(fr->nhist, 1);
    ck_assert(rate(0, CYC)->ok);
    ck_assert_double_eq_tol(rate(0, CYC)->now, 100000.0, 1e-6);
}
END_TEST

START_TEST(achieved_rate_is_samples_over_the_time_since_the_previous_period)
{
    baseline(0);
    steady(1, 10000, 9, 1, 1, 1, 1);             /* 10 samples over 0 .. 90 ms */
    topview_tick(tv, fr);
    ck_assert_double_eq_tol(fr->achieved_hz, 100.0, 1e-6);
    steady(10, 100000, 5, 1, 1, 1, 1);            /* 5 samples over 90 .. 140 ms */
    topview_tick(tv, fr);
    ck_assert_double_eq_tol(fr->achieved_hz, 100.0, 1e-6);
    ck_assert_double_eq_tol(fr->requested_hz, 100.0, 1e-9);
    ck_assert_uint_eq(fr->samples, 15);
    ck_assert_uint_eq(fr->elapsed_ns, 140 * MS);
}
END_TEST

/* ---- history ----------------------------------------------------------------------------- */

START_TEST(history_holds_one_value_per_tick_oldest_first)
{
    baseline(0);
    for (unsigned t = 0; t < 3; t++) {
        steady(1 + t * 10, 10000 + t * 100000, 10, 1000 * (t + 1), 0, 0, 0);
        topview_tick(tv, fr);
    }
    ck_assert_uint_eq(fr->nhist, 3);
    ck_assert_float_eq_tol(rate(0, CYC)->hist[0], 100000.0f, 1.0f);
    ck_assert_float_eq_tol(rate(0, CYC)->hist[1], 200000.0f, 1.0f);
    ck_assert_float_eq_tol(rate(0, CYC)->hist[2], 300000.0f, 1.0f);
}
END_TEST

START_TEST(history_keeps_the_last_ticks_when_full)
{
    unsigned n = TOPVIEW_HIST + 5;

    baseline(0);
    for (unsigned t = 0; t < n; t++) {
        steady(1 + t, 10000 + t * 10000, 1, t + 1, 0, 0, 0);   /* (t+1) per 10 ms */
        topview_tick(tv, fr);
    }
    ck_assert_uint_eq(fr->nhist, TOPVIEW_HIST);
    ck_assert_float_eq_tol(rate(0, CYC)->hist[0], 600.0f, 1e-3f);           /* tick 5 */
    ck_assert_float_eq_tol(rate(0, CYC)->hist[TOPVIEW_HIST - 1], (float)n * 100.0f, 1e-3f);
}
END_TEST

START_TEST(tick_where_nothing_was_counted_is_nan_in_the_history)
{
    baseline(0);
    topview_tick(tv, fr);
    ck_assert_uint_eq(fr->nhist, 1);
    ck_assert(isnan(rate(0, CYC)->hist[0]));
    ck_assert(isnan(fr->core[0].metric[0].val.hist[0]));
}
END_TEST

/* ---- metrics ------------------------------------------------------------------------------- */

START_TEST(metric_is_the_ratio_of_the_period_deltas)
{
    baseline(0);
    steady(1, 10000, 3, 1000, 2500, 4000, 1000);
    topview_tick(tv, fr);
    ck_assert_str_eq(fr->core[0].metric[0].name, "IPC");
    ck_assert(fr->core[0].metric[0].val.ok);
    ck_assert_double_eq_tol(fr->core[0].metric[0].val.now, 2.5, 1e-12);
    ck_assert_double_eq_tol(fr->core[1].metric[0].val.now, 0.25, 1e-12);
    ck_assert_float_eq_tol(fr->core[1].metric[0].val.hist[0], 0.25f, 1e-6f);
}
END_TEST

START_TEST(metric_leaves_out_samples_with_an_untrusted_delta)
{
    baseline(0);
    steady(1, 10000, 2, 1000, 2000, 0, 0);
    /* The cycle delta is untrusted: its instructions must not count. */
    sample(3, 30000);
    deltas(0, 50000, 0, 0);
    discont(0, PP_EXT_WHY_BACKWARDS, 1u << CYC);
    deliver();
    topview_tick(tv, fr);
    ck_assert_double_eq_tol(fr->core[0].metric[0].val.now, 2.0, 1e-12);
}
END_TEST

START_TEST(metric_with_no_denominator_is_not_shown)
{
    baseline(0);
    steady(1, 10000, 3, 1000, 1000, 0, 700);
    topview_tick(tv, fr);
    ck_assert(!fr->core[1].metric[0].val.ok);
    ck_assert(isnan(fr->core[1].metric[0].val.hist[0]));
    ck_assert(fr->core[0].metric[0].val.ok);
}
END_TEST

/* ---- gaps, drops, late ------------------------------------------------------------------------ */

START_TEST(gap_sample_marks_the_core_with_its_cause_and_the_others_go_on)
{
    baseline(0);
    steady(1, 10000, 3, 1000, 1000, 1000, 1000);
    topview_tick(tv, fr);
    for (unsigned s = 4; s < 8; s++) {
        sample(s, s * 10000u);
        delta(0, CYC, 1000);
        delta(0, INS, 1000);
        gap(1, PP_CAUSE_CORE_OFF);
        deliver();
    }
    topview_tick(tv, fr);
    ck_assert_int_eq(fr->core[1].state, TOPVIEW_GAP);
    ck_assert_int_eq(fr->core[1].cause, PP_CAUSE_CORE_OFF);
    ck_assert_uint_eq(fr->core[1].gaps, 4);
    ck_assert_uint_eq(fr->core[1].period_gaps, 4);
    ck_assert(!rate(1, CYC)->ok);
    ck_assert(isnan(rate(1, CYC)->hist[1]));
    ck_assert_int_eq(fr->core[0].state, TOPVIEW_OK);
    ck_assert_double_eq_tol(rate(0, CYC)->now, 100000.0, 1e-6);
}
END_TEST

START_TEST(core_back_from_a_gap_waits_for_a_fresh_baseline_then_counts)
{
    baseline(0);
    sample(1, 10000);
    gap(1, PP_CAUSE_OS_LOCK);
    deliver();
    sample(2, 20000);
    discont(1, PP_EXT_WHY_GAP, 3);                 /* back: a new baseline */
    deliver();
    topview_tick(tv, fr);
    ck_assert_int_eq(fr->core[1].state, TOPVIEW_WAIT);
    ck_assert_uint_eq(fr->core[1].period_gaps, 1);
    ck_assert_uint_eq(fr->core[1].why, PP_EXT_WHY_GAP);
    steady(3, 30000, 2, 0, 0, 500, 500);
    topview_tick(tv, fr);
    ck_assert_int_eq(fr->core[1].state, TOPVIEW_OK);
    ck_assert_uint_eq(fr->core[1].period_gaps, 0);
    ck_assert_double_eq_tol(rate(1, CYC)->now, 50000.0, 1e-6);
}
END_TEST

START_TEST(drop_record_is_counted_and_the_next_delta_is_not_placed_in_time)
{
    baseline(0);
    steady(1, 10000, 2, 1000, 1000, 0, 0);
    sample(3, 0);
    rec->kind = PP_CAP_DROP;
    rec->dropped = 5;
    deliver();
    /* seq 8 follows the dropped 3..7: its delta covers 7 -> 8, unknown here. */
    sample(8, 80000);
    deltas(77777, 0, 0, 0);
    deliver();
    steady(9, 90000, 1, 1000, 1000, 0, 0);
    topview_tick(tv, fr);
    ck_assert_uint_eq(fr->dropped, 5);
    ck_assert_double_eq_tol(rate(0, CYC)->now, 100000.0, 1e-6);   /* 3 x 1000 in 30 ms */
}
END_TEST

START_TEST(sample_over_half_an_interval_late_is_counted_late)
{
    baseline(0);
    sample(1, 10000);
    rec->late_ns = 5 * MS;                         /* exactly half: on time */
    deliver();
    sample(2, 20000);
    rec->late_ns = 5 * MS + 1;
    deliver();
    topview_tick(tv, fr);
    ck_assert_uint_eq(fr->late, 1);
}
END_TEST

START_TEST(end_of_the_capture_is_in_the_frame)
{
    struct pp_cap_summary sum = { .stop = PP_CAP_STOP_LINK };

    baseline(0);
    ck_assert_int_eq(out.end(out.ctx, &sum), PP_OK);
    topview_tick(tv, fr);
    ck_assert(fr->ended);
    ck_assert_int_eq(fr->stop, PP_CAP_STOP_LINK);
}
END_TEST

START_TEST(record_before_the_description_is_refused)
{
    struct topview *fresh = topview_new();
    struct pp_cap_out o = topview_out(fresh);

    sample(0, 0);
    ck_assert_int_ne(o.write(o.ctx, rec), PP_OK);
    ck_assert_ptr_nonnull(o.errmsg(o.ctx));
    topview_tick(fresh, fr);
    ck_assert(!fr->begun);
    topview_free(fresh);
}
END_TEST

/* ---- formatting and the text frame -------------------------------------------------------------- */

START_TEST(rates_are_written_with_three_digits_and_an_si_prefix)
{
    static const struct { double r; const char *s; } cases[] = {
        { 2.384e9, "2.38 G/s" }, { 812.3e6, "812 M/s" }, { 60.24e3, "60.2 K/s" },
        { 17.0, "17.0 /s" }, { 0.0, "0.00 /s" }, { 999.97e6, "1.00 G/s" },
        { 1.5e12, "1.50 T/s" }, { 999.0, "999 /s" },
    };
    char buf[32];

    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
        ck_assert_str_eq(topview_fmt_rate(cases[i].r, buf, sizeof(buf)), cases[i].s);
}
END_TEST

START_TEST(sparkline_levels_span_the_values_shown)
{
    ck_assert_int_eq(topview_level(10.0f, 10.0f, 20.0f, 8), 0);
    ck_assert_int_eq(topview_level(20.0f, 10.0f, 20.0f, 8), 7);
    ck_assert_int_eq(topview_level(15.0f, 10.0f, 20.0f, 8), 4);
    ck_assert_int_eq(topview_level(NAN, 10.0f, 20.0f, 8), -1);
}
END_TEST

START_TEST(sparkline_of_a_steady_rate_with_jitter_is_flat)
{
    /* 0.1 % jitter on 2.4 G/s is noise, not a swing: one level, mid height */
    ck_assert_int_eq(topview_level(2.3988e9f, 2.3988e9f, 2.4012e9f, 8), 4);
    ck_assert_int_eq(topview_level(2.3999e9f, 2.3988e9f, 2.4012e9f, 8), 4);
    ck_assert_int_eq(topview_level(2.4001e9f, 2.3988e9f, 2.4012e9f, 8), 4);
    ck_assert_int_eq(topview_level(2.4012e9f, 2.3988e9f, 2.4012e9f, 8), 4);
    ck_assert_int_eq(topview_level(5.0f, 5.0f, 5.0f, 8), 4);
    ck_assert_int_eq(topview_level(0.0f, 0.0f, 0.0f, 8), 4);
}
END_TEST

/* Cores whose rates read the same (2.40 G/s) are ties whatever their last
 * digits: they keep cpu order, so the view does not reshuffle with every
 * refresh; a gap goes last. */
START_TEST(busiest_order_keeps_cpu_order_between_cores_that_read_the_same)
{
    static const double now[4] = { 2.3991e9, 2.4012e9, 1.1e9, 2.4003e9 };
    struct topview_frame *f = topview_frame_new();
    unsigned idx[4];

    ck_assert_ptr_nonnull(f);
    f->ncores = 4;
    for (unsigned k = 0; k < 4; k++) {
        f->core[k].cpu = k;
        f->core[k].state = TOPVIEW_OK;
        f->core[k].nev = 1;
        f->core[k].ev[0].rate.now = now[k];
        f->core[k].ev[0].rate.ok = true;
    }
    topdraw_order(f, TOPDRAW_SORT_BUSY, idx);
    ck_assert_uint_eq(idx[0], 0);
    ck_assert_uint_eq(idx[1], 1);
    ck_assert_uint_eq(idx[2], 3);
    ck_assert_uint_eq(idx[3], 2);
    f->core[1].state = TOPVIEW_GAP;
    f->core[2].ev[0].rate.now = 2.5e9;
    topdraw_order(f, TOPDRAW_SORT_BUSY, idx);
    ck_assert_uint_eq(idx[0], 2);
    ck_assert_uint_eq(idx[1], 0);
    ck_assert_uint_eq(idx[2], 3);
    ck_assert_uint_eq(idx[3], 1);
    free(f);
}
END_TEST

static char *text_of(const struct topview_frame *f)
{
    char *txt = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&txt, &len);

    ck_assert_ptr_nonnull(m);
    ck_assert_int_eq(topdraw_text(m, f), 0);
    fclose(m);
    return txt;
}

START_TEST(text_frame_names_target_cores_events_rates_and_metrics)
{
    char *txt;

    baseline(0);
    steady(1, 10000, 10, 20000000, 30000000, 1000, 500);
    topview_tick(tv, fr);
    txt = text_of(fr);
    ck_assert_ptr_nonnull(strstr(txt, "top - hand-made on sim - 0.10 s - 100.0 samples/s of "
                                      "100.0/s - late 0 - dropped 0\n"));
    ck_assert_ptr_nonnull(strstr(txt, "\ncpu0   cortex-a76     ok\n"));
    ck_assert_ptr_nonnull(strstr(txt, "\n    cycles                   2.00 G/s  total 200000000\n"));
    ck_assert_ptr_nonnull(strstr(txt, "\n    instructions             3.00 G/s"));
    ck_assert_ptr_nonnull(strstr(txt, "\n    IPC                         1.500\n"));
    ck_assert_ptr_nonnull(strstr(txt, "\n    cycles                    100 K/s  total 10000\n"));
    ck_assert_ptr_null(strstr(txt, "GAP"));
    free(txt);
}
END_TEST

START_TEST(text_frame_shows_a_gap_with_its_cause_and_no_rate)
{
    char *txt;

    baseline(0);
    sample(1, 10000);
    delta(0, CYC, 1000);
    delta(0, INS, 1000);
    gap(1, PP_CAUSE_CORE_OFF);
    deliver();
    topview_tick(tv, fr);
    txt = text_of(fr);
    ck_assert_ptr_nonnull(strstr(txt, "\ncpu1   cortex-a76     GAP core-off (core powered off), "
                                      "1 gap samples\n"));
    ck_assert_ptr_nonnull(strstr(txt, "\n    IPC                             -\n"));
    ck_assert_ptr_nonnull(strstr(txt, "\ncpu0   cortex-a76     ok\n"));
    free(txt);
}
END_TEST

START_TEST(text_frame_marks_a_discontinuity_by_name)
{
    char *txt;

    baseline(0);
    steady(1, 10000, 2, 1000, 1000, 1000, 1000);
    sample(3, 30000);
    delta(0, CYC, 1000);
    delta(0, INS, 1000);
    discont(1, PP_EXT_WHY_POWER, 3);
    deliver();
    topview_tick(tv, fr);
    txt = text_of(fr);
    ck_assert_ptr_nonnull(strstr(txt, "\ncpu1   cortex-a76     ok  discontinuity: power\n"));
    free(txt);
}
END_TEST

/* ---- a real capture on the simulated SoC ---------------------------------------------------- */

#define CL_ROM  0x81000000u

static const struct pp_workload sim_wl = {
    .clock_mhz = 2000, .ipc = 1.5, .l1d_pki = 350, .l1d_mpki = 12, .l1i_mpki = 4,
    .l2d_pki = 30, .l2d_mpki = 3, .br_pki = 180, .br_mpki = 6, .tlb_mpki = 1.5,
    .stall_fe = 0.12, .stall_be = 0.25, .phase_us = 1000, .swing = 0.3, .seed = 5,
};

struct simcap {
    struct fx_rig rig;
    struct pp_cap *cap;
    uint64_t c0[2], i0[2], c1[2], i1[2];   /* cpu totals at seq 0 and at the last seq */
    uint64_t count, off_at;                /* power cpu1 off at this seq (0: never) */
};

static void sim_hook(void *arg, uint64_t seq)
{
    struct simcap *sc = arg;
    unsigned at = seq == 0 ? 0 : 1;

    if (seq > 0)
        pp_sim_advance_ns(sc->rig.sim, 1 * MS);
    if (sc->off_at && seq == sc->off_at)
        ck_assert_int_eq(pp_sim_set_power(sc->rig.sim, 1, false), PP_OK);
    if (seq != 0 && seq != sc->count)
        return;
    sc->c0[at] = pp_sim_event_total(sc->rig.sim, 0, 0x11);
    sc->i0[at] = pp_sim_event_total(sc->rig.sim, 0, 0x08);
    sc->c1[at] = pp_sim_event_total(sc->rig.sim, 1, 0x11);
    sc->i1[at] = pp_sim_event_total(sc->rig.sim, 1, 0x08);
}

static void add_core(struct simcap *sc, unsigned cpu)
{
    const struct pp_core_desc *core = pp_target_core(sc->rig.t, cpu);
    struct pp_evsel ev[2];
    char err[256] = "";

    ck_assert_int_eq(pp_event_resolve(core->type, "cycles", &ev[0], err, sizeof(err)), PP_OK);
    ck_assert_int_eq(pp_event_resolve(core->type, "instructions", &ev[1], err, sizeof(err)),
                     PP_OK);
    ck_assert_msg(pp_cap_add_core(sc->cap, core, ev, 2, err, sizeof(err)) == PP_OK, "%s", err);
}

/* Two Cortex-A76 cores, cycles and instructions, count intervals as fast
 * as the path goes, 1 ms of target time per interval; the model ticked
 * once after the end. */
static void sim_capture(struct simcap *sc)
{
    struct pp_target *t = fx_target("top-sim", 0x80400000u, 0x1, 0x4B5, 0);
    struct pp_cap_config cfg;
    struct pp_cap_out o = topview_out(tv);
    char msg[512];

    fx_add_cluster(t, CL_ROM, 0x9, 0x4E4, 2);
    fx_add_core(t, "cortex-a76", 0, 0, CL_ROM + 0x10000u, CL_ROM + 0x30000u,
                CL_ROM + 0x20000u, 0x81000000u, &sim_wl);
    fx_add_core(t, "cortex-a76", 0, 1, CL_ROM + 0x110000u, CL_ROM + 0x130000u,
                CL_ROM + 0x120000u, 0x81000100u, &sim_wl);
    fx_rig_build(&sc->rig, t);
    cfg = (struct pp_cap_config){ .bus = sc->rig.bus, .target = "top-sim", .probe = "sim",
                                  .count = sc->count, .retry_ns = 1, .hook = sim_hook,
                                  .hook_arg = sc };
    sc->cap = pp_cap_new(&cfg);
    ck_assert_ptr_nonnull(sc->cap);
    add_core(sc, 0);
    add_core(sc, 1);
    for (unsigned k = 0; k < 2; k++)
        ck_assert_msg(pp_cap_program(sc->cap, k, 0, msg, sizeof(msg)) == PP_OK, "%s", msg);
    ck_assert_int_eq(pp_cap_run(sc->cap, &o), PP_OK);
    topview_tick(tv, fr);
}

static void sim_done(struct simcap *sc)
{
    pp_cap_free(sc->cap);
    fx_rig_down(&sc->rig);
}

START_TEST(real_capture_gives_the_simulated_totals_and_ipc)
{
    struct simcap sc = { .count = 20 };

    sim_capture(&sc);
    ck_assert(fr->ended);
    ck_assert_uint_eq(fr->samples, 21);
    ck_assert_str_eq(fr->target, "top-sim");
    ck_assert_uint_eq(fr->ncores, 2);
    ck_assert_str_eq(fr->core[0].ev[0].name, "cycles");
    ck_assert_int_eq(fr->core[0].state, TOPVIEW_OK);
    /* totals count from the first sample */
    ck_assert_uint_eq(fr->core[0].ev[0].total, sc.c0[1] - sc.c0[0]);
    ck_assert_uint_eq(fr->core[1].ev[1].total, sc.i1[1] - sc.i1[0]);
    ck_assert(rate(0, CYC)->ok && rate(0, CYC)->now > 0.0);
    /* IPC over the period is exact: both deltas come from the same samples */
    ck_assert_uint_eq(fr->core[0].nmetrics, 1);
    ck_assert_str_eq(fr->core[0].metric[0].name, "IPC");
    ck_assert_double_eq_tol(fr->core[0].metric[0].val.now,
                            (double)(sc.i0[1] - sc.i0[0]) / (double)(sc.c0[1] - sc.c0[0]), 1e-9);
    ck_assert_double_eq_tol(fr->core[1].metric[0].val.now,
                            (double)(sc.i1[1] - sc.i1[0]) / (double)(sc.c1[1] - sc.c1[0]), 1e-9);
    sim_done(&sc);
}
END_TEST

START_TEST(real_capture_with_a_core_powered_off_shows_its_gap_and_cause)
{
    struct simcap sc = { .count = 12, .off_at = 6 };

    sim_capture(&sc);
    ck_assert_int_eq(fr->core[1].state, TOPVIEW_GAP);
    ck_assert_int_eq(fr->core[1].cause, PP_CAUSE_CORE_OFF);
    ck_assert_uint_eq(fr->core[1].gaps, 7);          /* seq 6 .. 12 */
    ck_assert_int_eq(fr->core[0].state, TOPVIEW_OK);
    ck_assert(rate(0, CYC)->ok);
    ck_assert(rate(1, CYC)->ok);    /* cpu1 counted in seq 1 .. 5 of the same period */
    sim_done(&sc);
}
END_TEST

static Suite *topview_suite(void)
{
    Suite *s = suite_create("topview");
    TCase *tc;

    tc = tcase_create("Rates");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, rate_is_the_period_deltas_per_second_of_sample_time);
    tcase_add_test(tc, rate_follows_the_sample_times_not_the_sample_count);
    tcase_add_test(tc, each_tick_shows_only_its_own_period);
    tcase_add_test(tc, baseline_alone_gives_no_rate_and_the_core_waits);
    tcase_add_test(tc, untrusted_delta_is_left_out_of_that_events_rate_only);
    tcase_add_test(tc, tick_without_new_samples_keeps_rates_and_history);
    tcase_add_test(tc, achieved_rate_is_samples_over_the_time_since_the_previous_period);
    suite_add_tcase(s, tc);

    tc = tcase_create("History");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, history_holds_one_value_per_tick_oldest_first);
    tcase_add_test(tc, history_keeps_the_last_ticks_when_full);
    tcase_add_test(tc, tick_where_nothing_was_counted_is_nan_in_the_history);
    suite_add_tcase(s, tc);

    tc = tcase_create("Metrics");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, metric_is_the_ratio_of_the_period_deltas);
    tcase_add_test(tc, metric_leaves_out_samples_with_an_untrusted_delta);
    tcase_add_test(tc, metric_with_no_denominator_is_not_shown);
    suite_add_tcase(s, tc);

    tc = tcase_create("Gaps");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, gap_sample_marks_the_core_with_its_cause_and_the_others_go_on);
    tcase_add_test(tc, core_back_from_a_gap_waits_for_a_fresh_baseline_then_counts);
    tcase_add_test(tc, drop_record_is_counted_and_the_next_delta_is_not_placed_in_time);
    tcase_add_test(tc, sample_over_half_an_interval_late_is_counted_late);
    tcase_add_test(tc, end_of_the_capture_is_in_the_frame);
    tcase_add_test(tc, record_before_the_description_is_refused);
    suite_add_tcase(s, tc);

    tc = tcase_create("Text");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, rates_are_written_with_three_digits_and_an_si_prefix);
    tcase_add_test(tc, sparkline_levels_span_the_values_shown);
    tcase_add_test(tc, sparkline_of_a_steady_rate_with_jitter_is_flat);
    tcase_add_test(tc, busiest_order_keeps_cpu_order_between_cores_that_read_the_same);
    tcase_add_test(tc, text_frame_names_target_cores_events_rates_and_metrics);
    tcase_add_test(tc, text_frame_shows_a_gap_with_its_cause_and_no_rate);
    tcase_add_test(tc, text_frame_marks_a_discontinuity_by_name);
    suite_add_tcase(s, tc);

    tc = tcase_create("Capture");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, real_capture_gives_the_simulated_totals_and_ipc);
    tcase_add_test(tc, real_capture_with_a_core_powered_off_shows_its_gap_and_cause);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(topview_suite());
    int failed;

    srunner_run_all(sr, CK_NORMAL);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

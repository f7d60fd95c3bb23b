/*
 * check_plot.c - `pmuprobe plot`'s library (lib/plot): the selection of
 * events, metrics and cores against a capture, the model (rates from
 * deltas, breaks and bands), the axes, and the cairo renderer's output.
 *
 * Records are built by hand with sample times chosen so that every rate
 * is an exact number: samples every 10 ms, so a delta of 1000 is
 * 100000/s.
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capture/record.h"
#include "pmu/diag.h"
#include "pmu/extend.h"
#include "pmuprobe.h"
#include "plot/plot.h"
#include "fixture.h"

#define MS  1000000ull
#define T0  (7000 * MS)            /* CLOCK_MONOTONIC at the capture's start */

enum { CYC = 0, INS = 1 };         /* event indices in each core */

static struct pp_cap_meta meta;
static struct pp_plot *plot;
static struct pp_cap_sample *rec;

/* Three Cortex-A76 cores counting cycles and instructions every 10 ms. */
static void setup(void)
{
    fx_ipc_meta(&meta, 3, 10 * MS, T0);
    rec = calloc(1, pp_cap_record_size(&meta));
    plot = NULL;
}

static void teardown(void)
{
    pp_plot_free(plot);
    free(rec);
}

/* Rendering tests also hand back cairo's font caches: each test may end
 * its own (forked) process, and leak checkers look at every one. */
static void teardown_render(void)
{
    teardown();
    pp_plot_release_fonts();
}

static void new_plot(const char *events, const char *metric, const char *cpus)
{
    struct pp_plot_sel sel;
    char err[512];
    const char *m[1] = { metric };

    ck_assert_int_eq(pp_plot_select(&meta, events, m, metric ? 1 : 0, cpus, &sel, err,
                                    sizeof(err)), PP_OK);
    plot = pp_plot_new(&meta, &sel);
    ck_assert_ptr_nonnull(plot);
}

/* Sample seq at 10 ms x seq; every core read and trusted, cycles delta
 * cyc and instructions delta ins. */
static void sample(uint64_t seq, uint64_t cyc, uint64_t ins)
{
    struct pp_cap_cstat *cs = pp_cap_cstats(rec);
    struct pp_cap_val *v;

    memset(rec, 0, pp_cap_record_size(&meta));
    rec->kind = PP_CAP_SAMPLE;
    rec->ncores = meta.ncores;
    rec->nvals = meta.nvals;
    rec->seq = seq;
    rec->t_start_ns = T0 + seq * 10 * MS;
    rec->t_end_ns = rec->t_start_ns + 1000;
    v = pp_cap_vals(rec);
    for (unsigned k = 0; k < meta.ncores; k++) {
        cs[k].status = seq == 0 ? PP_CAP_DISCONT : PP_CAP_OK;
        cs[k].why = seq == 0 ? PP_EXT_WHY_START : 0;
        cs[k].discont = seq == 0 ? 3u : 0u;
        v[2 * k + CYC].delta = seq == 0 ? 0 : cyc;
        v[2 * k + INS].delta = seq == 0 ? 0 : ins;
    }
}

static void add(void)
{
    ck_assert_int_eq(pp_plot_add(plot, rec), PP_OK);
}

static void add_sample(uint64_t seq, uint64_t cyc, uint64_t ins)
{
    sample(seq, cyc, ins);
    add();
}

/* Core k of the record in hand: a gap with this cause. */
static void make_gap(unsigned k, unsigned cause)
{
    struct pp_cap_cstat *cs = &pp_cap_cstats(rec)[k];
    struct pp_cap_val *v = pp_cap_vals(rec) + meta.core[k].first;

    *cs = (struct pp_cap_cstat){ .status = PP_CAP_GAP, .cause = (uint8_t)cause,
                                 .why = PP_EXT_WHY_READ, .discont = 3u };
    v[CYC].delta = v[INS].delta = 0;
}

static void make_discont(unsigned k, unsigned why, uint32_t discont)
{
    struct pp_cap_cstat *cs = &pp_cap_cstats(rec)[k];

    *cs = (struct pp_cap_cstat){ .status = PP_CAP_DISCONT, .why = (uint16_t)why,
                                 .discont = discont };
    for (unsigned i = 0; i < 2; i++)
        if (discont >> i & 1u)
            pp_cap_vals(rec)[meta.core[k].first + i].delta = 0;
}

static const struct pp_plot_series *series(unsigned panel, unsigned core)
{
    const struct pp_plot_series *s = pp_plot_series_of(plot, panel, core);

    ck_assert_ptr_nonnull(s);
    return s;
}

/* The finite values of a series, in order. */
static size_t values(const struct pp_plot_series *s, double *out, size_t max)
{
    size_t n = 0;

    for (size_t i = 0; i < s->npts && n < max; i++)
        if (!isnan(s->pts[i].v))
            out[n++] = s->pts[i].v;
    return n;
}

/* ---- selection ---------------------------------------------------------------------- */

START_TEST(without_events_or_metrics_every_captured_event_is_a_panel)
{
    new_plot(NULL, NULL, NULL);
    ck_assert_uint_eq(plot->sel.npanels, 2);
    ck_assert_str_eq(plot->sel.panel[0].name, "cycles");
    ck_assert_str_eq(plot->sel.panel[1].name, "instructions");
    ck_assert_uint_eq(plot->nseries, 6);
}
END_TEST

START_TEST(events_are_found_by_catalog_mnemonic_in_any_case)
{
    new_plot("inst_retired", NULL, NULL);
    ck_assert_uint_eq(plot->sel.npanels, 1);
    ck_assert_str_eq(plot->sel.panel[0].name, "instructions");
}
END_TEST

START_TEST(metric_ipc_is_found_whatever_its_case)
{
    new_plot(NULL, "ipc", NULL);
    ck_assert_uint_eq(plot->sel.npanels, 1);
    ck_assert(plot->sel.panel[0].metric);
    ck_assert_str_eq(plot->sel.panel[0].name, "IPC");
}
END_TEST

START_TEST(metric_names_ignore_spaces_dashes_and_underscores)
{
    ck_assert_int_ge(pp_plot_find_metric(&(struct pp_cap_core){
        .nmetrics = 1, .metric = { { .name = "L1D MPKI" } } }, "l1d-mpki"), 0);
    ck_assert_int_ge(pp_plot_find_metric(&(struct pp_cap_core){
        .nmetrics = 1, .metric = { { .name = "branch miss %" } } }, "BRANCH_MISS_%"), 0);
    ck_assert_int_lt(pp_plot_find_metric(&(struct pp_cap_core){
        .nmetrics = 1, .metric = { { .name = "L1D MPKI" } } }, "l1d"), 0);
}
END_TEST

START_TEST(unknown_event_is_refused_naming_it_and_listing_the_captured_ones)
{
    struct pp_plot_sel sel;
    char err[512];

    ck_assert_int_eq(pp_plot_select(&meta, "cycles,L2D_CACHE", NULL, 0, NULL, &sel, err,
                                    sizeof(err)), PP_E_INVAL);
    ck_assert_ptr_nonnull(strstr(err, "'L2D_CACHE'"));
    ck_assert_ptr_nonnull(strstr(err, "it has: cycles, instructions)"));
}
END_TEST

START_TEST(unknown_metric_is_refused_listing_the_metrics_the_capture_has)
{
    struct pp_plot_sel sel;
    const char *m[] = { "mpki" };
    char err[512];

    ck_assert_int_eq(pp_plot_select(&meta, NULL, m, 1, NULL, &sel, err, sizeof(err)),
                     PP_E_INVAL);
    ck_assert_ptr_nonnull(strstr(err, "no metric 'mpki'"));
    ck_assert_ptr_nonnull(strstr(err, "it has: IPC)"));
}
END_TEST

START_TEST(cpu_not_in_the_capture_is_refused_listing_the_cpus_it_has)
{
    struct pp_plot_sel sel;
    char err[512];

    ck_assert_int_eq(pp_plot_select(&meta, NULL, NULL, 0, "cpu1,cpu7", &sel, err, sizeof(err)),
                     PP_E_INVAL);
    ck_assert_ptr_nonnull(strstr(err, "no cpu7"));
    ck_assert_ptr_nonnull(strstr(err, "cpu0, cpu1, cpu2"));
}
END_TEST

START_TEST(cpu_selection_keeps_only_those_cores_series)
{
    new_plot("cycles", NULL, "0,2");
    ck_assert_uint_eq(plot->nseries, 2);
    ck_assert_ptr_nonnull(pp_plot_series_of(plot, 0, 0));
    ck_assert_ptr_null(pp_plot_series_of(plot, 0, 1));
    ck_assert_ptr_nonnull(pp_plot_series_of(plot, 0, 2));
}
END_TEST

/* ---- model ------------------------------------------------------------------------- */

START_TEST(rate_is_the_delta_over_the_interval_not_the_running_count)
{
    double v[4];

    new_plot("cycles", NULL, NULL);
    add_sample(0, 0, 0);
    add_sample(1, 1000, 500);
    add_sample(2, 3000, 500);
    ck_assert_uint_eq(values(series(0, 0), v, 4), 2);
    ck_assert_double_eq_tol(v[0], 100000.0, 1e-6);   /* 1000 in 10 ms */
    ck_assert_double_eq_tol(v[1], 300000.0, 1e-6);
    ck_assert_double_eq_tol(series(0, 0)->pts[series(0, 0)->npts - 1].t, 0.020, 1e-12);
}
END_TEST

START_TEST(first_sample_is_a_baseline_without_a_rate)
{
    new_plot("cycles", NULL, NULL);
    add_sample(0, 0, 0);
    ck_assert_uint_eq(pp_plot_pieces(series(0, 0)), 0);
    ck_assert_uint_eq(plot->nbands, 0);
}
END_TEST

START_TEST(a_gap_splits_the_core_series_into_two_pieces)
{
    new_plot("cycles", NULL, NULL);
    add_sample(0, 0, 0);
    for (uint64_t s = 1; s <= 3; s++)
        add_sample(s, 1000, 1000);
    sample(4, 1000, 1000);
    make_gap(1, PP_CAUSE_CORE_OFF);
    add();
    sample(5, 1000, 1000);
    make_discont(1, PP_EXT_WHY_GAP | PP_EXT_WHY_POWER, 3u);
    add();
    for (uint64_t s = 6; s <= 8; s++)
        add_sample(s, 1000, 1000);
    ck_assert_uint_eq(pp_plot_pieces(series(0, 1)), 2);
    ck_assert_uint_eq(pp_plot_pieces(series(0, 0)), 1);
    ck_assert_uint_eq(pp_plot_pieces(series(0, 2)), 1);
}
END_TEST

START_TEST(a_gap_is_a_band_of_the_core_named_by_its_cause)
{
    new_plot("cycles", NULL, NULL);
    add_sample(0, 0, 0);
    add_sample(1, 1000, 1000);
    sample(2, 1000, 1000);
    make_gap(2, PP_CAUSE_OS_LOCK);
    add();
    sample(3, 1000, 1000);
    make_gap(2, PP_CAUSE_OS_LOCK);
    add();
    add_sample(4, 1000, 1000);
    ck_assert_uint_eq(plot->nbands, 1);
    ck_assert_uint_eq(plot->bands[0].core, 2);
    ck_assert_uint_eq(plot->bands[0].reason, PP_CAUSE_OS_LOCK);
    ck_assert_double_eq_tol(plot->bands[0].t0, 0.010, 1e-12);
    ck_assert_double_eq_tol(plot->bands[0].t1, 0.030, 1e-12);
    ck_assert_str_eq(pp_plot_reason_str(plot->bands[0].reason), pp_cause_str(PP_CAUSE_OS_LOCK));
}
END_TEST

START_TEST(sample_after_a_gap_extends_the_gap_band_instead_of_adding_one)
{
    new_plot("cycles", NULL, NULL);
    add_sample(0, 0, 0);
    add_sample(1, 1000, 1000);
    sample(2, 1000, 1000);
    make_gap(0, PP_CAUSE_CORE_OFF);
    add();
    sample(3, 1000, 1000);
    make_discont(0, PP_EXT_WHY_GAP | PP_EXT_WHY_POWER, 3u);
    add();
    add_sample(4, 1000, 1000);
    ck_assert_uint_eq(plot->nbands, 1);
    ck_assert_uint_eq(plot->bands[0].reason, PP_CAUSE_CORE_OFF);
    ck_assert_double_eq_tol(plot->bands[0].t1, 0.030, 1e-12);
}
END_TEST

START_TEST(untrusted_delta_breaks_the_line_and_names_the_discontinuity)
{
    new_plot("cycles", NULL, NULL);
    add_sample(0, 0, 0);
    add_sample(1, 1000, 1000);
    sample(2, 1000, 1000);
    make_discont(1, PP_EXT_WHY_RESET, 1u << CYC);
    add();
    add_sample(3, 1000, 1000);
    add_sample(4, 1000, 1000);
    ck_assert_uint_eq(pp_plot_pieces(series(0, 1)), 2);
    ck_assert_uint_eq(plot->nbands, 1);
    ck_assert_str_eq(pp_plot_reason_name(plot->bands[0].reason), "reset");
}
END_TEST

START_TEST(dropped_samples_break_every_line_and_band_all_cores)
{
    new_plot("cycles", NULL, NULL);
    add_sample(0, 0, 0);
    add_sample(1, 1000, 1000);
    add_sample(2, 1000, 1000);
    memset(rec, 0, pp_cap_record_size(&meta));
    rec->kind = PP_CAP_DROP;
    rec->seq = 3;
    rec->dropped = 2;
    add();
    add_sample(5, 5000, 1000);   /* its delta spans the lost ones: no rate */
    add_sample(6, 1000, 1000);
    add_sample(7, 1000, 1000);
    for (unsigned k = 0; k < 3; k++)
        ck_assert_uint_eq(pp_plot_pieces(series(0, k)), 2);
    ck_assert_uint_eq(plot->nbands, 1);
    ck_assert_uint_eq(plot->bands[0].reason, PP_PLOT_DROP);
    ck_assert_uint_eq(plot->bands[0].core, PP_CAP_MAX_CORES);
    ck_assert_uint_eq(plot->dropped, 2);
}
END_TEST

START_TEST(metric_ipc_is_instructions_over_cycles_of_each_interval)
{
    double v[4];

    new_plot(NULL, "IPC", NULL);
    add_sample(0, 0, 0);
    add_sample(1, 2000, 5000);
    add_sample(2, 4000, 1000);
    ck_assert_uint_eq(values(series(0, 0), v, 4), 2);
    ck_assert_double_eq_tol(v[0], 2.5, 1e-12);
    ck_assert_double_eq_tol(v[1], 0.25, 1e-12);
}
END_TEST

START_TEST(metric_with_no_cycles_in_the_interval_has_no_value)
{
    double v[4];

    new_plot(NULL, "IPC", NULL);
    add_sample(0, 0, 0);
    add_sample(1, 0, 5000);
    add_sample(2, 1000, 1000);
    ck_assert_uint_eq(values(series(0, 0), v, 4), 1);
    ck_assert_double_eq_tol(v[0], 1.0, 1e-12);
}
END_TEST

START_TEST(record_that_does_not_fit_the_description_is_refused)
{
    new_plot(NULL, NULL, NULL);
    sample(0, 0, 0);
    rec->nvals = 4;
    ck_assert_int_eq(pp_plot_add(plot, rec), PP_E_INVAL);
}
END_TEST

/* ---- axes -------------------------------------------------------------------------- */

START_TEST(tick_steps_are_one_two_or_five_times_a_power_of_ten)
{
    ck_assert_double_eq_tol(pp_plot_nice_step(1.0, 5), 0.2, 1e-12);
    ck_assert_double_eq_tol(pp_plot_nice_step(2.4e9, 5), 5e8, 1e-3);
    ck_assert_double_eq_tol(pp_plot_nice_step(7.0, 10), 1.0, 1e-12);
    ck_assert_double_eq_tol(pp_plot_nice_step(0.0, 5), 1.0, 1e-12);
}
END_TEST

START_TEST(rate_labels_use_si_prefixes)
{
    char b[32];

    pp_plot_si_label(1.2e9, 2e8, "/s", b, sizeof(b));
    ck_assert_str_eq(b, "1.2G/s");
    pp_plot_si_label(850e3, 50e3, "/s", b, sizeof(b));
    ck_assert_str_eq(b, "850k/s");
    pp_plot_si_label(0.0, 5e8, "/s", b, sizeof(b));
    ck_assert_str_eq(b, "0/s");
    pp_plot_si_label(1.5, 0.5, "", b, sizeof(b));
    ck_assert_str_eq(b, "1.5");
    pp_plot_si_label(3e6, 1e6, "/s", b, sizeof(b));
    ck_assert_str_eq(b, "3M/s");
}
END_TEST

/* ---- rendering --------------------------------------------------------------------- */

static void fill_capture(void)
{
    new_plot(NULL, NULL, NULL);
    add_sample(0, 0, 0);
    for (uint64_t s = 1; s < 40; s++) {
        sample(s, 24000000 + s * 1000, 30000000);
        if (s >= 15 && s < 25)
            make_gap(1, PP_CAUSE_CORE_OFF);
        add();
    }
}

/* Renders into memory; returns the bytes (malloc'd) and their count. */
static char *render(enum pp_plot_format fmt, unsigned w, unsigned h, size_t *len, int *rc)
{
    struct pp_plot_style st = { .width = w, .height = h };
    char *buf = NULL, err[256];
    FILE *f = open_memstream(&buf, len);

    ck_assert_ptr_nonnull(f);
    *rc = pp_plot_render(plot, &st, fmt, f, err, sizeof(err));
    fclose(f);
    return buf;
}

static uint32_t be32(const unsigned char *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

START_TEST(png_has_the_size_asked_for)
{
    size_t len;
    int rc;
    unsigned char *png;

    fill_capture();
    png = (unsigned char *)render(PP_PLOT_PNG, 900, 700, &len, &rc);
    ck_assert_int_eq(rc, PP_OK);
    ck_assert_uint_gt(len, 33);
    ck_assert_int_eq(memcmp(png, "\x89PNG\r\n\x1a\n", 8), 0);
    ck_assert_int_eq(memcmp(png + 12, "IHDR", 4), 0);
    ck_assert_uint_eq(be32(png + 16), 900);
    ck_assert_uint_eq(be32(png + 20), 700);
    free(png);
}
END_TEST

/* Cairo numbers its surfaces and clip paths per process (id="surface3",
 * url(#clip8)), so within one process the numbers differ; a fresh
 * process (plot.test runs the command twice) starts from the same ones.
 * Drops the digits after "surface" and "clip". */
static size_t drop_cairo_ids(char *svg, size_t len)
{
    size_t o = 0;

    for (size_t i = 0; i < len; i++) {
        size_t skip = strncmp(svg + i, "surface", 7) == 0 ? 7
                      : strncmp(svg + i, "clip", 4) == 0 ? 4 : 0;

        if (skip) {
            memmove(svg + o, svg + i, skip);
            o += skip;
            i += skip;
            while (i < len && svg[i] >= '0' && svg[i] <= '9')
                i++;
            i--;
            continue;
        }
        svg[o++] = svg[i];
    }
    return o;
}

START_TEST(same_model_renders_the_same_svg_bytes)
{
    size_t la, lb;
    int rc;
    char *a, *b;

    fill_capture();
    a = render(PP_PLOT_SVG, 0, 0, &la, &rc);
    ck_assert_int_eq(rc, PP_OK);
    b = render(PP_PLOT_SVG, 0, 0, &lb, &rc);
    la = drop_cairo_ids(a, la);
    lb = drop_cairo_ids(b, lb);
    ck_assert_uint_eq(la, lb);
    ck_assert_int_eq(memcmp(a, b, la), 0);
    free(a);
    free(b);
}
END_TEST

START_TEST(svg_strokes_one_path_per_piece_of_each_series)
{
    size_t len, n = 0;
    int rc;
    char *svg;

    fill_capture();
    svg = render(PP_PLOT_SVG, 0, 0, &len, &rc);
    ck_assert_int_eq(rc, PP_OK);
    svg = realloc(svg, len + 1);
    svg[len] = '\0';
    /* series lines are the only strokes 1.6 wide (the last core's):
     * 2 panels x 1 piece of cpu2 */
    for (const char *p = svg; (p = strstr(p, "stroke-width:1.6;")) != NULL; p++)
        n++;
    ck_assert_uint_eq(n, 2);
    free(svg);
}
END_TEST

/* Equal values of several cores must not hide each other: each core's
 * line is 1.2 wider than the next one's, drawn under it. */
START_TEST(svg_lines_nest_wider_for_each_core_before)
{
    size_t len, n[3] = { 0 };
    static const char *const width[3] = { "stroke-width:4;", "stroke-width:2.8;",
                                          "stroke-width:1.6;" };
    int rc;
    char *svg;

    fill_capture();
    svg = render(PP_PLOT_SVG, 0, 0, &len, &rc);
    ck_assert_int_eq(rc, PP_OK);
    svg = realloc(svg, len + 1);
    svg[len] = '\0';
    for (unsigned k = 0; k < 3; k++)
        for (const char *p = svg; (p = strstr(p, width[k])) != NULL; p++)
            n[k]++;
    /* 2 panels x 1, 2 (cpu1's gap) and 1 pieces */
    ck_assert_uint_eq(n[0], 2);
    ck_assert_uint_eq(n[1], 4);
    ck_assert_uint_eq(n[2], 2);
    free(svg);
}
END_TEST

START_TEST(legend_names_the_cores_a_gap_took_in_the_tools_spelling)
{
    char text[8][PP_PLOT_LEGEND_LEN];

    fill_capture();
    ck_assert_uint_eq(pp_plot_legend(plot, text, 8), 4);
    ck_assert_str_eq(text[0], "cpu0 cortex-a76");
    ck_assert_str_eq(text[2], "cpu2 cortex-a76");
    ck_assert_str_eq(text[3], "cpu1: no value (core powered off)");
}
END_TEST

START_TEST(size_too_small_for_the_panels_is_refused_with_the_minimum)
{
    struct pp_plot_style st = { .width = 900, .height = 100 };
    char err[256];
    FILE *f = fopen("/dev/null", "wb");

    fill_capture();
    ck_assert_int_eq(pp_plot_render(plot, &st, PP_PLOT_PNG, f, err, sizeof(err)), PP_E_INVAL);
    ck_assert_ptr_nonnull(strstr(err, "too small for 2 panels: at least"));
    fclose(f);
}
END_TEST

static Suite *plot_suite(void)
{
    Suite *s = suite_create("plot");
    TCase *sel = tcase_create("Selection");
    TCase *model = tcase_create("Model");
    TCase *axes = tcase_create("Axes");
    TCase *draw = tcase_create("Rendering");

    tcase_add_checked_fixture(sel, setup, teardown);
    tcase_add_test(sel, without_events_or_metrics_every_captured_event_is_a_panel);
    tcase_add_test(sel, events_are_found_by_catalog_mnemonic_in_any_case);
    tcase_add_test(sel, metric_ipc_is_found_whatever_its_case);
    tcase_add_test(sel, metric_names_ignore_spaces_dashes_and_underscores);
    tcase_add_test(sel, unknown_event_is_refused_naming_it_and_listing_the_captured_ones);
    tcase_add_test(sel, unknown_metric_is_refused_listing_the_metrics_the_capture_has);
    tcase_add_test(sel, cpu_not_in_the_capture_is_refused_listing_the_cpus_it_has);
    tcase_add_test(sel, cpu_selection_keeps_only_those_cores_series);
    suite_add_tcase(s, sel);

    tcase_add_checked_fixture(model, setup, teardown);
    tcase_add_test(model, rate_is_the_delta_over_the_interval_not_the_running_count);
    tcase_add_test(model, first_sample_is_a_baseline_without_a_rate);
    tcase_add_test(model, a_gap_splits_the_core_series_into_two_pieces);
    tcase_add_test(model, a_gap_is_a_band_of_the_core_named_by_its_cause);
    tcase_add_test(model, sample_after_a_gap_extends_the_gap_band_instead_of_adding_one);
    tcase_add_test(model, untrusted_delta_breaks_the_line_and_names_the_discontinuity);
    tcase_add_test(model, dropped_samples_break_every_line_and_band_all_cores);
    tcase_add_test(model, metric_ipc_is_instructions_over_cycles_of_each_interval);
    tcase_add_test(model, metric_with_no_cycles_in_the_interval_has_no_value);
    tcase_add_test(model, record_that_does_not_fit_the_description_is_refused);
    suite_add_tcase(s, model);

    tcase_add_test(axes, tick_steps_are_one_two_or_five_times_a_power_of_ten);
    tcase_add_test(axes, rate_labels_use_si_prefixes);
    suite_add_tcase(s, axes);

    tcase_add_checked_fixture(draw, setup, teardown_render);
    tcase_set_timeout(draw, 60);
    tcase_add_test(draw, png_has_the_size_asked_for);
    tcase_add_test(draw, same_model_renders_the_same_svg_bytes);
    tcase_add_test(draw, svg_strokes_one_path_per_piece_of_each_series);
    tcase_add_test(draw, svg_lines_nest_wider_for_each_core_before);
    tcase_add_test(draw, legend_names_the_cores_a_gap_took_in_the_tools_spelling);
    tcase_add_test(draw, size_too_small_for_the_panels_is_refused_with_the_minimum);
    suite_add_tcase(s, draw);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(plot_suite());
    int failed;

    srunner_run_all(sr, CK_NORMAL);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

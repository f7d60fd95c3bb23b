/*
 * check_trace.c - the wire trace as a library caller sees it
 * (pp_open_opts.trace, pp_session_set_trace) and the tracer's decoding of
 * DP/AP accesses (lib/trace.c): SELECT and TAR followed, DRW moving TAR on
 * inside 1 KB, BD0-BD3 naming their word, APB addresses named by core.
 * Facts: spec/arm-pmu-coresight.md 7.1-7.3.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pmuprobe.h"
#include "trace.h"
#include "target/target.h"

#define PMCR0 0x81030E04u         /* a76-cluster: cpu0's PMU at 0x81030000 */

struct seen {
    unsigned n;
    char last[256];
    char reg[64];
    int layer;
    uint64_t value;
    char status[16];
};

static void collect(void *user, const struct pp_trace_rec *rec)
{
    struct seen *s = user;

    s->n++;
    s->layer = rec->layer;
    s->value = rec->value;
    snprintf(s->last, sizeof(s->last), "%s", rec->text);
    snprintf(s->reg, sizeof(s->reg), "%s", rec->reg);
    snprintf(s->status, sizeof(s->status), "%s", rec->status);
}

START_TEST(test_open_option_traces_apb_reads_by_register_name)
{
    struct seen seen = { 0 };
    struct pp_open_opts o = { .trace = collect, .trace_user = &seen,
                              .trace_level = PP_TRACE_APB };
    struct pp_session *s;
    char err[256];
    uint32_t v;

    ck_assert_int_eq(pp_session_open("a76-cluster", "sim", &o, &s, err, sizeof(err)), PP_OK);
    seen.n = 0;
    ck_assert_int_eq(pp_bus_read32(pp_session_bus(s), PMCR0, &v), PP_OK);
    ck_assert_uint_eq(seen.n, 1);
    ck_assert_int_eq(seen.layer, PP_TRACE_APB);
    ck_assert_str_eq(seen.reg, "cpu0 PMCR");
    ck_assert_str_eq(seen.status, "ok");
    ck_assert_uint_eq(seen.value, v);
    ck_assert_ptr_nonnull(strstr(seen.last, "0x81030E04"));
    pp_session_close(s);
}
END_TEST

START_TEST(test_set_trace_null_stops_the_records)
{
    struct seen seen = { 0 };
    struct pp_session *s;
    char err[256];
    uint32_t v;

    ck_assert_int_eq(pp_session_open("a76-cluster", "sim", NULL, &s, err, sizeof(err)), PP_OK);
    ck_assert_int_eq(pp_session_set_trace(s, collect, &seen, PP_TRACE_APB), PP_OK);
    ck_assert_int_eq(pp_bus_read32(pp_session_bus(s), PMCR0, &v), PP_OK);
    ck_assert_uint_eq(seen.n, 1);
    ck_assert_int_eq(pp_session_set_trace(s, NULL, NULL, 0), PP_OK);
    ck_assert_int_eq(pp_bus_read32(pp_session_bus(s), PMCR0, &v), PP_OK);
    ck_assert_uint_eq(seen.n, 1);
    pp_session_close(s);
}
END_TEST

START_TEST(test_a_failed_read_has_its_status_and_no_value)
{
    static const char *const faults[] = { "cpu0:off" };
    struct seen seen = { 0 };
    struct pp_open_opts o = { .faults = faults, .nfaults = 1, .trace = collect,
                              .trace_user = &seen, .trace_level = PP_TRACE_APB };
    struct pp_session *s;
    char err[256];
    uint32_t v;

    ck_assert_int_eq(pp_session_open("a76-cluster", "sim", &o, &s, err, sizeof(err)), PP_OK);
    ck_assert_int_ne(pp_bus_read32(pp_session_bus(s), PMCR0, &v), PP_OK);
    ck_assert_str_eq(seen.status, "error");
    ck_assert_ptr_nonnull(strstr(seen.last, "-> -"));
    pp_session_close(s);
}
END_TEST

/* ---- the tracer's DP/AP decoding ------------------------------------------ */

static struct pp_trace *dap_tracer(struct seen *seen)
{
    struct pp_target *t = NULL;
    struct pp_trace *tr = pp_trace_new(collect, seen, PP_TRACE_DAP);
    char path[512], err[256];

    ck_assert_ptr_nonnull(tr);
    snprintf(path, sizeof(path), "%s/a76-cluster.target", PP_SRCTARGETDIR);
    ck_assert_msg(pp_target_load(path, &t, err, sizeof(err)) == PP_OK, "%s", err);
    ck_assert_int_eq(pp_trace_set_target(tr, t), PP_OK);
    pp_target_free(t);          /* the tracer keeps its own copy */
    return tr;
}

static void dap(struct pp_trace *tr, bool ap, bool rnw, uint8_t a, uint32_t value)
{
    struct pp_trace_dap d = { .ap = ap, .rnw = rnw, .a = a, .value = value,
                              .has_value = true, .ack = "OK" };

    pp_trace_dap(tr, &d);
}

START_TEST(test_drw_is_named_by_the_tar_written_before_it)
{
    struct seen seen = { 0 };
    struct pp_trace *tr = dap_tracer(&seen);

    dap(tr, false, false, 0x8, 0x00000000);       /* SELECT: AP 0, bank 0 */
    ck_assert_str_eq(seen.reg, "SELECT");
    dap(tr, true, false, 0x4, 0x81030E20u);       /* TAR */
    ck_assert_str_eq(seen.reg, "TAR");
    dap(tr, true, true, 0xC, 0x41);               /* DRW */
    ck_assert_str_eq(seen.reg, "DRW");
    ck_assert_ptr_nonnull(strstr(seen.last, "[0x81030E20 cpu0 PMCEID0]"));
    /* Single auto-increment: the next DRW reaches the next word. */
    dap(tr, true, true, 0xC, 0);
    ck_assert_ptr_nonnull(strstr(seen.last, "[0x81030E24 cpu0 PMCEID1]"));
    pp_trace_free(tr);
}
END_TEST

START_TEST(test_tar_increment_wraps_inside_1kb)
{
    struct seen seen = { 0 };
    struct pp_trace *tr = dap_tracer(&seen);

    dap(tr, false, false, 0x8, 0);
    dap(tr, true, false, 0x4, 0x81030BFCu);
    dap(tr, true, true, 0xC, 0);
    dap(tr, true, true, 0xC, 0);
    /* spec 7.3: auto-increment is only guaranteed inside 1 KB. */
    ck_assert_ptr_nonnull(strstr(seen.last, "[0x81030800 "));
    pp_trace_free(tr);
}
END_TEST

START_TEST(test_banked_registers_follow_select)
{
    struct seen seen = { 0 };
    struct pp_trace *tr = dap_tracer(&seen);

    dap(tr, false, false, 0x8, 0x000000F0);       /* bank 0xF */
    dap(tr, true, true, 0xC, 0x54770002);
    ck_assert_str_eq(seen.reg, "IDR");
    dap(tr, true, true, 0x8, 0x80000003);
    ck_assert_str_eq(seen.reg, "BASE");
    dap(tr, false, false, 0x8, 0x00000000);
    dap(tr, true, false, 0x4, 0x81030E20u);
    dap(tr, false, false, 0x8, 0x00000010);       /* bank 1: BD0-BD3 */
    dap(tr, true, true, 0x4, 0);                  /* BD1 = block + 4 */
    ck_assert_str_eq(seen.reg, "BD1");
    ck_assert_ptr_nonnull(strstr(seen.last, "[0x81030E24 cpu0 PMCEID1]"));
    pp_trace_free(tr);
}
END_TEST

START_TEST(test_an_access_that_did_not_run_moves_nothing)
{
    struct seen seen = { 0 };
    struct pp_trace *tr = dap_tracer(&seen);
    struct pp_trace_dap waited = { .ap = true, .a = 0x4, .value = 0x81000000u,
                                   .ack = "WAIT", .retry = 0 };

    dap(tr, false, false, 0x8, 0);
    dap(tr, true, false, 0x4, PMCR0);
    pp_trace_dap(tr, &waited);                    /* a TAR write answered WAIT */
    ck_assert_str_eq(seen.status, "WAIT");
    dap(tr, true, true, 0xC, 0);
    ck_assert_ptr_nonnull(strstr(seen.last, "[0x81030E04 cpu0 PMCR]"));
    pp_trace_free(tr);
}
END_TEST

START_TEST(test_a_level_below_the_layer_records_nothing)
{
    struct seen seen = { 0 };
    struct pp_trace *tr = pp_trace_new(collect, &seen, PP_TRACE_APB);

    dap(tr, false, false, 0x8, 0);
    pp_trace_text(tr, PP_TRACE_WIRE, "wire");
    ck_assert_uint_eq(seen.n, 0);
    pp_trace_free(tr);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("trace");
    TCase *tc = tcase_create("trace");

    tcase_add_test(tc, test_open_option_traces_apb_reads_by_register_name);
    tcase_add_test(tc, test_set_trace_null_stops_the_records);
    tcase_add_test(tc, test_a_failed_read_has_its_status_and_no_value);
    tcase_add_test(tc, test_drw_is_named_by_the_tar_written_before_it);
    tcase_add_test(tc, test_tar_increment_wraps_inside_1kb);
    tcase_add_test(tc, test_banked_registers_follow_select);
    tcase_add_test(tc, test_an_access_that_did_not_run_moves_nothing);
    tcase_add_test(tc, test_a_level_below_the_layer_records_nothing);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(suite());
    int failed;

    srunner_run_all(sr, CK_NORMAL);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

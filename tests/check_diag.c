/*
 * check_diag.c - naming the condition that blocks external PMU access,
 * with its evidence, on the simulated SoC (spec/arm-pmu-coresight.md 2.1,
 * 2.7, 3.1).
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "fixture.h"
#include "pmu/diag.h"
#include "pmu/power.h"
#include "pmu/regs.h"

#define SOC "[soc]\nname = t\nrom.base = 0x80000000\n[cluster 0]\nrom.base = 0x80001000\n"

static const char a53_text[] = SOC
    "[core 0-1]\ntype = cortex-a53\ndebug = 0x80010000 +0x2000\npmu = 0x80011000 +0x2000\n"
    "cti = 0x80018000 +0x1000\n";
static const char a76_text[] = SOC "[core 0-1]\ntype = cortex-a76\ndebug = 0x81010000 +0x100000\n";
static const char a9_text[] = SOC
    "[core 0-1]\ntype = cortex-a9\ndebug = 0x80090000 +0x2000\ncti = 0x80098000 +0x1000\n";

static struct pp_diag diagnose(struct fx_rig *r, unsigned cpu)
{
    struct pp_diag d;

    ck_assert_int_eq(pp_diag_core(r->bus, pp_target_core(r->t, cpu), &d), PP_OK);
    return d;
}

START_TEST(accessible_core_has_no_cause_and_no_remedy)
{
    struct fx_rig r;
    struct pp_diag d;

    fx_rig_parse(&r, a53_text);
    d = diagnose(&r, 0);
    ck_assert(d.pmu_ok);
    ck_assert_int_eq(d.cause, PP_CAUSE_NONE);
    ck_assert_ptr_null(d.remedy);
    ck_assert(d.powered);
    fx_rig_down(&r);
}
END_TEST

START_TEST(powered_off_core_is_named_with_pu_clear_as_evidence)
{
    struct fx_rig r;
    struct pp_diag d;

    fx_rig_parse(&r, a53_text);
    pp_sim_set_power(r.sim, 1, false);
    d = diagnose(&r, 1);
    ck_assert_int_eq(d.cause, PP_CAUSE_CORE_OFF);
    ck_assert(!d.powered);
    ck_assert_uint_eq(d.edprsr & 1u, 0);
    ck_assert_ptr_nonnull(strstr(d.evidence, "(PU=0)"));
    ck_assert_ptr_nonnull(strstr(d.remedy, "COREPURQ"));
    ck_assert_int_eq(diagnose(&r, 0).cause, PP_CAUSE_NONE);
    fx_rig_down(&r);
}
END_TEST

START_TEST(double_lock_on_armv8_0_is_named_with_dlk_as_evidence)
{
    struct fx_rig r;
    struct pp_diag d;

    fx_rig_parse(&r, a53_text);
    pp_sim_set_doublelock(r.sim, 1, true);
    d = diagnose(&r, 1);
    ck_assert_int_eq(d.cause, PP_CAUSE_DOUBLE_LOCK);
    ck_assert(d.edprsr & (1u << 6));
    ck_assert_ptr_nonnull(strstr(d.evidence, "DLK"));
    fx_rig_down(&r);
}
END_TEST

/* Armv8.2: EDPRSR.DLK is RAZ and a double-locked core reports PU=0 (spec
 * 3.1), so the evidence can only say so. */
START_TEST(double_lock_on_armv8_2_reads_as_power_off_and_says_why)
{
    struct fx_rig r;
    struct pp_diag d;

    fx_rig_parse(&r, a76_text);
    pp_sim_set_doublelock(r.sim, 0, true);
    d = diagnose(&r, 0);
    ck_assert_int_eq(d.cause, PP_CAUSE_CORE_OFF);
    ck_assert_uint_eq(d.edprsr & ((1u << 6) | 1u), 0);
    ck_assert_ptr_nonnull(strstr(d.evidence, "double-locked core also reads PU=0"));
    fx_rig_down(&r);
}
END_TEST

START_TEST(os_lock_is_named_with_oslk_as_evidence)
{
    struct fx_rig r;
    struct pp_diag d;

    fx_rig_parse(&r, a53_text);
    pp_sim_set_oslock(r.sim, 0, true);
    d = diagnose(&r, 0);
    ck_assert_int_eq(d.cause, PP_CAUSE_OS_LOCK);
    ck_assert(d.oslock);
    ck_assert_ptr_nonnull(strstr(d.evidence, "OSLK"));
    ck_assert_ptr_nonnull(strstr(d.remedy, "OSLAR"));
    fx_rig_down(&r);
}
END_TEST

/* The probe read goes first so that a refusal for EPMAD sets EDPRSR.SPMAD
 * before EDPRSR is read (spec 2.4). */
START_TEST(authentication_off_is_named_with_spmad_as_evidence)
{
    struct fx_rig r;
    struct pp_diag d;

    fx_rig_parse(&r, a53_text);
    pp_sim_set_auth(r.sim, 0, 0);
    d = diagnose(&r, 0);
    ck_assert_int_eq(d.cause, PP_CAUSE_PMU_DISABLED);
    ck_assert(d.edprsr & (1u << 10));
    ck_assert_ptr_nonnull(strstr(d.evidence, "SPMAD"));
    ck_assert_ptr_nonnull(strstr(d.evidence, "DBGAUTHSTATUS"));
    fx_rig_down(&r);
}
END_TEST

START_TEST(power_off_is_named_before_os_lock)
{
    struct fx_rig r;

    fx_rig_parse(&r, a53_text);
    pp_sim_set_oslock(r.sim, 0, true);
    pp_sim_set_power(r.sim, 0, false);
    ck_assert_int_eq(diagnose(&r, 0).cause, PP_CAUSE_CORE_OFF);
    fx_rig_down(&r);
}
END_TEST

START_TEST(double_lock_is_named_before_os_lock)
{
    struct fx_rig r;

    fx_rig_parse(&r, a53_text);
    pp_sim_set_oslock(r.sim, 0, true);
    pp_sim_set_doublelock(r.sim, 0, true);
    ck_assert_int_eq(diagnose(&r, 0).cause, PP_CAUSE_DOUBLE_LOCK);
    fx_rig_down(&r);
}
END_TEST

START_TEST(os_lock_is_named_before_authentication)
{
    struct fx_rig r;

    fx_rig_parse(&r, a53_text);
    pp_sim_set_auth(r.sim, 0, 0);
    pp_sim_set_oslock(r.sim, 0, true);
    ck_assert_int_eq(diagnose(&r, 0).cause, PP_CAUSE_OS_LOCK);
    fx_rig_down(&r);
}
END_TEST

/* Cortex-A9 is Armv7.0: DBGPRSR has no OSLK bit, DBGOSLSR.OSLK (bit 1) is
 * the witness (spec 4.3). */
START_TEST(os_lock_on_armv7_0_is_read_from_dbgoslsr)
{
    struct fx_rig r;
    struct pp_diag d;

    fx_rig_parse(&r, a9_text);
    pp_sim_set_oslock(r.sim, 1, true);
    d = diagnose(&r, 1);
    ck_assert_int_eq(d.cause, PP_CAUSE_OS_LOCK);
    ck_assert_ptr_nonnull(strstr(d.evidence, "DBGOSLSR"));
    fx_rig_down(&r);
}
END_TEST

START_TEST(absent_debug_block_is_named_as_debug_off)
{
    struct fx_rig r;
    struct pp_core_desc ghost;
    struct pp_diag d;

    fx_rig_parse(&r, a53_text);
    ghost = *pp_target_core(r.t, 0);
    ghost.debug_base = 0x90000000;
    ghost.pmu_base = 0x90001000;
    ck_assert_int_eq(pp_diag_core(r.bus, &ghost, &d), PP_OK);
    ck_assert_int_eq(d.cause, PP_CAUSE_DEBUG_OFF);
    ck_assert_ptr_nonnull(strstr(d.evidence, "0x90000314"));
    fx_rig_down(&r);
}
END_TEST

START_TEST(cause_names_and_messages_are_never_null)
{
    for (int c = PP_CAUSE_NONE; c <= PP_CAUSE_UNKNOWN + 1; c++) {
        ck_assert_ptr_nonnull(pp_cause_name(c));
        ck_assert_ptr_nonnull(pp_cause_str(c));
    }
    ck_assert_str_eq(pp_cause_name(PP_CAUSE_OS_LOCK), "os-lock");
}
END_TEST

/* The remedy the diagnosis names for a powered-off core, EDPRCR.COREPURQ
 * (spec 3.2), brings it up; the other core is left as it was. */
START_TEST(power_up_request_brings_a_powered_off_core_up)
{
    struct fx_rig r;
    struct pp_power_up pu;
    struct pp_diag d;

    fx_rig_parse(&r, a53_text);
    pp_sim_set_power(r.sim, 1, false);
    ck_assert_int_eq(pp_power_up(r.bus, pp_target_core(r.t, 1)->debug_base, &pu), PP_OK);
    ck_assert_int_eq(pu.write_rc, PP_OK);
    ck_assert(pu.edprsr & PP_EDPRSR_PU);
    d = diagnose(&r, 1);
    ck_assert(d.powered);
    /* Power-up is a Cold reset of the core domain, which sets the OS lock
     * (spec 3.2, 3.4): the next thing in the way. */
    ck_assert_int_eq(d.cause, PP_CAUSE_OS_LOCK);
    ck_assert_int_eq(diagnose(&r, 0).cause, PP_CAUSE_NONE);
    fx_rig_down(&r);
}
END_TEST

/* Armv7.0 has no COREPURQ (spec 3.2): the write lands, the core stays off
 * and the polls end in a timeout with PU clear as the evidence. */
START_TEST(power_up_request_without_corepurq_times_out_with_the_core_off)
{
    struct fx_rig r;
    struct pp_power_up pu;

    fx_rig_parse(&r, a9_text);
    pp_sim_set_power(r.sim, 1, false);
    ck_assert_int_eq(pp_power_up(r.bus, pp_target_core(r.t, 1)->debug_base, &pu), PP_E_TIMEOUT);
    ck_assert_int_eq(pu.write_rc, PP_OK);
    ck_assert_uint_eq(pu.edprsr & PP_EDPRSR_PU, 0);
    ck_assert_int_eq(diagnose(&r, 1).cause, PP_CAUSE_CORE_OFF);
    fx_rig_down(&r);
}
END_TEST

static Suite *diag_suite(void)
{
    Suite *s = suite_create("diag");
    TCase *order = tcase_create("conditions");
    TCase *prio = tcase_create("priority");
    TCase *edge = tcase_create("edges");
    TCase *power = tcase_create("power-up");

    tcase_add_test(order, accessible_core_has_no_cause_and_no_remedy);
    tcase_add_test(order, powered_off_core_is_named_with_pu_clear_as_evidence);
    tcase_add_test(order, double_lock_on_armv8_0_is_named_with_dlk_as_evidence);
    tcase_add_test(order, double_lock_on_armv8_2_reads_as_power_off_and_says_why);
    tcase_add_test(order, os_lock_is_named_with_oslk_as_evidence);
    tcase_add_test(order, authentication_off_is_named_with_spmad_as_evidence);
    tcase_add_test(order, os_lock_on_armv7_0_is_read_from_dbgoslsr);
    tcase_add_test(prio, power_off_is_named_before_os_lock);
    tcase_add_test(prio, double_lock_is_named_before_os_lock);
    tcase_add_test(prio, os_lock_is_named_before_authentication);
    tcase_add_test(edge, absent_debug_block_is_named_as_debug_off);
    tcase_add_test(edge, cause_names_and_messages_are_never_null);
    suite_add_tcase(s, order);
    suite_add_tcase(s, prio);
    tcase_add_test(power, power_up_request_brings_a_powered_off_core_up);
    tcase_add_test(power, power_up_request_without_corepurq_times_out_with_the_core_off);
    suite_add_tcase(s, edge);
    suite_add_tcase(s, power);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(diag_suite());
    int failed;

    srunner_run_all(sr, CK_NORMAL);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

/*
 * check_identify.c - identifying a core from what it reports, and telling
 * when the target description disagrees.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "fixture.h"
#include "pmu/identify.h"

#define SOC "[soc]\nname = t\nrom.base = 0x80000000\n[cluster 0]\nrom.base = 0x80001000\n"

/* Two cores of one type at Armv7-style 8 KB spacing, plus extra keys. */
static void rig_up(struct fx_rig *r, const char *type, const char *extra)
{
    char text[512];

    snprintf(text, sizeof(text), SOC "[core 0-1]\ntype = %s\ndebug = 0x80010000 +0x2000\n"
             "pmu = 0x80011000 +0x2000\ncti = 0x80018000 +0x1000\n%s", type, extra);
    fx_rig_parse(r, text);
}

START_TEST(powered_core_is_identified_by_midr)
{
    struct fx_rig r;
    struct pp_ident id;

    rig_up(&r, "cortex-a53", "");
    ck_assert_int_eq(pp_identify_core(r.bus, pp_target_core(r.t, 0), &id), PP_OK);
    ck_assert_ptr_eq(id.type, pp_core_type_find("cortex-a53"));
    ck_assert_str_eq(id.source, "MIDR");
    ck_assert_uint_eq(id.pmu_version, 3);
    ck_assert_uint_eq(id.counters, 6);
    ck_assert(id.agrees);
    fx_rig_down(&r);
}
END_TEST

START_TEST(powered_off_core_is_identified_by_debug_part_number)
{
    struct fx_rig r;
    struct pp_ident id;

    rig_up(&r, "cortex-a72", "");
    pp_sim_set_power(r.sim, 1, false);
    ck_assert_int_eq(pp_identify_core(r.bus, pp_target_core(r.t, 1), &id), PP_OK);
    ck_assert_int_ne(id.midr_st, PP_OP_OK);
    ck_assert_ptr_eq(id.type, pp_core_type_find("cortex-a72"));
    ck_assert_str_eq(id.source, "debug PIDR");
    ck_assert_uint_eq(id.debug_part, 0xD08);
    fx_rig_down(&r);
}
END_TEST

START_TEST(armv7_pmu_is_identified_as_pmuv2_by_counter_size)
{
    struct fx_rig r;
    struct pp_ident id;

    rig_up(&r, "cortex-a7", "");
    ck_assert_int_eq(pp_identify_core(r.bus, pp_target_core(r.t, 0), &id), PP_OK);
    ck_assert_uint_eq(id.pmu_version, 2);
    ck_assert_uint_eq(id.counters, 4);
    ck_assert(id.agrees);
    fx_rig_down(&r);
}
END_TEST

START_TEST(description_naming_another_core_type_is_reported)
{
    struct fx_rig r;
    struct pp_core_desc wrong;
    struct pp_ident id;

    rig_up(&r, "cortex-a53", "");
    wrong = *pp_target_core(r.t, 0);
    wrong.type = pp_core_type_find("cortex-a72");
    ck_assert_int_eq(pp_identify_core(r.bus, &wrong, &id), PP_OK);
    ck_assert(!id.agrees);
    ck_assert_ptr_nonnull(strstr(id.detail, "MIDR reads Cortex-A53, target says Cortex-A72"));
    fx_rig_down(&r);
}
END_TEST

START_TEST(description_with_wrong_counter_count_is_reported)
{
    struct fx_rig r;
    struct pp_core_desc wrong;
    struct pp_ident id;

    rig_up(&r, "cortex-a53", "counters = 4\n");
    wrong = *pp_target_core(r.t, 0);
    wrong.counters = 6;
    ck_assert_int_eq(pp_identify_core(r.bus, &wrong, &id), PP_OK);
    ck_assert(!id.agrees);
    ck_assert_ptr_nonnull(strstr(id.detail, "PMCFGR.N = 4, target says 6"));
    fx_rig_down(&r);
}
END_TEST

static Suite *identify_suite(void)
{
    Suite *s = suite_create("identify");
    TCase *tc = tcase_create("identify");

    tcase_add_test(tc, powered_core_is_identified_by_midr);
    tcase_add_test(tc, powered_off_core_is_identified_by_debug_part_number);
    tcase_add_test(tc, armv7_pmu_is_identified_as_pmuv2_by_counter_size);
    tcase_add_test(tc, description_naming_another_core_type_is_reported);
    tcase_add_test(tc, description_with_wrong_counter_count_is_reported);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(identify_suite());
    int failed;

    srunner_run_all(sr, CK_NORMAL);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

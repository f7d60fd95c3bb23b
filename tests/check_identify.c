/*
 * check_identify.c - identifying a core from what it reports, and telling
 * when the target description disagrees.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

/* ---- the silicon disagrees (sim.* keys): the description stays as is --- */

/* cpu1 of a described Cortex-A53 pair reports what extra says; cpu0 is the
 * control and matches. */
static void disagree_up(struct fx_rig *r, const char *extra, struct pp_ident *id)
{
    char text[256];
    struct pp_ident ok;

    snprintf(text, sizeof(text), "[core 1]\n%s\n", extra);
    rig_up(r, "cortex-a53", text);
    ck_assert_int_eq(pp_identify_core(r->bus, pp_target_core(r->t, 0), &ok), PP_OK);
    ck_assert_msg(ok.agrees, "%s", ok.detail);
    ck_assert_int_eq(pp_identify_core(r->bus, pp_target_core(r->t, 1), id), PP_OK);
}

START_TEST(other_revision_of_the_described_part_agrees_and_names_the_revision)
{
    struct fx_rig r;
    struct pp_ident id;

    disagree_up(&r, "sim.midr = 0x411FD035", &id);   /* Cortex-A53 r1p5 */
    ck_assert(id.agrees);
    ck_assert_ptr_eq(id.type, pp_core_type_find("cortex-a53"));
    ck_assert_str_eq(id.detail, "matches (by MIDR), revision r1p5 (the tables describe r0p4)");
    fx_rig_down(&r);
}
END_TEST

START_TEST(midr_of_another_known_part_is_a_mismatch)
{
    struct fx_rig r;
    struct pp_ident id;

    disagree_up(&r, "sim.midr = 0x410FD083", &id);   /* Cortex-A72 r0p3 */
    ck_assert(!id.agrees);
    ck_assert_ptr_eq(id.type, pp_core_type_find("cortex-a72"));
    ck_assert_str_eq(id.detail, "MIDR reads Cortex-A72, target says Cortex-A53");
    fx_rig_down(&r);
}
END_TEST

/* The debug block's part number still says A53, but the MIDR is the
 * core's own word: it must not be passed over for the part number. */
START_TEST(midr_of_an_unknown_part_is_a_mismatch_though_the_debug_part_matches)
{
    struct fx_rig r;
    struct pp_ident id;

    disagree_up(&r, "sim.midr = 0x410FD993", &id);
    ck_assert(!id.agrees);
    ck_assert_uint_eq(id.debug_part, 0xD03);
    ck_assert_ptr_nonnull(strstr(id.detail, "MIDR 0x410FD993 (part 0xD99) names no known core, "
                                 "target says Cortex-A53"));
    fx_rig_down(&r);
}
END_TEST

START_TEST(pmcfgr_with_fewer_counters_than_described_is_a_mismatch)
{
    struct fx_rig r;
    struct pp_ident id;

    disagree_up(&r, "sim.counters = 4", &id);
    ck_assert(!id.agrees);
    ck_assert_uint_eq(id.counters, 4);
    ck_assert_uint_eq(pp_target_core(r.t, 1)->counters, 6);
    ck_assert_str_eq(id.detail, "PMCFGR.N = 4, target says 6");
    fx_rig_down(&r);
}
END_TEST

/* ---- "type = auto" ------------------------------------------------------ */

/* The file a user writes when the silicon should say what it is: no type,
 * no PMU address (it depends on the type: debug + 0x1000 on Armv7). */
#define AUTO_CORES "[core 0-1]\ntype = auto\ndebug = 0x80010000 +0x2000\ncti = 0x80018000 +0x1000\n"

/* Writes text to a fresh file (path is a mkstemp template) and loads it:
 * identification re-reads the file, so these targets need a path. */
static struct pp_target *load_text(const char *text, char *path)
{
    char err[256];
    struct pp_target *t = NULL;
    int fd = mkstemp(path);
    FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;

    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    fclose(f);
    ck_assert_msg(pp_target_load(path, &t, err, sizeof(err)) == PP_OK, "%s", err);
    return t;
}

START_TEST(auto_type_parses_as_the_generic_pmuv3_core)
{
    char path[] = "/tmp/check_identify_XXXXXX";
    struct pp_target *t = load_text(SOC AUTO_CORES, path);

    unlink(path);
    ck_assert(t->cores[0].type_auto);
    ck_assert_ptr_eq(t->cores[0].type, pp_core_type_generic());
    ck_assert_str_eq(t->cores[0].type->name, "armv8-pmuv3");
    pp_target_free(t);
}
END_TEST

START_TEST(auto_core_takes_the_type_and_map_the_silicon_reports)
{
    struct fx_rig r;
    struct pp_target *t, *out = NULL;
    char path[] = "/tmp/check_identify_XXXXXX";
    char note[512];

    rig_up(&r, "cortex-a7", "");
    t = load_text(SOC AUTO_CORES, path);
    ck_assert_int_eq(pp_identify_target(r.bus, t, &out, note, sizeof(note)), PP_OK);
    unlink(path);
    ck_assert_ptr_nonnull(out);
    for (unsigned i = 0; i < 2; i++) {
        ck_assert_ptr_eq(out->cores[i].type, pp_core_type_find("cortex-a7"));
        ck_assert(out->cores[i].type_auto);
        /* the Armv7 default, not the generic core's debug + 0x10000 */
        ck_assert_uint_eq(out->cores[i].pmu_base, r.t->cores[i].pmu_base);
        ck_assert_uint_eq(out->cores[i].counters, 4);
    }
    pp_target_free(out);
    pp_target_free(t);
    fx_rig_down(&r);
}
END_TEST

START_TEST(auto_core_nothing_identifies_stays_generic_and_is_named)
{
    struct fx_rig r;
    struct pp_target *out = NULL;
    char note[512];

    fx_rig_parse(&r, SOC AUTO_CORES);
    ck_assert_int_eq(pp_identify_target(r.bus, r.t, &out, note, sizeof(note)), PP_OK);
    ck_assert_ptr_null(out);
    ck_assert_ptr_nonnull(strstr(note, "cpu0: 'type = auto'"));
    ck_assert_ptr_nonnull(strstr(note, "cpu1: 'type = auto'"));
    fx_rig_down(&r);
}
END_TEST

START_TEST(named_types_are_left_alone)
{
    struct fx_rig r;
    struct pp_target *out = NULL;
    char note[64];

    rig_up(&r, "cortex-a53", "");
    ck_assert_int_eq(pp_identify_target(r.bus, r.t, &out, note, sizeof(note)), PP_OK);
    ck_assert_ptr_null(out);
    ck_assert_str_eq(note, "");
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
    tcase_add_test(tc, other_revision_of_the_described_part_agrees_and_names_the_revision);
    tcase_add_test(tc, midr_of_another_known_part_is_a_mismatch);
    tcase_add_test(tc, midr_of_an_unknown_part_is_a_mismatch_though_the_debug_part_matches);
    tcase_add_test(tc, pmcfgr_with_fewer_counters_than_described_is_a_mismatch);
    suite_add_tcase(s, tc);
    tc = tcase_create("auto");
    tcase_add_test(tc, auto_type_parses_as_the_generic_pmuv3_core);
    tcase_add_test(tc, auto_core_takes_the_type_and_map_the_silicon_reports);
    tcase_add_test(tc, auto_core_nothing_identifies_stays_generic_and_is_named);
    tcase_add_test(tc, named_types_are_left_alone);
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

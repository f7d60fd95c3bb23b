/*
 * check_catalog_data.c - the catalogs as lib/catalog/gen-catalog builds
 * them from lib/catalog/data: one row per code in each catalog, every core
 * type reaching a catalog of its own, and the PMCEID walk.
 */
#include <check.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pmu/catalog.h"
#include "pmu/coretype.h"

/* Compares every pair, so it holds even for a table that is not sorted. */
START_TEST(every_catalog_lists_each_code_once)
{
    size_t n;
    const struct pp_catalog *const *all = pp_catalog_all(&n);

    for (size_t i = 0; i < n; i++)
        for (size_t a = 0; a < all[i]->n; a++)
            for (size_t b = a + 1; b < all[i]->n; b++)
                ck_assert_msg(all[i]->events[a].code != all[i]->events[b].code,
                              "%s lists 0x%04X twice (%s, %s)", all[i]->key,
                              all[i]->events[a].code, all[i]->events[a].name,
                              all[i]->events[b].name);
}
END_TEST

START_TEST(every_core_type_names_a_catalog_that_exists)
{
    unsigned n;
    const struct pp_core_type *t = pp_core_types(&n);

    for (unsigned i = 0; i < n; i++) {
        const struct pp_catalog *c;

        if (!t[i].catalog)
            continue;
        c = pp_catalog_find(t[i].catalog);
        ck_assert_msg(c != NULL, "%s: catalog %s missing", t[i].name, t[i].catalog);
        ck_assert_str_eq(c->key, t[i].catalog);
    }
}
END_TEST

/* The A72 (MIDR part 0xD08) has its own catalog and table, not the A57's;
 * ARM-software/data lists the same event codes for both cores. */
START_TEST(a72_resolves_to_its_own_catalog)
{
    const struct pp_core_type *t = pp_core_type_by_midr(0x410FD080u);
    const struct pp_catalog *a72, *a57 = pp_catalog_find("cortex-a57");

    ck_assert_ptr_nonnull(t);
    ck_assert_str_eq(t->catalog, "cortex-a72");
    a72 = pp_catalog_find(t->catalog);
    ck_assert_ptr_nonnull(a72);
    ck_assert_ptr_nonnull(a57);
    ck_assert_str_eq(a72->key, "cortex-a72");
    ck_assert_str_eq(a72->pretty, "Cortex-A72");
    ck_assert_ptr_ne(a72->events, a57->events);
    ck_assert_uint_eq(a72->n, a57->n);
    for (size_t i = 0; i < a72->n; i++)
        ck_assert_uint_eq(a72->events[i].code, a57->events[i].code);
}
END_TEST

struct seen {
    uint16_t code[32];
    const struct pp_event *ev[32];
    unsigned n;
};

static void collect(void *ctx, uint16_t code, const struct pp_event *ev)
{
    struct seen *s = ctx;

    ck_assert_uint_lt(s->n, 32);
    s->code[s->n] = code;
    s->ev[s->n++] = ev;
}

/* Bit 0 of PMCEID2 is 0x4000, bit 17 of PMCEID0 is 0x0011 CPU_CYCLES; a
 * bit no catalog names comes with a NULL entry (spec 1.3). */
START_TEST(pmceid_walk_gives_each_set_bit_in_order)
{
    const struct pp_catalog *n1 = pp_catalog_find("neoverse-n1");
    struct seen s = { .n = 0 };

    pp_catalog_pmceid_each(n1, 0, (1u << 17) | (1u << 8), collect, &s);
    ck_assert_uint_eq(s.n, 2);
    ck_assert_uint_eq(s.code[0], 0x0008);
    ck_assert_uint_eq(s.code[1], 0x0011);
    ck_assert_str_eq(s.ev[1]->name, "CPU_CYCLES");

    s.n = 0;
    pp_catalog_pmceid_each(n1, 2, 1u | (1u << 31), collect, &s);
    ck_assert_uint_eq(s.n, 2);
    ck_assert_uint_eq(s.code[0], 0x4000);
    ck_assert_ptr_nonnull(s.ev[0]);
    ck_assert_uint_eq(s.code[1], 0x401F);

    s.n = 0;
    pp_catalog_pmceid_each(NULL, 3, 1u, collect, &s);
    ck_assert_uint_eq(s.n, 1);
    ck_assert_uint_eq(s.code[0], 0x4020);
    ck_assert_ptr_null(s.ev[0]);
}
END_TEST

static Suite *catalog_data_suite(void)
{
    Suite *s = suite_create("catalog_data");
    TCase *tc = tcase_create("tables");

    tcase_add_test(tc, every_catalog_lists_each_code_once);
    tcase_add_test(tc, every_core_type_names_a_catalog_that_exists);
    tcase_add_test(tc, a72_resolves_to_its_own_catalog);
    tcase_add_test(tc, pmceid_walk_gives_each_set_bit_in_order);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(catalog_data_suite());
    int failed;

    srunner_run_all(sr, CK_NORMAL);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

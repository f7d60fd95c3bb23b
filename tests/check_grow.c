/*
 * check_grow.c - pp_grow (lib/grow.h): room for n elements, doubled from a
 * first size, and NULL only for a size that cannot be had.
 */
#include <check.h>
#include <stdint.h>
#include <stdlib.h>

#include "grow.h"

START_TEST(a_null_buffer_gets_its_first_size)
{
    size_t cap = 0;
    int *p = pp_grow(NULL, &cap, 3, sizeof(int), 16);

    ck_assert_ptr_nonnull(p);
    ck_assert_uint_eq(cap, 16);
    free(p);
}
END_TEST

START_TEST(a_buffer_with_room_is_returned_as_it_is)
{
    size_t cap = 0;
    int *p = pp_grow(NULL, &cap, 1, sizeof(int), 8);

    ck_assert_ptr_eq(pp_grow(p, &cap, 8, sizeof(int), 8), p);
    ck_assert_uint_eq(cap, 8);
    free(p);
}
END_TEST

START_TEST(the_capacity_doubles_until_the_need_fits)
{
    size_t cap = 0;
    int *p = pp_grow(NULL, &cap, 1, sizeof(int), 4);

    p = pp_grow(p, &cap, 9, sizeof(int), 4);
    ck_assert_ptr_nonnull(p);
    ck_assert_uint_eq(cap, 16);
    p[15] = 1;                    /* all 16 are there (ASan would say) */
    free(p);
}
END_TEST

/* A first size of 0 would double 0 for ever. */
START_TEST(a_first_size_of_0_still_grows)
{
    size_t cap = 0;
    char *p = pp_grow(NULL, &cap, 5, 1, 0);

    ck_assert_ptr_nonnull(p);
    ck_assert_uint_eq(cap, 8);
    free(p);
}
END_TEST

/* need x elem past SIZE_MAX: NULL, the buffer and its capacity kept. */
START_TEST(a_size_beyond_size_t_is_null_and_keeps_the_buffer)
{
    size_t cap = 0;
    uint64_t *p = pp_grow(NULL, &cap, 2, sizeof(*p), 2);

    ck_assert_ptr_null(pp_grow(p, &cap, SIZE_MAX / 4, sizeof(*p), 2));
    ck_assert_uint_eq(cap, 2);
    p[1] = 7;
    free(p);
}
END_TEST

static Suite *grow_suite(void)
{
    Suite *s = suite_create("grow");
    TCase *tc = tcase_create("pp_grow");

    tcase_add_test(tc, a_null_buffer_gets_its_first_size);
    tcase_add_test(tc, a_buffer_with_room_is_returned_as_it_is);
    tcase_add_test(tc, the_capacity_doubles_until_the_need_fits);
    tcase_add_test(tc, a_first_size_of_0_still_grows);
    tcase_add_test(tc, a_size_beyond_size_t_is_null_and_keeps_the_buffer);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(grow_suite());
    int failed;

    srunner_run_all(sr, CK_NORMAL);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

/*
 * check_ring.c - the lock-free single-producer/single-consumer ring that
 * carries capture records from the sampler thread to the writer thread.
 */
#include <check.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "capture/ring.h"

struct rec {
    uint64_t seq;
    uint64_t check;        /* a function of seq: torn or stale slots show */
    uint8_t  pad[40];
};

static uint64_t check_of(uint64_t seq)
{
    return seq * 0x9E3779B97F4A7C15ull ^ 0xA5A5A5A5u;
}

static void put_seq(struct pp_ring *r, uint64_t seq)
{
    struct rec *s = pp_ring_claim(r);

    ck_assert_ptr_nonnull(s);
    s->seq = seq;
    s->check = check_of(seq);
    pp_ring_publish(r);
}

static uint64_t take_seq(struct pp_ring *r)
{
    const struct rec *s = pp_ring_peek(r);
    uint64_t seq;

    ck_assert_ptr_nonnull(s);
    seq = s->seq;
    ck_assert_uint_eq(s->check, check_of(seq));
    pp_ring_release(r);
    return seq;
}

/* ---- shape --------------------------------------------------------------------- */

START_TEST(capacity_is_rounded_up_to_a_power_of_two)
{
    struct pp_ring *r = pp_ring_new(sizeof(struct rec), 5);

    ck_assert_ptr_nonnull(r);
    ck_assert_uint_eq(pp_ring_capacity(r), 8);
    ck_assert_uint_eq(pp_ring_space(r), 8);
    ck_assert_uint_eq(pp_ring_used(r), 0);
    pp_ring_free(r);
}
END_TEST

START_TEST(slot_size_is_rounded_up_to_eight_bytes_and_slots_are_aligned)
{
    struct pp_ring *r = pp_ring_new(13, 4);
    uintptr_t a;

    ck_assert_ptr_nonnull(r);
    ck_assert_uint_eq(pp_ring_slot_size(r), 16);
    for (int i = 0; i < 4; i++) {
        a = (uintptr_t)pp_ring_claim(r);
        ck_assert_uint_eq(a % 8, 0);
        pp_ring_publish(r);
    }
    pp_ring_free(r);
}
END_TEST

START_TEST(zero_slots_or_zero_size_is_refused)
{
    ck_assert_ptr_null(pp_ring_new(0, 8));
    ck_assert_ptr_null(pp_ring_new(64, 0));
    pp_ring_free(NULL);
}
END_TEST

/* ---- one thread ------------------------------------------------------------------ */

START_TEST(empty_ring_has_nothing_to_peek)
{
    struct pp_ring *r = pp_ring_new(sizeof(struct rec), 4);

    ck_assert_ptr_null(pp_ring_peek(r));
    pp_ring_free(r);
}
END_TEST

START_TEST(claimed_slot_is_invisible_until_published)
{
    struct pp_ring *r = pp_ring_new(sizeof(struct rec), 4);
    struct rec *s = pp_ring_claim(r);

    s->seq = 7;
    ck_assert_ptr_null(pp_ring_peek(r));
    ck_assert_ptr_eq(pp_ring_claim(r), s);     /* the same slot until published */
    pp_ring_publish(r);
    ck_assert_uint_eq(((const struct rec *)pp_ring_peek(r))->seq, 7);
    pp_ring_free(r);
}
END_TEST

START_TEST(full_ring_refuses_a_claim_until_a_slot_is_released)
{
    struct pp_ring *r = pp_ring_new(sizeof(struct rec), 4);

    for (uint64_t i = 0; i < 4; i++)
        put_seq(r, i);
    ck_assert_ptr_null(pp_ring_claim(r));
    ck_assert_uint_eq(pp_ring_space(r), 0);
    ck_assert_uint_eq(pp_ring_used(r), 4);
    ck_assert_uint_eq(take_seq(r), 0);
    ck_assert_uint_eq(pp_ring_space(r), 1);
    put_seq(r, 4);
    ck_assert_ptr_null(pp_ring_claim(r));
    pp_ring_free(r);
}
END_TEST

START_TEST(records_come_out_in_order_across_many_wraparounds)
{
    struct pp_ring *r = pp_ring_new(sizeof(struct rec), 8);
    uint64_t in = 0, out = 0;

    /* uneven bursts so the indices wrap at every offset */
    for (int round = 0; round < 1000; round++) {
        unsigned burst = 1 + (unsigned)round % 8;

        for (unsigned i = 0; i < burst && pp_ring_space(r); i++)
            put_seq(r, in++);
        while (pp_ring_used(r) > (unsigned)round % 3)
            ck_assert_uint_eq(take_seq(r), out++);
    }
    while (pp_ring_used(r))
        ck_assert_uint_eq(take_seq(r), out++);
    ck_assert_uint_eq(out, in);
    ck_assert_uint_gt(in, 1000);
    pp_ring_free(r);
}
END_TEST

/* ---- two threads ----------------------------------------------------------------- */

#define NREC 40000u

static void *producer(void *arg)
{
    struct pp_ring *r = arg;

    for (uint64_t i = 0; i < NREC; i++) {
        struct rec *s;

        while (!(s = pp_ring_claim(r)))
            sched_yield();
        s->seq = i;
        s->check = check_of(i);
        memset(s->pad, (int)(i & 0xFF), sizeof(s->pad));
        pp_ring_publish(r);
    }
    return NULL;
}

START_TEST(two_threads_pass_every_record_intact_and_in_order)
{
    struct pp_ring *r = pp_ring_new(sizeof(struct rec), 16);
    pthread_t t;
    uint64_t expect = 0;

    ck_assert_int_eq(pthread_create(&t, NULL, producer, r), 0);
    while (expect < NREC) {
        const struct rec *s = pp_ring_peek(r);

        if (!s) {
            sched_yield();
            continue;
        }
        ck_assert_uint_eq(s->seq, expect);
        ck_assert_uint_eq(s->check, check_of(expect));
        ck_assert_uint_eq(s->pad[0], expect & 0xFF);
        ck_assert_uint_eq(s->pad[39], expect & 0xFF);
        pp_ring_release(r);
        expect++;
    }
    pthread_join(t, NULL);
    ck_assert_ptr_null(pp_ring_peek(r));
    pp_ring_free(r);
}
END_TEST

static Suite *ring_suite(void)
{
    Suite *s = suite_create("ring");
    TCase *shape = tcase_create("shape");
    TCase *one = tcase_create("one thread");
    TCase *two = tcase_create("two threads");

    tcase_add_test(shape, capacity_is_rounded_up_to_a_power_of_two);
    tcase_add_test(shape, slot_size_is_rounded_up_to_eight_bytes_and_slots_are_aligned);
    tcase_add_test(shape, zero_slots_or_zero_size_is_refused);
    suite_add_tcase(s, shape);
    tcase_add_test(one, empty_ring_has_nothing_to_peek);
    tcase_add_test(one, claimed_slot_is_invisible_until_published);
    tcase_add_test(one, full_ring_refuses_a_claim_until_a_slot_is_released);
    tcase_add_test(one, records_come_out_in_order_across_many_wraparounds);
    suite_add_tcase(s, one);
    tcase_set_timeout(two, 120);
    tcase_add_test(two, two_threads_pass_every_record_intact_and_in_order);
    suite_add_tcase(s, two);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(ring_suite());
    int failed;

    srunner_run_all(sr, CK_NORMAL);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

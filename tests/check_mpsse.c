/*
 * check_mpsse.c - the MPSSE encoder against spec/ftdi-mpsse-jtag.md:
 * the byte streams for known queues (4.3 templates), where read bits land
 * (1.4), chunking below the FIFO size (3.5, 4.7), send-immediate (1.8),
 * the bad-command reply (1.10) and the clock divisor (1.7).
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "link/mpsse.h"
#include "pmuprobe.h"

static struct pp_mpsse m;

static void enc_up(void)
{
    pp_mpsse_init(&m, 4096, 65536);
}

static void enc_down(void)
{
    pp_mpsse_free(&m);
}

static void expect_bytes(const uint8_t *want, size_t n)
{
    ck_assert_uint_eq(m.nout, n);
    for (size_t i = 0; i < n; i++)
        ck_assert_msg(m.out[i] == want[i], "byte %zu is 0x%02X, expected 0x%02X", i,
                      m.out[i], want[i]);
}

/* 35-bit DPACC/APACC DR value v, LSB first in 5 bytes. */
static void dr_bytes(uint64_t v, uint8_t b[5])
{
    for (int i = 0; i < 5; i++)
        b[i] = (uint8_t)(v >> (8 * i));
}

/* --- TMS moves --------------------------------------------------------- */

START_TEST(tms_move_is_one_4B_command_with_tdi_in_bit_7)
{
    uint8_t tms = 0x1F;

    pp_mpsse_tms(&m, &tms, 5, true);
    pp_mpsse_finish(&m);
    expect_bytes((const uint8_t[]){ 0x4B, 0x04, 0x9F }, 3);
    ck_assert_uint_eq(m.tck, 5);
    ck_assert_uint_eq(m.nin, 0);
}
END_TEST

START_TEST(tms_move_of_seven_bits_is_split_after_six_because_of_the_erratum)
{
    uint8_t tms = 0x5F;          /* 1,1,1,1,1,0,1 */

    pp_mpsse_tms(&m, &tms, 7, false);
    pp_mpsse_finish(&m);
    expect_bytes((const uint8_t[]){ 0x4B, 0x05, 0x1F, 0x4B, 0x00, 0x01 }, 6);
}
END_TEST

START_TEST(consecutive_tms_moves_with_the_same_tdi_share_one_command)
{
    uint8_t a = 0x01, b = 0x00;

    pp_mpsse_tms(&m, &a, 3, false);
    pp_mpsse_tms(&m, &b, 2, false);
    pp_mpsse_finish(&m);
    expect_bytes((const uint8_t[]){ 0x4B, 0x04, 0x01 }, 3);
}
END_TEST

START_TEST(long_idle_run_with_tms_and_tdi_low_is_clocked_by_8F)
{
    uint8_t zero = 0, idle[8] = { 0 };

    pp_mpsse_tms(&m, &zero, 1, false);       /* TMS and TDI now known low */
    pp_mpsse_tms(&m, idle, 64, false);
    pp_mpsse_finish(&m);
    expect_bytes((const uint8_t[]){ 0x4B, 0x00, 0x00, 0x8F, 0x07, 0x00 }, 6);
    ck_assert_uint_eq(m.tck, 65);
}
END_TEST

/* --- shifts ------------------------------------------------------------ */

START_TEST(apacc_scan_from_idle_matches_the_spec_template)
{
    /* spec 4.3: 4B 02 01 | 39 03 00 v0..v3 | 3B 01 v4&3 | 6B 04 (07|b34<<7) */
    uint64_t v = 1 | 3ull << 1 | 0x80000000ull << 3;    /* DRW read... bit 34 set */
    uint8_t b[5], tdo[5] = { 0 }, to_shift = 0x01, exit_to_shift = 0x03;
    int b34 = (int)(v >> 34) & 1;

    dr_bytes(v, b);
    pp_mpsse_tms(&m, &to_shift, 3, false);
    pp_mpsse_shift(&m, b, tdo, 35, true);
    pp_mpsse_tms(&m, &exit_to_shift, 4, b34);
    pp_mpsse_finish(&m);
    expect_bytes((const uint8_t[]){ 0x4B, 0x02, 0x01,
                                    0x39, 0x03, 0x00, b[0], b[1], b[2], b[3],
                                    0x3B, 0x01, (uint8_t)(b[4] & 3),
                                    0x6B, 0x04, (uint8_t)(0x07 | b34 << 7),
                                    0x87 }, 17);
    ck_assert_uint_eq(m.nin, 6);
    ck_assert_uint_eq(m.tck, 3 + 35 + 4);
}
END_TEST

START_TEST(scan_reply_is_unpacked_from_bytes_top_bits_and_the_tms_read)
{
    /* Captured value: ACK 010 and data 0xCAFEF00D; bits 32,33 arrive in
     * bits 6,7 of their byte, bit 34 at bit 3 of the 5-clock TMS read. */
    uint64_t cap = 2 | (uint64_t)0xCAFEF00Du << 3;
    uint8_t tdi[5] = { 0 }, tdo[5] = { 0 }, to_shift = 0x01, exit_to_shift = 0x03;
    uint8_t in[6];
    uint64_t got = 0;

    pp_mpsse_tms(&m, &to_shift, 3, false);
    pp_mpsse_shift(&m, tdi, tdo, 35, true);
    pp_mpsse_tms(&m, &exit_to_shift, 4, false);
    pp_mpsse_finish(&m);
    for (int i = 0; i < 4; i++)
        in[i] = (uint8_t)(cap >> (8 * i));
    in[4] = (uint8_t)(((cap >> 32) & 3) << 6 | 0x15);   /* low bits: junk */
    in[5] = (uint8_t)((((cap >> 34) & 1) << 3) | (0xA5 & ~0x08));
    pp_mpsse_unpack(&m, in);
    for (int i = 0; i < 5; i++)
        got |= (uint64_t)tdo[i] << (8 * i);
    ck_assert_uint_eq(got & 0x7FFFFFFFFull, cap);
}
END_TEST

/* A streaming link places what has arrived while the rest is on its way:
 * a read is placed once all its bytes are in, never before, and once. */
START_TEST(reads_are_placed_as_their_bytes_arrive_and_only_once)
{
    uint8_t tdi[2] = { 0 }, a[2] = { 0 }, b[2] = { 0 }, in[4] = { 0x11, 0x22, 0x33, 0x44 };
    uint8_t zero = 0;

    pp_mpsse_tms(&m, &zero, 1, false);          /* TMS low: both reads are byte shifts */
    pp_mpsse_shift(&m, tdi, a, 16, false);
    pp_mpsse_shift(&m, tdi, b, 16, false);
    pp_mpsse_finish(&m);
    ck_assert_uint_eq(m.nin, 4);
    pp_mpsse_unpack_upto(&m, in, 3);            /* b's second byte not yet in */
    ck_assert_uint_eq(a[0], 0x11);
    ck_assert_uint_eq(a[1], 0x22);
    ck_assert_uint_eq(b[0], 0x00);
    a[0] = 0;                                   /* placed: not placed again */
    pp_mpsse_unpack(&m, in);
    ck_assert_uint_eq(a[0], 0x00);
    ck_assert_uint_eq(b[0], 0x33);
    ck_assert_uint_eq(b[1], 0x44);
}
END_TEST

START_TEST(three_bit_read_arrives_in_the_top_three_bits)
{
    /* spec 1.4 [emulated]: 3 bits of IDCODE ...0111 came back as 0xE0. */
    uint8_t tdi = 0x05, tdo = 0, in = 0xE0, zero = 0;

    pp_mpsse_tms(&m, &zero, 1, false);
    pp_mpsse_shift(&m, &tdi, &tdo, 3, false);
    pp_mpsse_finish(&m);
    expect_bytes((const uint8_t[]){ 0x4B, 0x00, 0x00, 0x3B, 0x02, 0x05, 0x87 }, 7);
    pp_mpsse_unpack(&m, &in);
    ck_assert_uint_eq(tdo, 0x07);
}
END_TEST

START_TEST(read_with_tdi_known_low_uses_the_read_only_opcodes)
{
    uint8_t zero = 0, tdo[2] = { 0 }, in[2] = { 0x34, 0x80 };

    pp_mpsse_tms(&m, &zero, 1, false);
    pp_mpsse_shift(&m, NULL, tdo, 9, false);
    pp_mpsse_finish(&m);
    expect_bytes((const uint8_t[]){ 0x4B, 0x00, 0x00, 0x28, 0x00, 0x00, 0x2A, 0x00, 0x87 }, 9);
    pp_mpsse_unpack(&m, in);
    ck_assert_uint_eq(tdo[0], 0x34);
    ck_assert_uint_eq(tdo[1] & 1, 1);
}
END_TEST

START_TEST(read_with_tdi_possibly_high_writes_zeros)
{
    uint8_t zero = 0, tdo[1] = { 0 };

    pp_mpsse_tms(&m, &zero, 1, true);        /* TDI left high */
    pp_mpsse_shift(&m, NULL, tdo, 8, false);
    pp_mpsse_finish(&m);
    expect_bytes((const uint8_t[]){ 0x4B, 0x00, 0x80, 0x39, 0x00, 0x00, 0x00, 0x87 }, 8);
}
END_TEST

START_TEST(shift_with_tms_possibly_high_sends_its_first_bit_on_a_tms_low_edge)
{
    uint8_t tdi = 0x03, tdo = 0, in[2] = { 0x80, 0x80 };

    pp_mpsse_shift(&m, &tdi, &tdo, 2, false);    /* TMS level unknown */
    pp_mpsse_finish(&m);
    expect_bytes((const uint8_t[]){ 0x6B, 0x00, 0x80, 0x3B, 0x00, 0x01, 0x87 }, 7);
    pp_mpsse_unpack(&m, in);
    ck_assert_uint_eq(tdo & 3, 3);
}
END_TEST

START_TEST(last_bit_alone_goes_out_with_tms_high_and_lands_from_bit_7)
{
    uint8_t tdi = 0x01, tdo = 0, in = 0x80;

    pp_mpsse_shift(&m, &tdi, &tdo, 1, true);
    pp_mpsse_finish(&m);
    expect_bytes((const uint8_t[]){ 0x6B, 0x00, 0x81, 0x87 }, 4);
    pp_mpsse_unpack(&m, &in);
    ck_assert_uint_eq(tdo, 1);
}
END_TEST

START_TEST(write_only_shift_uses_19_and_1B_and_expects_no_reply)
{
    uint8_t zero = 0, tdi[2] = { 0xA5, 0x05 };

    pp_mpsse_tms(&m, &zero, 1, false);
    pp_mpsse_shift(&m, tdi, NULL, 11, false);
    pp_mpsse_finish(&m);
    expect_bytes((const uint8_t[]){ 0x4B, 0x00, 0x00, 0x19, 0x00, 0x00, 0xA5,
                                    0x1B, 0x02, 0x05 }, 10);
    ck_assert_uint_eq(m.nin, 0);
}
END_TEST

/* --- batches and chunks -------------------------------------------------- */

START_TEST(batch_that_reads_ends_with_send_immediate_and_a_write_only_one_does_not)
{
    uint8_t zero = 0, tdo = 0;

    pp_mpsse_tms(&m, &zero, 1, false);
    pp_mpsse_finish(&m);
    ck_assert_uint_ne(m.out[m.nout - 1], 0x87);
    pp_mpsse_clear(&m);
    pp_mpsse_shift(&m, NULL, &tdo, 4, false);
    pp_mpsse_finish(&m);
    ck_assert_uint_eq(m.out[m.nout - 1], 0x87);
    ck_assert_uint_eq(m.nck, 1);
}
END_TEST

START_TEST(large_read_is_cut_so_no_chunk_expects_more_than_the_fifo)
{
    enum { N = 10000 };
    uint8_t *tdo = calloc(N, 1), *in = malloc(N), zero = 0;
    size_t total = 0;

    pp_mpsse_tms(&m, &zero, 1, false);
    pp_mpsse_shift(&m, NULL, tdo, 8 * N, false);
    pp_mpsse_finish(&m);
    ck_assert_uint_eq(m.nin, N);
    ck_assert_uint_ge(m.nck, 3);
    for (size_t c = 0; c < m.nck; c++) {
        ck_assert_uint_le(m.ck[c].in_end - m.ck[c].in_start, 4096);
        ck_assert_uint_eq(m.out[m.ck[c].out_end - 1], 0x87);
        total += m.ck[c].in_end - m.ck[c].in_start;
    }
    ck_assert_uint_eq(total, N);
    for (size_t i = 0; i < N; i++)
        in[i] = (uint8_t)(i * 7);
    pp_mpsse_unpack(&m, in);
    ck_assert_int_eq(memcmp(tdo, in, N), 0);
    free(tdo);
    free(in);
}
END_TEST

/* 800 scans of 6 reply bytes from Run-Test/Idle. */
static void queue_800_scans(uint8_t (*tdo)[5])
{
    uint8_t tdi[5] = { 0x0F, 0, 0, 0, 0 }, exit_to_shift = 0x03, to_shift = 1;

    pp_mpsse_tms(&m, &to_shift, 3, false);
    for (int i = 0; i < 800; i++) {
        pp_mpsse_shift(&m, tdi, tdo[i], 35, true);
        pp_mpsse_tms(&m, &exit_to_shift, 4, false);
    }
    pp_mpsse_finish(&m);
}

START_TEST(many_scans_are_cut_at_command_boundaries)
{
    uint8_t tdo[800][5];

    queue_800_scans(tdo);
    ck_assert_uint_eq(m.nin, 800 * 6);
    ck_assert_uint_eq(m.nck, 2);
    /* The cut falls between commands: the second chunk starts with one of
     * the scan's three opcodes, not inside a command's data. */
    ck_assert_msg(m.out[m.ck[1].out_start] == 0x39 || m.out[m.ck[1].out_start] == 0x3B ||
                  m.out[m.ck[1].out_start] == 0x6B, "chunk starts with 0x%02X",
                  m.out[m.ck[1].out_start]);
    ck_assert_uint_le(m.ck[0].in_end - m.ck[0].in_start, 4096);
    ck_assert_uint_eq(m.ck[1].in_end, 800 * 6);
}
END_TEST

/* A streaming link's batch starts with a short chunk, so the chip gets
 * work sooner; the chunks after it fill the FIFO as before. */
START_TEST(first_chunk_closes_at_its_own_limit_and_the_rest_at_the_fifo)
{
    uint8_t tdo[800][5];

    pp_mpsse_set_first_in(&m, 512);
    queue_800_scans(tdo);
    ck_assert_uint_eq(m.nck, 3);
    ck_assert_uint_eq(m.ck[0].in_end, 512);
    ck_assert_uint_eq(m.ck[1].in_end - m.ck[1].in_start, 4096);
    ck_assert_uint_eq(m.ck[2].in_end, 800 * 6);
}
END_TEST

START_TEST(first_chunk_limit_above_the_fifo_is_the_fifo)
{
    uint8_t tdo[800][5];

    pp_mpsse_set_first_in(&m, 100000);
    queue_800_scans(tdo);
    ck_assert_uint_eq(m.nck, 2);
    ck_assert_uint_eq(m.ck[0].in_end, 4096);
}
END_TEST

START_TEST(small_fifo_of_the_ft232h_gives_smaller_chunks)
{
    uint8_t zero = 0, *tdo = calloc(3000, 1);

    pp_mpsse_free(&m);
    pp_mpsse_init(&m, 1024, 65536);
    pp_mpsse_tms(&m, &zero, 1, false);
    pp_mpsse_shift(&m, NULL, tdo, 8 * 3000, false);
    pp_mpsse_finish(&m);
    ck_assert_uint_eq(m.nck, 3);
    for (size_t c = 0; c < m.nck; c++)
        ck_assert_uint_le(m.ck[c].in_end - m.ck[c].in_start, 1024);
    free(tdo);
}
END_TEST

START_TEST(raw_command_reply_is_counted_but_not_placed)
{
    static const uint8_t get_low = 0x81;
    uint8_t zero = 0, tdo = 0, in[2] = { 0x55, 0x80 };

    pp_mpsse_tms(&m, &zero, 1, false);
    pp_mpsse_raw(&m, &get_low, 1, 1);
    pp_mpsse_shift(&m, NULL, &tdo, 1, false);
    pp_mpsse_finish(&m);
    ck_assert_uint_eq(m.nin, 2);
    pp_mpsse_unpack(&m, in);
    ck_assert_uint_eq(tdo, 1);
}
END_TEST

/* --- bad command --------------------------------------------------------- */

START_TEST(fa_followed_by_an_opcode_that_was_sent_is_a_bad_command)
{
    static const uint8_t cmds[] = { 0x85, 0x8A, 0x86, 0x00, 0x00, 0x87 };
    static const uint8_t reply[] = { 0x12, 0xFA, 0x8A };
    uint8_t op = 0;

    ck_assert_int_eq(pp_mpsse_find_bad_command(reply, sizeof(reply), cmds, sizeof(cmds), &op),
                     1);
    ck_assert_uint_eq(op, 0x8A);
}
END_TEST

START_TEST(fa_followed_by_an_opcode_that_was_not_sent_is_data)
{
    static const uint8_t cmds[] = { 0x39, 0x01, 0x00, 0x8A, 0x86, 0x87 };   /* data bytes */
    static const uint8_t reply[] = { 0xFA, 0x8A };
    uint8_t op = 0;

    ck_assert_int_eq(pp_mpsse_find_bad_command(reply, sizeof(reply), cmds, sizeof(cmds), &op),
                     -1);
}
END_TEST

/* --- clock ------------------------------------------------------------- */

START_TEST(divisor_gives_the_fastest_clock_not_above_the_request)
{
    ck_assert_uint_eq(pp_mpsse_divisor(30000000), 0);
    ck_assert_uint_eq(pp_mpsse_divisor_hz(0), 30000000);
    ck_assert_uint_eq(pp_mpsse_divisor(10000000), 2);
    ck_assert_uint_eq(pp_mpsse_divisor_hz(pp_mpsse_divisor(7000000)), 6000000);
    ck_assert_uint_eq(pp_mpsse_divisor(60000000), 0);
    ck_assert_uint_eq(pp_mpsse_divisor(100), 0xFFFF);
    ck_assert_uint_eq(pp_mpsse_divisor_hz(0xFFFF), 457);
}
END_TEST

static Suite *mpsse_suite(void)
{
    Suite *s = suite_create("mpsse");
    TCase *tc;

    tc = tcase_create("TMS moves");
    tcase_add_checked_fixture(tc, enc_up, enc_down);
    tcase_add_test(tc, tms_move_is_one_4B_command_with_tdi_in_bit_7);
    tcase_add_test(tc, tms_move_of_seven_bits_is_split_after_six_because_of_the_erratum);
    tcase_add_test(tc, consecutive_tms_moves_with_the_same_tdi_share_one_command);
    tcase_add_test(tc, long_idle_run_with_tms_and_tdi_low_is_clocked_by_8F);
    suite_add_tcase(s, tc);

    tc = tcase_create("Shifts");
    tcase_add_checked_fixture(tc, enc_up, enc_down);
    tcase_add_test(tc, apacc_scan_from_idle_matches_the_spec_template);
    tcase_add_test(tc, scan_reply_is_unpacked_from_bytes_top_bits_and_the_tms_read);
    tcase_add_test(tc, three_bit_read_arrives_in_the_top_three_bits);
    tcase_add_test(tc, reads_are_placed_as_their_bytes_arrive_and_only_once);
    tcase_add_test(tc, read_with_tdi_known_low_uses_the_read_only_opcodes);
    tcase_add_test(tc, read_with_tdi_possibly_high_writes_zeros);
    tcase_add_test(tc, shift_with_tms_possibly_high_sends_its_first_bit_on_a_tms_low_edge);
    tcase_add_test(tc, last_bit_alone_goes_out_with_tms_high_and_lands_from_bit_7);
    tcase_add_test(tc, write_only_shift_uses_19_and_1B_and_expects_no_reply);
    suite_add_tcase(s, tc);

    tc = tcase_create("Batches");
    tcase_add_checked_fixture(tc, enc_up, enc_down);
    tcase_add_test(tc, batch_that_reads_ends_with_send_immediate_and_a_write_only_one_does_not);
    tcase_add_test(tc, large_read_is_cut_so_no_chunk_expects_more_than_the_fifo);
    tcase_add_test(tc, many_scans_are_cut_at_command_boundaries);
    tcase_add_test(tc, first_chunk_closes_at_its_own_limit_and_the_rest_at_the_fifo);
    tcase_add_test(tc, first_chunk_limit_above_the_fifo_is_the_fifo);
    tcase_add_test(tc, small_fifo_of_the_ft232h_gives_smaller_chunks);
    tcase_add_test(tc, raw_command_reply_is_counted_but_not_placed);
    suite_add_tcase(s, tc);

    tc = tcase_create("Bad command");
    tcase_add_test(tc, fa_followed_by_an_opcode_that_was_sent_is_a_bad_command);
    tcase_add_test(tc, fa_followed_by_an_opcode_that_was_not_sent_is_data);
    suite_add_tcase(s, tc);

    tc = tcase_create("Clock");
    tcase_add_test(tc, divisor_gives_the_fastest_clock_not_above_the_request);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(mpsse_suite());
    int failed;

    srunner_run_all(sr, CK_NORMAL);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

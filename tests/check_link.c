/*
 * check_link.c - the JTAG layer (lib/link/jtag.c) and the link drivers:
 * TAP walks, IR/DR scans and multi-TAP chains against the simulated TAP
 * through the in-process "simpins" link, with exact TCK counts
 * (spec/ftdi-mpsse-jtag.md 4.2), and the remote_bitbang client's refusals.
 * rbb against a real server is tests/rbb.test (pmuprobe-sim).
 */
#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "link/jtag.h"
#include "link/rbb.h"
#include "link/simpins.h"
#include "sim/jtag.h"
#include "sim/jtag_internal.h"
#include "fixture.h"

#define IDCODE 0x5BA00477u

static const char target_text[] =
    "[soc]\n"
    "name = link-test\n"
    "dp.idcode = 0x5BA00477\n"
    "ap.index = 0\n"
    "rom.base = 0x80000000\n"
    "rom.class = 1\n"
    "time = deterministic\n"
    "[cluster 0]\n"
    "rom.base = 0x80400000\n"
    "rom.class = 1\n"
    "[core 0-1]\n"
    "type = cortex-a72\n"
    "debug = 0x80410000 +0x100000\n";

static struct fx_rig rig;
static struct pp_simjtag *jt;
static struct pp_link *lnk;
static struct pp_jtag *jtag;

static void build(const unsigned *tdo, unsigned ntdo, const unsigned *tdi, unsigned ntdi)
{
    char err[256];

    fx_rig_parse(&rig, target_text);
    jt = pp_simjtag_new(rig.sim, err, sizeof(err));
    ck_assert_msg(jt != NULL, "%s", err);
    lnk = pp_link_simpins_new(jt, tdo, ntdo, tdi, ntdi, err, sizeof(err));
    ck_assert_msg(lnk != NULL, "%s", err);
    jtag = pp_jtag_new(lnk);
    ck_assert_ptr_nonnull(jtag);
}

static void setup(void)
{
    build(NULL, 0, NULL, 0);
}

static void teardown(void)
{
    pp_jtag_free(jtag);
    pp_link_close(lnk);
    pp_simjtag_free(jt);
    fx_rig_down(&rig);
}

static uint64_t tck(void)
{
    return lnk->stats.tck;
}

static uint64_t get_bits(const uint8_t *b, unsigned n)
{
    uint64_t v = 0;

    for (unsigned i = 0; i < n; i++)
        v |= (uint64_t)pp_bit_get(b, i) << i;
    return v;
}

static void put_bits(uint8_t *b, uint64_t v, unsigned n)
{
    for (unsigned i = 0; i < n; i++)
        pp_bit_put(b, i, (v >> i) & 1u);
}

/* A 35-bit DPACC/APACC word (spec 7.1). */
static uint64_t acc(unsigned a, bool rnw, uint32_t data)
{
    return (rnw ? 1u : 0u) | (uint64_t)((a >> 2) & 3u) << 1 | (uint64_t)data << 3;
}

static uint64_t dr35(uint64_t out)
{
    uint8_t tdi[5] = { 0 }, tdo[5] = { 0 };

    put_bits(tdi, out, 35);
    ck_assert_int_eq(pp_jtag_dr(jtag, tdi, tdo, 35, 0), PP_OK);
    ck_assert_int_eq(pp_jtag_flush(jtag), PP_OK);
    return get_bits(tdo, 35);
}

/* ---- TAP walks ------------------------------------------------------------ */

START_TEST(every_state_reaches_every_state_by_the_path_given)
{
    for (unsigned a = 0; a < PP_TAP_NSTATES; a++)
        for (unsigned b = 0; b < PP_TAP_NSTATES; b++) {
            uint8_t tms;
            unsigned n = pp_tap_path(a, b, &tms);
            enum pp_tap_state s = a;

            ck_assert_uint_le(n, 8);
            for (unsigned i = 0; i < n; i++)
                s = pp_tap_next(s, (tms >> i) & 1u);
            ck_assert_msg(s == (enum pp_tap_state)b, "%s -> %s ends in %s",
                          pp_tap_state_name(a), pp_tap_state_name(b), pp_tap_state_name(s));
        }
}
END_TEST

START_TEST(paths_are_the_shortest_ones_the_standard_allows)
{
    uint8_t tms;

    ck_assert_uint_eq(pp_tap_path(PP_TAP_IDLE, PP_TAP_DRSHIFT, &tms), 3);
    ck_assert_uint_eq(tms, 0x1);                 /* 1,0,0 */
    ck_assert_uint_eq(pp_tap_path(PP_TAP_DRUPDATE, PP_TAP_DRSHIFT, &tms), 3);
    ck_assert_uint_eq(pp_tap_path(PP_TAP_DRUPDATE, PP_TAP_IRSHIFT, &tms), 4);
    ck_assert_uint_eq(tms, 0x3);                 /* 1,1,0,0 */
    ck_assert_uint_eq(pp_tap_path(PP_TAP_RESET, PP_TAP_IDLE, &tms), 1);
    ck_assert_uint_eq(pp_tap_path(PP_TAP_DRSHIFT, PP_TAP_RESET, &tms), 5);
}
END_TEST

START_TEST(tlr_is_five_tck_with_tms_high)
{
    uint64_t t0 = tck();

    ck_assert_int_eq(pp_jtag_tlr(jtag), PP_OK);
    ck_assert_int_eq(pp_jtag_flush(jtag), PP_OK);
    ck_assert_uint_eq(tck() - t0, 5);
    ck_assert_int_eq(pp_jtag_state(jtag), PP_TAP_RESET);
}
END_TEST

START_TEST(unknown_state_is_left_through_test_logic_reset)
{
    ck_assert_int_eq(pp_jtag_state(jtag), PP_TAP_UNKNOWN);
    ck_assert_int_eq(pp_jtag_goto(jtag, PP_TAP_IDLE), PP_OK);
    ck_assert_int_eq(pp_jtag_flush(jtag), PP_OK);
    ck_assert_uint_eq(tck(), 5 + 1);
    ck_assert_int_eq(pp_jtag_state(jtag), PP_TAP_IDLE);
}
END_TEST

/* ---- scans on one TAP --------------------------------------------------- */

START_TEST(idcode_dr_scan_after_reset_reads_the_targets_idcode)
{
    uint8_t tdo[4] = { 0 };

    ck_assert_int_eq(pp_jtag_tlr(jtag), PP_OK);
    ck_assert_int_eq(pp_jtag_dr(jtag, NULL, tdo, 32, 0), PP_OK);
    ck_assert_int_eq(pp_jtag_flush(jtag), PP_OK);
    ck_assert_uint_eq(get_bits(tdo, 32), IDCODE);
}
END_TEST

START_TEST(ir_scan_from_update_dr_costs_9_tck_and_dr_scan_39)
{
    uint64_t t0;

    ck_assert_int_eq(pp_jtag_goto(jtag, PP_TAP_IDLE), PP_OK);
    ck_assert_int_eq(pp_jtag_ir(jtag, 0xA), PP_OK);
    (void)dr35(acc(0x4, true, 0));
    t0 = tck();
    ck_assert_int_eq(pp_jtag_ir(jtag, 0xB), PP_OK);
    ck_assert_int_eq(pp_jtag_flush(jtag), PP_OK);
    ck_assert_uint_eq(tck() - t0, 9);
    t0 = tck();
    (void)dr35(acc(0xC, true, 0));
    ck_assert_uint_eq(tck() - t0, 39);
}
END_TEST

START_TEST(idle_cycles_after_a_dr_scan_are_counted_exactly)
{
    uint8_t tdi[5] = { 0 };
    uint64_t t0;

    ck_assert_int_eq(pp_jtag_goto(jtag, PP_TAP_IDLE), PP_OK);
    ck_assert_int_eq(pp_jtag_ir(jtag, 0xA), PP_OK);
    ck_assert_int_eq(pp_jtag_flush(jtag), PP_OK);
    t0 = tck();
    ck_assert_int_eq(pp_jtag_dr(jtag, tdi, NULL, 35, 3), PP_OK);
    ck_assert_int_eq(pp_jtag_flush(jtag), PP_OK);
    ck_assert_uint_eq(tck() - t0, 39 + 3);
    ck_assert_int_eq(pp_jtag_state(jtag), PP_TAP_IDLE);
}
END_TEST

START_TEST(ir_scan_of_the_instruction_already_loaded_costs_nothing)
{
    struct pp_jtag_stats st;
    uint64_t t0;

    ck_assert_int_eq(pp_jtag_ir(jtag, 0xA), PP_OK);
    t0 = tck();
    ck_assert_int_eq(pp_jtag_ir(jtag, 0xA), PP_OK);
    ck_assert_uint_eq(tck(), t0);
    pp_jtag_get_stats(jtag, &st);
    ck_assert_uint_eq(st.ir_skipped, 1);
    pp_jtag_forget_ir(jtag);
    ck_assert_int_eq(pp_jtag_ir(jtag, 0xA), PP_OK);
    ck_assert_uint_gt(tck(), t0);
}
END_TEST

START_TEST(dpacc_read_result_arrives_in_the_next_scan)
{
    uint64_t cap;

    ck_assert_int_eq(pp_jtag_ir(jtag, 0xA), PP_OK);
    (void)dr35(acc(0x4, false, 0x50000000u));    /* power-up requests */
    (void)dr35(acc(0x4, true, 0));
    cap = dr35(acc(0xC, true, 0));
    ck_assert_uint_eq(cap & 7u, 2u);             /* ACK OK */
    ck_assert_uint_eq((uint32_t)(cap >> 3) & 0xF0000000u, 0xF0000000u);
}
END_TEST

START_TEST(a_flush_that_samples_tdo_is_one_round_trip)
{
    uint64_t rt = lnk->stats.round_trips, fl = lnk->stats.flushes;

    ck_assert_int_eq(pp_jtag_tlr(jtag), PP_OK);
    ck_assert_int_eq(pp_jtag_flush(jtag), PP_OK);
    ck_assert_uint_eq(lnk->stats.round_trips, rt);
    ck_assert_uint_eq(lnk->stats.flushes, fl + 1);
    ck_assert_int_eq(pp_jtag_ir(jtag, 0xA), PP_OK);
    for (int i = 0; i < 20; i++) {
        uint8_t tdo[5];

        ck_assert_int_eq(pp_jtag_dr(jtag, NULL, tdo, 35, 0), PP_OK);
    }
    ck_assert_int_eq(pp_jtag_flush(jtag), PP_OK);
    ck_assert_uint_eq(lnk->stats.round_trips, rt + 1);
    ck_assert_uint_eq(lnk->stats.flushes, fl + 2);
}
END_TEST

START_TEST(an_empty_flush_is_no_round_trip)
{
    ck_assert_int_eq(pp_jtag_flush(jtag), PP_OK);
    ck_assert_uint_eq(lnk->stats.flushes, 0);
    ck_assert_uint_eq(lnk->stats.round_trips, 0);
}
END_TEST

START_TEST(detect_finds_the_lone_jtag_dp)
{
    struct pp_jtag_tap taps[PP_JTAG_MAX_TAPS];
    unsigned n = 0;

    ck_assert_int_eq(pp_jtag_detect(jtag, taps, PP_JTAG_MAX_TAPS, &n), PP_OK);
    ck_assert_uint_eq(n, 1);
    ck_assert_uint_eq(taps[0].idcode, IDCODE);
    ck_assert_uint_eq(taps[0].irlen, 4);
    ck_assert_uint_eq(lnk->stats.round_trips, 1);
}
END_TEST

/* ---- chains --------------------------------------------------------------- */

static void chain_setup(void)
{
    static const unsigned tdo[] = { 5 }, tdi[] = { 3, 7 };

    build(tdo, 1, tdi, 2);
}

static void use_chain(void)
{
    const struct pp_jtag_tap taps[] = { { 5, 0 }, { 4, IDCODE }, { 3, 0 }, { 7, 0 } };

    ck_assert_int_eq(pp_jtag_set_chain(jtag, taps, 4, 1), PP_OK);
}

START_TEST(detect_reads_idcodes_and_ir_lengths_of_every_tap)
{
    struct pp_jtag_tap taps[PP_JTAG_MAX_TAPS];
    unsigned n = 0;

    ck_assert_int_eq(pp_jtag_detect(jtag, taps, PP_JTAG_MAX_TAPS, &n), PP_OK);
    ck_assert_uint_eq(n, 4);
    ck_assert_uint_eq(taps[0].irlen, 5);
    ck_assert_uint_eq(taps[0].idcode, 0);
    ck_assert_uint_eq(taps[1].irlen, 4);
    ck_assert_uint_eq(taps[1].idcode, IDCODE);
    ck_assert_uint_eq(taps[2].irlen, 3);
    ck_assert_uint_eq(taps[3].irlen, 7);
    ck_assert_uint_eq(taps[3].idcode, 0);
}
END_TEST

START_TEST(idcode_through_bypassed_taps_reads_the_dp)
{
    uint8_t tdo[4] = { 0 };

    use_chain();
    ck_assert_int_eq(pp_jtag_ir(jtag, 0xE), PP_OK);
    ck_assert_int_eq(pp_jtag_dr(jtag, NULL, tdo, 32, 0), PP_OK);
    ck_assert_int_eq(pp_jtag_flush(jtag), PP_OK);
    ck_assert_uint_eq(get_bits(tdo, 32), IDCODE);
}
END_TEST

START_TEST(scans_through_a_chain_cost_one_tck_per_bypass_bit)
{
    uint64_t t0;

    use_chain();
    ck_assert_int_eq(pp_jtag_goto(jtag, PP_TAP_IDLE), PP_OK);
    ck_assert_int_eq(pp_jtag_flush(jtag), PP_OK);
    t0 = tck();
    ck_assert_int_eq(pp_jtag_ir(jtag, 0xA), PP_OK);
    ck_assert_int_eq(pp_jtag_flush(jtag), PP_OK);
    ck_assert_uint_eq(tck() - t0, 4 + (5 + 4 + 3 + 7) + 1);
    t0 = tck();
    (void)dr35(acc(0x4, true, 0));
    ck_assert_uint_eq(tck() - t0, 3 + 35 + 3 + 1);
}
END_TEST

START_TEST(dp_transactions_work_through_a_chain)
{
    uint64_t cap;

    use_chain();
    ck_assert_int_eq(pp_jtag_ir(jtag, 0xA), PP_OK);
    (void)dr35(acc(0x4, false, 0x50000000u));
    (void)dr35(acc(0x4, true, 0));
    cap = dr35(acc(0xC, true, 0));
    ck_assert_uint_eq(cap & 7u, 2u);
    ck_assert_uint_eq((uint32_t)(cap >> 3) & 0xF0000000u, 0xF0000000u);
}
END_TEST

START_TEST(other_taps_hold_bypass_while_the_dp_is_addressed)
{
    uint8_t tdi[7] = { 0 }, tdo[7] = { 0 };
    uint64_t out;

    use_chain();
    ck_assert_int_eq(pp_jtag_ir(jtag, 0xE), PP_OK);
    /* DR chain from TDO: bypass(1) IDCODE(32) bypass(1) bypass(1) = 35 bits,
     * so what goes in comes out 35 bits later. */
    put_bits(tdi, 0xA5A5Au, 20);
    ck_assert_int_eq(pp_jtag_scan_chain(jtag, false, tdi, tdo, 55, PP_TAP_IDLE), PP_OK);
    ck_assert_int_eq(pp_jtag_flush(jtag), PP_OK);
    out = get_bits(tdo, 55);
    ck_assert_uint_eq(out & 1u, 0);
    ck_assert_uint_eq((out >> 1) & 0xFFFFFFFFu, IDCODE);
    ck_assert_uint_eq((out >> 33) & 3u, 0);
    ck_assert_uint_eq((out >> 35) & 0xFFFFFu, 0xA5A5Au);
}
END_TEST

START_TEST(set_chain_refuses_bad_descriptions)
{
    const struct pp_jtag_tap bad[] = { { 0, 0 } }, ok[] = { { 4, 0 } };

    ck_assert_int_eq(pp_jtag_set_chain(jtag, bad, 1, 0), PP_E_INVAL);
    ck_assert_int_eq(pp_jtag_set_chain(jtag, ok, 1, 1), PP_E_INVAL);
    ck_assert_int_eq(pp_jtag_set_chain(jtag, ok, 0, 0), PP_E_INVAL);
}
END_TEST

/* ---- what the layer hands the link -------------------------------------------
 *
 * A link that records each primitive and passes it on to simpins, so the
 * TAP still answers: the test sees both the calls and their effect.
 */

#define REC_MAX 64

struct rec_call {
    char kind;                /* 'T' TMS move, 'S' shift */
    unsigned n;
    bool tdi;                 /* T: TDI held */
    bool last_tms;            /* S: leaves Shift-xR */
};

struct rec {
    struct pp_link *inner;
    struct rec_call call[REC_MAX];
    unsigned ncall;
};

static void rec_put(struct rec *r, struct rec_call c)
{
    if (r->ncall < REC_MAX)
        r->call[r->ncall++] = c;
}

static int rec_tms(struct pp_link *l, const uint8_t *tms, unsigned n, bool tdi)
{
    struct rec *r = l->priv;

    rec_put(r, (struct rec_call){ .kind = 'T', .n = n, .tdi = tdi });
    return pp_link_tms(r->inner, tms, n, tdi);
}

static int rec_shift(struct pp_link *l, const uint8_t *tdi, uint8_t *tdo, unsigned n,
                     bool last_tms)
{
    struct rec *r = l->priv;

    rec_put(r, (struct rec_call){ .kind = 'S', .n = n, .last_tms = last_tms });
    return pp_link_shift(r->inner, tdi, tdo, n, last_tms);
}

static int rec_flush(struct pp_link *l)
{
    struct rec *r = l->priv;
    int rc = pp_link_flush(r->inner);

    l->stats = r->inner->stats;
    return rc;
}

static const struct pp_link_ops rec_ops = { .name = "rec", .tms = rec_tms, .shift = rec_shift,
                                            .flush = rec_flush };

/* The TDI of the first TMS move after the last shift recorded. */
static bool tdi_after_last_shift(const struct rec *r)
{
    unsigned i = r->ncall;

    while (i > 0 && r->call[i - 1].kind != 'S')
        i--;
    ck_assert_uint_gt(i, 0);
    ck_assert(r->call[i - 1].last_tms);
    ck_assert_uint_lt(i, r->ncall);
    return r->call[i].tdi;
}

START_TEST(tms_moves_after_a_scan_hold_tdi_at_its_last_bit)
{
    struct rec r = { .inner = lnk };
    struct pp_link l = { .ops = &rec_ops, .priv = &r };
    struct pp_jtag *j = pp_jtag_new(&l);
    uint8_t tdi[5] = { 0 }, tdo[5] = { 0 };

    ck_assert_ptr_nonnull(j);
    ck_assert_int_eq(pp_jtag_ir(j, 0xA), PP_OK);          /* DPACC */
    put_bits(tdi, acc(0x8, false, 0x80000000u), 35);      /* SELECT: bit 34 set */
    ck_assert_int_eq(pp_jtag_dr(j, tdi, NULL, 35, 2), PP_OK);
    ck_assert(tdi_after_last_shift(&r));
    for (unsigned i = r.ncall; i-- > 0 && r.call[i].kind == 'T';)
        ck_assert(r.call[i].tdi);                       /* Update-DR and the idle too */
    put_bits(tdi, acc(0x4, true, 0), 35);                 /* CTRL/STAT read: bit 34 clear */
    ck_assert_int_eq(pp_jtag_dr(j, tdi, NULL, 35, 0), PP_OK);
    ck_assert(!tdi_after_last_shift(&r));
    put_bits(tdi, acc(0xC, true, 0), 35);
    ck_assert_int_eq(pp_jtag_dr(j, tdi, tdo, 35, 0), PP_OK);
    ck_assert_int_eq(pp_jtag_flush(j), PP_OK);
    ck_assert_uint_eq(get_bits(tdo, 3), 2u);              /* the DP saw the same scans */
    ck_assert_uint_eq(jt->select, 0x80000000u);
    pp_jtag_free(j);
}
END_TEST

START_TEST(the_tck_queued_are_known_before_the_flush)
{
    uint64_t q0, t0 = tck();

    ck_assert_int_eq(pp_jtag_goto(jtag, PP_TAP_IDLE), PP_OK);
    ck_assert_int_eq(pp_jtag_flush(jtag), PP_OK);
    q0 = pp_jtag_tck_queued(jtag);
    ck_assert_uint_eq(q0, tck() - t0);
    ck_assert_int_eq(pp_jtag_ir(jtag, 0xA), PP_OK);
    ck_assert_int_eq(pp_jtag_dr(jtag, NULL, NULL, 35, 3), PP_OK);
    /* Idle to Update-IR 9, on to Update-DR 39, 3 idle (spec 4.2) */
    ck_assert_uint_eq(pp_jtag_tck_queued(jtag) - q0, 9 + 39 + 3);
    ck_assert_int_eq(pp_jtag_flush(jtag), PP_OK);
    ck_assert_uint_eq(pp_jtag_tck_queued(jtag), tck() - t0);
}
END_TEST

/* ---- link loss and refusals ---------------------------------------------- */

START_TEST(a_lost_link_fails_the_flush_and_stays_lost)
{
    pp_link_simpins_fail_after(lnk, 1);
    ck_assert_int_eq(pp_jtag_tlr(jtag), PP_OK);
    ck_assert_int_eq(pp_jtag_flush(jtag), PP_E_LINK);
    ck_assert_ptr_nonnull(strstr(lnk->errmsg, "simpins"));
    ck_assert_int_eq(pp_jtag_state(jtag), PP_TAP_UNKNOWN);
    ck_assert_int_eq(pp_jtag_tlr(jtag), PP_E_LINK);
}
END_TEST

START_TEST(closing_no_link_is_harmless)
{
    pp_link_close(NULL);
}
END_TEST

START_TEST(rbb_refuses_a_malformed_endpoint)
{
    struct pp_link *l = (struct pp_link *)1;
    char err[256];

    ck_assert_int_eq(pp_link_rbb_open("localhost", &l, err, sizeof(err)), PP_E_INVAL);
    ck_assert_ptr_null(l);
    ck_assert_ptr_nonnull(strstr(err, "HOST:PORT"));
    ck_assert_int_eq(pp_link_rbb_open("localhost:99999", &l, err, sizeof(err)), PP_E_INVAL);
    ck_assert_int_eq(pp_link_rbb_open("unix:", &l, err, sizeof(err)), PP_E_INVAL);
}
END_TEST

START_TEST(rbb_names_the_endpoint_it_cannot_reach)
{
    struct pp_link *l = NULL;
    char err[256];

    ck_assert_int_eq(pp_link_rbb_open("unix:/nonexistent/pmuprobe-sim.sock", &l, err,
                                      sizeof(err)), PP_E_LINK);
    ck_assert_ptr_null(l);
    ck_assert_ptr_nonnull(strstr(err, "rbb:unix:/nonexistent/pmuprobe-sim.sock"));
}
END_TEST

static Suite *link_suite(void)
{
    Suite *s = suite_create("link");
    TCase *tc;

    tc = tcase_create("tap walks");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, every_state_reaches_every_state_by_the_path_given);
    tcase_add_test(tc, paths_are_the_shortest_ones_the_standard_allows);
    tcase_add_test(tc, tlr_is_five_tck_with_tms_high);
    tcase_add_test(tc, unknown_state_is_left_through_test_logic_reset);
    suite_add_tcase(s, tc);

    tc = tcase_create("scans on one tap");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, idcode_dr_scan_after_reset_reads_the_targets_idcode);
    tcase_add_test(tc, ir_scan_from_update_dr_costs_9_tck_and_dr_scan_39);
    tcase_add_test(tc, idle_cycles_after_a_dr_scan_are_counted_exactly);
    tcase_add_test(tc, ir_scan_of_the_instruction_already_loaded_costs_nothing);
    tcase_add_test(tc, dpacc_read_result_arrives_in_the_next_scan);
    tcase_add_test(tc, a_flush_that_samples_tdo_is_one_round_trip);
    tcase_add_test(tc, an_empty_flush_is_no_round_trip);
    tcase_add_test(tc, detect_finds_the_lone_jtag_dp);
    suite_add_tcase(s, tc);

    tc = tcase_create("what the link is handed");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, tms_moves_after_a_scan_hold_tdi_at_its_last_bit);
    tcase_add_test(tc, the_tck_queued_are_known_before_the_flush);
    suite_add_tcase(s, tc);

    tc = tcase_create("chains");
    tcase_add_checked_fixture(tc, chain_setup, teardown);
    tcase_add_test(tc, detect_reads_idcodes_and_ir_lengths_of_every_tap);
    tcase_add_test(tc, idcode_through_bypassed_taps_reads_the_dp);
    tcase_add_test(tc, scans_through_a_chain_cost_one_tck_per_bypass_bit);
    tcase_add_test(tc, dp_transactions_work_through_a_chain);
    tcase_add_test(tc, other_taps_hold_bypass_while_the_dp_is_addressed);
    tcase_add_test(tc, set_chain_refuses_bad_descriptions);
    suite_add_tcase(s, tc);

    tc = tcase_create("loss and refusals");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, a_lost_link_fails_the_flush_and_stays_lost);
    tcase_add_test(tc, closing_no_link_is_harmless);
    tcase_add_test(tc, rbb_refuses_a_malformed_endpoint);
    tcase_add_test(tc, rbb_names_the_endpoint_it_cannot_reach);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(link_suite());
    int failed;

    srunner_run_all(sr, CK_NORMAL);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

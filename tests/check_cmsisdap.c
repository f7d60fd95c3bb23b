/*
 * check_cmsisdap.c - the CMSIS-DAP backend's packets against
 * spec/cmsis-dap-swd.md: DAP_Transfer bytes for a known request list
 * (2.4: request byte APnDP, RnW, A[3:2]; WORD data after writes only),
 * DAP_TransferBlock only for runs of one read that fill a packet (2.5),
 * timestamps (2.4), and the packet size
 * bounding request and reply (1.4: kept one byte under it, as OpenOCD).
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "adi/dap_packets.h"

#define DP_CTRLSTAT_R (PP_DAP_RNW | 0x04u)
#define DP_SELECT_W   0x08u
#define AP_TAR_W      (PP_DAP_APNDP | 0x04u)
#define AP_DRW_R      (PP_DAP_APNDP | PP_DAP_RNW | 0x0Cu)
#define AP_DRW_W      (PP_DAP_APNDP | 0x0Cu)

static struct pp_dap_req r[1024];
static struct pp_dap_pkt p[1024];
static uint8_t buf[1024];

static void fill(size_t n, uint8_t req)
{
    for (size_t i = 0; i < n; i++)
        r[i] = (struct pp_dap_req){ .req = req, .wdata = (uint32_t)i, .xi = (int32_t)i };
}

START_TEST(transfer_bytes_follow_the_request_layout)
{
    const uint8_t want[] = {
        0x05, 0x00, 0x04,                               /* DAP index 0, 4 transfers */
        0x08, 0x00, 0x00, 0x00, 0x00,                   /* DP SELECT = 0 */
        0x05, 0x00, 0x30, 0x03, 0x81,                   /* AP TAR = 0x81033000 */
        0x0F,                                           /* AP DRW read: no data */
        0x06,                                           /* DP CTRL/STAT read */
    };
    size_t np, len;

    r[0] = (struct pp_dap_req){ .req = DP_SELECT_W, .wdata = 0 };
    r[1] = (struct pp_dap_req){ .req = AP_TAR_W, .wdata = 0x81033000u };
    r[2] = (struct pp_dap_req){ .req = AP_DRW_R };
    r[3] = (struct pp_dap_req){ .req = DP_CTRLSTAT_R };
    np = pp_dap_pack(r, 4, 512, p);
    ck_assert_uint_eq(np, 1);
    ck_assert_uint_eq(p[0].kind, PP_DAP_TRANSFER);
    len = pp_dap_encode(r, &p[0], 0, buf);
    ck_assert_uint_eq(len, sizeof(want));
    ck_assert_mem_eq(buf, want, sizeof(want));
}
END_TEST

/* A run of one read that fills a block packet goes as DAP_TransferBlock
 * (512 bytes: (512 - 5) / 4 = 126 words); the rest packs into Transfers. */
START_TEST(a_run_of_one_read_goes_as_transfer_block)
{
    size_t np, len;

    r[0] = (struct pp_dap_req){ .req = AP_TAR_W, .wdata = 0x81030000u };
    for (size_t i = 1; i <= 130; i++)
        r[i] = (struct pp_dap_req){ .req = AP_DRW_R };
    r[131] = (struct pp_dap_req){ .req = DP_CTRLSTAT_R };
    np = pp_dap_pack(r, 132, 512, p);
    ck_assert_uint_eq(np, 3);
    ck_assert_uint_eq(p[0].kind, PP_DAP_TRANSFER);
    ck_assert_uint_eq(p[0].n, 1);
    ck_assert_uint_eq(p[1].kind, PP_DAP_TRANSFER_BLOCK);
    ck_assert_uint_eq(p[1].first, 1);
    ck_assert_uint_eq(p[1].n, 126);
    len = pp_dap_encode(r, &p[1], 2, buf);
    ck_assert_uint_eq(len, 5);
    ck_assert_mem_eq(buf, ((const uint8_t[]){ 0x06, 0x02, 0x7E, 0x00, 0x0F }), 5);
    ck_assert_uint_eq(p[2].kind, PP_DAP_TRANSFER);
    ck_assert_uint_eq(p[2].n, 5);
}
END_TEST

/* A sample as the capture plans it (4 cores: per core a TAR write, a
 * read, a TAR write, a capture write, a TAR write and 11 reads by
 * auto-increment, a TAR write and a read; then CTRL/STAT): short runs of
 * one read do not cut it into packets, it fits one 512-byte Transfer. */
START_TEST(a_sample_of_short_runs_is_one_packet)
{
    size_t n = 0;

    for (int c = 0; c < 4; c++) {
        r[n++] = (struct pp_dap_req){ .req = AP_TAR_W, .wdata = 0x81030314u };
        r[n++] = (struct pp_dap_req){ .req = AP_DRW_R };
        r[n++] = (struct pp_dap_req){ .req = AP_TAR_W, .wdata = 0x810316F0u };
        r[n++] = (struct pp_dap_req){ .req = AP_DRW_W, .wdata = 1 };
        r[n++] = (struct pp_dap_req){ .req = AP_TAR_W, .wdata = 0x81031610u };
        for (int i = 0; i < 11; i++)
            r[n++] = (struct pp_dap_req){ .req = AP_DRW_R };
        r[n++] = (struct pp_dap_req){ .req = AP_TAR_W, .wdata = 0x81031400u };
        r[n++] = (struct pp_dap_req){ .req = AP_DRW_R };
    }
    r[n++] = (struct pp_dap_req){ .req = DP_CTRLSTAT_R };
    ck_assert_uint_eq(pp_dap_pack(r, n, 512, p), 1);
    ck_assert_uint_eq(p[0].kind, PP_DAP_TRANSFER);
    ck_assert_uint_eq(p[0].n, n);
    ck_assert_uint_le(pp_dap_encode(r, &p[0], 0, buf), 511);
}
END_TEST

/* A timestamped read (bit 7) brings 4 more reply bytes and never joins a
 * TransferBlock (spec 2.4, 2.5): at 64 bytes, 3 + 8n <= 63 gives 7. */
START_TEST(timestamps_count_in_the_reply_and_stay_out_of_blocks)
{
    fill(100, AP_DRW_R | PP_DAP_TIMESTAMP);
    ck_assert_uint_eq(pp_dap_pack(r, 100, 64, p), 15);
    ck_assert_uint_eq(p[0].kind, PP_DAP_TRANSFER);
    ck_assert_uint_eq(p[0].n, 7);
    pp_dap_encode(r, &p[0], 0, buf);
    ck_assert_uint_eq(buf[3], AP_DRW_R | PP_DAP_TIMESTAMP);
}
END_TEST

START_TEST(short_runs_stay_in_one_transfer)
{
    fill(3, AP_DRW_R);
    ck_assert_uint_eq(pp_dap_pack(r, 3, 512, p), 1);
    ck_assert_uint_eq(p[0].kind, PP_DAP_TRANSFER);
}
END_TEST

/* 64-byte packets: 3 header bytes + 5 per write under 63 gives 12 writes
 * (OpenOCD's figure, spec 3.4); reads are bounded by the reply: 3 + 4n. */
START_TEST(packet_size_bounds_request_and_reply)
{
    size_t np;

    fill(100, AP_DRW_W);
    np = pp_dap_pack(r, 100, 64, p);
    ck_assert_uint_eq(p[0].n, 12);
    ck_assert_uint_eq(np, 9);
    for (size_t k = 0; k < np; k++)
        ck_assert_uint_le(pp_dap_encode(r, &p[k], 0, buf), 63);
    /* Alternating reads so no block forms: 3 + 4n <= 63 gives 15. */
    for (size_t i = 0; i < 100; i++)
        r[i] = (struct pp_dap_req){ .req = i % 2 ? AP_DRW_R : DP_CTRLSTAT_R };
    pp_dap_pack(r, 100, 64, p);
    ck_assert_uint_eq(p[0].n, 15);
    /* A block's reply: 4 + 4n <= 63 gives 14 words. */
    fill(100, AP_DRW_R);
    pp_dap_pack(r, 100, 64, p);
    ck_assert_uint_eq(p[0].kind, PP_DAP_TRANSFER_BLOCK);
    ck_assert_uint_eq(p[0].n, 14);
}
END_TEST

START_TEST(no_transfer_has_more_than_255_requests)
{
    size_t np, total = 0;

    for (size_t i = 0; i < 600; i++)
        r[i] = (struct pp_dap_req){ .req = i % 2 ? AP_DRW_R : DP_CTRLSTAT_R };
    np = pp_dap_pack(r, 600, 1024, p);
    for (size_t k = 0; k < np; k++) {
        ck_assert_uint_le(p[k].n, 255);
        ck_assert_uint_eq(p[k].first, total);
        total += p[k].n;
    }
    ck_assert_uint_eq(total, 600);
}
END_TEST

static Suite *cmsisdap_suite(void)
{
    Suite *s = suite_create("cmsisdap");
    TCase *tc = tcase_create("packets");

    tcase_add_test(tc, transfer_bytes_follow_the_request_layout);
    tcase_add_test(tc, a_run_of_one_read_goes_as_transfer_block);
    tcase_add_test(tc, short_runs_stay_in_one_transfer);
    tcase_add_test(tc, a_sample_of_short_runs_is_one_packet);
    tcase_add_test(tc, timestamps_count_in_the_reply_and_stay_out_of_blocks);
    tcase_add_test(tc, packet_size_bounds_request_and_reply);
    tcase_add_test(tc, no_transfer_has_more_than_255_requests);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(cmsisdap_suite());
    int failed;

    srunner_run_all(sr, CK_NORMAL);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

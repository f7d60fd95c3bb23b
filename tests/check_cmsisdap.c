/*
 * check_cmsisdap.c - the CMSIS-DAP backend's packets against
 * spec/cmsis-dap-swd.md: DAP_Transfer bytes for a known request list
 * (2.4: request byte APnDP, RnW, A[3:2]; WORD data after writes only),
 * DAP_TransferBlock only for runs of one read that fill a packet (2.5),
 * timestamps (2.4), and the packet size
 * bounding request and reply (1.4: kept one byte under it, as OpenOCD).
 */
#include <check.h>
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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


/* ---- the emulator's DAP_SWD_Sequence (tests/cmsisdap-emu/swd.c) ---------
 * pmuprobe's stack never sends it (no multidrop TARGETSEL), so it is
 * driven here through the emulator's libusb API, loaded with dlopen: a
 * DPIDR read clocked bit by bit (spec 4.1-4.3: request 0xA5, then 38
 * input cycles: turnaround, ACK, 32 data bits, parity, turnaround) must
 * give what DAP_Transfer's DPIDR read gives, with the ACK OK and the
 * parity even. */

typedef int (*init_fn)(void **);
typedef long (*list_fn)(void *, void ***);
typedef void (*free_list_fn)(void **, int);
typedef int (*open_fn)(void *, void **);
typedef int (*claim_fn)(void *, int);
typedef int (*bulk_fn)(void *, unsigned char, unsigned char *, int, int *, unsigned);
typedef void (*close_fn)(void *);
typedef void (*exit_fn)(void *);

static struct {
    void *so, *ctx, *h;
    bulk_fn bulk;
} emu;

/* One command, its reply into in (returns its length, -1 on failure). */
static int xfer(const uint8_t *out, int olen, uint8_t *in)
{
    int n = 0;

    if (emu.bulk(emu.h, 0x01, (unsigned char *)out, olen, &n, 1000) || n != olen ||
        emu.bulk(emu.h, 0x81, in, 512, &n, 1000))
        return -1;
    return n;
}

static char swd_target[256];

/* The shipped a76-cluster with its DP a SW-DP (dp = swd). */
static void write_swd_target(void)
{
    const char *src = getenv("top_srcdir");
    char path[512], line[512];
    FILE *in, *out;

    snprintf(path, sizeof(path), "%s/targets/a76-cluster.target", src ? src : "..");
    snprintf(swd_target, sizeof(swd_target), "/tmp/check_cmsisdap.%ld.target", (long)getpid());
    in = fopen(path, "r");
    out = fopen(swd_target, "w");
    ck_assert_msg(in && out, "cannot copy %s to %s", path, swd_target);
    while (fgets(line, sizeof(line), in))
        fputs(strncmp(line, "dp.idcode", 9) == 0 ? "dp = swd\n" : line, out);
    fclose(in);
    fclose(out);
}

static void emu_up(void)
{
    const char *top = getenv("top_builddir");
    char so[512];
    void **list = NULL;

    write_swd_target();
    setenv("PMUPROBE_EMU_TARGET", swd_target, 1);
    snprintf(so, sizeof(so), "%s/tests/cmsisdap-emu/.libs/libusb-cmsisdap-emu.so",
             top ? top : ".");
    emu.so = dlopen(so, RTLD_NOW | RTLD_LOCAL);
    ck_assert_msg(emu.so != NULL, "dlopen %s: %s", so, dlerror());
    emu.bulk = (bulk_fn)dlsym(emu.so, "libusb_bulk_transfer");
    ck_assert_int_eq(((init_fn)dlsym(emu.so, "libusb_init"))(&emu.ctx), 0);
    ck_assert_int_eq(((list_fn)dlsym(emu.so, "libusb_get_device_list"))(emu.ctx, &list), 1);
    ck_assert_int_eq(((open_fn)dlsym(emu.so, "libusb_open"))(list[0], &emu.h), 0);
    ((free_list_fn)dlsym(emu.so, "libusb_free_device_list"))(list, 1);
    ck_assert_int_eq(((claim_fn)dlsym(emu.so, "libusb_claim_interface"))(emu.h, 0), 0);
}

static void emu_down(void)
{
    if (emu.so) {
        ((close_fn)dlsym(emu.so, "libusb_close"))(emu.h);
        ((exit_fn)dlsym(emu.so, "libusb_exit"))(emu.ctx);
        dlclose(emu.so);
    }
    memset(&emu, 0, sizeof(emu));
    unlink(swd_target);
}

static unsigned bits_of(const uint8_t *b, unsigned from, unsigned n)
{
    unsigned v = 0;

    for (unsigned i = 0; i < n; i++)
        v |= (unsigned)((b[(from + i) / 8] >> ((from + i) % 8)) & 1u) << i;
    return v;
}

START_TEST(swd_sequence_reads_dpidr_as_dap_transfer_does)
{
    static const uint8_t connect[] = { 0x02, 0x01 }, cfg[] = { 0x13, 0x00 };
    static const uint8_t to_swd[] = { 0x12, 200,
        0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x00,
        0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x9E, 0xE7,
        0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x00 };
    /* 8 cycles out (the DPIDR read request), 38 in. */
    static const uint8_t seq[] = { 0x1D, 0x02, 0x08, 0xA5, 0x80u | 38u };
    static const uint8_t idr[] = { 0x05, 0x00, 0x01, 0x02 };
    uint8_t in[512];
    unsigned data, parity;

    ck_assert_int_eq(xfer(connect, 2, in), 2);
    ck_assert_uint_eq(in[1], 1);
    ck_assert_int_eq(xfer(cfg, 2, in), 2);
    ck_assert_int_eq(xfer(to_swd, sizeof(to_swd), in), 2);
    ck_assert_int_eq(xfer(seq, sizeof(seq), in), 2 + 5);   /* status, ceil(38 / 8) bytes */
    ck_assert_uint_eq(in[0], 0x1D);
    ck_assert_uint_eq(in[1], 0x00);
    ck_assert_uint_eq(bits_of(in + 2, 1, 3), 1);            /* ACK OK, 0b001 */
    data = bits_of(in + 2, 4, 16) | bits_of(in + 2, 20, 16) << 16;
    parity = bits_of(in + 2, 36, 1);
    ck_assert_uint_eq(parity, (unsigned)__builtin_parity(data));
    ck_assert_uint_eq(data & 1u, 1);                        /* DPIDR bit 0 reads 1 (4.6) */
    ck_assert_int_eq(xfer(idr, sizeof(idr), in), 7);
    ck_assert_uint_eq(in[2], 1);
    ck_assert_uint_eq(data, (unsigned)(in[3] | in[4] << 8 | in[5] << 16 | (unsigned)in[6] << 24));
}
END_TEST

/* A sequence that reads before the line reset gets no SW-DP: the line
 * floats high, so the ACK reads 0b111 (spec 4.2, 4.3). */
START_TEST(swd_sequence_before_the_reset_reads_the_pull_up)
{
    static const uint8_t connect[] = { 0x02, 0x01 };
    static const uint8_t seq[] = { 0x1D, 0x02, 0x08, 0xA5, 0x80u | 38u };
    uint8_t in[512];

    ck_assert_int_eq(xfer(connect, 2, in), 2);
    ck_assert_int_eq(xfer(seq, sizeof(seq), in), 7);
    ck_assert_uint_eq(bits_of(in + 2, 1, 3), 7);
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
    tc = tcase_create("emulator SWD sequences");
    tcase_add_checked_fixture(tc, emu_up, emu_down);
    tcase_add_test(tc, swd_sequence_reads_dpidr_as_dap_transfer_does);
    tcase_add_test(tc, swd_sequence_before_the_reset_reads_the_pull_up);
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

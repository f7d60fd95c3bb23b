/*
 * check_ftdiswd.c - SWD through the real libftdi1 and the USB-level
 * FT2232H emulator (linked in, as check_ftdi.c does), with the emulated
 * board's DO and DI tied to the SWDIO of a SWJ-DP (PMUPROBE_EMU_SWDIO=tdi):
 * the SWD engine over the FTDI JTAG link (lib/link/swd_link.c, OpenOCD's
 * resistor-hack wiring, spec/cmsis-dap-swd.md 5.3) switches the DP from
 * JTAG and reads a PMU register as the JTAG path reads it.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "adi/adi.h"
#include "bus/bus.h"
#include "ftdi-emu/emu.h"
#include "link/ftdi.h"
#include "link/swd.h"
#include "link/swd_link.h"
#include "pmu/regs.h"
#include "sim/swdp.h"
#include "target/target.h"

#define PMU0  0x80430000u         /* cpu0's PMU in the target below */
#define CSW_WORD 0x80000002u

static const char target_text[] =
    "[soc]\n"
    "name = ftdi-swj\n"
    "dp = swj\n"
    "dp.idcode = 0x5BA00477\n"
    "ap.index = 1\n"
    "rom.base = 0x80000000\n"
    "time = deterministic\n"
    "[cluster 0]\n"
    "rom.base = 0x80400000\n"
    "[core 0-1]\n"
    "type = cortex-a72\n"
    "debug = 0x80410000 +0x100000\n"
    "oslock = unlocked\n";

static char target_path[] = "/tmp/pmuprobe-ftdiswd-XXXXXX";

static void setup(void)
{
    int fd = mkstemp(target_path);

    ck_assert_int_ge(fd, 0);
    ck_assert_int_eq(write(fd, target_text, strlen(target_text)), (int)strlen(target_text));
    close(fd);
    setenv("PMUPROBE_EMU_TARGET", target_path, 1);
    setenv("PMUPROBE_EMU_SWDIO", "tdi", 1);
    emu_restart();
}

static void teardown(void)
{
    emu_restart();
    unlink(target_path);
    strcpy(target_path, "/tmp/pmuprobe-ftdiswd-XXXXXX");
}

static struct pp_link *open_link(void)
{
    struct pp_ftdi_params p = { .vid = 0x0403, .pid = 0x6010 };
    struct pp_link *l = NULL;
    char err[512];

    ck_assert_msg(pp_link_ftdi_open(&p, &l, err, sizeof(err)) == PP_OK, "%s", err);
    return l;
}

START_TEST(swj_dp_over_ftdi_reads_pmcfgr_as_jtag_does)
{
    struct pp_dp_xfer x[3] = {
        { .ap = 1, .addr = PP_AP_CSW, .apsel = 1, .wdata = CSW_WORD },
        { .ap = 1, .addr = PP_AP_TAR, .apsel = 1, .wdata = PMU0 + PP_PMU_PMCFGR },
        { .ap = 1, .rnw = 1, .addr = PP_AP_DRW, .apsel = 1 },
    };
    struct pp_target *t = NULL;
    struct pp_link *l = open_link();
    struct pp_swd_wire *wire;
    struct pp_swd *swd;
    struct pp_bus *bus;
    uint32_t byjtag = 0, dpidr = 0, ctrl = 0;
    char err[512];

    ck_assert_int_eq(pp_target_parse(target_text, "t", &t, err, sizeof(err)), PP_OK);
    bus = pp_bus_adi_new(l, t, err, sizeof(err));      /* owns l from here */
    ck_assert_msg(bus != NULL, "%s", err);
    ck_assert_int_eq(pp_bus_read32(bus, PMU0 + PP_PMU_PMCFGR, &byjtag), PP_OK);
    pp_bus_close(bus);
    pp_target_free(t);
    ck_assert_uint_ne(byjtag, 0);

    l = open_link();
    wire = pp_swd_link_wire_new(l);
    ck_assert_ptr_nonnull(wire);
    swd = pp_swd_new(wire);
    ck_assert_ptr_nonnull(swd);
    ck_assert_msg(pp_swd_connect(swd, true, &dpidr) == PP_OK, "%s", pp_swd_errmsg(swd));
    ck_assert_uint_eq(dpidr, 0x5BA02477u);
    ck_assert(pp_simswd_active(emu_get()->dev[0].jtag));
    ck_assert_msg(pp_swd_power_up(swd, err, sizeof(err)) == PP_OK, "%s", err);
    ck_assert_msg(pp_swd_exec(swd, x, 3, &ctrl) == PP_OK, "%s", pp_swd_errmsg(swd));
    ck_assert_uint_eq(x[2].rdata, byjtag);
    ck_assert_uint_eq(ctrl & PP_CS_STICKY, 0);
    pp_swd_free(swd);
    wire->ops->free(wire);
    pp_link_close(l);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("ftdiswd");
    TCase *tc = tcase_create("SWD over FTDI");
    SRunner *sr;
    int failed;

    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, swj_dp_over_ftdi_reads_pmcfgr_as_jtag_does);
    suite_add_tcase(s, tc);
    sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

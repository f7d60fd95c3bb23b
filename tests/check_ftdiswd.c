/*
 * check_ftdiswd.c - SWD through the real libftdi1 and the USB-level
 * FT2232H emulator (linked in, as check_ftdi.c does), with the emulated
 * board's DO and DI tied to the SWDIO of a SWJ-DP (PMUPROBE_EMU_SWDIO=tdi):
 * the SWD engine over the FTDI JTAG link (lib/link/swd_link.c, OpenOCD's
 * resistor-hack wiring, spec/cmsis-dap-swd.md 5.3) switches the DP from
 * JTAG and reads a PMU register as the JTAG path reads it; and over the
 * boards whose SWDIO the host must let go of (a SWDIO_OE buffer, DO tied
 * to SWDIO), with the layouts OpenOCD ships for them.
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
    unsetenv("PMUPROBE_EMU_ADAPTER");
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

/* The link of the built-in layout name, over the emulated board of that
 * name (tests/ftdi-emu/board.c: the pins as the adapter's documentation
 * wires them, not as the layout says). */
static struct pp_link *open_board(const char *name)
{
    const struct pp_ftdi_layout *ly = pp_ftdi_layout_find(name);
    struct pp_ftdi_params p = { .layout = ly };
    struct pp_link *l = NULL;
    char err[512];

    ck_assert_ptr_nonnull(ly);
    setenv("PMUPROBE_EMU_ADAPTER", name, 1);
    emu_restart();
    ck_assert_msg(pp_link_ftdi_open(&p, &l, err, sizeof(err)) == PP_OK, "%s: %s", name, err);
    return l;
}

/* PMCFGR of cpu0 through the SW-DP over l; the wire is freed. */
static uint32_t swd_pmcfgr(struct pp_link *l, const char *name)
{
    struct pp_dp_xfer x[3] = {
        { .ap = 1, .addr = PP_AP_CSW, .apsel = 1, .wdata = CSW_WORD },
        { .ap = 1, .addr = PP_AP_TAR, .apsel = 1, .wdata = PMU0 + PP_PMU_PMCFGR },
        { .ap = 1, .rnw = 1, .addr = PP_AP_DRW, .apsel = 1 },
    };
    struct pp_swd_wire *wire = pp_swd_link_wire_new(l);
    struct pp_swd *swd = pp_swd_new(wire);
    uint32_t dpidr = 0, ctrl = 0;
    char err[512];

    ck_assert_ptr_nonnull(swd);
    ck_assert_msg(pp_swd_connect(swd, true, &dpidr) == PP_OK, "%s: %s", name,
                  pp_swd_errmsg(swd));
    ck_assert_uint_eq(dpidr, 0x5BA02477u);
    ck_assert_msg(pp_swd_power_up(swd, err, sizeof(err)) == PP_OK, "%s: %s", name, err);
    ck_assert_msg(pp_swd_exec(swd, x, 3, &ctrl) == PP_OK, "%s: %s", name, pp_swd_errmsg(swd));
    ck_assert_uint_eq(ctrl & PP_CS_STICKY, 0);
    pp_swd_free(swd);
    wire->ops->free(wire);
    return x[2].rdata;
}

/* Every built-in layout that switches SWDIO (a SWDIO_OE buffer, DO's
 * direction bit) reads over its board what the resistor wiring reads, the
 * host letting go of SWDIO for every answer and never driving it against
 * the target. */
START_TEST(every_swd_layout_reaches_the_sw_dp_over_its_board_without_a_fight)
{
    const struct pp_ftdi_layout *ly;
    struct pp_link *l = open_link();
    uint32_t want = swd_pmcfgr(l, "minimodule");
    unsigned n = 0;

    pp_link_close(l);
    ck_assert_uint_ne(want, 0);
    for (size_t i = 0; (ly = pp_ftdi_layout_get(i)); i++) {
        if (ly->swdio != PP_FTDI_SWDIO_OE && ly->swdio != PP_FTDI_SWDIO_DIR)
            continue;
        l = open_board(ly->name);
        ck_assert_uint_eq(swd_pmcfgr(l, ly->name), want);
        pp_link_close(l);
        ck_assert_msg(emu_get()->n.swdio_fights == 0, "%s: %llu SWCLKs fought over",
                      ly->name, (unsigned long long)emu_get()->n.swdio_fights);
        ck_assert_msg(emu_get()->n.swdio_releases > 4, "%s: SWDIO let go %llu times",
                      ly->name, (unsigned long long)emu_get()->n.swdio_releases);
        n++;
    }
    ck_assert_uint_ge(n, 3);
}
END_TEST

/* The pins pp_link_ftdi_swdio leaves on the chip after a flush. */
static void expect_pins(struct pp_link *l, bool drive, uint16_t mask, uint16_t want_value,
                        uint16_t want_dir)
{
    const struct emu_channel *c = &emu_get()->dev[0].ch[0];

    ck_assert_int_eq(pp_link_ftdi_swdio(l, drive), PP_OK);
    ck_assert_int_eq(pp_link_flush(l), PP_OK);
    ck_assert_msg((c->value & mask) == want_value && (c->dir & mask) == want_dir,
                  "drive %d: pins 0x%04X/0x%04X, want 0x%04X/0x%04X under 0x%04X", drive,
                  c->value & mask, c->dir & mask, want_value, want_dir, mask);
}

/* olimex-arm-jtag-swd.cfg: SWD_EN -nalias nTRST (ACBUS0 low), SWDIO_OE
 * -alias TMS (ADBUS3 high drives); ft232h-module-swd.cfg: ADBUS1 an input
 * lets go (spec/cmsis-dap-swd.md 5.1, 5.3). */
START_TEST(swdio_oe_and_swd_en_reach_the_pins_the_layouts_name)
{
    struct pp_link *l = open_board("olimex-arm-usb-ocd-h-swd");

    expect_pins(l, false, 0x0108, 0x0000, 0x0108);
    expect_pins(l, true, 0x0108, 0x0008, 0x0108);
    expect_pins(l, false, 0x0108, 0x0000, 0x0108);
    pp_link_close(l);

    l = open_board("ft232h-module-swd");
    expect_pins(l, false, 0x0002, 0x0000, 0x0000);
    expect_pins(l, true, 0x0002, 0x0000, 0x0002);
    pp_link_close(l);
}
END_TEST

START_TEST(swdio_control_is_refused_where_the_layout_has_no_swd_wiring)
{
    struct pp_link *l = open_board("olimex-arm-usb-ocd-h");
    const struct emu_channel *c = &emu_get()->dev[0].ch[0];
    uint64_t commands;

    ck_assert_int_eq(pp_link_ftdi_swdio(l, false), PP_E_UNSUPPORTED);
    pp_link_close(l);
    ck_assert_int_eq(pp_link_ftdi_swdio(NULL, false), PP_E_INVAL);

    /* The resistor wiring: nothing to switch, nothing sent. */
    l = open_board("minimodule");
    commands = emu_get()->n.commands;
    ck_assert_int_eq(pp_link_ftdi_swdio(l, false), PP_OK);
    ck_assert_int_eq(pp_link_flush(l), PP_OK);
    ck_assert_uint_eq(emu_get()->n.commands, commands);
    ck_assert_uint_eq(c->dir & 0x0002, 0x0002);
    pp_link_close(l);
}
END_TEST

/* custom: says the same as the built-in layouts; a bad swdio_oe or swd_en
 * is refused. */
START_TEST(custom_layouts_take_swdio_oe_and_swd_en)
{
    struct pp_ftdi_layout ly;
    char err[256];

    ck_assert_int_eq(pp_ftdi_layout_parse("custom:init=0x0908/0x0b1b,swd_en=ndata=0x0100,"
                                          "swdio_oe=data=0x0008", &ly, err, sizeof(err)),
                     PP_OK);
    ck_assert_int_eq(ly.swdio, PP_FTDI_SWDIO_OE);
    ck_assert_uint_eq(ly.swd_en.data, 0x0100);
    ck_assert(ly.swd_en.ndata);
    ck_assert_uint_eq(ly.swdio_oe.data, 0x0008);
    ck_assert(!ly.swdio_oe.ndata);
    ck_assert_int_eq(pp_ftdi_layout_parse("custom:init=0x0030/0x003b,swdio_oe=dir", &ly, err,
                                          sizeof(err)), PP_OK);
    ck_assert_int_eq(ly.swdio, PP_FTDI_SWDIO_DIR);
    ck_assert_int_eq(pp_ftdi_layout_parse("custom:init=0x0008/0x000b", &ly, err, sizeof(err)),
                     PP_OK);
    ck_assert_int_eq(ly.swdio, PP_FTDI_SWDIO_RESISTOR);
    ck_assert_int_eq(pp_ftdi_layout_parse("custom:init=0x0008/0x000b,swdio_oe=oe=0x10", &ly,
                                          err, sizeof(err)), PP_E_PARSE);
    ck_assert_int_eq(pp_ftdi_layout_parse("custom:init=0x0008/0x000b,swd_en=noe=0x10", &ly,
                                          err, sizeof(err)), PP_E_PARSE);
    ck_assert_ptr_nonnull(strstr(err, "swdio_oe=SIG|dir"));
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
    tcase_add_test(tc, every_swd_layout_reaches_the_sw_dp_over_its_board_without_a_fight);
    tcase_add_test(tc, swdio_oe_and_swd_en_reach_the_pins_the_layouts_name);
    tcase_add_test(tc, swdio_control_is_refused_where_the_layout_has_no_swd_wiring);
    tcase_add_test(tc, custom_layouts_take_swdio_oe_and_swd_en);
    suite_add_tcase(s, tc);
    sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

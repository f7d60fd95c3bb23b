/*
 * check_ftdi.c - the FTDI link driver through the real libftdi1 against
 * the USB-level emulator, which this program links in (its libusb_*
 * definitions take the place of libusb's for libftdi1 as they do under
 * LD_PRELOAD).  Facts: spec/ftdi-mpsse-jtag.md 2 (opening, setup), 1.7
 * (clock), 3.5 and 4.7 (FIFO-sized chunks, pipelining), 1.10 (0xFA).
 *
 * The "Efficiency" case prints the numbers the issue asks for: TCK per
 * counter read, USB transfers per sample (synchronous and pipelined) and
 * the TCK-bound sample rate at 30 MHz for 4 cores x 6 counters.
 */
#include <check.h>
#include <ftdi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "adi/adi.h"
#include "bus/bus.h"
#include "ftdi-emu/emu.h"
#include "link/ftdi.h"
#include "link/jtag.h"
#include "target/target.h"

static struct pp_link *link;
static char err[512];

static const char *const emu_vars[] = {
    "PMUPROBE_EMU_TARGET", "PMUPROBE_EMU_SIM_FAULTS", "PMUPROBE_EMU_CHIP",
    "PMUPROBE_EMU_VIDPID", "PMUPROBE_EMU_PRODUCT", "PMUPROBE_EMU_SERIAL",
    "PMUPROBE_EMU_COUNT", "PMUPROBE_EMU_ADAPTER", "PMUPROBE_EMU_FAULT",
    "PMUPROBE_EMU_STATS", "PMUPROBE_EMU_LOG", "PMUPROBE_EMU_REALTIME",
};

static void emu_up(void)
{
    for (size_t i = 0; i < sizeof(emu_vars) / sizeof(emu_vars[0]); i++)
        unsetenv(emu_vars[i]);
    emu_restart();
    link = NULL;
    err[0] = '\0';
}

static void emu_down(void)
{
    pp_link_close(link);
    link = NULL;
    emu_restart();
}

static int open_ftdi(const struct pp_ftdi_params *p)
{
    return pp_link_ftdi_open(p, &link, err, sizeof(err));
}

static int open_default(void)
{
    struct pp_ftdi_params p = { .vid = 0x0403, .pid = 0x6010 };

    return open_ftdi(&p);
}

static struct emu_channel *chan_a(void)
{
    return &emu_get()->dev[0].ch[0];
}

static const struct emu_counters *counters(void)
{
    return &emu_get()->n;
}

/* --- opening ----------------------------------------------------------------- */

START_TEST(open_by_vid_pid_reports_the_chip_the_interface_and_the_exact_tck)
{
    struct pp_ftdi_info info;

    ck_assert_int_eq(open_default(), PP_OK);
    ck_assert_int_eq(pp_link_ftdi_info(link, &info), PP_OK);
    ck_assert_str_eq(info.chip, "FT2232H");
    ck_assert_int_eq(info.interface, 'A');
    ck_assert_uint_eq(info.tck_hz, 15000000);      /* the default request */
    ck_assert_uint_eq(info.fifo, 4096);
    ck_assert_str_eq(info.serial, "PMUEMU01");
    ck_assert_str_eq(info.usb_path, "1-1");
}
END_TEST

START_TEST(setup_puts_the_channel_in_mpsse_with_clock_options_off_and_the_layout_pins)
{
    struct emu_channel *c;

    ck_assert_int_eq(open_default(), PP_OK);
    c = chan_a();
    ck_assert_uint_eq(c->bitmode, 0x02);
    ck_assert_uint_eq(c->latency_ms, 16);
    ck_assert(!c->div5);
    ck_assert(!c->loopback);
    ck_assert(!c->adaptive);
    ck_assert(!c->three_phase);
    ck_assert_uint_eq(c->divisor, 1);
    ck_assert_uint_eq(c->value, 0x0008);            /* mini-module layout_init */
    ck_assert_uint_eq(c->dir, 0x000b);
}
END_TEST

START_TEST(open_by_serial_description_and_usb_path_finds_the_adapter)
{
    struct pp_ftdi_params p = { .vid = 0x0403, .pid = 0x6010, .serial = "PMUEMU01",
                                .description = "Dual RS232-HS", .usb_path = "1-1" };

    ck_assert_int_eq(open_ftdi(&p), PP_OK);
}
END_TEST

START_TEST(second_device_is_found_by_its_serial_on_its_own_port)
{
    struct pp_ftdi_params p = { .serial = "PMUEMU01-2" };
    struct pp_ftdi_info info;

    setenv("PMUPROBE_EMU_COUNT", "2", 1);
    emu_restart();
    ck_assert_int_eq(open_ftdi(&p), PP_OK);
    pp_link_ftdi_info(link, &info);
    ck_assert_str_eq(info.usb_path, "1-2");
}
END_TEST

START_TEST(serial_nobody_has_is_not_found_and_the_message_lists_what_is_there)
{
    struct pp_ftdi_params p = { .vid = 0x0403, .pid = 0x6010, .serial = "NOSUCH" };

    ck_assert_int_eq(open_ftdi(&p), PP_E_NOTFOUND);
    ck_assert_ptr_null(link);
    ck_assert_msg(strstr(err, "serial NOSUCH") && strstr(err, "0403:6010 at 1-1"), "%s", err);
}
END_TEST

START_TEST(interface_b_of_an_ft2232h_is_its_second_mpsse)
{
    struct pp_ftdi_params p = { .vid = 0x0403, .pid = 0x6010, .interface = 'B' };

    ck_assert_int_eq(open_ftdi(&p), PP_OK);
    ck_assert_uint_eq(emu_get()->dev[0].ch[1].bitmode, 0x02);
    ck_assert_uint_eq(chan_a()->bitmode, 0x00);
}
END_TEST

START_TEST(interface_c_of_an_ft4232h_has_no_mpsse)
{
    struct pp_ftdi_params p = { .vid = 0x0403, .pid = 0x6011, .interface = 'C' };

    setenv("PMUPROBE_EMU_CHIP", "4232h", 1);
    emu_restart();
    ck_assert_int_eq(open_ftdi(&p), PP_E_UNSUPPORTED);
    ck_assert_msg(strstr(err, "interface C of an FT4232H has no MPSSE"), "%s", err);
}
END_TEST

START_TEST(ft232h_chunks_replies_by_its_1_kib_fifo)
{
    struct pp_ftdi_params p = { 0 };               /* any FTDI id */
    struct pp_ftdi_info info;

    setenv("PMUPROBE_EMU_CHIP", "232h", 1);
    emu_restart();
    ck_assert_int_eq(open_ftdi(&p), PP_OK);
    pp_link_ftdi_info(link, &info);
    ck_assert_str_eq(info.chip, "FT232H");
    ck_assert_uint_eq(info.fifo, 1024);
    ck_assert_str_eq(info.layout, "ft232h");
}
END_TEST

START_TEST(no_device_is_not_found)
{
    setenv("PMUPROBE_EMU_FAULT", "absent", 1);
    emu_restart();
    ck_assert_int_eq(open_default(), PP_E_NOTFOUND);
    ck_assert_msg(strstr(err, "FTDI devices present: none"), "%s", err);
}
END_TEST

START_TEST(permission_denied_is_busy_and_names_the_udev_rules_file)
{
    setenv("PMUPROBE_EMU_FAULT", "access", 1);
    emu_restart();
    ck_assert_int_eq(open_default(), PP_E_BUSY);
    ck_assert_msg(strstr(err, "permission denied") && strstr(err, PP_FTDI_UDEV_RULES), "%s",
                  err);
}
END_TEST

START_TEST(interface_claimed_elsewhere_is_busy)
{
    setenv("PMUPROBE_EMU_FAULT", "busy", 1);
    emu_restart();
    ck_assert_int_eq(open_default(), PP_E_BUSY);
    ck_assert_msg(strstr(err, "is busy"), "%s", err);
}
END_TEST

START_TEST(second_open_of_the_same_interface_is_busy)
{
    struct pp_link *other = NULL;
    struct pp_ftdi_params p = { .vid = 0x0403, .pid = 0x6010 };

    ck_assert_int_eq(open_default(), PP_OK);
    ck_assert_int_eq(pp_link_ftdi_open(&p, &other, err, sizeof(err)), PP_E_BUSY);
    ck_assert_ptr_null(other);
}
END_TEST

START_TEST(setup_command_answered_with_0xfa_is_named)
{
    setenv("PMUPROBE_EMU_FAULT", "reject:0x8A", 1);
    emu_restart();
    ck_assert_int_eq(open_default(), PP_E_PROTO);
    ck_assert_msg(strstr(err, "rejected MPSSE command 0x8A"), "%s", err);
}
END_TEST

/* --- clock ------------------------------------------------------------------- */

START_TEST(speed_request_rounds_down_and_reports_the_exact_clock)
{
    unsigned khz = 0;

    ck_assert_int_eq(open_default(), PP_OK);
    ck_assert_int_eq(link->ops->set_speed(link, 7000, &khz), PP_OK);
    ck_assert_uint_eq(khz, 6000);
    ck_assert_uint_eq(chan_a()->divisor, 4);
    ck_assert_int_eq(link->ops->set_speed(link, 30000, &khz), PP_OK);
    ck_assert_uint_eq(khz, 30000);
    ck_assert_uint_eq(chan_a()->divisor, 0);
}
END_TEST

/* --- scans ------------------------------------------------------------------- */

/* From any state to Shift-DR through Test-Logic-Reset (IR = IDCODE). */
static void to_shift_dr(void)
{
    static const uint8_t tms[2] = { 0x5F, 0x00 };   /* 1,1,1,1,1,0,1,0,0 */

    pp_link_tms(link, tms, 9, false);
}

static void shift_dr_to_idle(void)
{
    static const uint8_t tms = 0x01;                /* Exit1 -> Update -> Idle */

    pp_link_tms(link, &tms, 2, false);
}

START_TEST(idcode_reads_back_as_the_targets_dp_idcode)
{
    uint8_t tdo[4] = { 0 };
    uint32_t id;

    ck_assert_int_eq(open_default(), PP_OK);
    to_shift_dr();
    pp_link_shift(link, NULL, tdo, 32, true);
    shift_dr_to_idle();
    ck_assert_int_eq(pp_link_flush(link), PP_OK);
    id = (uint32_t)tdo[0] | (uint32_t)tdo[1] << 8 | (uint32_t)tdo[2] << 16 |
         (uint32_t)tdo[3] << 24;
    ck_assert_uint_eq(id, 0x5BA00477);              /* a76-cluster dp.idcode */
    ck_assert_uint_eq(link->stats.round_trips, 1);
}
END_TEST

START_TEST(reset_asserts_srst_on_the_layouts_pin_and_refuses_a_missing_trst)
{
    ck_assert_int_eq(open_default(), PP_OK);
    ck_assert_int_eq(link->ops->reset(link, false, true), PP_OK);
    ck_assert(chan_a()->srst);
    ck_assert_uint_eq(chan_a()->dir & 0x20, 0x20);  /* open drain: driven low */
    ck_assert_int_eq(link->ops->reset(link, false, false), PP_OK);
    ck_assert(!chan_a()->srst);
    ck_assert_int_eq(link->ops->reset(link, true, false), PP_E_UNSUPPORTED);
}
END_TEST

/* The emulator as board ly->name (tests/ftdi-emu/board.c, wired from the
 * board's documentation), opened with the library's layout of that name. */
static void open_board(const struct pp_ftdi_layout *ly)
{
    struct pp_ftdi_params p = { .layout = ly };

    pp_link_close(link);
    link = NULL;
    setenv("PMUPROBE_EMU_ADAPTER", ly->name, 1);
    emu_restart();
    ck_assert_msg(open_ftdi(&p) == PP_OK, "%s: %s", ly->name, err);
}

/* Asserts one reset through the link and what the board passes on. */
static void expect_reset(const struct pp_ftdi_layout *ly, bool trst, bool srst)
{
    ck_assert_int_eq(link->ops->reset(link, trst, srst), PP_OK);
    ck_assert_msg(chan_a()->trst == trst && chan_a()->srst == srst,
                  "%s: reset(trst %d, srst %d) reached the target as nTRST %s, nSRST %s",
                  ly->name, trst, srst, chan_a()->trst ? "low" : "high",
                  chan_a()->srst ? "low" : "high");
}

START_TEST(every_layouts_resets_reach_the_pins_its_board_wires_them_to)
{
    const struct pp_ftdi_layout *ly;

    for (size_t i = 0; (ly = pp_ftdi_layout_get(i)); i++) {
        const struct emu_board *b = emu_board_find(ly->name);

        ck_assert_msg(b != NULL, "%s: no board of that name in the emulator", ly->name);
        ck_assert_msg(pp_ftdi_signal_present(&ly->ntrst) == (b->ntrst.pin != 0) &&
                      pp_ftdi_signal_present(&ly->nsrst) == (b->nsrst.pin != 0),
                      "%s: the layout's resets are not the ones the board wires", ly->name);
        open_board(ly);
        ck_assert_msg(!chan_a()->trst && !chan_a()->srst, "%s: a reset is held after setup",
                      ly->name);
        if (b->nsrst.pin) {
            expect_reset(ly, false, true);
            expect_reset(ly, false, false);
        }
        if (b->ntrst.pin) {
            expect_reset(ly, true, false);
            expect_reset(ly, false, false);
        }
        if (b->nsrst.pin && b->ntrst.pin)
            expect_reset(ly, true, true);
    }
}
END_TEST

/*
 * A reply far larger than the FIFO: 10000 bytes through the 32-bit IDCODE
 * register, whose TDO repeats TDI 32 clocks later.  Returns round trips.
 */
static uint64_t big_shift(bool sync)
{
    enum { N = 10000 };
    struct pp_ftdi_params p = { .vid = 0x0403, .pid = 0x6010, .sync = sync };
    uint8_t *tdi = malloc(N), *tdo = calloc(N, 1);
    uint64_t rt;

    ck_assert_int_eq(open_ftdi(&p), PP_OK);
    for (size_t i = 0; i < N; i++)
        tdi[i] = (uint8_t)(i * 37 + 11);
    to_shift_dr();
    pp_link_shift(link, tdi, tdo, 8 * N, true);
    shift_dr_to_idle();
    rt = link->stats.round_trips;
    ck_assert_int_eq(pp_link_flush(link), PP_OK);
    ck_assert_uint_eq(tdo[4], tdi[0]);
    ck_assert_int_eq(memcmp(tdo + 4, tdi, N - 4), 0);
    free(tdi);
    free(tdo);
    return link->stats.round_trips - rt;
}

START_TEST(large_batch_in_sync_mode_is_cut_into_fifo_sized_round_trips)
{
    ck_assert_uint_eq(big_shift(true), 3);          /* 10000 / 4096 */
}
END_TEST

START_TEST(large_batch_pipelined_is_one_round_trip_and_does_not_deadlock)
{
    ck_assert_uint_eq(big_shift(false), 1);
}
END_TEST

/* Pipelined, each chunk goes out as soon as the queue closes it (ftdi.c,
 * streaming): the MPSSE starts on the batch while the rest is queued. */
START_TEST(large_batch_pipelined_goes_out_while_it_is_still_queued)
{
    enum { N = 10000 };
    struct pp_ftdi_params p = { .vid = 0x0403, .pid = 0x6010 };
    uint8_t *tdi = calloc(N, 1), *tdo = calloc(N, 1);
    uint64_t sent;

    ck_assert_int_eq(open_ftdi(&p), PP_OK);
    for (size_t i = 0; i < N; i++)
        tdi[i] = (uint8_t)(i * 53 + 7);
    sent = link->stats.bytes_out;
    to_shift_dr();
    pp_link_shift(link, tdi, tdo, 8 * N, true);
    shift_dr_to_idle();
    /* 10000 reply bytes: two chunks of 4096 closed before the flush. */
    ck_assert_uint_ge(link->stats.bytes_out - sent, 2 * 4096);
    ck_assert_int_eq(pp_link_flush(link), PP_OK);
    ck_assert_int_eq(memcmp(tdo + 4, tdi, N - 4), 0);
    free(tdi);
    free(tdo);
}
END_TEST


/* --- errors ------------------------------------------------------------------ */

START_TEST(unplug_during_a_flush_is_a_link_error_and_later_flushes_fail_fast)
{
    uint8_t tdo[4];
    uint64_t used;

    ck_assert_int_eq(open_default(), PP_OK);
    used = counters()->bulk_out + counters()->bulk_in;
    /* The next bulk transfer (the write) is the last that works. */
    emu_get()->unplug_after = used + 1;
    to_shift_dr();
    pp_link_shift(link, NULL, tdo, 32, true);
    shift_dr_to_idle();
    ck_assert_int_eq(pp_link_flush(link), PP_E_LINK);
    ck_assert_msg(strstr(link->errmsg, "unplugged"), "%s", link->errmsg);
    to_shift_dr();
    ck_assert_int_eq(pp_link_flush(link), PP_E_LINK);
}
END_TEST

START_TEST(command_answered_with_0xfa_mid_session_is_a_protocol_error)
{
    static const uint8_t idle[8] = { 0 };
    uint8_t tdo[4];

    ck_assert_int_eq(open_default(), PP_OK);
    to_shift_dr();
    pp_link_shift(link, NULL, tdo, 32, true);
    shift_dr_to_idle();
    pp_link_tms(link, idle, 64, false);            /* clocked with 0x8F */
    pp_link_shift(link, NULL, tdo, 8, false);
    emu_get()->reject = 0x8F;
    ck_assert_int_eq(pp_link_flush(link), PP_E_PROTO);
    ck_assert_msg(strstr(link->errmsg, "rejected MPSSE command 0x8F"), "%s", link->errmsg);
}
END_TEST

/* --- layouts (spec 2.7) -------------------------------------------------------- */

START_TEST(every_builtin_layout_drives_tck_tdi_tms_with_tck_low)
{
    const struct pp_ftdi_layout *ly;

    for (size_t i = 0; (ly = pp_ftdi_layout_get(i)); i++) {
        ck_assert_msg((ly->dir & 0x0B) == 0x0B, "%s", ly->name);
        ck_assert_msg(!(ly->value & 1), "%s", ly->name);
        ck_assert_msg(!(ly->dir & 0x04), "%s: TDO must be an input", ly->name);
        ck_assert_ptr_eq(pp_ftdi_layout_find(ly->name), ly);
        ck_assert(!pp_ftdi_signal_asserted(&ly->nsrst, ly->value, ly->dir));
        ck_assert(!pp_ftdi_signal_asserted(&ly->ntrst, ly->value, ly->dir));
    }
}
END_TEST

START_TEST(minimodule_srst_is_open_drain_through_the_direction_bit)
{
    const struct pp_ftdi_layout *ly = pp_ftdi_layout_find("minimodule");
    uint16_t v = ly->value, d = ly->dir;

    pp_ftdi_signal_drive(&ly->nsrst, true, &v, &d);
    ck_assert_uint_eq(d & 0x20, 0x20);
    ck_assert_uint_eq(v & 0x20, 0);
    ck_assert(pp_ftdi_signal_asserted(&ly->nsrst, v, d));
    pp_ftdi_signal_drive(&ly->nsrst, false, &v, &d);
    ck_assert_uint_eq(d & 0x20, 0);                 /* released: an input */
    ck_assert(!pp_ftdi_signal_asserted(&ly->nsrst, v, d));
}
END_TEST

START_TEST(flyswatter2_srst_driver_is_enabled_by_acbus0_low)
{
    const struct pp_ftdi_layout *ly = pp_ftdi_layout_find("Flyswatter2");
    uint16_t v = ly->value, d = ly->dir;

    pp_ftdi_signal_drive(&ly->nsrst, true, &v, &d);
    ck_assert_uint_eq(v & 0x0120, 0);
    pp_ftdi_signal_drive(&ly->nsrst, false, &v, &d);
    ck_assert_uint_eq(v & 0x0100, 0x0100);
    pp_ftdi_signal_drive(&ly->ntrst, true, &v, &d);
    ck_assert_uint_eq(v & 0x0010, 0);
}
END_TEST

START_TEST(olimex_srst_is_pulled_low_by_raising_its_enable_pin)
{
    const struct pp_ftdi_layout *ly = pp_ftdi_layout_find("olimex-arm-usb-ocd-h");
    uint16_t v = ly->value, d = ly->dir;

    pp_ftdi_signal_drive(&ly->nsrst, true, &v, &d);
    ck_assert_uint_eq(v & 0x0200, 0x0200);
    ck_assert(pp_ftdi_signal_asserted(&ly->nsrst, v, d));
    ck_assert_uint_eq(v & 0x0010, 0);               /* JTAG buffer still enabled */
}
END_TEST

START_TEST(custom_layout_is_read_from_options)
{
    struct pp_ftdi_layout ly;

    ck_assert_int_eq(pp_ftdi_layout_parse("custom:init=0x0018/0x001b,vidpid=0403:6014,"
                                          "trst=data=0x10,srst=data=0x20+oe=0x20", &ly, err,
                                          sizeof(err)), PP_OK);
    ck_assert_uint_eq(ly.value, 0x18);
    ck_assert_uint_eq(ly.dir, 0x1b);
    ck_assert_uint_eq(ly.vid, 0x0403);
    ck_assert_uint_eq(ly.pid, 0x6014);
    ck_assert_uint_eq(ly.ntrst.data, 0x10);
    ck_assert_uint_eq(ly.nsrst.oe, 0x20);
}
END_TEST

START_TEST(custom_layout_that_leaves_tck_an_input_is_refused)
{
    struct pp_ftdi_layout ly;

    ck_assert_int_eq(pp_ftdi_layout_parse("custom:init=0x0008/0x000a", &ly, err, sizeof(err)),
                     PP_E_PARSE);
    ck_assert_msg(strstr(err, "TCK, TDI and TMS"), "%s", err);
    ck_assert_int_eq(pp_ftdi_layout_parse("custom:init=8/11,srst=bogus=1", &ly, err,
                                          sizeof(err)), PP_E_PARSE);
}
END_TEST

/* --- efficiency: 4 cores x 6 counters ---------------------------------------- */

#define CORES    4
#define COUNTERS 6
#define SAMPLES  64

static struct pp_bus *open_bus(bool sync, struct pp_target **t)
{
    struct pp_ftdi_params p = { .vid = 0x0403, .pid = 0x6010, .khz = 30000, .sync = sync };
    char path[512];
    struct pp_bus *bus;

    ck_assert_int_eq(pp_target_find("a76-cluster", path, sizeof(path)), PP_OK);
    ck_assert_int_eq(pp_target_load(path, t, err, sizeof(err)), PP_OK);
    ck_assert_int_eq(open_ftdi(&p), PP_OK);
    bus = pp_bus_adi_new(link, *t, err, sizeof(err));
    link = NULL;                                   /* the bus owns it now */
    ck_assert_msg(bus != NULL, "%s", err);
    return bus;
}

/* samples copies of the 24 counter reads, PMEVCNTR<n> at PMU + 8n. */
static struct pp_op *plan(const struct pp_target *t, unsigned samples)
{
    struct pp_op *ops = calloc((size_t)samples * CORES * COUNTERS, sizeof(*ops));

    for (unsigned s = 0, k = 0; s < samples; s++)
        for (unsigned c = 0; c < CORES; c++)
            for (unsigned n = 0; n < COUNTERS; n++)
                ops[k++].addr = t->cores[c].pmu_base + 8u * n;
    return ops;
}

struct cost {
    double tck_per_read, transfers_per_sample, round_trips_per_sample;
    double scans_per_read, out_per_scan, in_per_scan;
};

/* Runs SAMPLES samples, batch samples per pp_bus_run, and measures. */
static struct cost measure(bool sync, unsigned batch)
{
    struct pp_target *t;
    struct pp_bus *bus = open_bus(sync, &t);
    struct pp_op *ops = plan(t, batch);
    struct emu_counters before = *counters();
    struct pp_bus_stats bs0, bs1;
    struct pp_simjtag_stats js0, js1;
    struct cost c;
    uint64_t transfers, scans;

    pp_bus_run(bus, ops, (size_t)batch * CORES * COUNTERS);   /* warm: TAR, SELECT */
    before = *counters();
    pp_bus_get_stats(bus, &bs0);
    pp_simjtag_get_stats(emu_get()->dev[0].jtag, &js0);
    for (unsigned s = 0; s < SAMPLES; s += batch)
        ck_assert_int_eq(pp_bus_run(bus, ops, (size_t)batch * CORES * COUNTERS), PP_OK);
    pp_bus_get_stats(bus, &bs1);
    pp_simjtag_get_stats(emu_get()->dev[0].jtag, &js1);
    scans = js1.dr_scans - js0.dr_scans;
    c.scans_per_read = (double)scans / (SAMPLES * CORES * COUNTERS);
    c.out_per_scan = (double)(counters()->bytes_out - before.bytes_out) / (double)scans;
    c.in_per_scan = (double)(counters()->bytes_in - before.bytes_in) / (double)scans;
    transfers = counters()->bulk_out + counters()->bulk_in - before.bulk_out - before.bulk_in;
    c.tck_per_read = (double)(counters()->tck - before.tck) / (SAMPLES * CORES * COUNTERS);
    c.transfers_per_sample = (double)transfers / SAMPLES;
    c.round_trips_per_sample = (double)(bs1.round_trips - bs0.round_trips) / SAMPLES;
    for (size_t i = 0; i < (size_t)batch * CORES * COUNTERS; i++)
        ck_assert_uint_eq(ops[i].st, PP_OP_OK);
    free(ops);
    pp_bus_close(bus);
    pp_target_free(t);
    return c;
}

START_TEST(pipelined_sampling_needs_fewer_than_one_round_trip_per_sample)
{
    struct cost sync = measure(true, 1), pipe = measure(false, SAMPLES);
    double tck_sample = pipe.tck_per_read * CORES * COUNTERS;

    printf("ftdi efficiency, %u cores x %u counters, %u samples:\n", CORES, COUNTERS, SAMPLES);
    printf("  synchronous (one batch per sample): %.1f TCK/read, %.2f USB transfers and "
           "%.2f round trips per sample\n", sync.tck_per_read, sync.transfers_per_sample,
           sync.round_trips_per_sample);
    printf("  pipelined (%u samples per flush):   %.1f TCK/read, %.3f USB transfers and "
           "%.3f round trips per sample\n", SAMPLES, pipe.tck_per_read,
           pipe.transfers_per_sample, pipe.round_trips_per_sample);
    printf("  encoding: %.2f DR scans per read, %.1f bytes out and %.1f bytes in per scan\n",
           pipe.scans_per_read, pipe.out_per_scan, pipe.in_per_scan);
    printf("  TCK-bound rate at 30 MHz: %.0f samples/s (%.0f TCK per sample)\n",
           30e6 / tck_sample, tck_sample);
    ck_assert(pipe.round_trips_per_sample < 1.0);
    ck_assert(pipe.transfers_per_sample < 1.0);
    ck_assert(sync.round_trips_per_sample >= 1.0);
}
END_TEST

/* --- real time (ftdi-emu/rt.c) ------------------------------------------------ */

/* TCK 1 kHz (divisor 29999, divide-by-5 off): 60000 ticks of 60 MHz a
 * clock, so that 128 of them (128 ms) dwarf what a loaded machine adds to a
 * USB exchange that the model would not hold back. */
#define RT_DIV      29999u
#define RT_PERIOD   ((1u + RT_DIV) * 2u)

/* libftdi straight on the emulator, channel A in MPSSE mode. */
static struct ftdi_context *rt_open(unsigned char latency_ms)
{
    struct ftdi_context *f = ftdi_new();

    ck_assert_ptr_nonnull(f);
    ck_assert_int_eq(ftdi_usb_open(f, 0x0403, 0x6010), 0);
    ck_assert_int_eq(ftdi_set_latency_timer(f, latency_ms), 0);
    ck_assert_int_eq(ftdi_set_bitmode(f, 0x0b, BITMODE_MPSSE), 0);
    return f;
}

static void rt_close(struct ftdi_context *f)
{
    ftdi_usb_close(f);
    ftdi_free(f);
}

/* Reads until n reply bytes came (a read may bring only status bytes). */
static void rt_read(struct ftdi_context *f, unsigned char *buf, int n)
{
    int got = 0;

    while (got < n) {
        int k = ftdi_read_data(f, buf + got, n - got);

        ck_assert_int_ge(k, 0);
        got += k;
    }
}

/* The first microframe boundary after tick t. */
static uint64_t next_boundary(uint64_t t)
{
    return (t / EMU_UFRAME + 1u) * EMU_UFRAME;
}

/*
 * rt.c 1, 2 and 4: an OUT packet reaches the chip at the end of the
 * microframe it went in, the engine clocks 128 TCK (0x8F) at 1 kHz before it
 * can answer 0x81, and the IN packet that 0x87 sends completes at the
 * boundary after the byte exists.  So the reply is on the host no earlier
 * than the boundary after t0, plus 128 ms (1024 microframes exactly).  A
 * lower bound only: a loaded machine is later, never earlier.
 */
START_TEST(realtime_reply_waits_for_its_tck_and_the_microframes_that_carry_it)
{
    const unsigned char cmd[] = { 0x8A, 0x97, 0x8D, 0x86, RT_DIV & 0xFF, RT_DIV >> 8,
                                  0x8F, 0x0F, 0x00, 0x81, 0x87 };
    const uint64_t tck = 128u * RT_PERIOD;
    struct ftdi_context *f;
    unsigned char pins;
    uint64_t t0, t1, arrive;

    setenv("PMUPROBE_EMU_REALTIME", "1", 1);
    f = rt_open(16);
    t0 = emu_now_tick();
    ck_assert_int_eq(ftdi_write_data(f, cmd, sizeof(cmd)), (int)sizeof(cmd));
    rt_read(f, &pins, 1);
    t1 = emu_now_tick();
    arrive = next_boundary(t0);
    ck_assert_uint_ge(t1, arrive + (tck + EMU_UFRAME - 1u) / EMU_UFRAME * EMU_UFRAME);
    ck_assert_uint_eq(counters()->tck, 128);
    ck_assert_uint_eq(counters()->tck_ticks, tck);
    ck_assert_uint_eq(counters()->last_tck_ticks, RT_PERIOD);
    ck_assert_uint_ge(counters()->packets_out, 1);
    ck_assert_uint_ge(counters()->uframes_in, 1);
    ck_assert_uint_ge(counters()->model_end - counters()->model_start, tck);
    printf("real time: 0x8F (128 TCK at 1 kHz) + 0x81 + 0x87 answered after %.3f ms "
           "(model: at least %.3f ms)\n", (double)(t1 - t0) / 60000.0,
           (double)(arrive + (tck + EMU_UFRAME - 1u) / EMU_UFRAME * EMU_UFRAME - t0) / 60000.0);
    rt_close(f);
}
END_TEST

/* rt.c 4: a reply under a full packet and without 0x87 waits for the
 * latency timer, counted from the last packet the chip sent. */
START_TEST(realtime_short_reply_without_send_immediate_waits_for_the_latency_timer)
{
    const unsigned char flushed[] = { 0x8A, 0x81, 0x87 }, unflushed[] = { 0x81 };
    struct ftdi_context *f;
    unsigned char pins;
    uint64_t t0, t1;

    setenv("PMUPROBE_EMU_REALTIME", "1", 1);
    f = rt_open(20);
    /* The packet this read takes restarts the timer no earlier than the
     * boundary before t0 (rt.c 4: sent at a boundary after the read). */
    t0 = emu_now_tick();
    ck_assert_int_eq(ftdi_write_data(f, flushed, sizeof(flushed)), (int)sizeof(flushed));
    rt_read(f, &pins, 1);
    ck_assert_int_eq(ftdi_write_data(f, unflushed, sizeof(unflushed)), (int)sizeof(unflushed));
    rt_read(f, &pins, 1);
    t1 = emu_now_tick();
    ck_assert_uint_ge(t1, t0 - t0 % EMU_UFRAME + 20u * (EMU_TICK_HZ / 1000u));
    rt_close(f);
}
END_TEST

/*
 * A bulk pipe delivers in order (usb.c, behind_out): an OUT transfer
 * submitted behind one that waits for FIFO room does not slip its bytes
 * in first.  The first makes the engine stall on a full TX FIFO (a 5000
 * byte read) with its tail, a 6000-byte shift, still outside; the second,
 * 0x81 0x87, would fit in the room left.  In order, 0x81 answers after
 * the 5000 bytes and nothing is a bad command.
 */
START_TEST(out_transfers_reach_the_chip_in_the_order_they_were_submitted)
{
    enum { NR = 5000, NW = 6000 };
    unsigned char *a = calloc(6 + NW, 1), *in = calloc(NR + 1, 1);
    const unsigned char b[] = { 0x81, 0x87 };
    struct ftdi_transfer_control *ta, *tb, *tr;
    struct ftdi_context *f;
    uint64_t bad, got;

    /* In real time a packet enters the FIFO whole (rt.c 2), which leaves
     * the room a short transfer could slip into. */
    setenv("PMUPROBE_EMU_REALTIME", "1", 1);
    f = rt_open(16);
    bad = counters()->bad_commands;
    got = counters()->bytes_in;

    /* One transfer each (libftdi cuts a write into chunks, each submitted
     * when the one before completes, so behind whatever came after). */
    ck_assert_int_eq(ftdi_write_data_set_chunksize(f, 16384), 0);

    a[0] = 0x28;
    a[1] = (NR - 1) & 0xFF;
    a[2] = (NR - 1) >> 8;
    a[3] = 0x19;
    a[4] = (NW - 1) & 0xFF;
    a[5] = (NW - 1) >> 8;
    memset(a + 6, 0x81, NW);        /* commands, were they parsed as such */
    ta = ftdi_write_data_submit(f, a, 6 + NW);
    tb = ftdi_write_data_submit(f, (unsigned char *)b, sizeof(b));
    ck_assert_ptr_nonnull(ta);
    ck_assert_ptr_nonnull(tb);
    tr = ftdi_read_data_submit(f, in, NR + 1);
    ck_assert_ptr_nonnull(tr);
    ck_assert_int_eq(ftdi_transfer_data_done(ta), 6 + NW);
    ck_assert_int_eq(ftdi_transfer_data_done(tb), (int)sizeof(b));
    ck_assert_int_eq(ftdi_transfer_data_done(tr), NR + 1);
    ck_assert_uint_eq(counters()->bad_commands, bad);
    ck_assert_uint_eq(counters()->bytes_in - got, NR + 1);
    free(a);
    free(in);
    rt_close(f);
}
END_TEST

/*
 * rt.c 4: while a read is pending the host controller fetches IN packets
 * on its own, so a reply larger than the TX FIFO (8192 bytes at 6 MHz,
 * about 11 ms) is drained as it is clocked and the engine never stops on
 * a full FIFO, however late the program looks.  It looks only after the
 * reply's TCK time has passed twice over (sleeping longer changes nothing:
 * the assertion is on the model's clock, not on the wait).
 */
START_TEST(realtime_pending_read_drains_the_tx_fifo_without_the_host_looking)
{
    enum { N = 8192, DIV = 4 };            /* 6 MHz: 10 ticks a TCK */
    const unsigned char cmd[] = { 0x8A, 0x97, 0x8D, 0x86, DIV, 0x00,
                                  0x28, (N - 1) & 0xFF, (N - 1) >> 8, 0x87 };
    unsigned char *in = calloc(N, 1);
    struct ftdi_context *f;
    struct ftdi_transfer_control *tr;
    uint64_t t0;

    setenv("PMUPROBE_EMU_REALTIME", "1", 1);
    f = rt_open(255);               /* no status-only packet ends the read early */
    /* One transfer for all of it: each one the program must resubmit would
     * leave the chip nothing to send into until it did. */
    ck_assert_int_eq(ftdi_read_data_set_chunksize(f, 16384), 0);
    tr = ftdi_read_data_submit(f, in, N);
    ck_assert_ptr_nonnull(tr);
    ck_assert_int_eq(ftdi_write_data(f, cmd, sizeof(cmd)), (int)sizeof(cmd));
    t0 = emu_now_tick();
    emu_sleep_until_tick(t0 + 2u * N * 8u * (1u + DIV) * 2u + 8u * EMU_UFRAME);
    ck_assert_int_eq(ftdi_transfer_data_done(tr), N);
    ck_assert_uint_eq(counters()->tck, 8u * N);
    ck_assert_uint_eq(counters()->stall_tx_ticks, 0);
    free(in);
    rt_close(f);
}
END_TEST

/* Off (the default), the same exchange just works: no timing promised. */
START_TEST(without_realtime_the_same_exchange_answers_as_soon_as_it_can)
{
    const unsigned char cmd[] = { 0x8A, 0x86, RT_DIV & 0xFF, RT_DIV >> 8, 0x8F, 0x0F, 0x00,
                                  0x81, 0x87 };
    struct ftdi_context *f = rt_open(16);
    unsigned char pins;

    ck_assert_int_eq(ftdi_write_data(f, cmd, sizeof(cmd)), (int)sizeof(cmd));
    rt_read(f, &pins, 1);
    ck_assert(!emu_get()->realtime);
    ck_assert_uint_eq(counters()->tck_ticks, 128u * RT_PERIOD);
    ck_assert_uint_eq(counters()->packets_out, 0);
    rt_close(f);
}
END_TEST

static Suite *ftdi_suite(void)
{
    Suite *s = suite_create("ftdi");
    TCase *tc;

    tc = tcase_create("Opening");
    tcase_add_checked_fixture(tc, emu_up, emu_down);
    tcase_add_test(tc, open_by_vid_pid_reports_the_chip_the_interface_and_the_exact_tck);
    tcase_add_test(tc, setup_puts_the_channel_in_mpsse_with_clock_options_off_and_the_layout_pins);
    tcase_add_test(tc, open_by_serial_description_and_usb_path_finds_the_adapter);
    tcase_add_test(tc, second_device_is_found_by_its_serial_on_its_own_port);
    tcase_add_test(tc, serial_nobody_has_is_not_found_and_the_message_lists_what_is_there);
    tcase_add_test(tc, interface_b_of_an_ft2232h_is_its_second_mpsse);
    tcase_add_test(tc, interface_c_of_an_ft4232h_has_no_mpsse);
    tcase_add_test(tc, ft232h_chunks_replies_by_its_1_kib_fifo);
    tcase_add_test(tc, no_device_is_not_found);
    tcase_add_test(tc, permission_denied_is_busy_and_names_the_udev_rules_file);
    tcase_add_test(tc, interface_claimed_elsewhere_is_busy);
    tcase_add_test(tc, second_open_of_the_same_interface_is_busy);
    tcase_add_test(tc, setup_command_answered_with_0xfa_is_named);
    suite_add_tcase(s, tc);

    tc = tcase_create("Clock and pins");
    tcase_add_checked_fixture(tc, emu_up, emu_down);
    tcase_add_test(tc, speed_request_rounds_down_and_reports_the_exact_clock);
    tcase_add_test(tc, reset_asserts_srst_on_the_layouts_pin_and_refuses_a_missing_trst);
    tcase_add_test(tc, every_layouts_resets_reach_the_pins_its_board_wires_them_to);
    suite_add_tcase(s, tc);

    tc = tcase_create("Scans and batches");
    tcase_add_checked_fixture(tc, emu_up, emu_down);
    tcase_add_test(tc, idcode_reads_back_as_the_targets_dp_idcode);
    tcase_add_test(tc, large_batch_in_sync_mode_is_cut_into_fifo_sized_round_trips);
    tcase_add_test(tc, large_batch_pipelined_is_one_round_trip_and_does_not_deadlock);
    tcase_add_test(tc, large_batch_pipelined_goes_out_while_it_is_still_queued);
    tcase_add_test(tc, out_transfers_reach_the_chip_in_the_order_they_were_submitted);
    suite_add_tcase(s, tc);

    tc = tcase_create("Errors");
    tcase_add_checked_fixture(tc, emu_up, emu_down);
    tcase_add_test(tc, unplug_during_a_flush_is_a_link_error_and_later_flushes_fail_fast);
    tcase_add_test(tc, command_answered_with_0xfa_mid_session_is_a_protocol_error);
    suite_add_tcase(s, tc);

    tc = tcase_create("Layouts");
    tcase_add_test(tc, every_builtin_layout_drives_tck_tdi_tms_with_tck_low);
    tcase_add_test(tc, minimodule_srst_is_open_drain_through_the_direction_bit);
    tcase_add_test(tc, flyswatter2_srst_driver_is_enabled_by_acbus0_low);
    tcase_add_test(tc, olimex_srst_is_pulled_low_by_raising_its_enable_pin);
    tcase_add_test(tc, custom_layout_is_read_from_options);
    tcase_add_test(tc, custom_layout_that_leaves_tck_an_input_is_refused);
    suite_add_tcase(s, tc);

    tc = tcase_create("Real time");
    tcase_add_checked_fixture(tc, emu_up, emu_down);
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, realtime_reply_waits_for_its_tck_and_the_microframes_that_carry_it);
    tcase_add_test(tc, realtime_short_reply_without_send_immediate_waits_for_the_latency_timer);
    tcase_add_test(tc, realtime_pending_read_drains_the_tx_fifo_without_the_host_looking);
    tcase_add_test(tc, without_realtime_the_same_exchange_answers_as_soon_as_it_can);
    suite_add_tcase(s, tc);

    tc = tcase_create("Efficiency");
    tcase_add_checked_fixture(tc, emu_up, emu_down);
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, pipelined_sampling_needs_fewer_than_one_round_trip_per_sample);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(ftdi_suite());
    int failed;

    srunner_run_all(sr, CK_NORMAL);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

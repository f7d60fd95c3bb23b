/*
 * check_simswd.c - the simulated SoC's SW-DP and SWJ-DP (lib/sim/swdp.c)
 * and the SWD wire engine over its pins (lib/link/swd.c), against
 * spec/cmsis-dap-swd.md 4 and spec/arm-pmu-coresight.md 7.
 *
 * The SoC is the two Cortex-A72 of check_simjtag.c, APB-AP at APSEL 1,
 * with the dp key chosen per test.  Tests of the sim alone drive the pins
 * with a raw packet helper (raw_xfer) so that they see ACKs and posted
 * data as the wire carries them; the rest go through the engine.
 */
#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "adi/adi.h"
#include "link/simpins.h"
#include "link/swd.h"
#include "link/swd_link.h"
#include "link/swd_simpins.h"
#include "pmu/regs.h"
#include "sim/jtag.h"
#include "sim/swdp.h"
#include "fixture.h"

#define APSEL     1u
#define IDCODE    0x5BA00477u
#define DPIDR_V2  0x5BA02477u         /* IDCODE's REVISION/PARTNO, VERSION 2, Arm */
#define TARGETID  0x12345477u
#define BAD_ADDR  0x80431000u         /* made to answer an APB error */
#define CSW_WORD  0x80000002u         /* DbgSwEnable, word, no increment */

#define AP_CSW    0x00u
#define AP_TAR    0x04u
#define AP_DRW    0x0Cu
#define AP_BASE   0xF8u
#define AP_IDR    0xFCu
#define AP_IDR_APB 0x54770002u

#define ACK_NONE  0x7u                /* the pulled-up line: nobody answered */

/* The SoC of check_simjtag.c with a TARGETID; a "dp = kind" line may go
 * between head and tail. */
static const char target_head[] =
    FX_A72_PAIR_SOC("swd-test", "dp.targetid = 0x12345477\n"
                                "ap.index = 1\n"
                                "ap.idr = 0x54770002\n");

static const char target_tail[] = FX_A72_PAIR_CORES;

static struct fx_rig rig;
static struct pp_simjtag *jt;
static struct pp_swd_wire *wire;
static struct pp_swd *swd;

/* The SoC with "dp = kind" (NULL: no dp key, the default), its DP pins,
 * and the SWD engine over them. */
static void build(const char *kind)
{
    char text[1024];

    snprintf(text, sizeof(text), "%s%s%s%s", target_head, kind ? "dp = " : "",
             kind ? kind : "", kind ? "\n" : "");
    snprintf(text + strlen(text), sizeof(text) - strlen(text), "%s", target_tail);
    fx_rig_parse(&rig, text);
    jt = fx_simjtag(rig.sim);
    wire = pp_swd_simpins_new(jt);
    ck_assert_ptr_nonnull(wire);
    swd = pp_swd_new(wire);
    ck_assert_ptr_nonnull(swd);
}

static void teardown(void)
{
    pp_swd_free(swd);
    if (wire)
        wire->ops->free(wire);
    pp_simjtag_free(jt);
    fx_rig_down(&rig);
    swd = NULL;
    wire = NULL;
    jt = NULL;
}

static void setup_swd(void) { build("swd"); }
static void setup_swj(void) { build("swj"); }
static void setup_jtag(void) { build(NULL); }

/* ---- a raw host on the pins ------------------------------------------------ */

static void raw_out(uint64_t bits, unsigned n)
{
    for (unsigned i = 0; i < n; i++)
        pp_simswd_cycle(jt, true, (bits >> i) & 1u);
}

static void raw_line_reset(void)
{
    raw_out(~0ull, 60);
    raw_out(0, 4);
}

static unsigned parity(uint32_t v)
{
    unsigned p = 0;

    for (; v; v &= v - 1u)
        p ^= 1u;
    return p;
}

/* One packet with request byte req (as given: a test may spoil it); the
 * ACK as read, and for an OK read its data.  Always 46 clocks + 2 idle,
 * the data phase clocked whatever the ACK (ORUNDETECT is not used). */
static unsigned raw_xfer(uint8_t req, uint32_t wdata, uint32_t *rdata)
{
    bool rnw = (req >> 2) & 1u;
    unsigned ack = 0;
    uint32_t v = 0;

    raw_out(req, 8);
    pp_simswd_cycle(jt, false, false);                  /* turnaround */
    for (unsigned i = 0; i < 3; i++)
        ack |= (unsigned)pp_simswd_cycle(jt, false, false) << i;
    if (ack != 0x1u) {
        pp_simswd_cycle(jt, false, false);              /* turnaround */
        raw_out(0, 2);
        return ack;
    }
    if (rnw) {
        for (unsigned i = 0; i < 32; i++)
            v |= (uint32_t)pp_simswd_cycle(jt, false, false) << i;
        ck_assert_uint_eq(pp_simswd_cycle(jt, false, false), parity(v));
        pp_simswd_cycle(jt, false, false);              /* turnaround */
        *rdata = v;
    } else {
        pp_simswd_cycle(jt, false, false);              /* turnaround */
        raw_out(wdata | (uint64_t)parity(wdata) << 32, 33);
    }
    raw_out(0, 2);
    return ack;
}

/* ---- engine helpers -------------------------------------------------------- */

static void swd_up(bool from_jtag)
{
    char err[256];
    uint32_t dpidr = 0;

    ck_assert_msg(pp_swd_connect(swd, from_jtag, &dpidr) == PP_OK, "%s", pp_swd_errmsg(swd));
    ck_assert_msg(pp_swd_power_up(swd, err, sizeof(err)) == PP_OK, "%s", err);
}

static struct pp_dp_xfer ap_w(uint8_t addr, uint32_t v)
{
    return (struct pp_dp_xfer){ .ap = 1, .addr = addr, .apsel = APSEL, .wdata = v };
}

static struct pp_dp_xfer ap_r(uint8_t addr)
{
    return (struct pp_dp_xfer){ .ap = 1, .rnw = 1, .addr = addr, .apsel = APSEL };
}

/* One 32-bit APB read through the APB-AP over the engine. */
static int swd_read32(uint32_t addr, uint32_t *v, uint32_t *ctrl)
{
    struct pp_dp_xfer x[3] = { ap_w(AP_CSW, CSW_WORD), ap_w(AP_TAR, addr), ap_r(AP_DRW) };
    int rc = pp_swd_exec(swd, x, 3, ctrl);

    *v = x[2].rdata;
    if (rc == PP_OK)
        ck_assert_uint_eq(x[2].done, 1);
    return rc;
}

/* ---- the SW-DP -------------------------------------------------------------- */

START_TEST(line_reset_then_dpidr_reads_a_dpv2)
{
    uint32_t dpidr = 0;

    ck_assert_int_eq(pp_swd_connect(swd, false, &dpidr), PP_OK);
    ck_assert_uint_eq(dpidr, DPIDR_V2);
    ck_assert_uint_eq((dpidr >> 12) & 0xFu, 2);        /* VERSION: DPv2 */
    ck_assert_uint_eq((dpidr >> 1) & 0x7FFu, 0x23Bu);  /* DESIGNER: Arm */
}
END_TEST

START_TEST(targetid_reads_in_dp_bank_2)
{
    struct pp_dp_xfer x[2] = {
        { .addr = PP_DP_SELECT, .wdata = 0x2u },
        { .rnw = 1, .addr = PP_DP_CTRLSTAT },
    };

    swd_up(false);
    ck_assert_int_eq(pp_swd_exec(swd, x, 2, NULL), PP_OK);
    ck_assert_uint_eq(x[1].rdata, TARGETID);
}
END_TEST

START_TEST(request_with_bad_parity_gets_no_ack)
{
    struct pp_simjtag_stats st;
    uint32_t v = 0;

    raw_line_reset();
    /* DPIDR read is 0xA5 (swd 4.1); bit 5 is its parity. */
    ck_assert_uint_eq(raw_xfer(0xA5u ^ 0x20u, 0, &v), ACK_NONE);
    pp_simjtag_get_stats(jt, &st);
    ck_assert_uint_eq(st.swd_errors, 1);
    /* Locked out: even a good request is not answered ... */
    ck_assert_uint_eq(raw_xfer(0xA5u, 0, &v), ACK_NONE);
    /* ... until a line reset. */
    raw_line_reset();
    ck_assert_uint_eq(raw_xfer(0xA5u, 0, &v), 0x1u);
    ck_assert_uint_eq(v, DPIDR_V2);
}
END_TEST

START_TEST(first_packet_after_line_reset_must_read_dpidr)
{
    uint32_t v = 0;

    raw_line_reset();
    /* A CTRL/STAT read (0x8D) in the Reset state locks the link out. */
    ck_assert_uint_eq(raw_xfer(0x8Du, 0, &v), ACK_NONE);
    raw_line_reset();
    ck_assert_uint_eq(raw_xfer(0xA5u, 0, &v), 0x1u);
    ck_assert_uint_eq(raw_xfer(0x8Du, 0, &v), 0x1u);
}
END_TEST

START_TEST(write_data_parity_error_sets_wdataerr_and_drops_the_write)
{
    uint32_t v = 0;

    raw_line_reset();
    ck_assert_uint_eq(raw_xfer(0xA5u, 0, &v), 0x1u);                  /* DPIDR */
    /* CTRL/STAT write of the power requests with the data's parity bit
     * inverted (swd 4.7). */
    raw_out(0xA9u, 8);
    for (unsigned i = 0; i < 5; i++)
        pp_simswd_cycle(jt, false, false);                            /* T, ACK, T */
    raw_out(0x50000000u | (uint64_t)(parity(0x50000000u) ^ 1u) << 32, 33);
    raw_out(0, 2);
    ck_assert_uint_eq(raw_xfer(0x8Du, 0, &v), 0x1u);                  /* CTRL/STAT */
    ck_assert_uint_ne(v & (1u << 7), 0);                              /* WDATAERR */
    ck_assert_uint_eq(v & (1u << 28), 0);                             /* write dropped */
    ck_assert_uint_eq(raw_xfer(0xB1u, 0x01000000u, NULL), 0x4u);      /* FAULT */
    ck_assert_uint_eq(raw_xfer(0x81u, 0x8u, NULL), 0x1u);             /* ABORT WDERRCLR */
    ck_assert_uint_eq(raw_xfer(0xB1u, 0x01000000u, NULL), 0x1u);
    ck_assert_uint_eq(raw_xfer(0x8Du, 0, &v), 0x1u);
    ck_assert_uint_eq(v & (1u << 7), 0);
}
END_TEST

/* TARGETSEL right after a line reset (swd 4.5): no ACK is driven; the DP
 * stays selected when the value names its TARGETID (instance 0), and
 * is deselected (no answer until a line reset) otherwise. */
static void raw_targetsel(uint32_t id)
{
    raw_out(0x99u, 8);
    for (unsigned i = 0; i < 5; i++)
        ck_assert(pp_simswd_cycle(jt, false, false));                 /* nobody drives */
    raw_out(id | (uint64_t)parity(id) << 32, 33);
    raw_out(0, 2);
}

START_TEST(targetsel_selects_by_targetid)
{
    uint32_t v = 0;

    raw_line_reset();
    raw_targetsel(TARGETID & 0x0FFFFFFFu);          /* TINSTANCE 0 */
    ck_assert_uint_eq(raw_xfer(0xA5u, 0, &v), 0x1u);
    ck_assert_uint_eq(v, DPIDR_V2);
    raw_line_reset();
    raw_targetsel((TARGETID & 0x0FFFFFFFu) ^ 0x1000u);
    ck_assert_uint_eq(raw_xfer(0xA5u, 0, &v), ACK_NONE);
}
END_TEST

START_TEST(injected_wait_answers_wait_and_the_retry_succeeds)
{
    struct pp_dp_xfer x = ap_r(AP_IDR);
    struct pp_swd_stats s;
    struct pp_simjtag_stats st;

    swd_up(false);
    pp_simjtag_set_wait(jt, 1);
    ck_assert_msg(pp_swd_exec(swd, &x, 1, NULL) == PP_OK, "%s", pp_swd_errmsg(swd));
    ck_assert_uint_eq(x.done, 1);
    ck_assert_uint_eq(x.rdata, AP_IDR_APB);
    pp_swd_get_stats(swd, &s);
    pp_simjtag_get_stats(jt, &st);
    ck_assert_uint_eq(st.waits, 1);
    ck_assert_uint_eq(s.waits, 1);
    ck_assert_uint_eq(s.wait_rounds, 1);
}
END_TEST

START_TEST(raw_wait_ack_on_the_wire)
{
    uint32_t v = 0;

    raw_line_reset();
    ck_assert_uint_eq(raw_xfer(0xA5u, 0, &v), 0x1u);
    pp_simjtag_set_wait(jt, 1);
    ck_assert_uint_eq(raw_xfer(0xB1u, 0x01000000u, NULL), 0x2u);   /* SELECT: WAIT */
    ck_assert_uint_eq(raw_xfer(0xB1u, 0x01000000u, NULL), 0x1u);   /* again: OK */
}
END_TEST

START_TEST(sticky_error_faults_until_abort_clears_it)
{
    uint32_t v = 0, ctrl = 0;

    swd_up(false);
    ck_assert_int_eq(pp_sim_set_addr_error(rig.sim, BAD_ADDR, true), PP_OK);
    ck_assert_int_eq(swd_read32(BAD_ADDR, &v, &ctrl), PP_E_FAULT);
    ck_assert_uint_ne(ctrl & PP_CS_STICKYERR, 0);
    /* A good address now FAULTs too: the flag is sticky. */
    ctrl = 0;
    ck_assert_int_eq(swd_read32(rig.t->cores[0].pmu_base + PP_PMU_PMCR, &v, &ctrl), PP_E_FAULT);
    ck_assert_uint_ne(ctrl & PP_CS_STICKYERR, 0);
    ck_assert_int_eq(pp_swd_abort(swd, PP_SWD_ABORT_STKERRCLR | PP_SWD_ABORT_ORUNERRCLR), PP_OK);
    ck_assert_msg(swd_read32(rig.t->cores[0].pmu_base + PP_PMU_PMCR, &v, &ctrl) == PP_OK, "%s",
                  pp_swd_errmsg(swd));
    ck_assert_uint_eq(ctrl & PP_CS_STICKY, 0);
}
END_TEST

START_TEST(posted_ap_read_gives_the_previous_and_rdbuff_the_last)
{
    uint32_t v = 0, first = 0;

    raw_line_reset();
    ck_assert_uint_eq(raw_xfer(0xA5u, 0, &v), 0x1u);                      /* DPIDR */
    ck_assert_uint_eq(raw_xfer(0xA9u, 0x50000000u, NULL), 0x1u);          /* CTRL/STAT: power */
    ck_assert_uint_eq(raw_xfer(0xB1u, APSEL << 24 | 0xF0u, NULL), 0x1u);  /* SELECT bank 0xF0 */
    ck_assert_uint_eq(raw_xfer(pp_swd_request(true, true, 0xC), 0, &first), 0x1u); /* IDR */
    ck_assert_uint_eq(raw_xfer(pp_swd_request(true, true, 0x8), 0, &v), 0x1u);     /* BASE */
    ck_assert_uint_eq(v, AP_IDR_APB);                /* the IDR read's result */
    ck_assert_uint_eq(raw_xfer(0xBDu, 0, &v), 0x1u); /* RDBUFF */
    ck_assert_uint_eq(v, rig.t->rom_base | 0x3u);    /* the BASE read's result */
    ck_assert_uint_ne(first, AP_IDR_APB);            /* nothing read before: not the IDR */
}
END_TEST

/* ---- which DP answers ------------------------------------------------------- */

/* IDCODE through the TAP, as after Test-Logic-Reset: the path
 * TLR -> Idle -> Select-DR -> Capture-DR -> Shift-DR, 32 bits. */
static uint32_t jtag_idcode(void)
{
    static const bool path[] = { 1, 1, 1, 1, 1, 0, 1, 0, 0 };
    uint32_t v = 0;

    for (unsigned i = 0; i < sizeof(path); i++)
        pp_simjtag_cycle(jt, path[i], true);
    for (unsigned i = 0; i < 32; i++)
        v |= (uint32_t)pp_simjtag_cycle(jt, i == 31, true) << i;
    return v;
}

/* A SWJ-DP in JTAG mode watches TMS for the select sequence (swd 4.4).
 * Bits shifted at once (pp_simjtag_shift, the MPSSE emulator's byte
 * shifts), first while the detector is armed by 60 ones (taken clock by
 * clock), then after it closed, read the IDCODE as clocks would, and the
 * select sequence still switches the port to SWD after them. */
START_TEST(byte_shifts_on_a_swj_dp_leave_the_select_sequence_working)
{
    static const bool path[] = { 0, 1, 0, 0 };     /* Run-Test/Idle to Shift-DR */
    uint32_t v = 0;

    raw_out(~0ull, 60);
    for (unsigned i = 0; i < sizeof(path); i++)
        pp_simjtag_cycle(jt, path[i], true);
    for (unsigned i = 0; i < 4; i++)
        v |= pp_simjtag_shift(jt, false, 0xFFu, 8) << (8 * i);
    ck_assert_uint_eq(v, IDCODE);
    ck_assert(!pp_simswd_active(jt));
    ck_assert_int_eq(pp_swd_connect(swd, true, NULL), PP_OK);
    ck_assert(pp_simswd_active(jt));
}
END_TEST

START_TEST(jtag_only_dp_ignores_the_swd_select)
{
    ck_assert_uint_eq(jtag_idcode(), IDCODE);
    ck_assert_int_eq(pp_swd_connect(swd, true, NULL), PP_E_NOTFOUND);
    ck_assert(!pp_simswd_active(jt));
    ck_assert_uint_eq(jtag_idcode(), IDCODE);           /* still a TAP */
}
END_TEST

START_TEST(swj_dp_switches_to_swd_and_back)
{
    uint32_t dpidr = 0;

    ck_assert(!pp_simswd_active(jt));
    ck_assert_uint_eq(jtag_idcode(), IDCODE);
    /* SWD without the select sequence: still JTAG, nothing answers. */
    ck_assert_int_eq(pp_swd_connect(swd, false, NULL), PP_E_NOTFOUND);
    ck_assert_int_eq(pp_swd_connect(swd, true, &dpidr), PP_OK);
    ck_assert(pp_simswd_active(jt));
    ck_assert_uint_eq(dpidr, DPIDR_V2);
    ck_assert_int_eq(pp_swd_to_jtag(swd), PP_OK);
    ck_assert(!pp_simswd_active(jt));
    ck_assert_uint_eq(jtag_idcode(), IDCODE);
}
END_TEST

/* PMCR, PMCFGR and PMCEID0 of cpu0 through the APB-AP: first over JTAG
 * (lib/adi over the in-process JTAG pins), then, on the same SWJ-DP, over
 * the SWD engine. */
START_TEST(pmu_registers_over_swd_match_the_jtag_path)
{
    static const uint32_t off[] = { PP_PMU_PMCR, PP_PMU_PMCFGR, PP_PMU_PMCEID(0) };
    uint32_t pmu = rig.t->cores[0].pmu_base, byjtag[3], v = 0, ctrl = 0;
    struct pp_bus *bus = fx_adi_bus(jt, rig.t, NULL, 0, NULL, 0, NULL);

    for (unsigned i = 0; i < 3; i++)
        ck_assert_int_eq(pp_bus_read32(bus, pmu + off[i], &byjtag[i]), PP_OK);
    pp_bus_close(bus);
    ck_assert_uint_ne(byjtag[1], 0);                     /* PMCFGR: N counters */
    swd_up(true);
    for (unsigned i = 0; i < 3; i++) {
        ck_assert_msg(swd_read32(pmu + off[i], &v, &ctrl) == PP_OK, "%s", pp_swd_errmsg(swd));
        ck_assert_uint_eq(v, byjtag[i]);
        ck_assert_uint_eq(ctrl & PP_CS_STICKY, 0);
    }
}
END_TEST

/* SWD over the in-process JTAG link, SWDIO on TDI and TDO (swd_link.h):
 * the JTAG-to-SWD sequence and the packets go out as TDI shifts, the
 * target's bits come back on TDO, and PMCFGR reads as over JTAG. */
START_TEST(swd_over_a_jtag_link_with_swdio_on_tdi)
{
    uint32_t pmcfgr = rig.t->cores[0].pmu_base + PP_PMU_PMCFGR, byjtag = 0, v = 0, ctrl = 0;
    char err[256];
    struct pp_bus *bus = fx_adi_bus(jt, rig.t, NULL, 0, NULL, 0, NULL);
    struct pp_link *lnk;
    struct pp_swd_stats st;

    ck_assert_int_eq(pp_bus_read32(bus, pmcfgr, &byjtag), PP_OK);
    pp_bus_close(bus);
    ck_assert_uint_ne(byjtag, 0);

    pp_swd_free(swd);
    wire->ops->free(wire);
    pp_simswd_set_swdio_pin(jt, PP_SWDIO_ON_TDI);
    lnk = pp_link_simpins_new(jt, NULL, 0, NULL, 0, err, sizeof(err));
    ck_assert_msg(lnk != NULL, "%s", err);
    wire = pp_swd_link_wire_new(lnk);
    ck_assert_ptr_nonnull(wire);
    swd = pp_swd_new(wire);
    ck_assert_ptr_nonnull(swd);
    swd_up(true);
    ck_assert(pp_simswd_active(jt));
    ck_assert_msg(swd_read32(pmcfgr, &v, &ctrl) == PP_OK, "%s", pp_swd_errmsg(swd));
    ck_assert_uint_eq(v, byjtag);
    pp_swd_get_stats(swd, &st);
    ck_assert_uint_eq(lnk->stats.round_trips, st.flushes);
    pp_swd_free(swd);
    wire->ops->free(wire);
    pp_link_close(lnk);
    swd = NULL;
    wire = NULL;
}
END_TEST

/* The ADIv5 bus over the SWD engine on the SW-DP (the engine of the
 * fixture is freed: the bus makes its own on a new link). */
static struct pp_bus *open_swd_bus(void)
{
    char err[256];
    struct pp_link *lnk;
    struct pp_bus *bus;

    pp_swd_free(swd);
    wire->ops->free(wire);
    swd = NULL;
    wire = NULL;
    pp_simswd_set_swdio_pin(jt, PP_SWDIO_ON_TDI);
    lnk = pp_link_simpins_new(jt, NULL, 0, NULL, 0, err, sizeof(err));
    ck_assert_msg(lnk != NULL, "%s", err);
    bus = pp_bus_adi_swd_new_traced(lnk, rig.t, NULL, err, sizeof(err));
    ck_assert_msg(bus != NULL, "%s", err);
    return bus;
}

static uint32_t apb(uint32_t addr)
{
    uint32_t v = 0;

    ck_assert_int_eq(pp_sim_apb_read(rig.sim, addr, &v), PP_OP_OK);
    return v;
}

/* The DP raised STICKYORUN behind the host's back, so every AP access
 * FAULTs until the flag is cleared (ADIv5.2 B4.2.2): the bus clears it
 * through ABORT (spec 7.2) and issues the batch again. */
START_TEST(an_overrun_on_the_swd_bus_is_cleared_and_the_batch_read_again)
{
    const uint32_t pmu = rig.t->cores[0].pmu_base;
    struct pp_op ops[3] = { { .addr = pmu + PP_PMU_PMCR }, { .addr = pmu + PP_PMU_PMCFGR },
                            { .addr = pmu + PP_PMU_PMCEID(0) } };
    struct pp_bus *bus = open_swd_bus();
    char err[160];

    ck_assert_int_eq(pp_sim_apply_fault(rig.sim, "dp:overrun", err, sizeof(err)), PP_OK);
    ck_assert_msg(pp_bus_run(bus, ops, 3) == PP_OK, "%s", pp_bus_errmsg(bus));
    for (unsigned i = 0; i < 3; i++) {
        ck_assert_int_eq(ops[i].st, PP_OP_OK);
        ck_assert_uint_eq(ops[i].rdata, apb(ops[i].addr));
    }
    pp_bus_close(bus);
}
END_TEST

/* An error response sets STICKYERR, and the SW-DP FAULTs every access
 * after it until ABORT clears it: the bus names the failing op, clears
 * the flag at the head of the attribution run (dp_swd.c's pending
 * clear), and the ops around it read right. */
START_TEST(an_error_on_one_address_fails_only_that_op_on_the_swd_bus)
{
    const uint32_t pmu = rig.t->cores[0].pmu_base;
    struct pp_op ops[3] = { { .addr = pmu + PP_PMU_PMCFGR }, { .addr = BAD_ADDR },
                            { .addr = pmu + PP_PMU_PMCR } };
    struct pp_bus *bus = open_swd_bus();
    struct pp_bus_stats before, after;

    ck_assert_int_eq(pp_sim_set_addr_error(rig.sim, BAD_ADDR, true), PP_OK);
    pp_bus_get_stats(bus, &before);
    ck_assert_int_eq(pp_bus_run(bus, ops, 3), PP_E_SLVERR);
    pp_bus_get_stats(bus, &after);
    /* The first run and the attribution run, nothing more: the flag is
     * cleared in front of the attribution run, not found by a FAULT. */
    ck_assert_uint_eq(after.round_trips - before.round_trips, 2);
    ck_assert_int_eq(ops[0].st, PP_OP_OK);
    ck_assert_int_eq(ops[1].st, PP_OP_SLVERR);
    ck_assert_int_eq(ops[2].st, PP_OP_OK);
    ck_assert_uint_eq(ops[0].rdata, apb(ops[0].addr));
    ck_assert_uint_eq(ops[2].rdata, apb(ops[2].addr));
    pp_bus_close(bus);
}
END_TEST

/* ---- the target's dp key --------------------------------------------------- */

START_TEST(dp_key_takes_jtag_swd_swj_and_nothing_else)
{
    static const char *const kinds[] = { "jtag", "swd", "SWJ" };
    static const enum pp_dp_kind want[] = { PP_DP_JTAG, PP_DP_SWD, PP_DP_SWJ };
    struct pp_target *t = NULL;
    char text[1024], err[256];

    for (unsigned i = 0; i < 3; i++) {
        snprintf(text, sizeof(text), "%sdp = %s\n%s", target_head, kinds[i], target_tail);
        ck_assert_msg(pp_target_parse(text, "t", &t, err, sizeof(err)) == PP_OK, "%s", err);
        ck_assert_int_eq(t->dp_kind, want[i]);
        pp_target_free(t);
    }
    snprintf(text, sizeof(text), "%sdp = cjtag\n%s", target_head, target_tail);
    ck_assert_int_eq(pp_target_parse(text, "t", &t, err, sizeof(err)), PP_E_PARSE);
    ck_assert_msg(strstr(err, "jtag, swd or swj") != NULL, "%s", err);
    snprintf(text, sizeof(text), "[soc]\nrom.base = 0x80000000\ndp.targetid = 0x1000\n%s",
             target_tail);
    ck_assert_int_eq(pp_target_parse(text, "t", &t, err, sizeof(err)), PP_E_PARSE);
    ck_assert_msg(strstr(err, "bit 0 clear") != NULL, "%s", err);
}
END_TEST

/* ---- the engine's batches --------------------------------------------------- */

START_TEST(a_batch_of_reads_is_one_flush_with_results_in_order)
{
    struct pp_dp_xfer x[4] = { ap_r(AP_IDR), ap_r(AP_BASE), ap_r(AP_IDR), ap_r(AP_CSW) };
    struct pp_swd_stats a, b;

    swd_up(false);
    pp_swd_get_stats(swd, &a);
    ck_assert_int_eq(pp_swd_exec(swd, x, 4, NULL), PP_OK);
    pp_swd_get_stats(swd, &b);
    ck_assert_uint_eq(b.flushes - a.flushes, 1);
    ck_assert_uint_eq(x[0].rdata, AP_IDR_APB);
    ck_assert_uint_eq(x[1].rdata, rig.t->rom_base | 0x3u);
    ck_assert_uint_eq(x[2].rdata, AP_IDR_APB);
    ck_assert_uint_eq(x[3].rdata & 0x7u, 0x2u);          /* CSW.Size: word */
    for (unsigned i = 0; i < 4; i++)
        ck_assert_uint_eq(x[i].done, 1);
}
END_TEST

static Suite *simswd_suite(void)
{
    Suite *s = suite_create("simswd");
    TCase *sw = tcase_create("SW-DP");
    TCase *which = tcase_create("Which DP");
    TCase *swj = tcase_create("SWJ-DP");

    tcase_add_checked_fixture(sw, setup_swd, teardown);
    tcase_add_test(sw, line_reset_then_dpidr_reads_a_dpv2);
    tcase_add_test(sw, targetid_reads_in_dp_bank_2);
    tcase_add_test(sw, request_with_bad_parity_gets_no_ack);
    tcase_add_test(sw, first_packet_after_line_reset_must_read_dpidr);
    tcase_add_test(sw, write_data_parity_error_sets_wdataerr_and_drops_the_write);
    tcase_add_test(sw, targetsel_selects_by_targetid);
    tcase_add_test(sw, injected_wait_answers_wait_and_the_retry_succeeds);
    tcase_add_test(sw, raw_wait_ack_on_the_wire);
    tcase_add_test(sw, sticky_error_faults_until_abort_clears_it);
    tcase_add_test(sw, posted_ap_read_gives_the_previous_and_rdbuff_the_last);
    tcase_add_test(sw, a_batch_of_reads_is_one_flush_with_results_in_order);
    tcase_add_test(sw, an_overrun_on_the_swd_bus_is_cleared_and_the_batch_read_again);
    tcase_add_test(sw, an_error_on_one_address_fails_only_that_op_on_the_swd_bus);
    suite_add_tcase(s, sw);
    tcase_add_checked_fixture(which, setup_jtag, teardown);
    tcase_add_test(which, jtag_only_dp_ignores_the_swd_select);
    tcase_add_test(which, dp_key_takes_jtag_swd_swj_and_nothing_else);
    suite_add_tcase(s, which);
    tcase_add_checked_fixture(swj, setup_swj, teardown);
    tcase_add_test(swj, swj_dp_switches_to_swd_and_back);
    tcase_add_test(swj, byte_shifts_on_a_swj_dp_leave_the_select_sequence_working);
    tcase_add_test(swj, pmu_registers_over_swd_match_the_jtag_path);
    tcase_add_test(swj, swd_over_a_jtag_link_with_swdio_on_tdi);
    suite_add_tcase(s, swj);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(simswd_suite());
    int failed;

    srunner_run_all(sr, CK_NORMAL);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}

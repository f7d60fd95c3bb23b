/*
 * check_chain.c - JTAG chains of several TAPs: the simulator's chain
 * around the DAP (target key jtag.chain) driven bit by bit, the own
 * stack's detection (IR lengths from the table of known IDCODEs where the
 * capture pattern is ambiguous), a described chain checked against the
 * found one, and the TCK cost of the bypassed TAPs.
 * Facts: spec/jtag-chains.md 1.1 (Zynq-7000), 1.2 (i.MX6), 2.5, 3.
 */
#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "adi/adi.h"
#include "bus/bus.h"
#include "link/jtagchain.h"
#include "link/simpins.h"
#include "pmu/regs.h"
#include "sim/jtag.h"
#include "fixture.h"

#define DAP_ID  0x4BA00477u
#define PL_ID   0x23727093u
#define SJC_ID  0x0191C01Du

/* One SoC, two Cortex-A9 at Zynq's addresses; CHAIN is spliced in. */
#define SOC_HEAD "[soc]\nname = chain-test\ndp.idcode = 0x4BA00477\nap.index = 1\n" \
                 "rom.base = 0x80000000\ntime = deterministic\n"
#define SOC_TAIL "[cluster 0]\nrom.base = 0x80080000\n" \
                 "[core 0-1]\ntype = cortex-a9\ndebug = 0x80090000 +0x2000\n" \
                 "cti = 0x80098000 +0x1000\n"

static const char zynq_text[] = SOC_HEAD
    "jtag.chain = tdi dap pl:irlen=6:idcode=0x23727093|0x13722093:ircapture=0x11 tdo\n"
    SOC_TAIL;
/* The same chain written the other way round (OpenOCD's order). */
static const char zynq_tdo_first_text[] = SOC_HEAD
    "jtag.chain = tdo, pl:irlen=6:idcode=0x23727093|0x13722093:ircapture=0x11, dap, tdi\n"
    SOC_TAIL;
static const char imx6_text[] = SOC_HEAD
    "jtag.chain = tdi sjc:irlen=5:idcode=0x0191C01D sdma:irlen=4:idcode=none:ircapture=0 "
    "dap tdo\n" SOC_TAIL;
static const char single_text[] = SOC_HEAD SOC_TAIL;
/* Zynq's chain with a DAP whose IDCODE is no Arm JTAG-DP's (a TI-wrapped
 * one, spec 4.1): only the table can split the PL's 0b010001 from it. */
static const char zynq_ti_dap_text[] =
    "[soc]\nname = chain-test\ndp.idcode = 0x4B6B902F\nap.index = 1\n"
    "rom.base = 0x80000000\ntime = deterministic\n"
    "jtag.chain = tdi dap pl:irlen=6:idcode=0x23727093:ircapture=0x11 tdo\n" SOC_TAIL;
/* Two TAPs the table does not know, one with status bits in its capture:
 * the capture pattern alone cannot split them (spec 2.5). */
static const char unknown_text[] = SOC_HEAD
    "jtag.chain = tdo fpga:irlen=6:idcode=0x12345679:ircapture=0x35 "
    "ctl:irlen=5:idcode=0x2222222F dap tdi\n" SOC_TAIL;

static struct fx_rig rig;
static struct pp_simjtag *jt;

static void build(const char *text)
{
    char err[256];

    fx_rig_parse(&rig, text);
    jt = pp_simjtag_new(rig.sim, err, sizeof(err));
    ck_assert_msg(jt != NULL, "%s", err);
}

static void teardown(void)
{
    pp_simjtag_free(jt);
    jt = NULL;
    fx_rig_down(&rig);
}

/* ---- a bit-level host ----------------------------------------------------- */

static bool clk(bool tms, bool tdi)
{
    return pp_simjtag_cycle(jt, tms, tdi);
}

static void tlr_to_idle(void)
{
    for (int i = 0; i < 5; i++)
        clk(true, false);
    clk(false, false);
}

/* From Run-Test/Idle: a scan of n bits of the whole chain, tdi[] in
 * (NULL: ones), the bits out of TDO into out[] (first out = out[0]),
 * back to Run-Test/Idle. */
static void scan(bool ir, unsigned n, const bool *tdi, bool *out)
{
    clk(true, false);               /* Select-DR */
    if (ir)
        clk(true, false);           /* Select-IR */
    clk(false, false);              /* Capture */
    clk(false, false);              /* Shift */
    for (unsigned i = 0; i < n; i++)
        out[i] = clk(i == n - 1, tdi ? tdi[i] : true);
    clk(true, false);               /* Update */
    clk(false, false);              /* Idle */
}

static uint32_t bits(const bool *b, unsigned at, unsigned n)
{
    uint32_t v = 0;

    for (unsigned i = 0; i < n; i++)
        v |= (uint32_t)b[at + i] << i;
    return v;
}

/* ---- the simulator's chain ----------------------------------------------- */

START_TEST(zynq_idcodes_come_out_nearest_tdo_first_then_tdi)
{
    bool out[128];

    build(zynq_text);
    tlr_to_idle();
    scan(false, 96, NULL, out);
    ck_assert_uint_eq(bits(out, 0, 32), PL_ID);         /* PL TAP nearest TDO */
    ck_assert_uint_eq(bits(out, 32, 32), DAP_ID);
    ck_assert_uint_eq(bits(out, 64, 32), 0xFFFFFFFFu);  /* TDI passes through */
}
END_TEST

START_TEST(the_chain_reads_the_same_written_either_way)
{
    bool a[96], b[96];

    build(zynq_text);
    tlr_to_idle();
    scan(false, 96, NULL, a);
    teardown();
    build(zynq_tdo_first_text);
    tlr_to_idle();
    scan(false, 96, NULL, b);
    ck_assert_mem_eq(a, b, sizeof(a));
}
END_TEST

START_TEST(zynq_ir_capture_is_the_pl_status_pattern_then_the_dp_0001)
{
    bool out[16];

    build(zynq_text);
    tlr_to_idle();
    scan(true, 16, NULL, out);
    ck_assert_uint_eq(bits(out, 0, 6), 0x11);
    ck_assert_uint_eq(bits(out, 6, 4), 0x1);
    ck_assert_uint_eq(bits(out, 10, 6), 0x3F);
}
END_TEST

/* After an IR scan of ones every TAP is in BYPASS: a 1 fed in comes out
 * one clock per TAP later (spec 3, counting TAPs with BYPASS). */
START_TEST(after_an_ir_scan_every_tap_is_one_bypass_bit)
{
    bool in[8] = { true }, out[8], ir[16];

    build(imx6_text);
    tlr_to_idle();
    scan(true, 16, NULL, ir);
    scan(false, 8, in, out);
    ck_assert_uint_eq(bits(out, 0, 8), 1u << 3);
}
END_TEST

START_TEST(imx6_sdma_has_no_idcode_and_captures_0000)
{
    bool dr[128], ir[20];

    build(imx6_text);
    tlr_to_idle();
    scan(false, 97, NULL, dr);
    ck_assert_uint_eq(bits(dr, 0, 32), DAP_ID);         /* DAP nearest TDO */
    ck_assert_uint_eq(dr[32], false);                    /* SDMA: BYPASS bit */
    ck_assert_uint_eq(bits(dr, 33, 32), SJC_ID);
    ck_assert_uint_eq(bits(dr, 65, 32), 0xFFFFFFFFu);
    scan(true, 20, NULL, ir);
    ck_assert_uint_eq(bits(ir, 0, 4), 0x1);
    ck_assert_uint_eq(bits(ir, 4, 4), 0x0);
    ck_assert_uint_eq(bits(ir, 8, 5), 0x01);
    ck_assert_uint_eq(bits(ir, 13, 7), 0x7F);
}
END_TEST

/* scan() through pp_simjtag_shift: the bits width at a time (TMS low)
 * while more than width are left, the rest one clock each; with
 * exit_shift the last bit and the step to Update go as one shift of two
 * clocks with TMS high.  From Run-Test/Idle back to it, as scan() does. */
static void scan_shifted(unsigned width, bool exit_shift, bool ir, unsigned n, const bool *tdi,
                         bool *out)
{
    unsigned i = 0;

    clk(true, false);
    if (ir)
        clk(true, false);
    clk(false, false);
    clk(false, false);
    for (; i + width < n; i += width) {
        uint32_t in = 0, got;

        for (unsigned b = 0; b < width; b++)
            in |= (uint32_t)(tdi ? tdi[i + b] : true) << b;
        got = pp_simjtag_shift(jt, false, in, width);
        for (unsigned b = 0; b < width; b++)
            out[i + b] = (got >> b) & 1u;
    }
    for (; i + 1 < n; i++)
        out[i] = clk(false, tdi ? tdi[i] : true);
    if (exit_shift) {
        out[i] = pp_simjtag_shift(jt, true, tdi ? tdi[i] : true, 2) & 1u;  /* Exit1, Update */
    } else {
        out[i] = clk(true, tdi ? tdi[i] : true);
        clk(true, false);           /* Update */
    }
    clk(false, false);
}

/* The way an MPSSE byte shift clocks a scan: whole bytes, the last bit
 * alone with TMS high. */
static void scan_bytes(bool ir, unsigned n, const bool *tdi, bool *out)
{
    scan_shifted(8, false, ir, n, tdi, out);
}

/* Shifts the chain cannot take at once (lib/sim/jtag.c shift_only): 32
 * bits (more than 24), and the last bit with the step to Update. */
static void scan_words(bool ir, unsigned n, const bool *tdi, bool *out)
{
    scan_shifted(32, true, ir, n, tdi, out);
}

/* A DR scan, an IR scan and a DR scan of the i.MX6 chain (two IR lengths,
 * a TAP without IDCODE), scanned by way and by single clocks (scan()):
 * the same bits out, and the same state after each (the next scans read
 * alike). */
static void expect_as_clocks(void (*way)(bool, unsigned, const bool *, bool *),
                             const bool *dr_in, const bool *ir_in)
{
    bool a[2][97], b[2][97], c[2][97];

    for (int w = 0; w < 2; w++) {
        build(imx6_text);
        tlr_to_idle();
        (w ? way : scan)(false, 97, dr_in, a[w]);
        (w ? way : scan)(true, 17, ir_in, b[w]);
        (w ? way : scan)(false, 97, dr_in, c[w]);
        teardown();
    }
    for (unsigned i = 0; i < 97; i++) {
        ck_assert_msg(a[0][i] == a[1][i], "first DR scan, bit %u", i);
        ck_assert_msg(c[0][i] == c[1][i], "DR scan after the IR scan, bit %u", i);
    }
    for (unsigned i = 0; i < 17; i++)
        ck_assert_msg(b[0][i] == b[1][i], "IR scan, bit %u", i);
    ck_assert_uint_eq(bits(a[1], 0, 32), DAP_ID);
}

/* The MPSSE emulator hands a byte shift's 8 bits to the chain at once:
 * every TAP must shift them as 8 clocks would, in IR and in DR. */
START_TEST(a_shift_of_several_bits_passes_the_chain_as_as_many_clocks)
{
    bool ir_in[17], dr_in[97];

    for (unsigned i = 0; i < 97; i++)
        dr_in[i] = (i * 7u + 3u) % 5u < 2u;
    for (unsigned i = 0; i < 17; i++)
        ir_in[i] = i < 4 ? (0xEu >> i) & 1u : i % 3u != 0;  /* DAP IDCODE, others mixed */
    expect_as_clocks(scan_bytes, dr_in, ir_in);
}
END_TEST

/* A shift the chain cannot take at once (over 24 bits, or TMS high) is
 * clocked bit by bit: the same bits out, the same state after. */
START_TEST(a_shift_of_over_24_bits_or_with_tms_high_is_as_many_clocks)
{
    bool ir_in[17], dr_in[97];

    for (unsigned i = 0; i < 97; i++)
        dr_in[i] = (i * 5u + 1u) % 7u < 3u;
    for (unsigned i = 0; i < 17; i++)
        ir_in[i] = i < 4 ? (0xEu >> i) & 1u : i % 2u != 0;
    expect_as_clocks(scan_words, dr_in, ir_in);
}
END_TEST

START_TEST(trst_gives_the_other_taps_their_idcode_back)
{
    bool out[96], ir[16];

    build(zynq_text);
    tlr_to_idle();
    scan(true, 16, NULL, ir);
    pp_simjtag_reset(jt, true, false);
    pp_simjtag_reset(jt, false, false);
    clk(false, false);
    scan(false, 64, NULL, out);
    ck_assert_uint_eq(bits(out, 0, 32), PL_ID);
    ck_assert_uint_eq(bits(out, 32, 32), DAP_ID);
}
END_TEST

/* ---- detection ----------------------------------------------------------- */

static struct pp_link *lnk;
static struct pp_jtag *jtag;

static void link_up(const char *text)
{
    char err[256];

    build(text);
    lnk = pp_link_simpins_new(jt, NULL, 0, NULL, 0, err, sizeof(err));
    ck_assert_msg(lnk != NULL, "%s", err);
    jtag = pp_jtag_new(lnk);
    ck_assert_ptr_nonnull(jtag);
}

static void link_down(void)
{
    pp_jtag_free(jtag);
    jtag = NULL;
    pp_link_close(lnk);
    lnk = NULL;
    teardown();
}

/* One look at the chain described by text: detect must find exactly the
 * TAPs of want (nearest TDO first), IDCODE and IR length each. */
struct want_tap {
    uint32_t idcode;
    unsigned irlen;
};

static void expect_detect(const char *text, const struct want_tap *want, unsigned nwant)
{
    struct pp_jtag_tap taps[PP_JTAG_MAX_TAPS];
    unsigned n = 0;

    link_up(text);
    ck_assert_int_eq(pp_jtag_detect(jtag, taps, PP_JTAG_MAX_TAPS, &n), PP_OK);
    ck_assert_uint_eq(n, nwant);
    for (unsigned i = 0; i < nwant; i++) {
        ck_assert_uint_eq(taps[i].idcode, want[i].idcode);
        ck_assert_uint_eq(taps[i].irlen, want[i].irlen);
    }
    ck_assert_uint_eq(lnk->stats.round_trips, 1);
    link_down();
}

/* The PL captures 0b010001: split at each 1 it would read as 4 + 2 + 4
 * bits; the table knows the XC7Z PL has 6 (spec 2.5). */
START_TEST(detect_takes_the_zynq_pl_irlen_from_the_table)
{
    static const struct want_tap want[] = { { PL_ID, 6 }, { DAP_ID, 4 } };

    expect_detect(zynq_text, want, 2);
}
END_TEST

START_TEST(detect_splits_the_zynq_pl_from_an_unknown_dap_by_the_table)
{
    static const struct want_tap want[] = { { PL_ID, 6 }, { 0x4B6B902Fu, 4 } };

    expect_detect(zynq_ti_dap_text, want, 2);
}
END_TEST

/* The SDMA captures 0000 and has no IDCODE: it takes what the SJC (table)
 * and the DAP (table) leave of the 13 IR bits. */
START_TEST(detect_gives_the_imx6_sdma_what_the_known_taps_leave)
{
    static const struct want_tap want[] = { { DAP_ID, 4 }, { 0, 4 }, { SJC_ID, 5 } };

    expect_detect(imx6_text, want, 3);
}
END_TEST

static int apply(const char *want_text, char *err, size_t errlen)
{
    struct pp_jtag_chain want;
    char perr[256];

    memset(&want, 0, sizeof(want));
    if (want_text)
        ck_assert_msg(pp_jtag_chain_parse(want_text, &want, perr, sizeof(perr)) == PP_OK,
                      "%s", perr);
    err[0] = '\0';
    return pp_jtag_chain_apply(jtag, &want, DAP_ID, err, errlen);
}

START_TEST(a_described_chain_that_differs_is_an_error_naming_the_idcodes)
{
    char err[512];

    link_up(imx6_text);
    ck_assert_int_eq(apply("tdo pl:idcode=0x23727093 dap tdi", err, sizeof(err)), PP_E_PARSE);
    ck_assert_str_eq(err, "JTAG chain mismatch: expected 2 TAPs (nearest TDO first: "
                     "pl 0x23727093, dap), found 3: 0x4BA00477 (Arm JTAG-DP), "
                     "no IDCODE (BYPASS), 0x0191C01D (NXP i.MX6 SJC)");
    link_down();
}
END_TEST

START_TEST(a_dap_described_where_another_tap_sits_is_a_mismatch)
{
    char err[512];

    link_up(zynq_text);
    ck_assert_int_eq(apply("tdo dap pl:irlen=6 tdi", err, sizeof(err)), PP_E_PARSE);
    ck_assert_ptr_nonnull(strstr(err, "JTAG chain mismatch: expected 2 TAPs (nearest TDO "
                                      "first: dap, pl), found 2: 0x23727093"));
    ck_assert_int_eq(apply("tdo pl:idcode=0x13722093 dap tdi", err, sizeof(err)), PP_E_PARSE);
    ck_assert_int_eq(apply("tdo pl dap extra:irlen=2 tdi", err, sizeof(err)), PP_E_PARSE);
    ck_assert_ptr_nonnull(strstr(err, "expected 3 TAPs (nearest TDO first: pl, dap, extra), "
                                      "found 2: "));
    ck_assert_int_eq(apply("tdo pl dap tdi", err, sizeof(err)), PP_OK);
    ck_assert_uint_eq(pp_jtag_tap(jtag, 0)->irlen, 6);
    link_down();
}
END_TEST

START_TEST(unknown_taps_with_status_bits_need_their_irlen_described)
{
    char err[512];

    link_up(unknown_text);
    ck_assert_int_eq(apply(NULL, err, sizeof(err)), PP_E_PARSE);
    ck_assert_ptr_nonnull(strstr(err, "IR lengths"));
    ck_assert_ptr_nonnull(strstr(err, "0x12345679, 0x2222222F, 0x4BA00477 (Arm JTAG-DP)"));
    ck_assert_int_eq(apply("tdi dap ctl:irlen=5 fpga:irlen=6 tdo", err, sizeof(err)), PP_OK);
    ck_assert_uint_eq(pp_jtag_tap(jtag, 0)->irlen, 6);
    ck_assert_uint_eq(pp_jtag_tap(jtag, 1)->irlen, 5);
    ck_assert_uint_eq(pp_jtag_tap(jtag, 2)->irlen, 4);
    link_down();
}
END_TEST

/* ---- cost of the bypassed TAPs ------------------------------------------- */

struct cost {
    uint64_t tck, dr, ir;
    uint32_t v[4];
};

/* The same batch of reads through the own stack; the sim counts TCKs. */
static struct cost read_batch(const char *text)
{
    char err[256];
    struct pp_simjtag_stats st;
    struct pp_bus *bus;
    struct pp_op op[4];
    struct cost c;

    build(text);
    lnk = pp_link_simpins_new(jt, NULL, 0, NULL, 0, err, sizeof(err));
    ck_assert_msg(lnk != NULL, "%s", err);
    bus = pp_bus_adi_new(lnk, rig.t, err, sizeof(err));
    ck_assert_msg(bus != NULL, "%s", err);
    memset(op, 0, sizeof(op));
    for (unsigned i = 0; i < 4; i++) {
        op[i].addr = 0x80091000u + 0x2000u * (i & 1u) + (i < 2 ? 0xE00u : 0xFBCu);
    }
    pp_simjtag_reset_stats(jt);
    ck_assert_int_eq(pp_bus_run(bus, op, 4), PP_OK);
    for (unsigned i = 0; i < 4; i++)
        c.v[i] = op[i].rdata;
    pp_simjtag_get_stats(jt, &st);
    c.tck = st.tck;
    c.dr = st.dr_scans;
    c.ir = st.ir_scans;
    pp_bus_close(bus);
    lnk = NULL;
    teardown();
    return c;
}

/* Each bypassed TAP adds one bit to every DR scan and its IR length to
 * every IR scan, nothing else (spec 3: addressing one TAP in a chain). */
START_TEST(each_bypassed_tap_costs_one_tck_per_dr_scan_and_its_irlen_per_ir_scan)
{
    struct cost one = read_batch(single_text);
    struct cost zynq = read_batch(zynq_text);
    struct cost imx6 = read_batch(imx6_text);

    ck_assert_uint_gt(one.dr, 0);
    ck_assert_uint_gt(one.ir, 0);
    ck_assert_uint_eq(zynq.dr, one.dr);
    ck_assert_uint_eq(zynq.ir, one.ir);
    ck_assert_uint_eq(zynq.tck, one.tck + one.dr * 1 + one.ir * 6);
    ck_assert_uint_eq(imx6.dr, one.dr);
    ck_assert_uint_eq(imx6.ir, one.ir);
    ck_assert_uint_eq(imx6.tck, one.tck + one.dr * 2 + one.ir * (5 + 4));
    ck_assert_mem_eq(zynq.v, one.v, sizeof(one.v));
    ck_assert_mem_eq(imx6.v, one.v, sizeof(one.v));
    ck_assert_uint_eq(one.v[0], 0x0001DF06u);         /* A9 PMCFGR: 6 counters */
}
END_TEST

/* ---- the text form ------------------------------------------------------- */

START_TEST(chain_text_reads_in_either_direction)
{
    struct pp_jtag_chain a, b;
    char err[256];

    ck_assert_int_eq(pp_jtag_chain_parse("tdi sjc:irlen=5 sdma:idcode=none dap tdo", &a, err,
                                         sizeof(err)), PP_OK);
    ck_assert_int_eq(pp_jtag_chain_parse("tdo,dap,sdma:idcode=none,sjc:irlen=5,tdi", &b, err,
                                         sizeof(err)), PP_OK);
    ck_assert_mem_eq(&a, &b, sizeof(a));
    ck_assert_uint_eq(a.n, 3);
    ck_assert_str_eq(a.tap[0].name, "dap");
    ck_assert(a.tap[0].dap);
    ck_assert(a.tap[1].no_idcode);
    ck_assert_uint_eq(a.tap[2].irlen, 5);
    ck_assert_uint_eq(pp_jtag_chain_dap(&a), 0);
}
END_TEST

START_TEST(chain_text_errors_say_what_was_expected)
{
    static const struct { const char *text, *msg; } bad[] = {
        { "dap", "does not run from one end to the other" },
        { "tdo dap tdo", "does not run from one end to the other" },
        { "tdo pl tdi", "no 'dap' in the chain" },
        { "tdo dap dap tdi", "more than one 'dap'" },
        { "tdo pl:irlen=0 dap tdi", "irlen '0' is not an IR length" },
        { "tdo pl:irlen=33 dap tdi", "irlen '33' is not an IR length" },
        { "tdo pl:idcode=0x2 dap tdi", "idcode '0x2' is not a JTAG IDCODE" },
        { "tdo pl:speed=3 dap tdi", "unknown 'speed'" },
        { "tdo pl:irlen dap tdi", "'irlen' is not KEY=VALUE" },
        { "tdo pl:irlen=4:ircapture=0x11 dap tdi", "ircapture is wider than irlen" },
        { "tdo p/l dap tdi", "'p/l' is not a TAP name" },
    };
    struct pp_jtag_chain c;
    char err[256];

    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        ck_assert_int_eq(pp_jtag_chain_parse(bad[i].text, &c, err, sizeof(err)), PP_E_PARSE);
        ck_assert_msg(strstr(err, bad[i].msg), "'%s': '%s' lacks '%s'", bad[i].text, err,
                      bad[i].msg);
    }
}
END_TEST

START_TEST(target_chain_taps_need_irlen_and_idcode_and_a_bare_dap)
{
    static const struct { const char *chain, *msg; } bad[] = {
        { "tdo pl:idcode=0x23727093 dap tdi", "t:7: soc: jtag.chain: TAP 'pl' has no irlen" },
        { "tdo pl:irlen=6 dap tdi", "t:7: soc: jtag.chain: TAP 'pl' has no idcode" },
        { "tdo pl:irlen=6:idcode=none dap:irlen=4 tdi", "'dap' takes no options here" },
        { "tdo pl dap", "t:7: soc: 'jtag.chain': 'tdo pl dap' does not run" },
    };
    char text[1024], err[256];
    struct pp_target *t = NULL;

    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        snprintf(text, sizeof(text), SOC_HEAD "jtag.chain = %s\n" SOC_TAIL, bad[i].chain);
        ck_assert_int_eq(pp_target_parse(text, "t", &t, err, sizeof(err)), PP_E_PARSE);
        ck_assert_msg(strstr(err, bad[i].msg), "'%s': '%s' lacks '%s'", bad[i].chain, err,
                      bad[i].msg);
    }
}
END_TEST

static Suite *chain_suite(void)
{
    Suite *s = suite_create("chain");
    TCase *tc = tcase_create("sim");

    tcase_add_checked_fixture(tc, NULL, teardown);
    tcase_add_test(tc, zynq_idcodes_come_out_nearest_tdo_first_then_tdi);
    tcase_add_test(tc, the_chain_reads_the_same_written_either_way);
    tcase_add_test(tc, zynq_ir_capture_is_the_pl_status_pattern_then_the_dp_0001);
    tcase_add_test(tc, after_an_ir_scan_every_tap_is_one_bypass_bit);
    tcase_add_test(tc, imx6_sdma_has_no_idcode_and_captures_0000);
    tcase_add_test(tc, a_shift_of_over_24_bits_or_with_tms_high_is_as_many_clocks);
    tcase_add_test(tc, trst_gives_the_other_taps_their_idcode_back);
    tcase_add_test(tc, a_shift_of_several_bits_passes_the_chain_as_as_many_clocks);
    suite_add_tcase(s, tc);

    tc = tcase_create("detect");
    tcase_add_test(tc, detect_takes_the_zynq_pl_irlen_from_the_table);
    tcase_add_test(tc, detect_splits_the_zynq_pl_from_an_unknown_dap_by_the_table);
    tcase_add_test(tc, detect_gives_the_imx6_sdma_what_the_known_taps_leave);
    tcase_add_test(tc, a_described_chain_that_differs_is_an_error_naming_the_idcodes);
    tcase_add_test(tc, a_dap_described_where_another_tap_sits_is_a_mismatch);
    tcase_add_test(tc, unknown_taps_with_status_bits_need_their_irlen_described);
    tcase_add_test(tc, each_bypassed_tap_costs_one_tck_per_dr_scan_and_its_irlen_per_ir_scan);
    suite_add_tcase(s, tc);

    tc = tcase_create("text");
    tcase_add_test(tc, chain_text_reads_in_either_direction);
    tcase_add_test(tc, chain_text_errors_say_what_was_expected);
    tcase_add_test(tc, target_chain_taps_need_irlen_and_idcode_and_a_bare_dap);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(chain_suite());
    int failed;

    srunner_run_all(sr, CK_NORMAL);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

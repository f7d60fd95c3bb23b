/*
 * check_simjtag.c - the simulated SoC's JTAG-DP and APB-AP at pin level,
 * driven bit by bit the way a host adapter drives TCK/TMS/TDI, against
 * spec/arm-pmu-coresight.md 7 and IEEE 1149.1.
 *
 * The SoC is a real target description (two Cortex-A72 in the v8 map)
 * with the APB-AP at APSEL 1, so that APSEL 0 is an absent AP.  A small
 * host in this file knows TLR, IR scans and DR scans from Run-Test/Idle
 * (10 and 5 + len TCK) and the DPACC/APACC 35-bit encoding.
 */
#include <check.h>
#include <stdint.h>
#include <stdlib.h>

#include "pmu/regs.h"
#include "sim/jtag.h"
#include "sim/sim.h"
#include "fixture.h"

#define IR_ABORT  0x8u
#define IR_DPACC  0xAu
#define IR_APACC  0xBu
#define IR_IDCODE 0xEu
#define IR_BYPASS 0xFu

#define DP_DPIDR  0x0u
#define DP_CTRL   0x4u
#define DP_SELECT 0x8u
#define DP_RDBUFF 0xCu

#define AP_CSW    0x00u
#define AP_TAR    0x04u
#define AP_DRW    0x0Cu
#define AP_BD(n)  (0x10u + 4u * (n))
#define AP_CFG    0xF4u
#define AP_BASE   0xF8u
#define AP_IDR    0xFCu

#define ACK_OK    0x2u
#define ACK_WAIT  0x1u

#define CS_ORUNDETECT (1u << 0)
#define CS_STICKYORUN (1u << 1)
#define CS_STICKYERR  (1u << 5)
#define CS_PWRUP      0x50000000u     /* CSYSPWRUPREQ | CDBGPWRUPREQ */
#define CS_PWRACK     0xA0000000u     /* CSYSPWRUPACK | CDBGPWRUPACK */

#define CSW_WORD_INC  0x80000012u     /* DbgSwEnable, AddrInc single, word */
#define CSW_WORD      0x80000002u

#define APSEL     1u
#define IDCODE    0x5BA00477u
#define ROM       0x80000000u
#define PMU0      0x80430000u
#define PMU1      0x80530000u
#define DBG0      0x80410000u

static const char target_text[] =
    FX_A72_PAIR_SOC("jtag-test", "ap.index = 1\n"
                                 "ap.idr = 0x54770002\n") FX_A72_PAIR_CORES;

static struct fx_rig rig;
static struct pp_simjtag *jt;
static unsigned cur_ir;           /* the host's idea of the IR */
static uint32_t cur_select;       /* ... and of SELECT */
static unsigned idle_after;       /* Run-Test/Idle clocks after each scan */

/* ---- a bit-level host --------------------------------------------------- */

static bool clk(bool tms, bool tdi)
{
    return pp_simjtag_cycle(jt, tms, tdi);
}

static void idle(unsigned n)
{
    while (n--)
        clk(false, false);
}

/* Five TMS=1 clocks reach Test-Logic-Reset from anywhere, then Idle. */
static void tlr_to_idle(void)
{
    for (int i = 0; i < 5; i++)
        clk(true, false);
    clk(false, false);
    cur_ir = IR_IDCODE;
}

/* In Shift-xR: len bits LSB first, the last with TMS=1 (to Exit1). */
static uint64_t shift(uint64_t out, unsigned len)
{
    uint64_t in = 0;

    for (unsigned i = 0; i < len; i++)
        if (clk(i == len - 1u, (out >> i) & 1u))
            in |= 1ull << i;
    return in;
}

/* Idle -> Select-DR -> Select-IR -> Capture-IR -> Shift-IR ... Update-IR
 * -> Idle: 10 TCK.  Returns the captured IR. */
static unsigned ir_scan(unsigned ir)
{
    unsigned cap;

    clk(true, false);
    clk(true, false);
    clk(false, false);
    clk(false, false);
    cap = (unsigned)shift(ir, 4);
    clk(true, false);
    clk(false, false);
    cur_ir = ir;
    return cap;
}

/* From Run-Test/Idle or Update-DR (both go to Select-DR on TMS=1) to
 * Update-DR, then to Idle unless stay_in_update: 4 + len (+1) TCK. */
static uint64_t dr_scan_ex(uint64_t out, unsigned len, bool stay_in_update)
{
    uint64_t in;

    clk(true, false);
    clk(false, false);
    clk(false, false);
    in = shift(out, len);
    clk(true, false);
    if (!stay_in_update)
        clk(false, false);
    return in;
}

static uint64_t dr_scan(uint64_t out, unsigned len)
{
    return dr_scan_ex(out, len, false);
}

static uint64_t acc_word(unsigned a, bool rnw, uint32_t data)
{
    return (rnw ? 1u : 0u) | ((uint64_t)((a >> 2) & 3u) << 1) | ((uint64_t)data << 3);
}

/* One DPACC/APACC/ABORT scan from Idle to Idle plus idle_after clocks;
 * returns the 35 captured bits (ACK in [2:0], ReadResult in [34:3]). */
static uint64_t acc(unsigned ir, unsigned a, bool rnw, uint32_t data)
{
    uint64_t cap;

    if (cur_ir != ir)
        ir_scan(ir);
    cap = dr_scan(acc_word(a, rnw, data), 35);
    idle(idle_after);
    return cap;
}

static unsigned ack(uint64_t cap)
{
    return (unsigned)(cap & 7u);
}

static uint32_t data(uint64_t cap)
{
    return (uint32_t)(cap >> 3);
}

static void dp_write(unsigned a, uint32_t v)
{
    ck_assert_uint_eq(ack(acc(IR_DPACC, a, false, v)), ACK_OK);
    if (a == DP_SELECT)
        cur_select = v;
}

static uint32_t dp_read(unsigned a)
{
    ck_assert_uint_eq(ack(acc(IR_DPACC, a, true, 0)), ACK_OK);
    return data(acc(IR_DPACC, DP_RDBUFF, true, 0));
}

static void select_for(unsigned apsel, unsigned reg)
{
    uint32_t sel = (uint32_t)apsel << 24 | (reg & 0xF0u);

    if (sel != cur_select)
        dp_write(DP_SELECT, sel);
}

static void ap_write_sel(unsigned apsel, unsigned reg, uint32_t v)
{
    select_for(apsel, reg);
    ck_assert_uint_eq(ack(acc(IR_APACC, reg & 0xCu, false, v)), ACK_OK);
}

/* Posted read: the APACC scan starts it, a DPACC RDBUFF scan collects it. */
static uint32_t ap_read_sel(unsigned apsel, unsigned reg)
{
    select_for(apsel, reg);
    ck_assert_uint_eq(ack(acc(IR_APACC, reg & 0xCu, true, 0)), ACK_OK);
    return data(acc(IR_DPACC, DP_RDBUFF, true, 0));
}

static void ap_write(unsigned reg, uint32_t v)
{
    ap_write_sel(APSEL, reg, v);
}

static uint32_t ap_read(unsigned reg)
{
    return ap_read_sel(APSEL, reg);
}

static uint32_t mem_read(uint32_t addr)
{
    ap_write(AP_TAR, addr);
    return ap_read(AP_DRW);
}

static uint32_t apb(uint32_t addr)
{
    uint32_t v = 0;

    ck_assert_int_eq(pp_sim_apb_read(rig.sim, addr, &v), PP_OP_OK);
    return v;
}

static void power_up(void)
{
    dp_write(DP_CTRL, CS_PWRUP);
}

static struct pp_simjtag_stats stats(void)
{
    struct pp_simjtag_stats s;

    pp_simjtag_get_stats(jt, &s);
    return s;
}

static void setup(void)
{
    fx_rig_parse(&rig, target_text);
    jt = fx_simjtag(rig.sim);
    ck_assert_ptr_eq(pp_simjtag_sim(jt), rig.sim);
    cur_select = 0xFFFFFFFFu;
    idle_after = 0;
    tlr_to_idle();
}

static void teardown(void)
{
    pp_simjtag_free(jt);
    jt = NULL;
    fx_rig_down(&rig);
}

/* ---- TAP ----------------------------------------------------------------- */

START_TEST(idcode_is_selected_after_tap_reset)
{
    ck_assert_uint_eq(dr_scan(0, 32), IDCODE);
}
END_TEST

START_TEST(idcode_comes_from_the_target_description)
{
    struct fx_rig other;
    struct pp_simjtag *j2;
    char err[128] = "";

    fx_rig_parse(&other, "[soc]\nname = t2\ndp.idcode = 0x4BA00477\nrom.base = 0x80000000\n"
                         "rom.class = 1\n[cluster 0]\nrom.base = 0x80400000\n"
                         "[core 0]\ntype = cortex-a72\ndebug = 0x80410000\n");
    j2 = pp_simjtag_new(other.sim, err, sizeof(err));
    ck_assert_ptr_nonnull(j2);
    /* Shift-DR from reset: Idle, Select-DR, Capture-DR, Shift-DR. */
    pp_simjtag_cycle(j2, false, false);
    pp_simjtag_cycle(j2, true, false);
    pp_simjtag_cycle(j2, false, false);
    pp_simjtag_cycle(j2, false, false);
    uint32_t v = 0;
    for (unsigned i = 0; i < 32; i++)
        v |= (uint32_t)pp_simjtag_cycle(j2, i == 31, false) << i;
    ck_assert_uint_eq(v, 0x4BA00477u);
    pp_simjtag_free(j2);
    fx_rig_down(&other);
}
END_TEST

START_TEST(trst_selects_idcode_again)
{
    ir_scan(IR_BYPASS);
    pp_simjtag_reset(jt, true, false);
    pp_simjtag_reset(jt, false, false);
    clk(false, false);                          /* TLR -> Idle */
    ck_assert_uint_eq(dr_scan(0, 32), IDCODE);
    ck_assert_uint_eq(stats().resets, 1);       /* setup's TMS reset stayed in TLR */
}
END_TEST

START_TEST(tms_reset_selects_idcode_again)
{
    ir_scan(IR_BYPASS);
    tlr_to_idle();
    ck_assert_uint_eq(dr_scan(0, 32), IDCODE);
}
END_TEST

START_TEST(trst_held_keeps_the_tap_in_test_logic_reset)
{
    pp_simjtag_reset(jt, true, false);
    clk(false, false);
    clk(true, false);
    clk(false, false);
    clk(false, false);                          /* would be Shift-DR */
    pp_simjtag_reset(jt, false, false);
    ck_assert_uint_eq(stats().dr_scans, 0);
    clk(false, false);
    ck_assert_uint_eq(dr_scan(0, 32), IDCODE);
}
END_TEST

START_TEST(capture_ir_loads_0001)
{
    ck_assert_uint_eq(ir_scan(IR_DPACC), 0x1u);
}
END_TEST

START_TEST(bypass_delays_tdi_by_one_bit)
{
    ir_scan(IR_BYPASS);
    ck_assert_uint_eq(dr_scan(0xA5, 9), 0xA5u << 1);
}
END_TEST

START_TEST(unknown_instruction_selects_bypass)
{
    ir_scan(0x3);
    ck_assert_uint_eq(dr_scan(0x1FF, 9), 0x1FEu);
}
END_TEST

START_TEST(dr_scan_longer_than_idcode_passes_tdi_through)
{
    uint64_t cap = dr_scan(0x5ull << 32, 36);

    ck_assert_uint_eq((uint32_t)cap, IDCODE);
    ck_assert_uint_eq(cap >> 32, 0x0u);     /* the first TDI bits come out last */
    ck_assert_uint_eq(dr_scan(0, 32), IDCODE);
}
END_TEST

/* ---- pins ------------------------------------------------------------- */

START_TEST(only_a_rising_tck_edge_clocks_the_tap)
{
    pp_simjtag_reset_stats(jt);
    pp_simjtag_pins(jt, false, false, false);
    pp_simjtag_pins(jt, false, true, true);     /* TMS/TDI move, TCK low */
    ck_assert_uint_eq(stats().tck, 0);
    pp_simjtag_pins(jt, true, true, false);     /* rising: Idle -> Select-DR */
    pp_simjtag_pins(jt, true, false, false);    /* TMS moves with TCK high */
    pp_simjtag_pins(jt, true, true, false);
    ck_assert_uint_eq(stats().tck, 1);
    pp_simjtag_pins(jt, false, false, false);   /* falling: no clock */
    ck_assert_uint_eq(stats().tck, 1);
    /* Still one step from Idle: Capture-DR, Shift-DR, then 32 bits. */
    pp_simjtag_cycle(jt, false, false);
    pp_simjtag_cycle(jt, false, false);
    ck_assert_uint_eq(stats().tck, 3);
    ck_assert_uint_eq((uint32_t)shift(0, 32), IDCODE);
}
END_TEST

START_TEST(tdo_changes_on_the_falling_edge_and_is_valid_before_the_rising_edge)
{
    uint32_t got = 0;
    bool prev;

    /* Idle -> Select-DR -> Capture-DR -> Shift-DR (the capture edge). */
    pp_simjtag_pins(jt, false, true, false);
    pp_simjtag_pins(jt, true, true, false);
    pp_simjtag_pins(jt, false, false, false);
    pp_simjtag_pins(jt, true, false, false);
    pp_simjtag_pins(jt, false, false, false);
    pp_simjtag_pins(jt, true, false, false);
    ck_assert(!pp_simjtag_tdo(jt));             /* not driven before the fall */
    prev = pp_simjtag_tdo(jt);
    for (unsigned i = 0; i < 32; i++) {
        pp_simjtag_pins(jt, false, i == 31, false);
        got |= (uint32_t)pp_simjtag_tdo(jt) << i;   /* sampled with TCK low */
        prev = pp_simjtag_tdo(jt);
        pp_simjtag_pins(jt, true, i == 31, false);
        ck_assert(pp_simjtag_tdo(jt) == prev);  /* the rising edge leaves TDO */
    }
    ck_assert_uint_eq(got, IDCODE);
    pp_simjtag_pins(jt, false, true, false);    /* Exit1-DR: TDO not driven */
    ck_assert(!pp_simjtag_tdo(jt));
}
END_TEST

START_TEST(cycle_returns_what_pins_would_sample)
{
    bool a[40], b[40];
    struct fx_rig other;
    struct pp_simjtag *j2;
    char err[128] = "";

    fx_rig_parse(&other, target_text);
    j2 = pp_simjtag_new(other.sim, err, sizeof(err));
    ck_assert_ptr_nonnull(j2);
    /* The same TMS/TDI sequence through cycle() on jt and pins() on j2. */
    static const bool tms[40] = { 1, 1, 1, 1, 1, 0, 1, 0, 0 };
    for (unsigned i = 0; i < 40; i++) {
        a[i] = pp_simjtag_cycle(jt, tms[i], i & 1u);
        pp_simjtag_pins(j2, false, tms[i], i & 1u);
        b[i] = pp_simjtag_tdo(j2);
        pp_simjtag_pins(j2, true, tms[i], i & 1u);
    }
    for (unsigned i = 0; i < 40; i++)
        ck_assert_msg(a[i] == b[i], "bit %u", i);
    pp_simjtag_free(j2);
    fx_rig_down(&other);
}
END_TEST

/* ---- DP registers ----------------------------------------------------- */

START_TEST(dpidr_is_a_dpv1_value_derived_from_the_idcode)
{
    ck_assert_uint_eq(dp_read(DP_DPIDR), 0x5BA01477u);
}
END_TEST

START_TEST(power_up_requests_are_acknowledged)
{
    ck_assert_uint_eq(dp_read(DP_CTRL) & 0xF0000000u, 0);
    power_up();
    ck_assert_uint_eq(dp_read(DP_CTRL), CS_PWRUP | CS_PWRACK);
    dp_write(DP_CTRL, 0x10000000u);
    ck_assert_uint_eq(dp_read(DP_CTRL), 0x30000000u);
}
END_TEST

START_TEST(trncnt_reads_zero_and_orundetect_is_read_write)
{
    dp_write(DP_CTRL, CS_PWRUP | 0x00FFF000u | CS_ORUNDETECT);
    ck_assert_uint_eq(dp_read(DP_CTRL), CS_PWRUP | CS_PWRACK | CS_ORUNDETECT);
}
END_TEST

START_TEST(select_reads_back_what_was_written)
{
    dp_write(DP_SELECT, 0x010000F0u);
    ck_assert_uint_eq(dp_read(DP_SELECT), 0x010000F0u);
}
END_TEST

START_TEST(ctrl_stat_in_another_dp_bank_reads_zero)
{
    power_up();
    dp_write(DP_SELECT, 0x1u);
    ck_assert_uint_eq(dp_read(DP_CTRL), 0);
    dp_write(DP_SELECT, 0x0u);
    ck_assert_uint_eq(dp_read(DP_CTRL), CS_PWRUP | CS_PWRACK);
}
END_TEST

START_TEST(every_scan_captures_the_previous_read_result)
{
    power_up();
    ck_assert_uint_eq(ack(acc(IR_DPACC, DP_DPIDR, true, 0)), ACK_OK);
    /* a write scan carries the previous read's result too */
    ck_assert_uint_eq(data(acc(IR_DPACC, DP_SELECT, false, 0x01000000u)), 0x5BA01477u);
    ck_assert_uint_eq(data(acc(IR_DPACC, DP_RDBUFF, true, 0)), 0x5BA01477u);
    /* RDBUFF leaves the latch as it is */
    ck_assert_uint_eq(data(acc(IR_DPACC, DP_RDBUFF, true, 0)), 0x5BA01477u);
}
END_TEST

/* ---- AP --------------------------------------------------------------- */

START_TEST(ap_identification_registers)
{
    power_up();
    ck_assert_uint_eq(ap_read(AP_IDR), 0x54770002u);
    ck_assert_uint_eq(ap_read(AP_BASE), ROM | 3u);
    ck_assert_uint_eq(ap_read(AP_CFG), 0);
    ck_assert_uint_eq(ap_read(0xF0), 0);        /* BASE[63:32] */
}
END_TEST

START_TEST(rom_table_cidr_read_through_apacc_equals_the_apb_value)
{
    power_up();
    ap_write(AP_CSW, CSW_WORD);
    for (uint32_t off = 0xFF0; off <= 0xFFC; off += 4)
        ck_assert_uint_eq(mem_read(ROM + off), apb(ROM + off));
    ck_assert_uint_eq(mem_read(ROM + 0xFF4) & 0xF0u, 0x10u);    /* class 0x1 */
}
END_TEST

START_TEST(pmu_counter_read_through_the_ap_counts)
{
    uint32_t a, b;

    power_up();
    ap_write(AP_CSW, CSW_WORD);
    ck_assert_uint_eq(mem_read(PMU0 + PP_PMU_PMDEVARCH), 0x47702A16u);
    ap_write(AP_TAR, PMU0 + PP_PMU_PMCR);
    ap_write(AP_DRW, PP_PMCR_E);
    ap_write(AP_TAR, PMU0 + PP_PMU_PMCNTENSET);
    ap_write(AP_DRW, 1u << 31);
    ck_assert_uint_eq(apb(PMU0 + PP_PMU_PMCNTENSET) & (1u << 31), 1u << 31);
    a = mem_read(PMU0 + PP_PMU_PMCCNTR_V3);
    b = mem_read(PMU0 + PP_PMU_PMCCNTR_V3);
    ck_assert_uint_gt(a, 0);
    ck_assert_uint_gt(b, a);
    ck_assert_uint_gt(apb(PMU0 + PP_PMU_PMCCNTR_V3), b);
}
END_TEST

START_TEST(drw_with_single_increment_advances_tar_by_4)
{
    power_up();
    ap_write(AP_CSW, CSW_WORD_INC);
    ap_write(AP_TAR, ROM + 0xFD0);
    for (uint32_t off = 0xFD0; off < 0x1000; off += 4)
        ck_assert_uint_eq(ap_read(AP_DRW), apb(ROM + off));
    /* 0xFFC + 4 wraps to the start of its 1 KB block */
    ck_assert_uint_eq(ap_read(AP_TAR), ROM + 0xC00);
}
END_TEST

START_TEST(tar_auto_increment_wraps_within_the_1kb_block)
{
    power_up();
    ap_write(AP_CSW, CSW_WORD_INC);
    ap_write(AP_TAR, PMU0 + 0x7FC);
    ap_read(AP_DRW);
    ck_assert_uint_eq(ap_read(AP_TAR), PMU0 + 0x400);
}
END_TEST

START_TEST(drw_without_increment_leaves_tar)
{
    power_up();
    ap_write(AP_CSW, CSW_WORD);
    ap_write(AP_TAR, ROM + 0xFF0);
    ck_assert_uint_eq(ap_read(AP_DRW), apb(ROM + 0xFF0));
    ck_assert_uint_eq(ap_read(AP_DRW), apb(ROM + 0xFF0));
    ck_assert_uint_eq(ap_read(AP_TAR), ROM + 0xFF0);
}
END_TEST

START_TEST(banked_registers_reach_the_16_byte_block_without_moving_tar)
{
    power_up();
    ap_write(AP_CSW, CSW_WORD_INC);
    ap_write(AP_TAR, ROM + 0xFF8);
    for (unsigned n = 0; n < 4; n++)
        ck_assert_uint_eq(ap_read(AP_BD(n)), apb(ROM + 0xFF0 + 4 * n));
    ck_assert_uint_eq(ap_read(AP_TAR), ROM + 0xFF8);
}
END_TEST

START_TEST(banked_register_write_reaches_the_apb)
{
    power_up();
    ap_write(AP_CSW, CSW_WORD);
    ap_write(AP_TAR, PMU0 + PP_PMU_PMEVTYPER(0));
    ap_write(AP_BD(1), 0x11);                   /* PMEVTYPER1 */
    ck_assert_uint_eq(apb(PMU0 + PP_PMU_PMEVTYPER(1)), 0x11);
}
END_TEST

START_TEST(csw_keeps_word_size_no_packed_increment_and_device_enabled)
{
    power_up();
    ap_write(AP_CSW, 0xA2000020u);              /* byte, packed: OpenOCD's probe */
    ck_assert_uint_eq(ap_read(AP_CSW), 0xA2000042u);
    ap_write(AP_CSW, 0x00000031u);              /* reserved increment */
    ck_assert_uint_eq(ap_read(AP_CSW), 0x00000052u);
}
END_TEST

START_TEST(absent_ap_reads_zero_and_ignores_writes)
{
    power_up();
    ap_write(AP_TAR, 0x12345678u);
    ck_assert_uint_eq(ap_read(AP_IDR), 0x54770002u);    /* a non-zero latch first */
    ck_assert_uint_eq(ap_read_sel(0, AP_IDR), 0);
    ap_write_sel(0, AP_TAR, 0x1000u);
    ck_assert_uint_eq(ap_read_sel(0, AP_TAR), 0);
    ck_assert_uint_eq(ap_read(AP_TAR), 0x12345678u);
    ck_assert_uint_eq(stats().sticky, 0);
}
END_TEST

START_TEST(ap_access_without_debug_power_sets_stickyerr)
{
    ap_read(AP_IDR);
    ck_assert_uint_eq(dp_read(DP_CTRL) & CS_STICKYERR, CS_STICKYERR);
    ck_assert_uint_eq(stats().sticky, 1);
}
END_TEST

/* ---- errors (spec 7.4) -------------------------------------------------- */

START_TEST(read_of_a_powered_off_cores_pmu_sets_stickyerr)
{
    power_up();
    ap_write(AP_CSW, CSW_WORD_INC);
    ck_assert_int_eq(pp_sim_set_power(rig.sim, 1, false), PP_OK);
    ap_write(AP_TAR, PMU1 + PP_PMU_PMCCNTR_V3);
    /* the ACK is OK all the same: a JTAG-DP shows errors only in CTRL/STAT */
    ck_assert_uint_eq(ack(acc(IR_APACC, AP_DRW, true, 0)), ACK_OK);
    ck_assert_uint_eq(ack(acc(IR_DPACC, DP_RDBUFF, true, 0)), ACK_OK);
    ck_assert_uint_eq(dp_read(DP_CTRL), CS_PWRUP | CS_PWRACK | CS_STICKYERR);
    ck_assert_uint_eq(stats().sticky, 1);
}
END_TEST

START_TEST(apacc_is_discarded_while_stickyerr_is_set)
{
    struct pp_sim_stats before, after;
    uint32_t stale;

    power_up();
    ap_write(AP_CSW, CSW_WORD_INC);
    pp_sim_set_power(rig.sim, 1, false);
    ap_write(AP_TAR, PMU1 + PP_PMU_PMCCNTR_V3);
    ck_assert_uint_eq(ack(acc(IR_APACC, AP_DRW, true, 0)), ACK_OK);
    stale = data(acc(IR_DPACC, DP_RDBUFF, true, 0));
    pp_sim_get_stats(rig.sim, &before);
    ap_write(AP_TAR, ROM + 0xFF0);              /* discarded */
    ck_assert_uint_eq(ap_read(AP_DRW), stale);  /* discarded: stale data */
    pp_sim_get_stats(rig.sim, &after);
    ck_assert_uint_eq(after.reads, before.reads);
    ck_assert_uint_eq(after.writes, before.writes);
    /* DP registers stay accessible, and TAR still names the failing
     * address (no increment on error). */
    ck_assert_uint_eq(dp_read(DP_SELECT), (uint32_t)APSEL << 24);
    dp_write(DP_CTRL, CS_PWRUP | CS_STICKYERR);     /* W1C */
    ck_assert_uint_eq(dp_read(DP_CTRL), CS_PWRUP | CS_PWRACK);
    ck_assert_uint_eq(ap_read(AP_TAR), PMU1 + PP_PMU_PMCCNTR_V3);
    /* the next access works */
    ck_assert_uint_eq(mem_read(ROM + 0xFF0), apb(ROM + 0xFF0));
    pp_sim_set_power(rig.sim, 1, true);
    ck_assert_uint_eq(mem_read(PMU1 + PP_PMU_PMDEVARCH), 0x47702A16u);
    ck_assert_uint_eq(dp_read(DP_CTRL) & CS_STICKYERR, 0);
    ck_assert_uint_eq(stats().sticky, 1);
}
END_TEST

START_TEST(stickyerr_write_without_the_bit_does_not_clear_it)
{
    power_up();
    pp_sim_set_power(rig.sim, 1, false);
    mem_read(PMU1 + PP_PMU_PMCCNTR_V3);
    dp_write(DP_CTRL, CS_PWRUP);
    ck_assert_uint_eq(dp_read(DP_CTRL) & CS_STICKYERR, CS_STICKYERR);
}
END_TEST

START_TEST(address_error_from_the_sim_sets_stickyerr)
{
    power_up();
    ck_assert_int_eq(pp_sim_set_addr_error(rig.sim, DBG0 + PP_DBG_EDPRSR, true), PP_OK);
    mem_read(DBG0 + PP_DBG_EDPRSR);
    ck_assert_uint_eq(dp_read(DP_CTRL) & CS_STICKYERR, CS_STICKYERR);
    dp_write(DP_CTRL, CS_PWRUP | CS_STICKYERR);
    pp_sim_set_addr_error(rig.sim, DBG0 + PP_DBG_EDPRSR, false);
    mem_read(DBG0 + PP_DBG_EDPRSR);
    ck_assert_uint_eq(dp_read(DP_CTRL) & CS_STICKYERR, 0);
}
END_TEST

/* ---- WAIT and overrun --------------------------------------------------- */

START_TEST(scan_through_idle_meets_the_default_apb_time)
{
    power_up();
    select_for(APSEL, AP_TAR);
    ir_scan(IR_APACC);
    ck_assert_uint_eq(ack(acc(IR_APACC, AP_TAR, false, ROM)), ACK_OK);
    ck_assert_uint_eq(ack(acc(IR_APACC, AP_TAR, true, 0)), ACK_OK);    /* k = 4 > 3 */
    ck_assert_uint_eq(stats().waits, 0);
}
END_TEST

START_TEST(direct_update_to_select_path_is_too_soon_for_the_default_apb_time)
{
    uint64_t cap;

    power_up();
    select_for(APSEL, AP_TAR);
    ir_scan(IR_APACC);
    dr_scan_ex(acc_word(AP_TAR, false, ROM), 35, true);
    cap = dr_scan_ex(acc_word(AP_TAR, false, ROM + 4), 35, true);   /* k = 3 */
    ck_assert_uint_eq(ack(cap), ACK_WAIT);
    clk(false, false);
    idle(4);
    ck_assert_uint_eq(ap_read(AP_TAR), ROM);    /* the WAITed write was not done */
    ck_assert_uint_eq(stats().waits, 1);
}
END_TEST

START_TEST(apb_tck_zero_completes_at_once)
{
    power_up();
    pp_simjtag_set_apb_tck(jt, 0);
    select_for(APSEL, AP_TAR);
    ir_scan(IR_APACC);
    dr_scan_ex(acc_word(AP_TAR, false, ROM), 35, true);
    ck_assert_uint_eq(ack(dr_scan_ex(acc_word(AP_TAR, true, 0), 35, true)), ACK_OK);
    ck_assert_uint_eq(data(dr_scan_ex(acc_word(AP_TAR, true, 0), 35, false)), ROM);
}
END_TEST

START_TEST(wait_until_the_host_idles_long_enough)
{
    const unsigned apb_tck = 8;     /* needs apb_tck - 3 = 5 idle clocks */

    power_up();
    pp_simjtag_set_apb_tck(jt, apb_tck);
    select_for(APSEL, AP_TAR);
    ir_scan(IR_APACC);
    pp_simjtag_reset_stats(jt);
    for (unsigned r = 0; r <= apb_tck; r++) {
        ck_assert_uint_eq(ack(acc(IR_APACC, AP_TAR, false, ROM + 4 * r)), ACK_OK);
        idle(r);
        ck_assert_msg(ack(acc(IR_APACC, AP_TAR, false, ROM)) == (r < apb_tck - 3 ? ACK_WAIT : ACK_OK),
                      "idle %u", r);
        idle(apb_tck);
    }
    ck_assert_uint_eq(stats().waits, apb_tck - 3);
    ck_assert_uint_eq(stats().apacc, 2 * (apb_tck + 1) - (apb_tck - 3));
}
END_TEST

START_TEST(dpacc_is_also_answered_wait_while_the_ap_is_busy)
{
    power_up();
    pp_simjtag_set_apb_tck(jt, 20);
    select_for(APSEL, AP_IDR);
    ck_assert_uint_eq(ack(acc(IR_APACC, AP_IDR, true, 0)), ACK_OK);
    ir_scan(IR_DPACC);              /* 10 TCK + 3 into the scan: 13 <= 20 */
    ck_assert_uint_eq(ack(acc(IR_DPACC, DP_RDBUFF, true, 0)), ACK_WAIT);
    idle(10);
    ck_assert_uint_eq(data(acc(IR_DPACC, DP_RDBUFF, true, 0)), 0x54770002u);
}
END_TEST

START_TEST(wait_with_orundetect_sets_stickyorun_and_discards_apacc)
{
    dp_write(DP_CTRL, CS_PWRUP | CS_ORUNDETECT);
    pp_simjtag_set_apb_tck(jt, 10);
    select_for(APSEL, AP_TAR);
    ck_assert_uint_eq(ack(acc(IR_APACC, AP_TAR, false, ROM)), ACK_OK);
    ck_assert_uint_eq(ack(acc(IR_APACC, AP_TAR, false, ROM + 4)), ACK_WAIT);
    idle(10);
    ck_assert_uint_eq(ack(acc(IR_APACC, AP_TAR, false, ROM + 8)), ACK_OK);  /* discarded */
    idle(10);
    ck_assert_uint_eq(dp_read(DP_CTRL), CS_PWRUP | CS_PWRACK | CS_ORUNDETECT | CS_STICKYORUN);
    dp_write(DP_CTRL, CS_PWRUP | CS_ORUNDETECT | CS_STICKYORUN);
    ck_assert_uint_eq(dp_read(DP_CTRL), CS_PWRUP | CS_PWRACK | CS_ORUNDETECT);
    idle_after = 10;
    ck_assert_uint_eq(ap_read(AP_TAR), ROM);
    ck_assert_uint_eq(stats().sticky, 0);       /* STICKYERR never set */
}
END_TEST

START_TEST(wait_without_orundetect_leaves_ctrl_stat_clean)
{
    power_up();
    pp_simjtag_set_apb_tck(jt, 10);
    select_for(APSEL, AP_TAR);
    acc(IR_APACC, AP_TAR, false, ROM);
    ck_assert_uint_eq(ack(acc(IR_APACC, AP_TAR, false, ROM + 4)), ACK_WAIT);
    idle(10);
    ck_assert_uint_eq(dp_read(DP_CTRL), CS_PWRUP | CS_PWRACK);
}
END_TEST

START_TEST(injected_wait_answers_the_next_n_scans)
{
    power_up();
    pp_simjtag_set_wait(jt, 2);
    pp_simjtag_reset_stats(jt);
    ck_assert_uint_eq(ack(acc(IR_DPACC, DP_SELECT, false, 0x01000000u)), ACK_WAIT);
    ck_assert_uint_eq(ack(acc(IR_DPACC, DP_SELECT, false, 0x01000000u)), ACK_WAIT);
    ck_assert_uint_eq(ack(acc(IR_DPACC, DP_SELECT, false, 0x01000010u)), ACK_OK);
    ck_assert_uint_eq(dp_read(DP_SELECT), 0x01000010u);
    ck_assert_uint_eq(stats().waits, 2);
    ck_assert_uint_eq(stats().dpacc, 3);        /* SELECT write, read, RDBUFF */
}
END_TEST

START_TEST(wait_storm_from_the_fault_grammar_waits_at_its_sim_time)
{
    char err[256] = "";

    power_up();
    ck_assert_int_eq(pp_sim_apply_fault(rig.sim, "dp:wait:2@+1ms", err, sizeof(err)), PP_OK);
    ck_assert_uint_eq(ack(acc(IR_DPACC, DP_SELECT, false, 0x01000000u)), ACK_OK);
    pp_sim_advance_ns(rig.sim, 2000000);
    ck_assert_uint_eq(ack(acc(IR_DPACC, DP_SELECT, false, 0x01000000u)), ACK_WAIT);
    ck_assert_uint_eq(ack(acc(IR_DPACC, DP_SELECT, false, 0x01000000u)), ACK_WAIT);
    ck_assert_uint_eq(ack(acc(IR_DPACC, DP_SELECT, false, 0x01000000u)), ACK_OK);
}
END_TEST

START_TEST(overrun_fault_sets_stickyorun_and_discards_apacc_until_cleared)
{
    char err[256] = "";

    dp_write(DP_CTRL, CS_PWRUP | CS_ORUNDETECT);
    idle_after = 10;
    ck_assert_int_eq(pp_sim_apply_fault(rig.sim, "dp:overrun", err, sizeof(err)), PP_OK);
    ck_assert_uint_eq(dp_read(DP_CTRL), CS_PWRUP | CS_PWRACK | CS_ORUNDETECT | CS_STICKYORUN);
    select_for(APSEL, AP_TAR);
    ck_assert_uint_eq(ack(acc(IR_APACC, AP_TAR, false, ROM)), ACK_OK);     /* discarded */
    idle(10);
    dp_write(DP_CTRL, CS_PWRUP | CS_ORUNDETECT | CS_STICKYORUN);
    ck_assert_uint_ne(ap_read(AP_TAR), ROM);
    ap_write(AP_TAR, ROM);
    ck_assert_uint_eq(ap_read(AP_TAR), ROM);
}
END_TEST

START_TEST(dp_faults_go_nowhere_once_the_tap_is_freed)
{
    char err[256] = "";

    pp_simjtag_free(jt);
    jt = NULL;
    ck_assert_int_eq(pp_sim_apply_fault(rig.sim, "dp:overrun", err, sizeof(err)), PP_E_UNSUPPORTED);
    ck_assert_ptr_nonnull(strstr(err, "no JTAG-DP"));
}
END_TEST

START_TEST(injected_wait_is_not_spent_on_scans_that_wait_anyway)
{
    power_up();
    pp_simjtag_set_apb_tck(jt, 10);
    select_for(APSEL, AP_TAR);
    pp_simjtag_set_wait(jt, 1);
    ck_assert_uint_eq(ack(acc(IR_APACC, AP_TAR, false, ROM)), ACK_WAIT);    /* injected */
    ck_assert_uint_eq(ack(acc(IR_APACC, AP_TAR, false, ROM)), ACK_OK);
    ck_assert_uint_eq(ack(acc(IR_APACC, AP_TAR, false, ROM)), ACK_WAIT);    /* busy */
    idle(10);
    ck_assert_uint_eq(ack(acc(IR_APACC, AP_TAR, false, ROM)), ACK_OK);
}
END_TEST

START_TEST(abort_scan_is_accepted_while_busy_and_dapabort_ends_the_access)
{
    uint64_t cap;

    power_up();
    pp_simjtag_set_apb_tck(jt, 1000);
    select_for(APSEL, AP_TAR);
    acc(IR_APACC, AP_TAR, false, ROM);
    cap = acc(IR_ABORT, 0, false, 1u);          /* DAPABORT */
    ck_assert_uint_eq(ack(cap), ACK_OK);
    ck_assert_uint_eq(ack(acc(IR_DPACC, DP_CTRL, true, 0)), ACK_OK);
}
END_TEST

/* ---- SRST ------------------------------------------------------------- */

START_TEST(srst_is_a_warm_reset_of_the_cores_pmu)
{
    uint32_t prsr;

    power_up();
    ck_assert_int_eq(pp_sim_apb_write(rig.sim, PMU0 + PP_PMU_PMCR, PP_PMCR_E), PP_OP_OK);
    apb(DBG0 + PP_DBG_EDPRSR);                  /* clears SR */
    ck_assert_uint_eq(apb(DBG0 + PP_DBG_EDPRSR) & PP_EDPRSR_SR, 0);
    pp_simjtag_reset(jt, false, true);
    pp_simjtag_reset(jt, false, false);
    ck_assert_uint_eq(apb(PMU0 + PP_PMU_PMCR) & PP_PMCR_E, 0);
    prsr = apb(DBG0 + PP_DBG_EDPRSR);
    ck_assert_uint_eq(prsr & PP_EDPRSR_SR, PP_EDPRSR_SR);
    ck_assert_uint_eq(prsr & PP_EDPRSR_OSLK, 0);    /* OS lock: Cold reset only */
    ck_assert_uint_eq(dp_read(DP_CTRL), CS_PWRUP | CS_PWRACK);  /* DP keeps its state */
    ck_assert_uint_eq(stats().srst, 1);
    ck_assert_uint_eq(stats().resets, 0);       /* SRST leaves the TAP alone */
}
END_TEST

/* ---- statistics and cost ------------------------------------------------ */

START_TEST(counters_are_exact_for_a_known_sequence)
{
    struct pp_simjtag_stats s;

    pp_simjtag_reset_stats(jt);
    tlr_to_idle();                              /* 6 TCK, 1 reset entry */
    ir_scan(IR_DPACC);                          /* 10 */
    dp_write(DP_CTRL, CS_PWRUP);                /* 40 */
    dp_write(DP_SELECT, APSEL << 24 | 0xF0u);   /* 40 */
    ir_scan(IR_APACC);                          /* 10 */
    acc(IR_APACC, AP_IDR, true, 0);             /* 40 */
    ir_scan(IR_DPACC);                          /* 10 */
    acc(IR_DPACC, DP_RDBUFF, true, 0);          /* 40 */
    s = stats();
    ck_assert_uint_eq(s.tck, 6 + 3 * 10 + 4 * 40);
    ck_assert_uint_eq(s.ir_scans, 3);
    ck_assert_uint_eq(s.dr_scans, 4);
    ck_assert_uint_eq(s.dpacc, 3);
    ck_assert_uint_eq(s.apacc, 1);
    ck_assert_uint_eq(s.waits, 0);
    ck_assert_uint_eq(s.ap_reads, 0);           /* IDR is not an APB access */
    ck_assert_uint_eq(s.resets, 1);
    pp_simjtag_reset_stats(jt);
    ck_assert_uint_eq(stats().tck, 0);
}
END_TEST

START_TEST(ap_reads_and_writes_count_apb_accesses)
{
    power_up();
    ap_write(AP_CSW, CSW_WORD);
    pp_simjtag_reset_stats(jt);
    mem_read(ROM + 0xFF0);
    ap_write(AP_DRW, 0);                        /* ROM table: write ignored */
    ap_read(AP_BD(0));
    ck_assert_uint_eq(stats().ap_reads, 2);
    ck_assert_uint_eq(stats().ap_writes, 1);
}
END_TEST

START_TEST(one_dr_scan_from_idle_to_idle_costs_40_tck_and_an_ir_scan_10)
{
    uint64_t t0;

    power_up();
    t0 = stats().tck;
    acc(IR_DPACC, DP_RDBUFF, true, 0);
    ck_assert_uint_eq(stats().tck - t0, 40);
    t0 = stats().tck;
    ir_scan(IR_APACC);
    ck_assert_uint_eq(stats().tck - t0, 10);
}
END_TEST

static Suite *simjtag_suite(void)
{
    Suite *s = suite_create("simjtag");
    TCase *tc;

    tc = tcase_create("tap");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, idcode_is_selected_after_tap_reset);
    tcase_add_test(tc, idcode_comes_from_the_target_description);
    tcase_add_test(tc, trst_selects_idcode_again);
    tcase_add_test(tc, tms_reset_selects_idcode_again);
    tcase_add_test(tc, trst_held_keeps_the_tap_in_test_logic_reset);
    tcase_add_test(tc, capture_ir_loads_0001);
    tcase_add_test(tc, bypass_delays_tdi_by_one_bit);
    tcase_add_test(tc, unknown_instruction_selects_bypass);
    tcase_add_test(tc, dr_scan_longer_than_idcode_passes_tdi_through);
    suite_add_tcase(s, tc);

    tc = tcase_create("pins");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, only_a_rising_tck_edge_clocks_the_tap);
    tcase_add_test(tc, tdo_changes_on_the_falling_edge_and_is_valid_before_the_rising_edge);
    tcase_add_test(tc, cycle_returns_what_pins_would_sample);
    suite_add_tcase(s, tc);

    tc = tcase_create("dp");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, dpidr_is_a_dpv1_value_derived_from_the_idcode);
    tcase_add_test(tc, power_up_requests_are_acknowledged);
    tcase_add_test(tc, trncnt_reads_zero_and_orundetect_is_read_write);
    tcase_add_test(tc, select_reads_back_what_was_written);
    tcase_add_test(tc, ctrl_stat_in_another_dp_bank_reads_zero);
    tcase_add_test(tc, every_scan_captures_the_previous_read_result);
    suite_add_tcase(s, tc);

    tc = tcase_create("ap");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, ap_identification_registers);
    tcase_add_test(tc, rom_table_cidr_read_through_apacc_equals_the_apb_value);
    tcase_add_test(tc, pmu_counter_read_through_the_ap_counts);
    tcase_add_test(tc, drw_with_single_increment_advances_tar_by_4);
    tcase_add_test(tc, tar_auto_increment_wraps_within_the_1kb_block);
    tcase_add_test(tc, drw_without_increment_leaves_tar);
    tcase_add_test(tc, banked_registers_reach_the_16_byte_block_without_moving_tar);
    tcase_add_test(tc, banked_register_write_reaches_the_apb);
    tcase_add_test(tc, csw_keeps_word_size_no_packed_increment_and_device_enabled);
    tcase_add_test(tc, absent_ap_reads_zero_and_ignores_writes);
    tcase_add_test(tc, ap_access_without_debug_power_sets_stickyerr);
    suite_add_tcase(s, tc);

    tc = tcase_create("errors");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, read_of_a_powered_off_cores_pmu_sets_stickyerr);
    tcase_add_test(tc, apacc_is_discarded_while_stickyerr_is_set);
    tcase_add_test(tc, stickyerr_write_without_the_bit_does_not_clear_it);
    tcase_add_test(tc, address_error_from_the_sim_sets_stickyerr);
    suite_add_tcase(s, tc);

    tc = tcase_create("wait");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, scan_through_idle_meets_the_default_apb_time);
    tcase_add_test(tc, direct_update_to_select_path_is_too_soon_for_the_default_apb_time);
    tcase_add_test(tc, apb_tck_zero_completes_at_once);
    tcase_add_test(tc, wait_until_the_host_idles_long_enough);
    tcase_add_test(tc, dpacc_is_also_answered_wait_while_the_ap_is_busy);
    tcase_add_test(tc, wait_with_orundetect_sets_stickyorun_and_discards_apacc);
    tcase_add_test(tc, wait_without_orundetect_leaves_ctrl_stat_clean);
    tcase_add_test(tc, injected_wait_answers_the_next_n_scans);
    tcase_add_test(tc, wait_storm_from_the_fault_grammar_waits_at_its_sim_time);
    tcase_add_test(tc, overrun_fault_sets_stickyorun_and_discards_apacc_until_cleared);
    tcase_add_test(tc, dp_faults_go_nowhere_once_the_tap_is_freed);
    tcase_add_test(tc, injected_wait_is_not_spent_on_scans_that_wait_anyway);
    tcase_add_test(tc, abort_scan_is_accepted_while_busy_and_dapabort_ends_the_access);
    suite_add_tcase(s, tc);

    tc = tcase_create("reset");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, srst_is_a_warm_reset_of_the_cores_pmu);
    suite_add_tcase(s, tc);

    tc = tcase_create("stats");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, counters_are_exact_for_a_known_sequence);
    tcase_add_test(tc, ap_reads_and_writes_count_apb_accesses);
    tcase_add_test(tc, one_dr_scan_from_idle_to_idle_costs_40_tck_and_an_ir_scan_10);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(simjtag_suite());
    int failed;

    srunner_run_all(sr, CK_NORMAL);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

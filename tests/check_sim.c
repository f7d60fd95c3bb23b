/*
 * check_sim.c - the simulated SoC against spec/arm-pmu-coresight.md.
 *
 * Two targets are built by hand here:
 *  v8: top ROM table class 0x1 at 0x80400000;
 *      cluster 0 (class 0x9, 0x81000000): cpu0 A76 in slot 0, slot 1 empty,
 *      cpu1 A76 (64-bit event counters) in slot 2;
 *      cluster 1 (class 0x1, 0x80000000, below the top table): cpu2 A53.
 *  v7: top ROM class 0x1, one class 0x1 cluster with cpu0 A9 (PMUv2).
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "pmu/catalog.h"
#include "pmu/coretype.h"
#include "pmu/regs.h"
#include "sim/sim.h"
#include "fixture.h"

#define TOP_ROM   0x80400000u
#define CL0_ROM   0x81000000u
#define CL1_ROM   0x80000000u
#define A76_DBG(s)  (CL0_ROM + 0x10000u + 0x100000u * (s))
#define A76_CTI(s)  (CL0_ROM + 0x20000u + 0x100000u * (s))
#define A76_PMU(s)  (CL0_ROM + 0x30000u + 0x100000u * (s))
#define A53_DBG   (CL1_ROM + 0x10000u)
#define A53_CTI   (CL1_ROM + 0x20000u)
#define A53_PMU   (CL1_ROM + 0x30000u)
#define PMU0      A76_PMU(0)
#define DBG0      A76_DBG(0)

#define V7_TOP    0x80000000u
#define V7_ROM    0x80080000u
#define A9_DBG    0x80090000u
#define A9_PMU    0x80091000u
#define A9_CTI    0x80098000u

#define ACCESS_NS 100u

static struct pp_target *tgt;
static struct pp_sim *sim;

static const struct pp_workload test_wl = {
    .clock_mhz = 2000, .ipc = 1.5, .l1d_pki = 350, .l1d_mpki = 12, .l1i_mpki = 4,
    .l2d_pki = 30, .l2d_mpki = 3, .br_pki = 180, .br_mpki = 6, .tlb_mpki = 1.5,
    .stall_fe = 0.12, .stall_be = 0.25, .phase_us = 50, .swing = 0.3, .seed = 42,
};

static struct pp_target *v8_target(void)
{
    struct pp_target *t = fx_target("test-v8", TOP_ROM, 0x1, 0x4B5, ACCESS_NS);

    fx_add_cluster(t, CL0_ROM, 0x9, 0x4E4, 3);
    fx_add_cluster(t, CL1_ROM, 0x1, 0x4A1, 1);
    fx_add_core(t, "cortex-a76", 0, 0, A76_DBG(0), A76_PMU(0), A76_CTI(0), 0x81000000u, &test_wl);
    fx_add_core(t, "cortex-a76", 0, 2, A76_DBG(2), A76_PMU(2), A76_CTI(2), 0x81000200u, &test_wl);
    t->cores[1].counter64 = true;
    fx_add_core(t, "cortex-a53", 1, 0, A53_DBG, A53_PMU, A53_CTI, 0x1000000000ull | 0x80000100u,
                &test_wl);
    return t;
}

static struct pp_target *v7_target(void)
{
    struct pp_target *t = fx_target("test-v7", V7_TOP, 0x1, 0x4B6, ACCESS_NS);

    fx_add_cluster(t, V7_ROM, 0x1, 0x4A9, 1);
    fx_add_core(t, "cortex-a9", 0, 0, A9_DBG, A9_PMU, A9_CTI, 0, &test_wl);
    return t;
}

static void start(struct pp_target *t)
{
    char err[256] = "";

    tgt = t;
    sim = pp_sim_new(tgt, err, sizeof(err));
    ck_assert_msg(sim != NULL, "pp_sim_new: %s", err);
}

static void v8_up(void)
{
    start(v8_target());
}

static void v7_up(void)
{
    start(v7_target());
}

static void sim_down(void)
{
    pp_sim_free(sim);
    free(tgt);
    sim = NULL;
    tgt = NULL;
}

static uint32_t rd(uint32_t addr)
{
    uint32_t v = 0xDEADBEEF;

    ck_assert_int_eq(pp_sim_apb_read(sim, addr, &v), PP_OP_OK);
    return v;
}

static void wr(uint32_t addr, uint32_t v)
{
    ck_assert_int_eq(pp_sim_apb_write(sim, addr, v), PP_OP_OK);
}

static int rd_st(uint32_t addr)
{
    uint32_t v;

    return pp_sim_apb_read(sim, addr, &v);
}

static uint32_t rom_target(uint32_t table, uint32_t entry)
{
    return table + (entry & 0xFFFFF000u);
}

/* Program counter n with an event and start everything counting. */
static void count_event(uint32_t pmu, unsigned n, uint32_t typer)
{
    wr(pmu + PP_PMU_PMEVTYPER(n), typer);
    wr(pmu + PP_PMU_PMCNTENSET, 1u << n);
    wr(pmu + PP_PMU_PMCR, PP_PMCR_E);
}

/* ---- ROM tables ------------------------------------------------------------ */

START_TEST(top_rom_table_lists_each_cluster_table_then_end_marker)
{
    uint32_t e0 = rd(TOP_ROM), e1 = rd(TOP_ROM + 4);

    ck_assert_uint_eq(e0 & 3u, 3u);
    ck_assert_uint_eq(rom_target(TOP_ROM, e0), CL0_ROM);
    ck_assert_uint_eq(e1 & 3u, 3u);
    ck_assert_uint_eq(rom_target(TOP_ROM, e1), CL1_ROM);
    ck_assert_uint_eq(rd(TOP_ROM + 8), 0);
}
END_TEST

START_TEST(rom_entry_below_its_table_has_a_negative_offset)
{
    uint32_t e1 = rd(TOP_ROM + 4);

    ck_assert_int_lt((int32_t)(e1 & 0xFFFFF000u), 0);
    ck_assert_uint_eq(e1, 0xFFC00003u);
}
END_TEST

START_TEST(class9_cluster_table_lists_debug_cti_pmu_of_each_slot)
{
    ck_assert_uint_eq(rd(CL0_ROM + 0x0), 0x00010003u);
    ck_assert_uint_eq(rd(CL0_ROM + 0x4), 0x00020003u);
    ck_assert_uint_eq(rd(CL0_ROM + 0x8), 0x00030003u);
    ck_assert_uint_eq(rom_target(CL0_ROM, rd(CL0_ROM + 0x18)), A76_DBG(2));
    ck_assert_uint_eq(rom_target(CL0_ROM, rd(CL0_ROM + 0x1C)), A76_CTI(2));
    ck_assert_uint_eq(rom_target(CL0_ROM, rd(CL0_ROM + 0x20)), A76_PMU(2));
}
END_TEST

START_TEST(empty_slot_reads_as_not_present_entries_before_the_end_marker)
{
    for (uint32_t i = 3; i < 6; i++)
        ck_assert_uint_eq(rd(CL0_ROM + 4 * i), 0x00000002u);
    ck_assert_uint_eq(rd(CL0_ROM + 0x24), 0);
}
END_TEST

START_TEST(class1_cluster_table_lists_its_core_then_end_marker)
{
    ck_assert_uint_eq(rom_target(CL1_ROM, rd(CL1_ROM + 0x0)), A53_DBG);
    ck_assert_uint_eq(rom_target(CL1_ROM, rd(CL1_ROM + 0x4)), A53_CTI);
    ck_assert_uint_eq(rom_target(CL1_ROM, rd(CL1_ROM + 0x8)), A53_PMU);
    ck_assert_uint_eq(rd(CL1_ROM + 0x8) & 3u, 3u);
    ck_assert_uint_eq(rd(CL1_ROM + 0xC), 0);
}
END_TEST

START_TEST(class9_rom_table_has_devarch_devid_format0_and_devtype_0)
{
    ck_assert_uint_eq(rd(CL0_ROM + 0xFBC), 0x47700AF7u);
    ck_assert_uint_eq(rd(CL0_ROM + 0xFC8), 0);
    ck_assert_uint_eq(rd(CL0_ROM + 0xFCC), 0);
    ck_assert_uint_eq(rd(CL0_ROM + 0xFF4), 0x90);
    ck_assert_uint_eq(rd(CL0_ROM + 0xFE0), 0xE4);
    ck_assert_uint_eq(rd(CL0_ROM + 0xFE4), 0xB4);
}
END_TEST

START_TEST(class1_rom_table_cidr_is_b105100d_without_devarch)
{
    ck_assert_uint_eq(rd(TOP_ROM + 0xFF0), 0x0D);
    ck_assert_uint_eq(rd(TOP_ROM + 0xFF4), 0x10);
    ck_assert_uint_eq(rd(TOP_ROM + 0xFF8), 0x05);
    ck_assert_uint_eq(rd(TOP_ROM + 0xFFC), 0xB1);
    ck_assert_uint_eq(rd(TOP_ROM + 0xFBC), 0);
}
END_TEST

/* ---- identification ------------------------------------------------------------ */

START_TEST(debug_block_has_component_cidr_arm_pidr_devarch_and_devtype)
{
    ck_assert_uint_eq(rd(DBG0 + 0xFF4), 0x90);
    ck_assert_uint_eq(rd(DBG0 + 0xFFC), 0xB1);
    ck_assert_uint_eq(rd(DBG0 + 0xFE0), 0x0B);
    ck_assert_uint_eq(rd(DBG0 + 0xFE4), 0xBD);
    ck_assert_uint_eq(rd(DBG0 + 0xFE8), 0x0B);
    ck_assert_uint_eq(rd(DBG0 + 0xFEC), 0x00);
    ck_assert_uint_eq(rd(DBG0 + 0xFD0), 0x04);
    ck_assert_uint_eq(rd(DBG0 + PP_DBG_EDDEVARCH), 0x47708A15u);
    ck_assert_uint_eq(rd(DBG0 + 0xFCC), 0x15);
    ck_assert_uint_eq(rd(A53_DBG + PP_DBG_EDDEVARCH), 0x47706A15u);
}
END_TEST

START_TEST(pmu_block_has_its_part_number_pmdevarch_and_pmdevtype)
{
    ck_assert_uint_eq(rd(A53_PMU + 0xFE0), 0xD3);
    ck_assert_uint_eq(rd(A53_PMU + 0xFE4), 0xB9);
    ck_assert_uint_eq(rd(A53_PMU + PP_PMU_PMDEVARCH), 0x47702A16u);
    ck_assert_uint_eq(rd(A53_PMU + PP_PMU_PMDEVTYPE), 0x16);
    ck_assert_uint_eq(rd(A53_PMU + 0xFF4), 0x90);
}
END_TEST

START_TEST(cti_block_is_an_id_only_stub_with_devarch_and_devtype)
{
    ck_assert_uint_eq(rd(A53_CTI + 0xFE0), 0xA8);
    ck_assert_uint_eq(rd(A53_CTI + 0xFE4), 0xB9);
    ck_assert_uint_eq(rd(A53_CTI + 0xFBC), 0x47701A14u);
    ck_assert_uint_eq(rd(A53_CTI + 0xFCC), 0x14);
    ck_assert_uint_eq(rd(A53_CTI + 0x000), 0);
}
END_TEST

START_TEST(devaff_of_debug_pmu_and_cti_equals_mpidr)
{
    ck_assert_uint_eq(rd(A53_DBG + PP_DBG_EDDEVAFF0), 0x80000100u);
    ck_assert_uint_eq(rd(A53_DBG + PP_DBG_EDDEVAFF0 + 4), 0x10);
    ck_assert_uint_eq(rd(A53_PMU + PP_PMU_PMDEVAFF0), 0x80000100u);
    ck_assert_uint_eq(rd(A53_PMU + PP_PMU_PMDEVAFF0 + 4), 0x10);
    ck_assert_uint_eq(rd(A53_CTI + 0xFA8), 0x80000100u);
    ck_assert_uint_eq(rd(A76_PMU(2) + PP_PMU_PMDEVAFF0), 0x81000200u);
}
END_TEST

START_TEST(devaff_zero_makes_the_devaff_of_all_three_blocks_read_0)
{
    sim_down();
    tgt = v8_target();
    tgt->cores[2].devaff_zero = true;
    start(tgt);
    ck_assert_uint_eq(rd(A53_DBG + PP_DBG_EDDEVAFF0), 0);
    ck_assert_uint_eq(rd(A53_DBG + PP_DBG_EDDEVAFF0 + 4), 0);
    ck_assert_uint_eq(rd(A53_PMU + PP_PMU_PMDEVAFF0), 0);
    ck_assert_uint_eq(rd(A53_PMU + PP_PMU_PMDEVAFF0 + 4), 0);
    ck_assert_uint_eq(rd(A53_CTI + 0xFA8), 0);
    ck_assert_uint_eq(rd(A76_PMU(2) + PP_PMU_PMDEVAFF0), 0x81000200u);
}
END_TEST

/* MIDR fields: implementer [31:24], architecture [19:16] = 0xF, part
 * [15:4].  data/arm-pmu/cpus.json: Cortex-A76 cpuid 0x41d0b, Cortex-A53
 * 0x41d03 (implementer 65 = 0x41, Arm). */
static void expect_midr_part(uint32_t midr, uint16_t part)
{
    ck_assert_uint_eq(midr >> 24, 0x41);
    ck_assert_uint_eq(midr >> 16 & 0xFu, 0xF);
    ck_assert_uint_eq(midr >> 4 & 0xFFFu, part);
}

START_TEST(midr_reads_arm_and_the_part_number_of_each_core)
{
    expect_midr_part(rd(DBG0 + PP_DBG_MIDR), 0xD0B);
    expect_midr_part(rd(A53_DBG + PP_DBG_MIDR), 0xD03);
}
END_TEST

/* Breakpoint, watchpoint and context-aware counts, minus one, as a
 * debugger decodes them (OpenOCD reports "hardware has N breakpoints"). */
static void expect_counts(uint32_t v, unsigned wrp_lsb, unsigned brp_lsb, unsigned ctx_lsb)
{
    ck_assert_uint_eq(((v >> brp_lsb) & 0xFu) + 1, 6);
    ck_assert_uint_eq(((v >> wrp_lsb) & 0xFu) + 1, 4);
    ck_assert_uint_eq(((v >> ctx_lsb) & 0xFu) + 1, 2);
}

/* EDDFR at 0xD28 (Arm ARM H9.2.24): the TRMs' ID_AA64DFR0_EL1 without
 * DebugVer; PMUVer 1 (PMUv3) on the A53, 4 (PMUv3p1) on the A76. */
START_TEST(eddfr_gives_the_trm_breakpoint_and_watchpoint_counts)
{
    ck_assert_uint_eq(rd(A53_DBG + 0xD28), 0x10305100u);
    ck_assert_uint_eq(rd(DBG0 + 0xD28), 0x10305400u);
    expect_counts(rd(A53_DBG + 0xD28), 20, 12, 28);
    ck_assert_uint_eq(rd(A53_DBG + 0xD2C), 0);
    pp_sim_set_power(sim, 2, false);
    ck_assert_int_eq(rd_st(A53_DBG + 0xD28), PP_OP_SLVERR);
}
END_TEST

START_TEST(pmdevid_reports_pc_sampling)
{
    ck_assert_uint_eq(rd(PMU0 + PP_PMU_PMDEVID), 1);
    ck_assert_uint_eq(rd(A53_PMU + PP_PMU_PMDEVID), 0);
}
END_TEST

/* Bit n of PMCEID0..3 is common event 0x0000/0x0020/0x4000/0x4020 + n
 * (spec 1.3), set for the events the core's file in data/arm-pmu/pmu lists:
 * cortex-a76.json has 0x00-0x05, 0x08-0x0B, 0x10-0x1E, 0x20-0x26, 0x29-0x2B,
 * 0x2D, 0x2F, 0x31, 0x34-0x37 and nothing from 0x4000; cortex-a53.json has
 * 0x00-0x1A, 0x1D, 0x1E and nothing from 0x20.  The A53 (PMUv3, not v3p1)
 * has no PMCEID2/3: RES0 (seed 002). */
START_TEST(pmceid_registers_advertise_the_events_of_the_core_data)
{
    static const uint32_t a76[4] = { 0x7FFF0F3Fu, 0x00F2AE7Fu, 0, 0 };

    for (unsigned n = 0; n < 4; n++)
        ck_assert_uint_eq(rd(PMU0 + PP_PMU_PMCEID(n)), a76[n]);
    ck_assert_uint_eq(rd(A53_PMU + PP_PMU_PMCEID(0)), 0x67FFFFFFu);
    ck_assert_uint_eq(rd(A53_PMU + PP_PMU_PMCEID(1)), 0);
    ck_assert_uint_eq(rd(A53_PMU + PP_PMU_PMCEID(2)), 0);
}
END_TEST

/* PMCFGR, spec 1.3: NCG [31:28] 0, SS [22] (the A76's IMP DEF snapshot),
 * UEN/WT/NA [19:17] RAZ, CCD [15] RES1 with AArch32 (both cores have it),
 * CC [14] RAO, SIZE [13:8] 0b111111, N [7:0]: six counters on both (TRM-A76,
 * TRM-A53). */
START_TEST(pmcfgr_reports_the_fields_the_spec_gives)
{
    const uint32_t fixed = 0xF0000000u | 1u << 22 | 7u << 17 | 1u << 15 | 1u << 14 |
                           0x3Fu << 8 | 0xFFu;
    uint32_t a76 = rd(PMU0 + PP_PMU_PMCFGR), a53 = rd(A53_PMU + PP_PMU_PMCFGR);

    ck_assert_uint_eq(a76 & fixed, 1u << 22 | 1u << 15 | 1u << 14 | 0x3Fu << 8 | 6u);
    ck_assert_uint_eq(a53 & fixed, 1u << 15 | 1u << 14 | 0x3Fu << 8 | 6u);
}
END_TEST

START_TEST(authstatus_encodes_the_authentication_signals)
{
    ck_assert_uint_eq(rd(DBG0 + PP_DBG_AUTHSTATUS), 0xFF);
    ck_assert_uint_eq(rd(PMU0 + PP_PMU_PMAUTHSTATUS), 0xCC);
    pp_sim_set_auth(sim, 0, PP_AUTH_DBGEN | PP_AUTH_NIDEN);
    ck_assert_uint_eq(rd(DBG0 + PP_DBG_AUTHSTATUS), 0xAF);
    ck_assert_uint_eq(rd(PMU0 + PP_PMU_PMAUTHSTATUS), 0x8C);
    pp_sim_set_auth(sim, 0, 0);
    ck_assert_uint_eq(rd(DBG0 + PP_DBG_AUTHSTATUS), 0xAA);
}
END_TEST

/* ---- EDPRSR, power, OS lock --------------------------------------------------------- */

START_TEST(edprsr_after_cold_reset_with_os_lock_reads_2b_then_21)
{
    pp_sim_set_power(sim, 0, false);
    pp_sim_set_power(sim, 0, true);
    ck_assert_uint_eq(rd(DBG0 + PP_DBG_EDPRSR), 0x2B);
    ck_assert_uint_eq(rd(DBG0 + PP_DBG_EDPRSR), 0x21);
}
END_TEST

START_TEST(edprsr_sticky_bits_do_not_clear_on_read_while_powered_down)
{
    pp_sim_set_power(sim, 0, false);
    ck_assert_uint_eq(rd(DBG0 + PP_DBG_EDPRSR) & (PP_EDPRSR_PU | PP_EDPRSR_SPD), PP_EDPRSR_SPD);
    ck_assert_uint_eq(rd(DBG0 + PP_DBG_EDPRSR) & PP_EDPRSR_SPD, PP_EDPRSR_SPD);
}
END_TEST

START_TEST(oslar_write_of_zero_clears_the_os_lock)
{
    pp_sim_set_oslock(sim, 0, true);
    ck_assert_int_eq(rd_st(PMU0 + PP_PMU_PMCR), PP_OP_SLVERR);
    wr(DBG0 + PP_DBG_OSLAR, 0);
    ck_assert_uint_eq(rd(DBG0 + PP_DBG_EDPRSR) & PP_EDPRSR_OSLK, 0);
    ck_assert_int_eq(rd_st(PMU0 + PP_PMU_PMCR), PP_OP_OK);
    wr(DBG0 + PP_DBG_OSLAR, 1);
    ck_assert_uint_eq(rd(DBG0 + PP_DBG_EDPRSR) & PP_EDPRSR_OSLK, PP_EDPRSR_OSLK);
}
END_TEST

START_TEST(oslar_write_with_dbgen_low_on_armv8_2_errors_and_sets_sdad)
{
    pp_sim_set_oslock(sim, 0, true);
    pp_sim_set_auth(sim, 0, PP_AUTH_NIDEN);
    ck_assert_int_eq(pp_sim_apb_write(sim, DBG0 + PP_DBG_OSLAR, 0), PP_OP_SLVERR);
    ck_assert_uint_eq(rd(DBG0 + PP_DBG_EDPRSR) & (PP_EDPRSR_SDAD | PP_EDPRSR_OSLK),
                      PP_EDPRSR_SDAD | PP_EDPRSR_OSLK);
    ck_assert_uint_eq(rd(DBG0 + PP_DBG_EDPRSR) & PP_EDPRSR_SDAD, 0);
}
END_TEST

START_TEST(corepurq_write_powers_up_a_powered_down_core)
{
    pp_sim_set_power(sim, 0, false);
    ck_assert_uint_eq(rd(DBG0 + PP_DBG_EDPRSR) & PP_EDPRSR_PU, 0);
    wr(DBG0 + PP_DBG_EDPRCR, 1u << 3);
    ck_assert_uint_eq(rd(DBG0 + PP_DBG_EDPRSR), 0x2B);
    ck_assert_uint_eq(rd(DBG0 + PP_DBG_EDPRCR), 1u << 3);
}
END_TEST

START_TEST(simulated_os_clears_the_os_lock_after_os_unlock_us)
{
    tgt->cores[0].init.os_unlock_us = 50;
    pp_sim_free(sim);
    start(tgt);
    pp_sim_set_power(sim, 0, false);
    pp_sim_set_power(sim, 0, true);
    ck_assert_uint_eq(rd(DBG0 + PP_DBG_EDPRSR) & PP_EDPRSR_OSLK, PP_EDPRSR_OSLK);
    pp_sim_advance_ns(sim, 49000);
    ck_assert_uint_eq(rd(DBG0 + PP_DBG_EDPRSR) & PP_EDPRSR_OSLK, PP_EDPRSR_OSLK);
    pp_sim_advance_ns(sim, 1000);
    ck_assert_uint_eq(rd(DBG0 + PP_DBG_EDPRSR), PP_EDPRSR_PU);
}
END_TEST

START_TEST(edscr_reports_running_and_halted_status)
{
    ck_assert_uint_eq(rd(DBG0 + PP_DBG_EDSCR) & 0x3F, 0x02);
    pp_sim_set_halted(sim, 0, true);
    ck_assert_uint_eq(rd(DBG0 + PP_DBG_EDSCR) & 0x3F, 0x13);
    ck_assert_uint_eq(rd(DBG0 + PP_DBG_EDPRSR) & PP_EDPRSR_HALTED, PP_EDPRSR_HALTED);
}
END_TEST

START_TEST(claim_tags_set_and_clear)
{
    wr(DBG0 + PP_DBG_CLAIMSET, 0x105);
    ck_assert_uint_eq(rd(DBG0 + PP_DBG_CLAIMCLR), 0x05);
    wr(DBG0 + PP_DBG_CLAIMCLR, 0x01);
    ck_assert_uint_eq(rd(DBG0 + PP_DBG_CLAIMCLR), 0x04);
    ck_assert_uint_eq(rd(DBG0 + PP_DBG_CLAIMSET), 0xFF);
}
END_TEST

/* ---- access conditions in the architecture's order ----------------------------------------- */

START_TEST(read_of_pmu_counter_on_powered_down_core_gets_error_response)
{
    pp_sim_set_power(sim, 0, false);
    ck_assert_int_eq(rd_st(PMU0 + PP_PMU_PMCCNTR_V3), PP_OP_SLVERR);
    ck_assert_int_eq(pp_sim_apb_write(sim, PMU0 + PP_PMU_PMCR, 1), PP_OP_SLVERR);
}
END_TEST

START_TEST(power_off_beats_epmad_so_spmad_stays_clear)
{
    pp_sim_set_epmad(sim, 0, true);
    pp_sim_set_auth(sim, 0, PP_AUTH_DBGEN | PP_AUTH_NIDEN);
    rd(DBG0 + PP_DBG_EDPRSR);
    pp_sim_set_power(sim, 0, false);
    ck_assert_int_eq(rd_st(PMU0 + PP_PMU_PMCR), PP_OP_SLVERR);
    ck_assert_uint_eq(rd(DBG0 + PP_DBG_EDPRSR) & PP_EDPRSR_SPMAD, 0);
}
END_TEST

START_TEST(double_lock_beats_os_lock_and_epmad)
{
    pp_sim_set_doublelock(sim, 2, true);
    pp_sim_set_oslock(sim, 2, true);
    pp_sim_set_epmad(sim, 2, true);
    pp_sim_set_auth(sim, 2, PP_AUTH_DBGEN | PP_AUTH_NIDEN);
    rd(A53_DBG + PP_DBG_EDPRSR);
    ck_assert_int_eq(rd_st(A53_PMU + PP_PMU_PMCR), PP_OP_SLVERR);
    /* OSLAR ignores the OS lock but not the double lock */
    ck_assert_int_eq(pp_sim_apb_write(sim, A53_DBG + PP_DBG_OSLAR, 0), PP_OP_SLVERR);
    ck_assert_uint_eq(rd(A53_DBG + PP_DBG_EDPRSR) & (PP_EDPRSR_DLK | PP_EDPRSR_SPMAD), PP_EDPRSR_DLK);
}
END_TEST

START_TEST(double_lock_does_not_apply_while_corenpdrq_is_set)
{
    pp_sim_set_doublelock(sim, 2, true);
    ck_assert_int_eq(rd_st(A53_PMU + PP_PMU_PMCR), PP_OP_SLVERR);
    pp_sim_set_doublelock(sim, 2, false);
    wr(A53_DBG + PP_DBG_EDPRCR, 1);
    pp_sim_set_doublelock(sim, 2, true);
    ck_assert_int_eq(rd_st(A53_PMU + PP_PMU_PMCR), PP_OP_OK);
}
END_TEST

START_TEST(os_lock_beats_epmad_so_spmad_stays_clear)
{
    pp_sim_set_oslock(sim, 0, true);
    pp_sim_set_epmad(sim, 0, true);
    pp_sim_set_auth(sim, 0, PP_AUTH_DBGEN | PP_AUTH_NIDEN);
    rd(DBG0 + PP_DBG_EDPRSR);
    ck_assert_int_eq(rd_st(PMU0 + PP_PMU_PMCR), PP_OP_SLVERR);
    ck_assert_uint_eq(rd(DBG0 + PP_DBG_EDPRSR) & PP_EDPRSR_SPMAD, 0);
}
END_TEST

START_TEST(epmad_alone_errors_and_sets_spmad_which_a_read_clears)
{
    pp_sim_set_epmad(sim, 0, true);
    pp_sim_set_auth(sim, 0, PP_AUTH_DBGEN | PP_AUTH_NIDEN);
    rd(DBG0 + PP_DBG_EDPRSR);
    ck_assert_int_eq(rd_st(PMU0 + PP_PMU_PMCR), PP_OP_SLVERR);
    ck_assert_uint_eq(rd(DBG0 + PP_DBG_EDPRSR) & (PP_EDPRSR_SPMAD | PP_EDPRSR_EPMAD),
                      PP_EDPRSR_SPMAD | PP_EDPRSR_EPMAD);
    ck_assert_uint_eq(rd(DBG0 + PP_DBG_EDPRSR) & PP_EDPRSR_SPMAD, 0);
}
END_TEST

START_TEST(epmad_is_overridden_by_secure_noninvasive_debug)
{
    pp_sim_set_epmad(sim, 0, true);
    ck_assert_int_eq(rd_st(PMU0 + PP_PMU_PMCR), PP_OP_OK);
    ck_assert_uint_eq(rd(DBG0 + PP_DBG_EDPRSR) & PP_EDPRSR_EPMAD, 0);
}
END_TEST

START_TEST(pmu_access_is_refused_without_dbgen_or_niden)
{
    pp_sim_set_auth(sim, 0, PP_AUTH_SPIDEN | PP_AUTH_SPNIDEN);
    ck_assert_int_eq(rd_st(PMU0 + PP_PMU_PMCR), PP_OP_SLVERR);
    pp_sim_set_auth(sim, 0, PP_AUTH_NIDEN);
    ck_assert_int_eq(rd_st(PMU0 + PP_PMU_PMCR), PP_OP_OK);
}
END_TEST

START_TEST(pc_sample_registers_ignore_epmad_but_not_the_os_lock)
{
    pp_sim_set_epmad(sim, 0, true);
    pp_sim_set_auth(sim, 0, PP_AUTH_DBGEN | PP_AUTH_NIDEN);
    ck_assert_int_eq(rd_st(PMU0 + PP_PMU_PMPCSR), PP_OP_OK);
    pp_sim_set_oslock(sim, 0, true);
    ck_assert_int_eq(rd_st(PMU0 + PP_PMU_PMPCSR), PP_OP_SLVERR);
}
END_TEST

START_TEST(snapshot_registers_ignore_the_os_lock_but_not_power_off)
{
    pp_sim_set_oslock(sim, 0, true);
    ck_assert_int_eq(rd_st(PMU0 + 0x610), PP_OP_OK);
    ck_assert_int_eq(pp_sim_apb_write(sim, PMU0 + PP_PMU_PMSSCR_IMPDEF, 1), PP_OP_OK);
    pp_sim_set_power(sim, 0, false);
    ck_assert_int_eq(rd_st(PMU0 + 0x610), PP_OP_SLVERR);
}
END_TEST

START_TEST(management_registers_answer_with_the_core_off)
{
    pp_sim_set_power(sim, 0, false);
    ck_assert_uint_eq(rd(PMU0 + PP_PMU_PMDEVTYPE), 0x16);
    ck_assert_uint_eq(rd(PMU0 + 0xFF0), 0x0D);
    ck_assert_uint_eq(rd(PMU0 + PP_PMU_PMAUTHSTATUS), 0xCC);
    ck_assert_uint_eq(rd(DBG0 + PP_DBG_EDDEVARCH), 0x47708A15u);
    ck_assert_uint_eq(rd(DBG0 + PP_DBG_EDDEVAFF0), 0x81000000u);
}
END_TEST

START_TEST(edprsr_and_edprcr_answer_with_the_core_off)
{
    pp_sim_set_power(sim, 0, false);
    ck_assert_int_eq(rd_st(DBG0 + PP_DBG_EDPRSR), PP_OP_OK);
    ck_assert_int_eq(rd_st(DBG0 + PP_DBG_EDPRCR), PP_OP_OK);
}
END_TEST

START_TEST(core_domain_debug_registers_error_with_the_core_off)
{
    pp_sim_set_power(sim, 0, false);
    ck_assert_int_eq(rd_st(DBG0 + PP_DBG_EDSCR), PP_OP_SLVERR);
    ck_assert_int_eq(rd_st(DBG0 + PP_DBG_MIDR), PP_OP_SLVERR);
    ck_assert_int_eq(rd_st(DBG0 + PP_DBG_CLAIMCLR), PP_OP_SLVERR);
    ck_assert_int_eq(pp_sim_apb_write(sim, DBG0 + PP_DBG_OSLAR, 0), PP_OP_SLVERR);
}
END_TEST

START_TEST(os_lock_blocks_edscr_but_not_midr)
{
    pp_sim_set_oslock(sim, 0, true);
    ck_assert_int_eq(rd_st(DBG0 + PP_DBG_EDSCR), PP_OP_SLVERR);
    ck_assert_int_eq(rd_st(DBG0 + PP_DBG_MIDR), PP_OP_OK);
}
END_TEST

START_TEST(reserved_pmu_offsets_read_zero_and_ignore_writes)
{
    wr(PMU0 + 0x300, 0x1234);
    ck_assert_uint_eq(rd(PMU0 + 0x300), 0);
    ck_assert_uint_eq(rd(PMU0 + PP_PMU_PMEVCNTR_V3(0) + 4), 0);     /* no 64-bit counters */
    ck_assert_uint_eq(rd(PMU0 + 0xF40), 0);
}
END_TEST

START_TEST(unmapped_address_gets_error_response)
{
    ck_assert_int_eq(rd_st(0x90000000u), PP_OP_SLVERR);
    ck_assert_int_eq(pp_sim_apb_write(sim, 0x90000000u, 1), PP_OP_SLVERR);
    ck_assert_int_eq(rd_st(A76_DBG(1)), PP_OP_SLVERR);              /* the empty slot */
}
END_TEST

/* ---- counting ------------------------------------------------------------------- */

START_TEST(counter_counts_exactly_the_workload_total_between_enable_and_read)
{
    uint64_t a, b;
    uint32_t v;

    wr(PMU0 + PP_PMU_PMCR, PP_PMCR_E);
    wr(PMU0 + PP_PMU_PMEVTYPER(0), 0x08);
    wr(PMU0 + PP_PMU_PMCNTENSET, 1);
    a = pp_sim_event_total(sim, 0, 0x08);
    pp_sim_advance_ns(sim, 1234567);
    v = rd(PMU0 + PP_PMU_PMEVCNTR_V3(0));
    b = pp_sim_event_total(sim, 0, 0x08);
    ck_assert_uint_gt(b, a);
    ck_assert_uint_eq(v, (uint32_t)(b - a));
}
END_TEST

START_TEST(counter_value_does_not_depend_on_how_often_it_is_read)
{
    uint64_t a, b;
    uint32_t v = 0;

    count_event(PMU0, 0, 0x04);
    a = pp_sim_event_total(sim, 0, 0x04);
    for (int i = 0; i < 5000; i++)
        v = rd(PMU0 + PP_PMU_PMEVCNTR_V3(0));
    b = pp_sim_event_total(sim, 0, 0x04);
    ck_assert_uint_eq(v, (uint32_t)(b - a));
}
END_TEST

START_TEST(cycle_counter_counts_the_cycle_total)
{
    uint64_t a, b;
    uint32_t lo, hi;

    wr(PMU0 + PP_PMU_PMCNTENSET, 1u << 31);
    wr(PMU0 + PP_PMU_PMCR, PP_PMCR_E | PP_PMCR_C);
    a = pp_sim_event_total(sim, 0, 0x11);
    pp_sim_advance_ns(sim, 10000000);
    wr(PMU0 + PP_PMU_PMCNTENCLR, 1u << 31);
    b = pp_sim_event_total(sim, 0, 0x11);
    lo = rd(PMU0 + PP_PMU_PMCCNTR_V3);
    hi = rd(PMU0 + PP_PMU_PMCCNTR_V3 + 4);
    ck_assert_uint_eq((uint64_t)hi << 32 | lo, b - a);
    ck_assert_uint_eq(b - a, 2u * (10000000u + ACCESS_NS));  /* 2 GHz, until the CLR write */
}
END_TEST

START_TEST(no_counting_while_halted)
{
    uint32_t v0, v1;

    count_event(PMU0, 0, 0x11);
    pp_sim_set_halted(sim, 0, true);
    v0 = rd(PMU0 + PP_PMU_PMEVCNTR_V3(0));
    pp_sim_advance_ns(sim, 1000000);
    v1 = rd(PMU0 + PP_PMU_PMEVCNTR_V3(0));
    ck_assert_uint_eq(v0, v1);
    pp_sim_set_halted(sim, 0, false);
    ck_assert_uint_gt(rd(PMU0 + PP_PMU_PMEVCNTR_V3(0)), v1);
}
END_TEST

START_TEST(no_counting_while_the_counter_is_disabled)
{
    uint32_t v0;

    count_event(PMU0, 0, 0x11);
    pp_sim_advance_ns(sim, 1000);
    wr(PMU0 + PP_PMU_PMCNTENCLR, 1);
    v0 = rd(PMU0 + PP_PMU_PMEVCNTR_V3(0));
    ck_assert_uint_gt(v0, 0);
    pp_sim_advance_ns(sim, 1000000);
    ck_assert_uint_eq(rd(PMU0 + PP_PMU_PMEVCNTR_V3(0)), v0);
    ck_assert_uint_eq(rd(PMU0 + PP_PMU_PMCNTENSET), 0);
}
END_TEST

START_TEST(no_counting_while_pmcr_e_is_clear)
{
    uint32_t v0;

    count_event(PMU0, 0, 0x11);
    pp_sim_advance_ns(sim, 1000);
    wr(PMU0 + PP_PMU_PMCR, 0);
    v0 = rd(PMU0 + PP_PMU_PMEVCNTR_V3(0));
    pp_sim_advance_ns(sim, 1000000);
    ck_assert_uint_eq(rd(PMU0 + PP_PMU_PMEVCNTR_V3(0)), v0);
}
END_TEST

START_TEST(no_events_are_produced_while_powered_off)
{
    uint64_t a;

    pp_sim_set_power(sim, 0, false);
    a = pp_sim_event_total(sim, 0, 0x08);
    pp_sim_advance_ns(sim, 1000000);
    ck_assert_uint_eq(pp_sim_event_total(sim, 0, 0x08), a);
    pp_sim_set_power(sim, 0, true);
    pp_sim_advance_ns(sim, 1000);
    ck_assert_uint_gt(pp_sim_event_total(sim, 0, 0x08), a);
}
END_TEST

START_TEST(exception_level_filters_split_the_count_exactly)
{
    uint32_t all, no_el0, no_el1;

    wr(PMU0 + PP_PMU_PMEVTYPER(0), 0x08);
    wr(PMU0 + PP_PMU_PMEVTYPER(1), 0x08 | 1u << 30);    /* U: exclude EL0 */
    wr(PMU0 + PP_PMU_PMEVTYPER(2), 0x08 | 1u << 31);    /* P: exclude EL1 */
    wr(PMU0 + PP_PMU_PMEVTYPER(3), 0x08 | 3u << 30);    /* both */
    wr(PMU0 + PP_PMU_PMCNTENSET, 0xF);
    wr(PMU0 + PP_PMU_PMCR, PP_PMCR_E);
    pp_sim_advance_ns(sim, 2000000);
    wr(PMU0 + PP_PMU_PMCR, 0);
    all = rd(PMU0 + PP_PMU_PMEVCNTR_V3(0));
    no_el0 = rd(PMU0 + PP_PMU_PMEVCNTR_V3(1));
    no_el1 = rd(PMU0 + PP_PMU_PMEVCNTR_V3(2));
    ck_assert_uint_eq(no_el0 + no_el1, all);
    ck_assert_uint_le(no_el0, all / 4 + 2);
    ck_assert_uint_ge(no_el0 + 2, all / 4);
    ck_assert_uint_eq(rd(PMU0 + PP_PMU_PMEVCNTR_V3(3)), 0);
}
END_TEST

START_TEST(cycle_filter_excluding_el1_counts_three_quarters)
{
    uint64_t a;
    uint32_t v;

    wr(PMU0 + PP_PMU_PMCCFILTR, 1u << 31);
    ck_assert_uint_eq(rd(PMU0 + PP_PMU_PMCCFILTR), 1u << 31);
    wr(PMU0 + PP_PMU_PMCNTENSET, 1u << 31);
    wr(PMU0 + PP_PMU_PMCR, PP_PMCR_E | PP_PMCR_C);
    a = pp_sim_event_total(sim, 0, 0x11);
    pp_sim_advance_ns(sim, 400000);
    wr(PMU0 + PP_PMU_PMCR, 0);
    a = pp_sim_event_total(sim, 0, 0x11) - a;
    v = rd(PMU0 + PP_PMU_PMCCNTR_V3);
    ck_assert_uint_eq(a, 2u * (400000u + ACCESS_NS));
    ck_assert_uint_le(v, a * 3 / 4 + 1);
    ck_assert_uint_ge(v + 1, a * 3 / 4);
}
END_TEST

START_TEST(overflow_of_32_bit_counter_sets_pmovsset_and_wraps)
{
    uint32_t v;

    wr(PMU0 + PP_PMU_PMEVCNTR_V3(0), 0xFFFFFF00u);
    count_event(PMU0, 0, 0x11);
    ck_assert_uint_eq(rd(PMU0 + PP_PMU_PMOVSSET) & 1, 0);
    pp_sim_advance_ns(sim, 10000);
    v = rd(PMU0 + PP_PMU_PMEVCNTR_V3(0));
    ck_assert_uint_lt(v, 0x10000);
    ck_assert_uint_eq(rd(PMU0 + PP_PMU_PMOVSSET) & 1, 1);
    ck_assert_uint_eq(rd(PMU0 + PP_PMU_PMOVSCLR) & 1, 1);
    wr(PMU0 + PP_PMU_PMOVSCLR, 1);
    ck_assert_uint_eq(rd(PMU0 + PP_PMU_PMOVSSET) & 1, 0);
}
END_TEST

START_TEST(cycle_counter_carries_into_the_high_word_and_flags_bit31_overflow)
{
    wr(PMU0 + PP_PMU_PMCCNTR_V3, 0xFFFFFF00u);
    wr(PMU0 + PP_PMU_PMCCNTR_V3 + 4, 0);
    wr(PMU0 + PP_PMU_PMCNTENSET, 1u << 31);
    wr(PMU0 + PP_PMU_PMCR, PP_PMCR_E);
    pp_sim_advance_ns(sim, 10000);
    ck_assert_uint_eq(rd(PMU0 + PP_PMU_PMCCNTR_V3 + 4), 1);
    ck_assert_uint_eq(rd(PMU0 + PP_PMU_PMOVSSET), 1u << 31);
}
END_TEST

START_TEST(cycle_counter_with_pmcr_lc_does_not_flag_a_32_bit_overflow)
{
    wr(PMU0 + PP_PMU_PMCCNTR_V3, 0xFFFFFF00u);
    wr(PMU0 + PP_PMU_PMCNTENSET, 1u << 31);
    wr(PMU0 + PP_PMU_PMCR, PP_PMCR_E | PP_PMCR_LC);
    pp_sim_advance_ns(sim, 10000);
    ck_assert_uint_eq(rd(PMU0 + PP_PMU_PMCCNTR_V3 + 4), 1);
    ck_assert_uint_eq(rd(PMU0 + PP_PMU_PMOVSSET), 0);
}
END_TEST

START_TEST(sixty_four_bit_event_counter_has_a_writable_high_half)
{
    uint32_t pmu = A76_PMU(2);

    wr(pmu + PP_PMU_PMEVCNTR_V3(0) + 4, 7);
    wr(pmu + PP_PMU_PMEVCNTR_V3(0), 0xFFFFFFF0u);
    count_event(pmu, 0, 0x11);
    pp_sim_advance_ns(sim, 10000);
    ck_assert_uint_eq(rd(pmu + PP_PMU_PMEVCNTR_V3(0) + 4), 8);
    ck_assert_uint_eq(rd(pmu + PP_PMU_PMOVSSET) & 1, 1);   /* LP=0: bit 31 overflow */
}
END_TEST

START_TEST(pmcr_p_resets_event_counters_but_not_the_cycle_counter)
{
    count_event(PMU0, 0, 0x11);
    wr(PMU0 + PP_PMU_PMCNTENSET, 1u << 31);
    pp_sim_advance_ns(sim, 100000);
    wr(PMU0 + PP_PMU_PMCR, 0);
    wr(PMU0 + PP_PMU_PMCR, PP_PMCR_P);
    ck_assert_uint_eq(rd(PMU0 + PP_PMU_PMEVCNTR_V3(0)), 0);
    ck_assert_uint_gt(rd(PMU0 + PP_PMU_PMCCNTR_V3), 0);
    wr(PMU0 + PP_PMU_PMCR, PP_PMCR_C);
    ck_assert_uint_eq(rd(PMU0 + PP_PMU_PMCCNTR_V3), 0);
}
END_TEST

START_TEST(external_pmcr_keeps_only_its_low_control_bits)
{
    wr(PMU0 + PP_PMU_PMCR, 0xFFFFFFFFu);
    ck_assert_uint_eq(rd(PMU0 + PP_PMU_PMCR), 0x79);   /* E D X DP LC; P C RAZ; no LP */
    wr(A76_PMU(2) + PP_PMU_PMCR, 0xFFFFFFFFu);
    ck_assert_uint_eq(rd(A76_PMU(2) + PP_PMU_PMCR), 0xF9);
}
END_TEST

START_TEST(pmswinc_increments_enabled_counters_programmed_with_sw_incr)
{
    count_event(PMU0, 0, 0x00);
    wr(PMU0 + PP_PMU_PMEVTYPER(1), 0x00);     /* not enabled */
    wr(PMU0 + PP_PMU_PMSWINC, 3);
    wr(PMU0 + PP_PMU_PMSWINC, 1);
    ck_assert_uint_eq(rd(PMU0 + PP_PMU_PMEVCNTR_V3(0)), 2);
    ck_assert_uint_eq(rd(PMU0 + PP_PMU_PMEVCNTR_V3(1)), 0);
}
END_TEST

START_TEST(pmu_state_is_lost_on_power_down)
{
    count_event(PMU0, 0, 0x11);
    pp_sim_advance_ns(sim, 1000);
    pp_sim_set_power(sim, 0, false);
    pp_sim_set_power(sim, 0, true);
    wr(DBG0 + PP_DBG_OSLAR, 0);
    ck_assert_uint_eq(rd(PMU0 + PP_PMU_PMCR), 0);
    ck_assert_uint_eq(rd(PMU0 + PP_PMU_PMCNTENSET), 0);
    ck_assert_uint_eq(rd(PMU0 + PP_PMU_PMEVTYPER(0)), 0);
    ck_assert_uint_eq(rd(PMU0 + PP_PMU_PMEVCNTR_V3(0)), 0);
}
END_TEST

START_TEST(unimplemented_common_event_counts_nothing)
{
    /* Cortex-A9 has no CPU_CYCLES event (0x11): data/arm-pmu/pmu/
     * cortex-a9.json lists 0x10 and 0x12 but not 0x11.  PMCEID0 says so,
     * and the counter follows PMCEID (spec 1.3: set = implemented). */
    ck_assert_uint_eq(rd(A9_PMU + PP_PMU_PMCEID(0)) >> 0x11 & 1u, 0);
    ck_assert_uint_eq(rd(A9_PMU + PP_PMU_PMCEID(0)) >> 0x04 & 1u, 1);
    pp_sim_advance_ns(sim, 10000);
    ck_assert_uint_eq(pp_sim_event_total(sim, 0, 0x11), 0);
    ck_assert_uint_gt(pp_sim_event_total(sim, 0, 0x04), 0);
}
END_TEST

START_TEST(read_and_write_split_events_add_up_to_the_whole)
{
    pp_sim_advance_ns(sim, 3000000);
    ck_assert_uint_gt(pp_sim_event_total(sim, 0, 0x04), 0);
    ck_assert_uint_eq(pp_sim_event_total(sim, 0, 0x40) + pp_sim_event_total(sim, 0, 0x41),
                      pp_sim_event_total(sim, 0, 0x04));
    ck_assert_uint_lt(pp_sim_event_total(sim, 0, 0x03), pp_sim_event_total(sim, 0, 0x04));
}
END_TEST

START_TEST(instructions_follow_the_workload_ipc)
{
    uint64_t cyc, ins;

    pp_sim_advance_ns(sim, 5000000);
    cyc = pp_sim_event_total(sim, 0, 0x11);
    ins = pp_sim_event_total(sim, 0, 0x08);
    ck_assert_uint_eq(cyc, 10000000);
    ck_assert_uint_gt(ins, cyc * 13 / 10);     /* ipc 1.5 +- 30 % per phase */
    ck_assert_uint_lt(ins, cyc * 17 / 10);
}
END_TEST

START_TEST(advertised_event_without_a_signal_counts_at_a_background_rate)
{
    uint64_t ins, bg;

    if (!pp_catalog_find("cortex-a76"))
        return;
    pp_sim_advance_ns(sim, 1000000);
    ins = pp_sim_event_total(sim, 0, 0x08);
    bg = pp_sim_event_total(sim, 0, 0x68);     /* UNALIGNED_LD_SPEC */
    ck_assert_uint_gt(bg, 0);
    ck_assert_uint_le(bg, ins * 16 / 1000 + 1);
    ck_assert_uint_eq(pp_sim_event_total(sim, 0, 0x3FF), 0);   /* not advertised */
}
END_TEST

/* ---- determinism ------------------------------------------------------------------- */

static uint32_t run_sequence(uint64_t seed, uint32_t *vals, unsigned n)
{
    char err[128];
    struct pp_target *t = v8_target();
    struct pp_sim *s;
    uint32_t last = 0;

    t->cores[0].wl.seed = seed;
    s = pp_sim_new(t, err, sizeof(err));
    ck_assert_ptr_nonnull(s);
    pp_sim_apb_write(s, PMU0 + PP_PMU_PMEVTYPER(0), 0x03);
    pp_sim_apb_write(s, PMU0 + PP_PMU_PMEVTYPER(1), 0x10);
    pp_sim_apb_write(s, PMU0 + PP_PMU_PMCNTENSET, 3);
    pp_sim_apb_write(s, PMU0 + PP_PMU_PMCR, PP_PMCR_E);
    for (unsigned i = 0; i < n; i++) {
        pp_sim_advance_ns(s, 37000 + 1000 * i);
        pp_sim_apb_read(s, PMU0 + PP_PMU_PMEVCNTR_V3(i % 2), &vals[i]);
        last = vals[i];
    }
    pp_sim_free(s);
    free(t);
    return last;
}

START_TEST(same_seed_and_accesses_give_identical_values)
{
    uint32_t a[40], b[40];

    run_sequence(7, a, 40);
    run_sequence(7, b, 40);
    ck_assert_mem_eq(a, b, sizeof(a));
}
END_TEST

START_TEST(different_seeds_give_different_values)
{
    uint32_t a[40], b[40];

    run_sequence(7, a, 40);
    run_sequence(8, b, 40);
    ck_assert_int_ne(memcmp(a, b, sizeof(a)), 0);
}
END_TEST

/* ---- snapshot and PC sampling ---------------------------------------------------------- */

START_TEST(snapshot_captures_all_counters_from_one_instant)
{
    uint32_t cc, ev0;

    ck_assert_uint_eq(rd(PMU0 + 0x610), 1);            /* NC: nothing captured */
    wr(PMU0 + PP_PMU_PMEVTYPER(0), 0x11);
    wr(PMU0 + PP_PMU_PMCNTENSET, 1u | 1u << 31);
    wr(PMU0 + PP_PMU_PMCR, PP_PMCR_E | PP_PMCR_P | PP_PMCR_C);
    pp_sim_advance_ns(sim, 123456);
    wr(PMU0 + PP_PMU_PMSSCR_IMPDEF, 1);
    pp_sim_advance_ns(sim, 5000);
    cc = rd(PMU0 + 0x618);
    ev0 = rd(PMU0 + 0x620);
    ck_assert_uint_eq(rd(PMU0 + 0x610), 0);
    ck_assert_uint_gt(cc, 0);
    ck_assert_uint_eq(cc, ev0);
    ck_assert_uint_gt(rd(PMU0 + PP_PMU_PMEVCNTR_V3(0)), ev0);
    ck_assert_uint_eq(rd(PMU0 + 0x61C), 0);
}
END_TEST

START_TEST(pmpcsr_reads_all_ones_while_halted)
{
    pp_sim_set_halted(sim, 0, true);
    ck_assert_uint_eq(rd(PMU0 + PP_PMU_PMPCSR), 0xFFFFFFFFu);
}
END_TEST

START_TEST(pmpcsr_read_latches_the_high_word_and_context)
{
    uint32_t lo, hi;

    ck_assert_uint_eq(rd(PMU0 + PP_PMU_PMPCSR + 4), 0);
    lo = rd(PMU0 + PP_PMU_PMPCSR);
    hi = rd(PMU0 + PP_PMU_PMPCSR + 4);
    ck_assert_uint_ne(lo, 0xFFFFFFFFu);
    ck_assert_uint_eq(hi >> 31, 1);                   /* NS */
    ck_assert_uint_eq(rd(PMU0 + PP_PMU_PMPCSR + 4), hi);
    if ((hi >> 29 & 3) == 0)
        ck_assert_uint_ge(rd(PMU0 + 0x208), 1000);    /* PMCID1SR of a user task */
}
END_TEST

/* ---- PMUv2 / Armv7 ------------------------------------------------------------------------ */

START_TEST(pmuv2_cycle_counter_is_at_0x07c)
{
    wr(A9_PMU + PP_PMU_PMCNTENSET, 1u << 31);
    wr(A9_PMU + PP_PMU_PMCR, PP_PMCR_E | PP_PMCR_C);
    pp_sim_advance_ns(sim, 10000);
    wr(A9_PMU + PP_PMU_PMCR, 0);
    /* 2 GHz for 10 us plus the stopping write's 100 ns */
    ck_assert_uint_eq(rd(A9_PMU + PP_PMU_PMCCNTR_V2), 20200);
    ck_assert_uint_eq(rd(A9_PMU + PP_PMU_PMCCNTR_V3), 0);
}
END_TEST

START_TEST(pmuv2_event_counters_use_a_4_byte_stride)
{
    uint64_t a;
    uint32_t v;

    wr(A9_PMU + PP_PMU_PMEVTYPER(1), 0x04);
    ck_assert_uint_eq(rd(A9_PMU + PP_PMU_PMEVTYPER(1)), 0x04);
    wr(A9_PMU + PP_PMU_PMCNTENSET, 2);
    wr(A9_PMU + PP_PMU_PMCR, PP_PMCR_E);
    a = pp_sim_event_total(sim, 0, 0x04);
    pp_sim_advance_ns(sim, 100000);
    v = rd(A9_PMU + PP_PMU_PMEVCNTR_V2(1));
    ck_assert_uint_gt(v, 0);
    ck_assert_uint_eq(v, (uint32_t)(pp_sim_event_total(sim, 0, 0x04) - a));
}
END_TEST

START_TEST(pmuv2_pmcr_reads_like_cp15_with_n_in_bits_15_11)
{
    uint32_t v = rd(A9_PMU + PP_PMU_PMCR);

    ck_assert_uint_eq(v >> 24, 0x41);
    ck_assert_uint_eq(v >> 16 & 0xFF, 0x09);
    ck_assert_uint_eq(v >> 11 & 0x1F, 6);
}
END_TEST

START_TEST(pmuv2_cycle_counter_overflow_sets_bit31_and_wraps_at_32_bits)
{
    wr(A9_PMU + PP_PMU_PMCCNTR_V2, 0xFFFFFF00u);
    wr(A9_PMU + PP_PMU_PMCNTENSET, 1u << 31);
    wr(A9_PMU + PP_PMU_PMCR, PP_PMCR_E);
    pp_sim_advance_ns(sim, 10000);
    ck_assert_uint_lt(rd(A9_PMU + PP_PMU_PMCCNTR_V2), 0x100000);
    ck_assert_uint_eq(rd(A9_PMU + PP_PMU_PMOVSSET), 1u << 31);
}
END_TEST

START_TEST(pmuv2_instructions_on_cortex_a9_event_0x68)
{
    pp_sim_advance_ns(sim, 100000);
    if (!pp_catalog_find("cortex-a9"))
        return;
    /* 0x68 INST_RENAME follows the instruction signal: ipc 1.5 +- 30 % */
    ck_assert_uint_gt(pp_sim_event_total(sim, 0, 0x68), 2u * 100000u * 13 / 10);
    ck_assert_uint_lt(pp_sim_event_total(sim, 0, 0x68), 2u * 100000u * 17 / 10);
    ck_assert_uint_eq(pp_sim_event_total(sim, 0, 0x08), 0);   /* A9 lacks INST_RETIRED */
}
END_TEST

START_TEST(armv7_oslar_key_locks_and_any_other_value_unlocks)
{
    wr(A9_DBG + PP_DBG_OSLAR, 0xC5ACCE55u);
    ck_assert_uint_eq(rd(A9_DBG + PP_DBG_OSLSR_V7) & 2, 2);
    ck_assert_int_eq(rd_st(A9_PMU + PP_PMU_PMCR), PP_OP_SLVERR);
    wr(A9_DBG + PP_DBG_OSLAR, 1);
    ck_assert_uint_eq(rd(A9_DBG + PP_DBG_OSLSR_V7) & 2, 0);
    ck_assert_int_eq(rd_st(A9_PMU + PP_PMU_PMCR), PP_OP_OK);
}
END_TEST

START_TEST(armv7_blocks_have_no_devarch_and_their_own_part_numbers)
{
    ck_assert_uint_eq(rd(A9_DBG + 0xFBC), 0);
    ck_assert_uint_eq(rd(A9_PMU + 0xFBC), 0);
    ck_assert_uint_eq(rd(A9_DBG + 0xFE0), 0x09);
    ck_assert_uint_eq(rd(A9_DBG + 0xFE4), 0xBC);
    ck_assert_uint_eq(rd(A9_PMU + 0xFE0), 0xA0);
    ck_assert_uint_eq(rd(A9_PMU + 0xFE4), 0xB9);
    ck_assert_uint_eq(rd(A9_PMU + PP_PMU_PMDEVTYPE), 0x16);
    ck_assert_uint_eq(rd(A9_DBG + 0xFCC), 0x15);
}
END_TEST

START_TEST(armv7_pmu_errors_when_the_core_is_off_and_dbgprsr_says_why)
{
    pp_sim_set_power(sim, 0, false);
    ck_assert_int_eq(rd_st(A9_PMU + PP_PMU_PMCR), PP_OP_SLVERR);
    ck_assert_uint_eq(rd(A9_DBG + PP_DBG_EDPRSR) & PP_EDPRSR_PU, 0);
    ck_assert_uint_eq(rd(A9_PMU + 0xFF0), 0x0D);
}
END_TEST

START_TEST(armv7_rom_table_points_at_debug_cti_and_pmu)
{
    ck_assert_uint_eq(rom_target(V7_TOP, rd(V7_TOP)), V7_ROM);
    ck_assert_uint_eq(rom_target(V7_ROM, rd(V7_ROM + 0)), A9_DBG);
    ck_assert_uint_eq(rom_target(V7_ROM, rd(V7_ROM + 4)), A9_CTI);
    ck_assert_uint_eq(rom_target(V7_ROM, rd(V7_ROM + 8)), A9_PMU);
    ck_assert_uint_eq(rd(V7_ROM + 12), 0);
}
END_TEST

/* ---- faults, time, construction ------------------------------------------------------------ */

START_TEST(apply_fault_accepts_each_documented_form)
{
    static const char *const ok[] = {
        "cpu0:off", "cpu0:on", "cpu0:oslock", "cpu0:osunlock", "cpu2:dlock", "cpu2:dunlock",
        "cpu0:halt", "cpu0:run", "cpu0:noauth", "cpu0:auth", "cpu1:epmad", "cpu1:noepmad",
        "0x81030000:error", "0x81030000:ok", "2164457472:error",
    };
    char err[256];

    for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++)
        ck_assert_msg(pp_sim_apply_fault(sim, ok[i], err, sizeof(err)) == PP_OK, "%s: %s", ok[i], err);
}
END_TEST

/* Each spec is a parse error whose message names the spec and the form
 * the user should have written (hint). */
static void expect_specs_refused(const char *const *bad, size_t n, const char *hint)
{
    char err[256];

    for (size_t i = 0; i < n; i++) {
        err[0] = '\0';
        ck_assert_msg(pp_sim_apply_fault(sim, bad[i], err, sizeof(err)) == PP_E_PARSE, "%s", bad[i]);
        ck_assert_ptr_nonnull(strstr(err, bad[i]));
        ck_assert_ptr_nonnull(strstr(err, hint));
    }
}

START_TEST(apply_fault_rejects_malformed_specs_naming_them_and_the_forms)
{
    static const char *const bad[] = {
        "", "cpu0", "cpu0:explode", "cpux:off", "cpu:off", "0xZZ:error",
        "0x81030000:broken", "0x1FFFFFFFF:error", ":error", "cpu0:",
    };

    expect_specs_refused(bad, sizeof(bad) / sizeof(bad[0]), "cpuN:off");
}
END_TEST

START_TEST(apply_fault_for_a_cpu_the_target_lacks_is_invalid)
{
    char err[256] = "";

    ck_assert_int_eq(pp_sim_apply_fault(sim, "cpu9:off", err, sizeof(err)), PP_E_INVAL);
    ck_assert_ptr_nonnull(strstr(err, "cpu9"));
    ck_assert_int_eq(pp_sim_set_power(sim, 9, false), PP_E_INVAL);
}
END_TEST

START_TEST(apply_fault_takes_effect)
{
    char err[256];

    ck_assert_int_eq(pp_sim_apply_fault(sim, "cpu0:off", err, sizeof(err)), PP_OK);
    ck_assert_int_eq(rd_st(PMU0 + PP_PMU_PMCR), PP_OP_SLVERR);
    ck_assert_int_eq(pp_sim_apply_fault(sim, "cpu0:on", err, sizeof(err)), PP_OK);
    ck_assert_uint_eq(rd(DBG0 + PP_DBG_EDPRSR), 0x2B);
}
END_TEST

START_TEST(timed_fault_waits_until_the_sim_clock_reaches_its_time)
{
    char err[256];

    ck_assert_int_eq(pp_sim_apply_fault(sim, "cpu0:off@50us", err, sizeof(err)), PP_OK);
    ck_assert_int_eq(rd_st(PMU0 + PP_PMU_PMCR), PP_OP_OK);
    pp_sim_advance_ns(sim, 60000);
    ck_assert_int_eq(rd_st(PMU0 + PP_PMU_PMCR), PP_OP_SLVERR);
}
END_TEST

/* The same units as the CLI's -i and -d (lib/timeunit.c): minutes. */
START_TEST(timed_fault_takes_minutes_as_the_cli_does)
{
    char err[256];

    ck_assert_int_eq(pp_sim_apply_fault(sim, "cpu0:off@0.001m", err, sizeof(err)), PP_OK);
    pp_sim_advance_ns(sim, 59000000);
    ck_assert_int_eq(rd_st(PMU0 + PP_PMU_PMCR), PP_OP_OK);
    pp_sim_advance_ns(sim, 2000000);
    ck_assert_int_eq(rd_st(PMU0 + PP_PMU_PMCR), PP_OP_SLVERR);
}
END_TEST

START_TEST(timed_fault_check_refuses_a_later_time_on_deterministic_time_only)
{
    char err[256] = "";

    ck_assert_int_eq(pp_sim_check_fault_time(sim, "cpu0:on,cpu0:off@+1ms", err, sizeof(err)),
                     PP_E_UNSUPPORTED);
    ck_assert_ptr_nonnull(strstr(err, "--sim-time realtime"));
    ck_assert_int_eq(pp_sim_check_fault_time(sim, "cpu0:off@50us", err, sizeof(err)),
                     PP_E_UNSUPPORTED);
    ck_assert_int_eq(pp_sim_check_fault_time(sim, "cpu0:off", err, sizeof(err)), PP_OK);
    ck_assert_int_eq(pp_sim_check_fault_time(sim, "cpu0:off@0ns", err, sizeof(err)), PP_OK);
    pp_sim_advance_ns(sim, 60000);
    ck_assert_int_eq(pp_sim_check_fault_time(sim, "cpu0:off@50us", err, sizeof(err)), PP_OK);
}
END_TEST

START_TEST(timed_faults_fire_in_time_order_even_when_due_together)
{
    char err[256];

    /* Given out of order; both due by the next access: off, then on. */
    ck_assert_int_eq(pp_sim_apply_fault(sim, "cpu0:on@+20us,cpu0:off@+10us", err, sizeof(err)),
                     PP_OK);
    pp_sim_advance_ns(sim, 30000);
    ck_assert_int_eq(rd_st(PMU0 + PP_PMU_PMCFGR), PP_OP_SLVERR);    /* powered, OS lock set */
    ck_assert_uint_eq(rd(DBG0 + PP_DBG_EDPRSR) & 0x1u, 0x1u);         /* PU */
}
END_TEST

START_TEST(timed_address_error_starts_and_ends_on_time)
{
    char err[256];

    ck_assert_int_eq(pp_sim_apply_fault(sim, "0x81030000:error@+10us", err, sizeof(err)), PP_OK);
    ck_assert_int_eq(pp_sim_apply_fault(sim, "0x81030000:ok@+1ms", err, sizeof(err)), PP_OK);
    ck_assert_int_eq(rd_st(0x81030000u), PP_OP_OK);
    pp_sim_advance_ns(sim, 20000);
    ck_assert_int_eq(rd_st(0x81030000u), PP_OP_SLVERR);
    pp_sim_advance_ns(sim, 1000000);
    ck_assert_int_eq(rd_st(0x81030000u), PP_OP_OK);
}
END_TEST

START_TEST(timed_fault_with_a_bad_time_is_a_parse_error)
{
    static const char *const bad[] = { "cpu0:off@", "cpu0:off@10", "cpu0:off@xs", "cpu0:off@+",
                                       "cpu0:off@10parsecs", "cpu0:off@0x10ms",
                                       "cpu0:off@-1s", "cpu0:off@1q", "dp:wait:x", "dp:wait:", "dp:explode" };

    expect_specs_refused(bad, sizeof(bad) / sizeof(bad[0]), "@TIME");
}
END_TEST

START_TEST(timed_fault_for_a_missing_cpu_is_refused_when_given)
{
    char err[256] = "";

    ck_assert_int_eq(pp_sim_apply_fault(sim, "cpu9:off@1s", err, sizeof(err)), PP_E_INVAL);
    ck_assert_ptr_nonnull(strstr(err, "cpu9"));
}
END_TEST

START_TEST(dp_fault_without_a_tap_says_there_is_no_dp)
{
    char err[256] = "";

    ck_assert_int_eq(pp_sim_apply_fault(sim, "dp:wait:10", err, sizeof(err)), PP_E_UNSUPPORTED);
    ck_assert_ptr_nonnull(strstr(err, "no JTAG-DP"));
    ck_assert_int_eq(pp_sim_apply_fault(sim, "dp:overrun@1ms", err, sizeof(err)), PP_E_UNSUPPORTED);
}
END_TEST

START_TEST(address_error_fault_makes_one_address_answer_error)
{
    pp_sim_set_addr_error(sim, PMU0 + PP_PMU_PMCR, true);
    ck_assert_int_eq(rd_st(PMU0 + PP_PMU_PMCR), PP_OP_SLVERR);
    ck_assert_int_eq(rd_st(PMU0 + PP_PMU_PMCFGR), PP_OP_OK);
    pp_sim_set_addr_error(sim, PMU0 + PP_PMU_PMCR, false);
    ck_assert_int_eq(rd_st(PMU0 + PP_PMU_PMCR), PP_OP_OK);
}
END_TEST

START_TEST(each_access_advances_deterministic_time_by_access_ns)
{
    uint64_t t0 = pp_sim_now_ns(sim);

    rd(PMU0 + PP_PMU_PMCFGR);
    ck_assert_uint_eq(pp_sim_now_ns(sim), t0 + ACCESS_NS);
    rd_st(0x90000000u);
    ck_assert_uint_eq(pp_sim_now_ns(sim), t0 + 2 * ACCESS_NS);
    pp_sim_advance_ns(sim, 5000);
    ck_assert_uint_eq(pp_sim_now_ns(sim), t0 + 2 * ACCESS_NS + 5000);
}
END_TEST

START_TEST(stats_count_reads_writes_and_error_responses)
{
    struct pp_sim_stats st;

    rd(PMU0 + PP_PMU_PMCFGR);
    wr(PMU0 + PP_PMU_PMCR, 0);
    rd_st(0x90000000u);
    pp_sim_get_stats(sim, &st);
    ck_assert_uint_eq(st.reads, 2);
    ck_assert_uint_eq(st.writes, 1);
    ck_assert_uint_eq(st.errors, 1);
}
END_TEST

START_TEST(overlapping_blocks_are_refused_with_a_message)
{
    struct pp_target *t = v8_target();
    char err[256] = "";

    t->cores[1].pmu_base = t->cores[0].pmu_base;
    ck_assert_ptr_null(pp_sim_new(t, err, sizeof(err)));
    ck_assert_ptr_nonnull(strstr(err, "0x81030000"));
    free(t);
}
END_TEST

START_TEST(initial_state_comes_from_the_core_init)
{
    tgt->cores[0].init.oslock = true;
    tgt->cores[1].init.powered = false;
    tgt->cores[2].init.epmad = true;
    tgt->cores[2].init.auth = PP_AUTH_DBGEN | PP_AUTH_NIDEN;
    pp_sim_free(sim);
    start(tgt);
    ck_assert_uint_eq(rd(DBG0 + PP_DBG_EDPRSR), 0x2B);
    ck_assert_uint_eq(rd(A76_DBG(2) + PP_DBG_EDPRSR) & PP_EDPRSR_PU, 0);
    ck_assert_int_eq(rd_st(A53_PMU + PP_PMU_PMCR), PP_OP_SLVERR);
    ck_assert_uint_eq(rd(A53_DBG + PP_DBG_AUTHSTATUS), 0xAF);
}
END_TEST

START_TEST(real_time_mode_follows_the_monotonic_clock)
{
    struct timespec ts = { 0, 2000000 };
    uint64_t t0;

    tgt->time_mode = PP_TIME_REALTIME;
    pp_sim_free(sim);
    start(tgt);
    t0 = pp_sim_now_ns(sim);
    pp_sim_advance_ns(sim, 1000000000000ull);   /* no effect in real time */
    ck_assert_uint_lt(pp_sim_now_ns(sim), t0 + 1000000000ull);
    nanosleep(&ts, NULL);
    ck_assert_uint_ge(pp_sim_now_ns(sim), t0 + 2000000);
}
END_TEST

/* An in-process batch (lib/bus/sim_bus.c) is one instant of real-time
 * target time: while held the clock stands, and it runs on after. */
START_TEST(real_time_held_for_a_batch_stands_still_then_runs_on)
{
    struct timespec ts = { 0, 2000000 };
    uint64_t t0, c0;

    tgt->time_mode = PP_TIME_REALTIME;
    pp_sim_free(sim);
    start(tgt);
    count_event(PMU0, 0, 0x11);
    pp_sim_hold_time(sim, true);
    t0 = pp_sim_now_ns(sim);
    c0 = rd(PMU0 + PP_PMU_PMEVCNTR_V3(0));
    nanosleep(&ts, NULL);
    ck_assert_uint_eq(pp_sim_now_ns(sim), t0);
    ck_assert_uint_eq(rd(PMU0 + PP_PMU_PMEVCNTR_V3(0)), c0);
    pp_sim_hold_time(sim, false);
    ck_assert_uint_ge(pp_sim_now_ns(sim), t0 + 2000000);
    ck_assert_uint_gt(rd(PMU0 + PP_PMU_PMEVCNTR_V3(0)), c0);
}
END_TEST

START_TEST(target_is_copied_into_the_sim)
{
    ck_assert_str_eq(pp_sim_target(sim)->name, "test-v8");
    ck_assert_ptr_ne(pp_sim_target(sim), tgt);
}
END_TEST

/* ---- sim.* keys: the simulated silicon may disagree with the tables ---- */

/* cpu0 carries every override, cpu1 none: what cpu1 reads is the
 * baseline the overrides must move away from. */
#define OVR_TARGET "[soc]\nrom.base = 0x80400000\n[cluster 0]\nrom.base = 0x80000000\n" \
    "[core 0-1]\ntype = cortex-a53\ndebug = 0x80010000 +0x100000\n" \
    "[core 0]\nsim.midr = 0x411FD035\nsim.counters = 2\n" \
    "sim.pmceid.clear = L1D_CACHE\nsim.pmceid.set = 0x3F, 0x31\n"
#define OVR_PMU(cpu) (0x80030000u + 0x100000u * (cpu))
#define OVR_DBG(cpu) (0x80010000u + 0x100000u * (cpu))

static void overrides_up(void)
{
    char err[256] = "";
    struct pp_target *t = NULL;

    ck_assert_msg(pp_target_parse(OVR_TARGET, "ovr", &t, err, sizeof(err)) == PP_OK, "%s", err);
    start(t);
}

START_TEST(sim_midr_is_what_the_core_reports)
{
    ck_assert_uint_eq(rd(OVR_DBG(0) + PP_DBG_MIDR), 0x411FD035u);
    expect_midr_part(rd(OVR_DBG(1) + PP_DBG_MIDR), 0xD03);
    ck_assert_uint_ne(rd(OVR_DBG(1) + PP_DBG_MIDR), 0x411FD035u);
}
END_TEST

START_TEST(sim_counters_sets_pmcfgr_n_and_the_counters_that_exist)
{
    ck_assert_uint_eq(rd(OVR_PMU(0) + PP_PMU_PMCFGR) & 0xFFu, 2);
    ck_assert_uint_eq(rd(OVR_PMU(1) + PP_PMU_PMCFGR) & 0xFFu, 6);
    /* Only counters 0, 1 and the cycle counter can be enabled. */
    wr(OVR_PMU(0) + PP_PMU_PMCNTENSET, 0x8000003Fu);
    ck_assert_uint_eq(rd(OVR_PMU(0) + PP_PMU_PMCNTENSET), 0x80000003u);
}
END_TEST

START_TEST(sim_pmceid_clears_and_sets_advertised_events)
{
    /* Baseline 0x67FFFFFF / 0 (cortex-a53.json); L1D_CACHE is event 0x04,
     * 0x3F and 0x31 are bits 31 and 17 of PMCEID1. */
    ck_assert_uint_eq(rd(OVR_PMU(1) + PP_PMU_PMCEID(0)), 0x67FFFFFFu);
    ck_assert_uint_eq(rd(OVR_PMU(0) + PP_PMU_PMCEID(0)), 0x67FFFFEFu);
    ck_assert_uint_eq(rd(OVR_PMU(1) + PP_PMU_PMCEID(1)), 0);
    ck_assert_uint_eq(rd(OVR_PMU(0) + PP_PMU_PMCEID(1)), 0x80020000u);
}
END_TEST

START_TEST(event_cleared_from_pmceid_counts_nothing)
{
    pp_sim_advance_ns(sim, 100000);
    ck_assert_uint_eq(pp_sim_event_total(sim, 0, 0x04), 0);
    ck_assert_uint_gt(pp_sim_event_total(sim, 1, 0x04), 0);
    ck_assert_uint_gt(pp_sim_event_total(sim, 0, 0x08), 0);
}
END_TEST

/* Armv7.1 DBGDIDR (Cortex-A7 TRM, as the A15's Table 10.2): 4 WRPs, 6
 * BRPs, 2 context-matching, Version 5, the four *_imp bits, then the
 * MIDR's variant and revision: 0x3515F005 on the A7 r0p5 the simulator
 * models, written out rather than taken from the coretype row the
 * simulator itself reads; a debug-domain register, read with the core
 * off. */
START_TEST(armv7_1_dbgdidr_gives_the_trm_counts)
{
    struct pp_target *t = fx_target("test-a7", V7_TOP, 0x1, 0x4B6, ACCESS_NS);

    fx_add_cluster(t, V7_ROM, 0x1, 0x4A7, 1);
    fx_add_core(t, "cortex-a7", 0, 0, A9_DBG, A9_PMU, A9_CTI, 0, &test_wl);
    sim_down();
    start(t);
    ck_assert_uint_eq(rd(A9_DBG + 0x000), 0x3515F005u);
    expect_counts(rd(A9_DBG + 0x000), 28, 24, 20);
    pp_sim_set_power(sim, 0, false);
    ck_assert_uint_eq(rd(A9_DBG + 0x000) >> 16, 0x3515u);
}
END_TEST

/* Armv7 has no MDCR_EL3.EPMAD and the Cortex-A9 no OS Double Lock (spec
 * 2.2): both faults are refused, by the grammar and the API alike, and
 * leave the PMU reachable; clearing them stays a harmless no-op. */
START_TEST(armv7_epmad_and_a9_double_lock_faults_are_refused)
{
    static const char *const refused[] = { "cpu0:epmad", "cpu0:dlock", "cpu0:epmad@+1ms",
                                           "cpu0:dlock@1s" };
    char err[256];

    pp_sim_set_auth(sim, 0, PP_AUTH_DBGEN | PP_AUTH_NIDEN);     /* EPMAD would decide */
    for (size_t i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
        err[0] = '\0';
        ck_assert_int_eq(pp_sim_apply_fault(sim, refused[i], err, sizeof(err)), PP_E_UNSUPPORTED);
        ck_assert_msg(strstr(err, refused[i]) && strstr(err, "Cortex-A9"), "%s", err);
    }
    ck_assert_ptr_nonnull(strstr(err, "no OS Double Lock"));
    ck_assert_int_eq(pp_sim_set_epmad(sim, 0, true), PP_E_UNSUPPORTED);
    ck_assert_int_eq(pp_sim_set_doublelock(sim, 0, true), PP_E_UNSUPPORTED);
    pp_sim_advance_ns(sim, 2000000000u);
    ck_assert_int_eq(rd_st(A9_PMU + PP_PMU_PMCR), PP_OP_OK);
    ck_assert_int_eq(pp_sim_apply_fault(sim, "cpu0:noepmad,cpu0:dunlock", err, sizeof(err)), PP_OK);
}
END_TEST

static Suite *sim_suite(void)
{
    Suite *s = suite_create("sim");
    TCase *tc;

    tc = tcase_create("romtable");
    tcase_add_checked_fixture(tc, v8_up, sim_down);
    tcase_add_test(tc, top_rom_table_lists_each_cluster_table_then_end_marker);
    tcase_add_test(tc, rom_entry_below_its_table_has_a_negative_offset);
    tcase_add_test(tc, class9_cluster_table_lists_debug_cti_pmu_of_each_slot);
    tcase_add_test(tc, empty_slot_reads_as_not_present_entries_before_the_end_marker);
    tcase_add_test(tc, class1_cluster_table_lists_its_core_then_end_marker);
    tcase_add_test(tc, class9_rom_table_has_devarch_devid_format0_and_devtype_0);
    tcase_add_test(tc, class1_rom_table_cidr_is_b105100d_without_devarch);
    suite_add_tcase(s, tc);

    tc = tcase_create("identification");
    tcase_add_checked_fixture(tc, v8_up, sim_down);
    tcase_add_test(tc, debug_block_has_component_cidr_arm_pidr_devarch_and_devtype);
    tcase_add_test(tc, pmu_block_has_its_part_number_pmdevarch_and_pmdevtype);
    tcase_add_test(tc, cti_block_is_an_id_only_stub_with_devarch_and_devtype);
    tcase_add_test(tc, devaff_of_debug_pmu_and_cti_equals_mpidr);
    tcase_add_test(tc, devaff_zero_makes_the_devaff_of_all_three_blocks_read_0);
    tcase_add_test(tc, midr_reads_arm_and_the_part_number_of_each_core);
    tcase_add_test(tc, eddfr_gives_the_trm_breakpoint_and_watchpoint_counts);
    tcase_add_test(tc, pmdevid_reports_pc_sampling);
    tcase_add_test(tc, pmceid_registers_advertise_the_events_of_the_core_data);
    tcase_add_test(tc, pmcfgr_reports_the_fields_the_spec_gives);
    tcase_add_test(tc, authstatus_encodes_the_authentication_signals);
    suite_add_tcase(s, tc);

    tc = tcase_create("overrides");
    tcase_add_checked_fixture(tc, overrides_up, sim_down);
    tcase_add_test(tc, sim_midr_is_what_the_core_reports);
    tcase_add_test(tc, sim_counters_sets_pmcfgr_n_and_the_counters_that_exist);
    tcase_add_test(tc, sim_pmceid_clears_and_sets_advertised_events);
    tcase_add_test(tc, event_cleared_from_pmceid_counts_nothing);
    suite_add_tcase(s, tc);

    tc = tcase_create("debug");
    tcase_add_checked_fixture(tc, v8_up, sim_down);
    tcase_add_test(tc, edprsr_after_cold_reset_with_os_lock_reads_2b_then_21);
    tcase_add_test(tc, edprsr_sticky_bits_do_not_clear_on_read_while_powered_down);
    tcase_add_test(tc, oslar_write_of_zero_clears_the_os_lock);
    tcase_add_test(tc, oslar_write_with_dbgen_low_on_armv8_2_errors_and_sets_sdad);
    tcase_add_test(tc, corepurq_write_powers_up_a_powered_down_core);
    tcase_add_test(tc, simulated_os_clears_the_os_lock_after_os_unlock_us);
    tcase_add_test(tc, edscr_reports_running_and_halted_status);
    tcase_add_test(tc, claim_tags_set_and_clear);
    suite_add_tcase(s, tc);

    tc = tcase_create("conditions");
    tcase_add_checked_fixture(tc, v8_up, sim_down);
    tcase_add_test(tc, read_of_pmu_counter_on_powered_down_core_gets_error_response);
    tcase_add_test(tc, power_off_beats_epmad_so_spmad_stays_clear);
    tcase_add_test(tc, double_lock_beats_os_lock_and_epmad);
    tcase_add_test(tc, double_lock_does_not_apply_while_corenpdrq_is_set);
    tcase_add_test(tc, os_lock_beats_epmad_so_spmad_stays_clear);
    tcase_add_test(tc, epmad_alone_errors_and_sets_spmad_which_a_read_clears);
    tcase_add_test(tc, epmad_is_overridden_by_secure_noninvasive_debug);
    tcase_add_test(tc, pmu_access_is_refused_without_dbgen_or_niden);
    tcase_add_test(tc, pc_sample_registers_ignore_epmad_but_not_the_os_lock);
    tcase_add_test(tc, snapshot_registers_ignore_the_os_lock_but_not_power_off);
    tcase_add_test(tc, management_registers_answer_with_the_core_off);
    tcase_add_test(tc, edprsr_and_edprcr_answer_with_the_core_off);
    tcase_add_test(tc, core_domain_debug_registers_error_with_the_core_off);
    tcase_add_test(tc, os_lock_blocks_edscr_but_not_midr);
    tcase_add_test(tc, reserved_pmu_offsets_read_zero_and_ignore_writes);
    tcase_add_test(tc, unmapped_address_gets_error_response);
    suite_add_tcase(s, tc);

    tc = tcase_create("counting");
    tcase_add_checked_fixture(tc, v8_up, sim_down);
    tcase_add_test(tc, counter_counts_exactly_the_workload_total_between_enable_and_read);
    tcase_add_test(tc, counter_value_does_not_depend_on_how_often_it_is_read);
    tcase_add_test(tc, cycle_counter_counts_the_cycle_total);
    tcase_add_test(tc, no_counting_while_halted);
    tcase_add_test(tc, no_counting_while_the_counter_is_disabled);
    tcase_add_test(tc, no_counting_while_pmcr_e_is_clear);
    tcase_add_test(tc, no_events_are_produced_while_powered_off);
    tcase_add_test(tc, exception_level_filters_split_the_count_exactly);
    tcase_add_test(tc, cycle_filter_excluding_el1_counts_three_quarters);
    tcase_add_test(tc, overflow_of_32_bit_counter_sets_pmovsset_and_wraps);
    tcase_add_test(tc, cycle_counter_carries_into_the_high_word_and_flags_bit31_overflow);
    tcase_add_test(tc, cycle_counter_with_pmcr_lc_does_not_flag_a_32_bit_overflow);
    tcase_add_test(tc, sixty_four_bit_event_counter_has_a_writable_high_half);
    tcase_add_test(tc, pmcr_p_resets_event_counters_but_not_the_cycle_counter);
    tcase_add_test(tc, external_pmcr_keeps_only_its_low_control_bits);
    tcase_add_test(tc, pmswinc_increments_enabled_counters_programmed_with_sw_incr);
    tcase_add_test(tc, pmu_state_is_lost_on_power_down);
    tcase_add_test(tc, read_and_write_split_events_add_up_to_the_whole);
    tcase_add_test(tc, instructions_follow_the_workload_ipc);
    tcase_add_test(tc, advertised_event_without_a_signal_counts_at_a_background_rate);
    tcase_add_test(tc, same_seed_and_accesses_give_identical_values);
    tcase_add_test(tc, different_seeds_give_different_values);
    tcase_add_test(tc, snapshot_captures_all_counters_from_one_instant);
    tcase_add_test(tc, pmpcsr_reads_all_ones_while_halted);
    tcase_add_test(tc, pmpcsr_read_latches_the_high_word_and_context);
    suite_add_tcase(s, tc);

    tc = tcase_create("pmuv2");
    tcase_add_checked_fixture(tc, v7_up, sim_down);
    tcase_add_test(tc, unimplemented_common_event_counts_nothing);
    tcase_add_test(tc, pmuv2_cycle_counter_is_at_0x07c);
    tcase_add_test(tc, pmuv2_event_counters_use_a_4_byte_stride);
    tcase_add_test(tc, pmuv2_pmcr_reads_like_cp15_with_n_in_bits_15_11);
    tcase_add_test(tc, pmuv2_cycle_counter_overflow_sets_bit31_and_wraps_at_32_bits);
    tcase_add_test(tc, pmuv2_instructions_on_cortex_a9_event_0x68);
    tcase_add_test(tc, armv7_oslar_key_locks_and_any_other_value_unlocks);
    tcase_add_test(tc, armv7_blocks_have_no_devarch_and_their_own_part_numbers);
    tcase_add_test(tc, armv7_pmu_errors_when_the_core_is_off_and_dbgprsr_says_why);
    tcase_add_test(tc, armv7_rom_table_points_at_debug_cti_and_pmu);
    tcase_add_test(tc, armv7_epmad_and_a9_double_lock_faults_are_refused);
    tcase_add_test(tc, armv7_1_dbgdidr_gives_the_trm_counts);
    suite_add_tcase(s, tc);

    tc = tcase_create("faults");
    tcase_add_checked_fixture(tc, v8_up, sim_down);
    tcase_add_test(tc, apply_fault_accepts_each_documented_form);
    tcase_add_test(tc, apply_fault_rejects_malformed_specs_naming_them_and_the_forms);
    tcase_add_test(tc, apply_fault_for_a_cpu_the_target_lacks_is_invalid);
    tcase_add_test(tc, apply_fault_takes_effect);
    tcase_add_test(tc, timed_fault_waits_until_the_sim_clock_reaches_its_time);
    tcase_add_test(tc, timed_fault_takes_minutes_as_the_cli_does);
    tcase_add_test(tc, timed_fault_check_refuses_a_later_time_on_deterministic_time_only);
    tcase_add_test(tc, timed_faults_fire_in_time_order_even_when_due_together);
    tcase_add_test(tc, timed_address_error_starts_and_ends_on_time);
    tcase_add_test(tc, timed_fault_with_a_bad_time_is_a_parse_error);
    tcase_add_test(tc, timed_fault_for_a_missing_cpu_is_refused_when_given);
    tcase_add_test(tc, dp_fault_without_a_tap_says_there_is_no_dp);
    tcase_add_test(tc, address_error_fault_makes_one_address_answer_error);
    tcase_add_test(tc, each_access_advances_deterministic_time_by_access_ns);
    tcase_add_test(tc, stats_count_reads_writes_and_error_responses);
    tcase_add_test(tc, overlapping_blocks_are_refused_with_a_message);
    tcase_add_test(tc, target_is_copied_into_the_sim);
    tcase_add_test(tc, initial_state_comes_from_the_core_init);
    tcase_add_test(tc, real_time_mode_follows_the_monotonic_clock);
    tcase_add_test(tc, real_time_held_for_a_batch_stands_still_then_runs_on);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(sim_suite());
    int failed;

    srunner_run_all(sr, CK_NORMAL);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

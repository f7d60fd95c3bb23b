/*
 * check_adi.c - the ADIv5 JTAG-DP + APB-AP path (lib/adi) as a pp_bus over
 * the in-process simpins link and the simulated SoC's TAP: power-up, AP
 * discovery, CSW, batches, cost (TCK and round trips), sticky errors
 * attributed per op, WAIT recovery, BD0-BD3 and TAR caching, link loss.
 * Facts: spec/arm-pmu-coresight.md 7, spec/ftdi-mpsse-jtag.md 4.
 */
#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "adi/adi.h"
#include "bus/bus.h"
#include "link/simpins.h"
#include "pmu/extend.h"
#include "pmu/regs.h"
#include "sim/jtag.h"
#include "sim/jtag_internal.h"
#include "fixture.h"

/* Two Cortex-A72 in the v8 map, the APB-AP at APSEL 1 (APSEL 0 absent). */
static const char target_text[] =
    FX_A72_PAIR_SOC("adi-test", "ap.index = 1\n") FX_A72_PAIR_CORES;

static struct fx_rig rig;
static struct pp_simjtag *jt;
static struct pp_link *lnk;          /* owned by bus */
static struct pp_bus *bus;
static uint32_t pmu[2], dbg[2];

static struct pp_bus *open_bus(const struct pp_target *t, const unsigned *tdo, unsigned ntdo,
                               const unsigned *tdi, unsigned ntdi)
{
    return fx_adi_bus(jt, t, tdo, ntdo, tdi, ntdi, &lnk);
}

static void build_sim(void)
{
    fx_rig_parse(&rig, target_text);
    jt = fx_simjtag(rig.sim);
    for (unsigned i = 0; i < 2; i++) {
        pmu[i] = rig.t->cores[i].pmu_base;
        dbg[i] = rig.t->cores[i].debug_base;
    }
}

static void setup(void)
{
    build_sim();
    bus = open_bus(rig.t, NULL, 0, NULL, 0);
}

static void teardown(void)
{
    pp_bus_close(bus);
    bus = NULL;
    pp_simjtag_free(jt);
    fx_rig_down(&rig);
}

static struct pp_op rd(uint32_t addr)
{
    return (struct pp_op){ .addr = addr };
}

static struct pp_op wr(uint32_t addr, uint32_t v)
{
    return (struct pp_op){ .addr = addr, .wdata = v, .write = 1 };
}

/* What the APB answers, through the in-process path on the same SoC. */
static uint32_t apb(uint32_t addr)
{
    uint32_t v = 0;

    ck_assert_int_eq(pp_sim_apb_read(rig.sim, addr, &v), PP_OP_OK);
    return v;
}

static struct pp_simjtag_stats jstats(void)
{
    struct pp_simjtag_stats st;

    pp_simjtag_get_stats(jt, &st);
    return st;
}

static struct pp_dp_stats dstats(void)
{
    struct pp_dp_stats st;

    pp_dp_get_stats(pp_bus_adi_dp(bus), &st);
    return st;
}

static uint32_t ctrlstat(void)
{
    struct pp_dp_xfer x = { .rnw = 1, .addr = PP_DP_CTRLSTAT, .tag = -1 };
    uint32_t c = 0;

    ck_assert_int_eq(pp_dp_exec(pp_bus_adi_dp(bus), &x, 1, &c), PP_OK);
    return x.rdata;
}

/* ---- power-up, discovery, CSW --------------------------------------------- */

START_TEST(debug_and_system_power_are_requested_and_acknowledged)
{
    uint32_t c = ctrlstat();

    ck_assert_uint_eq(c & 0xF0000000u, 0xF0000000u);
    ck_assert_uint_eq(c & PP_CS_ORUNDETECT, PP_CS_ORUNDETECT);
    ck_assert_uint_eq(c & PP_CS_STICKY, 0);
}
END_TEST

START_TEST(the_bus_is_named_after_its_link)
{
    ck_assert_str_eq(pp_bus_name(bus), "simpins");
}
END_TEST

START_TEST(apb_ap_is_used_at_the_targets_ap_index)
{
    uint32_t v;

    ck_assert_int_eq(pp_bus_read32(bus, rig.t->rom_base + 0xFF0u, &v), PP_OK);
    ck_assert_uint_eq(v, apb(rig.t->rom_base + 0xFF0u));
    ck_assert_uint_eq(jt->select >> 24, 1);
}
END_TEST

START_TEST(apb_ap_is_found_by_its_idr_when_the_target_index_is_wrong)
{
    struct pp_target wrong = *rig.t;
    struct pp_bus *b2;
    uint32_t v;

    wrong.ap_index = 7;
    b2 = open_bus(&wrong, NULL, 0, NULL, 0);
    ck_assert_int_eq(pp_bus_read32(b2, pmu[0] + PP_PMU_PMCFGR, &v), PP_OK);
    ck_assert_uint_eq(v, apb(pmu[0] + PP_PMU_PMCFGR));
    pp_bus_close(b2);
}
END_TEST

START_TEST(csw_gets_word_size_and_increment_and_keeps_its_other_bits)
{
    struct pp_bus *b2;

    jt->csw = 0xA3000000u;           /* Prot and DbgSwEnable as a debugger left them */
    b2 = open_bus(rig.t, NULL, 0, NULL, 0);
    ck_assert_uint_eq(jt->csw, 0xA3000010u);
    pp_bus_close(b2);
}
END_TEST

START_TEST(the_dp_is_found_among_bypass_only_taps)
{
    static const unsigned tdo[] = { 6 }, tdi[] = { 3, 8 };
    struct pp_bus *b2 = open_bus(rig.t, tdo, 1, tdi, 2);
    struct pp_op ops[2] = { rd(pmu[0] + PP_PMU_PMCFGR), rd(pmu[1] + PP_PMU_PMCR) };

    ck_assert_int_eq(pp_bus_run(b2, ops, 2), PP_OK);
    ck_assert_uint_eq(ops[0].rdata, apb(pmu[0] + PP_PMU_PMCFGR));
    ck_assert_uint_eq(ops[1].rdata, apb(pmu[1] + PP_PMU_PMCR));
    pp_bus_close(b2);
}
END_TEST

/* ---- batches ------------------------------------------------------------- */

START_TEST(reads_equal_what_the_apb_returns)
{
    const uint32_t addr[] = { rig.t->rom_base + 0xFF0u, rig.t->rom_base + 0xFE0u,
                              pmu[0] + PP_PMU_PMCFGR, pmu[0] + PP_PMU_PMDEVARCH,
                              dbg[1] + PP_DBG_MIDR, pmu[1] + PP_PMU_PMCEID(0) };

    for (size_t i = 0; i < sizeof(addr) / sizeof(addr[0]); i++) {
        uint32_t v = 0;

        ck_assert_int_eq(pp_bus_read32(bus, addr[i], &v), PP_OK);
        ck_assert_uint_eq(v, apb(addr[i]));
    }
}
END_TEST

START_TEST(a_batch_of_reads_on_several_cores_is_one_round_trip)
{
    struct pp_op ops[8];
    uint64_t rt;

    for (unsigned c = 0; c < 2; c++) {
        ops[4 * c + 0] = rd(pmu[c] + PP_PMU_PMCFGR);
        ops[4 * c + 1] = rd(pmu[c] + PP_PMU_PMCR);
        ops[4 * c + 2] = rd(dbg[c] + PP_DBG_MIDR);
        ops[4 * c + 3] = rd(pmu[c] + PP_PMU_PMDEVAFF0);
    }
    pp_bus_get_stats(bus, &(struct pp_bus_stats){ 0 });
    rt = lnk->stats.round_trips;
    ck_assert_int_eq(pp_bus_run(bus, ops, 8), PP_OK);
    ck_assert_uint_eq(lnk->stats.round_trips - rt, 1);
    for (unsigned i = 0; i < 8; i++) {
        ck_assert_int_eq(ops[i].st, PP_OP_OK);
        ck_assert_uint_eq(ops[i].rdata, apb(ops[i].addr));
    }
}
END_TEST

START_TEST(writes_and_reads_run_in_order)
{
    struct pp_op ops[4] = { wr(pmu[0] + PP_PMU_PMCNTENSET, 0x80000001u),
                            rd(pmu[0] + PP_PMU_PMCNTENSET),
                            wr(pmu[0] + PP_PMU_PMCNTENCLR, 0x1u),
                            rd(pmu[0] + PP_PMU_PMCNTENSET) };

    ck_assert_int_eq(pp_bus_run(bus, ops, 4), PP_OK);
    ck_assert_uint_eq(ops[1].rdata, 0x80000001u);
    ck_assert_uint_eq(ops[3].rdata, 0x80000000u);
}
END_TEST

START_TEST(bus_statistics_come_from_the_link)
{
    struct pp_bus_stats st;
    struct pp_op op = rd(pmu[0] + PP_PMU_PMCR);

    ck_assert_int_eq(pp_bus_run(bus, &op, 1), PP_OK);
    pp_bus_get_stats(bus, &st);
    ck_assert_uint_eq(st.tck, lnk->stats.tck);
    ck_assert_uint_eq(st.round_trips, lnk->stats.round_trips);
    ck_assert_uint_eq(st.tck, jstats().tck);
}
END_TEST

START_TEST(posted_reads_are_chained_with_one_rdbuff_at_the_end)
{
    struct pp_op ops[4] = { rd(pmu[0] + 0x00u), rd(pmu[0] + 0x04u), rd(pmu[0] + 0x08u),
                            rd(pmu[0] + 0x0Cu) };
    struct pp_simjtag_stats a, b;

    ck_assert_int_eq(pp_bus_run(bus, ops, 4), PP_OK);
    ck_assert_int_eq(pp_bus_run(bus, ops, 4), PP_OK);
    a = jstats();
    ck_assert_int_eq(pp_bus_run(bus, ops, 4), PP_OK);
    b = jstats();
    ck_assert_uint_eq(b.apacc - a.apacc, 4);      /* four BD reads, no TAR write */
    ck_assert_uint_eq(b.dpacc - a.dpacc, 2);      /* CTRL/STAT and RDBUFF */
    ck_assert_uint_eq(b.ir_scans - a.ir_scans, 2);
}
END_TEST

START_TEST(unaligned_op_is_refused_and_the_others_run)
{
    struct pp_op ops[2] = { rd(pmu[0] + PP_PMU_PMCR + 2u), rd(pmu[0] + PP_PMU_PMCFGR) };

    ck_assert_int_eq(pp_bus_run(bus, ops, 2), PP_E_FAULT);
    ck_assert_int_eq(ops[0].st, PP_OP_FAULT);
    ck_assert_int_eq(ops[1].st, PP_OP_OK);
    ck_assert_uint_eq(ops[1].rdata, apb(pmu[0] + PP_PMU_PMCFGR));
}
END_TEST

/* ---- cost ------------------------------------------------------------------ */

static uint64_t batch_tck(struct pp_op *ops, size_t n)
{
    uint64_t t0 = lnk->stats.tck;

    ck_assert_int_eq(pp_bus_run(bus, ops, n), PP_OK);
    return lnk->stats.tck - t0;
}

/*
 * Steady state, one 16-byte block in BD0-BD3: each counter read is one
 * APACC scan, 3 + 35 + 1 TCK plus the 1 idle TCK the sim's 3-TCK APB
 * access needs before the next Capture-DR: 40.  Per batch on top: IR to
 * DPACC (9), CTRL/STAT read (39), RDBUFF (39), IR back to APACC (9), less
 * the idle the last AP scan does not need (the IR scan covers it): 95.
 */
START_TEST(a_counter_read_costs_40_tck_in_steady_state)
{
    struct pp_op four[4], eight[8];
    uint64_t t4, t8;

    for (unsigned i = 0; i < 8; i++)
        eight[i] = rd(pmu[0] + PP_PMU_PMEVCNTR_V3(i % 2) + 4u * (i / 2 % 2));
    memcpy(four, eight, sizeof(four));
    (void)batch_tck(four, 4);
    (void)batch_tck(four, 4);
    t4 = batch_tck(four, 4);
    (void)batch_tck(eight, 8);
    t8 = batch_tck(eight, 8);
    /* Exact, not divided: four more reads cost four times 40, with no
     * remainder a division would hide. */
    ck_assert_uint_eq(t8 - t4, 4 * 40);
    ck_assert_uint_eq(t4, 4 * 40 + 95);
}
END_TEST

/* The JTAG-DP builds and queues a long batch a piece at a time (dp.c
 * build_and_queue): 600 reads cross two piece boundaries, and each read
 * still costs its 40 TCK, idle included (a scan left without its idle
 * would meet a WAIT or cost 1 TCK less), with the same values. */
START_TEST(a_batch_longer_than_a_build_piece_costs_40_tck_a_read)
{
    static struct pp_op ops[600];
    const uint64_t waits = jstats().waits;

    for (unsigned i = 0; i < 600; i++)
        ops[i] = rd(pmu[0] + PP_PMU_PMEVCNTR_V3(i % 2) + 4u * (i / 2 % 2));
    (void)batch_tck(ops, 4);
    (void)batch_tck(ops, 4);
    ck_assert_uint_eq(batch_tck(ops, 600), 600 * 40 + 95);
    ck_assert_uint_eq(jstats().waits, waits);
    for (unsigned i = 0; i < 600; i++) {
        ck_assert_int_eq(ops[i].st, PP_OP_OK);
        ck_assert_uint_eq(ops[i].rdata, apb(ops[i].addr));
    }
}
END_TEST

START_TEST(a_stream_sample_of_both_cores_is_one_round_trip)
{
    struct pp_op ops[14];
    size_t n = 0;
    uint64_t rt, t0, ap0;

    for (unsigned c = 0; c < 2; c++) {
        ops[n++] = rd(pmu[c] + PP_PMU_PMOVSSET);
        ops[n++] = rd(pmu[c] + PP_PMU_PMEVCNTR_V3(0));
        ops[n++] = rd(pmu[c] + PP_PMU_PMEVCNTR_V3(1));
        ops[n++] = rd(pmu[c] + PP_PMU_PMEVCNTR_V3(2));
        ops[n++] = rd(pmu[c] + PP_PMU_PMCCNTR_V3 + 4u);
        ops[n++] = rd(pmu[c] + PP_PMU_PMCCNTR_V3);
        ops[n++] = rd(pmu[c] + PP_PMU_PMCCNTR_V3 + 4u);
    }
    ck_assert_int_eq(pp_bus_run(bus, ops, n), PP_OK);
    rt = lnk->stats.round_trips;
    t0 = lnk->stats.tck;
    ap0 = jstats().ap_reads;
    ck_assert_int_eq(pp_bus_run(bus, ops, n), PP_OK);
    ck_assert_uint_eq(lnk->stats.round_trips - rt, 1);
    ck_assert_uint_eq(jstats().ap_reads - ap0, n);
    /* 14 reads and 12 TAR writes: per core only the second PMCCNTR high
     * word follows its predecessor (auto-increment); a bank switch costs
     * more than the TAR writes BD0-BD3 would save here. */
    ck_assert_uint_eq(lnk->stats.tck - t0, (14 + 12) * 40 + 95);
}
END_TEST

/* ---- sticky errors --------------------------------------------------------- */

START_TEST(reads_on_a_powered_off_core_fail_and_the_others_succeed)
{
    struct pp_op ops[5] = { rd(pmu[0] + PP_PMU_PMCFGR), rd(pmu[1] + PP_PMU_PMCFGR),
                            rd(pmu[1] + PP_PMU_PMCR), rd(pmu[0] + PP_PMU_PMCR),
                            rd(dbg[0] + PP_DBG_MIDR) };

    ck_assert_int_eq(pp_sim_set_power(rig.sim, 1, false), PP_OK);
    ck_assert_int_eq(pp_bus_run(bus, ops, 5), PP_E_SLVERR);
    ck_assert_int_eq(ops[0].st, PP_OP_OK);
    ck_assert_int_eq(ops[1].st, PP_OP_SLVERR);
    ck_assert_int_eq(ops[2].st, PP_OP_SLVERR);
    ck_assert_int_eq(ops[3].st, PP_OP_OK);
    ck_assert_int_eq(ops[4].st, PP_OP_OK);
    ck_assert_uint_eq(ops[0].rdata, apb(pmu[0] + PP_PMU_PMCFGR));
    ck_assert_uint_eq(ops[3].rdata, apb(pmu[0] + PP_PMU_PMCR));
    ck_assert_uint_eq(ops[4].rdata, apb(dbg[0] + PP_DBG_MIDR));
}
END_TEST

START_TEST(edprsr_read_before_a_failure_keeps_its_first_value)
{
    const uint32_t sticky = PP_EDPRSR_SPD | PP_EDPRSR_SR;
    struct pp_op ops[2] = { rd(dbg[0] + PP_DBG_EDPRSR), rd(pmu[1] + PP_PMU_PMCR) };
    uint32_t again;

    ck_assert_int_eq(pp_sim_set_power(rig.sim, 1, false), PP_OK);
    ck_assert_int_eq(pp_bus_run(bus, ops, 2), PP_E_SLVERR);
    ck_assert_int_eq(ops[0].st, PP_OP_OK);
    ck_assert_int_eq(ops[1].st, PP_OP_SLVERR);
    ck_assert_uint_eq(ops[0].rdata & sticky, sticky);      /* cold reset: SPD and SR */
    ck_assert_int_eq(pp_bus_read32(bus, dbg[0] + PP_DBG_EDPRSR, &again), PP_OK);
    ck_assert_uint_eq(again & sticky, 0);                  /* the read cleared them */
}
END_TEST

START_TEST(ops_after_a_failure_are_carried)
{
    struct pp_op ops[3] = { rd(pmu[1] + PP_PMU_PMCR), wr(pmu[0] + PP_PMU_PMCNTENSET, 0x4u),
                            rd(pmu[0] + PP_PMU_PMCNTENSET) };

    ck_assert_int_eq(pp_sim_set_power(rig.sim, 1, false), PP_OK);
    ck_assert_int_eq(pp_bus_run(bus, ops, 3), PP_E_SLVERR);
    ck_assert_int_eq(ops[0].st, PP_OP_SLVERR);
    ck_assert_int_eq(ops[1].st, PP_OP_OK);
    ck_assert_int_eq(ops[2].st, PP_OP_OK);
    ck_assert_uint_eq(ops[2].rdata & 0x4u, 0x4u);
}
END_TEST

START_TEST(an_error_on_one_address_fails_only_that_op)
{
    struct pp_op ops[3] = { rd(pmu[0] + PP_PMU_PMCFGR), rd(pmu[0] + PP_PMU_PMCR),
                            rd(pmu[0] + PP_PMU_PMDEVARCH) };

    ck_assert_int_eq(pp_sim_set_addr_error(rig.sim, pmu[0] + PP_PMU_PMCR, true), PP_OK);
    ck_assert_int_eq(pp_bus_run(bus, ops, 3), PP_E_SLVERR);
    ck_assert_int_eq(ops[0].st, PP_OP_OK);
    ck_assert_int_eq(ops[1].st, PP_OP_SLVERR);
    ck_assert_int_eq(ops[2].st, PP_OP_OK);
    ck_assert_uint_eq(ops[2].rdata, apb(pmu[0] + PP_PMU_PMDEVARCH));
}
END_TEST

/* The error clears between the first run and the attribution run (a
 * fault that came and went): nothing of the first run past its failure
 * may be reported, since those reads were discarded.  The timed clear
 * lands between the first run's one APB access (the PMCR that fails; the
 * AP discards the rest) and the second run's first (time.access_ns =
 * 100: access k happens at +k*100 ns). */
START_TEST(an_error_gone_by_the_second_run_reports_the_second_runs_values)
{
    struct pp_op ops[3] = { rd(pmu[1] + PP_PMU_PMCR), rd(pmu[0] + PP_PMU_PMCFGR),
                            rd(pmu[0] + PP_PMU_PMDEVARCH) };
    char spec[64], err[160];

    ck_assert_int_eq(pp_sim_set_addr_error(rig.sim, pmu[1] + PP_PMU_PMCR, true), PP_OK);
    snprintf(spec, sizeof(spec), "%#x:ok@+150ns", pmu[1] + PP_PMU_PMCR);
    ck_assert_int_eq(pp_sim_apply_fault(rig.sim, spec, err, sizeof(err)), PP_OK);
    ck_assert_int_eq(pp_bus_run(bus, ops, 3), PP_OK);
    ck_assert_uint_eq(ops[0].rdata, apb(pmu[1] + PP_PMU_PMCR));
    ck_assert_uint_eq(ops[1].rdata, apb(pmu[0] + PP_PMU_PMCFGR));
    ck_assert_uint_eq(ops[2].rdata, apb(pmu[0] + PP_PMU_PMDEVARCH));
}
END_TEST

START_TEST(the_batch_after_a_sticky_error_starts_clean)
{
    struct pp_op bad = rd(pmu[1] + PP_PMU_PMCR), good = rd(pmu[0] + PP_PMU_PMCR);

    ck_assert_int_eq(pp_sim_set_power(rig.sim, 1, false), PP_OK);
    ck_assert_int_eq(pp_bus_run(bus, &bad, 1), PP_E_SLVERR);
    ck_assert_int_eq(pp_bus_run(bus, &good, 1), PP_OK);
    ck_assert_uint_eq(good.rdata, apb(pmu[0] + PP_PMU_PMCR));
    ck_assert_uint_eq(ctrlstat() & PP_CS_STICKY, 0);
}
END_TEST

/* ---- WAIT ------------------------------------------------------------------ */

START_TEST(a_wait_storm_is_recovered)
{
    struct pp_op ops[6];

    for (unsigned i = 0; i < 6; i++)
        ops[i] = rd(pmu[i % 2] + (i < 2 ? PP_PMU_PMCFGR : i < 4 ? PP_PMU_PMCR
                                                               : PP_PMU_PMDEVARCH));
    pp_simjtag_set_wait(jt, 5);
    ck_assert_int_eq(pp_bus_run(bus, ops, 6), PP_OK);
    for (unsigned i = 0; i < 6; i++)
        ck_assert_uint_eq(ops[i].rdata, apb(ops[i].addr));
    ck_assert_uint_ge(jstats().waits, 5);
    ck_assert_uint_ge(dstats().wait_rounds, 1);
}
END_TEST

START_TEST(a_wait_that_never_ends_fails_with_wait_status)
{
    struct pp_op ops[2] = { rd(pmu[0] + PP_PMU_PMCFGR), rd(pmu[0] + PP_PMU_PMCR) };

    pp_simjtag_set_wait(jt, 1000000);
    ck_assert_int_eq(pp_bus_run(bus, ops, 2), PP_E_WAIT);
    ck_assert_int_eq(ops[0].st, PP_OP_WAIT);
    ck_assert_int_eq(ops[1].st, PP_OP_WAIT);
    ck_assert_ptr_nonnull(strstr(pp_bus_errmsg(bus), "WAIT"));
    pp_simjtag_set_wait(jt, 0);
    ck_assert_int_eq(pp_bus_run(bus, ops, 2), PP_OK);
    ck_assert_uint_eq(ops[1].rdata, apb(pmu[0] + PP_PMU_PMCR));
}
END_TEST

START_TEST(a_slow_apb_is_met_with_more_idle_and_nothing_reordered)
{
    struct pp_op ops[6] = { wr(pmu[0] + PP_PMU_PMCNTENSET, 0x3u), rd(pmu[0] + PP_PMU_PMCNTENSET),
                            wr(pmu[0] + PP_PMU_PMCNTENCLR, 0x1u), rd(pmu[0] + PP_PMU_PMCNTENSET),
                            rd(pmu[1] + PP_PMU_PMCFGR), rd(pmu[0] + PP_PMU_PMCFGR) };

    pp_simjtag_set_apb_tck(jt, 30);
    for (int k = 0; k < 4; k++) {
        ck_assert_int_eq(pp_bus_run(bus, ops, 6), PP_OK);
        ck_assert_uint_eq(ops[1].rdata & 3u, 3u);
        ck_assert_uint_eq(ops[3].rdata & 3u, 2u);
        ck_assert_uint_eq(ops[4].rdata, apb(pmu[1] + PP_PMU_PMCFGR));
        ck_assert_uint_eq(ops[5].rdata, apb(pmu[0] + PP_PMU_PMCFGR));
    }
    ck_assert_uint_gt(jstats().waits, 0);
    ck_assert_uint_gt(pp_dp_idle(pp_bus_adi_dp(bus)), 1);
}
END_TEST

/* A WAIT right after a read: the DP then runs the batch's later CTRL/STAT
 * read (DP accesses are not discarded), which overwrites the read buffer,
 * so the posted result is gone and the read must be issued again. */
START_TEST(a_read_whose_posted_result_a_wait_overwrote_is_issued_again)
{
    struct pp_op ops[4];

    for (unsigned i = 0; i < 4; i++)
        ops[i] = rd(pmu[0] + PP_PMU_PMCEID(i));
    ck_assert_int_eq(pp_bus_run(bus, ops, 4), PP_OK);
    ck_assert_int_eq(pp_bus_run(bus, ops, 4), PP_OK);
    pp_simjtag_set_apb_tck(jt, 30);
    ck_assert_int_eq(pp_bus_run(bus, ops, 4), PP_OK);
    for (unsigned i = 0; i < 4; i++)
        ck_assert_uint_eq(ops[i].rdata, apb(ops[i].addr));
    ck_assert_uint_ge(dstats().lost_reads, 1);
}
END_TEST

/* ---- BD0-BD3 and TAR ---------------------------------------------------------- */

START_TEST(bd_reads_of_one_block_leave_tar_alone)
{
    struct pp_op ops[3] = { rd(pmu[0] + PP_PMU_PMCCNTR_V3 + 4u), rd(pmu[0] + PP_PMU_PMCCNTR_V3),
                            rd(pmu[0] + PP_PMU_PMCCNTR_V3 + 4u) };
    struct pp_simjtag_stats a, b;
    uint32_t tar;

    ck_assert_int_eq(pp_bus_run(bus, ops, 3), PP_OK);
    tar = jt->tar;
    a = jstats();
    ck_assert_int_eq(pp_bus_run(bus, ops, 3), PP_OK);
    b = jstats();
    ck_assert_uint_eq(jt->tar, tar);
    ck_assert_uint_eq(b.apacc - a.apacc, 3);
    ck_assert_uint_eq(b.ap_reads - a.ap_reads, 3);
    ck_assert_uint_eq((jt->select >> 4) & 0xFu, 1);     /* bank 1: BD0-BD3 */
}
END_TEST

START_TEST(sequential_words_use_auto_increment)
{
    struct pp_op ops[6];
    struct pp_simjtag_stats a, b;

    for (unsigned i = 0; i < 6; i++)
        ops[i] = rd(pmu[0] + PP_PMU_PMEVTYPER(i));
    ck_assert_int_eq(pp_bus_run(bus, ops, 6), PP_OK);
    a = jstats();
    ck_assert_int_eq(pp_bus_run(bus, ops, 6), PP_OK);
    b = jstats();
    ck_assert_uint_eq(b.apacc - a.apacc, 7);              /* one TAR write, six DRW */
    for (unsigned i = 0; i < 6; i++)
        ck_assert_uint_eq(ops[i].rdata, apb(ops[i].addr));
}
END_TEST

START_TEST(auto_increment_is_not_trusted_across_1_kb)
{
    struct pp_op ops[3] = { rd(dbg[0] + 0x3F8u), rd(dbg[0] + 0x3FCu), rd(dbg[0] + 0x400u) };
    struct pp_op ref[3];

    memcpy(ref, ops, sizeof(ref));
    ck_assert_int_eq(pp_bus_run(rig.bus, ref, 3), pp_bus_run(bus, ops, 3));
    for (unsigned i = 0; i < 3; i++) {
        ck_assert_int_eq(ops[i].st, ref[i].st);
        if (ref[i].st == PP_OP_OK)
            ck_assert_uint_eq(ops[i].rdata, ref[i].rdata);
    }
}
END_TEST

/* ---- link loss ------------------------------------------------------------- */

START_TEST(a_lost_link_fails_every_op_and_names_the_link)
{
    struct pp_op ops[3] = { rd(pmu[0] + PP_PMU_PMCFGR), rd(pmu[1] + PP_PMU_PMCR),
                            wr(pmu[0] + PP_PMU_PMCNTENSET, 1u) };

    pp_link_simpins_fail_after(lnk, 1);
    ck_assert_int_eq(pp_bus_run(bus, ops, 3), PP_E_LINK);
    for (unsigned i = 0; i < 3; i++)
        ck_assert_int_eq(ops[i].st, PP_OP_LINK);
    ck_assert_ptr_nonnull(strstr(pp_bus_errmsg(bus), "simpins"));
    ck_assert_int_eq(pp_bus_run(bus, ops, 1), PP_E_LINK);
}
END_TEST

/* ---- planning rules on a real capture batch ---------------------------------
 *
 * The batch a capture sends each sample (lib/capture/plan.c): per core an
 * EDPRSR read, then the 64-bit extension's plan (pp_ext_plan: PMOVSSET,
 * the event counters in ascending address, PMCCNTR hi/lo/hi), here for
 * 4 cores x (6 event counters + cycles) on the shipped targets.  Costs are
 * measured in steady state (the batch has run a few times, as a capture
 * replays it) and are exact: an APACC scan is 39 TCK plus the 1 idle TCK
 * the sim's 3-TCK APB access needs (spec/ftdi-mpsse-jtag.md 4.2), and a
 * batch ends with IR to DPACC (9), CTRL/STAT read (39), RDBUFF (39), IR
 * back to APACC (9), less the idle the IR scan covers: 95.
 */

#define SCAN_TCK 40u
#define TAIL_TCK 95u
#define CAP_MAX_OPS (8u * PP_EXT_PLAN_MAX)

struct cap_rig {
    struct fx_rig rig;
    struct pp_simjtag *jt;
    struct pp_link *lnk;              /* owned by bus */
    struct pp_bus *bus;
};

/* Counts over one call, from the sim's TAP and the DP. */
struct cost {
    uint64_t apacc, dpacc, ir, tck, flushes, selects, ap_reads;
};

static struct cost cost_now(const struct cap_rig *r)
{
    struct pp_simjtag_stats j;
    struct pp_dp_stats d;

    pp_simjtag_get_stats(r->jt, &j);
    pp_dp_get_stats(pp_bus_adi_dp(r->bus), &d);
    return (struct cost){ .apacc = j.apacc, .dpacc = j.dpacc, .ir = j.ir_scans, .tck = j.tck,
                          .flushes = r->lnk->stats.flushes, .selects = d.select_writes,
                          .ap_reads = j.ap_reads };
}

static struct cost cost_since(const struct cap_rig *r, const struct cost *a)
{
    struct cost b = cost_now(r);

    return (struct cost){ .apacc = b.apacc - a->apacc, .dpacc = b.dpacc - a->dpacc,
                          .ir = b.ir - a->ir, .tck = b.tck - a->tck,
                          .flushes = b.flushes - a->flushes, .selects = b.selects - a->selects,
                          .ap_reads = b.ap_reads - a->ap_reads };
}

/* A shipped target in deterministic time, its sim's TAP, the adi bus over
 * simpins, and every core counting: events 0x11 (CPU_CYCLES) and up. */
static void cap_rig_up(struct cap_rig *r, const char *name, uint32_t tck_hz)
{
    char path[512], err[512];
    struct pp_target *t = NULL;

    snprintf(path, sizeof(path), "%s/%s.target", PP_SRCTARGETDIR, name);
    ck_assert_msg(pp_target_load(path, &t, err, sizeof(err)) == PP_OK, "%s", err);
    t->time_mode = PP_TIME_DETERMINISTIC;
    if (!t->access_ns)
        t->access_ns = 100;
    fx_rig_build(&r->rig, t);
    for (unsigned c = 0; c < t->ncores; c++) {
        uint32_t p = t->cores[c].pmu_base;

        ck_assert_int_eq(pp_bus_write32(r->rig.bus, t->cores[c].debug_base + PP_DBG_OSLAR, 0),
                         PP_OK);
        for (unsigned e = 0; e < 6 && e < t->cores[c].counters; e++)
            ck_assert_int_eq(pp_bus_write32(r->rig.bus, p + PP_PMU_PMEVTYPER(e), 0x11u + e),
                             PP_OK);
        ck_assert_int_eq(pp_bus_write32(r->rig.bus, p + PP_PMU_PMCNTENSET, 0x8000003Fu), PP_OK);
        ck_assert_int_eq(pp_bus_write32(r->rig.bus, p + PP_PMU_PMCR, PP_PMCR_E), PP_OK);
    }
    r->jt = fx_simjtag(r->rig.sim);
    r->lnk = pp_link_simpins_new(r->jt, NULL, 0, NULL, 0, err, sizeof(err));
    ck_assert_msg(r->lnk != NULL, "%s", err);
    r->lnk->tck_hz = tck_hz;
    r->bus = pp_bus_adi_new(r->lnk, t, err, sizeof(err));
    ck_assert_msg(r->bus != NULL, "%s", err);
}

static void cap_rig_down(struct cap_rig *r)
{
    pp_bus_close(r->bus);
    pp_simjtag_free(r->jt);
    fx_rig_down(&r->rig);
    memset(r, 0, sizeof(*r));
}

/* One sample's batch for cores [0, ncores): EDPRSR (when asked) and the
 * extension's plan of mask, as the capture lays it out. */
static size_t capture_batch(const struct pp_target *t, unsigned ncores, uint32_t mask,
                            bool edprsr, struct pp_op *ops)
{
    size_t n = 0;

    for (unsigned c = 0; c < ncores; c++) {
        struct pp_ext x;
        char err[256];

        ck_assert_msg(pp_ext_init(&x, &t->cores[c], mask, err, sizeof(err)) == PP_OK, "%s", err);
        if (edprsr)
            ops[n++] = rd(t->cores[c].debug_base + PP_DBG_EDPRSR);
        ck_assert_int_eq(pp_ext_plan(&x, ops, CAP_MAX_OPS, &n), PP_OK);
    }
    return n;
}

/* Runs the batch until the plan is in steady state, then once more. */
static struct cost steady(struct cap_rig *r, struct pp_op *ops, size_t n)
{
    struct cost a;

    for (int i = 0; i < 3; i++)
        ck_assert_int_eq(pp_bus_run(r->bus, ops, n), PP_OK);
    a = cost_now(r);
    ck_assert_int_eq(pp_bus_run(r->bus, ops, n), PP_OK);
    return cost_since(r, &a);
}

static const char *const v3_targets[] = { "a76-cluster", "rpi3-a53" };

/*
 * Rule: a register whose address TAR does not hold costs a TAR write
 * (spec 4.8: S = 2K for scattered registers).  PMUv3 event counters sit
 * 8 bytes apart (PMEVCNTR<n> at 8n), so each is scattered; only PMCCNTR's
 * high word after its low word follows by auto-increment.  Per core: 11
 * reads, 10 TAR writes; per sample 84 APACC scans, 3455 TCK: 78.5 TCK per
 * read.  No cheaper way exists with these accesses: a dummy DRW read to
 * step TAR costs the scan a TAR write costs, and BD0-BD3 need a TAR write
 * per 16-byte block plus two bank switches (rule below).
 */
START_TEST(a_capture_sample_pays_one_tar_write_per_scattered_read)
{
    struct cap_rig r;
    struct pp_op ops[CAP_MAX_OPS];
    size_t n;
    struct cost c;

    cap_rig_up(&r, v3_targets[_i], 0);
    n = capture_batch(r.rig.t, 4, 0x8000003Fu, true, ops);
    ck_assert_uint_eq(n, 44);
    c = steady(&r, ops, n);
    ck_assert_uint_eq(c.ap_reads, 44);
    ck_assert_uint_eq(c.apacc, 44 + 40);
    ck_assert_uint_eq(c.tck, 84 * SCAN_TCK + TAIL_TCK);
    ck_assert_uint_eq(c.flushes, 1);
    for (size_t i = 0; i < n; i++)
        ck_assert_int_eq(ops[i].st, PP_OP_OK);
    cap_rig_down(&r);
}
END_TEST

/*
 * Rule: ascending contiguous reads ride CSW AddrInc=single, one TAR write
 * per run.  A PMUv2 core (Cortex-A7) has its counters 4 bytes apart: per
 * core EDPRSR and PMOVSSET (2 scans each), PMEVCNTR0-3 (1 TAR + 4 DRW),
 * PMCCNTR (2): 11 scans for 7 reads.
 */
START_TEST(contiguous_counters_take_one_tar_write_per_run)
{
    struct cap_rig r;
    struct pp_op ops[CAP_MAX_OPS];
    size_t n;
    struct cost c;

    cap_rig_up(&r, "a7-soc", 0);
    n = capture_batch(r.rig.t, 4, 0x8000000Fu, true, ops);
    ck_assert_uint_eq(n, 28);
    c = steady(&r, ops, n);
    ck_assert_uint_eq(c.apacc, 4 * 11);
    ck_assert_uint_eq(c.tck, 44 * SCAN_TCK + TAIL_TCK);
    cap_rig_down(&r);
}
END_TEST

/* Rule: the auto-increment run stops at the 1 KB boundary, where TAR is
 * written again (spec 7.3): 0x3F8, 0x3FC ride one TAR write, 0x400 needs
 * its own. */
START_TEST(an_auto_increment_run_is_cut_at_the_1_kb_boundary)
{
    struct cap_rig r;
    struct pp_op ops[3];
    struct cost c;

    cap_rig_up(&r, "a76-cluster", 0);
    ops[0] = rd(r.rig.t->cores[0].debug_base + 0x3F8u);
    ops[1] = rd(r.rig.t->cores[0].debug_base + 0x3FCu);
    ops[2] = rd(r.rig.t->cores[0].debug_base + 0x400u);
    c = steady(&r, ops, 3);
    ck_assert_uint_eq(c.apacc, 5);
    ck_assert_uint_eq(c.tck, 5 * SCAN_TCK + TAIL_TCK);
    cap_rig_down(&r);
}
END_TEST

/*
 * Rule: BD0-BD3 serve up to four words of one 16-byte block without a TAR
 * write, but they live in bank 1 and TAR in bank 0, so a bank switch (IR
 * to DPACC, SELECT, IR to APACC: 57 TCK) is counted against the TAR
 * writes it saves.  In the four-core sample no block is worth it: no
 * SELECT write in steady state.  One core's PMCCNTR hi/lo/hi alone is:
 * three BD reads per sample and SELECT stays at bank 1.
 */
START_TEST(bd_registers_are_used_where_they_beat_the_bank_switch)
{
    struct cap_rig r;
    struct pp_op ops[CAP_MAX_OPS];
    size_t n;
    struct cost c;

    cap_rig_up(&r, v3_targets[_i], 0);
    n = capture_batch(r.rig.t, 4, 0x8000003Fu, true, ops);
    c = steady(&r, ops, n);
    ck_assert_uint_eq(c.selects, 0);
    ck_assert_uint_eq((r.jt->select >> 4) & 0xFu, 0);
    n = capture_batch(r.rig.t, 1, 0x80000000u, false, ops);
    ck_assert_uint_eq(n, 3);
    c = steady(&r, ops, n);
    ck_assert_uint_eq(c.apacc, 3);
    ck_assert_uint_eq(c.selects, 0);
    ck_assert_uint_eq(c.tck, 3 * SCAN_TCK + TAIL_TCK);
    ck_assert_uint_eq((r.jt->select >> 4) & 0xFu, 1);
    cap_rig_down(&r);
}
END_TEST

/*
 * Rule: TAR is cached across batches, and the plan looks at the batch
 * replayed (a capture sends it every sample): the first sample of the
 * PMCCNTR hi/lo/hi batch writes TAR and switches to bank 1 once (TAR +
 * SELECT at the batch start, 39 TCK, + 3 BD), every later one finds TAR
 * in place: 3 scans, no TAR write.
 */
START_TEST(the_tar_one_sample_leaves_serves_the_next)
{
    struct cap_rig r;
    struct pp_op ops[3];
    struct cost a, first, later;

    cap_rig_up(&r, "a76-cluster", 0);
    (void)capture_batch(r.rig.t, 1, 0x80000000u, false, ops);
    a = cost_now(&r);
    ck_assert_int_eq(pp_bus_run(r.bus, ops, 3), PP_OK);
    first = cost_since(&r, &a);
    later = steady(&r, ops, 3);
    ck_assert_uint_eq(first.apacc, 4);
    ck_assert_uint_eq(later.apacc, 3);
    ck_assert_uint_eq(later.ap_reads, 3);
    ck_assert_uint_eq(r.jt->tar & ~0xFu, r.rig.t->cores[0].pmu_base + 0xF0u);
    cap_rig_down(&r);
}
END_TEST

/*
 * Rule: the last read of a batch is collected by the next scan.  A lone
 * batch needs the CTRL/STAT check anyway, whose read collects it, and an
 * RDBUFF read collects CTRL/STAT: 2 DPACC, 2 IR scans.  In a repeat set
 * each repetition's last read is collected by the next repetition's first
 * scan (spec 4.4 (c)): eight samples cost 8 x 84 APACC scans and still
 * one tail, 3360 TCK per sample plus 95 per set: 76.4 TCK per read.
 */
START_TEST(the_last_read_is_collected_by_the_next_scan_not_by_a_tail_per_sample)
{
    struct cap_rig r;
    struct pp_op ops[8 * CAP_MAX_OPS];
    uint64_t t_ns[8];
    size_t n;
    struct cost a, c;

    cap_rig_up(&r, v3_targets[_i], 0);
    n = capture_batch(r.rig.t, 4, 0x8000003Fu, true, ops);
    c = steady(&r, ops, n);
    ck_assert_uint_eq(c.dpacc, 2);
    ck_assert_uint_eq(c.ir, 2);
    for (unsigned k = 1; k < 8; k++)
        memcpy(ops + k * n, ops, n * sizeof(*ops));
    a = cost_now(&r);
    ck_assert_int_eq(pp_bus_run_repeat(r.bus, ops, n, 8, 0, t_ns), PP_OK);
    c = cost_since(&r, &a);
    ck_assert_uint_eq(c.apacc, 8 * 84);
    ck_assert_uint_eq(c.dpacc, 2);
    ck_assert_uint_eq(c.ir, 2);
    ck_assert_uint_eq(c.tck, 8 * 84 * SCAN_TCK + TAIL_TCK);
    ck_assert_uint_eq(c.flushes, 1);
    cap_rig_down(&r);
}
END_TEST

/* ---- repeat mode ------------------------------------------------------------ */

#define REPS 8u

/* The four-core capture batch laid out REPS times, as the capture does. */
static size_t repeat_batch(const struct cap_rig *r, struct pp_op *ops)
{
    size_t n = capture_batch(r->rig.t, 4, 0x8000003Fu, true, ops);

    for (unsigned k = 1; k < REPS; k++)
        memcpy(ops + k * n, ops, n * sizeof(*ops));
    return n;
}

START_TEST(a_repeat_set_goes_out_in_one_flush_and_one_round_trip)
{
    struct cap_rig r;
    static struct pp_op ops[REPS * CAP_MAX_OPS];
    uint64_t t_ns[REPS], rt;
    size_t n;
    struct cost a, c;

    cap_rig_up(&r, "a76-cluster", 0);
    n = repeat_batch(&r, ops);
    a = cost_now(&r);
    rt = r.lnk->stats.round_trips;
    /* back to back (interval 0): a set even on a link without a clock */
    ck_assert_int_eq(pp_bus_run_repeat(r.bus, ops, n, REPS, 0, t_ns), PP_OK);
    c = cost_since(&r, &a);
    ck_assert_uint_eq(c.flushes, 1);
    ck_assert_uint_eq(r.lnk->stats.round_trips - rt, 1);
    ck_assert_uint_eq(c.ap_reads, REPS * n);
    for (size_t i = 0; i < REPS * n; i++)
        ck_assert_int_eq(ops[i].st, PP_OP_OK);
    cap_rig_down(&r);
}
END_TEST

/* The capture's programming check is needed once per set (pp_op.once):
 * its read (a TAR write and a DRW read, PMCR sits apart from the counters)
 * is carried in the first repetition and skipped in the others, which end
 * PP_OP_SKIPPED without a scan, and the set still succeeds. */
START_TEST(an_op_marked_once_is_carried_in_the_first_repetition_only)
{
    struct cap_rig r;
    static struct pp_op ops[REPS * CAP_MAX_OPS];
    uint64_t t_ns[REPS];
    struct pp_bus_stats b0, b1;
    size_t n;
    struct cost a, every, once;

    cap_rig_up(&r, "a76-cluster", 0);
    n = capture_batch(r.rig.t, 1, 0x80000000u, true, ops);
    ops[n++] = (struct pp_op){ .addr = r.rig.t->cores[0].pmu_base + PP_PMU_PMCR };
    for (unsigned k = 1; k < REPS; k++)
        memcpy(ops + k * n, ops, n * sizeof(*ops));
    (void)steady(&r, ops, n);
    a = cost_now(&r);
    ck_assert_int_eq(pp_bus_run_repeat(r.bus, ops, n, REPS, 0, t_ns), PP_OK);
    every = cost_since(&r, &a);
    ops[n - 1].once = 1;
    for (unsigned k = 1; k < REPS; k++)
        memcpy(ops + k * n, ops, n * sizeof(*ops));
    pp_bus_get_stats(r.bus, &b0);
    a = cost_now(&r);
    ck_assert_int_eq(pp_bus_run_repeat(r.bus, ops, n, REPS, 0, t_ns), PP_OK);
    once = cost_since(&r, &a);
    pp_bus_get_stats(r.bus, &b1);
    ck_assert_int_eq(ops[n - 1].st, PP_OP_OK);
    ck_assert_uint_eq(ops[n - 1].rdata & 1u, 1u);          /* PMCR.E, as programmed */
    for (unsigned k = 1; k < REPS; k++) {
        ck_assert_int_eq(ops[k * n + n - 1].st, PP_OP_SKIPPED);
        for (size_t i = 0; i + 1 < n; i++)
            ck_assert_int_eq(ops[k * n + i].st, PP_OP_OK);
    }
    ck_assert_uint_eq(every.ap_reads - once.ap_reads, REPS - 1);
    ck_assert_uint_eq(every.apacc - once.apacc, 2 * (REPS - 1));
    ck_assert_uint_eq(every.tck - once.tck, 2 * (REPS - 1) * SCAN_TCK);
    ck_assert_uint_eq(once.flushes, 1);
    ck_assert_uint_eq(b1.ops - b0.ops, REPS * n - (REPS - 1));   /* what was carried */
    cap_rig_down(&r);
}
END_TEST

/* Every repetition keeps a transfer (its pacing and its date ride on its
 * first and last), so a batch of once ops only is carried in full. */
START_TEST(a_batch_of_once_ops_only_is_carried_in_every_repetition)
{
    struct cap_rig r;
    struct pp_op ops[REPS];
    uint64_t t_ns[REPS];
    struct cost a, c;

    cap_rig_up(&r, "a76-cluster", 0);
    for (unsigned k = 0; k < REPS; k++)
        ops[k] = (struct pp_op){ .addr = r.rig.t->cores[0].pmu_base + PP_PMU_PMCR, .once = 1 };
    a = cost_now(&r);
    ck_assert_int_eq(pp_bus_run_repeat(r.bus, ops, 1, REPS, 0, t_ns), PP_OK);
    c = cost_since(&r, &a);
    ck_assert_uint_eq(c.flushes, 1);                      /* still one set */
    ck_assert_uint_eq(c.ap_reads, REPS);
    for (unsigned k = 0; k < REPS; k++)
        ck_assert_int_eq(ops[k].st, PP_OP_OK);
    cap_rig_down(&r);
}
END_TEST

/* Deterministic target time moves with APB accesses only, so the set and
 * REPS plain runs of the same batch on a fresh identical SoC read the
 * same values. */
START_TEST(repeat_results_equal_separate_runs_on_a_fresh_identical_sim)
{
    struct cap_rig r1, r2;
    static struct pp_op rep[REPS * CAP_MAX_OPS], one[CAP_MAX_OPS];
    uint64_t t_ns[REPS];
    size_t n;
    unsigned changed = 0;

    cap_rig_up(&r1, v3_targets[_i], 30000000u);
    cap_rig_up(&r2, v3_targets[_i], 30000000u);
    n = repeat_batch(&r1, rep);
    ck_assert_int_eq(pp_bus_run_repeat(r1.bus, rep, n, REPS, 200000u, t_ns), PP_OK);
    (void)capture_batch(r2.rig.t, 4, 0x8000003Fu, true, one);
    for (unsigned k = 0; k < REPS; k++) {
        ck_assert_int_eq(pp_bus_run(r2.bus, one, n), PP_OK);
        for (size_t i = 0; i < n; i++) {
            ck_assert_int_eq(rep[k * n + i].st, PP_OP_OK);
            ck_assert_uint_eq(rep[k * n + i].rdata, one[i].rdata);
            changed += k > 0 && rep[k * n + i].rdata != rep[(k - 1) * n + i].rdata;
        }
    }
    ck_assert_uint_gt(changed, REPS);       /* the counters did count */
    cap_rig_down(&r1);
    cap_rig_down(&r2);
}
END_TEST

/* With the link's clock known, repetition k starts k intervals (in TCKs)
 * after the first, Run-Test/Idle in between, and each is dated by the
 * TCK schedule: the stamps are exactly one interval apart (the first
 * repetition also pays the set's IR scan, the last one no idle before
 * the tail).  The clock claimed is 1 GHz so that the in-process link is
 * surely slower than it: a link faster than its clock is dated by host
 * time instead (see adi_bus.c). */
START_TEST(repetitions_are_spaced_by_idle_clocks_and_dated_by_the_tck_schedule)
{
    struct cap_rig r;
    static struct pp_op ops[REPS * CAP_MAX_OPS];
    const uint64_t iv = 6000u;               /* 6000 TCK at 1 GHz */
    uint64_t t_ns[REPS];
    size_t n;
    struct cost a, c;

    cap_rig_up(&r, "a76-cluster", 1000000000u);
    n = repeat_batch(&r, ops);
    ck_assert_int_eq(pp_bus_run(r.bus, ops, n), PP_OK);
    a = cost_now(&r);
    ck_assert_int_eq(pp_bus_run_repeat(r.bus, ops, n, REPS, iv, t_ns), PP_OK);
    c = cost_since(&r, &a);
    ck_assert_uint_eq(c.flushes, 1);
    ck_assert_uint_ge(c.tck, (REPS - 1) * 6000u + 84 * SCAN_TCK);
    ck_assert_uint_le(c.tck, (REPS - 1) * 6000u + 84 * SCAN_TCK + TAIL_TCK + 20);
    for (unsigned k = 1; k < REPS; k++) {
        ck_assert_uint_gt(t_ns[k], t_ns[k - 1]);
        ck_assert_uint_le(t_ns[k] - t_ns[k - 1], iv + 400u);
        ck_assert_uint_ge(t_ns[k] - t_ns[k - 1], iv - 400u);
        if (k >= 2 && k + 1 < REPS)
            ck_assert_uint_eq(t_ns[k] - t_ns[k - 1], iv);
    }
    cap_rig_down(&r);
}
END_TEST

static uint64_t mono_now(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* A rig on a link without a clock, its capture batch laid out REPS times
 * and run once, so that TAR and SELECT are settled as in a steady state. */
static size_t clockless_rig_up(struct cap_rig *r, struct pp_op *ops)
{
    size_t n;

    cap_rig_up(r, "rpi3-a53", 0);
    n = repeat_batch(r, ops);
    ck_assert_int_eq(pp_bus_run(r->bus, ops, n), PP_OK);
    return n;
}

/* A link without a clock (remote_bitbang) runs the repetitions back to
 * back and dates them between the host times around the flush. */
START_TEST(without_a_clock_back_to_back_repetitions_cost_the_scans_and_one_tail)
{
    struct cap_rig r;
    static struct pp_op ops[REPS * CAP_MAX_OPS];
    uint64_t t_ns[REPS], before, after;
    size_t n = clockless_rig_up(&r, ops);
    struct cost a = cost_now(&r), c;

    before = mono_now();
    ck_assert_int_eq(pp_bus_run_repeat(r.bus, ops, n, REPS, 0, t_ns), PP_OK);
    after = mono_now();
    c = cost_since(&r, &a);
    ck_assert_uint_eq(c.tck, REPS * 84 * SCAN_TCK + TAIL_TCK);
    ck_assert_uint_ge(t_ns[0], before);
    ck_assert_uint_le(t_ns[REPS - 1], after);
    for (unsigned k = 1; k < REPS; k++)
        ck_assert_uint_ge(t_ns[k], t_ns[k - 1]);
    cap_rig_down(&r);
}
END_TEST

/* Nothing on a clockless wire (remote_bitbang) measures time, so an
 * interval is kept by the host: each repetition on its own, no earlier
 * than its deadline.  Only lower bounds are asserted: a busy machine can
 * make a repetition late, never early. */
START_TEST(without_a_clock_an_interval_is_kept_by_host_time_one_round_trip_each)
{
    struct cap_rig r;
    static struct pp_op ops[REPS * CAP_MAX_OPS];
    uint64_t t_ns[REPS], before, rt;
    size_t n = clockless_rig_up(&r, ops);
    struct cost a = cost_now(&r), c;

    rt = r.lnk->stats.round_trips;
    before = mono_now();
    ck_assert_int_eq(pp_bus_run_repeat(r.bus, ops, n, REPS, 1000000u, t_ns), PP_OK);
    c = cost_since(&r, &a);
    ck_assert_uint_eq(c.flushes, REPS);
    ck_assert_uint_eq(r.lnk->stats.round_trips - rt, REPS);
    for (unsigned k = 0; k < REPS; k++)
        ck_assert_uint_ge(t_ns[k], before + k * 1000000u);
    for (size_t i = 0; i < REPS * n; i++)
        ck_assert_int_eq(ops[i].st, PP_OP_OK);
    cap_rig_down(&r);
}
END_TEST

/* STICKYERR at the end of a set cannot be pinned on a repetition, so
 * every repetition runs again on its own with the per-op attribution. */
START_TEST(a_sticky_error_in_a_set_is_attributed_by_running_each_repetition_alone)
{
    struct cap_rig r;
    static struct pp_op ops[REPS * CAP_MAX_OPS];
    uint64_t t_ns[REPS];
    uint32_t pmu1;
    size_t n;
    struct cost a, c;

    cap_rig_up(&r, "a76-cluster", 0);
    n = repeat_batch(&r, ops);
    pmu1 = r.rig.t->cores[1].pmu_base;
    ck_assert_int_eq(pp_sim_set_power(r.rig.sim, 1, false), PP_OK);
    a = cost_now(&r);
    ck_assert_int_eq(pp_bus_run_repeat(r.bus, ops, n, REPS, 0, t_ns), PP_E_SLVERR);
    c = cost_since(&r, &a);
    ck_assert_uint_gt(c.flushes, REPS);
    for (size_t i = 0; i < REPS * n; i++) {
        bool on_pmu1 = ops[i].addr >= pmu1 && ops[i].addr < pmu1 + 0x1000u;

        ck_assert_int_eq(ops[i].st, on_pmu1 ? PP_OP_SLVERR : PP_OP_OK);
    }
    for (unsigned k = 1; k < REPS; k++)
        ck_assert_uint_ge(t_ns[k], t_ns[k - 1]);
    cap_rig_down(&r);
}
END_TEST

START_TEST(a_set_that_meets_waits_still_completes_every_repetition)
{
    struct cap_rig r;
    static struct pp_op ops[REPS * CAP_MAX_OPS];
    uint64_t t_ns[REPS];
    size_t n;

    cap_rig_up(&r, "rpi3-a53", 0);
    n = repeat_batch(&r, ops);
    pp_simjtag_set_apb_tck(r.jt, 12);
    ck_assert_int_eq(pp_bus_run_repeat(r.bus, ops, n, REPS, 0, t_ns), PP_OK);
    for (size_t i = 0; i < REPS * n; i++)
        ck_assert_int_eq(ops[i].st, PP_OP_OK);
    ck_assert_uint_gt(pp_dp_idle(pp_bus_adi_dp(r.bus)), 1);
    cap_rig_down(&r);
}
END_TEST

START_TEST(a_link_lost_during_a_set_fails_every_op_of_it)
{
    struct cap_rig r;
    static struct pp_op ops[REPS * CAP_MAX_OPS];
    uint64_t t_ns[REPS];
    size_t n;

    cap_rig_up(&r, "a76-cluster", 0);
    n = repeat_batch(&r, ops);
    pp_link_simpins_fail_after(r.lnk, 1);
    ck_assert_int_eq(pp_bus_run_repeat(r.bus, ops, n, REPS, 0, t_ns), PP_E_LINK);
    for (size_t i = 0; i < REPS * n; i++)
        ck_assert_int_eq(ops[i].st, PP_OP_LINK);
    ck_assert_ptr_nonnull(strstr(pp_bus_errmsg(r.bus), "simpins"));
    cap_rig_down(&r);
}
END_TEST

static Suite *adi_suite(void)
{
    Suite *s = suite_create("adi");
    TCase *tc;

    tc = tcase_create("power-up and discovery");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, debug_and_system_power_are_requested_and_acknowledged);
    tcase_add_test(tc, the_bus_is_named_after_its_link);
    tcase_add_test(tc, apb_ap_is_used_at_the_targets_ap_index);
    tcase_add_test(tc, apb_ap_is_found_by_its_idr_when_the_target_index_is_wrong);
    tcase_add_test(tc, csw_gets_word_size_and_increment_and_keeps_its_other_bits);
    tcase_add_test(tc, the_dp_is_found_among_bypass_only_taps);
    suite_add_tcase(s, tc);

    tc = tcase_create("batches");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, reads_equal_what_the_apb_returns);
    tcase_add_test(tc, a_batch_of_reads_on_several_cores_is_one_round_trip);
    tcase_add_test(tc, writes_and_reads_run_in_order);
    tcase_add_test(tc, bus_statistics_come_from_the_link);
    tcase_add_test(tc, posted_reads_are_chained_with_one_rdbuff_at_the_end);
    tcase_add_test(tc, unaligned_op_is_refused_and_the_others_run);
    suite_add_tcase(s, tc);

    tc = tcase_create("cost");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, a_counter_read_costs_40_tck_in_steady_state);
    tcase_add_test(tc, a_batch_longer_than_a_build_piece_costs_40_tck_a_read);
    tcase_add_test(tc, a_stream_sample_of_both_cores_is_one_round_trip);
    suite_add_tcase(s, tc);

    tc = tcase_create("sticky errors");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, reads_on_a_powered_off_core_fail_and_the_others_succeed);
    tcase_add_test(tc, edprsr_read_before_a_failure_keeps_its_first_value);
    tcase_add_test(tc, ops_after_a_failure_are_carried);
    tcase_add_test(tc, an_error_on_one_address_fails_only_that_op);
    tcase_add_test(tc, an_error_gone_by_the_second_run_reports_the_second_runs_values);
    tcase_add_test(tc, the_batch_after_a_sticky_error_starts_clean);
    suite_add_tcase(s, tc);

    tc = tcase_create("wait");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, a_wait_storm_is_recovered);
    tcase_add_test(tc, a_wait_that_never_ends_fails_with_wait_status);
    tcase_add_test(tc, a_slow_apb_is_met_with_more_idle_and_nothing_reordered);
    tcase_add_test(tc, a_read_whose_posted_result_a_wait_overwrote_is_issued_again);
    suite_add_tcase(s, tc);

    tc = tcase_create("bd and tar");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, bd_reads_of_one_block_leave_tar_alone);
    tcase_add_test(tc, sequential_words_use_auto_increment);
    tcase_add_test(tc, auto_increment_is_not_trusted_across_1_kb);
    suite_add_tcase(s, tc);

    tc = tcase_create("planning rules on a capture batch");
    tcase_set_timeout(tc, 30);
    tcase_add_loop_test(tc, a_capture_sample_pays_one_tar_write_per_scattered_read, 0, 2);
    tcase_add_test(tc, contiguous_counters_take_one_tar_write_per_run);
    tcase_add_test(tc, an_auto_increment_run_is_cut_at_the_1_kb_boundary);
    tcase_add_loop_test(tc, bd_registers_are_used_where_they_beat_the_bank_switch, 0, 2);
    tcase_add_test(tc, the_tar_one_sample_leaves_serves_the_next);
    tcase_add_loop_test(tc, the_last_read_is_collected_by_the_next_scan_not_by_a_tail_per_sample,
                        0, 2);
    suite_add_tcase(s, tc);

    tc = tcase_create("repeat mode");
    tcase_set_timeout(tc, 30);
    tcase_add_test(tc, a_repeat_set_goes_out_in_one_flush_and_one_round_trip);
    tcase_add_loop_test(tc, repeat_results_equal_separate_runs_on_a_fresh_identical_sim, 0, 2);
    tcase_add_test(tc, an_op_marked_once_is_carried_in_the_first_repetition_only);
    tcase_add_test(tc, a_batch_of_once_ops_only_is_carried_in_every_repetition);
    tcase_add_test(tc, repetitions_are_spaced_by_idle_clocks_and_dated_by_the_tck_schedule);
    tcase_add_test(tc, without_a_clock_back_to_back_repetitions_cost_the_scans_and_one_tail);
    tcase_add_test(tc, without_a_clock_an_interval_is_kept_by_host_time_one_round_trip_each);
    tcase_add_test(tc, a_sticky_error_in_a_set_is_attributed_by_running_each_repetition_alone);
    tcase_add_test(tc, a_set_that_meets_waits_still_completes_every_repetition);
    tcase_add_test(tc, a_link_lost_during_a_set_fails_every_op_of_it);
    suite_add_tcase(s, tc);

    tc = tcase_create("link loss");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, a_lost_link_fails_every_op_and_names_the_link);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(adi_suite());
    int failed;

    srunner_run_all(sr, CK_NORMAL);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

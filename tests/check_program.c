/*
 * check_program.c - counter allocation, programming, ownership checks and
 * claim tags (lib/pmu/program.c, lib/pmu/owner.c) against the simulated
 * SoC over the in-process bus.
 *
 * Each test builds a one-core target in C: a class 0x1 top ROM table, one
 * cluster ROM table and the core's debug, CTI and PMU blocks, in the v8
 * memory map (spec 8.1) for Armv8 cores and the v7 layout (spec 4.2) for
 * Armv7 cores.  "On-target software" is played by direct APB writes to the
 * simulator, as perf would program the counters from inside.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bus/bus.h"
#include "pmu/coretype.h"
#include "pmu/evname.h"
#include "pmu/program.h"
#include "pmu/regs.h"
#include "sim/sim.h"
#include "fixture.h"

#define TOP_ROM  0x80000000u
#define V8_ROM   0x81000000u
#define V8_DBG   (V8_ROM + 0x10000u)
#define V8_CTI   (V8_ROM + 0x20000u)
#define V8_PMU   (V8_ROM + 0x30000u)
#define V7_ROM   0x80080000u
#define V7_DBG   0x80090000u
#define V7_PMU   0x80091000u
#define V7_CTI   0x80098000u

#define WINDOW_NS 10000000u     /* 10 ms of target time */

static struct pp_target *tgt;
static struct pp_sim *sim;
static struct pp_bus *bus;
static const struct pp_core_desc *core;

/* Every core type pmuprobe knows (lib/pmu/coretype.c). */
static const char *const core_types[] = {
    "cortex-a7", "cortex-a9", "cortex-a15", "cortex-a32", "cortex-a35", "cortex-a53",
    "cortex-a55", "cortex-a57", "cortex-a72", "cortex-a76", "neoverse-n1",
};
#define NCORE_TYPES (sizeof(core_types) / sizeof(core_types[0]))

static const struct pp_workload test_wl = {
    .clock_mhz = 1800, .ipc = 1.4, .l1d_pki = 350, .l1d_mpki = 12, .l1i_mpki = 4,
    .l2d_pki = 30, .l2d_mpki = 3, .br_pki = 180, .br_mpki = 6, .tlb_mpki = 1.5,
    .stall_fe = 0.12, .stall_be = 0.25, .phase_us = 50, .swing = 0.3, .seed = 7,
};

/* ---- fixtures ----------------------------------------------------------- */

static struct pp_target *one_core(const char *type, uint32_t access_ns, double clock_mhz)
{
    char name[64];
    const struct pp_core_type *ct = pp_core_type_find(type);
    struct pp_target *t;
    struct pp_core_desc *d;
    bool v7;

    ck_assert_msg(ct != NULL, "core type %s missing", type);
    v7 = ct->arch == PP_ARCH_V7;
    snprintf(name, sizeof(name), "one-%s", type);
    t = fx_target(name, TOP_ROM, 0x1, 0x4B5, access_ns);
    fx_add_cluster(t, v7 ? V7_ROM : V8_ROM, 0x1, ct->rom_part, 1);
    d = fx_add_core(t, type, 0, 0, v7 ? V7_DBG : V8_DBG, v7 ? V7_PMU : V8_PMU,
                    v7 ? V7_CTI : V8_CTI, 0x80000000u, &test_wl);
    d->wl.clock_mhz = clock_mhz;
    return t;
}

static void start(const char *type, uint32_t access_ns, double clock_mhz)
{
    char err[256] = "";

    tgt = one_core(type, access_ns, clock_mhz);
    sim = pp_sim_new(tgt, err, sizeof(err));
    ck_assert_msg(sim != NULL, "pp_sim_new(%s): %s", type, err);
    bus = pp_bus_sim_new(sim);
    ck_assert_ptr_nonnull(bus);
    core = &tgt->cores[0];
}

static void a76_up(void)
{
    start("cortex-a76", 100, 1800);
}

static void down(void)
{
    pp_bus_close(bus);
    pp_sim_free(sim);
    free(tgt);
    bus = NULL;
    sim = NULL;
    tgt = NULL;
    core = NULL;
}

/* ---- helpers ------------------------------------------------------------- */

static uint32_t rd(uint32_t addr)
{
    uint32_t v = 0xDEADBEEF;

    ck_assert_int_eq(pp_sim_apb_read(sim, addr, &v), PP_OP_OK);
    return v;
}

/* On-target software (or a test) writing a register directly. */
static void wr(uint32_t addr, uint32_t v)
{
    ck_assert_int_eq(pp_sim_apb_write(sim, addr, v), PP_OP_OK);
}

static uint32_t pmu(uint32_t off)
{
    return core->pmu_base + off;
}

static uint32_t dbg(uint32_t off)
{
    return core->debug_base + off;
}

/* Resolves "a,b,c" for the core and allocates it; insists on success. */
static void plan(const char *events, struct pp_pmu_prog *prog)
{
    struct pp_evsel ev[PP_MAX_COUNTERS + 1];
    char list[256], err[256], *save = NULL;
    unsigned n = 0;

    snprintf(list, sizeof(list), "%s", events);
    for (char *tok = strtok_r(list, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        int rc = pp_event_resolve(core->type, tok, &ev[n], err, sizeof(err));

        ck_assert_msg(rc == PP_OK, "%s on %s: %s", tok, core->type->name, err);
        n++;
    }
    ck_assert_int_eq(pp_pmu_allocate(core, ev, n, prog, err, sizeof(err)), PP_OK);
}

/* perf on the target: INST_RETIRED on PMEVCNTR2 and the cycle counter,
 * started. */
static void software_uses_counters(void)
{
    wr(pmu(PP_PMU_PMEVTYPER(2)), 0x08);
    wr(pmu(PP_PMU_PMCNTENSET), 1u << 2 | PP_CCNT_BIT);
    wr(pmu(PP_PMU_PMCR), PP_PMCR_E | PP_PMCR_LC);
}

static uint64_t writes_so_far(void)
{
    struct pp_sim_stats s;

    pp_sim_get_stats(sim, &s);
    return s.writes;
}

static struct pp_pmu_state state(void)
{
    struct pp_pmu_state st;

    ck_assert_int_eq(pp_pmu_read_state(bus, core, &st), PP_OK);
    return st;
}

static int configure(const char *events, unsigned flags, char *msg, size_t len)
{
    struct pp_pmu_prog prog;
    struct pp_pmu_state st;

    plan(events, &prog);
    return pp_pmu_configure(bus, core, &prog, flags, &st, msg, len);
}

/* ---- allocation ------------------------------------------------------------- */

START_TEST(cycles_go_to_the_cycle_counter_and_the_rest_to_event_counters_in_order)
{
    struct pp_pmu_prog p;

    plan("instructions,cycles,L1D_CACHE_REFILL", &p);
    ck_assert(p.cycles);
    ck_assert_uint_eq(p.nev, 2);
    ck_assert_uint_eq(p.nreq, 3);
    ck_assert_uint_eq(p.slot[0], 0);
    ck_assert_uint_eq(p.slot[1], PP_CYCLE_SLOT);
    ck_assert_uint_eq(p.slot[2], 1);
    ck_assert_uint_eq(p.ev[0].code, 0x08);
    ck_assert_uint_eq(p.ev[1].code, 0x03);
}
END_TEST

START_TEST(a_second_cycles_event_takes_an_event_counter)
{
    struct pp_pmu_prog p;

    plan("cycles,cycles", &p);
    ck_assert(p.cycles);
    ck_assert_uint_eq(p.nev, 1);
    ck_assert_uint_eq(p.ev[0].code, 0x11);
}
END_TEST

START_TEST(more_events_than_event_counters_are_refused_with_the_counts)
{
    struct pp_evsel ev[6];
    struct pp_pmu_prog p;
    char err[256];

    /* Cortex-A7 has four event counters: cycles plus five does not fit. */
    down();
    start("cortex-a7", 100, 1000);
    ck_assert_int_eq(pp_event_resolve(core->type, "cycles", &ev[0], err, sizeof(err)), PP_OK);
    for (unsigned i = 1; i < 6; i++)
        ck_assert_int_eq(pp_event_resolve(core->type, "r0x01", &ev[i], err, sizeof(err)), PP_OK);
    ck_assert_int_eq(pp_pmu_allocate(core, ev, 5, &p, err, sizeof(err)), PP_OK);
    ck_assert_int_eq(pp_pmu_allocate(core, ev, 6, &p, err, sizeof(err)), PP_E_BUSY);
    ck_assert_msg(strstr(err, "cpu0") && strstr(err, "5 events") && strstr(err, "Cortex-A7 has 4"),
                  "message: %s", err);
}
END_TEST

/* ---- programming -------------------------------------------------------------- */

START_TEST(programming_writes_event_and_filter_into_pmevtyper)
{
    struct pp_pmu_prog p;

    plan("instructions:u,L1D_CACHE_REFILL", &p);
    ck_assert_int_eq(pp_pmu_program(bus, core, &p), PP_OK);
    /* :u counts EL0 only: P (bit 31) excludes EL1 (spec 1.3). */
    ck_assert_uint_eq(rd(pmu(PP_PMU_PMEVTYPER(0))), 0x80000008u);
    ck_assert_uint_eq(rd(pmu(PP_PMU_PMEVTYPER(1))), 0x00000003u);
}
END_TEST

START_TEST(programming_writes_the_cycle_filter_into_pmccfiltr)
{
    struct pp_pmu_prog p;

    plan("cycles:k", &p);
    ck_assert_int_eq(pp_pmu_program(bus, core, &p), PP_OK);
    /* :k counts EL1 only: U (bit 30) excludes EL0. */
    ck_assert_uint_eq(rd(pmu(PP_PMU_PMCCFILTR)), 0x40000000u);
}
END_TEST

START_TEST(programming_enables_exactly_the_used_counters_and_pmcr_e)
{
    struct pp_pmu_prog p;

    wr(pmu(PP_PMU_PMCNTENSET), 1u << 4);   /* a stale enable is cleared */
    plan("cycles,instructions,L1D_CACHE_REFILL", &p);
    ck_assert_int_eq(pp_pmu_program(bus, core, &p), PP_OK);
    ck_assert_uint_eq(rd(pmu(PP_PMU_PMCNTENSET)), PP_CCNT_BIT | 0x3u);
    ck_assert_uint_eq(rd(pmu(PP_PMU_PMCR)), PP_PMCR_E | PP_PMCR_LC);
}
END_TEST

START_TEST(programming_zeroes_the_counters)
{
    struct pp_pmu_prog p;

    wr(pmu(PP_PMU_PMEVCNTR_V3(0)), 123456);
    plan("instructions", &p);
    ck_assert_int_eq(pp_pmu_program_ex(bus, core, &p, PP_PROG_NOSTART), PP_OK);
    ck_assert_uint_eq(rd(pmu(PP_PMU_PMEVCNTR_V3(0))), 0);
}
END_TEST

START_TEST(no_start_leaves_pmcr_e_clear_so_nothing_counts)
{
    struct pp_pmu_prog p;

    plan("cycles,instructions", &p);
    ck_assert_int_eq(pp_pmu_program_ex(bus, core, &p, PP_PROG_NOSTART), PP_OK);
    ck_assert_uint_eq(rd(pmu(PP_PMU_PMCR)) & PP_PMCR_E, 0);
    pp_sim_advance_ns(sim, WINDOW_NS);
    ck_assert_uint_eq(rd(pmu(PP_PMU_PMEVCNTR_V3(0))), 0);
    ck_assert_uint_eq(rd(pmu(PP_PMU_PMCCNTR_V3)), 0);
}
END_TEST

START_TEST(a_program_step_is_one_bus_batch)
{
    struct pp_bus_stats before, after;
    struct pp_pmu_prog p;

    plan("cycles,instructions,L1D_CACHE_REFILL", &p);
    pp_bus_get_stats(bus, &before);
    ck_assert_int_eq(pp_pmu_program_ex(bus, core, &p, PP_PROG_CLAIM), PP_OK);
    pp_bus_get_stats(bus, &after);
    ck_assert_uint_eq(after.batches - before.batches, 1);
}
END_TEST

START_TEST(configure_is_one_batch_of_reads_then_one_of_writes)
{
    struct pp_bus_stats before, after;
    char msg[256];

    pp_bus_get_stats(bus, &before);
    ck_assert_int_eq(configure("cycles,instructions", 0, msg, sizeof(msg)), PP_OK);
    pp_bus_get_stats(bus, &after);
    ck_assert_uint_eq(after.batches - before.batches, 2);
}
END_TEST

/* ---- ownership ------------------------------------------------------------------ */

START_TEST(a_fresh_pmu_is_free)
{
    struct pp_pmu_state st = state();
    char msg[256];

    ck_assert_uint_eq(pp_pmu_busy(&st), 0);
    ck_assert_int_eq(pp_pmu_check_owner(core, &st, msg, sizeof(msg)), PP_OK);
    ck_assert_str_eq(msg, "");
}
END_TEST

START_TEST(counters_on_target_software_runs_are_reported_with_their_events)
{
    struct pp_pmu_state st;
    char msg[512];

    software_uses_counters();
    st = state();
    ck_assert_uint_eq(pp_pmu_busy(&st), 1u << 2 | PP_CCNT_BIT);
    ck_assert_int_eq(pp_pmu_check_owner(core, &st, msg, sizeof(msg)), PP_E_BUSY);
    ck_assert_msg(strstr(msg, "cpu0") && strstr(msg, "on-target software") &&
                  strstr(msg, "PMEVCNTR2 (INST_RETIRED 0x0008)") && strstr(msg, "PMCCNTR") &&
                  strstr(msg, "PMCR=0x00000041 (E=1)") && strstr(msg, "PMCNTENSET=0x80000004") &&
                  strstr(msg, "PMEVTYPER2=0x00000008"), "message: %s", msg);
}
END_TEST

START_TEST(enabled_counter_with_an_event_is_in_use_even_with_pmcr_e_clear)
{
    struct pp_pmu_state st;

    wr(pmu(PP_PMU_PMEVTYPER(1)), 0x03);
    wr(pmu(PP_PMU_PMCNTENSET), 1u << 1);
    st = state();
    ck_assert_uint_eq(pp_pmu_busy(&st), 1u << 1);
}
END_TEST

START_TEST(programmed_but_disabled_counters_are_free)
{
    struct pp_pmu_state st;

    wr(pmu(PP_PMU_PMEVTYPER(0)), 0x08);
    wr(pmu(PP_PMU_PMCR), PP_PMCR_E);
    st = state();
    ck_assert_uint_eq(pp_pmu_busy(&st), 0);
}
END_TEST

START_TEST(configure_refuses_counters_in_use_and_writes_nothing)
{
    uint64_t writes;
    char msg[512];

    software_uses_counters();
    writes = writes_so_far();
    ck_assert_int_eq(configure("cycles,L1D_CACHE_REFILL", 0, msg, sizeof(msg)), PP_E_BUSY);
    ck_assert_uint_eq(writes_so_far(), writes);
    ck_assert_ptr_nonnull(strstr(msg, "PMEVCNTR2"));
    ck_assert_uint_eq(rd(pmu(PP_PMU_PMEVTYPER(2))), 0x08);
    ck_assert_uint_eq(rd(pmu(PP_PMU_PMEVTYPER(0))), 0);
}
END_TEST

START_TEST(configure_with_force_takes_the_counters_and_keeps_the_reason)
{
    char msg[512];

    software_uses_counters();
    ck_assert_int_eq(configure("cycles,L1D_CACHE_REFILL", PP_PROG_FORCE, msg, sizeof(msg)),
                     PP_OK);
    ck_assert_ptr_nonnull(strstr(msg, "on-target software"));
    ck_assert_uint_eq(rd(pmu(PP_PMU_PMEVTYPER(0))), 0x03);
    ck_assert_uint_eq(rd(pmu(PP_PMU_PMCNTENSET)), PP_CCNT_BIT | 1u);
}
END_TEST

START_TEST(counters_in_use_under_our_own_claim_are_taken_over)
{
    char msg[512];

    ck_assert_int_eq(configure("cycles,instructions", 0, msg, sizeof(msg)), PP_OK);
    ck_assert_int_eq(configure("cycles,L1D_CACHE_REFILL", 0, msg, sizeof(msg)), PP_OK);
    ck_assert_ptr_nonnull(strstr(msg, "external debugger"));
    ck_assert_uint_eq(rd(pmu(PP_PMU_PMEVTYPER(0))), 0x03);
}
END_TEST

START_TEST(reading_the_state_of_a_powered_off_core_fails_with_the_address)
{
    struct pp_pmu_state st;

    ck_assert_int_eq(pp_sim_set_power(sim, 0, false), PP_OK);
    ck_assert_int_eq(pp_pmu_read_state(bus, core, &st), PP_E_SLVERR);
    ck_assert_int_eq(st.st, PP_OP_SLVERR);
    ck_assert_uint_eq(st.bad_addr, pmu(PP_PMU_PMCR));
}
END_TEST

/* ---- claim tags ------------------------------------------------------------------- */

START_TEST(claim_tags_are_read_from_dbgclaimclr_with_dbgclaimset_giving_those_implemented)
{
    struct pp_pmu_state st;

    wr(dbg(PP_DBG_CLAIMSET), 0x4);
    st = state();
    ck_assert(st.claim_ok);
    ck_assert_uint_eq(st.claim_impl, 0xFF);
    ck_assert_uint_eq(st.claim, 0x4);
}
END_TEST

START_TEST(configure_sets_the_external_debugger_claim_tag)
{
    char msg[256];

    ck_assert_int_eq(configure("cycles", 0, msg, sizeof(msg)), PP_OK);
    ck_assert_uint_eq(rd(dbg(PP_DBG_CLAIMCLR)), PP_CLAIM_EXTERNAL);
}
END_TEST

START_TEST(stop_releases_the_claim_and_hands_back_free_counters)
{
    struct pp_pmu_state st;
    char msg[256];

    ck_assert_int_eq(configure("cycles,instructions", 0, msg, sizeof(msg)), PP_OK);
    st = state();
    ck_assert_int_eq(pp_pmu_control(bus, core, &st, PP_CTL_STOP | PP_CTL_RELEASE), PP_OK);
    ck_assert_uint_eq(rd(dbg(PP_DBG_CLAIMCLR)), 0);
    ck_assert_uint_eq(rd(pmu(PP_PMU_PMCR)) & PP_PMCR_E, 0);
    ck_assert_uint_eq(rd(pmu(PP_PMU_PMCNTENSET)), 0);
    st = state();
    ck_assert_uint_eq(pp_pmu_busy(&st), 0);
    ck_assert_uint_gt(st.value[0], 0);          /* values are kept for reading */
}
END_TEST

START_TEST(release_clears_only_the_external_debugger_tag)
{
    struct pp_pmu_state st;

    wr(dbg(PP_DBG_CLAIMSET), PP_CLAIM_EXTERNAL | PP_CLAIM_SELF);
    st = state();
    ck_assert_int_eq(pp_pmu_control(bus, core, &st, PP_CTL_RELEASE), PP_OK);
    ck_assert_uint_eq(rd(dbg(PP_DBG_CLAIMCLR)), PP_CLAIM_SELF);
}
END_TEST

START_TEST(self_hosted_claim_refuses_even_with_idle_counters)
{
    uint64_t writes;
    struct pp_pmu_state st;
    char msg[256];

    wr(dbg(PP_DBG_CLAIMSET), PP_CLAIM_SELF);
    st = state();
    ck_assert_uint_eq(pp_pmu_busy(&st), 0);
    ck_assert_int_eq(pp_pmu_check_owner(core, &st, msg, sizeof(msg)), PP_E_BUSY);
    ck_assert_msg(strstr(msg, "self-hosted") && strstr(msg, "claim tag 1"), "message: %s", msg);
    writes = writes_so_far();
    ck_assert_int_eq(configure("cycles", 0, msg, sizeof(msg)), PP_E_BUSY);
    ck_assert_uint_eq(writes_so_far(), writes);
}
END_TEST

START_TEST(self_hosted_claim_with_force_proceeds_and_adds_ours)
{
    char msg[256];

    wr(dbg(PP_DBG_CLAIMSET), PP_CLAIM_SELF);
    ck_assert_int_eq(configure("cycles", PP_PROG_FORCE, msg, sizeof(msg)), PP_OK);
    ck_assert_uint_eq(rd(dbg(PP_DBG_CLAIMCLR)), PP_CLAIM_SELF | PP_CLAIM_EXTERNAL);
}
END_TEST

START_TEST(claim_registers_that_answer_with_an_error_are_skipped)
{
    struct pp_pmu_state st;
    char msg[256];

    ck_assert_int_eq(pp_sim_set_addr_error(sim, dbg(PP_DBG_CLAIMSET), true), PP_OK);
    st = state();
    ck_assert(!st.claim_ok);
    ck_assert_int_eq(st.claim_st, PP_OP_SLVERR);
    /* No claim write goes into the batch, so programming still succeeds. */
    ck_assert_int_eq(configure("cycles,instructions", 0, msg, sizeof(msg)), PP_OK);
    ck_assert_uint_eq(rd(pmu(PP_PMU_PMCNTENSET)), PP_CCNT_BIT | 1u);
    ck_assert_uint_eq(rd(dbg(PP_DBG_CLAIMCLR)), 0);
}
END_TEST

START_TEST(armv7_debug_blocks_have_claim_tags_too)
{
    char msg[256];

    down();
    start("cortex-a9", 100, 1000);
    ck_assert(state().claim_ok);
    ck_assert_int_eq(configure("cycles", 0, msg, sizeof(msg)), PP_OK);
    ck_assert_uint_eq(rd(dbg(PP_DBG_CLAIMCLR)), PP_CLAIM_EXTERNAL);
}
END_TEST

/* ---- controls and observing --------------------------------------------------------- */

START_TEST(reading_the_state_writes_nothing)
{
    uint64_t writes;
    struct pp_pmu_state st;
    char msg[256];

    ck_assert_int_eq(configure("cycles,instructions", 0, msg, sizeof(msg)), PP_OK);
    writes = writes_so_far();
    st = state();
    ck_assert_uint_eq(writes_so_far(), writes);
    ck_assert_uint_eq(st.evtyper[0], 0x08);
    ck_assert(pp_pmu_counting(&st, 0));
    ck_assert(pp_pmu_counting(&st, PP_CYCLE_SLOT));
    ck_assert(!pp_pmu_counting(&st, 1));
    ck_assert_str_eq(pp_pmu_event_name(core, pp_pmu_evtyper_code(core, st.evtyper[0])),
                     "INST_RETIRED");
}
END_TEST

START_TEST(stop_freezes_and_start_resumes_the_counters)
{
    struct pp_pmu_prog p;
    struct pp_pmu_state st;
    uint32_t frozen;

    plan("instructions", &p);
    ck_assert_int_eq(pp_pmu_program_ex(bus, core, &p, PP_PROG_NOSTART), PP_OK);
    st = state();
    ck_assert_int_eq(pp_pmu_control(bus, core, &st, PP_CTL_START), PP_OK);
    ck_assert_uint_eq(rd(pmu(PP_PMU_PMCR)), PP_PMCR_E | PP_PMCR_LC);
    pp_sim_advance_ns(sim, WINDOW_NS);
    st = state();
    ck_assert_int_eq(pp_pmu_control(bus, core, &st, PP_CTL_STOP), PP_OK);
    frozen = rd(pmu(PP_PMU_PMEVCNTR_V3(0)));
    ck_assert_uint_gt(frozen, 0);
    pp_sim_advance_ns(sim, WINDOW_NS);
    ck_assert_uint_eq(rd(pmu(PP_PMU_PMEVCNTR_V3(0))), frozen);
}
END_TEST

START_TEST(reset_zeroes_every_counter_and_keeps_them_running)
{
    struct pp_pmu_state st;
    char msg[256];

    uint64_t inst, cyc;

    ck_assert_int_eq(configure("cycles,instructions", 0, msg, sizeof(msg)), PP_OK);
    pp_sim_advance_ns(sim, WINDOW_NS);
    st = state();
    inst = st.value[0];
    cyc = st.value[PP_CYCLE_SLOT];
    ck_assert_uint_gt(inst, 1000000);
    ck_assert_int_eq(pp_pmu_control(bus, core, &st, PP_CTL_RESET), PP_OK);
    st = state();
    /* Only the few microseconds of bus accesses since the reset count. */
    ck_assert_uint_lt(st.value[0], inst / 100);
    ck_assert_uint_lt(st.value[PP_CYCLE_SLOT], cyc / 100);
    ck_assert(pp_pmu_counting(&st, 0));
}
END_TEST

START_TEST(start_and_stop_together_are_invalid)
{
    struct pp_pmu_state st = state();
    uint64_t writes = writes_so_far();

    ck_assert_int_eq(pp_pmu_control(bus, core, &st, PP_CTL_START | PP_CTL_STOP), PP_E_INVAL);
    ck_assert_uint_eq(writes_so_far(), writes);
}
END_TEST

/* ---- acceptance: every core type counts what its workload did ------------------------ */

struct totals {
    uint64_t inst, refill;
};

static struct totals totals(const struct pp_pmu_prog *p)
{
    return (struct totals){ pp_sim_event_total(sim, 0, p->ev[0].code),
                            pp_sim_event_total(sim, 0, p->ev[1].code) };
}

static double clock_of(unsigned i)
{
    return 600.0 + 150.0 * i;       /* 600..2100 MHz, most not a power of two */
}

/* Cycles the model may lose against clock_mhz x time: it keeps the clock
 * rate as a Q32 fraction of a cycle per ns and floors the count at the end
 * of each workload phase (phase_us), so up to one cycle per phase crossed,
 * plus one for the window's own ends. */
#define CYCLE_SLACK (WINDOW_NS / (test_wl.phase_us * 1000u) + 2u)

/*
 * With access_ns 0 bus accesses take no target time, so the window is
 * exactly what pp_sim_advance_ns let pass and the event counts must match
 * the workload's totals to the event; the cycle counter must match the
 * CPU_CYCLES total where the core has that event, and clock_mhz x window
 * within CYCLE_SLACK.
 */
START_TEST(programmed_counters_count_exactly_what_the_workload_produced)
{
    struct pp_pmu_prog p;
    struct pp_pmu_state st;
    struct totals t0, t1;
    uint64_t c0, c1;
    double want_cycles = clock_of((unsigned)_i) * WINDOW_NS / 1000.0;
    char msg[256];

    start(core_types[_i], 0, clock_of((unsigned)_i));
    plan("instructions,L1D_CACHE_REFILL", &p);
    ck_assert_int_eq(configure("cycles,instructions,L1D_CACHE_REFILL", 0, msg, sizeof(msg)),
                     PP_OK);
    t0 = totals(&p);
    c0 = pp_sim_event_total(sim, 0, 0x11);
    pp_sim_advance_ns(sim, WINDOW_NS);
    t1 = totals(&p);
    c1 = pp_sim_event_total(sim, 0, 0x11);
    st = state();
    if (c1 > c0)
        ck_assert_uint_eq(st.value[PP_CYCLE_SLOT], c1 - c0);
    ck_assert_uint_gt(t1.inst - t0.inst, 0);
    ck_assert_uint_gt(t1.refill - t0.refill, 0);
    ck_assert_uint_eq(st.value[0], t1.inst - t0.inst);
    ck_assert_uint_eq(st.value[1], t1.refill - t0.refill);
    ck_assert_msg((double)st.value[PP_CYCLE_SLOT] >= want_cycles - CYCLE_SLACK &&
                  (double)st.value[PP_CYCLE_SLOT] <= want_cycles + 1,
                  "%s: %llu cycles, want %.0f", core_types[_i],
                  (unsigned long long)st.value[PP_CYCLE_SLOT], want_cycles);
    down();
}
END_TEST

/*
 * With a realistic access time the counters are read during the read
 * batch, after the window: each count lies between the workload's total
 * over the window and its total up to the end of the read batch.
 */
START_TEST(counts_with_bus_time_lie_between_the_window_and_the_end_of_the_read)
{
    struct pp_pmu_prog p;
    struct pp_pmu_state st;
    struct totals t0, t1, t2;
    uint64_t ns0, ns2;
    double mhz = clock_of((unsigned)_i);
    char msg[256];

    start(core_types[_i], 100, mhz);
    plan("instructions,L1D_CACHE_REFILL", &p);
    ck_assert_int_eq(configure("cycles,instructions,L1D_CACHE_REFILL", 0, msg, sizeof(msg)),
                     PP_OK);
    t0 = totals(&p);        /* counting started at the last write: now */
    ns0 = pp_sim_now_ns(sim);
    pp_sim_advance_ns(sim, WINDOW_NS);
    t1 = totals(&p);
    st = state();
    t2 = totals(&p);
    ns2 = pp_sim_now_ns(sim);
    ck_assert_uint_ge(st.value[0], t1.inst - t0.inst);
    ck_assert_uint_le(st.value[0], t2.inst - t0.inst);
    ck_assert_uint_ge(st.value[1], t1.refill - t0.refill);
    ck_assert_uint_le(st.value[1], t2.refill - t0.refill);
    ck_assert_uint_ge(st.value[PP_CYCLE_SLOT], (uint64_t)(mhz * WINDOW_NS / 1000.0) - CYCLE_SLACK);
    ck_assert_uint_le(st.value[PP_CYCLE_SLOT], (uint64_t)(mhz * (double)(ns2 - ns0) / 1000.0) + 1);
    down();
}
END_TEST

static Suite *program_suite(void)
{
    Suite *s = suite_create("program");
    TCase *tc;

    tc = tcase_create("Allocation");
    tcase_add_checked_fixture(tc, a76_up, down);
    tcase_add_test(tc, cycles_go_to_the_cycle_counter_and_the_rest_to_event_counters_in_order);
    tcase_add_test(tc, a_second_cycles_event_takes_an_event_counter);
    tcase_add_test(tc, more_events_than_event_counters_are_refused_with_the_counts);
    suite_add_tcase(s, tc);

    tc = tcase_create("Programming");
    tcase_add_checked_fixture(tc, a76_up, down);
    tcase_add_test(tc, programming_writes_event_and_filter_into_pmevtyper);
    tcase_add_test(tc, programming_writes_the_cycle_filter_into_pmccfiltr);
    tcase_add_test(tc, programming_enables_exactly_the_used_counters_and_pmcr_e);
    tcase_add_test(tc, programming_zeroes_the_counters);
    tcase_add_test(tc, no_start_leaves_pmcr_e_clear_so_nothing_counts);
    tcase_add_test(tc, a_program_step_is_one_bus_batch);
    tcase_add_test(tc, configure_is_one_batch_of_reads_then_one_of_writes);
    suite_add_tcase(s, tc);

    tc = tcase_create("Ownership");
    tcase_add_checked_fixture(tc, a76_up, down);
    tcase_add_test(tc, a_fresh_pmu_is_free);
    tcase_add_test(tc, counters_on_target_software_runs_are_reported_with_their_events);
    tcase_add_test(tc, enabled_counter_with_an_event_is_in_use_even_with_pmcr_e_clear);
    tcase_add_test(tc, programmed_but_disabled_counters_are_free);
    tcase_add_test(tc, configure_refuses_counters_in_use_and_writes_nothing);
    tcase_add_test(tc, configure_with_force_takes_the_counters_and_keeps_the_reason);
    tcase_add_test(tc, counters_in_use_under_our_own_claim_are_taken_over);
    tcase_add_test(tc, reading_the_state_of_a_powered_off_core_fails_with_the_address);
    suite_add_tcase(s, tc);

    tc = tcase_create("ClaimTags");
    tcase_add_checked_fixture(tc, a76_up, down);
    tcase_add_test(tc, claim_tags_are_read_from_dbgclaimclr_with_dbgclaimset_giving_those_implemented);
    tcase_add_test(tc, configure_sets_the_external_debugger_claim_tag);
    tcase_add_test(tc, stop_releases_the_claim_and_hands_back_free_counters);
    tcase_add_test(tc, release_clears_only_the_external_debugger_tag);
    tcase_add_test(tc, self_hosted_claim_refuses_even_with_idle_counters);
    tcase_add_test(tc, self_hosted_claim_with_force_proceeds_and_adds_ours);
    tcase_add_test(tc, claim_registers_that_answer_with_an_error_are_skipped);
    tcase_add_test(tc, armv7_debug_blocks_have_claim_tags_too);
    suite_add_tcase(s, tc);

    tc = tcase_create("ControlAndObserve");
    tcase_add_checked_fixture(tc, a76_up, down);
    tcase_add_test(tc, reading_the_state_writes_nothing);
    tcase_add_test(tc, stop_freezes_and_start_resumes_the_counters);
    tcase_add_test(tc, reset_zeroes_every_counter_and_keeps_them_running);
    tcase_add_test(tc, start_and_stop_together_are_invalid);
    suite_add_tcase(s, tc);

    /* No fixture: each loop iteration builds its own core type. */
    tc = tcase_create("Acceptance");
    tcase_add_loop_test(tc, programmed_counters_count_exactly_what_the_workload_produced, 0,
                        (int)NCORE_TYPES);
    tcase_add_loop_test(tc, counts_with_bus_time_lie_between_the_window_and_the_end_of_the_read,
                        0, (int)NCORE_TYPES);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(program_suite());
    int failed;

    srunner_run_all(sr, CK_NORMAL);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

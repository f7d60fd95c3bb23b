/*
 * check_target.c - target descriptions (man/pmuprobe-target.5): the
 * shipped targets, the range syntax, overriding sections, defaults, one
 * malformed input per validation rule, and finding targets by name.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "target/target.h"

#define ERRLEN 512

/* A minimal valid description, 7 lines; malformed inputs build on it. */
#define SOC  "[soc]\nrom.base = 0x80000000\n"                          /* lines 1-2 */
#define CL0  "[cluster 0]\nrom.base = 0x81000000\n"                    /* lines 3-4 */
#define A53  "[core 0]\ntype = cortex-a53\ndebug = 0x81010000\n"       /* lines 5-7 */
#define BASE SOC CL0 A53

static struct pp_target *parse_ok(const char *text)
{
    struct pp_target *t = NULL;
    char err[ERRLEN] = "";
    int rc = pp_target_parse(text, "t", &t, err, sizeof(err));

    ck_assert_msg(rc == PP_OK, "parse failed: %s", err);
    ck_assert_ptr_nonnull(t);
    return t;
}

static struct pp_target *load_shipped(const char *name)
{
    char path[1024], err[ERRLEN] = "";
    struct pp_target *t = NULL;

    snprintf(path, sizeof(path), "%s/%s.target", PP_SRCTARGETDIR, name);
    ck_assert_msg(pp_target_load(path, &t, err, sizeof(err)) == PP_OK, "%s: %s", name, err);
    return t;
}

/* ---- shipped targets ---------------------------------------------------- */

static const struct {
    const char *name;
    unsigned ncores, nclusters;
    const char *type0;        /* type of cpu0 */
    uint32_t debug0, pmu0, cti0;
    uint8_t rom_class;        /* top-level */
} shipped[] = {
    { "a76-cluster", 4, 1, "cortex-a76", 0x81010000, 0x81030000, 0x81020000, 1 },
    { "rpi3-a53",    4, 1, "cortex-a53", 0x80010000, 0x80011000, 0x80018000, 1 },
    { "a72-quad",    4, 1, "cortex-a72", 0x80410000, 0x80430000, 0x80420000, 1 },
    { "a7-soc",      4, 1, "cortex-a7",  0x80010000, 0x80011000, 0x80018000, 1 },
    { "a9-soc",      2, 1, "cortex-a9",  0x80090000, 0x80091000, 0x80098000, 1 },
    { "a32",         4, 1, "cortex-a32", 0x82010000, 0x82030000, 0x82020000, 1 },
    { "biglittle",   6, 2, "cortex-a55", 0x81010000, 0x81030000, 0x81020000, 9 },
};

START_TEST(shipped_target_parses_with_expected_cores_and_bases)
{
    struct pp_target *t = load_shipped(shipped[_i].name);

    ck_assert_str_eq(t->name, shipped[_i].name);
    ck_assert_uint_eq(t->ncores, shipped[_i].ncores);
    ck_assert_uint_eq(t->nclusters, shipped[_i].nclusters);
    ck_assert_str_eq(t->cores[0].type->name, shipped[_i].type0);
    ck_assert_uint_eq(t->cores[0].debug_base, shipped[_i].debug0);
    ck_assert_uint_eq(t->cores[0].pmu_base, shipped[_i].pmu0);
    ck_assert_uint_eq(t->cores[0].cti_base, shipped[_i].cti0);
    ck_assert_uint_eq(t->rom_class, shipped[_i].rom_class);
    ck_assert_msg(strstr(t->path, shipped[_i].name) != NULL, "path %s", t->path);
    pp_target_free(t);
}
END_TEST

/* Validation refuses overlaps; this checks the shipped files independently
 * of the validator, block against block. */
START_TEST(shipped_target_blocks_do_not_overlap)
{
    struct pp_target *t = load_shipped(shipped[_i].name);
    uint32_t b[1 + PP_MAX_CLUSTERS + 3 * PP_MAX_CORES];
    unsigned n = 0;

    b[n++] = t->rom_base;
    for (unsigned i = 0; i < t->nclusters; i++)
        b[n++] = t->clusters[i].rom_base;
    for (unsigned i = 0; i < t->ncores; i++) {
        b[n++] = t->cores[i].debug_base;
        b[n++] = t->cores[i].pmu_base;
        b[n++] = t->cores[i].cti_base;
    }
    for (unsigned i = 0; i < n; i++) {
        ck_assert_uint_eq(b[i] & 0xFFFu, 0);
        for (unsigned j = i + 1; j < n; j++)
            ck_assert_msg(b[i] != b[j], "%s: 0x%08X twice", shipped[_i].name, b[i]);
    }
    pp_target_free(t);
}
END_TEST

START_TEST(rpi3_core2_sits_at_the_bcm2837_debug_addresses)
{
    struct pp_target *t = load_shipped("rpi3-a53");
    const struct pp_core_desc *c = pp_target_core(t, 2);

    ck_assert_ptr_nonnull(c);
    ck_assert_uint_eq(c->debug_base, 0x80014000);
    ck_assert_uint_eq(c->pmu_base, 0x80015000);
    ck_assert_uint_eq(c->cti_base, 0x8001A000);
    ck_assert_uint_eq(t->clusters[0].rom_part, 0x4A3);
    pp_target_free(t);
}
END_TEST

START_TEST(a76_cluster_follows_the_v8_map_with_a_class9_cluster_rom)
{
    struct pp_target *t = load_shipped("a76-cluster");
    const struct pp_core_desc *c = pp_target_core(t, 3);

    ck_assert_uint_eq(c->debug_base, 0x81310000);
    ck_assert_uint_eq(c->cti_base, 0x81320000);
    ck_assert_uint_eq(c->pmu_base, 0x81330000);
    ck_assert(c->snapshot);
    ck_assert(c->pcsample);
    ck_assert_uint_eq(t->rom_base, 0x80000000);
    ck_assert_uint_eq(t->clusters[0].rom_class, 9);
    ck_assert_uint_eq(t->clusters[0].rom_part, 0x4E4);
    pp_target_free(t);
}
END_TEST

START_TEST(a76_cluster_cores_run_different_workloads)
{
    struct pp_target *t = load_shipped("a76-cluster");

    for (unsigned i = 0; i < t->ncores; i++)
        for (unsigned j = i + 1; j < t->ncores; j++)
            ck_assert(t->cores[i].wl.ipc != t->cores[j].wl.ipc);
    pp_target_free(t);
}
END_TEST

START_TEST(biglittle_big_cores_are_in_cluster_1_with_its_affinity)
{
    struct pp_target *t = load_shipped("biglittle");
    const struct pp_core_desc *c = pp_target_core(t, 4);

    ck_assert_str_eq(c->type->name, "cortex-a76");
    ck_assert_uint_eq(t->clusters[c->cluster].id, 1);
    ck_assert_uint_eq(c->slot, 0);
    ck_assert_uint_eq(c->mpidr, 0x80000100);
    ck_assert_uint_eq(c->debug_base, 0x82010000);
    ck_assert_uint_eq(pp_target_core(t, 5)->debug_base, 0x82110000);
    pp_target_free(t);
}
END_TEST

/* ---- ranges and overrides ----------------------------------------------- */

START_TEST(range_value_adds_step_per_cpu_from_first_cpu_of_range)
{
    struct pp_target *t = parse_ok(SOC CL0 "[core 2-5]\ntype = a53\n"
                                   "debug = 0x81010000 +0x100000\n");

    ck_assert_uint_eq(t->ncores, 4);
    ck_assert_uint_eq(pp_target_core(t, 2)->debug_base, 0x81010000);
    ck_assert_uint_eq(pp_target_core(t, 4)->debug_base, 0x81210000);
    ck_assert_uint_eq(pp_target_core(t, 5)->debug_base, 0x81310000);
    pp_target_free(t);
}
END_TEST

START_TEST(range_step_may_be_negative_and_fractional)
{
    struct pp_target *t = parse_ok(SOC CL0 "[core 0-3]\ntype = a53\n"
                                   "debug = 0x81010000 +0x100000\n"
                                   "workload.ipc = 2.1 -0.5\n"
                                   "workload.seed = 10 +5\n");

    ck_assert_double_eq_tol(t->cores[0].wl.ipc, 2.1, 1e-9);
    ck_assert_double_eq_tol(t->cores[3].wl.ipc, 0.6, 1e-9);
    ck_assert_uint_eq(t->cores[2].wl.seed, 20);
    pp_target_free(t);
}
END_TEST

START_TEST(later_section_overrides_earlier_for_the_cores_it_names)
{
    struct pp_target *t = parse_ok(SOC CL0 "[core 0-3]\ntype = a53\n"
                                   "debug = 0x81010000 +0x100000\n"
                                   "[core 2]\npower = off\n");

    ck_assert(!pp_target_core(t, 2)->init.powered);
    ck_assert(pp_target_core(t, 1)->init.powered);
    ck_assert(pp_target_core(t, 3)->init.powered);
    ck_assert_uint_eq(pp_target_core(t, 2)->debug_base, 0x81210000);
    pp_target_free(t);
}
END_TEST

START_TEST(overriding_range_counts_its_step_from_its_own_first_cpu)
{
    struct pp_target *t = parse_ok(SOC CL0 "[core 0-3]\ntype = a53\n"
                                   "debug = 0x81010000 +0x100000\n"
                                   "[core 2-3]\ndebug = 0x85010000 +0x100000\n");

    ck_assert_uint_eq(pp_target_core(t, 1)->debug_base, 0x81110000);
    ck_assert_uint_eq(pp_target_core(t, 2)->debug_base, 0x85010000);
    ck_assert_uint_eq(pp_target_core(t, 3)->debug_base, 0x85110000);
    pp_target_free(t);
}
END_TEST

START_TEST(cores_are_sorted_by_cpu_with_the_line_of_their_first_section)
{
    struct pp_target *t = parse_ok(SOC CL0 "[core 1]\ntype = a53\ndebug = 0x81110000\n"
                                   "[core 0]\ntype = a53\ndebug = 0x81010000\n");

    ck_assert_uint_eq(t->cores[0].cpu, 0);
    ck_assert_uint_eq(t->cores[1].cpu, 1);
    ck_assert_uint_eq(t->cores[0].line, 8);
    ck_assert_uint_eq(t->cores[1].line, 5);
    ck_assert_uint_eq(t->cores[0].slot, 0);    /* order in cluster, by cpu */
    ck_assert_uint_eq(t->cores[1].slot, 1);
    pp_target_free(t);
}
END_TEST

/* ---- defaults ----------------------------------------------------------- */

START_TEST(v8_core_defaults_to_the_v8_memory_map)
{
    struct pp_target *t = parse_ok(BASE);

    ck_assert_uint_eq(t->cores[0].pmu_base, 0x81010000 + 0x20000);
    ck_assert_uint_eq(t->cores[0].cti_base, 0x81010000 + 0x10000);
    pp_target_free(t);
}
END_TEST

START_TEST(v7_core_defaults_pmu_to_debug_plus_0x1000)
{
    struct pp_target *t = parse_ok(SOC CL0 "[core 0]\ntype = cortex-a7\n"
                                   "debug = 0x81010000\ncti = 0x81018000\n");

    ck_assert_uint_eq(t->cores[0].pmu_base, 0x81011000);
    ck_assert_uint_eq(t->cores[0].counters, 4);
    ck_assert(!t->cores[0].snapshot);
    pp_target_free(t);
}
END_TEST

START_TEST(soc_defaults_are_applied)
{
    struct pp_target *t = parse_ok(BASE);

    ck_assert_str_eq(t->name, "t");
    ck_assert_str_eq(t->path, "t");
    ck_assert_uint_eq(t->dp_idcode, 0x4BA00477);
    ck_assert_uint_eq(t->ap_index, 0);
    ck_assert_uint_eq(t->ap_idr, 0x54770002);
    ck_assert_uint_eq(t->rom_class, 1);
    ck_assert_uint_eq(t->rom_part, 0x4D0);
    ck_assert_int_eq(t->time_mode, PP_TIME_DETERMINISTIC);
    ck_assert_uint_eq(t->access_ns, 1000);
    pp_target_free(t);
}
END_TEST

START_TEST(cluster_defaults_come_from_its_first_core_type)
{
    struct pp_target *t = parse_ok(SOC CL0 "[core 0-1]\ntype = a76\n"
                                   "debug = 0x81010000 +0x100000\n");

    ck_assert_uint_eq(t->clusters[0].rom_part, 0x4E4);
    ck_assert_uint_eq(t->clusters[0].rom_class, 9);   /* DynamIQ: class 0x9 */
    ck_assert_uint_eq(t->clusters[0].slots, 2);
    pp_target_free(t);
}
END_TEST

START_TEST(devaff_zero_is_a_core_key)
{
    struct pp_target *t = parse_ok(SOC CL0 "[core 0-1]\ntype = a53\n"
                                   "debug = 0x81010000 +0x100000\ndevaff.zero = yes\n"
                                   "[core 1]\ndevaff.zero = no\n");

    ck_assert(t->cores[0].devaff_zero);
    ck_assert(!t->cores[1].devaff_zero);
    ck_assert_uint_eq(t->cores[0].mpidr, 0x80000000);     /* MPIDR itself stays */
    pp_target_free(t);
}
END_TEST

START_TEST(core_defaults_are_applied)
{
    struct pp_target *t = parse_ok(SOC "[cluster 3]\nrom.base = 0x81000000\n"
                                   "[core 0]\ncluster = 3\ntype = a76\ndebug = 0x81010000\n");
    const struct pp_core_desc *c = &t->cores[0];

    ck_assert_uint_eq(c->mpidr, 0x80000300);
    ck_assert(!c->devaff_zero);
    ck_assert_uint_eq(c->counters, 6);
    ck_assert(c->snapshot && c->pcsample && !c->counter64);
    ck_assert(c->init.powered && !c->init.oslock && !c->init.doublelock);
    ck_assert(!c->init.halted && !c->init.epmad);
    ck_assert_uint_eq(c->init.auth, PP_AUTH_ALL);
    ck_assert_int_eq(c->init.os_unlock_us, 100);
    ck_assert_uint_eq(c->wl.seed, 1);
    ck_assert(c->wl.clock_mhz > 0 && c->wl.ipc > 0 && c->wl.phase_us > 0);
    ck_assert(c->wl.l1d_mpki <= c->wl.l1d_pki);
    pp_target_free(t);
}
END_TEST

START_TEST(sim_keys_default_to_nothing_and_take_numbers_or_mnemonics)
{
    struct pp_target *t = parse_ok(SOC CL0 "[core 0-1]\ntype = a76\n"
                                   "debug = 0x81010000 +0x100000\n"
                                   "[core 1]\nsim.midr = 0x414FD0B2\nsim.counters = 0\n"
                                   "sim.pmceid.clear = L1D_CACHE 0x11,INST_RETIRED\n"
                                   "sim.pmceid.set = 0x3f, 0x4000 STALL_SLOT_FRONTEND\n");
    const struct pp_core_sim *none = &t->cores[0].sim, *all = &t->cores[1].sim;

    ck_assert(!none->midr_set && !none->counters_set);
    for (unsigned r = 0; r < 4; r++)
        ck_assert(none->pmceid_set[r] == 0 && none->pmceid_clear[r] == 0);
    ck_assert(all->midr_set && all->counters_set);
    ck_assert_uint_eq(all->midr, 0x414FD0B2u);
    ck_assert_uint_eq(all->counters, 0);
    ck_assert_uint_eq(t->cores[1].counters, 6);      /* the tool's view stays */
    ck_assert_uint_eq(all->pmceid_clear[0], 1u << 0x04 | 1u << 0x11 | 1u << 0x08);
    ck_assert_uint_eq(all->pmceid_set[1], 1u << 31 | 1u << (0x3E - 0x20));
    ck_assert_uint_eq(all->pmceid_set[2], 1u);
    pp_target_free(t);
}
END_TEST

START_TEST(values_take_quotes_comments_and_every_boolean_spelling)
{
    struct pp_target *t = parse_ok("# header\n[soc]   # the SoC\n"
                                   "name = \"my # board\"   # trailing\n"
                                   "description = a#b\n"
                                   "rom.base = 0x80000000\ntime = realtime\n" CL0
                                   "[core 0-3]\ntype = Cortex-A53\n"
                                   "debug = 0x81010000 +0x100000\n"
                                   "[core 0]\nhalted = yes\n[core 1]\nhalted = on\n"
                                   "[core 2]\nhalted = true\n[core 3]\nhalted = 1\n"
                                   "oslock = locked\nauth = dbgen, niden\n"
                                   "os.unlock_us = -1\n");

    ck_assert_str_eq(t->name, "my # board");
    ck_assert_str_eq(t->description, "a#b");
    ck_assert_int_eq(t->time_mode, PP_TIME_REALTIME);
    for (unsigned i = 0; i < 4; i++)
        ck_assert(t->cores[i].init.halted);
    ck_assert(t->cores[3].init.oslock);
    ck_assert_uint_eq(t->cores[3].init.auth, PP_AUTH_DBGEN | PP_AUTH_NIDEN);
    ck_assert_int_eq(t->cores[3].init.os_unlock_us, -1);
    pp_target_free(t);
}
END_TEST

/* ---- malformed input: one row per rule ---------------------------------- */

static const struct {
    const char *text;
    unsigned line;
    const char *phrase;
} bad[] = {
    /* sections and lines */
    { SOC "[socket]\n", 3, "unknown section [socket]" },
    { BASE "[core 3-1]\n", 8, "range is reversed" },
    { BASE "[core 0-64]\n", 8, "more than 64 cores" },
    { SOC CL0, 4, "no cores" },
    { CL0 A53, 1, "no [soc] section" },
    { BASE "[soc]\n", 8, "a second [soc] section (the first is at line 1" },
    { "rom.base = 0x80000000\n" BASE, 1, "comes before any section" },
    { BASE "halted\n", 8, "neither 'key = value' nor a [section]" },
    { BASE "name = \"open\n", 8, "unterminated quoted value" },
    { BASE "halted =\n", 8, "'halted' has no value" },
    { BASE "halted = no\nhalted = yes\n", 9, "'halted' is set twice in one section (first at line 8" },
    { BASE CL0, 8, "cluster 0 is defined twice" },
    /* keys */
    { SOC CL0 "[core 0]\ntype = a53\ndebgu = 0x81010000\n", 7, "unknown key 'debgu' (did you mean 'debug'?)" },
    { BASE "ipc = 2\n", 8, "did you mean 'workload.ipc'?" },
    { SOC "debug = 0x1000\n" CL0 A53, 3, "unknown key 'debug' in [soc] (it belongs in [core N])" },
    /* values */
    { SOC CL0 "[core 0]\ntype = a53\ndebug = 0x8101zz00\n", 7, "core 0: 'debug' = 0x8101zz00 is not a number (expected decimal or 0x-hex" },
    { BASE "halted = maybe\n", 8, "'halted' = maybe is not a boolean (expected yes/no, on/off, true/false or 1/0)" },
    { SOC "time = fast\n" CL0 A53, 3, "'time' = fast is not a time mode (expected deterministic or realtime)" },
    { BASE "oslock = ajar\n", 8, "is not an OS lock state (expected locked or unlocked)" },
    { SOC "rom.class = 3\n" CL0 A53, 3, "is not a ROM table class (expected 1 or 9" },
    { BASE "auth = dbgen,root\n", 8, "is not a list of authentication signals" },
    { BASE "counters = 40\n", 8, "'counters' = 40 is out of range (expected 1..31)" },
    { SOC "ap.index = 1 +1\n" CL0 A53, 3, "A +S form outside a [core] section" },
    { SOC CL0 "[core 0-1]\ntype = a53\ndebug = 0xFFF00000 +0x100000\n", 7, "core 1: 'debug' works out to" },
    { SOC "dp.idcode = 0x4BA00476\n" CL0 A53, 3, "has bit 0 clear" },
    { BASE "workload.l1d_pki = 10\nworkload.l1d_mpki = 20\n", 9, "'workload.l1d_mpki' = 20 exceeds 'workload.l1d_pki' = 10" },
    { BASE "workload.stall_fe = 0.6\nworkload.stall_be = 0.5\n", 9, "expected at most 1" },
    /* required keys */
    { "[soc]\nname = x\n" CL0 A53, 1, "soc: missing 'rom.base'" },
    { SOC CL0 "[core 0]\ntype = a53\n", 5, "core 0: missing 'debug'" },
    { SOC CL0 "[core 0]\ndebug = 0x81010000\n", 5, "core 0: missing 'type' (required: a core type, or auto to read it from the silicon; known: cortex-a7" },
    { SOC CL0 "[core 0]\ntype = a7\ndebug = 0x81010000\n", 5, "core 0: missing 'cti' (required on Armv7" },
    { SOC "[cluster 0]\nslots = 4\n" A53, 3, "cluster 0: missing 'rom.base'" },
    { SOC CL0 "[core 0]\ntype = cortex-a99\n", 6, "'type' = cortex-a99 is not a known core type (known: cortex-a7, cortex-a9" },
    /* clusters and slots */
    { BASE "cluster = 2\n", 8, "'cluster' = 2 names a cluster that is not defined (defined: 0" },
    { SOC "[cluster 1]\nrom.base = 0x81000000\n" A53, 5, "cluster 0 (the default) is not defined" },
    { BASE "[cluster 1]\nrom.base = 0x82000000\n", 8, "cluster 1 has no cores" },
    { SOC "[cluster 0]\nrom.base = 0x81000000\nslots = 2\n" "[core 0]\ntype = a53\ndebug = 0x81010000\nslot = 2\n", 9, "slot 2 is beyond cluster 0's slots = 2" },
    { BASE "[core 1]\ntype = a53\ndebug = 0x81110000\nslot = 0\n", 11, "core 1: slot 0 of cluster 0 is already taken by core 0" },
    /* addresses */
    { SOC CL0 "[core 2]\ntype = a53\ndebug = 0x80010004\n", 7, "core 2: 'debug' = 0x80010004 is not 4 KB aligned (expected a multiple of 0x1000)" },
    { SOC "[cluster 0]\nrom.base = 0x81000800\n" A53, 4, "cluster 0: 'rom.base' = 0x81000800 is not 4 KB aligned" },
    { BASE "[core 1]\ntype = a53\ndebug = 0x81110000\npmu = 0x81010000\n", 11, "core 1: 'pmu' = 0x81010000 overlaps core 0's debug block" },
    { BASE "pmu = 0x81000000\n", 8, "core 0: 'pmu' = 0x81000000 overlaps cluster 0's ROM table" },
    { SOC CL0 "[core 0]\ntype = a53\ndebug = 0x80000000\n", 7, "overlaps soc's top-level ROM table" },
    /* features the core type lacks */
    { BASE "snapshot = yes\n", 8, "'snapshot' = yes but Cortex-A53 has no snapshot block" },
    { SOC CL0 "[core 0]\ntype = a72\ndebug = 0x81010000\npcsample = on\n", 8, "has no PC sampling" },
    { SOC CL0 "[core 0]\ntype = a9\ndebug = 0x81010000\ncti = 0x81018000\ndoublelock = on\n", 9, "has no OS Double Lock" },
    { SOC CL0 "[core 0]\ntype = a7\ndebug = 0x81010000\ncti = 0x81018000\nepmad = yes\n", 9, "'epmad' = yes but Cortex-A7 is Armv7 and has no EPMAD" },
    { SOC CL0 "[core 0]\ntype = a7\ndebug = 0x81010000\ncti = 0x81018000\ncounter64 = yes\n", 9, "has a PMUv2" },
    /* sim.*: what the simulated core reports */
    { BASE "sim.midr = 0x1FFFFFFFF\n", 8, "'sim.midr' = 0x1FFFFFFFF is out of range" },
    { BASE "sim.counters = 32\n", 8, "'sim.counters' = 32 is out of range (expected 0..31)" },
    { BASE "sim.pmceid.clear = L1D_CACHE, NO_SUCH_EVENT\n", 8, "has 'NO_SUCH_EVENT', which is no number or common event mnemonic" },
    { BASE "sim.pmceid.set = 0x40\n", 8, "has event 0x0040, which no PMCEID bit stands for" },
    { BASE "sim.pmceid.set = 0x4000\n", 8, "core 0: 'sim.pmceid.set' names an event from 0x4000 but Cortex-A53 has no PMCEID2/3" },
    { BASE "sim.pmceid.set = 0x3F\nsim.pmceid.clear = 0x3\n[core 0]\nsim.pmceid.clear = STALL_SLOT\n", 11, "event 0x003F is in both 'sim.pmceid.set' and 'sim.pmceid.clear'" },
};

START_TEST(malformed_input_is_refused_with_file_line_and_reason)
{
    struct pp_target *t = (struct pp_target *)1;
    char err[ERRLEN] = "", prefix[32];
    int rc = pp_target_parse(bad[_i].text, "bad.target", &t, err, sizeof(err));

    snprintf(prefix, sizeof(prefix), "bad.target:%u: ", bad[_i].line);
    ck_assert_msg(rc == PP_E_PARSE, "row %d: rc %d, err '%s'", _i, rc, err);
    ck_assert_ptr_null(t);
    ck_assert_msg(strncmp(err, prefix, strlen(prefix)) == 0,
                  "row %d: expected prefix '%s' in '%s'", _i, prefix, err);
    ck_assert_msg(strstr(err, bad[_i].phrase) != NULL,
                  "row %d: expected '%s' in '%s'", _i, bad[_i].phrase, err);
}
END_TEST

START_TEST(parse_error_fits_a_short_buffer)
{
    struct pp_target *t = NULL;
    char err[16];

    ck_assert_int_eq(pp_target_parse(SOC, "bad.target", &t, err, sizeof(err)), PP_E_PARSE);
    ck_assert_uint_eq(strlen(err), sizeof(err) - 1);
    ck_assert_int_eq(pp_target_parse(SOC, "bad.target", &t, NULL, 0), PP_E_PARSE);
}
END_TEST

/* ---- finding and loading ------------------------------------------------ */

struct tmpdir {
    char dir[64];
    char file[128];
};

static void make_tmp_target(struct tmpdir *d, const char *fname)
{
    FILE *f;

    snprintf(d->dir, sizeof(d->dir), "/tmp/check_target.XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(d->dir));
    snprintf(d->file, sizeof(d->file), "%s/%s", d->dir, fname);
    f = fopen(d->file, "w");
    ck_assert_ptr_nonnull(f);
    fputs(BASE, f);
    fclose(f);
}

static void remove_tmp(const struct tmpdir *d)
{
    unlink(d->file);
    rmdir(d->dir);
}

START_TEST(find_looks_for_name_dot_target_in_PMUPROBE_TARGETS_first)
{
    struct tmpdir d;
    char path[256], list[200];
    int rc;

    make_tmp_target(&d, "rpi3-a53.target");
    snprintf(list, sizeof(list), "/nonexistent:%s", d.dir);
    setenv("PMUPROBE_TARGETS", list, 1);
    rc = pp_target_find("rpi3-a53", path, sizeof(path));
    unsetenv("PMUPROBE_TARGETS");
    remove_tmp(&d);
    ck_assert_int_eq(rc, PP_OK);
    ck_assert_str_eq(path, d.file);
}
END_TEST

START_TEST(find_accepts_a_name_without_the_suffix_as_a_file)
{
    struct tmpdir d;
    char path[256];
    int rc;

    make_tmp_target(&d, "board");
    setenv("PMUPROBE_TARGETS", d.dir, 1);
    rc = pp_target_find("board", path, sizeof(path));
    unsetenv("PMUPROBE_TARGETS");
    remove_tmp(&d);
    ck_assert_int_eq(rc, PP_OK);
    ck_assert_str_eq(path, d.file);
}
END_TEST

START_TEST(find_falls_back_to_the_source_tree_targets)
{
    char path[1024], want[1024];

    unsetenv("PMUPROBE_TARGETS");
    snprintf(want, sizeof(want), "%s/a76-cluster.target", PP_SRCTARGETDIR);
    ck_assert_int_eq(pp_target_find("a76-cluster", path, sizeof(path)), PP_OK);
    ck_assert_str_eq(path, want);
}
END_TEST

START_TEST(find_takes_an_existing_path_as_is)
{
    char path[1024], given[1024];

    snprintf(given, sizeof(given), "%s/a9-soc.target", PP_SRCTARGETDIR);
    ck_assert_int_eq(pp_target_find(given, path, sizeof(path)), PP_OK);
    ck_assert_str_eq(path, given);
}
END_TEST

START_TEST(find_of_an_unknown_name_is_not_found)
{
    char path[256];

    ck_assert_int_eq(pp_target_find("no-such-board", path, sizeof(path)), PP_E_NOTFOUND);
    ck_assert_int_eq(pp_target_find("", path, sizeof(path)), PP_E_INVAL);
}
END_TEST

START_TEST(load_of_a_missing_file_is_an_io_error_naming_it)
{
    struct pp_target *t = NULL;
    char err[ERRLEN] = "";

    ck_assert_int_eq(pp_target_load("/nonexistent/x.target", &t, err, sizeof(err)), PP_E_IO);
    ck_assert_ptr_null(t);
    ck_assert_msg(strstr(err, "/nonexistent/x.target: cannot open") == err, "%s", err);
}
END_TEST

START_TEST(load_reports_errors_with_the_file_path)
{
    struct tmpdir d;
    struct pp_target *t = NULL;
    char err[ERRLEN] = "", want[200];
    FILE *f;
    int rc;

    make_tmp_target(&d, "x.target");
    f = fopen(d.file, "a");
    fputs("halted = perhaps\n", f);
    fclose(f);
    rc = pp_target_load(d.file, &t, err, sizeof(err));
    remove_tmp(&d);
    snprintf(want, sizeof(want), "%s:8: core 0: 'halted'", d.file);
    ck_assert_int_eq(rc, PP_E_PARSE);
    ck_assert_msg(strstr(err, want) == err, "%s", err);
}
END_TEST

static Suite *target_suite(void)
{
    Suite *s = suite_create("target");
    TCase *tc;
    int nshipped = (int)(sizeof(shipped) / sizeof(shipped[0]));

    tc = tcase_create("Shipped");
    tcase_add_loop_test(tc, shipped_target_parses_with_expected_cores_and_bases, 0, nshipped);
    tcase_add_loop_test(tc, shipped_target_blocks_do_not_overlap, 0, nshipped);
    tcase_add_test(tc, rpi3_core2_sits_at_the_bcm2837_debug_addresses);
    tcase_add_test(tc, a76_cluster_follows_the_v8_map_with_a_class9_cluster_rom);
    tcase_add_test(tc, a76_cluster_cores_run_different_workloads);
    tcase_add_test(tc, biglittle_big_cores_are_in_cluster_1_with_its_affinity);
    suite_add_tcase(s, tc);

    tc = tcase_create("Ranges");
    tcase_add_test(tc, range_value_adds_step_per_cpu_from_first_cpu_of_range);
    tcase_add_test(tc, range_step_may_be_negative_and_fractional);
    tcase_add_test(tc, later_section_overrides_earlier_for_the_cores_it_names);
    tcase_add_test(tc, overriding_range_counts_its_step_from_its_own_first_cpu);
    tcase_add_test(tc, cores_are_sorted_by_cpu_with_the_line_of_their_first_section);
    suite_add_tcase(s, tc);

    tc = tcase_create("Defaults");
    tcase_add_test(tc, v8_core_defaults_to_the_v8_memory_map);
    tcase_add_test(tc, v7_core_defaults_pmu_to_debug_plus_0x1000);
    tcase_add_test(tc, soc_defaults_are_applied);
    tcase_add_test(tc, cluster_defaults_come_from_its_first_core_type);
    tcase_add_test(tc, core_defaults_are_applied);
    tcase_add_test(tc, devaff_zero_is_a_core_key);
    tcase_add_test(tc, values_take_quotes_comments_and_every_boolean_spelling);
    tcase_add_test(tc, sim_keys_default_to_nothing_and_take_numbers_or_mnemonics);
    suite_add_tcase(s, tc);

    tc = tcase_create("Malformed");
    tcase_add_loop_test(tc, malformed_input_is_refused_with_file_line_and_reason, 0,
                        (int)(sizeof(bad) / sizeof(bad[0])));
    tcase_add_test(tc, parse_error_fits_a_short_buffer);
    suite_add_tcase(s, tc);

    tc = tcase_create("Find");
    tcase_add_test(tc, find_looks_for_name_dot_target_in_PMUPROBE_TARGETS_first);
    tcase_add_test(tc, find_accepts_a_name_without_the_suffix_as_a_file);
    tcase_add_test(tc, find_falls_back_to_the_source_tree_targets);
    tcase_add_test(tc, find_takes_an_existing_path_as_is);
    tcase_add_test(tc, find_of_an_unknown_name_is_not_found);
    tcase_add_test(tc, load_of_a_missing_file_is_an_io_error_naming_it);
    tcase_add_test(tc, load_reports_errors_with_the_file_path);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(target_suite());
    int failed;

    srunner_run_all(sr, CK_NORMAL);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

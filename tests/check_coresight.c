/*
 * check_coresight.c - CoreSight identification, part names, ROM table walks
 * and topology.  Facts: spec/arm-pmu-coresight.md 5, 6, 8.
 */
#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bus/bus.h"
#include "coresight/coresight.h"
#include "sim/sim.h"
#include "fixture.h"

/* ---- raw ID blocks (spec 5.1, 5.2) --------------------------------------- */

/* Writes the ID registers of an Arm part as spec 5.2 lays them out:
 * PIDR0 = part[7:0], PIDR1 = 0xB0 | part[11:8], PIDR2 = rev << 4 | 0x0B,
 * PIDR3 = 0, PIDR4 = size << 4 | 0x4; CIDR = 0xB105_0_0D with the class. */
static void arm_id(uint32_t regs[1024], uint8_t cls, uint16_t part, uint8_t rev, uint8_t size)
{
    memset(regs, 0, 1024 * sizeof(regs[0]));
    regs[0xFE0 / 4] = part & 0xFFu;
    regs[0xFE4 / 4] = 0xB0u | (part >> 8);
    regs[0xFE8 / 4] = (uint32_t)rev << 4 | 0x0Bu;
    regs[0xFEC / 4] = 0x00;
    regs[0xFD0 / 4] = (uint32_t)size << 4 | 0x4u;
    regs[0xFF0 / 4] = 0x0D;
    regs[0xFF4 / 4] = (uint32_t)cls << 4;
    regs[0xFF8 / 4] = 0x05;
    regs[0xFFC / 4] = 0xB1;
}

static void class9_regs(uint32_t regs[1024], uint32_t devarch, uint8_t devtype, uint64_t devaff)
{
    regs[0xFBC / 4] = devarch;
    regs[0xFCC / 4] = devtype;
    regs[0xFA8 / 4] = (uint32_t)devaff;
    regs[0xFAC / 4] = (uint32_t)(devaff >> 32);
}

static struct pp_cs_id decode(const uint32_t regs[1024])
{
    struct pp_cs_id id;

    pp_cs_decode_id(regs, &id);
    return id;
}

START_TEST(cidr_of_a_class_0x9_component_assembles_to_b105900d)
{
    uint32_t regs[1024];
    struct pp_cs_id id;

    arm_id(regs, 0x9, 0x9D3, 0, 0);
    id = decode(regs);
    ck_assert_uint_eq(id.cidr, 0xB105900Du);
    ck_assert_uint_eq(id.cls, 0x9);
    ck_assert(id.cid_valid);
}
END_TEST

START_TEST(class_0x1_rom_table_has_a_valid_preamble_and_class_1)
{
    uint32_t regs[1024];
    struct pp_cs_id id;

    arm_id(regs, 0x1, 0x4A1, 0, 0);
    id = decode(regs);
    ck_assert_uint_eq(id.cidr, 0xB105100Du);
    ck_assert_uint_eq(id.cls, 0x1);
    ck_assert(id.cid_valid);
}
END_TEST

START_TEST(wrong_preamble_byte_makes_the_cid_invalid)
{
    uint32_t regs[1024];

    arm_id(regs, 0x9, 0x9D3, 0, 0);
    regs[0xFF8 / 4] = 0x06;
    ck_assert(!decode(regs).cid_valid);
    arm_id(regs, 0x9, 0x9D3, 0, 0);
    regs[0xFF0 / 4] = 0x0C;
    ck_assert(!decode(regs).cid_valid);
}
END_TEST

START_TEST(all_zero_id_block_is_not_a_component)
{
    uint32_t regs[1024] = { 0 };
    struct pp_cs_id id = decode(regs);

    ck_assert(!id.cid_valid);
    ck_assert_int_eq(pp_cs_kind(&id), PP_CS_OTHER);
}
END_TEST

START_TEST(only_bits_7_0_of_each_cidr_word_count)
{
    uint32_t regs[1024];

    arm_id(regs, 0x9, 0x9D3, 0, 0);
    regs[0xFF4 / 4] |= 0xFFFFFF00u;
    ck_assert_uint_eq(decode(regs).cidr, 0xB105900Du);
}
END_TEST

START_TEST(pidr_gives_part_designer_0x23b_revision_and_size)
{
    uint32_t regs[1024];
    struct pp_cs_id id;

    arm_id(regs, 0x9, 0x9D3, 3, 0);
    id = decode(regs);
    ck_assert_uint_eq(id.part, 0x9D3);
    ck_assert_uint_eq(id.designer, PP_ARM_DESIGNER);
    ck_assert_uint_eq(id.revision, 3);
    ck_assert_uint_eq(id.size4k, 0);
    /* spec 5.2 example: Cortex-A53 PMU 0xD3, 0xB9, 0x3B, 0x00, 0x04. */
    ck_assert_uint_eq(id.pidr, 0x04003BB9D3ull);
}
END_TEST

START_TEST(pidr4_size_counts_log2_of_4k_blocks)
{
    uint32_t regs[1024];

    arm_id(regs, 0x9, 0x9D3, 0, 2);
    ck_assert_uint_eq(decode(regs).size4k, 2);
}
END_TEST

START_TEST(jedec_bit_is_not_part_of_the_designer)
{
    uint32_t regs[1024];

    arm_id(regs, 0x9, 0x9D3, 0, 0);
    regs[0xFE8 / 4] = 0x03;         /* JEDEC bit clear, DES_1 still 0b011 */
    ck_assert_uint_eq(decode(regs).designer, PP_ARM_DESIGNER);
}
END_TEST

START_TEST(other_designer_decodes_continuation_and_id)
{
    uint32_t regs[1024];

    arm_id(regs, 0x9, 0x123, 0, 0);
    regs[0xFE4 / 4] = 0x51;         /* DES_0 = 0x5, part[11:8] = 1 */
    regs[0xFE8 / 4] = 0x0E;         /* DES_1 = 0b110 */
    regs[0xFD0 / 4] = 0x02;         /* continuation 2 */
    ck_assert_uint_eq(decode(regs).designer, 0x2 << 7 | 0x65);
}
END_TEST

START_TEST(devarch_devtype_devaff_are_kept_for_class_0x9)
{
    uint32_t regs[1024];
    struct pp_cs_id id;

    arm_id(regs, 0x9, 0xD0B, 0, 0);
    class9_regs(regs, 0x47702A16u, 0x16, 0x0000000181000100ull);
    regs[0xFC8 / 4] = 0x5;
    id = decode(regs);
    ck_assert_uint_eq(id.devarch, 0x47702A16u);
    ck_assert_uint_eq(id.devtype, 0x16);
    ck_assert_uint_eq(id.devid, 0x5);
    ck_assert_uint_eq(id.devaff, 0x0000000181000100ull);
}
END_TEST

START_TEST(class_0x1_table_drops_the_class_0x9_words)
{
    uint32_t regs[1024];
    struct pp_cs_id id;

    arm_id(regs, 0x1, 0x4A1, 0, 0);
    regs[0xFCC / 4] = 0x1;          /* MEMTYPE.SYSMEM, spec 6.2 */
    regs[0xFBC / 4] = 0x47700AF7u;
    regs[0xFA8 / 4] = 0x80000001u;
    id = decode(regs);
    ck_assert_uint_eq(id.devtype, 0);
    ck_assert_uint_eq(id.devarch, 0);
    ck_assert_uint_eq(id.devaff, 0);
}
END_TEST

/* ---- kinds and names ------------------------------------------------------ */

static struct pp_cs_id make_id(uint8_t cls, uint16_t part, uint32_t devarch, uint8_t devtype)
{
    uint32_t regs[1024];

    arm_id(regs, cls, part, 0, 0);
    class9_regs(regs, devarch, devtype, 0);
    return decode(regs);
}

START_TEST(class_0x1_is_a_rom_table)
{
    struct pp_cs_id id = make_id(0x1, 0x4A1, 0, 0);

    ck_assert_int_eq(pp_cs_kind(&id), PP_CS_ROM);
}
END_TEST

START_TEST(class_0x9_with_devarch_0x47700af7_is_a_rom_table)
{
    struct pp_cs_id id = make_id(0x9, 0x4E4, 0x47700AF7u, 0x00);

    ck_assert_int_eq(pp_cs_kind(&id), PP_CS_ROM);
}
END_TEST

START_TEST(devtype_tells_debug_pmu_cti_and_etm_of_a_shared_part)
{
    struct pp_cs_id dbg = make_id(0x9, 0xD0B, 0x47708A15u, 0x15);
    struct pp_cs_id pmu = make_id(0x9, 0xD0B, 0x47702A16u, 0x16);
    struct pp_cs_id cti = make_id(0x9, 0xD0B, 0x47701A14u, 0x14);
    struct pp_cs_id etm = make_id(0x9, 0xD0B, 0x47704A13u, 0x13);

    ck_assert_int_eq(pp_cs_kind(&dbg), PP_CS_DEBUG);
    ck_assert_int_eq(pp_cs_kind(&pmu), PP_CS_PMU);
    ck_assert_int_eq(pp_cs_kind(&cti), PP_CS_CTI);
    ck_assert_int_eq(pp_cs_kind(&etm), PP_CS_ETM);
}
END_TEST

START_TEST(armv7_debug_without_devarch_or_devtype_is_known_by_part)
{
    struct pp_cs_id a9 = make_id(0x9, 0xC09, 0, 0);
    struct pp_cs_id a9pmu = make_id(0x9, 0x9A0, 0, 0);

    ck_assert_int_eq(pp_cs_kind(&a9), PP_CS_DEBUG);
    ck_assert_int_eq(pp_cs_kind(&a9pmu), PP_CS_PMU);
}
END_TEST

START_TEST(armv8_part_without_devtype_is_not_guessed)
{
    /* 0x9DA is the A35 PMU, CTI and ETM at once (spec 5.4). */
    struct pp_cs_id id = make_id(0x9, 0x9DA, 0, 0);

    ck_assert_int_eq(pp_cs_kind(&id), PP_CS_OTHER);
}
END_TEST

START_TEST(class_0xf_primecell_is_other)
{
    struct pp_cs_id id = make_id(0xF, 0x9E2, 0, 0x15);

    ck_assert_int_eq(pp_cs_kind(&id), PP_CS_OTHER);
}
END_TEST

static const char *name_of(uint8_t cls, uint16_t part, uint32_t devarch, uint8_t devtype,
                           char *buf, size_t len)
{
    struct pp_cs_id id = make_id(cls, part, devarch, devtype);

    return pp_cs_part_name(&id, buf, len);
}

START_TEST(armv8_0_parts_are_named_by_part_alone)
{
    char buf[80];

    ck_assert_str_eq(name_of(0x9, 0x9D3, 0x47702A16u, 0x16, buf, sizeof(buf)), "Cortex-A53 PMU");
    ck_assert_str_eq(name_of(0x9, 0xD03, 0x47706A15u, 0x15, buf, sizeof(buf)), "Cortex-A53 debug");
    ck_assert_str_eq(name_of(0x9, 0x9D8, 0x47702A16u, 0x16, buf, sizeof(buf)), "Cortex-A72 PMU");
    ck_assert_str_eq(name_of(0x9, 0x9A0, 0, 0x16, buf, sizeof(buf)), "Cortex-A9 PMU");
}
END_TEST

START_TEST(armv8_2_shared_part_is_named_by_devtype)
{
    char buf[80];

    ck_assert_str_eq(name_of(0x9, 0xD0B, 0x47702A16u, 0x16, buf, sizeof(buf)), "Cortex-A76 PMU");
    ck_assert_str_eq(name_of(0x9, 0xD0B, 0x47708A15u, 0x15, buf, sizeof(buf)), "Cortex-A76 debug");
    ck_assert_str_eq(name_of(0x9, 0xD0B, 0x47701A14u, 0x14, buf, sizeof(buf)), "Cortex-A76 CTI");
    ck_assert_str_eq(name_of(0x9, 0xD05, 0x47702A16u, 0x16, buf, sizeof(buf)), "Cortex-A55 PMU");
}
END_TEST

START_TEST(rom_tables_and_system_parts_have_names)
{
    char buf[80];

    ck_assert_str_eq(name_of(0x1, 0x4A1, 0, 0, buf, sizeof(buf)),
                     "Cortex-A53 ROM table (v8 memory map)");
    ck_assert_str_eq(name_of(0x1, 0x4A3, 0, 0, buf, sizeof(buf)),
                     "Cortex-A53 ROM table (v7 memory map)");
    ck_assert_str_eq(name_of(0x9, 0x4E4, 0x47700AF7u, 0, buf, sizeof(buf)),
                     "Cortex-A76 ROM table (DSU)");
    ck_assert_str_eq(name_of(0x9, 0x906, 0, 0x14, buf, sizeof(buf)), "CoreSight CTI (SoC-400)");
    ck_assert_str_eq(name_of(0x9, 0x9E2, 0, 0, buf, sizeof(buf)), "CoreSight APB-AP (SoC-600)");
}
END_TEST

START_TEST(unknown_part_is_named_with_part_and_designer)
{
    char buf[80];
    const char *n = name_of(0x9, 0x123, 0, 0x16, buf, sizeof(buf));

    ck_assert_str_eq(n, "unknown part 0x123 (designer 0x23B)");
    ck_assert_ptr_eq(n, buf);
}
END_TEST

START_TEST(known_part_number_of_another_designer_is_unknown)
{
    char buf[80];
    uint32_t regs[1024];
    struct pp_cs_id id;

    arm_id(regs, 0x9, 0x9D3, 0, 0);
    regs[0xFD0 / 4] = 0x0;          /* continuation 0: not Arm */
    id = decode(regs);
    ck_assert_str_eq(pp_cs_part_name(&id, buf, sizeof(buf)), "unknown part 0x9D3 (designer 0x03B)");
}
END_TEST

START_TEST(class_names_follow_cidr1_class)
{
    ck_assert_str_eq(pp_cs_class_name(0x1), "ROM table");
    ck_assert_str_eq(pp_cs_class_name(0x9), "CoreSight component");
    ck_assert_str_eq(pp_cs_class_name(0xF), "PrimeCell or system component");
    ck_assert_str_eq(pp_cs_class_name(0x3), "reserved class");
}
END_TEST

/* ---- walks over the simulated SoC (spec 6, 8) ---------------------------- */

#define A76_TOP   0x80000000u
#define A76_CLU   0x80400000u

/* The workload every core runs; fx_add_core adds the cpu number to the seed. */
static const struct pp_workload test_wl = {
    .clock_mhz = 1000, .ipc = 1.0, .l1d_pki = 300, .l1d_mpki = 10, .l1i_mpki = 2,
    .l2d_pki = 20, .l2d_mpki = 2, .br_pki = 150, .br_mpki = 3, .tlb_mpki = 1,
    .stall_fe = 0.1, .stall_be = 0.2, .phase_us = 1000, .swing = 0.1, .seed = 1,
};

/* Two A76 cores in slots 0 and 2 of a class 0x9 cluster table (slot 1
 * empty) under a class 0x1 top table; v8 memory map (spec 8.1). */
static struct pp_target *a76_pair(void)
{
    struct pp_target *t = fx_target("a76-pair", A76_TOP, 0x1, 0x4C0, 100);

    fx_add_cluster(t, A76_CLU, 0x9, 0x4E4, 3);
    fx_add_core(t, "cortex-a76", 0, 0, A76_CLU + 0x010000, A76_CLU + 0x030000,
                A76_CLU + 0x020000, 0x81000000u, &test_wl);
    fx_add_core(t, "cortex-a76", 0, 2, A76_CLU + 0x210000, A76_CLU + 0x230000,
                A76_CLU + 0x220000, 0x81000200u, &test_wl);
    return t;
}

/* Zynq-like Cortex-A9 pair, PMUv2 at debug + 0x1000 (spec 8.2). */
static struct pp_target *a9_pair(void)
{
    struct pp_target *t = fx_target("a9-pair", 0x80000000u, 0x1, 0x4C0, 100);

    fx_add_cluster(t, 0x80080000u, 0x1, 0x4A9, 2);
    fx_add_core(t, "cortex-a9", 0, 0, 0x80090000u, 0x80091000u, 0x80098000u, 0x80000000u, &test_wl);
    fx_add_core(t, "cortex-a9", 0, 1, 0x80092000u, 0x80093000u, 0x80099000u, 0x80000001u, &test_wl);
    return t;
}

/* A53 quad in two class 0x9 clusters directly under a class 0x9 top. */
static struct pp_target *a53_class9(void)
{
    struct pp_target *t = fx_target("a53-c9", 0x90000000u, 0x9, 0x4C1, 100);

    fx_add_cluster(t, 0x90400000u, 0x9, 0x4A1, 2);
    fx_add_cluster(t, 0x90800000u, 0x9, 0x4A1, 2);
    for (unsigned i = 0; i < 4; i++) {
        uint32_t clu = i < 2 ? 0x90400000u : 0x90800000u;
        uint32_t d = clu + 0x10000u + (i % 2) * 0x100000u;

        fx_add_core(t, "cortex-a53", i / 2, i % 2, d, d + 0x20000u, d + 0x10000u,
                    0x80000000u | (i / 2) << 8 | (i % 2), &test_wl);
    }
    return t;
}

#define MAX_SEEN 64

struct seen {
    unsigned n;
    unsigned stop_after;            /* 0 = never stop */
    struct pp_cs_component c[MAX_SEEN];
};

static int record(void *ctx, const struct pp_cs_component *c)
{
    struct seen *s = ctx;

    if (s->n < MAX_SEEN)
        s->c[s->n] = *c;
    s->n++;
    if (s->stop_after && s->n >= s->stop_after)
        return 42;
    return 0;
}

static const struct pp_cs_component *seen_at(const struct seen *s, uint32_t base)
{
    for (unsigned i = 0; i < s->n && i < MAX_SEEN; i++)
        if (s->c[i].base == base)
            return &s->c[i];
    return NULL;
}

static unsigned count_kind(const struct seen *s, enum pp_cs_kind k)
{
    unsigned n = 0;

    for (unsigned i = 0; i < s->n && i < MAX_SEEN; i++)
        if (s->c[i].status == PP_OK && pp_cs_kind(&s->c[i].id) == k)
            n++;
    return n;
}

static struct fx_rig up_a76(void)
{
    struct fx_rig f;

    fx_rig_build(&f, a76_pair());
    return f;
}

/* ---- walk: structure ---- */

START_TEST(walk_visits_the_root_table_first_at_depth_0)
{
    struct fx_rig f = up_a76();
    struct seen s = { 0 };

    ck_assert_int_eq(pp_cs_walk(f.bus, A76_TOP, record, &s), PP_OK);
    ck_assert_uint_ge(s.n, 1);
    ck_assert_uint_eq(s.c[0].base, A76_TOP);
    ck_assert_uint_eq(s.c[0].depth, 0);
    ck_assert_uint_eq(s.c[0].rom, 0);
    ck_assert_uint_eq(s.c[0].id.cls, 0x1);
    ck_assert_int_eq(pp_cs_kind(&s.c[0].id), PP_CS_ROM);
    fx_rig_down(&f);
}
END_TEST

START_TEST(class_0x9_cluster_table_under_class_0x1_top_is_walked)
{
    struct fx_rig f = up_a76();
    struct seen s = { 0 };
    const struct pp_cs_component *clu, *dbg;

    ck_assert_int_eq(pp_cs_walk(f.bus, A76_TOP, record, &s), PP_OK);
    clu = seen_at(&s, A76_CLU);
    ck_assert_ptr_nonnull(clu);
    ck_assert_uint_eq(clu->depth, 1);
    ck_assert_uint_eq(clu->rom, A76_TOP);
    ck_assert_uint_eq(clu->id.cls, 0x9);
    ck_assert_uint_eq(clu->id.devarch, 0x47700AF7u);
    ck_assert_int_eq(pp_cs_kind(&clu->id), PP_CS_ROM);
    dbg = seen_at(&s, A76_CLU + 0x010000);
    ck_assert_ptr_nonnull(dbg);
    ck_assert_uint_eq(dbg->depth, 2);
    ck_assert_uint_eq(dbg->rom, A76_CLU);
    fx_rig_down(&f);
}
END_TEST

START_TEST(walk_finds_every_block_of_both_cores_and_nothing_else)
{
    static const uint32_t want[] = {
        A76_TOP, A76_CLU,
        A76_CLU + 0x010000, A76_CLU + 0x020000, A76_CLU + 0x030000,
        A76_CLU + 0x210000, A76_CLU + 0x220000, A76_CLU + 0x230000,
    };
    struct fx_rig f = up_a76();
    struct seen s = { 0 };

    ck_assert_int_eq(pp_cs_walk(f.bus, A76_TOP, record, &s), PP_OK);
    /* The end marker ends each table: no component past the last core. */
    ck_assert_uint_eq(s.n, sizeof(want) / sizeof(want[0]));
    for (unsigned i = 0; i < s.n; i++) {
        ck_assert_ptr_nonnull(seen_at(&s, want[i]));
        ck_assert_int_eq(s.c[i].status, PP_OK);
        ck_assert(s.c[i].id.cid_valid);
    }
    ck_assert_uint_eq(count_kind(&s, PP_CS_DEBUG), 2);
    ck_assert_uint_eq(count_kind(&s, PP_CS_PMU), 2);
    ck_assert_uint_eq(count_kind(&s, PP_CS_CTI), 2);
    fx_rig_down(&f);
}
END_TEST

START_TEST(not_present_entries_of_an_empty_slot_are_skipped_not_taken_as_end)
{
    struct fx_rig f = up_a76();
    struct seen s = { 0 };
    const struct pp_cs_component *dbg1;

    ck_assert_int_eq(pp_cs_walk(f.bus, A76_TOP, record, &s), PP_OK);
    /* Slot 1 is empty: entries 3-5 read 0x00000002; slot 2 starts at 6. */
    dbg1 = seen_at(&s, A76_CLU + 0x210000);
    ck_assert_ptr_nonnull(dbg1);
    ck_assert_uint_eq(dbg1->entry, 6);
    ck_assert_uint_eq(seen_at(&s, A76_CLU + 0x030000)->entry, 2);
    fx_rig_down(&f);
}
END_TEST

START_TEST(class_0x1_not_present_entry_0x2_is_skipped_not_taken_as_end)
{
    struct fx_rig f;
    struct seen s = { 0 };
    struct pp_target *t = fx_target("a9-gap", 0x80000000u, 0x1, 0x4C0, 100);
    const struct pp_cs_component *dbg;

    /* v7 memory map: an absent core reads 0x00000002 (spec 6.2). */
    fx_add_cluster(t, 0x80080000u, 0x1, 0x4A9, 3);
    fx_add_core(t, "cortex-a9", 0, 0, 0x80090000u, 0x80091000u, 0x80098000u, 0, &test_wl);
    fx_add_core(t, "cortex-a9", 0, 2, 0x80094000u, 0x80095000u, 0x8009A000u, 0, &test_wl);
    fx_rig_build(&f, t);
    ck_assert_int_eq(pp_cs_walk(f.bus, 0x80000000u, record, &s), PP_OK);
    dbg = seen_at(&s, 0x80094000u);
    ck_assert_ptr_nonnull(dbg);
    ck_assert_uint_eq(dbg->entry, 6);
    ck_assert_uint_eq(s.n, 2 + 2 * 3);
    fx_rig_down(&f);
}
END_TEST

START_TEST(rom_entries_are_read_in_batches_not_one_round_trip_each)
{
    struct fx_rig f = up_a76();
    struct seen s = { 0 };
    struct pp_bus_stats st;

    ck_assert_int_eq(pp_cs_walk(f.bus, A76_TOP, record, &s), PP_OK);
    pp_bus_get_stats(f.bus, &st);
    /* One ID batch per component plus one entry batch per table (each
     * table here has fewer entries than a batch holds). */
    ck_assert_uint_eq(st.batches, s.n + 2);
    fx_rig_down(&f);
}
END_TEST

START_TEST(walk_is_depth_first_in_entry_order)
{
    struct fx_rig f;
    struct seen s = { 0 };
    unsigned clu1 = 0;

    fx_rig_build(&f, a53_class9());
    ck_assert_int_eq(pp_cs_walk(f.bus, 0x90000000u, record, &s), PP_OK);
    ck_assert_uint_eq(s.n, 3 + 4 * 3);
    ck_assert_uint_eq(s.c[1].base, 0x90400000u);
    for (unsigned i = 0; i < s.n; i++)
        if (s.c[i].base == 0x90800000u)
            clu1 = i;
    /* Cluster 0's six blocks come between its table and cluster 1's. */
    ck_assert_uint_eq(clu1, 2 + 6);
    for (unsigned i = 2; i < clu1; i++) {
        ck_assert_uint_eq(s.c[i].rom, 0x90400000u);
        ck_assert_uint_eq(s.c[i].entry, i - 2);
    }
    fx_rig_down(&f);
}
END_TEST

START_TEST(class_0x9_top_table_is_walked)
{
    struct fx_rig f;
    struct seen s = { 0 };

    fx_rig_build(&f, a53_class9());
    ck_assert_int_eq(pp_cs_walk(f.bus, 0x90000000u, record, &s), PP_OK);
    ck_assert_uint_eq(s.c[0].id.cls, 0x9);
    ck_assert_int_eq(pp_cs_kind(&s.c[0].id), PP_CS_ROM);
    ck_assert_uint_eq(count_kind(&s, PP_CS_ROM), 3);
    ck_assert_uint_eq(count_kind(&s, PP_CS_DEBUG), 4);
    ck_assert_uint_eq(count_kind(&s, PP_CS_PMU), 4);
    ck_assert_uint_eq(count_kind(&s, PP_CS_CTI), 4);
    fx_rig_down(&f);
}
END_TEST

START_TEST(cluster_table_below_its_parent_gives_negative_offsets)
{
    struct fx_rig f;
    struct seen s = { 0 };
    struct pp_target *t = fx_target("below", 0x80800000u, 0x1, 0x4C0, 100);

    /* Cluster table 4 MB below the top: entry offset 0xFFC00000. */
    fx_add_cluster(t, 0x80400000u, 0x9, 0x4E4, 1);
    fx_add_core(t, "cortex-a76", 0, 0, 0x80410000u, 0x80430000u, 0x80420000u, 0x81000000u,
                &test_wl);
    fx_rig_build(&f, t);
    ck_assert_int_eq(pp_cs_walk(f.bus, 0x80800000u, record, &s), PP_OK);
    ck_assert_ptr_nonnull(seen_at(&s, 0x80400000u));
    ck_assert_ptr_nonnull(seen_at(&s, 0x80430000u));
    ck_assert_uint_eq(s.n, 5);
    fx_rig_down(&f);
}
END_TEST

/* ---- walk: errors and stopping ---- */

START_TEST(unreadable_component_is_visited_with_its_error_and_the_walk_goes_on)
{
    struct fx_rig f = up_a76();
    struct seen s = { 0 };
    const struct pp_cs_component *pmu0;

    /* CIDR1 of cpu0's PMU answers with an error response. */
    ck_assert_int_eq(pp_sim_set_addr_error(f.sim, A76_CLU + 0x030FF4, true), PP_OK);
    ck_assert_int_eq(pp_cs_walk(f.bus, A76_TOP, record, &s), PP_OK);
    pmu0 = seen_at(&s, A76_CLU + 0x030000);
    ck_assert_ptr_nonnull(pmu0);
    ck_assert_int_eq(pmu0->status, PP_E_SLVERR);
    ck_assert_ptr_nonnull(seen_at(&s, A76_CLU + 0x230000));
    ck_assert_uint_eq(s.n, 8);
    fx_rig_down(&f);
}
END_TEST

START_TEST(unreadable_root_is_visited_and_its_error_returned)
{
    struct fx_rig f = up_a76();
    struct seen s = { 0 };

    /* Nothing is mapped at 0x70000000: the default slave answers. */
    ck_assert_int_eq(pp_cs_walk(f.bus, 0x70000000u, record, &s), PP_E_SLVERR);
    ck_assert_uint_eq(s.n, 1);
    ck_assert_int_eq(s.c[0].status, PP_E_SLVERR);
    fx_rig_down(&f);
}
END_TEST

START_TEST(visitor_returning_non_zero_stops_the_walk_with_that_value)
{
    struct fx_rig f = up_a76();
    struct seen s = { .stop_after = 3 };

    ck_assert_int_eq(pp_cs_walk(f.bus, A76_TOP, record, &s), 42);
    ck_assert_uint_eq(s.n, 3);
    fx_rig_down(&f);
}
END_TEST

START_TEST(walk_from_a_single_component_visits_only_it)
{
    struct fx_rig f = up_a76();
    struct seen s = { 0 };

    ck_assert_int_eq(pp_cs_walk(f.bus, A76_CLU + 0x030000, record, &s), PP_OK);
    ck_assert_uint_eq(s.n, 1);
    ck_assert_int_eq(pp_cs_kind(&s.c[0].id), PP_CS_PMU);
    fx_rig_down(&f);
}
END_TEST

START_TEST(ids_of_a_powered_off_core_still_read)
{
    struct fx_rig f = up_a76();
    struct pp_cs_id id;
    char buf[64];

    ck_assert_int_eq(pp_sim_set_power(f.sim, 1, false), PP_OK);
    ck_assert_int_eq(pp_cs_read_id(f.bus, A76_CLU + 0x230000, &id), PP_OK);
    ck_assert_int_eq(pp_cs_kind(&id), PP_CS_PMU);
    ck_assert_str_eq(pp_cs_part_name(&id, buf, sizeof(buf)), "Cortex-A76 PMU");
    ck_assert_uint_eq(id.devaff, 0x81000200u);
    fx_rig_down(&f);
}
END_TEST

START_TEST(read_id_of_unmapped_address_returns_the_error_response)
{
    struct fx_rig f = up_a76();
    struct pp_cs_id id;

    ck_assert_int_eq(pp_cs_read_id(f.bus, 0x70000000u, &id), PP_E_SLVERR);
    fx_rig_down(&f);
}
END_TEST

/* ---- topology ---- */

START_TEST(cores_are_numbered_in_the_order_of_their_debug_blocks)
{
    struct fx_rig f;
    struct pp_topology topo;

    fx_rig_build(&f, a53_class9());
    ck_assert_int_eq(pp_topology_discover(f.bus, 0x90000000u, &topo), PP_OK);
    ck_assert_uint_eq(topo.ncores, 4);
    for (unsigned i = 0; i < 4; i++) {
        ck_assert_uint_eq(topo.cores[i].cpu, i);
        ck_assert_uint_eq(topo.cores[i].debug_base, f.t->cores[i].debug_base);
    }
    fx_rig_down(&f);
}
END_TEST

START_TEST(pmu_and_cti_are_paired_with_their_core_by_devaff)
{
    struct fx_rig f;
    struct pp_topology topo;

    fx_rig_build(&f, a53_class9());
    ck_assert_int_eq(pp_topology_discover(f.bus, 0x90000000u, &topo), PP_OK);
    for (unsigned i = 0; i < 4; i++) {
        const struct pp_cs_core *c = &topo.cores[i];

        ck_assert_uint_eq(c->affinity, f.t->cores[i].mpidr);
        ck_assert_uint_eq(c->pmu_base, f.t->cores[i].pmu_base);
        ck_assert_uint_eq(c->cti_base, f.t->cores[i].cti_base);
    }
    fx_rig_down(&f);
}
END_TEST

START_TEST(devaff_pairing_does_not_depend_on_the_v7_pmu_offset)
{
    struct fx_rig f = up_a76();
    struct pp_topology topo;

    ck_assert_int_eq(pp_topology_discover(f.bus, A76_TOP, &topo), PP_OK);
    ck_assert_uint_eq(topo.ncores, 2);
    ck_assert_uint_eq(topo.cores[1].debug_base, A76_CLU + 0x210000);
    ck_assert_uint_eq(topo.cores[1].pmu_base, A76_CLU + 0x230000);
    ck_assert_uint_eq(topo.cores[1].cti_base, A76_CLU + 0x220000);
    ck_assert_uint_eq(topo.cores[1].affinity, 0x81000200u);
    fx_rig_down(&f);
}
END_TEST

START_TEST(devaff_pairing_is_reported_as_affinity)
{
    struct fx_rig f = up_a76();
    struct pp_topology topo;

    ck_assert_int_eq(pp_topology_discover(f.bus, A76_TOP, &topo), PP_OK);
    ck_assert_int_eq(topo.cores[0].paired, PP_PAIR_AFFINITY);
    ck_assert_int_eq(topo.cores[1].paired, PP_PAIR_AFFINITY);
    ck_assert_str_eq(pp_cs_pairing_name(topo.cores[1].paired), "affinity");
    fx_rig_down(&f);
}
END_TEST

/* DEVAFF reading 0 on Armv8 blocks (seen on a real DAP): the PMU is the
 * nearest one after the debug block, in the v8 map (debug + 0x20000, 1 MB
 * slots, spec 8.1) and in the v7 map (debug + 0x1000, 8 KB slots, 8.2). */
static void expect_address_pairing(struct pp_target *t, uint32_t rom)
{
    struct fx_rig f;
    struct pp_topology topo;

    for (unsigned i = 0; i < t->ncores; i++)
        t->cores[i].devaff_zero = true;
    fx_rig_build(&f, t);
    ck_assert_int_eq(pp_topology_discover(f.bus, rom, &topo), PP_OK);
    ck_assert_uint_eq(topo.ncores, f.t->ncores);
    for (unsigned i = 0; i < topo.ncores; i++) {
        const struct pp_cs_core *c = &topo.cores[i];

        ck_assert_uint_eq(c->affinity, 0);
        ck_assert_uint_eq(c->debug_base, f.t->cores[i].debug_base);
        ck_assert_uint_eq(c->pmu_base, f.t->cores[i].pmu_base);
        ck_assert_uint_eq(c->cti_base, f.t->cores[i].cti_base);
        ck_assert_int_eq(c->paired, PP_PAIR_ADDRESS);
    }
    fx_rig_down(&f);
}

START_TEST(zero_devaff_in_the_v8_map_pairs_the_pmu_by_address)
{
    expect_address_pairing(a76_pair(), A76_TOP);
    expect_address_pairing(a53_class9(), 0x90000000u);
}
END_TEST

START_TEST(zero_devaff_in_the_v7_map_pairs_the_pmu_by_address)
{
    struct pp_target *t = fx_target("rpi3ish", 0x80020000u, 0x1, 0x4C0, 100);

    fx_add_cluster(t, 0x80000000u, 0x1, 0x4A3, 4);
    for (unsigned i = 0; i < 4; i++)
        fx_add_core(t, "cortex-a53", 0, i, 0x80010000u + 0x2000u * i, 0x80011000u + 0x2000u * i,
                    0x80018000u + 0x1000u * i, 0x80000000u + i, &test_wl);
    expect_address_pairing(t, 0x80020000u);
}
END_TEST

/* A core whose slot holds no PMU gets none, rather than its neighbour's. */
START_TEST(address_pairing_stays_inside_the_core_slot)
{
    struct fx_rig f;
    struct pp_topology topo;
    struct pp_target *t = fx_target("a9-gap", 0x80000000u, 0x1, 0x4C0, 100);

    fx_add_cluster(t, 0x80080000u, 0x1, 0x4A9, 2);
    fx_add_core(t, "cortex-a9", 0, 0, 0x80090000u, 0x80095000u, 0x80098000u, 0, &test_wl);
    fx_add_core(t, "cortex-a9", 0, 1, 0x80092000u, 0x80093000u, 0x80099000u, 0, &test_wl);
    fx_rig_build(&f, t);
    ck_assert_int_eq(pp_topology_discover(f.bus, 0x80000000u, &topo), PP_OK);
    ck_assert_uint_eq(topo.cores[1].pmu_base, 0x80093000u);
    ck_assert_int_eq(topo.cores[0].paired, PP_PAIR_NONE);
    ck_assert_uint_eq(topo.cores[0].pmu_base, 0);
    fx_rig_down(&f);
}
END_TEST

START_TEST(core_type_and_midr_come_from_a_powered_core)
{
    struct fx_rig f = up_a76();
    struct pp_topology topo;

    ck_assert_int_eq(pp_topology_discover(f.bus, A76_TOP, &topo), PP_OK);
    ck_assert_uint_eq(topo.cores[0].midr, pp_core_type_midr(pp_core_type_find("a76")));
    ck_assert_ptr_eq(topo.cores[0].type, pp_core_type_find("a76"));
    ck_assert_uint_eq(topo.cores[0].debug_part, 0xD0B);
    fx_rig_down(&f);
}
END_TEST

START_TEST(powered_off_core_is_found_and_typed_by_its_debug_part)
{
    struct fx_rig f = up_a76();
    struct pp_topology topo;

    ck_assert_int_eq(pp_sim_set_power(f.sim, 1, false), PP_OK);
    ck_assert_int_eq(pp_topology_discover(f.bus, A76_TOP, &topo), PP_OK);
    ck_assert_uint_eq(topo.ncores, 2);
    ck_assert_uint_eq(topo.cores[1].midr, 0);
    ck_assert_ptr_eq(topo.cores[1].type, pp_core_type_find("cortex-a76"));
    ck_assert_uint_eq(topo.cores[1].pmu_base, A76_CLU + 0x230000);
    ck_assert_uint_ne(topo.cores[0].midr, 0);
    fx_rig_down(&f);
}
END_TEST

START_TEST(midrs_of_all_cores_are_read_in_one_batch)
{
    struct fx_rig f;
    struct pp_topology topo;
    struct pp_bus_stats st;
    struct seen s = { 0 };
    uint64_t walk_batches;

    fx_rig_build(&f, a53_class9());
    ck_assert_int_eq(pp_cs_walk(f.bus, 0x90000000u, record, &s), PP_OK);
    pp_bus_get_stats(f.bus, &st);
    walk_batches = st.batches;
    ck_assert_int_eq(pp_topology_discover(f.bus, 0x90000000u, &topo), PP_OK);
    pp_bus_get_stats(f.bus, &st);
    ck_assert_uint_eq(st.batches - walk_batches, walk_batches + 1);
    fx_rig_down(&f);
}
END_TEST

START_TEST(armv7_pmu_is_the_block_at_debug_plus_0x1000_and_ctis_follow_core_order)
{
    struct fx_rig f;
    struct pp_topology topo;

    fx_rig_build(&f, a9_pair());
    ck_assert_int_eq(pp_topology_discover(f.bus, 0x80000000u, &topo), PP_OK);
    ck_assert_uint_eq(topo.ncores, 2);
    for (unsigned i = 0; i < 2; i++) {
        const struct pp_cs_core *c = &topo.cores[i];

        ck_assert_uint_eq(c->debug_base, 0x80090000u + 0x2000u * i);
        ck_assert_uint_eq(c->pmu_base, c->debug_base + 0x1000u);
        ck_assert_uint_eq(c->cti_base, 0x80098000u + 0x1000u * i);
        ck_assert_uint_eq(c->affinity, 0);      /* Armv7: no DEVAFF */
        ck_assert_ptr_eq(c->type, pp_core_type_find("cortex-a9"));
    }
    fx_rig_down(&f);
}
END_TEST

START_TEST(armv7_powered_off_core_is_typed_by_its_debug_part)
{
    struct fx_rig f;
    struct pp_topology topo;

    fx_rig_build(&f, a9_pair());
    ck_assert_int_eq(pp_sim_set_power(f.sim, 0, false), PP_OK);
    ck_assert_int_eq(pp_topology_discover(f.bus, 0x80000000u, &topo), PP_OK);
    ck_assert_uint_eq(topo.cores[0].midr, 0);
    ck_assert_uint_eq(topo.cores[0].debug_part, 0xC09);
    ck_assert_ptr_eq(topo.cores[0].type, pp_core_type_find("cortex-a9"));
    ck_assert_uint_eq(topo.cores[0].pmu_base, 0x80091000u);
    fx_rig_down(&f);
}
END_TEST

START_TEST(topology_without_debug_blocks_is_not_found)
{
    struct fx_rig f;
    struct pp_topology topo;
    struct pp_target *t = fx_target("empty", 0x80000000u, 0x1, 0x4C0, 100);

    fx_add_cluster(t, 0x80400000u, 0x9, 0x4E4, 2);
    fx_rig_build(&f, t);
    ck_assert_int_eq(pp_topology_discover(f.bus, 0x80000000u, &topo), PP_E_NOTFOUND);
    ck_assert_uint_eq(topo.ncores, 0);
    fx_rig_down(&f);
}
END_TEST

static Suite *coresight_suite(void)
{
    Suite *s = suite_create("coresight");
    TCase *tc;

    tc = tcase_create("component ID");
    tcase_add_test(tc, cidr_of_a_class_0x9_component_assembles_to_b105900d);
    tcase_add_test(tc, class_0x1_rom_table_has_a_valid_preamble_and_class_1);
    tcase_add_test(tc, wrong_preamble_byte_makes_the_cid_invalid);
    tcase_add_test(tc, all_zero_id_block_is_not_a_component);
    tcase_add_test(tc, only_bits_7_0_of_each_cidr_word_count);
    suite_add_tcase(s, tc);

    tc = tcase_create("peripheral ID");
    tcase_add_test(tc, pidr_gives_part_designer_0x23b_revision_and_size);
    tcase_add_test(tc, pidr4_size_counts_log2_of_4k_blocks);
    tcase_add_test(tc, jedec_bit_is_not_part_of_the_designer);
    tcase_add_test(tc, other_designer_decodes_continuation_and_id);
    tcase_add_test(tc, devarch_devtype_devaff_are_kept_for_class_0x9);
    tcase_add_test(tc, class_0x1_table_drops_the_class_0x9_words);
    suite_add_tcase(s, tc);

    tc = tcase_create("kind");
    tcase_add_test(tc, class_0x1_is_a_rom_table);
    tcase_add_test(tc, class_0x9_with_devarch_0x47700af7_is_a_rom_table);
    tcase_add_test(tc, devtype_tells_debug_pmu_cti_and_etm_of_a_shared_part);
    tcase_add_test(tc, armv7_debug_without_devarch_or_devtype_is_known_by_part);
    tcase_add_test(tc, armv8_part_without_devtype_is_not_guessed);
    tcase_add_test(tc, class_0xf_primecell_is_other);
    suite_add_tcase(s, tc);

    tc = tcase_create("names");
    tcase_add_test(tc, armv8_0_parts_are_named_by_part_alone);
    tcase_add_test(tc, armv8_2_shared_part_is_named_by_devtype);
    tcase_add_test(tc, rom_tables_and_system_parts_have_names);
    tcase_add_test(tc, unknown_part_is_named_with_part_and_designer);
    tcase_add_test(tc, known_part_number_of_another_designer_is_unknown);
    tcase_add_test(tc, class_names_follow_cidr1_class);
    suite_add_tcase(s, tc);

    tc = tcase_create("ROM table walk");
    tcase_add_test(tc, walk_visits_the_root_table_first_at_depth_0);
    tcase_add_test(tc, class_0x9_cluster_table_under_class_0x1_top_is_walked);
    tcase_add_test(tc, walk_finds_every_block_of_both_cores_and_nothing_else);
    tcase_add_test(tc, not_present_entries_of_an_empty_slot_are_skipped_not_taken_as_end);
    tcase_add_test(tc, class_0x1_not_present_entry_0x2_is_skipped_not_taken_as_end);
    tcase_add_test(tc, rom_entries_are_read_in_batches_not_one_round_trip_each);
    tcase_add_test(tc, walk_is_depth_first_in_entry_order);
    tcase_add_test(tc, class_0x9_top_table_is_walked);
    tcase_add_test(tc, cluster_table_below_its_parent_gives_negative_offsets);
    tcase_add_test(tc, walk_from_a_single_component_visits_only_it);
    suite_add_tcase(s, tc);

    tc = tcase_create("walk errors");
    tcase_add_test(tc, unreadable_component_is_visited_with_its_error_and_the_walk_goes_on);
    tcase_add_test(tc, unreadable_root_is_visited_and_its_error_returned);
    tcase_add_test(tc, visitor_returning_non_zero_stops_the_walk_with_that_value);
    tcase_add_test(tc, ids_of_a_powered_off_core_still_read);
    tcase_add_test(tc, read_id_of_unmapped_address_returns_the_error_response);
    suite_add_tcase(s, tc);

    tc = tcase_create("topology");
    tcase_add_test(tc, cores_are_numbered_in_the_order_of_their_debug_blocks);
    tcase_add_test(tc, pmu_and_cti_are_paired_with_their_core_by_devaff);
    tcase_add_test(tc, devaff_pairing_does_not_depend_on_the_v7_pmu_offset);
    tcase_add_test(tc, devaff_pairing_is_reported_as_affinity);
    tcase_add_test(tc, zero_devaff_in_the_v8_map_pairs_the_pmu_by_address);
    tcase_add_test(tc, zero_devaff_in_the_v7_map_pairs_the_pmu_by_address);
    tcase_add_test(tc, address_pairing_stays_inside_the_core_slot);
    tcase_add_test(tc, core_type_and_midr_come_from_a_powered_core);
    tcase_add_test(tc, powered_off_core_is_found_and_typed_by_its_debug_part);
    tcase_add_test(tc, midrs_of_all_cores_are_read_in_one_batch);
    tcase_add_test(tc, armv7_pmu_is_the_block_at_debug_plus_0x1000_and_ctis_follow_core_order);
    tcase_add_test(tc, armv7_powered_off_core_is_typed_by_its_debug_part);
    tcase_add_test(tc, topology_without_debug_blocks_is_not_found);
    suite_add_tcase(s, tc);

    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(coresight_suite());
    int failed;

    srunner_run_all(sr, CK_NORMAL);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

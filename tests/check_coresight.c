/*
 * check_coresight.c - CoreSight identification, part names, ROM table walks
 * and topology.  Facts: spec/arm-pmu-coresight.md 5, 6, 8.
 */
#include <check.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "coresight/coresight.h"

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

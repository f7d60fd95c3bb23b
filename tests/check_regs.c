/*
 * check_regs.c - PMU and debug register maps, names and field decoders
 * (lib/pmu/regs*.c).
 *
 * Offsets and field values restate spec/arm-pmu-coresight.md (1, 3, 4 and
 * the checklist in 9) so a map row that contradicts the spec fails here.
 */
#include <check.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pmuprobe.h"
#include "pmu/coretype.h"
#include "pmu/regs.h"

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

static const struct pp_core_type *core(const char *name)
{
    const struct pp_core_type *ct = pp_core_type_find(name);

    ck_assert_msg(ct != NULL, "core type %s missing", name);
    return ct;
}

/* Resolves on the core's default counter count; fails the test if absent. */
static struct pp_reg_ref must(const char *corename, const char *name)
{
    struct pp_reg_ref ref;
    int rc = pp_reg_resolve(core(corename), 0, name, &ref);

    ck_assert_msg(rc == PP_OK, "%s on %s: %s", name, corename, pp_errname(rc));
    return ref;
}

static int resolve_rc(const char *corename, const char *name)
{
    struct pp_reg_ref ref;

    return pp_reg_resolve(core(corename), 0, name, &ref);
}

static const struct pp_reg *reg(const char *corename, const char *name)
{
    const struct pp_reg *r = must(corename, name).reg;

    ck_assert_ptr_nonnull(r);
    return r;
}

static uint32_t field(const char *corename, const char *regname, const char *f, uint32_t val)
{
    uint32_t v = 0xDEADBEEFu;

    ck_assert_msg(pp_reg_field(reg(corename, regname), f, val, &v), "%s.%s missing", regname, f);
    return v;
}

/* Decodes into a buffer and checks that line appears in it. */
static void assert_decodes_to(const char *corename, const char *regname, uint32_t val,
                              const char *line)
{
    char buf[2048];

    pp_reg_decode(reg(corename, regname), val, buf, sizeof(buf));
    ck_assert_msg(strstr(buf, line) != NULL, "%s=0x%X: no \"%s\" in\n%s", regname, val, line, buf);
}

/* --- offsets (spec 9 checklist) ---------------------------------------- */

START_TEST(pmccntr_is_at_0x0f8_on_pmuv3)
{
    ck_assert_uint_eq(must("cortex-a53", "PMCCNTR").offset, 0x0F8);
    ck_assert_uint_eq(must("cortex-a53", "PMCCNTR_HI").offset, 0x0FC);
}
END_TEST

START_TEST(pmccntr_is_at_0x07c_on_pmuv2)
{
    ck_assert_uint_eq(must("cortex-a9", "PMCCNTR").offset, 0x07C);
}
END_TEST

START_TEST(pmuv3_event_counters_have_stride_8_and_types_stride_4)
{
    ck_assert_uint_eq(must("cortex-a53", "PMEVCNTR3").offset, 0x018);
    ck_assert_uint_eq(must("cortex-a53", "PMEVTYPER3").offset, 0x40C);
}
END_TEST

START_TEST(pmuv2_event_counters_have_stride_4)
{
    ck_assert_uint_eq(must("cortex-a9", "PMEVCNTR3").offset, 0x00C);
    ck_assert_uint_eq(must("cortex-a9", "PMEVTYPER3").offset, 0x40C);
}
END_TEST

START_TEST(pmccfiltr_is_at_0x47c_on_both_versions)
{
    ck_assert_uint_eq(must("cortex-a72", "PMCCFILTR").offset, 0x47C);
    ck_assert_uint_eq(must("cortex-a15", "PMCCFILTR").offset, 0x47C);
}
END_TEST

START_TEST(pmcfgr_is_at_0xe00_and_pmcr_at_0xe04)
{
    ck_assert_uint_eq(must("cortex-a76", "PMCFGR").offset, 0xE00);
    ck_assert_uint_eq(must("cortex-a76", "PMCR").offset, 0xE04);
}
END_TEST

START_TEST(pmdevarch_is_at_0xfbc)
{
    ck_assert_uint_eq(must("cortex-a53", "PMDEVARCH").offset, 0xFBC);
}
END_TEST

START_TEST(edprsr_is_at_0x314_and_oslar_at_0x300)
{
    struct pp_reg_ref prsr = must("cortex-a53", "EDPRSR"), oslar = must("cortex-a53", "OSLAR");

    ck_assert_uint_eq(prsr.offset, 0x314);
    ck_assert_int_eq(prsr.block, PP_BLK_DEBUG);
    ck_assert_uint_eq(oslar.offset, 0x300);
    ck_assert_int_eq(oslar.reg->access, PP_WO);
}
END_TEST

START_TEST(header_offsets_agree_with_the_pmuv3_and_debug_maps)
{
    static const struct { const char *name; unsigned off; } tab[] = {
        { "PMEVCNTR5", PP_PMU_PMEVCNTR_V3(5) }, { "PMCCNTR", PP_PMU_PMCCNTR_V3 },
        { "PMPCSR", PP_PMU_PMPCSR }, { "PMEVTYPER2", PP_PMU_PMEVTYPER(2) },
        { "PMCCFILTR", PP_PMU_PMCCFILTR }, { "PMSSCR", PP_PMU_PMSSCR_IMPDEF },
        { "PMCNTENSET", PP_PMU_PMCNTENSET }, { "PMCNTENCLR", PP_PMU_PMCNTENCLR },
        { "PMINTENSET", PP_PMU_PMINTENSET }, { "PMINTENCLR", PP_PMU_PMINTENCLR },
        { "PMOVSCLR", PP_PMU_PMOVSCLR }, { "PMSWINC", PP_PMU_PMSWINC },
        { "PMOVSSET", PP_PMU_PMOVSSET }, { "PMCFGR", PP_PMU_PMCFGR }, { "PMCR", PP_PMU_PMCR },
        { "PMCEID3", PP_PMU_PMCEID(3) }, { "PMMIR", PP_PMU_PMMIR },
        { "PMDEVAFF0", PP_PMU_PMDEVAFF0 }, { "PMLSR", PP_PMU_PMLSR },
        { "PMAUTHSTATUS", PP_PMU_PMAUTHSTATUS }, { "PMDEVARCH", PP_PMU_PMDEVARCH },
        { "PMDEVID", PP_PMU_PMDEVID }, { "PMDEVTYPE", PP_PMU_PMDEVTYPE },
        { "EDSCR", PP_DBG_EDSCR }, { "OSLAR", PP_DBG_OSLAR }, { "EDPRCR", PP_DBG_EDPRCR },
        { "EDPRSR", PP_DBG_EDPRSR }, { "MIDR", PP_DBG_MIDR }, { "DBGCLAIMSET", PP_DBG_CLAIMSET },
        { "DBGCLAIMCLR", PP_DBG_CLAIMCLR }, { "EDDEVAFF0", PP_DBG_EDDEVAFF0 },
        { "DBGAUTHSTATUS", PP_DBG_AUTHSTATUS }, { "EDDEVARCH", PP_DBG_EDDEVARCH },
    };

    for (size_t i = 0; i < ARRAY_LEN(tab); i++)
        ck_assert_msg(must("cortex-a76", tab[i].name).offset == tab[i].off,
                      "%s not at 0x%03X", tab[i].name, tab[i].off);
}
END_TEST

START_TEST(header_offsets_agree_with_the_pmuv2_and_armv7_debug_maps)
{
    ck_assert_uint_eq(must("cortex-a7", "PMEVCNTR3").offset, PP_PMU_PMEVCNTR_V2(3));
    ck_assert_uint_eq(must("cortex-a7", "PMCCNTR").offset, PP_PMU_PMCCNTR_V2);
    ck_assert_uint_eq(must("cortex-a7", "DBGOSLSR").offset, PP_DBG_OSLSR_V7);
}
END_TEST

START_TEST(edprsr_field_bits_agree_with_the_header)
{
    static const struct { const char *name; uint32_t bit; } tab[] = {
        { "PU", PP_EDPRSR_PU }, { "SPD", PP_EDPRSR_SPD }, { "R", PP_EDPRSR_R },
        { "SR", PP_EDPRSR_SR }, { "HALTED", PP_EDPRSR_HALTED }, { "OSLK", PP_EDPRSR_OSLK },
        { "DLK", PP_EDPRSR_DLK }, { "EDAD", PP_EDPRSR_EDAD }, { "SDAD", PP_EDPRSR_SDAD },
        { "EPMAD", PP_EDPRSR_EPMAD }, { "SPMAD", PP_EDPRSR_SPMAD }, { "SDR", PP_EDPRSR_SDR },
    };

    for (size_t i = 0; i < ARRAY_LEN(tab); i++) {
        ck_assert_uint_eq(field("cortex-a53", "EDPRSR", tab[i].name, tab[i].bit), 1);
        ck_assert_uint_eq(field("cortex-a53", "EDPRSR", tab[i].name, ~tab[i].bit), 0);
    }
}
END_TEST

/* Every map: word-aligned offsets inside 4 KB, indexed entries with a
 * stride, fields inside 32 bits and not overlapping, unique names. */
static void check_map(const struct pp_reg *m, size_t n)
{
    ck_assert_uint_gt(n, 0);
    for (size_t i = 0; i < n; i++) {
        const struct pp_reg *r = &m[i];
        uint32_t used = 0;
        unsigned last = r->offset + (r->count - 1u) * r->stride;

        ck_assert_msg(r->offset % 4 == 0 && last < 0x1000, "%s offset", r->name);
        ck_assert_msg(r->count == 1 || r->stride >= 4, "%s stride", r->name);
        ck_assert_msg(r->desc && *r->desc, "%s desc", r->name);
        for (size_t f = 0; f < r->nfields; f++) {
            const struct pp_field *fl = &r->fields[f];
            uint32_t mask;

            ck_assert_msg(fl->width >= 1 && fl->lsb + fl->width <= 32, "%s.%s", r->name, fl->name);
            mask = (fl->width == 32 ? 0xFFFFFFFFu : (1u << fl->width) - 1u) << fl->lsb;
            ck_assert_msg((used & mask) == 0, "%s.%s overlaps", r->name, fl->name);
            used |= mask;
        }
        for (size_t j = i + 1; j < n; j++)
            ck_assert_msg(strcmp(r->name, m[j].name) != 0, "%s twice", r->name);
    }
}

START_TEST(every_map_is_well_formed)
{
    const struct pp_reg *m;
    size_t n;

    m = pp_regs_pmu(3, &n);
    check_map(m, n);
    m = pp_regs_pmu(2, &n);
    check_map(m, n);
    m = pp_regs_debug(PP_ARCH_V8_0, &n);
    check_map(m, n);
    m = pp_regs_debug(PP_ARCH_V7, &n);
    check_map(m, n);
    ck_assert_ptr_null(pp_regs_pmu(1, &n));
    ck_assert_uint_eq(n, 0);
}
END_TEST

START_TEST(access_flags_follow_the_spec_condition_columns)
{
    const struct pp_reg *pmcr = reg("cortex-a76", "PMCR"), *pcsr = reg("cortex-a76", "PMPCSR");
    const struct pp_reg *ceid = reg("cortex-a76", "PMCEID0"), *sscr = reg("cortex-a76", "PMSSCR");
    const struct pp_reg *arch = reg("cortex-a76", "PMDEVARCH"), *prsr = reg("cortex-a76", "EDPRSR");
    const struct pp_reg *oslar = reg("cortex-a76", "OSLAR");

    ck_assert_uint_eq(pmcr->flags & (PP_REGF_CORE | PP_REGF_EPMAD | PP_REGF_OSLK),
                      PP_REGF_CORE | PP_REGF_EPMAD | PP_REGF_OSLK);
    ck_assert(ceid->flags & PP_REGF_EPMAD);
    ck_assert(!(pcsr->flags & PP_REGF_EPMAD) && (pcsr->flags & PP_REGF_READCLEAR));
    ck_assert(!(sscr->flags & (PP_REGF_EPMAD | PP_REGF_OSLK)) && sscr->access == PP_WO);
    ck_assert_uint_eq(arch->flags, 0);
    ck_assert(!(prsr->flags & PP_REGF_CORE) && (prsr->flags & PP_REGF_READCLEAR));
    ck_assert(!(oslar->flags & PP_REGF_OSLK) && (oslar->flags & PP_REGF_CORE));
}
END_TEST

/* --- indexed names ------------------------------------------------------ */

START_TEST(indexed_name_resolves_to_its_instance)
{
    struct pp_reg_ref ref = must("cortex-a53", "PMEVCNTR3");

    ck_assert_uint_eq(ref.index, 3);
    ck_assert_str_eq(ref.name, "PMEVCNTR3");
    ck_assert_str_eq(ref.reg->name, "PMEVCNTR");
}
END_TEST

START_TEST(pmevcntr6_on_a_six_counter_core_is_not_found)
{
    ck_assert_int_eq(resolve_rc("cortex-a53", "PMEVCNTR5"), PP_OK);
    ck_assert_int_eq(resolve_rc("cortex-a53", "PMEVCNTR6"), PP_E_NOTFOUND);
    ck_assert_int_eq(resolve_rc("cortex-a53", "PMEVTYPER6"), PP_E_NOTFOUND);
}
END_TEST

START_TEST(counters_argument_bounds_the_index)
{
    struct pp_reg_ref ref;

    ck_assert_int_eq(pp_reg_resolve(core("cortex-a53"), 4, "PMEVCNTR3", &ref), PP_OK);
    ck_assert_int_eq(pp_reg_resolve(core("cortex-a53"), 4, "PMEVCNTR4", &ref), PP_E_NOTFOUND);
}
END_TEST

START_TEST(high_word_instance_takes_its_number_before_the_suffix)
{
    struct pp_reg_ref a = must("cortex-a76", "PMEVCNTR2_HI"), b = must("cortex-a76", "pmevcntr_hi2");

    ck_assert_uint_eq(a.offset, 0x014);
    ck_assert_str_eq(a.name, "PMEVCNTR2_HI");
    ck_assert_uint_eq(b.offset, 0x014);
    ck_assert(a.reg->flags & PP_REGF_HI64);
}
END_TEST

START_TEST(snapshot_counter_index_resolves_at_stride_4)
{
    ck_assert_uint_eq(must("cortex-a76", "PMEVCNTSR2").offset, 0x628);
}
END_TEST

START_TEST(bare_stem_or_leading_zero_index_is_not_found)
{
    ck_assert_int_eq(resolve_rc("cortex-a53", "PMEVCNTR"), PP_E_NOTFOUND);
    ck_assert_int_eq(resolve_rc("cortex-a53", "PMEVCNTR03"), PP_E_NOTFOUND);
    ck_assert_int_eq(resolve_rc("cortex-a53", "PMEVCNTR-1"), PP_E_NOTFOUND);
}
END_TEST

START_TEST(offset_lookup_names_the_indexed_instance)
{
    struct pp_reg_ref ref;

    ck_assert_int_eq(pp_reg_at(core("cortex-a53"), 0, PP_BLK_PMU, 0x018, &ref), PP_OK);
    ck_assert_str_eq(ref.name, "PMEVCNTR3");
    ck_assert_int_eq(pp_reg_at(core("cortex-a53"), 0, PP_BLK_PMU, 0x0F8, &ref), PP_OK);
    ck_assert_str_eq(ref.name, "PMCCNTR");
    ck_assert_int_eq(pp_reg_at(core("cortex-a53"), 0, PP_BLK_PMU, 0x030, &ref), PP_E_NOTFOUND);
    ck_assert_ptr_null(ref.reg);
    ck_assert_str_eq(ref.name, "pmu+0x030");
}
END_TEST

/* --- feature gating ----------------------------------------------------- */

START_TEST(pmceid2_is_absent_without_pmuv3p1)
{
    ck_assert_int_eq(resolve_rc("cortex-a53", "PMCEID2"), PP_E_NOTFOUND);
    ck_assert_int_eq(resolve_rc("cortex-a53", "PMCEID3"), PP_E_NOTFOUND);
}
END_TEST

START_TEST(pmceid2_is_at_0xe28_with_pmuv3p1)
{
    ck_assert_uint_eq(must("cortex-a76", "PMCEID2").offset, 0xE28);
    ck_assert_uint_eq(must("cortex-a76", "PMCEID3").offset, 0xE2C);
}
END_TEST

START_TEST(snapshot_registers_exist_on_a76_not_a72)
{
    ck_assert_uint_eq(must("cortex-a76", "PMSSCR").offset, 0x6F0);
    ck_assert_int_eq(resolve_rc("cortex-a72", "PMSSCR"), PP_E_NOTFOUND);
    ck_assert_int_eq(resolve_rc("cortex-a72", "PMEVCNTSR0"), PP_E_NOTFOUND);
}
END_TEST

START_TEST(pc_sample_registers_need_pc_sampling)
{
    ck_assert_uint_eq(must("cortex-a76", "PMPCSR").offset, 0x200);
    ck_assert_uint_eq(must("neoverse-n1", "PMCID2SR").offset, 0x22C);
    ck_assert_int_eq(resolve_rc("cortex-a53", "PMPCSR"), PP_E_NOTFOUND);
}
END_TEST

START_TEST(pmuv2_names_exist_only_on_pmuv2_cores)
{
    ck_assert_uint_eq(must("cortex-a9", "PMUSERENR").offset, 0xE08);
    ck_assert_int_eq(resolve_rc("cortex-a53", "PMUSERENR"), PP_E_NOTFOUND);
}
END_TEST

START_TEST(pmuv3_names_do_not_exist_on_pmuv2_cores)
{
    ck_assert_int_eq(resolve_rc("cortex-a9", "PMCCNTR_HI"), PP_E_NOTFOUND);
    ck_assert_int_eq(resolve_rc("cortex-a9", "PMDEVARCH"), PP_E_NOTFOUND);
    ck_assert_int_eq(resolve_rc("cortex-a9", "PMCEID2"), PP_E_NOTFOUND);
}
END_TEST

START_TEST(offset_lookup_hides_registers_the_core_lacks)
{
    struct pp_reg_ref ref;

    ck_assert_int_eq(pp_reg_at(core("cortex-a72"), 0, PP_BLK_PMU, 0x6F0, &ref), PP_E_NOTFOUND);
    ck_assert_int_eq(pp_reg_at(core("cortex-a76"), 0, PP_BLK_PMU, 0x6F0, &ref), PP_OK);
    ck_assert_str_eq(ref.name, "PMSSCR");
}
END_TEST

START_TEST(e08_is_pmiidr_on_pmuv3_and_pmuserenr_on_pmuv2)
{
    struct pp_reg_ref ref;

    ck_assert_int_eq(pp_reg_at(core("cortex-a53"), 0, PP_BLK_PMU, 0xE08, &ref), PP_OK);
    ck_assert_str_eq(ref.name, "PMIIDR");
    ck_assert_int_eq(pp_reg_at(core("cortex-a15"), 0, PP_BLK_PMU, 0xE08, &ref), PP_OK);
    ck_assert_str_eq(ref.name, "PMUSERENR");
}
END_TEST

/* --- name forms --------------------------------------------------------- */

START_TEST(names_are_case_insensitive)
{
    ck_assert_str_eq(must("cortex-a53", "pmcr").name, "PMCR");
    ck_assert_str_eq(must("cortex-a53", "PmCnTeNsEt").name, "PMCNTENSET");
    ck_assert_str_eq(must("cortex-a53", "edprsr").name, "EDPRSR");
    ck_assert_str_eq(must("cortex-a53", "pmevtyper0").name, "PMEVTYPER0");
}
END_TEST

START_TEST(block_prefix_restricts_the_search_to_that_block)
{
    struct pp_reg_ref ref = must("cortex-a53", "pmu.PMCR");

    ck_assert_int_eq(ref.block, PP_BLK_PMU);
    ref = must("cortex-a53", "debug.EDPRSR");
    ck_assert_int_eq(ref.block, PP_BLK_DEBUG);
    ck_assert_uint_eq(ref.offset, 0x314);
    ck_assert_int_eq(resolve_rc("cortex-a53", "debug.PMCR"), PP_E_NOTFOUND);
    ck_assert_int_eq(resolve_rc("cortex-a53", "pmu.EDPRSR"), PP_E_NOTFOUND);
}
END_TEST

START_TEST(system_register_suffix_is_accepted)
{
    ck_assert_str_eq(must("cortex-a53", "PMCR_EL0").name, "PMCR");
    ck_assert_str_eq(must("cortex-a53", "oslar_el1").name, "OSLAR");
    ck_assert_str_eq(must("cortex-a53", "PMEVCNTR1_EL0").name, "PMEVCNTR1");
}
END_TEST

START_TEST(raw_offset_of_a_known_register_takes_its_name)
{
    struct pp_reg_ref ref = must("cortex-a53", "pmu+0xE04");

    ck_assert_ptr_nonnull(ref.reg);
    ck_assert_str_eq(ref.name, "PMCR");
    ck_assert_int_eq(ref.block, PP_BLK_PMU);
    ref = must("cortex-a53", "DEBUG+0x314");
    ck_assert_str_eq(ref.name, "EDPRSR");
    ck_assert_int_eq(ref.block, PP_BLK_DEBUG);
}
END_TEST

START_TEST(raw_offset_of_an_unknown_register_keeps_a_raw_name)
{
    struct pp_reg_ref ref = must("cortex-a72", "pmu+0x600");

    ck_assert_ptr_nonnull(ref.reg);
    ck_assert_int_eq(ref.reg->block, PP_BLK_PMU);
    ck_assert_uint_eq(ref.reg->nfields, 0);
    ck_assert_str_eq(ref.name, "pmu+0x600");
    ck_assert_int_eq(ref.block, PP_BLK_PMU);
    ck_assert_uint_eq(ref.offset, 0x600);
    ref = must("cortex-a53", "debug+0xe04");
    ck_assert_str_eq(ref.name, "debug+0xE04");
    ck_assert_int_eq(ref.reg->block, PP_BLK_DEBUG);
    ck_assert_int_eq(ref.block, PP_BLK_DEBUG);
}
END_TEST

START_TEST(malformed_raw_offset_is_invalid)
{
    static const char *const bad[] = {
        "pmu+0x1000", "pmu+0xE05", "pmu+", "pmu+xyz", "debug+0x314junk", "pmu+-4",
    };

    for (size_t i = 0; i < ARRAY_LEN(bad); i++)
        ck_assert_msg(resolve_rc("cortex-a53", bad[i]) == PP_E_INVAL, "%s accepted", bad[i]);
}
END_TEST

START_TEST(armv8_debug_names_are_aliases_on_armv7)
{
    struct pp_reg_ref ref = must("cortex-a9", "EDPRSR");

    ck_assert_str_eq(ref.name, "DBGPRSR");
    ck_assert_uint_eq(ref.offset, 0x314);
    ck_assert_str_eq(must("cortex-a9", "EDPRCR").name, "DBGPRCR");
    ck_assert_str_eq(must("cortex-a9", "oslar").name, "DBGOSLAR");
    ck_assert_str_eq(must("cortex-a9", "EDPIDR2").name, "DBGPIDR2");
}
END_TEST

START_TEST(armv7_debug_names_are_aliases_on_armv8)
{
    ck_assert_str_eq(must("cortex-a53", "DBGPRSR").name, "EDPRSR");
    ck_assert_str_eq(must("cortex-a53", "DBGOSLAR").name, "OSLAR");
    ck_assert_str_eq(must("cortex-a53", "DBGPRCR").name, "EDPRCR");
}
END_TEST

START_TEST(old_pmu_names_are_aliases)
{
    ck_assert_str_eq(must("cortex-a53", "PMOVSR").name, "PMOVSCLR");
    ck_assert_str_eq(must("cortex-a9", "PMOVSCLR").name, "PMOVSR");
    ck_assert_str_eq(must("cortex-a9", "PMXEVTYPER2").name, "PMEVTYPER2");
    ck_assert_str_eq(must("cortex-a9", "PMXEVTYPER31").name, "PMCCFILTR");
}
END_TEST

START_TEST(unknown_name_is_not_found_and_null_is_invalid)
{
    struct pp_reg_ref ref;

    ck_assert_int_eq(resolve_rc("cortex-a53", "NOSUCHREG"), PP_E_NOTFOUND);
    ck_assert_int_eq(resolve_rc("cortex-a53", ""), PP_E_NOTFOUND);
    ck_assert_int_eq(pp_reg_resolve(core("cortex-a53"), 0, NULL, &ref), PP_E_INVAL);
    ck_assert_int_eq(pp_reg_resolve(core("cortex-a53"), 0, "PMCR", NULL), PP_E_INVAL);
}
END_TEST

START_TEST(null_core_type_means_pmuv3_with_every_feature)
{
    struct pp_reg_ref ref;

    ck_assert_int_eq(pp_reg_resolve(NULL, 0, "PMSSCR", &ref), PP_OK);
    ck_assert_int_eq(pp_reg_resolve(NULL, 0, "PMEVCNTR30", &ref), PP_OK);
    ck_assert_uint_eq(ref.offset, 0x0F0);
    ck_assert_int_eq(pp_reg_resolve(NULL, 0, "PMUSERENR", &ref), PP_E_NOTFOUND);
}
END_TEST

/* --- suggestions -------------------------------------------------------- */

START_TEST(misspelt_name_suggests_the_closest_first)
{
    const char *out[4];
    size_t n = pp_reg_suggest(core("cortex-a53"), "PMCNTENST", out, ARRAY_LEN(out));

    ck_assert_uint_ge(n, 1);
    ck_assert_str_eq(out[0], "PMCNTENSET");
}
END_TEST

START_TEST(misspelt_lower_case_name_is_matched_case_insensitively)
{
    const char *out[2];
    size_t n = pp_reg_suggest(core("cortex-a53"), "edprssr", out, ARRAY_LEN(out));

    ck_assert_uint_ge(n, 1);
    ck_assert_str_eq(out[0], "EDPRSR");
}
END_TEST

START_TEST(far_off_name_gets_no_suggestion)
{
    const char *out[4];

    ck_assert_uint_eq(pp_reg_suggest(core("cortex-a53"), "XYZZYFOOBAR", out, ARRAY_LEN(out)), 0);
}
END_TEST

START_TEST(suggestions_stop_at_max)
{
    const char *out[1] = { NULL };

    ck_assert_uint_eq(pp_reg_suggest(core("cortex-a53"), "PMCEID", out, 1), 1);
    ck_assert_ptr_nonnull(out[0]);
    ck_assert_uint_eq(pp_reg_suggest(core("cortex-a53"), "PMCEID", out, 0), 0);
}
END_TEST

START_TEST(suggestions_name_only_registers_of_this_core)
{
    const char *out[8];
    size_t n = pp_reg_suggest(core("cortex-a53"), "PMCEID2", out, ARRAY_LEN(out));

    ck_assert_uint_ge(n, 1);
    for (size_t i = 0; i < n; i++)
        ck_assert_str_ne(out[i], "PMCEID2");
}
END_TEST

START_TEST(out_of_range_counter_suggests_its_stem)
{
    const char *out[2];
    size_t n = pp_reg_suggest(core("cortex-a53"), "PMEVCNTR9", out, ARRAY_LEN(out));

    ck_assert_uint_ge(n, 1);
    ck_assert_str_eq(out[0], "PMEVCNTR");
}
END_TEST

/* --- decoding ----------------------------------------------------------- */

START_TEST(edprsr_0x2b_after_cold_reset_decodes_pu_spd_sr_oslk)
{
    assert_decodes_to("cortex-a53", "EDPRSR", 0x2B, "  PU       [0]     = 1 ");
    assert_decodes_to("cortex-a53", "EDPRSR", 0x2B, "  SPD      [1]     = 1 ");
    assert_decodes_to("cortex-a53", "EDPRSR", 0x2B, "  R        [2]     = 0 ");
    assert_decodes_to("cortex-a53", "EDPRSR", 0x2B, "  SR       [3]     = 1 ");
    assert_decodes_to("cortex-a53", "EDPRSR", 0x2B, "  HALTED   [4]     = 0 ");
    assert_decodes_to("cortex-a53", "EDPRSR", 0x2B, "  OSLK     [5]     = 1 ");
}
END_TEST

START_TEST(pmcfgr_0x0001ff06_has_six_64bit_counters)
{
    ck_assert_uint_eq(field("cortex-a76", "PMCFGR", "N", 0x0001FF06), 6);
    ck_assert_uint_eq(field("cortex-a76", "PMCFGR", "SIZE", 0x0001FF06), 63);
    ck_assert_uint_eq(field("cortex-a76", "PMCFGR", "CC", 0x0001FF06), 1);
    ck_assert_uint_eq(field("cortex-a76", "PMCFGR", "CCD", 0x0001FF06), 1);
    ck_assert_uint_eq(field("cortex-a76", "PMCFGR", "EX", 0x0001FF06), 1);
    ck_assert_uint_eq(field("cortex-a76", "PMCFGR", "SS", 0x0001FF06), 0);
    assert_decodes_to("cortex-a76", "PMCFGR", 0x0001FF06, "  N        [7:0]   = 0x6 ");
    assert_decodes_to("cortex-a76", "PMCFGR", 0x0001FF06, "  SIZE     [13:8]  = 0x3F ");
}
END_TEST

START_TEST(pmcfgr_of_the_core_type_decodes_back_to_its_counters)
{
    const struct pp_core_type *ct = core("cortex-a55");
    uint32_t v = pp_core_type_pmcfgr(ct, ct->counters, ct->snapshot);

    ck_assert_uint_eq(field("cortex-a55", "PMCFGR", "N", v), ct->counters);
    ck_assert_uint_eq(field("cortex-a55", "PMCFGR", "SS", v), 1);
}
END_TEST

START_TEST(dbgauthstatus_0xaf_shows_secure_debug_disabled)
{
    assert_decodes_to("cortex-a53", "DBGAUTHSTATUS", 0xAF, "NSID     [1:0]   = 3        non-secure invasive debug: enabled");
    assert_decodes_to("cortex-a53", "DBGAUTHSTATUS", 0xAF, "NSNID    [3:2]   = 3 ");
    assert_decodes_to("cortex-a53", "DBGAUTHSTATUS", 0xAF, "SID      [5:4]   = 2        secure invasive debug: disabled");
    assert_decodes_to("cortex-a53", "DBGAUTHSTATUS", 0xAF, "SNID     [7:6]   = 2 ");
}
END_TEST

START_TEST(pmauthstatus_zero_invasive_field_reads_not_implemented)
{
    assert_decodes_to("cortex-a53", "PMAUTHSTATUS", 0xCC, "NSID     [1:0]   = 0        non-secure invasive debug: not implemented");
}
END_TEST

START_TEST(edscr_status_0x13_is_external_debug_request)
{
    assert_decodes_to("cortex-a53", "EDSCR", 0x13, "STATUS   [5:0]   = 0x13     debug status: external debug request");
    assert_decodes_to("cortex-a53", "EDSCR", 0x02, "non-debug state");
}
END_TEST

START_TEST(midr_of_a76_names_arm_and_the_part)
{
    uint32_t midr = pp_core_type_midr(core("cortex-a76"));

    ck_assert_uint_eq(field("cortex-a76", "MIDR", "PartNum", midr), 0xD0B);
    assert_decodes_to("cortex-a76", "MIDR", midr, "  Implementer  [31:24] = 0x41     implementer code: Arm\n");
    assert_decodes_to("cortex-a76", "MIDR", midr, "  PartNum      [15:4]  = 0xD0B    primary part number: Cortex-A76\n");
    assert_decodes_to("cortex-a76", "MIDR", midr, "  Variant      [23:20] = 4 ");
}
END_TEST

START_TEST(pmcntenset_lists_the_set_counters)
{
    assert_decodes_to("cortex-a53", "PMCNTENSET", 0x80000009u, "= C P0 P3\n");
    assert_decodes_to("cortex-a53", "PMOVSCLR", 0x00000020u, "= P5\n");
    assert_decodes_to("cortex-a53", "PMINTENSET", 0, "= none\n");
}
END_TEST

START_TEST(pmdevtype_0x16_is_a_processor_performance_monitor)
{
    assert_decodes_to("cortex-a53", "PMDEVTYPE", 0x16, "MAJOR    [3:0]   = 6        major type: performance monitor");
    assert_decodes_to("cortex-a53", "PMDEVTYPE", 0x16, "SUB      [7:4]   = 1        sub-type: processor");
}
END_TEST

START_TEST(devarch_names_the_architecture)
{
    assert_decodes_to("cortex-a53", "PMDEVARCH", 0x47702A16, "ARCHPART  [11:0]  = 0xA16    architecture part: PMUv3, 32-bit external view");
    assert_decodes_to("cortex-a53", "PMDEVARCH", 0x47702A16, "= 0x23B    architect JEP106 code: Arm");
    assert_decodes_to("cortex-a76", "EDDEVARCH", 0x47708A15, "= 8        debug architecture version: Armv8.2");
}
END_TEST

START_TEST(pmcr_enable_line_has_the_documented_layout)
{
    assert_decodes_to("cortex-a53", "PMCR", 0x41, "  E        [0]     = 1        enable all counters\n");
    assert_decodes_to("cortex-a53", "PMCR", 0x41, "  LC       [6]     = 1 ");
}
END_TEST

START_TEST(armv7_pmcr_shows_the_counter_count)
{
    ck_assert_uint_eq(field("cortex-a9", "PMCR", "N", 0x41093001u), 6);
    ck_assert_uint_eq(field("cortex-a9", "PMCR", "IMP", 0x41093001u), 0x41);
}
END_TEST

START_TEST(register_without_fields_decodes_as_one_value)
{
    assert_decodes_to("cortex-a53", "PMCCNTR", 0x1234ABCD, "  value    [31:0]  = 0x1234ABCD ");
}
END_TEST

START_TEST(a_clear_bit_is_not_described_as_set)
{
    assert_decodes_to("cortex-a53", "PMCR", 0x0, "  E        [0]     = 0        (1: enable all counters)\n");
    assert_decodes_to("cortex-a53", "PMCR", 0x1, "  E        [0]     = 1        enable all counters\n");
    assert_decodes_to("cortex-a53", "EDPRSR", 0x2B, "  R        [2]     = 0        (1: core in reset)\n");
    /* An action on write stands as it is. */
    assert_decodes_to("cortex-a53", "PMCR", 0x0, "  C        [2]     = 0        write 1: zero the cycle counter");
}
END_TEST

START_TEST(decode_returns_the_length_written)
{
    char buf[1024];
    size_t n = pp_reg_decode(reg("cortex-a53", "PMCR"), 0x41, buf, sizeof(buf));

    ck_assert_uint_gt(n, 0);
    ck_assert_uint_eq(n, strlen(buf));
}
END_TEST

START_TEST(decode_never_writes_past_the_buffer)
{
    const struct pp_reg *r = reg("cortex-a53", "EDPRSR");
    char full[2048], buf[2048 + 8];
    size_t total = pp_reg_decode(r, 0x2B, full, sizeof(full));

    ck_assert_uint_lt(total, sizeof(full) - 1);
    for (size_t len = 0; len <= total + 2; len++) {
        size_t n;

        memset(buf, '#', sizeof(buf));
        n = pp_reg_decode(r, 0x2B, buf, len);
        ck_assert_msg(buf[len] == '#', "len %zu: wrote past the end", len);
        if (len == 0) {
            ck_assert_uint_eq(n, 0);
            continue;
        }
        ck_assert_uint_eq(n, strlen(buf));
        ck_assert_uint_eq(n, len - 1 < total ? len - 1 : total);
        ck_assert(strncmp(buf, full, n) == 0);
    }
}
END_TEST

START_TEST(decode_of_null_register_writes_an_empty_string)
{
    char buf[8] = "xxxxxxx";

    ck_assert_uint_eq(pp_reg_decode(NULL, 0, buf, sizeof(buf)), 0);
    ck_assert_str_eq(buf, "");
    ck_assert_uint_eq(pp_reg_decode(reg("cortex-a53", "PMCR"), 0, NULL, 0), 0);
}
END_TEST

START_TEST(field_lookup_is_case_insensitive_and_rejects_unknown_fields)
{
    uint32_t v = 0;

    ck_assert(pp_reg_field(reg("cortex-a53", "EDPRSR"), "spmad", 1u << 10, &v));
    ck_assert_uint_eq(v, 1);
    ck_assert(!pp_reg_field(reg("cortex-a53", "EDPRSR"), "NOPE", 0, &v));
    ck_assert(!pp_reg_field(NULL, "PU", 0, &v));
}
END_TEST

START_TEST(pmevtyper_event_number_is_sixteen_bits)
{
    ck_assert_uint_eq(field("cortex-a76", "PMEVTYPER0", "evtCount", 0x88004011u), 0x4011);
    ck_assert_uint_eq(field("cortex-a76", "PMEVTYPER0", "P", 0x88004011u), 1);
    ck_assert_uint_eq(field("cortex-a76", "PMEVTYPER0", "NSH", 0x88004011u), 1);
}
END_TEST

static Suite *regs_suite(void)
{
    Suite *s = suite_create("regs");
    TCase *tc = tcase_create("offsets");

    tcase_add_test(tc, pmccntr_is_at_0x0f8_on_pmuv3);
    tcase_add_test(tc, pmccntr_is_at_0x07c_on_pmuv2);
    tcase_add_test(tc, pmuv3_event_counters_have_stride_8_and_types_stride_4);
    tcase_add_test(tc, pmuv2_event_counters_have_stride_4);
    tcase_add_test(tc, pmccfiltr_is_at_0x47c_on_both_versions);
    tcase_add_test(tc, pmcfgr_is_at_0xe00_and_pmcr_at_0xe04);
    tcase_add_test(tc, pmdevarch_is_at_0xfbc);
    tcase_add_test(tc, edprsr_is_at_0x314_and_oslar_at_0x300);
    tcase_add_test(tc, header_offsets_agree_with_the_pmuv3_and_debug_maps);
    tcase_add_test(tc, header_offsets_agree_with_the_pmuv2_and_armv7_debug_maps);
    tcase_add_test(tc, edprsr_field_bits_agree_with_the_header);
    tcase_add_test(tc, every_map_is_well_formed);
    tcase_add_test(tc, access_flags_follow_the_spec_condition_columns);
    suite_add_tcase(s, tc);

    tc = tcase_create("indexed");
    tcase_add_test(tc, indexed_name_resolves_to_its_instance);
    tcase_add_test(tc, pmevcntr6_on_a_six_counter_core_is_not_found);
    tcase_add_test(tc, counters_argument_bounds_the_index);
    tcase_add_test(tc, high_word_instance_takes_its_number_before_the_suffix);
    tcase_add_test(tc, snapshot_counter_index_resolves_at_stride_4);
    tcase_add_test(tc, bare_stem_or_leading_zero_index_is_not_found);
    tcase_add_test(tc, offset_lookup_names_the_indexed_instance);
    suite_add_tcase(s, tc);

    tc = tcase_create("features");
    tcase_add_test(tc, pmceid2_is_absent_without_pmuv3p1);
    tcase_add_test(tc, pmceid2_is_at_0xe28_with_pmuv3p1);
    tcase_add_test(tc, snapshot_registers_exist_on_a76_not_a72);
    tcase_add_test(tc, pc_sample_registers_need_pc_sampling);
    tcase_add_test(tc, pmuv2_names_exist_only_on_pmuv2_cores);
    tcase_add_test(tc, pmuv3_names_do_not_exist_on_pmuv2_cores);
    tcase_add_test(tc, offset_lookup_hides_registers_the_core_lacks);
    tcase_add_test(tc, e08_is_pmiidr_on_pmuv3_and_pmuserenr_on_pmuv2);
    suite_add_tcase(s, tc);

    tc = tcase_create("names");
    tcase_add_test(tc, names_are_case_insensitive);
    tcase_add_test(tc, block_prefix_restricts_the_search_to_that_block);
    tcase_add_test(tc, system_register_suffix_is_accepted);
    tcase_add_test(tc, raw_offset_of_a_known_register_takes_its_name);
    tcase_add_test(tc, raw_offset_of_an_unknown_register_keeps_a_raw_name);
    tcase_add_test(tc, malformed_raw_offset_is_invalid);
    tcase_add_test(tc, armv8_debug_names_are_aliases_on_armv7);
    tcase_add_test(tc, armv7_debug_names_are_aliases_on_armv8);
    tcase_add_test(tc, old_pmu_names_are_aliases);
    tcase_add_test(tc, unknown_name_is_not_found_and_null_is_invalid);
    tcase_add_test(tc, null_core_type_means_pmuv3_with_every_feature);
    suite_add_tcase(s, tc);

    tc = tcase_create("suggest");
    tcase_add_test(tc, misspelt_name_suggests_the_closest_first);
    tcase_add_test(tc, misspelt_lower_case_name_is_matched_case_insensitively);
    tcase_add_test(tc, far_off_name_gets_no_suggestion);
    tcase_add_test(tc, suggestions_stop_at_max);
    tcase_add_test(tc, suggestions_name_only_registers_of_this_core);
    tcase_add_test(tc, out_of_range_counter_suggests_its_stem);
    suite_add_tcase(s, tc);

    tc = tcase_create("decode");
    tcase_add_test(tc, edprsr_0x2b_after_cold_reset_decodes_pu_spd_sr_oslk);
    tcase_add_test(tc, pmcfgr_0x0001ff06_has_six_64bit_counters);
    tcase_add_test(tc, pmcfgr_of_the_core_type_decodes_back_to_its_counters);
    tcase_add_test(tc, dbgauthstatus_0xaf_shows_secure_debug_disabled);
    tcase_add_test(tc, pmauthstatus_zero_invasive_field_reads_not_implemented);
    tcase_add_test(tc, edscr_status_0x13_is_external_debug_request);
    tcase_add_test(tc, midr_of_a76_names_arm_and_the_part);
    tcase_add_test(tc, pmcntenset_lists_the_set_counters);
    tcase_add_test(tc, pmdevtype_0x16_is_a_processor_performance_monitor);
    tcase_add_test(tc, devarch_names_the_architecture);
    tcase_add_test(tc, pmcr_enable_line_has_the_documented_layout);
    tcase_add_test(tc, armv7_pmcr_shows_the_counter_count);
    tcase_add_test(tc, register_without_fields_decodes_as_one_value);
    tcase_add_test(tc, a_clear_bit_is_not_described_as_set);
    tcase_add_test(tc, decode_returns_the_length_written);
    tcase_add_test(tc, decode_never_writes_past_the_buffer);
    tcase_add_test(tc, decode_of_null_register_writes_an_empty_string);
    tcase_add_test(tc, field_lookup_is_case_insensitive_and_rejects_unknown_fields);
    tcase_add_test(tc, pmevtyper_event_number_is_sixteen_bits);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(regs_suite());
    int failed;

    srunner_run_all(sr, CK_NORMAL);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

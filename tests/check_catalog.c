/*
 * check_catalog.c - the PMU event catalogs (lib/pmu/catalog*.c).
 *
 * The seed tests restate the Arm documents in /work/shared/seeds as tables
 * here, so a change to a catalog row that contradicts a seed fails a test.
 */
#include <check.h>
#include <ctype.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pmu/catalog.h"
#include "pmu/coretype.h"

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

static const struct pp_catalog *cat(const char *key)
{
    const struct pp_catalog *c = pp_catalog_find(key);

    ck_assert_msg(c != NULL, "catalog %s missing", key);
    return c;
}

/* The core's own entry, never the common catalog's. */
static const struct pp_event *own(const struct pp_catalog *c, uint16_t code)
{
    for (size_t i = 0; i < c->n; i++)
        if (c->events[i].code == code)
            return &c->events[i];
    return NULL;
}

static bool in_table(const struct pp_catalog *c, const struct pp_event *ev)
{
    return ev >= c->events && ev < c->events + c->n;
}

/* ---- tables ----------------------------------------------------------- */

START_TEST(every_catalog_is_sorted_by_code_with_unique_codes)
{
    size_t n;
    const struct pp_catalog *const *all = pp_catalog_all(&n);

    for (size_t i = 0; i < n; i++)
        for (size_t j = 1; j < all[i]->n; j++)
            ck_assert_msg(all[i]->events[j - 1].code < all[i]->events[j].code,
                          "%s: 0x%04X before 0x%04X", all[i]->key,
                          all[i]->events[j - 1].code, all[i]->events[j].code);
}
END_TEST

START_TEST(every_event_has_a_name_and_a_description)
{
    size_t n;
    const struct pp_catalog *const *all = pp_catalog_all(&n);

    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < all[i]->n; j++) {
            const struct pp_event *ev = &all[i]->events[j];

            ck_assert_msg(ev->name && ev->name[0], "%s 0x%04X: no name", all[i]->key, ev->code);
            ck_assert_msg(ev->desc && ev->desc[0], "%s 0x%04X: no description", all[i]->key, ev->code);
        }
}
END_TEST

START_TEST(every_mnemonic_is_upper_case_and_unique_within_its_catalog)
{
    size_t n;
    const struct pp_catalog *const *all = pp_catalog_all(&n);

    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < all[i]->n; j++) {
            const char *name = all[i]->events[j].name;

            ck_assert_msg(isupper((unsigned char)name[0]), "%s: %s", all[i]->key, name);
            for (const char *p = name; *p; p++)
                ck_assert_msg(isupper((unsigned char)*p) || isdigit((unsigned char)*p) || *p == '_',
                              "%s: %s", all[i]->key, name);
            for (size_t k = j + 1; k < all[i]->n; k++)
                ck_assert_msg(strcmp(name, all[i]->events[k].name) != 0,
                              "%s: %s twice", all[i]->key, name);
        }
}
END_TEST

START_TEST(every_event_has_a_known_type_and_accuracy)
{
    size_t n;
    const struct pp_catalog *const *all = pp_catalog_all(&n);

    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < all[i]->n; j++) {
            const struct pp_event *ev = &all[i]->events[j];

            ck_assert_msg(ev->type >= PP_EVT_INS && ev->type <= PP_EVT_ETM,
                          "%s 0x%04X type %d", all[i]->key, ev->code, ev->type);
            ck_assert_int_le(ev->accuracy, PP_ACC_APPROX);
        }
}
END_TEST

/* The data marks exactly the numbers 0x40-0x3FFF implementation defined. */
START_TEST(impdef_flag_marks_exactly_the_implementation_defined_numbers)
{
    size_t n;
    const struct pp_catalog *const *all = pp_catalog_all(&n);

    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < all[i]->n; j++) {
            const struct pp_event *ev = &all[i]->events[j];
            bool impdef_number = ev->code >= 0x40 && ev->code < 0x4000;

            ck_assert_msg(!!(ev->flags & PP_EVF_IMPDEF) == impdef_number,
                          "%s 0x%04X", all[i]->key, ev->code);
        }
}
END_TEST

START_TEST(a_published_bus_position_has_a_width)
{
    size_t n;
    const struct pp_catalog *const *all = pp_catalog_all(&n);

    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < all[i]->n; j++) {
            const struct pp_event *ev = &all[i]->events[j];

            if (ev->bus_lsb >= 0)
                ck_assert_msg(ev->bus_bits > 0, "%s 0x%04X", all[i]->key, ev->code);
        }
}
END_TEST

/* Event counts of the source JSON files minus events without a code
 * (Cortex-A32/A35: 5 bus-only signals each) and minus the two events the
 * Cortex-A9 does not implement (0x08, 0x0E; see catalog_cortex_a9.c). */
START_TEST(core_catalogs_hold_every_numbered_event_of_the_source_data)
{
    static const struct { const char *key; size_t n; } want[] = {
        { "cortex-a7", 42 },  { "cortex-a9", 61 },  { "cortex-a15", 67 },
        { "cortex-a32", 58 }, { "cortex-a35", 63 }, { "cortex-a53", 59 },
        { "cortex-a55", 111 }, { "cortex-a57", 84 }, { "cortex-a72", 84 },
        { "cortex-a76", 107 }, { "neoverse-n1", 110 },
    };

    for (size_t i = 0; i < ARRAY_LEN(want); i++)
        ck_assert_msg(cat(want[i].key)->n == want[i].n, "%s: %zu events",
                      want[i].key, cat(want[i].key)->n);
}
END_TEST

START_TEST(common_catalogs_hold_only_the_common_event_ranges)
{
    const struct pp_catalog *v7 = cat("armv7-common");
    const struct pp_catalog *v8 = cat("armv8-common");

    for (size_t i = 0; i < v7->n; i++)
        ck_assert_uint_le(v7->events[i].code, 0x3F);
    for (size_t i = 0; i < v8->n; i++) {
        uint16_t c = v8->events[i].code;

        ck_assert_msg(c <= 0x3F || (c >= 0x4000 && c <= 0x403F), "0x%04X", c);
    }
    /* Armv8 0x0000-0x003F complete, plus the Armv9 additions 0x400C-0x401B. */
    for (uint16_t c = 0; c <= 0x3F; c++)
        ck_assert_ptr_nonnull(own(v8, c));
    ck_assert_str_eq(own(v8, 0x400C)->name, "TRB_WRAP");
    ck_assert_str_eq(own(v8, 0x401B)->name, "CTI_TRIGOUT7");
    ck_assert_ptr_null(v7->common);
    ck_assert_ptr_null(v8->common);
}
END_TEST

START_TEST(each_core_catalog_points_at_its_architectures_common_catalog)
{
    size_t n;
    const struct pp_catalog *const *all = pp_catalog_all(&n);

    for (size_t i = 0; i < n; i++) {
        if (strstr(all[i]->key, "-common"))
            continue;
        ck_assert_ptr_eq(all[i]->common,
                         cat(all[i]->pmu_version == 2 ? "armv7-common" : "armv8-common"));
    }
}
END_TEST

/* ---- keys ------------------------------------------------------------- */

START_TEST(each_core_type_catalog_key_is_found)
{
    unsigned n;
    const struct pp_core_type *t = pp_core_types(&n);

    ck_assert_uint_eq(n, 11);
    for (unsigned i = 0; i < n; i++) {
        const struct pp_catalog *c = cat(t[i].catalog);

        ck_assert_str_eq(c->key, t[i].catalog);
        ck_assert_str_eq(c->pretty, t[i].pretty);
        ck_assert_uint_eq(c->pmu_version, t[i].pmu_version);
    }
}
END_TEST

START_TEST(both_common_keys_are_found)
{
    ck_assert_uint_eq(cat("armv7-common")->pmu_version, 2);
    ck_assert_uint_eq(cat("armv8-common")->pmu_version, 3);
}
END_TEST

START_TEST(all_lists_eleven_cores_and_two_common_catalogs)
{
    size_t n = 0;

    ck_assert_ptr_nonnull(pp_catalog_all(&n));
    ck_assert_uint_eq(n, 13);
}
END_TEST

START_TEST(unknown_or_null_key_returns_null)
{
    ck_assert_ptr_null(pp_catalog_find("cortex-a99"));
    ck_assert_ptr_null(pp_catalog_find("Cortex-A76"));
    ck_assert_ptr_null(pp_catalog_find(NULL));
}
END_TEST

/* ---- lookup ----------------------------------------------------------- */

START_TEST(lookup_returns_the_cores_own_entry_first)
{
    const struct pp_catalog *a9 = cat("cortex-a9");
    const struct pp_event *ev = pp_catalog_lookup(a9, 0x01);

    ck_assert(in_table(a9, ev));
    ck_assert_str_eq(ev->name, "L1I_CACHE_REFILL");
    ck_assert_str_eq(pp_catalog_lookup(cat("cortex-a76"), 0x42)->name, "L1D_CACHE_REFILL_RD");
}
END_TEST

START_TEST(lookup_falls_back_to_the_common_catalog)
{
    const struct pp_catalog *a53 = cat("cortex-a53");
    const struct pp_event *ev = pp_catalog_lookup(a53, 0x23);

    ck_assert_ptr_null(own(a53, 0x23));
    ck_assert(in_table(a53->common, ev));
    ck_assert_str_eq(ev->name, "STALL_FRONTEND");
    ck_assert_str_eq(pp_catalog_lookup(cat("cortex-a76"), 0x4004)->name, "CNT_CYCLES");
}
END_TEST

/* The binary search agrees with a linear scan of the core's own table and
 * never answers from the common catalog. */
START_TEST(own_lookup_matches_the_cores_table_and_never_falls_back)
{
    size_t n;
    const struct pp_catalog *const *all = pp_catalog_all(&n);

    for (size_t i = 0; i < n; i++)
        for (uint32_t code = 0; code <= 0x4040; code++)
            ck_assert_ptr_eq(pp_catalog_own(all[i], (uint16_t)code),
                             own(all[i], (uint16_t)code));
    ck_assert_ptr_null(pp_catalog_own(cat("cortex-a53"), 0x23));
    ck_assert_ptr_null(pp_catalog_own(NULL, 0x08));
}
END_TEST

START_TEST(unknown_code_returns_null)
{
    ck_assert_ptr_null(pp_catalog_lookup(cat("cortex-a76"), 0xFFFF));
    ck_assert_ptr_null(pp_catalog_lookup(cat("cortex-a53"), 0x0100));
    ck_assert_ptr_null(pp_catalog_lookup(NULL, 0x08));
}
END_TEST

/* data README caveat 3: Cortex-A9 reuses ARMv7 "recommended" numbers, so an
 * implementation-defined number it does not list must stay unnamed. */
START_TEST(a9_impdef_code_is_never_named_from_the_armv7_common_catalog)
{
    const struct pp_catalog *a9 = cat("cortex-a9");

    ck_assert_ptr_null(pp_catalog_lookup(a9, 0x43));
    ck_assert_str_ne(pp_catalog_lookup(a9, 0x40)->name, "L1D_CACHE_RD");
}
END_TEST

START_TEST(by_name_is_case_insensitive)
{
    const struct pp_catalog *a76 = cat("cortex-a76");
    const struct pp_event *ev = pp_catalog_by_name(a76, "l1d_Cache_Refill_rd");

    ck_assert_ptr_nonnull(ev);
    ck_assert_uint_eq(ev->code, 0x42);
    ck_assert_ptr_eq(pp_catalog_by_name(a76, "L1D_CACHE_REFILL_RD"), ev);
}
END_TEST

START_TEST(by_name_searches_the_core_first_then_common)
{
    const struct pp_catalog *a53 = cat("cortex-a53");
    const struct pp_event *own_ev = pp_catalog_by_name(a53, "inst_retired");
    const struct pp_event *common_ev = pp_catalog_by_name(a53, "stall_backend");

    ck_assert(in_table(a53, own_ev));
    ck_assert(in_table(a53->common, common_ev));
    ck_assert_uint_eq(common_ev->code, 0x24);
}
END_TEST

START_TEST(by_name_unknown_or_null_returns_null)
{
    ck_assert_ptr_null(pp_catalog_by_name(cat("cortex-a7"), "NO_SUCH_EVENT"));
    ck_assert_ptr_null(pp_catalog_by_name(cat("cortex-a7"), NULL));
    ck_assert_ptr_null(pp_catalog_by_name(NULL, "CPU_CYCLES"));
}
END_TEST

/* ---- PMCEIDn ---------------------------------------------------------- */

/* Seed 000: Cortex-A32 TRM C9.4, PMCEID1 bits [16:0] = events 0x20-0x30,
 * every one "0 This event is not implemented". */
START_TEST(a32_pmceid1_matches_seed_bits_0x20_to_0x30)
{
    static const struct { unsigned bit; uint16_t code; bool implemented; } seed[] = {
        { 16, 0x30, false }, { 15, 0x2F, false }, { 14, 0x2E, false }, { 13, 0x2D, false },
        { 12, 0x2C, false }, { 11, 0x2B, false }, { 10, 0x2A, false }, {  9, 0x29, false },
        {  8, 0x28, false }, {  7, 0x27, false }, {  6, 0x26, false }, {  5, 0x25, false },
        {  4, 0x24, false }, {  3, 0x23, false }, {  2, 0x22, false }, {  1, 0x21, false },
        {  0, 0x20, false },
    };
    const struct pp_catalog *a32 = cat("cortex-a32");
    uint32_t v = pp_catalog_pmceid(a32, 1);

    for (size_t i = 0; i < ARRAY_LEN(seed); i++) {
        ck_assert_uint_eq(seed[i].code, 0x20 + seed[i].bit);
        ck_assert_msg(!!(v >> seed[i].bit & 1u) == seed[i].implemented,
                      "PMCEID1 bit %u (event 0x%02X)", seed[i].bit, seed[i].code);
        ck_assert_ptr_null(own(a32, seed[i].code));
    }
}
END_TEST

START_TEST(pmceid_bit_is_set_exactly_when_the_core_table_lists_the_event)
{
    static const uint16_t base[4] = { 0x0000, 0x0020, 0x4000, 0x4020 };
    size_t n;
    const struct pp_catalog *const *all = pp_catalog_all(&n);

    for (size_t i = 0; i < n; i++)
        for (unsigned reg = 0; reg < (all[i]->pmu_version >= 3 ? 4u : 2u); reg++) {
            uint32_t v = pp_catalog_pmceid(all[i], reg);

            for (unsigned b = 0; b < 32; b++)
                ck_assert_msg(!!(v >> b & 1u) == (own(all[i], (uint16_t)(base[reg] + b)) != NULL),
                              "%s PMCEID%u bit %u", all[i]->key, reg, b);
        }
}
END_TEST

/* Seed 002: PMCEID2 bit n <-> common event 0x4000 + n.  Neoverse N1 lists
 * 0x4000-0x4003 (statistical profiling) and nothing else in that range. */
START_TEST(pmceid2_bit_n_is_event_0x4000_plus_n)
{
    const struct pp_catalog *n1 = cat("neoverse-n1");
    uint32_t v = pp_catalog_pmceid(n1, 2);

    ck_assert_uint_eq(v, 0x0000000Fu);
    for (unsigned b = 0; b < 32; b++)
        ck_assert_msg(!!(v >> b & 1u) == (own(n1, (uint16_t)(0x4000 + b)) != NULL), "bit %u", b);
    ck_assert_uint_eq(pp_catalog_pmceid(cat("cortex-a76"), 2), 0);
}
END_TEST

START_TEST(pmceid3_bit_n_is_event_0x4020_plus_n)
{
    /* armv8-common lists 0x4020-0x4022 and 0x4024-0x4026. */
    ck_assert_uint_eq(pp_catalog_pmceid(cat("armv8-common"), 3), 0x77u);
}
END_TEST

START_TEST(pmceid_counts_only_the_cores_own_table)
{
    /* Cortex-A7 lists 0x00-0x19 and 0x1D; armv7-common has 0x1A-0x1C too. */
    ck_assert_uint_eq(pp_catalog_pmceid(cat("cortex-a7"), 0), 0x23FFFFFFu);
    /* Cortex-A53 lists nothing in 0x20-0x3F although armv8-common does. */
    ck_assert_uint_eq(pp_catalog_pmceid(cat("cortex-a53"), 1), 0);
}
END_TEST

START_TEST(pmuv2_core_reads_zero_for_pmceid2_and_3)
{
    ck_assert_uint_eq(pp_catalog_pmceid(cat("cortex-a15"), 2), 0);
    ck_assert_uint_eq(pp_catalog_pmceid(cat("cortex-a15"), 3), 0);
    ck_assert_uint_ne(pp_catalog_pmceid(cat("cortex-a15"), 0), 0);
}
END_TEST

START_TEST(pmceid_of_bad_register_or_null_catalog_is_zero)
{
    ck_assert_uint_eq(pp_catalog_pmceid(cat("neoverse-n1"), 4), 0);
    ck_assert_uint_eq(pp_catalog_pmceid(NULL, 0), 0);
}
END_TEST

/* ---- seeds ------------------------------------------------------------ */

/* Seed 001: Cortex-A7 TRM DDI 0464D table 11.5, event -> PMUEVENT bit
 * (-1 where the table shows "-").  Every row of the seed, and nothing else. */
START_TEST(a7_event_table_has_seed_pmuevent_positions)
{
    static const struct { uint16_t code; int lsb; } seed[] = {
        { 0x00, -1 }, { 0x01,  0 }, { 0x02,  1 }, { 0x03,  2 }, { 0x04,  3 }, { 0x05,  4 },
        { 0x06,  5 }, { 0x07,  6 }, { 0x08,  7 }, { 0x09,  8 }, { 0x0A,  9 }, { 0x0B, 10 },
        { 0x0C, 11 }, { 0x0D, 12 }, { 0x0E, 13 }, { 0x0F, 14 }, { 0x10, 15 }, { 0x11, -1 },
        { 0x12, 16 }, { 0x13, 17 }, { 0x14, 18 }, { 0x15, 19 }, { 0x16, -1 }, { 0x17, -1 },
        { 0x18, -1 }, { 0x19, -1 }, { 0x1D, -1 }, { 0x60, -1 }, { 0x61, -1 }, { 0x86, 20 },
        { 0x87, 21 }, { 0xC0, 22 }, { 0xC1, 23 }, { 0xC2, 24 }, { 0xC3, 25 }, { 0xC4, 26 },
        { 0xC5, 27 }, { 0xC6, 28 }, { 0xC7, -1 }, { 0xC8, -1 }, { 0xC9, 29 }, { 0xCA, -1 },
    };
    const struct pp_catalog *a7 = cat("cortex-a7");

    ck_assert_uint_eq(a7->n, ARRAY_LEN(seed));
    for (size_t i = 0; i < ARRAY_LEN(seed); i++) {
        const struct pp_event *ev = own(a7, seed[i].code);

        ck_assert_msg(ev != NULL, "A7 0x%02X missing", seed[i].code);
        ck_assert_msg(ev->bus_lsb == seed[i].lsb, "A7 0x%02X at %d, seed %d",
                      seed[i].code, ev->bus_lsb, seed[i].lsb);
        ck_assert_int_eq(ev->bus_bits, seed[i].lsb < 0 ? 0 : 1);
    }
}
END_TEST

/* Cortex-A9 counts instructions with 0x68: it has no INST_RETIRED. */
START_TEST(a9_does_not_advertise_inst_retired_or_br_return)
{
    const struct pp_catalog *a9 = cat("cortex-a9");

    ck_assert_ptr_null(own(a9, 0x08));
    ck_assert_ptr_null(own(a9, 0x0E));
    ck_assert_uint_eq(pp_catalog_pmceid(a9, 0) & ((1u << 0x08) | (1u << 0x0E)), 0);
    ck_assert_ptr_nonnull(own(a9, 0x68));
}
END_TEST

/* Seed 003: Cortex-A9 TRM table 11-6, accuracy column. */
START_TEST(a9_events_0x68_to_0x71_have_seed_accuracy)
{
    static const struct { uint16_t code; int acc; } seed[] = {
        { 0x68, PP_ACC_APPROX }, { 0x69, PP_ACC_PRECISE }, { 0x6A, PP_ACC_PRECISE },
        { 0x6B, PP_ACC_PRECISE }, { 0x6E, PP_ACC_APPROX }, { 0x70, PP_ACC_APPROX },
        { 0x71, PP_ACC_APPROX },
    };
    const struct pp_catalog *a9 = cat("cortex-a9");

    for (size_t i = 0; i < ARRAY_LEN(seed); i++) {
        const struct pp_event *ev = own(a9, seed[i].code);

        ck_assert_msg(ev != NULL, "A9 0x%02X missing", seed[i].code);
        ck_assert_msg(ev->accuracy == seed[i].acc, "A9 0x%02X is %s", seed[i].code,
                      pp_ev_accuracy_name(ev->accuracy));
    }
    /* The seed skips 0x6C, 0x6D and 0x6F: not Cortex-A9 events. */
    ck_assert_ptr_null(own(a9, 0x6C));
    ck_assert_ptr_null(own(a9, 0x6F));
}
END_TEST

/* Seed 003: "the renaming stage can handle two instructions in the same
 * cycle so the event is two bits long". */
START_TEST(a9_event_0x68_is_two_bits_wide_per_seed)
{
    const struct pp_event *ev = own(cat("cortex-a9"), 0x68);

    ck_assert_ptr_nonnull(ev);
    ck_assert_int_eq(ev->bus_bits, 2);
}
END_TEST

/* Seed 004: Cortex-A76 TRM C2.3, "PMU event bus (to trace)" column. */
START_TEST(a76_events_0x42_to_0x51_have_seed_bus_positions)
{
    static const struct { uint16_t code; const char *name; int lsb, bits; } seed[] = {
        { 0x42, "L1D_CACHE_REFILL_RD", 58, 1 },    { 0x43, "L1D_CACHE_REFILL_WR", 59, 1 },
        { 0x44, "L1D_CACHE_REFILL_INNER", 60, 1 }, { 0x45, "L1D_CACHE_REFILL_OUTER", 61, 1 },
        { 0x46, "L1D_CACHE_WB_VICTIM", 62, 1 },    { 0x47, "L1D_CACHE_WB_CLEAN", 63, 1 },
        { 0x48, "L1D_CACHE_INVAL", 64, 1 },        { 0x4C, "L1D_TLB_REFILL_RD", 65, 1 },
        { 0x4D, "L1D_TLB_REFILL_WR", 66, 1 },      { 0x4E, "L1D_TLB_RD", 67, 2 },
        { 0x4F, "L1D_TLB_WR", 69, 2 },             { 0x50, "L2D_CACHE_RD", 71, 2 },
        { 0x51, "L2D_CACHE_WR", 73, 2 },
    };
    const struct pp_catalog *a76 = cat("cortex-a76");

    for (size_t i = 0; i < ARRAY_LEN(seed); i++) {
        const struct pp_event *ev = own(a76, seed[i].code);

        ck_assert_msg(ev != NULL, "A76 0x%02X missing", seed[i].code);
        ck_assert_str_eq(ev->name, seed[i].name);
        ck_assert_int_eq(ev->bus_lsb, seed[i].lsb);
        ck_assert_int_eq(ev->bus_bits, seed[i].bits);
        ck_assert_int_eq(ev->trace_lsb, seed[i].lsb);
    }
    /* 0x49-0x4B fall in the seed's gap: not Cortex-A76 events. */
    ck_assert_ptr_null(own(a76, 0x49));
}
END_TEST

/* ---- names ------------------------------------------------------------ */

START_TEST(type_names_match_the_data_classes)
{
    ck_assert_str_eq(pp_ev_type_name(PP_EVT_INS), "INS");
    ck_assert_str_eq(pp_ev_type_name(PP_EVT_UEVT), "UEVT");
    ck_assert_str_eq(pp_ev_type_name(PP_EVT_CYCLE), "CYCLE");
    ck_assert_str_eq(pp_ev_type_name(PP_EVT_EXC), "EXC");
    ck_assert_str_eq(pp_ev_type_name(PP_EVT_ETM), "ETM");
    ck_assert_str_eq(pp_ev_type_name(PP_EVT_UNKNOWN), "UNKNOWN");
    ck_assert_str_eq(pp_ev_type_name(99), "UNKNOWN");
}
END_TEST

START_TEST(accuracy_names_are_empty_when_unstated)
{
    ck_assert_str_eq(pp_ev_accuracy_name(PP_ACC_PRECISE), "precise");
    ck_assert_str_eq(pp_ev_accuracy_name(PP_ACC_APPROX), "approximate");
    ck_assert_str_eq(pp_ev_accuracy_name(PP_ACC_UNSTATED), "");
}
END_TEST

/* spec 1.3: bit b of PMCEID0..3 is common event 0x0000/0x0020/0x4000/0x4020 + b. */
START_TEST(pmceid_bits_stand_for_the_common_event_ranges)
{
    static const struct { uint16_t code; unsigned reg, bit; } in[] = {
        { 0x0000, 0, 0 }, { 0x0011, 0, 17 }, { 0x001F, 0, 31 }, { 0x0020, 1, 0 },
        { 0x003F, 1, 31 }, { 0x4000, 2, 0 }, { 0x4020, 3, 0 }, { 0x403F, 3, 31 },
    };
    static const uint16_t out[] = { 0x0040, 0x00C3, 0x3FFF, 0x4040, 0xFFFF };
    unsigned reg, bit;

    for (size_t i = 0; i < sizeof(in) / sizeof(in[0]); i++) {
        ck_assert(pp_pmceid_bit(in[i].code, &reg, &bit));
        ck_assert_uint_eq(reg, in[i].reg);
        ck_assert_uint_eq(bit, in[i].bit);
        ck_assert_uint_eq(pp_pmceid_code(reg, bit), in[i].code);
    }
    for (size_t i = 0; i < sizeof(out) / sizeof(out[0]); i++)
        ck_assert(!pp_pmceid_bit(out[i], &reg, &bit));
}
END_TEST

static Suite *catalog_suite(void)
{
    Suite *s = suite_create("catalog");
    TCase *tc;

    tc = tcase_create("tables");
    tcase_add_test(tc, every_catalog_is_sorted_by_code_with_unique_codes);
    tcase_add_test(tc, every_event_has_a_name_and_a_description);
    tcase_add_test(tc, every_mnemonic_is_upper_case_and_unique_within_its_catalog);
    tcase_add_test(tc, every_event_has_a_known_type_and_accuracy);
    tcase_add_test(tc, impdef_flag_marks_exactly_the_implementation_defined_numbers);
    tcase_add_test(tc, a_published_bus_position_has_a_width);
    tcase_add_test(tc, core_catalogs_hold_every_numbered_event_of_the_source_data);
    tcase_add_test(tc, common_catalogs_hold_only_the_common_event_ranges);
    tcase_add_test(tc, each_core_catalog_points_at_its_architectures_common_catalog);
    suite_add_tcase(s, tc);

    tc = tcase_create("keys");
    tcase_add_test(tc, each_core_type_catalog_key_is_found);
    tcase_add_test(tc, both_common_keys_are_found);
    tcase_add_test(tc, all_lists_eleven_cores_and_two_common_catalogs);
    tcase_add_test(tc, unknown_or_null_key_returns_null);
    suite_add_tcase(s, tc);

    tc = tcase_create("lookup");
    tcase_add_test(tc, lookup_returns_the_cores_own_entry_first);
    tcase_add_test(tc, lookup_falls_back_to_the_common_catalog);
    tcase_add_test(tc, own_lookup_matches_the_cores_table_and_never_falls_back);
    tcase_add_test(tc, unknown_code_returns_null);
    tcase_add_test(tc, a9_impdef_code_is_never_named_from_the_armv7_common_catalog);
    tcase_add_test(tc, by_name_is_case_insensitive);
    tcase_add_test(tc, by_name_searches_the_core_first_then_common);
    tcase_add_test(tc, by_name_unknown_or_null_returns_null);
    suite_add_tcase(s, tc);

    tc = tcase_create("pmceid");
    tcase_add_test(tc, pmceid_bits_stand_for_the_common_event_ranges);
    tcase_add_test(tc, a32_pmceid1_matches_seed_bits_0x20_to_0x30);
    tcase_add_test(tc, pmceid_bit_is_set_exactly_when_the_core_table_lists_the_event);
    tcase_add_test(tc, pmceid2_bit_n_is_event_0x4000_plus_n);
    tcase_add_test(tc, pmceid3_bit_n_is_event_0x4020_plus_n);
    tcase_add_test(tc, pmceid_counts_only_the_cores_own_table);
    tcase_add_test(tc, pmuv2_core_reads_zero_for_pmceid2_and_3);
    tcase_add_test(tc, pmceid_of_bad_register_or_null_catalog_is_zero);
    suite_add_tcase(s, tc);

    tc = tcase_create("seeds");
    tcase_add_test(tc, a7_event_table_has_seed_pmuevent_positions);
    tcase_add_test(tc, a9_events_0x68_to_0x71_have_seed_accuracy);
    tcase_add_test(tc, a9_does_not_advertise_inst_retired_or_br_return);
    tcase_add_test(tc, a9_event_0x68_is_two_bits_wide_per_seed);
    tcase_add_test(tc, a76_events_0x42_to_0x51_have_seed_bus_positions);
    suite_add_tcase(s, tc);

    tc = tcase_create("names");
    tcase_add_test(tc, type_names_match_the_data_classes);
    tcase_add_test(tc, accuracy_names_are_empty_when_unstated);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(catalog_suite());
    int failed;

    srunner_run_all(sr, CK_NORMAL);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

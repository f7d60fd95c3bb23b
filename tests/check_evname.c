/*
 * check_evname.c - event-name resolution (lib/pmu/evname.c): perf aliases,
 * Arm mnemonics, raw codes and exception-level modifiers.
 */
#include <check.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pmuprobe.h"
#include "pmu/catalog.h"
#include "pmu/coretype.h"
#include "pmu/evname.h"

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

static const struct pp_core_type *core(const char *name)
{
    const struct pp_core_type *ct = pp_core_type_find(name);

    ck_assert_msg(ct != NULL, "core type %s missing", name);
    return ct;
}

static const struct pp_catalog *cat(const char *key)
{
    const struct pp_catalog *c = pp_catalog_find(key);

    ck_assert_msg(c != NULL, "catalog %s missing", key);
    return c;
}

/* Resolves and insists on success, showing the message otherwise. */
static struct pp_evsel resolve_ok(const char *coretype, const char *spec)
{
    struct pp_evsel ev;
    char err[256];
    int rc = pp_event_resolve(core(coretype), spec, &ev, err, sizeof(err));

    ck_assert_msg(rc == PP_OK, "%s on %s: rc %d: %s", spec, coretype, rc, err);
    return ev;
}

static uint16_t code_of(const char *coretype, const char *spec)
{
    return resolve_ok(coretype, spec).code;
}

/* ---- perf aliases ------------------------------------------------------ */

START_TEST(cycles_resolves_to_the_cycle_counter)
{
    struct pp_evsel ev = resolve_ok("cortex-a76", "cycles");

    ck_assert(ev.cycle_counter);
    ck_assert_uint_eq(ev.code, 0x11);
    ck_assert_ptr_nonnull(ev.ev);
    ck_assert_str_eq(ev.ev->name, "CPU_CYCLES");
}
END_TEST

START_TEST(cpu_cycles_and_cycles_on_a9_use_the_cycle_counter_too)
{
    ck_assert(resolve_ok("cortex-a76", "cpu-cycles").cycle_counter);
    ck_assert(resolve_ok("cortex-a9", "cycles").cycle_counter);
}
END_TEST

START_TEST(cpu_cycles_mnemonic_is_an_ordinary_event_counter_event)
{
    struct pp_evsel ev = resolve_ok("cortex-a76", "CPU_CYCLES");

    ck_assert(!ev.cycle_counter);
    ck_assert_uint_eq(ev.code, 0x11);
}
END_TEST

START_TEST(instructions_is_inst_retired_on_a53_and_a76)
{
    ck_assert_uint_eq(code_of("cortex-a53", "instructions"), 0x08);
    ck_assert_uint_eq(code_of("cortex-a76", "instructions"), 0x08);
}
END_TEST

/* Linux perf's cortex-a53 list names 0xC3 PREFETCH_LINEFILL_DROP; the
 * catalog (TRM, ARM-software/data) calls it L1I_CACHE_THROTTLE.  Only the
 * A53 knows the alias. */
START_TEST(perf_name_prefetch_linefill_drop_is_a53_event_0xc3)
{
    struct pp_evsel ev = resolve_ok("cortex-a53", "prefetch_linefill_drop:u");
    char err[256] = "";

    ck_assert_uint_eq(ev.code, 0xC3);
    ck_assert_str_eq(ev.ev->name, "L1I_CACHE_THROTTLE");
    ck_assert_str_eq(pp_catalog_alias_of(cat("cortex-a53"), 0xC3)->name, "PREFETCH_LINEFILL_DROP");
    ck_assert_int_eq(pp_event_resolve(core("cortex-a76"), "PREFETCH_LINEFILL_DROP", &ev, err,
                                      sizeof(err)), PP_E_NOTFOUND);
    ck_assert_ptr_null(pp_catalog_alias_of(cat("cortex-a76"), 0xC3));
}
END_TEST

/* Cortex-A9 TRM (DDI0388I) table 11-5, note a: 0x08 is not implemented,
 * 0x68 provides similar functionality. */
START_TEST(instructions_is_0x68_on_a9_which_lacks_inst_retired)
{
    ck_assert_uint_eq(code_of("cortex-a9", "instructions"), 0x68);
}
END_TEST

START_TEST(aliases_are_case_insensitive)
{
    ck_assert_uint_eq(code_of("cortex-a76", "INSTRUCTIONS"), 0x08);
    ck_assert_uint_eq(code_of("cortex-a76", "l1-dcache-loads"), 0x40);
}
END_TEST

START_TEST(alias_prefers_the_split_event_where_the_core_has_it)
{
    ck_assert_uint_eq(code_of("cortex-a76", "dTLB-load-misses"), 0x4C);
    ck_assert_uint_eq(code_of("cortex-a53", "dTLB-load-misses"), 0x05);
    ck_assert_uint_eq(code_of("cortex-a76", "L1-dcache-load-misses"), 0x42);
    ck_assert_uint_eq(code_of("cortex-a53", "L1-dcache-load-misses"), 0x03);
}
END_TEST

START_TEST(branches_map_to_the_best_branch_event_each_core_lists)
{
    ck_assert_uint_eq(code_of("cortex-a76", "branches"), 0x21);
    ck_assert_uint_eq(code_of("cortex-a53", "branches"), 0x0C);
    ck_assert_uint_eq(code_of("cortex-a57", "branches"), 0x12);
}
END_TEST

/* A9 reuses 0x40-0x42 for Java events: a code match alone is not enough. */
START_TEST(alias_skips_a_code_the_core_uses_for_another_event)
{
    ck_assert_uint_eq(code_of("cortex-a9", "L1-dcache-loads"), 0x04);
    ck_assert_uint_eq(code_of("cortex-a9", "L1-dcache-stores"), 0x04);
    ck_assert_uint_eq(code_of("cortex-a9", "L1-dcache-load-misses"), 0x03);
}
END_TEST

START_TEST(every_alias_resolves_on_a76_to_an_event_it_lists)
{
    static const char *const names[] = {
        "instructions", "branches", "branch-misses", "cache-references", "cache-misses",
        "bus-cycles", "stalled-cycles-frontend", "stalled-cycles-backend", "L1-dcache-loads",
        "L1-dcache-load-misses", "L1-dcache-stores", "L1-icache-load-misses", "LLC-loads",
        "LLC-load-misses", "dTLB-load-misses", "iTLB-load-misses",
    };

    for (size_t i = 0; i < ARRAY_LEN(names); i++) {
        struct pp_evsel ev = resolve_ok("cortex-a76", names[i]);

        ck_assert_msg(pp_event_core_has(cat("cortex-a76"), ev.code), "%s -> 0x%X not listed",
                      names[i], ev.code);
        ck_assert_msg(!ev.cycle_counter, "%s is not the cycle counter", names[i]);
    }
}
END_TEST

START_TEST(alias_without_a_counterpart_on_the_core_is_not_found)
{
    struct pp_evsel ev;
    char err[256];

    ck_assert_int_eq(pp_event_resolve(core("cortex-a53"), "stalled-cycles-frontend", &ev,
                                      err, sizeof(err)), PP_E_NOTFOUND);
    ck_assert_ptr_nonnull(strstr(err, "Cortex-A53"));
    ck_assert_ptr_nonnull(strstr(err, "STALL_FRONTEND"));
}
END_TEST

/* ---- mnemonics --------------------------------------------------------- */

START_TEST(mnemonics_are_case_insensitive)
{
    struct pp_evsel a = resolve_ok("cortex-a76", "l1d_cache_refill");
    struct pp_evsel b = resolve_ok("cortex-a76", "L1D_Cache_Refill");

    ck_assert_uint_eq(a.code, 0x03);
    ck_assert_ptr_eq(a.ev, b.ev);
    ck_assert_str_eq(a.ev->name, "L1D_CACHE_REFILL");
}
END_TEST

START_TEST(name_is_kept_as_typed_with_its_modifier)
{
    ck_assert_str_eq(resolve_ok("cortex-a76", " Inst_Retired:u ").name, "Inst_Retired:u");
}
END_TEST

START_TEST(common_mnemonic_the_core_does_not_list_still_resolves)
{
    struct pp_evsel ev = resolve_ok("cortex-a53", "stall_frontend");

    ck_assert_uint_eq(ev.code, 0x23);
    ck_assert_ptr_nonnull(ev.ev);
    ck_assert(!pp_event_core_has(cat("cortex-a53"), ev.code));
}
END_TEST

/* ---- raw codes --------------------------------------------------------- */

START_TEST(raw_codes_are_hex_in_all_three_spellings)
{
    static const char *const spellings[] = { "r0x42", "r42", "0x42", "R0X42" };

    for (size_t i = 0; i < ARRAY_LEN(spellings); i++) {
        struct pp_evsel ev = resolve_ok("cortex-a76", spellings[i]);

        ck_assert_uint_eq(ev.code, 0x42);
        ck_assert_ptr_nonnull(ev.ev);
        ck_assert_str_eq(ev.ev->name, "L1D_CACHE_REFILL_RD");
    }
}
END_TEST

START_TEST(raw_code_unknown_to_the_catalogs_resolves_without_an_entry)
{
    struct pp_evsel ev = resolve_ok("cortex-a76", "r1ff");

    ck_assert_uint_eq(ev.code, 0x1FF);
    ck_assert_ptr_null(ev.ev);
    ck_assert(!ev.cycle_counter);
}
END_TEST

START_TEST(raw_code_up_to_0xffff_is_accepted_and_above_is_a_parse_error)
{
    struct pp_evsel ev;
    char err[256];

    ck_assert_uint_eq(code_of("cortex-a76", "0xFFFF"), 0xFFFF);
    ck_assert_int_eq(pp_event_resolve(core("cortex-a76"), "r10000", &ev, err, sizeof(err)),
                     PP_E_PARSE);
    ck_assert_ptr_nonnull(strstr(err, "0xFFFF"));
}
END_TEST

START_TEST(raw_code_wider_than_the_cores_event_field_is_refused)
{
    struct pp_evsel ev;
    char err[256];

    ck_assert_int_eq(pp_event_resolve(core("cortex-a53"), "r4000", &ev, err, sizeof(err)),
                     PP_E_UNSUPPORTED);
    ck_assert_ptr_nonnull(strstr(err, "10-bit"));
}
END_TEST

START_TEST(malformed_or_bare_decimal_code_is_a_parse_error)
{
    struct pp_evsel ev;
    char err[256];

    ck_assert_int_eq(pp_event_resolve(core("cortex-a76"), "0x4g", &ev, err, sizeof(err)),
                     PP_E_PARSE);
    ck_assert_int_eq(pp_event_resolve(core("cortex-a76"), "66", &ev, err, sizeof(err)),
                     PP_E_PARSE);
    ck_assert_ptr_nonnull(strstr(err, "r66"));
}
END_TEST

/* ---- modifiers (spec 1.3: P excludes EL1, U excludes EL0, NSH adds EL2) - */

START_TEST(modifiers_set_the_filter_bits_of_the_levels_left_out)
{
    static const struct { const char *spec; uint32_t filter; } t[] = {
        { "inst_retired",      0 },
        { "inst_retired:u",    PP_EVTYPER_P },
        { "inst_retired:k",    PP_EVTYPER_U },
        { "inst_retired:h",    PP_EVTYPER_P | PP_EVTYPER_U | PP_EVTYPER_NSH },
        { "inst_retired:uk",   0 },
        { "inst_retired:ku",   0 },
        { "inst_retired:kh",   PP_EVTYPER_U | PP_EVTYPER_NSH },
        { "inst_retired:ukh",  PP_EVTYPER_NSH },
        { "cycles:u",          PP_EVTYPER_P },
    };

    for (size_t i = 0; i < ARRAY_LEN(t); i++)
        ck_assert_msg(resolve_ok("cortex-a76", t[i].spec).filter == t[i].filter,
                      "%s: filter 0x%08X, want 0x%08X", t[i].spec,
                      resolve_ok("cortex-a76", t[i].spec).filter, t[i].filter);
}
END_TEST

START_TEST(pmuv2_cores_with_virtualization_extensions_filter)
{
    ck_assert_uint_eq(resolve_ok("cortex-a7", "instructions:u").filter, PP_EVTYPER_P);
    ck_assert_uint_eq(resolve_ok("cortex-a15", "cycles:k").filter, PP_EVTYPER_U);
}
END_TEST

START_TEST(modifiers_are_refused_on_a9_naming_the_core)
{
    struct pp_evsel ev;
    char err[256];

    ck_assert_int_eq(pp_event_resolve(core("cortex-a9"), "cycles:u", &ev, err, sizeof(err)),
                     PP_E_UNSUPPORTED);
    ck_assert_ptr_nonnull(strstr(err, "Cortex-A9"));
    ck_assert_uint_eq(code_of("cortex-a9", "cycles"), 0x11);
}
END_TEST

START_TEST(unknown_modifier_is_a_parse_error_naming_letter_and_accepted_ones)
{
    struct pp_evsel ev;
    char err[256];

    ck_assert_int_eq(pp_event_resolve(core("cortex-a76"), "cycles:ux", &ev, err, sizeof(err)),
                     PP_E_PARSE);
    ck_assert_ptr_nonnull(strstr(err, "'x'"));
    ck_assert_ptr_nonnull(strstr(err, "u (EL0), k (EL1), h (EL2)"));
}
END_TEST

START_TEST(empty_modifier_or_missing_name_is_a_parse_error)
{
    struct pp_evsel ev;
    char err[256];

    ck_assert_int_eq(pp_event_resolve(core("cortex-a76"), "cycles:", &ev, err, sizeof(err)),
                     PP_E_PARSE);
    ck_assert_int_eq(pp_event_resolve(core("cortex-a76"), ":u", &ev, err, sizeof(err)),
                     PP_E_PARSE);
}
END_TEST

/* ---- errors ------------------------------------------------------------ */

START_TEST(unknown_event_suggests_the_nearest_mnemonic)
{
    struct pp_evsel ev;
    char err[256];

    ck_assert_int_eq(pp_event_resolve(core("cortex-a76"), "L1D_CACHE_REFIL", &ev, err, sizeof(err)),
                     PP_E_NOTFOUND);
    ck_assert_str_eq(err, "unknown event 'L1D_CACHE_REFIL' for Cortex-A76; did you mean L1D_CACHE_REFILL?");
}
END_TEST

START_TEST(misspelt_alias_suggests_the_alias)
{
    struct pp_evsel ev;
    char err[256];

    ck_assert_int_eq(pp_event_resolve(core("cortex-a53"), "instrutions", &ev, err, sizeof(err)),
                     PP_E_NOTFOUND);
    ck_assert_ptr_nonnull(strstr(err, "did you mean instructions?"));
}
END_TEST

START_TEST(nothing_close_gets_no_suggestion)
{
    struct pp_evsel ev;
    char err[256];

    ck_assert_int_eq(pp_event_resolve(core("cortex-a76"), "frobnicate", &ev, err, sizeof(err)),
                     PP_E_NOTFOUND);
    ck_assert_str_eq(err, "unknown event 'frobnicate' for Cortex-A76");
}
END_TEST

START_TEST(over_long_name_is_a_parse_error)
{
    char spec[200];
    struct pp_evsel ev;
    char err[256];

    memset(spec, 'A', sizeof(spec) - 1);
    spec[sizeof(spec) - 1] = '\0';
    ck_assert_int_eq(pp_event_resolve(core("cortex-a76"), spec, &ev, err, sizeof(err)), PP_E_PARSE);
    ck_assert_ptr_nonnull(strstr(err, "too long"));
}
END_TEST

START_TEST(messages_never_overflow_a_small_buffer)
{
    char buf[24];
    struct pp_evsel ev;

    memset(buf, '#', sizeof(buf));
    ck_assert_int_eq(pp_event_resolve(core("cortex-a76"), "L1D_CACHE_REFIL", &ev, buf, 16),
                     PP_E_NOTFOUND);
    ck_assert_uint_eq(strlen(buf), 15);
    for (size_t i = 16; i < sizeof(buf); i++)
        ck_assert_int_eq(buf[i], '#');
    ck_assert_int_eq(pp_event_resolve(core("cortex-a76"), "nope", &ev, NULL, 0), PP_E_NOTFOUND);
}
END_TEST

START_TEST(missing_arguments_are_invalid)
{
    struct pp_evsel ev;
    char err[64];

    ck_assert_int_eq(pp_event_resolve(NULL, "cycles", &ev, err, sizeof(err)), PP_E_INVAL);
    ck_assert_int_eq(pp_event_resolve(core("cortex-a76"), NULL, &ev, err, sizeof(err)), PP_E_INVAL);
    ck_assert_int_eq(pp_event_resolve(core("cortex-a76"), "cycles", NULL, err, sizeof(err)),
                     PP_E_INVAL);
}
END_TEST

/* ---- pp_event_core_has ------------------------------------------------- */

START_TEST(a76_lists_0x42_and_a53_does_not)
{
    ck_assert(pp_event_core_has(cat("cortex-a76"), 0x42));
    ck_assert(!pp_event_core_has(cat("cortex-a53"), 0x42));
}
END_TEST

START_TEST(a53_lists_no_0x4000_range_event_and_n1_does)
{
    for (uint16_t c = 0x4000; c < 0x4040; c++)
        ck_assert_msg(!pp_event_core_has(cat("cortex-a53"), c), "A53 lists 0x%X", c);
    ck_assert(pp_event_core_has(cat("neoverse-n1"), 0x4000));
}
END_TEST

START_TEST(core_has_ignores_the_common_catalog)
{
    const struct pp_catalog *a53 = cat("cortex-a53");

    ck_assert_ptr_nonnull(pp_catalog_lookup(a53, 0x23));
    ck_assert(!pp_event_core_has(a53, 0x23));
    ck_assert(!pp_event_core_has(NULL, 0x08));
}
END_TEST

static Suite *evname_suite(void)
{
    Suite *s = suite_create("evname");
    TCase *tc = tcase_create("aliases");

    tcase_add_test(tc, cycles_resolves_to_the_cycle_counter);
    tcase_add_test(tc, cpu_cycles_and_cycles_on_a9_use_the_cycle_counter_too);
    tcase_add_test(tc, cpu_cycles_mnemonic_is_an_ordinary_event_counter_event);
    tcase_add_test(tc, instructions_is_inst_retired_on_a53_and_a76);
    tcase_add_test(tc, instructions_is_0x68_on_a9_which_lacks_inst_retired);
    tcase_add_test(tc, perf_name_prefetch_linefill_drop_is_a53_event_0xc3);
    tcase_add_test(tc, aliases_are_case_insensitive);
    tcase_add_test(tc, alias_prefers_the_split_event_where_the_core_has_it);
    tcase_add_test(tc, branches_map_to_the_best_branch_event_each_core_lists);
    tcase_add_test(tc, alias_skips_a_code_the_core_uses_for_another_event);
    tcase_add_test(tc, every_alias_resolves_on_a76_to_an_event_it_lists);
    tcase_add_test(tc, alias_without_a_counterpart_on_the_core_is_not_found);
    suite_add_tcase(s, tc);

    tc = tcase_create("mnemonics");
    tcase_add_test(tc, mnemonics_are_case_insensitive);
    tcase_add_test(tc, name_is_kept_as_typed_with_its_modifier);
    tcase_add_test(tc, common_mnemonic_the_core_does_not_list_still_resolves);
    suite_add_tcase(s, tc);

    tc = tcase_create("raw");
    tcase_add_test(tc, raw_codes_are_hex_in_all_three_spellings);
    tcase_add_test(tc, raw_code_unknown_to_the_catalogs_resolves_without_an_entry);
    tcase_add_test(tc, raw_code_up_to_0xffff_is_accepted_and_above_is_a_parse_error);
    tcase_add_test(tc, raw_code_wider_than_the_cores_event_field_is_refused);
    tcase_add_test(tc, malformed_or_bare_decimal_code_is_a_parse_error);
    suite_add_tcase(s, tc);

    tc = tcase_create("modifiers");
    tcase_add_test(tc, modifiers_set_the_filter_bits_of_the_levels_left_out);
    tcase_add_test(tc, pmuv2_cores_with_virtualization_extensions_filter);
    tcase_add_test(tc, modifiers_are_refused_on_a9_naming_the_core);
    tcase_add_test(tc, unknown_modifier_is_a_parse_error_naming_letter_and_accepted_ones);
    tcase_add_test(tc, empty_modifier_or_missing_name_is_a_parse_error);
    suite_add_tcase(s, tc);

    tc = tcase_create("errors");
    tcase_add_test(tc, unknown_event_suggests_the_nearest_mnemonic);
    tcase_add_test(tc, misspelt_alias_suggests_the_alias);
    tcase_add_test(tc, nothing_close_gets_no_suggestion);
    tcase_add_test(tc, over_long_name_is_a_parse_error);
    tcase_add_test(tc, messages_never_overflow_a_small_buffer);
    tcase_add_test(tc, missing_arguments_are_invalid);
    suite_add_tcase(s, tc);

    tc = tcase_create("core_has");
    tcase_add_test(tc, a76_lists_0x42_and_a53_does_not);
    tcase_add_test(tc, a53_lists_no_0x4000_range_event_and_n1_does);
    tcase_add_test(tc, core_has_ignores_the_common_catalog);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(evname_suite());
    int failed;

    srunner_run_all(sr, CK_NORMAL);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

/*
 * check_pubapi.c - the public status, register, event and discovery calls
 * (lib/pmuprobe.h, "status, registers, events, discovery") as a program
 * linked against the shared libpmuprobe sees them, on the simulated
 * a76-cluster (targets/a76-cluster.target: PMU blocks at 0x81030000 +
 * 0x100000 * cpu, six event counters).
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "pmuprobe.h"

#define A76_PMU(cpu) (0x81030000u + 0x100000u * (cpu))

static struct pp_session *open_sim(const char *fault)
{
    const char *faults[1] = { fault };
    struct pp_open_opts o = { .faults = faults, .nfaults = fault ? 1 : 0,
                              .sim_time = PP_SIM_TIME_DETERMINISTIC };
    struct pp_session *s = NULL;
    char err[256];
    int rc = pp_session_open("a76-cluster", "sim", &o, &s, err, sizeof(err));

    ck_assert_msg(rc == PP_OK, "%s", err);
    return s;
}

static const struct pp_reg_field *field(const struct pp_reg_value *v, const char *name)
{
    for (size_t i = 0; i < v->nfields; i++)
        if (strcmp(v->fields[i].name, name) == 0)
            return &v->fields[i];
    return NULL;
}

/* ---- causes and status ---------------------------------------------------------------- */

START_TEST(causes_have_fixed_numbers_names_and_texts)
{
    ck_assert_int_eq(PP_CAUSE_NONE, 0);
    ck_assert_int_eq(PP_CAUSE_OS_LOCK, 4);
    ck_assert_int_eq(PP_CAUSE_TAKEN_OVER, 9);
    ck_assert_str_eq(pp_cause_name(PP_CAUSE_OS_LOCK), "os-lock");
    ck_assert_str_eq(pp_cause_str(PP_CAUSE_OS_LOCK), "OS lock set");
    ck_assert_str_eq(pp_cause_name(PP_CAUSE_CORE_OFF), "core-off");
    ck_assert_str_eq(pp_cause_name(99), "unknown");
    ck_assert_ptr_nonnull(pp_cause_str(-1));
}
END_TEST

START_TEST(healthy_core_status_has_evidence_and_no_remedy)
{
    struct pp_session *s = open_sim(NULL);
    struct pp_core_status st;
    char err[256];

    ck_assert_int_eq(pp_core_status(s, 2, &st, err, sizeof(err)), PP_OK);
    ck_assert_uint_eq(st.cpu, 2);
    ck_assert_str_eq(st.type, "Cortex-A76");
    ck_assert(st.pmu_ok);
    ck_assert_int_eq(st.cause, PP_CAUSE_NONE);
    ck_assert_msg(strncmp(st.evidence, "EDPRSR=0x", 9) == 0 && strstr(st.evidence, " PU"),
                  "evidence '%s'", st.evidence);
    ck_assert_ptr_null(st.remedy);
    ck_assert(st.edprsr_valid && st.pmcfgr_valid && st.authstatus_valid);
    ck_assert(!st.oslsr_valid);                     /* Armv8: DBGOSLSR not read */
    ck_assert(st.powered && !st.oslock && !st.doublelock && !st.halted);
    ck_assert(st.nid_enabled);
    ck_assert_uint_eq(st.edprsr & 1u, 1u);          /* PU */
    ck_assert_uint_eq(st.pmcfgr & 0xFFu, 6u);       /* PMCFGR.N: six counters */
    pp_session_close(s);
}
END_TEST

START_TEST(powered_down_core_status_names_the_cause_the_proof_and_a_remedy)
{
    struct pp_session *s = open_sim("cpu1:off");
    struct pp_core_status st;

    ck_assert_int_eq(pp_core_status(s, 1, &st, NULL, 0), PP_OK);
    ck_assert(!st.pmu_ok);
    ck_assert(!st.pmcfgr_valid);
    ck_assert_int_eq(st.cause, PP_CAUSE_CORE_OFF);
    ck_assert(st.edprsr_valid && !st.powered);
    ck_assert_msg(strstr(st.evidence, "(PU=0)"), "evidence '%s'", st.evidence);
    ck_assert_ptr_nonnull(st.remedy);
    ck_assert_ptr_nonnull(strstr(st.remedy, "power cpuN on"));
    /* The other cores are untouched. */
    ck_assert_int_eq(pp_core_status(s, 0, &st, NULL, 0), PP_OK);
    ck_assert(st.pmu_ok);
    pp_session_close(s);
}
END_TEST

START_TEST(os_locked_core_status_is_the_os_lock)
{
    struct pp_session *s = open_sim("cpu2:oslock");
    struct pp_core_status st;

    ck_assert_int_eq(pp_core_status(s, 2, &st, NULL, 0), PP_OK);
    ck_assert(!st.pmu_ok);
    ck_assert_int_eq(st.cause, PP_CAUSE_OS_LOCK);
    ck_assert(st.powered && st.oslock);
    ck_assert_msg(strstr(st.evidence, "OSLK"), "evidence '%s'", st.evidence);
    ck_assert_ptr_nonnull(st.remedy);
    ck_assert_ptr_nonnull(strstr(st.remedy, "unlock"));
    pp_session_close(s);
}
END_TEST

START_TEST(status_of_a_core_index_out_of_range_is_invalid)
{
    struct pp_session *s = open_sim(NULL);
    struct pp_core_status st;
    char err[256] = "";

    ck_assert_int_eq(pp_core_status(s, 4, &st, err, sizeof(err)), PP_E_INVAL);
    ck_assert_ptr_nonnull(strstr(err, "4"));
    pp_session_close(s);
}
END_TEST

/* ---- registers -------------------------------------------------------------------------- */

/* External PMCR[31:11] is RAZ on PMUv3 (spec/arm-pmu-coresight.md 1.3):
 * the counter count is PMCFGR.N there, PMCR.N on PMUv2. */
START_TEST(pmcr_and_pmcfgr_reads_give_named_fields_with_n_the_counters)
{
    struct pp_session *s = open_sim(NULL);
    struct pp_reg_value v;
    const struct pp_reg_field *n, *e;
    char err[256];

    ck_assert_int_eq(pp_reg_read(s, 1, "pmcr_el0", &v, err, sizeof(err)), PP_OK);
    ck_assert_str_eq(v.name, "PMCR");
    ck_assert_str_eq(v.block, "pmu");
    ck_assert_uint_eq(v.offset, 0xE04);
    ck_assert_uint_eq(v.addr, A76_PMU(1) + 0xE04);
    ck_assert_uint_eq(v.width, 32);
    ck_assert_uint_eq(v.value >> 11, 0);
    e = field(&v, "E");
    ck_assert_ptr_nonnull(e);
    ck_assert_uint_eq(e->lsb, 0);
    ck_assert_uint_eq(e->width, 1);
    ck_assert_uint_eq(e->value, v.value & 1u);
    ck_assert_ptr_nonnull(e->desc);
    ck_assert_ptr_nonnull(field(&v, "LC"));
    ck_assert_msg(strncmp(v.text, "cpu1 PMCR ", 10) == 0 && strstr(v.text, "\n  E  "),
                  "text '%s'", v.text);
    ck_assert_int_eq(pp_reg_read(s, 1, "PMCFGR", &v, err, sizeof(err)), PP_OK);
    n = field(&v, "N");
    ck_assert_ptr_nonnull(n);
    ck_assert_uint_eq(n->lsb, 0);
    ck_assert_uint_eq(n->width, 8);
    ck_assert_uint_eq(n->value, 6);
    pp_session_close(s);
}
END_TEST

START_TEST(pmuv2_pmcr_gives_n_the_counters)
{
    struct pp_session *s = NULL;
    struct pp_core_info ci;
    struct pp_reg_value v;
    const struct pp_reg_field *n;
    char err[256];

    ck_assert_int_eq(pp_session_open("a7-soc", "sim", NULL, &s, err, sizeof(err)), PP_OK);
    ck_assert_int_eq(pp_session_core(s, 0, &ci), PP_OK);
    ck_assert_int_eq(pp_reg_read(s, ci.cpu, "PMCR", &v, err, sizeof(err)), PP_OK);
    n = field(&v, "N");
    ck_assert_ptr_nonnull(n);
    ck_assert_uint_eq(n->lsb, 11);
    ck_assert_uint_eq(n->width, 5);
    ck_assert_uint_eq(n->value, ci.counters);
    ck_assert_uint_eq(n->value, 4);
    pp_session_close(s);
}
END_TEST

START_TEST(field_meanings_come_from_the_map)
{
    struct pp_session *s = open_sim(NULL);
    struct pp_reg_value v;
    const struct pp_reg_field *f;

    ck_assert_int_eq(pp_reg_read(s, 0, "PMDEVARCH", &v, NULL, 0), PP_OK);
    f = field(&v, "ARCHITECT");
    ck_assert_ptr_nonnull(f);
    ck_assert_uint_eq(f->value, 0x23B);
    ck_assert_str_eq(f->meaning, "Arm");
    ck_assert_int_eq(pp_reg_read(s, 0, "PMCFGR", &v, NULL, 0), PP_OK);
    ck_assert_str_eq(field(&v, "SIZE")->meaning, "64-bit counters");
    ck_assert_ptr_null(field(&v, "N")->meaning);    /* a number, not an enumeration */
    pp_session_close(s);
}
END_TEST

START_TEST(pmccntr_is_read_and_written_as_64_bits)
{
    struct pp_session *s = open_sim(NULL);
    struct pp_reg_value v;
    char err[256];

    /* The cycle counter is stopped out of reset (PMCR.E = 0, PMCNTENSET.C
     * = 0), so what is written is what is read. */
    ck_assert_int_eq(pp_reg_write(s, 3, "PMCCNTR", 0x123456789ABull, err, sizeof(err)), PP_OK);
    ck_assert_int_eq(pp_reg_read(s, 3, "PMCCNTR", &v, err, sizeof(err)), PP_OK);
    ck_assert_uint_eq(v.width, 64);
    ck_assert_uint_eq(v.value, 0x123456789ABull);
    ck_assert_uint_eq(v.addr, A76_PMU(3) + 0xF8);
    ck_assert_ptr_nonnull(strstr(v.text, "= 0x00000123456789AB"));
    /* The high word alone is a 32-bit register. */
    ck_assert_int_eq(pp_reg_read(s, 3, "PMCCNTR_HI", &v, err, sizeof(err)), PP_OK);
    ck_assert_uint_eq(v.width, 32);
    ck_assert_uint_eq(v.value, 0x123);
    pp_session_close(s);
}
END_TEST

START_TEST(written_registers_read_back)
{
    struct pp_session *s = open_sim(NULL);
    struct pp_reg_value v;
    char err[256];

    ck_assert_int_eq(pp_reg_write(s, 0, "PMEVTYPER2", 0x11, err, sizeof(err)), PP_OK);
    ck_assert_int_eq(pp_reg_read(s, 0, "PMEVTYPER2", &v, err, sizeof(err)), PP_OK);
    ck_assert_uint_eq(field(&v, "evtCount")->value, 0x11);
    ck_assert_int_eq(pp_reg_write(s, 0, "PMCNTENSET", 0x80000005u, err, sizeof(err)), PP_OK);
    ck_assert_int_eq(pp_reg_read(s, 0, "PMCNTENSET", &v, err, sizeof(err)), PP_OK);
    ck_assert_uint_eq(v.value, 0x80000005u);
    ck_assert_uint_eq(field(&v, "C")->value, 1);
    ck_assert_ptr_nonnull(strstr(v.text, "counters         = C P0 P2"));
    /* The other cores' registers are their own. */
    ck_assert_int_eq(pp_reg_read(s, 1, "PMCNTENSET", &v, err, sizeof(err)), PP_OK);
    ck_assert_uint_eq(v.value, 0);
    pp_session_close(s);
}
END_TEST

START_TEST(unknown_register_is_not_found_with_a_suggestion)
{
    struct pp_session *s = open_sim(NULL);
    struct pp_reg_value v;
    char err[256] = "";

    ck_assert_int_eq(pp_reg_read(s, 0, "PMRC", &v, err, sizeof(err)), PP_E_NOTFOUND);
    ck_assert_msg(strstr(err, "'PMRC'") && strstr(err, "did you mean PMCR?"), "err '%s'", err);
    ck_assert_int_eq(pp_reg_write(s, 0, "PMCNTENSTE", 1, err, sizeof(err)), PP_E_NOTFOUND);
    ck_assert_msg(strstr(err, "did you mean PMCNTENSET?"), "err '%s'", err);
    ck_assert_int_eq(pp_reg_read(s, 0, "PMEVCNTR6", &v, err, sizeof(err)), PP_E_NOTFOUND);
    ck_assert_int_eq(pp_reg_read(s, 7, "PMCR", &v, err, sizeof(err)), PP_E_NOTFOUND);
    ck_assert_ptr_nonnull(strstr(err, "cpu7"));
    ck_assert_int_eq(pp_reg_read(s, 0, "PMRC", &v, NULL, 0), PP_E_NOTFOUND);
    pp_session_close(s);
}
END_TEST

START_TEST(writes_the_map_forbids_are_refused)
{
    struct pp_session *s = open_sim(NULL);
    char err[256] = "";

    ck_assert_int_eq(pp_reg_write(s, 0, "PMCFGR", 0, err, sizeof(err)), PP_E_INVAL);
    ck_assert_ptr_nonnull(strstr(err, "read-only"));
    ck_assert_int_eq(pp_reg_write(s, 0, "PMCR", 0x100000000ull, err, sizeof(err)), PP_E_INVAL);
    ck_assert_ptr_nonnull(strstr(err, "32 bits"));
    pp_session_close(s);
}
END_TEST

START_TEST(failed_read_carries_the_diagnosis)
{
    struct pp_session *s = open_sim("cpu1:off");
    struct pp_reg_value v;
    char err[512] = "";

    ck_assert_int_eq(pp_reg_read(s, 1, "PMCR", &v, err, sizeof(err)), PP_E_SLVERR);
    ck_assert_msg(strstr(err, "cpu1 PMCR") && strstr(err, "core powered off") &&
                  strstr(err, "evidence: EDPRSR=") && strstr(err, "remedy: "), "err '%s'", err);
    ck_assert_str_eq(v.name, "PMCR");
    ck_assert_uint_eq(v.nfields, 0);
    ck_assert_int_eq(pp_reg_write(s, 1, "PMCNTENSET", 1, err, sizeof(err)), PP_E_SLVERR);
    ck_assert_ptr_nonnull(strstr(err, "core powered off"));
    ck_assert_int_eq(pp_reg_read(s, 0, "PMCR", &v, err, sizeof(err)), PP_OK);
    pp_session_close(s);
}
END_TEST

/* ---- events ----------------------------------------------------------------------------- */

static const struct pp_event_info *event(const struct pp_event_info *l, size_t n, uint16_t code)
{
    for (size_t i = 0; i < n; i++)
        if (l[i].code == code)
            return &l[i];
    return NULL;
}

START_TEST(events_are_the_catalog_marked_from_pmceid)
{
    struct pp_session *s = open_sim(NULL);
    struct pp_event_info *l;
    const struct pp_event_info *e;
    uint32_t ceid[2];
    size_t n, adv = 0;
    char err[256];

    ck_assert_int_eq(pp_events_list(s, 0, &l, &n, err, sizeof(err)), PP_OK);
    ck_assert_str_eq(err, "");
    ck_assert_uint_gt(n, 50);
    e = event(l, n, 0x0003);
    ck_assert_ptr_nonnull(e);
    ck_assert_str_eq(e->name, "L1D_CACHE_REFILL");
    ck_assert_str_eq(e->component, "L1D");
    ck_assert(e->common && e->checked);
    /* Every common event's mark is its PMCEID bit, read independently. */
    ck_assert_int_eq(pp_bus_read32(pp_session_bus(s), A76_PMU(0) + 0xE20, &ceid[0]), PP_OK);
    ck_assert_int_eq(pp_bus_read32(pp_session_bus(s), A76_PMU(0) + 0xE24, &ceid[1]), PP_OK);
    for (size_t i = 0; i < n; i++) {
        bool bit;

        if (!l[i].common || l[i].code >= 0x40)
            continue;
        bit = (ceid[l[i].code / 32] >> (l[i].code % 32)) & 1u;
        ck_assert_msg(l[i].advertised == bit, "0x%04X advertised %d, PMCEID bit %d",
                      l[i].code, l[i].advertised, bit);
        adv += bit;
    }
    ck_assert_uint_gt(adv, 20);
    /* IMPLEMENTATION DEFINED events: PMCEID cannot tell. */
    e = event(l, n, 0x0040);
    ck_assert_ptr_nonnull(e);
    ck_assert(!e->common && !e->checked && !e->advertised);
    pp_events_free(l);
    pp_session_close(s);
}
END_TEST

START_TEST(events_of_an_unreachable_core_are_the_catalog_unchecked)
{
    struct pp_session *s = open_sim("cpu1:off");
    struct pp_event_info *l;
    size_t n;
    char err[256];

    ck_assert_int_eq(pp_events_list(s, 1, &l, &n, err, sizeof(err)), PP_OK);
    ck_assert_ptr_nonnull(strstr(err, "PMCEID unreadable on cpu1: core powered off"));
    ck_assert_uint_gt(n, 50);
    for (size_t i = 0; i < n; i++)
        ck_assert(!l[i].checked && !l[i].advertised);
    ck_assert_ptr_nonnull(event(l, n, 0x0011));
    pp_events_free(l);
    ck_assert_int_eq(pp_events_list(s, 9, &l, &n, err, sizeof(err)), PP_E_NOTFOUND);
    ck_assert_ptr_null(l);
    pp_events_free(NULL);
    pp_session_close(s);
}
END_TEST

/* ---- discovery -------------------------------------------------------------------------- */

START_TEST(scan_lists_the_fourteen_components_with_their_cores)
{
    struct pp_session *s = open_sim(NULL);
    struct pp_component *c;
    size_t n;
    unsigned pmus = 0, roms = 0;
    char err[256];

    ck_assert_int_eq(pp_scan(s, &c, &n, err, sizeof(err)), PP_OK);
    ck_assert_uint_eq(n, 14);
    ck_assert_uint_eq(c[0].addr, 0x80000000u);
    ck_assert_uint_eq(c[0].depth, 0);
    for (size_t i = 0; i < n; i++) {
        ck_assert_int_eq(c[i].status, PP_OK);
        if (strcmp(c[i].kind, "ROM table") == 0) {
            ck_assert_int_eq(c[i].cpu, -1);
            roms++;
        }
        if (strcmp(c[i].kind, "PMU") != 0)
            continue;
        ck_assert_int_ge(c[i].cpu, 0);
        ck_assert_uint_eq(c[i].addr, A76_PMU((unsigned)c[i].cpu));
        ck_assert_uint_eq(c[i].cls, 0x9);
        ck_assert_uint_eq(c[i].depth, 2);           /* root, cluster ROM, block */
        ck_assert_uint_eq(c[i].devarch & 0xFFFFu, 0x2A16);    /* PMUv3, ARCHPART 0xA16 */
        ck_assert_msg(strstr(c[i].name, "Cortex-A76"), "name '%s'", c[i].name);
        pmus |= 1u << c[i].cpu;
    }
    ck_assert_uint_eq(pmus, 0xF);
    ck_assert_uint_eq(roms, 2);
    pp_scan_free(c);
    pp_scan_free(NULL);
    pp_session_close(s);
}
END_TEST

static Suite *pubapi_suite(void)
{
    Suite *s = suite_create("pubapi");
    TCase *tc = tcase_create("status");

    tcase_add_test(tc, causes_have_fixed_numbers_names_and_texts);
    tcase_add_test(tc, healthy_core_status_has_evidence_and_no_remedy);
    tcase_add_test(tc, powered_down_core_status_names_the_cause_the_proof_and_a_remedy);
    tcase_add_test(tc, os_locked_core_status_is_the_os_lock);
    tcase_add_test(tc, status_of_a_core_index_out_of_range_is_invalid);
    suite_add_tcase(s, tc);

    tc = tcase_create("registers");
    tcase_add_test(tc, pmcr_and_pmcfgr_reads_give_named_fields_with_n_the_counters);
    tcase_add_test(tc, pmuv2_pmcr_gives_n_the_counters);
    tcase_add_test(tc, field_meanings_come_from_the_map);
    tcase_add_test(tc, pmccntr_is_read_and_written_as_64_bits);
    tcase_add_test(tc, written_registers_read_back);
    tcase_add_test(tc, unknown_register_is_not_found_with_a_suggestion);
    tcase_add_test(tc, writes_the_map_forbids_are_refused);
    tcase_add_test(tc, failed_read_carries_the_diagnosis);
    suite_add_tcase(s, tc);

    tc = tcase_create("events");
    tcase_add_test(tc, events_are_the_catalog_marked_from_pmceid);
    tcase_add_test(tc, events_of_an_unreachable_core_are_the_catalog_unchecked);
    suite_add_tcase(s, tc);

    tc = tcase_create("scan");
    tcase_add_test(tc, scan_lists_the_fourteen_components_with_their_cores);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(pubapi_suite());
    int failed;

    srunner_run_all(sr, CK_NORMAL);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

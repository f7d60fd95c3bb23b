/*
 * check_api.c - the public API (lib/pmuprobe.h) as a program linked
 * against the shared libpmuprobe sees it: sessions, cores, counter sets.
 * Linked against lib/libpmuprobe.la, so it can reach nothing internal.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "pmuprobe.h"

static struct pp_session *open_sim(const char *target, const char *fault)
{
    const char *faults[1] = { fault };
    struct pp_open_opts o = { .faults = faults, .nfaults = fault ? 1 : 0 };
    struct pp_session *s = NULL;
    char err[256];
    int rc = pp_session_open(target, "sim", &o, &s, err, sizeof(err));

    ck_assert_msg(rc == PP_OK, "%s", err);
    return s;
}

START_TEST(sim_session_lists_the_targets_cores_with_midr)
{
    struct pp_session *s = open_sim("a76-cluster", NULL);
    struct pp_core_info ci;

    ck_assert_uint_eq(pp_session_ncores(s), 4);
    ck_assert_int_eq(pp_session_core(s, 3, &ci), PP_OK);
    ck_assert_uint_eq(ci.cpu, 3);
    ck_assert_str_eq(ci.type, "cortex-a76");
    ck_assert(ci.midr_valid);
    ck_assert_uint_eq(ci.midr, 0x414fd0b1);
    ck_assert_uint_eq(ci.counters, 6);
    ck_assert_int_eq(pp_session_core(s, 4, &ci), PP_E_INVAL);
    pp_session_close(s);
}
END_TEST

START_TEST(powered_down_core_is_listed_without_midr)
{
    struct pp_session *s = open_sim("a76-cluster", "cpu1:off");
    struct pp_core_info ci;

    ck_assert_int_eq(pp_session_core(s, 1, &ci), PP_OK);
    ck_assert(!ci.midr_valid);
    pp_session_close(s);
}
END_TEST

START_TEST(unknown_target_is_not_found_with_a_message)
{
    struct pp_session *s = (struct pp_session *)&s;
    char err[256] = "";

    ck_assert_int_eq(pp_session_open("no-such-board", "sim", NULL, &s, err, sizeof(err)),
                     PP_E_NOTFOUND);
    ck_assert_ptr_null(s);
    ck_assert_ptr_nonnull(strstr(err, "no-such-board"));
}
END_TEST

/* open_fails(probe, opts, rc, text): pp_session_open refuses with rc, no
 * session, and err holding text. */
static void open_fails(const char *probe, const struct pp_open_opts *o, int want,
                       const char *text)
{
    struct pp_session *s = NULL;
    char err[512] = "";

    ck_assert_int_eq(pp_session_open("a76-cluster", probe, o, &s, err, sizeof(err)), want);
    ck_assert_ptr_null(s);
    ck_assert_msg(strstr(err, text), "probe '%s': err '%s' lacks '%s'", probe, err, text);
}

START_TEST(unknown_path_is_invalid_and_the_message_lists_every_path)
{
    open_fails("jtag9", NULL, PP_E_INVAL, "unknown access path");
    open_fails("jtag9", NULL, PP_E_INVAL, "openocd[:HOST[:PORT]], ftdi[:VID:PID");
}
END_TEST

/* Checked before anything is connected: none of these reaches a network
 * or USB call. */
START_TEST(malformed_openocd_specs_are_invalid)
{
    static const char *const bad[] = {
        "openocd:[exit]", "openocd:a;b", "openocd:$x:6666", "openocd:0", "openocd:65536",
        "openocd:::1", "openocd:[::1", "openocd:-host", "openocd:localhost:", "openocd:h:x",
    };

    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
        open_fails(bad[i], NULL, PP_E_INVAL, "expected openocd[:HOST[:PORT]]");
}
END_TEST

START_TEST(openocd_refuses_what_only_sim_or_own_stack_paths_take)
{
    const char *const faults[] = { "cpu1:powerdown" };
    struct pp_open_opts o = { .sim_time = PP_SIM_TIME_REALTIME };

    open_fails("openocd", &o, PP_E_INVAL, "belongs to pmuprobe-sim");
    o = (struct pp_open_opts){ .faults = faults, .nfaults = 1 };
    open_fails("openocd", &o, PP_E_INVAL, "faults need the simulated SoC");
    o = (struct pp_open_opts){ .reset = PP_RESET_SRST };
    open_fails("openocd", &o, PP_E_UNSUPPORTED, "OpenOCD drives the reset pins");
}
END_TEST

START_TEST(malformed_ftdi_specs_and_adapters_are_invalid)
{
    static const char *const bad[] = {
        "ftdi:0403", "ftdi:0403:6010:", "ftdi:xyz:6010", "ftdi:0403:16010", "ftdi@E",
        "ftdi:0403:6010@AB", "ftdi:0403:6010,bogus", "ftdi:0403:6010,desc=",
    };
    struct pp_open_opts o = { .adapter = "no-such-board" };

    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
        open_fails(bad[i], NULL, PP_E_INVAL, "expected ftdi[:VID:PID[:SERIAL]]");
    open_fails("ftdi:0403:6010", &o, PP_E_INVAL,
               "adapter 'no-such-board': unknown FTDI adapter layout");
    o.adapter = "custom:init=zz";
    open_fails("ftdi:0403:6010", &o, PP_E_INVAL, "adapter: ");
}
END_TEST

/* The chain is parsed before the link opens: nothing listens on port 1. */
START_TEST(jtag_chain_is_parsed_on_own_stack_paths_and_refused_elsewhere)
{
    struct pp_open_opts o = { .jtag_chain = "tdi,pl:irlen=x,dap,tdo" };

    open_fails("rbb:127.0.0.1:1", &o, PP_E_INVAL, "jtag-chain 'tdi,pl:irlen=x,dap,tdo': ");
    open_fails("ftdi:0403:6010", &o, PP_E_INVAL, "jtag-chain 'tdi,pl:irlen=x,dap,tdo': ");
    o.jtag_chain = "tdi,dap,tdo";
    open_fails("sim", &o, PP_E_INVAL, "not probe 'sim'");
    open_fails("openocd", &o, PP_E_INVAL, "not probe 'openocd'");
}
END_TEST

/* transport "swd" is ftdi's and cmsis-dap's alone, and has no JTAG
 * chain; refused before any link opens. */
START_TEST(swd_transport_is_ftdi_and_cmsis_dap_only_and_takes_no_chain)
{
    struct pp_open_opts o = { .transport = "swd" };

    open_fails("sim", &o, PP_E_INVAL,
               "transport 'swd' is supported on probes 'ftdi' and 'cmsis-dap' only");
    open_fails("rbb:127.0.0.1:1", &o, PP_E_INVAL, "not 'rbb'");
    o.adapter = "digilent-hs2";
    open_fails("ftdi:0403:6010", &o, PP_E_INVAL, "adapter 'digilent-hs2': --transport swd");
    o.adapter = NULL;
    o.jtag_chain = "tdi,dap,tdo";
    open_fails("ftdi:0403:6010", &o, PP_E_INVAL, "there is none with --transport swd");
    open_fails("cmsis-dap", &o, PP_E_INVAL, "there is none with --transport swd");
    o.transport = "spi";
    open_fails("ftdi:0403:6010", &o, PP_E_INVAL, "transport 'spi': expected jtag or swd");
}
END_TEST

START_TEST(sim_has_no_reset_pins)
{
    struct pp_open_opts o = { .reset = PP_RESET_TRST };

    open_fails("sim", &o, PP_E_UNSUPPORTED, "has no reset pins");
}
END_TEST

START_TEST(counters_count_up_from_zero_in_event_order)
{
    struct pp_session *s = open_sim("a76-cluster", NULL);
    struct pp_counters *c;
    uint64_t a[2], b[2];
    char err[256];

    ck_assert_int_eq(pp_counters_open(s, 2, "instructions,cycles", &c, err, sizeof(err)),
                     PP_OK);
    ck_assert_uint_eq(pp_counters_count(c), 2);
    ck_assert_str_eq(pp_counters_name(c, 1), "cycles");
    ck_assert_ptr_null(pp_counters_name(c, 2));
    ck_assert_int_eq(pp_counters_read(c, a, 2), PP_OK);
    ck_assert_int_eq(pp_counters_read(c, b, 2), PP_OK);
    ck_assert_uint_gt(b[0], a[0]);
    ck_assert_uint_gt(b[1], a[1]);
    ck_assert_int_eq(pp_counters_read(c, b, 3), PP_E_INVAL);
    ck_assert_int_eq(pp_counters_close(c), PP_OK);
    pp_session_close(s);
}
END_TEST

START_TEST(open_set_holds_the_external_claim_tag_and_close_releases_it)
{
    struct pp_session *s = open_sim("a76-cluster", NULL);
    struct pp_counters *c1;
    struct pp_core_info ci;
    uint32_t claim;

    ck_assert_int_eq(pp_session_core(s, 0, &ci), PP_OK);
    ck_assert_int_eq(pp_counters_open(s, 0, "cycles", &c1, NULL, 0), PP_OK);
    /* Claim tag 0 (external debugger) is set while the set is open. */
    ck_assert_int_eq(pp_bus_read32(pp_session_bus(s), ci.debug_base + 0xFA4 /* DBGCLAIMCLR reads the tags */, &claim), PP_OK);
    ck_assert_uint_eq(claim & 1, 1);
    pp_counters_close(c1);
    ck_assert_int_eq(pp_bus_read32(pp_session_bus(s), ci.debug_base + 0xFA4 /* DBGCLAIMCLR reads the tags */, &claim), PP_OK);
    ck_assert_uint_eq(claim & 1, 0);
    pp_session_close(s);
}
END_TEST

START_TEST(unknown_event_and_unknown_cpu_are_not_found)
{
    struct pp_session *s = open_sim("a76-cluster", NULL);
    struct pp_counters *c = (struct pp_counters *)&c;
    char err[256];

    ck_assert_int_eq(pp_counters_open(s, 0, "cycels", &c, err, sizeof(err)), PP_E_NOTFOUND);
    ck_assert_ptr_null(c);
    ck_assert_ptr_nonnull(strstr(err, "cycles"));
    ck_assert_int_eq(pp_counters_open(s, 9, "cycles", &c, err, sizeof(err)), PP_E_NOTFOUND);
    ck_assert_ptr_nonnull(strstr(err, "cpu9"));
    pp_session_close(s);
}
END_TEST

START_TEST(counters_on_a_powered_down_core_get_the_error_response)
{
    struct pp_session *s = open_sim("a76-cluster", "cpu1:off");
    struct pp_counters *c;
    char err[256];

    ck_assert_int_eq(pp_counters_open(s, 1, "cycles", &c, err, sizeof(err)), PP_E_SLVERR);
    ck_assert_int_eq(pp_counters_open(s, 0, "cycles", &c, err, sizeof(err)), PP_OK);
    pp_counters_close(c);
    pp_session_close(s);
}
END_TEST

static Suite *api_suite(void)
{
    Suite *s = suite_create("api");
    TCase *tc = tcase_create("session");

    tcase_add_test(tc, sim_session_lists_the_targets_cores_with_midr);
    tcase_add_test(tc, powered_down_core_is_listed_without_midr);
    tcase_add_test(tc, unknown_target_is_not_found_with_a_message);
    tcase_add_test(tc, unknown_path_is_invalid_and_the_message_lists_every_path);
    tcase_add_test(tc, malformed_openocd_specs_are_invalid);
    tcase_add_test(tc, openocd_refuses_what_only_sim_or_own_stack_paths_take);
    tcase_add_test(tc, malformed_ftdi_specs_and_adapters_are_invalid);
    tcase_add_test(tc, sim_has_no_reset_pins);
    tcase_add_test(tc, jtag_chain_is_parsed_on_own_stack_paths_and_refused_elsewhere);
    tcase_add_test(tc, swd_transport_is_ftdi_and_cmsis_dap_only_and_takes_no_chain);
    suite_add_tcase(s, tc);

    tc = tcase_create("counters");
    tcase_add_test(tc, counters_count_up_from_zero_in_event_order);
    tcase_add_test(tc, open_set_holds_the_external_claim_tag_and_close_releases_it);
    tcase_add_test(tc, unknown_event_and_unknown_cpu_are_not_found);
    tcase_add_test(tc, counters_on_a_powered_down_core_get_the_error_response);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(api_suite());
    int failed;

    srunner_run_all(sr, CK_NORMAL);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

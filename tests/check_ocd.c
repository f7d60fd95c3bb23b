/*
 * check_ocd.c - the openocd access path's TCL building (lib/bus/ocd_tcl.c)
 * and its RPC client (lib/bus/ocd_rpc.c) against a real OpenOCD 0.12.0.
 *
 * The RPC tests run $OPENOCD with the dummy adapter and no init: the TCL
 * server is all they need (spec/openocd.md 3), and a real TCL parser is
 * the only honest judge of the quoting.  The bus over OpenOCD is tested
 * against pmuprobe-sim by tests/openocd-path.test.
 */
#include <arpa/inet.h>
#include <check.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bus/ocd_rpc.h"
#include "bus/ocd_tcl.h"

/* --- TCL building and list splitting ---------------------------------- */

static char *built_word(const char *s)
{
    struct pp_tcl_buf b;
    char *out;

    pp_tcl_init(&b);
    pp_tcl_word(&b, s);
    out = strdup(pp_tcl_str(&b));
    pp_tcl_free(&b);
    return out;
}

START_TEST(plain_openocd_names_are_accepted)
{
    ck_assert(pp_tcl_name_ok("rpi3_a53.dap"));
    ck_assert(pp_tcl_name_ok("bcm2837.cpu0"));
    ck_assert(pp_tcl_name_ok("pmuprobe.apb-2"));
}
END_TEST

START_TEST(names_with_tcl_syntax_or_option_dashes_are_refused)
{
    static const char *const bad[] = {
        "", "-dap", "a b", "a;b", "a[b]", "$a", "a{b", "a\"b", "a\\b", "a\nb",
        "0123456789012345678901234567890123456789012345678901234567890123",
    };
    struct pp_tcl_buf b;

    pp_tcl_init(&b);
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        ck_assert_msg(!pp_tcl_name_ok(bad[i]), "accepted '%s'", bad[i]);
        ck_assert(!pp_tcl_name(&b, bad[i]));
    }
    ck_assert_str_eq(pp_tcl_str(&b), "");
    pp_tcl_free(&b);
}
END_TEST

/* Issue 9.5: a mem_ap name given to the library is checked before any
 * connection (port 1: were the check missing, the error would be a
 * refused connection instead). */
START_TEST(a_mem_ap_name_with_tcl_syntax_is_refused_before_connecting)
{
    static const char *const bad[] = { "[exit]", "$x", "a;b", "}{", "a\nb", "-dap" };

    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        struct pp_ocd_opts o = { .host = "127.0.0.1", .port = 1, .ap_hint = -1,
                                 .mem_ap = bad[i] };
        char err[256] = "";

        ck_assert_ptr_null(pp_bus_ocd_new(&o, err, sizeof(err)));
        ck_assert_msg(strstr(err, "is not a plain OpenOCD target name") != NULL,
                      "'%s': %s", bad[i], err);
    }
}
END_TEST

START_TEST(words_are_separated_and_numbers_written_in_hex_or_decimal)
{
    struct pp_tcl_buf b;

    pp_tcl_init(&b);
    pp_tcl_raw(&b, "t read_memory");
    pp_tcl_u32(&b, 0x80011000u);
    pp_tcl_uint(&b, 32);
    pp_tcl_raw(&b, " [list");
    pp_tcl_raw(&b, " {");
    pp_tcl_uint(&b, 7);
    pp_tcl_raw(&b, "}]");
    ck_assert_str_eq(pp_tcl_str(&b), "t read_memory 0x80011000 32 [list {7}]");
    pp_tcl_free(&b);
}
END_TEST

START_TEST(a_quoted_word_escapes_every_tcl_special_character)
{
    char *w = built_word("a b;[c]$d{e}\"f\\g#\nh");

    ck_assert_str_eq(w, "a\\ b\\;\\[c\\]\\$d\\{e\\}\\\"f\\\\g\\#\\nh");
    free(w);
    w = built_word("");
    ck_assert_str_eq(w, "{}");
    free(w);
}
END_TEST

START_TEST(split_handles_braces_quotes_and_backslashes)
{
    char **v;
    size_t n;

    ck_assert_int_eq(pp_tcl_split(" {a b} c\\ d \"e f\" {x {y z}} {} 0x1f\n", &v, &n), 0);
    ck_assert_uint_eq(n, 6);
    ck_assert_str_eq(v[0], "a b");
    ck_assert_str_eq(v[1], "c d");
    ck_assert_str_eq(v[2], "e f");
    ck_assert_str_eq(v[3], "x {y z}");
    ck_assert_str_eq(v[4], "");
    ck_assert_str_eq(v[5], "0x1f");
    ck_assert_ptr_null(v[6]);
    free(v);
}
END_TEST

START_TEST(split_refuses_unbalanced_lists)
{
    char **v;
    size_t n;

    ck_assert_int_eq(pp_tcl_split("{a b", &v, &n), -1);
    ck_assert_int_eq(pp_tcl_split("\"a b", &v, &n), -1);
    ck_assert_ptr_null(v);
}
END_TEST

START_TEST(split_of_an_empty_list_has_no_elements)
{
    char **v;
    size_t n;

    ck_assert_int_eq(pp_tcl_split("  \n", &v, &n), 0);
    ck_assert_uint_eq(n, 0);
    free(v);
}
END_TEST

START_TEST(numbers_parse_with_openocds_trailing_newline_only_when_whole)
{
    uint32_t v;

    ck_assert(pp_tcl_parse_u32("0x54770002\n", &v));
    ck_assert_uint_eq(v, 0x54770002u);
    ck_assert(pp_tcl_parse_u32("42", &v));
    ck_assert_uint_eq(v, 42);
    ck_assert(!pp_tcl_parse_u32("0x1 0x2", &v));
    ck_assert(!pp_tcl_parse_u32("E", &v));
    ck_assert(!pp_tcl_parse_u32("0x100000000", &v));
    ck_assert(!pp_tcl_parse_u32("-1", &v));
}
END_TEST

/* --- a real OpenOCD ----------------------------------------------------- */

static pid_t ocd_pid = -1;
static unsigned ocd_port;
static char ocd_dir[64];

/* Starts OpenOCD with the dummy adapter and its TCL server on a free
 * port (tcl_port 0; the port is read back from its log). */
static void ocd_up(void)
{
    const char *exe = getenv("OPENOCD") && *getenv("OPENOCD") ? getenv("OPENOCD") : "openocd";
    char logpath[128];

    snprintf(ocd_dir, sizeof(ocd_dir), "/tmp/check_ocd.XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(ocd_dir));
    snprintf(logpath, sizeof(logpath), "%s/openocd.log", ocd_dir);
    ocd_pid = fork();
    ck_assert_int_ge(ocd_pid, 0);
    if (ocd_pid == 0) {
        if (!freopen(logpath, "w", stderr) || !freopen("/dev/null", "w", stdout))
            _exit(127);
        execlp(exe, exe, "-c", "adapter driver dummy", "-c", "transport select jtag",
               "-c", "tcl_port 0", "-c", "telnet_port disabled", "-c", "gdb_port disabled",
               "-c", "noinit", (char *)NULL);
        _exit(127);
    }
    for (int tries = 0; tries < 100 && !ocd_port; tries++) {
        struct timespec ms50 = { 0, 50000000L };
        char line[256];
        FILE *f = fopen(logpath, "r");

        while (f && fgets(line, sizeof(line), f))
            if (sscanf(line, "Info : Listening on port %u for tcl connections", &ocd_port) == 1)
                break;
        if (f)
            fclose(f);
        if (!ocd_port)
            nanosleep(&ms50, NULL);
    }
    ck_assert_msg(ocd_port != 0, "OpenOCD (%s) did not open its TCL port; see %s", exe, logpath);
}

static void ocd_down(void)
{
    char cmd[128];

    if (ocd_pid > 0) {
        kill(ocd_pid, SIGTERM);
        waitpid(ocd_pid, NULL, 0);
    }
    ocd_pid = -1;
    ocd_port = 0;
    snprintf(cmd, sizeof(cmd), "rm -rf %s", ocd_dir);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", ocd_dir);
}

static struct pp_ocd_rpc *connect_ok(void)
{
    struct pp_ocd_rpc *r;
    char err[256];
    int rc = pp_ocd_connect("localhost", ocd_port, 0, &r, err, sizeof(err));

    ck_assert_msg(rc == PP_OK, "%s", err);
    return r;
}

static void eval_ok(struct pp_ocd_rpc *r, const char *script, struct pp_ocd_reply *rep)
{
    char err[256];
    int rc = pp_ocd_eval(r, script, 0, rep, err, sizeof(err));

    ck_assert_msg(rc == PP_OK, "%s: %s", script, err);
}

START_TEST(a_script_result_comes_back_with_status_zero_and_no_log)
{
    struct pp_ocd_rpc *r = connect_ok();
    struct pp_ocd_reply rep;

    eval_ok(r, "set a 20\nexpr {$a + 22}", &rep);
    ck_assert_int_eq(rep.code, 0);
    ck_assert_str_eq(rep.result, "42");
    ck_assert_str_eq(rep.log, "");
    pp_ocd_reply_free(&rep);
    pp_ocd_close(r);
}
END_TEST

START_TEST(a_failing_script_is_told_apart_from_an_empty_success)
{
    struct pp_ocd_rpc *r = connect_ok();
    struct pp_ocd_reply rep;

    eval_ok(r, "list", &rep);
    ck_assert_int_eq(rep.code, 0);
    pp_ocd_reply_free(&rep);
    eval_ok(r, "error boom", &rep);
    ck_assert_int_eq(rep.code, 1);
    ck_assert_str_eq(rep.result, "");
    ck_assert_str_eq(rep.log, "boom");
    pp_ocd_reply_free(&rep);
    pp_ocd_close(r);
}
END_TEST

START_TEST(an_openocd_command_failure_keeps_openocds_error_code)
{
    struct pp_ocd_rpc *r = connect_ok();
    struct pp_ocd_reply rep;

    eval_ok(r, "sleep notanumber", &rep);
    ck_assert_int_eq(rep.code, -603);    /* ERROR_COMMAND_ARGUMENT_INVALID */
    ck_assert_ptr_nonnull(strstr(rep.log, "Invalid command argument"));
    pp_ocd_reply_free(&rep);
    pp_ocd_close(r);
}
END_TEST

START_TEST(log_output_comes_back_beside_the_result)
{
    struct pp_ocd_rpc *r = connect_ok();
    struct pp_ocd_reply rep;

    eval_ok(r, "echo hello; expr 6*7", &rep);
    ck_assert_int_eq(rep.code, 0);
    ck_assert_str_eq(rep.result, "42");
    ck_assert_str_eq(rep.log, "hello\n");
    pp_ocd_reply_free(&rep);
    pp_ocd_close(r);
}
END_TEST

START_TEST(a_result_containing_the_frame_byte_arrives_whole)
{
    struct pp_ocd_rpc *r = connect_ok();
    struct pp_ocd_reply rep;

    eval_ok(r, "format a%cb 26", &rep);
    ck_assert_str_eq(rep.result, "a\x1a" "b");
    pp_ocd_reply_free(&rep);
    eval_ok(r, "expr 1", &rep);          /* the stream is still in step */
    ck_assert_str_eq(rep.result, "1");
    pp_ocd_reply_free(&rep);
    pp_ocd_close(r);
}
END_TEST

START_TEST(a_quoted_user_string_reaches_tcl_as_exactly_that_string)
{
    static const char *const evil[] = {
        "[set ::pwned 1]", "$::pwned", "}; set ::pwned 1; {", "a\\", "\"", "#x",
        "x\nset ::pwned 1", "{", "}", "a b\tc", "\\x41", "caf\xc3\xa9", "\x01\x7f",
    };
    struct pp_ocd_rpc *r = connect_ok();
    struct pp_ocd_reply rep;

    for (size_t i = 0; i < sizeof(evil) / sizeof(evil[0]); i++) {
        struct pp_tcl_buf b;

        pp_tcl_init(&b);
        pp_tcl_raw(&b, "set v");
        pp_tcl_word(&b, evil[i]);
        pp_tcl_raw(&b, "; set v");
        eval_ok(r, pp_tcl_str(&b), &rep);
        ck_assert_msg(rep.code == 0, "'%s': %s", evil[i], rep.log);
        ck_assert_str_eq(rep.result, evil[i]);
        pp_ocd_reply_free(&rep);
        pp_tcl_free(&b);
    }
    eval_ok(r, "info exists ::pwned", &rep);
    ck_assert_str_eq(rep.result, "0");
    pp_ocd_reply_free(&rep);
    pp_ocd_close(r);
}
END_TEST

START_TEST(a_raw_request_containing_the_frame_byte_is_refused_before_sending)
{
    struct pp_ocd_rpc *r = connect_ok();
    char err[256], *reply;
    size_t len;

    ck_assert_int_eq(pp_ocd_exchange(r, "expr 1\x1a" "expr 2", 0, &reply, &len, err,
                                     sizeof(err)), PP_E_INVAL);
    ck_assert(pp_ocd_connected(r));
    ck_assert_int_eq(pp_ocd_exchange(r, "expr 3", 0, &reply, &len, err, sizeof(err)), PP_OK);
    ck_assert_str_eq(reply, "3");
    free(reply);
    pp_ocd_close(r);
}
END_TEST

START_TEST(a_wrapped_script_carries_the_frame_byte_quoted)
{
    struct pp_ocd_rpc *r = connect_ok();
    struct pp_ocd_reply rep;

    eval_ok(r, "string length \"a\x1a" "b\"", &rep);
    ck_assert_int_eq(rep.code, 0);
    ck_assert_str_eq(rep.result, "3");
    pp_ocd_reply_free(&rep);
    pp_ocd_close(r);
}
END_TEST

START_TEST(every_request_counts_one_round_trip)
{
    struct pp_ocd_rpc *r = connect_ok();
    struct pp_ocd_reply rep;

    for (int i = 0; i < 3; i++) {
        eval_ok(r, "expr 1", &rep);
        pp_ocd_reply_free(&rep);
    }
    ck_assert_uint_eq(pp_ocd_round_trips(r), 3);
    pp_ocd_close(r);
}
END_TEST

START_TEST(openocd_exiting_is_reported_as_a_lost_connection)
{
    struct pp_ocd_rpc *r = connect_ok();
    struct pp_ocd_reply rep;
    char err[256];

    eval_ok(r, "shutdown", &rep);
    pp_ocd_reply_free(&rep);
    /* Sent before or after OpenOCD closes: either the send or the wait
     * for the reply meets the closed connection. */
    ck_assert_int_eq(pp_ocd_eval(r, "expr 1", 0, &rep, err, sizeof(err)), PP_E_LINK);
    ck_assert_ptr_nonnull(strstr(err, "lost"));
    ck_assert(!pp_ocd_connected(r));
    ck_assert_int_eq(pp_ocd_eval(r, "expr 1", 0, &rep, err, sizeof(err)), PP_E_LINK);
    ck_assert_ptr_nonnull(strstr(err, "not connected"));
    pp_ocd_close(r);
}
END_TEST

/* OpenOCD keeps its listening socket until it has exited. */
static int connect_after_exit(struct pp_ocd_rpc **r, char *err, size_t errlen)
{
    int rc = PP_OK;

    for (int tries = 0; tries < 100; tries++) {
        struct timespec ms50 = { 0, 50000000L };

        rc = pp_ocd_connect("127.0.0.1", ocd_port, 0, r, err, errlen);
        if (rc != PP_OK)
            break;
        pp_ocd_close(*r);
        nanosleep(&ms50, NULL);
    }
    return rc;
}

START_TEST(nothing_listening_is_a_link_error_naming_the_address)
{
    struct pp_ocd_rpc *r;
    char err[256];

    /* ocd_port was OpenOCD's: after shutdown nobody listens there. */
    ck_assert_int_eq(connect_after_exit(&r, err, sizeof(err)), PP_E_LINK);
    ck_assert_ptr_null(r);
    ck_assert_ptr_nonnull(strstr(err, "127.0.0.1:"));
    ck_assert_ptr_nonnull(strstr(err, "tcl_port"));
}
END_TEST

START_TEST(an_unknown_host_is_a_link_error)
{
    struct pp_ocd_rpc *r;
    char err[256];

    ck_assert_int_eq(pp_ocd_connect("no-such-host.invalid", 6666, 0, &r, err, sizeof(err)),
                     PP_E_LINK);
    ck_assert_ptr_nonnull(strstr(err, "no-such-host.invalid"));
}
END_TEST

/* --- a peer that is not OpenOCD --------------------------------------- */

/* A one-shot server on a loopback port: answers the first request with
 * the bytes given, then closes.  Returns the port; *pid is the child. */
static unsigned serve_once(const char *reply, size_t len, pid_t *pid)
{
    struct sockaddr_in a = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
    socklen_t alen = sizeof(a);
    int fd = socket(AF_INET, SOCK_STREAM, 0);

    ck_assert_int_ge(fd, 0);
    ck_assert_int_eq(bind(fd, (struct sockaddr *)&a, sizeof(a)), 0);
    ck_assert_int_eq(listen(fd, 1), 0);
    ck_assert_int_eq(getsockname(fd, (struct sockaddr *)&a, &alen), 0);
    *pid = fork();
    ck_assert_int_ge(*pid, 0);
    if (*pid == 0) {
        int c = accept(fd, NULL, NULL);
        char ch = 0;

        while (c >= 0 && ch != 0x1A && read(c, &ch, 1) == 1)
            ;
        if (c < 0 || write(c, reply, len) != (ssize_t)len)
            _exit(1);
        _exit(0);
    }
    close(fd);
    return ntohs(a.sin_port);
}

START_TEST(an_empty_reply_to_a_wrapped_script_is_a_protocol_error)
{
    struct pp_ocd_rpc *r;
    struct pp_ocd_reply rep;
    char err[256];
    pid_t pid;
    unsigned port = serve_once("\x1a", 1, &pid);

    ck_assert_int_eq(pp_ocd_connect("127.0.0.1", port, 0, &r, err, sizeof(err)), PP_OK);
    /* Its counts were never read: the parse must stop at the header
     * (found by tests/fuzz/fuzz_ocdreply.c, regress/ocdreply/). */
    ck_assert_int_eq(pp_ocd_eval(r, "expr 1", 0, &rep, err, sizeof(err)), PP_E_PROTO);
    ck_assert(!pp_ocd_connected(r));
    pp_ocd_close(r);
    waitpid(pid, NULL, 0);
}
END_TEST

static Suite *ocd_suite(void)
{
    Suite *s = suite_create("ocd");
    TCase *tc = tcase_create("tcl building");

    tcase_add_test(tc, plain_openocd_names_are_accepted);
    tcase_add_test(tc, names_with_tcl_syntax_or_option_dashes_are_refused);
    tcase_add_test(tc, a_mem_ap_name_with_tcl_syntax_is_refused_before_connecting);
    tcase_add_test(tc, words_are_separated_and_numbers_written_in_hex_or_decimal);
    tcase_add_test(tc, a_quoted_word_escapes_every_tcl_special_character);
    tcase_add_test(tc, split_handles_braces_quotes_and_backslashes);
    tcase_add_test(tc, split_refuses_unbalanced_lists);
    tcase_add_test(tc, split_of_an_empty_list_has_no_elements);
    tcase_add_test(tc, numbers_parse_with_openocds_trailing_newline_only_when_whole);
    suite_add_tcase(s, tc);

    tc = tcase_create("rpc replies");
    tcase_add_unchecked_fixture(tc, ocd_up, ocd_down);
    tcase_set_timeout(tc, 30);
    tcase_add_test(tc, a_script_result_comes_back_with_status_zero_and_no_log);
    tcase_add_test(tc, a_failing_script_is_told_apart_from_an_empty_success);
    tcase_add_test(tc, an_openocd_command_failure_keeps_openocds_error_code);
    tcase_add_test(tc, log_output_comes_back_beside_the_result);
    tcase_add_test(tc, a_result_containing_the_frame_byte_arrives_whole);
    tcase_add_test(tc, a_quoted_user_string_reaches_tcl_as_exactly_that_string);
    tcase_add_test(tc, a_raw_request_containing_the_frame_byte_is_refused_before_sending);
    tcase_add_test(tc, a_wrapped_script_carries_the_frame_byte_quoted);
    tcase_add_test(tc, every_request_counts_one_round_trip);
    suite_add_tcase(s, tc);

    /* Kills its OpenOCD: a case of its own, tests in this order. */
    tc = tcase_create("rpc connection loss");
    tcase_add_unchecked_fixture(tc, ocd_up, ocd_down);
    tcase_set_timeout(tc, 30);
    tcase_add_test(tc, openocd_exiting_is_reported_as_a_lost_connection);
    tcase_add_test(tc, nothing_listening_is_a_link_error_naming_the_address);
    tcase_add_test(tc, an_unknown_host_is_a_link_error);
    suite_add_tcase(s, tc);

    tc = tcase_create("not openocd");
    tcase_set_timeout(tc, 30);
    tcase_add_test(tc, an_empty_reply_to_a_wrapped_script_is_a_protocol_error);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(ocd_suite());
    int failed;

    srunner_run_all(sr, CK_NORMAL);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

/*
 * check_json.c - the --json writer (src/cli/json.c): escaping (RFC 8259
 * section 7), UTF-8 passed through or replaced, and the commas, nesting
 * and null handling every --json document relies on.
 */
#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"

/* What json_write_escaped makes of s, in a buffer the test frees. */
static char *escaped(const char *s)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);

    ck_assert_ptr_nonnull(f);
    json_write_escaped(f, s);
    fclose(f);
    return buf;
}

static void assert_escaped(const char *in, const char *want)
{
    char *got = escaped(in);

    ck_assert_str_eq(got, want);
    free(got);
}

START_TEST(quote_and_backslash_are_escaped)
{
    assert_escaped("a \"b\" c\\d", "\"a \\\"b\\\" c\\\\d\"");
}
END_TEST

START_TEST(newline_tab_and_return_use_their_short_escapes)
{
    assert_escaped("a\nb\tc\rd", "\"a\\nb\\tc\\rd\"");
}
END_TEST

START_TEST(other_control_characters_are_written_as_u_escapes)
{
    assert_escaped("\x01x\x1f\x7f", "\"\\u0001x\\u001f\\u007f\"");
}
END_TEST

START_TEST(valid_utf8_passes_through_unchanged)
{
    assert_escaped("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80", "\"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80\"");
}
END_TEST

START_TEST(invalid_utf8_bytes_become_replacement_characters)
{
    /* A lone continuation byte, a truncated sequence, an overlong '/' and
     * an encoded surrogate: none may reach a parser. */
    assert_escaped("a\x80" "b", "\"a\\ufffdb\"");
    assert_escaped("\xc3", "\"\\ufffd\"");
    assert_escaped("\xc0\xaf", "\"\\ufffd\\ufffd\"");
    assert_escaped("\xed\xa0\x80", "\"\\ufffd\\ufffd\\ufffd\"");
}
END_TEST

START_TEST(empty_string_is_two_quotes)
{
    assert_escaped("", "\"\"");
}
END_TEST

/* A whole document written with the writer, as text. */
struct doc {
    char *buf;
    size_t len;
    struct json j;
};

static void doc_open(struct doc *d)
{
    FILE *f = open_memstream(&d->buf, &d->len);

    ck_assert_ptr_nonnull(f);
    json_begin(&d->j, f);
}

static void doc_close(struct doc *d)
{
    ck_assert(json_end(&d->j));
    fclose(d->j.out);
}

/* Closes the document and checks it is exactly want. */
static void doc_expect(struct doc *d, const char *want)
{
    doc_close(d);
    ck_assert_str_eq(d->buf, want);
    free(d->buf);
}

START_TEST(object_members_are_separated_by_commas_one_per_line)
{
    struct doc d;

    doc_open(&d);
    json_object(&d.j);
    json_kuint(&d.j, "a", 1);
    json_kstring(&d.j, "b", "x");
    json_kbool(&d.j, "c", false);
    json_object_end(&d.j);
    doc_expect(&d, "{\n  \"a\": 1,\n  \"b\": \"x\",\n  \"c\": false\n}\n");
}
END_TEST

START_TEST(empty_object_and_array_stay_on_one_line)
{
    struct doc d;

    doc_open(&d);
    json_object(&d.j);
    json_key(&d.j, "o");
    json_object(&d.j);
    json_object_end(&d.j);
    json_key(&d.j, "a");
    json_array(&d.j);
    json_array_end(&d.j);
    json_object_end(&d.j);
    doc_expect(&d, "{\n  \"o\": {},\n  \"a\": []\n}\n");
}
END_TEST

START_TEST(nested_arrays_indent_by_depth)
{
    struct doc d;

    doc_open(&d);
    json_array(&d.j);
    json_uint(&d.j, 1);
    json_array(&d.j);
    json_int(&d.j, -2);
    json_array_end(&d.j);
    json_array_end(&d.j);
    doc_expect(&d, "[\n  1,\n  [\n    -2\n  ]\n]\n");
}
END_TEST

START_TEST(null_string_is_written_as_null)
{
    struct doc d;

    doc_open(&d);
    json_object(&d.j);
    json_kstring(&d.j, "remedy", NULL);
    json_knull(&d.j, "midr");
    json_object_end(&d.j);
    doc_expect(&d, "{\n  \"remedy\": null,\n  \"midr\": null\n}\n");
}
END_TEST

START_TEST(large_values_are_written_in_full)
{
    struct doc d;

    doc_open(&d);
    json_array(&d.j);
    json_uint(&d.j, UINT64_MAX);
    json_int(&d.j, INT64_MIN);
    json_array_end(&d.j);
    doc_expect(&d, "[\n  18446744073709551615,\n  -9223372036854775808\n]\n");
}
END_TEST

START_TEST(hex_members_are_zero_padded_strings)
{
    struct doc d;

    doc_open(&d);
    json_object(&d.j);
    json_khex(&d.j, "code_hex", 0x11, 4);
    json_object_end(&d.j);
    doc_expect(&d, "{\n  \"code_hex\": \"0x0011\"\n}\n");
}
END_TEST

START_TEST(keys_are_escaped_like_values)
{
    struct doc d;

    doc_open(&d);
    json_object(&d.j);
    json_kuint(&d.j, "a\"b", 0);
    json_object_end(&d.j);
    doc_expect(&d, "{\n  \"a\\\"b\": 0\n}\n");
}
END_TEST

START_TEST(write_error_is_reported_by_json_end)
{
    struct json j;
    FILE *f = fopen("/dev/full", "w");

    if (!f)
        return;    /* no /dev/full: nothing to check here */
    json_begin(&j, f);
    json_object(&j);
    json_kstring(&j, "k", "v");
    json_object_end(&j);
    ck_assert(!json_end(&j));
    fclose(f);
}
END_TEST

static Suite *json_suite(void)
{
    Suite *s = suite_create("json");
    TCase *tc = tcase_create("escaping");

    tcase_add_test(tc, quote_and_backslash_are_escaped);
    tcase_add_test(tc, newline_tab_and_return_use_their_short_escapes);
    tcase_add_test(tc, other_control_characters_are_written_as_u_escapes);
    tcase_add_test(tc, valid_utf8_passes_through_unchanged);
    tcase_add_test(tc, invalid_utf8_bytes_become_replacement_characters);
    tcase_add_test(tc, empty_string_is_two_quotes);
    suite_add_tcase(s, tc);

    tc = tcase_create("structure");
    tcase_add_test(tc, object_members_are_separated_by_commas_one_per_line);
    tcase_add_test(tc, empty_object_and_array_stay_on_one_line);
    tcase_add_test(tc, nested_arrays_indent_by_depth);
    tcase_add_test(tc, null_string_is_written_as_null);
    tcase_add_test(tc, large_values_are_written_in_full);
    tcase_add_test(tc, hex_members_are_zero_padded_strings);
    tcase_add_test(tc, keys_are_escaped_like_values);
    tcase_add_test(tc, write_error_is_reported_by_json_end);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(json_suite());
    int failed;

    srunner_run_all(sr, CK_NORMAL);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

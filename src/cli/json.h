/*
 * json.h - a small JSON writer for the commands' --json output (scan,
 * status, read, events): one document on stdout, pretty-printed with two
 * spaces, every string escaped in one place (RFC 8259 section 7).
 *
 * The writer tracks nesting and commas itself, so a caller writes keys and
 * values in order and never punctuation.  Output goes straight to the FILE;
 * json_end reports a write error the way cli_close_output does.
 */
#ifndef PP_JSON_H
#define PP_JSON_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define JSON_MAX_DEPTH 16

struct json {
    FILE *out;
    unsigned depth;
    bool has_items[JSON_MAX_DEPTH];  /* a comma is due before the next item */
    bool after_key;                  /* the value goes on the key's line */
};

void json_begin(struct json *j, FILE *out);
/* Ends the document with a newline; false when the stream has an error. */
bool json_end(struct json *j);

void json_object(struct json *j);
void json_object_end(struct json *j);
void json_array(struct json *j);
void json_array_end(struct json *j);
/* The key of the next value (inside an object). */
void json_key(struct json *j, const char *key);

/* Values.  json_string(NULL) writes null. */
void json_string(struct json *j, const char *s);
void json_uint(struct json *j, uint64_t v);
void json_int(struct json *j, int64_t v);
void json_bool(struct json *j, bool v);
void json_null(struct json *j);

/* key + value in one call, for the common case. */
void json_kstring(struct json *j, const char *key, const char *s);
void json_kuint(struct json *j, const char *key, uint64_t v);
void json_kint(struct json *j, const char *key, int64_t v);
void json_kbool(struct json *j, const char *key, bool v);
void json_knull(struct json *j, const char *key);
/* "0x%0*X" as a string, for codes scripts compare as text ("0x0011"). */
void json_khex(struct json *j, const char *key, uint64_t v, int digits);

/* Writes s as a quoted JSON string: ", \ and control characters escaped,
 * bytes that are not valid UTF-8 replaced by U+FFFD so the document always
 * parses.  Exposed for the tests of the writer. */
void json_write_escaped(FILE *out, const char *s);

#endif

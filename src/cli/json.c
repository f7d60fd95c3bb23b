/*
 * json.c - the escaping JSON writer behind every --json output.
 * Written here rather than taken from a library: the four commands need
 * objects, arrays, strings and integers only, and a hundred lines keep
 * the CLI free of another run-time dependency.
 */
#include <inttypes.h>
#include <string.h>

#include "json.h"

void json_begin(struct json *j, FILE *out)
{
    memset(j, 0, sizeof(*j));
    j->out = out;
}

bool json_end(struct json *j)
{
    fputc('\n', j->out);
    return fflush(j->out) == 0 && !ferror(j->out);
}

/* Deeper than any command nests shares the last slot: commas may then be
 * wrong, but nothing is written out of bounds. */
static bool *slot(struct json *j)
{
    return &j->has_items[j->depth < JSON_MAX_DEPTH ? j->depth : JSON_MAX_DEPTH - 1];
}

static void indent(struct json *j)
{
    fputc('\n', j->out);
    for (unsigned i = 0; i < j->depth; i++)
        fputs("  ", j->out);
}

/* Before any value or key: the comma and the new line it needs. */
static void item(struct json *j)
{
    if (j->after_key) {
        j->after_key = false;
        return;
    }
    if (j->depth == 0)
        return;
    if (*slot(j))
        fputc(',', j->out);
    *slot(j) = true;
    indent(j);
}

static void nest(struct json *j, char c)
{
    item(j);
    fputc(c, j->out);
    j->depth++;
    *slot(j) = false;
}

static void unnest(struct json *j, char c)
{
    bool had = *slot(j);

    if (j->depth > 0)
        j->depth--;
    if (had)
        indent(j);
    fputc(c, j->out);
}

void json_object(struct json *j)
{
    nest(j, '{');
}

void json_object_end(struct json *j)
{
    unnest(j, '}');
}

void json_array(struct json *j)
{
    nest(j, '[');
}

void json_array_end(struct json *j)
{
    unnest(j, ']');
}

void json_key(struct json *j, const char *key)
{
    item(j);
    json_write_escaped(j->out, key);
    fputs(": ", j->out);
    j->after_key = true;
}

/* Length of the valid UTF-8 sequence at s, or 0 (RFC 3629 section 4:
 * no overlong forms, no surrogates, nothing above U+10FFFF). */
static size_t utf8_len(const unsigned char *s)
{
    unsigned char c = s[0];
    size_t n;
    uint32_t cp;

    if (c >= 0xC2 && c <= 0xDF)
        n = 2, cp = c & 0x1Fu;
    else if (c >= 0xE0 && c <= 0xEF)
        n = 3, cp = c & 0x0Fu;
    else if (c >= 0xF0 && c <= 0xF4)
        n = 4, cp = c & 0x07u;
    else
        return 0;
    for (size_t i = 1; i < n; i++) {
        if ((s[i] & 0xC0u) != 0x80u)
            return 0;
        cp = (cp << 6) | (s[i] & 0x3Fu);
    }
    if ((n == 3 && (cp < 0x800 || (cp >= 0xD800 && cp <= 0xDFFF))) ||
        (n == 4 && (cp < 0x10000 || cp > 0x10FFFF)))
        return 0;
    return n;
}

void json_write_escaped(FILE *out, const char *s)
{
    const unsigned char *p = (const unsigned char *)s;

    fputc('"', out);
    while (*p) {
        size_t n;

        switch (*p) {
        case '"':  fputs("\\\"", out); p++; continue;
        case '\\': fputs("\\\\", out); p++; continue;
        case '\n': fputs("\\n", out); p++; continue;
        case '\r': fputs("\\r", out); p++; continue;
        case '\t': fputs("\\t", out); p++; continue;
        default: break;
        }
        if (*p < 0x20 || *p == 0x7F) {
            fprintf(out, "\\u%04x", *p);
            p++;
        } else if (*p < 0x80) {
            fputc(*p++, out);
        } else if ((n = utf8_len(p)) != 0) {
            fwrite(p, 1, n, out);
            p += n;
        } else {
            fputs("\\ufffd", out);
            p++;
        }
    }
    fputc('"', out);
}

void json_string(struct json *j, const char *s)
{
    if (!s) {
        json_null(j);
        return;
    }
    item(j);
    json_write_escaped(j->out, s);
}

void json_uint(struct json *j, uint64_t v)
{
    item(j);
    fprintf(j->out, "%" PRIu64, v);
}

void json_int(struct json *j, int64_t v)
{
    item(j);
    fprintf(j->out, "%" PRId64, v);
}

void json_bool(struct json *j, bool v)
{
    item(j);
    fputs(v ? "true" : "false", j->out);
}

void json_null(struct json *j)
{
    item(j);
    fputs("null", j->out);
}

void json_kstring(struct json *j, const char *key, const char *s)
{
    json_key(j, key);
    json_string(j, s);
}

void json_kuint(struct json *j, const char *key, uint64_t v)
{
    json_key(j, key);
    json_uint(j, v);
}

void json_kint(struct json *j, const char *key, int64_t v)
{
    json_key(j, key);
    json_int(j, v);
}

void json_kbool(struct json *j, const char *key, bool v)
{
    json_key(j, key);
    json_bool(j, v);
}

void json_knull(struct json *j, const char *key)
{
    json_key(j, key);
    json_null(j);
}

void json_khex(struct json *j, const char *key, uint64_t v, int digits)
{
    char buf[24];

    snprintf(buf, sizeof(buf), "0x%0*" PRIX64, digits, v);
    json_kstring(j, key, buf);
}

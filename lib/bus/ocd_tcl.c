/*
 * ocd_tcl.c - TCL script building and list splitting for the openocd
 * access path.  The quoting follows the TCL/Jim parser rules (the twelve
 * rules of Tcl(n); Jim parses words the same way): a backslash before any
 * character makes that character literal, so escaping every character
 * outside a small safe alphabet yields one word with exactly the value
 * given, whatever surrounds it (also inside a braced script, where an
 * escaped brace does not count towards nesting).
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bus/ocd_tcl.h"

#define NAME_MAX_LEN 63

void pp_tcl_init(struct pp_tcl_buf *b)
{
    memset(b, 0, sizeof(*b));
}

void pp_tcl_free(struct pp_tcl_buf *b)
{
    free(b->s);
    memset(b, 0, sizeof(*b));
}

const char *pp_tcl_str(const struct pp_tcl_buf *b)
{
    if (b->oom)
        return NULL;
    return b->s ? b->s : "";
}

static bool reserve(struct pp_tcl_buf *b, size_t more)
{
    size_t need = b->len + more + 1;
    char *s;

    if (b->oom)
        return false;
    if (need <= b->cap)
        return true;
    size_t cap = b->cap ? b->cap : 256;
    while (cap < need)
        cap *= 2;
    s = realloc(b->s, cap);
    if (!s) {
        b->oom = true;
        return false;
    }
    b->s = s;
    b->cap = cap;
    return true;
}

static void put(struct pp_tcl_buf *b, const char *text, size_t n)
{
    if (!reserve(b, n))
        return;
    memcpy(b->s + b->len, text, n);
    b->len += n;
    b->s[b->len] = '\0';
}

void pp_tcl_raw(struct pp_tcl_buf *b, const char *text)
{
    put(b, text, strlen(text));
}

/* A word needs a separator unless it starts the script, a line, a
 * command substitution or a braced list. */
static void separate(struct pp_tcl_buf *b)
{
    char last;

    if (!b->len)
        return;
    last = b->s[b->len - 1];
    if (last == ' ' || last == '\n' || last == '\t' || last == '[' || last == '{')
        return;
    put(b, " ", 1);
}

void pp_tcl_u32(struct pp_tcl_buf *b, uint32_t v)
{
    char num[16];

    separate(b);
    put(b, num, (size_t)snprintf(num, sizeof(num), "0x%" PRIx32, v));
}

void pp_tcl_uint(struct pp_tcl_buf *b, uint64_t v)
{
    char num[24];

    separate(b);
    put(b, num, (size_t)snprintf(num, sizeof(num), "%" PRIu64, v));
}

bool pp_tcl_name_ok(const char *name)
{
    size_t n = 0;

    if (!name || !*name || *name == '-')
        return false;
    for (; name[n]; n++) {
        unsigned char c = (unsigned char)name[n];

        if (n >= NAME_MAX_LEN || !(isalnum(c) || c == '_' || c == '.' || c == '-'))
            return false;
    }
    return true;
}

bool pp_tcl_name(struct pp_tcl_buf *b, const char *name)
{
    if (!pp_tcl_name_ok(name))
        return false;
    separate(b);
    pp_tcl_raw(b, name);
    return true;
}

/* Characters that stand for themselves anywhere in a word. */
static bool safe_char(unsigned char c)
{
    return isalnum(c) || c >= 0x80 || strchr("_.,:/+=@%-", c) != NULL;
}

void pp_tcl_word(struct pp_tcl_buf *b, const char *s)
{
    separate(b);
    if (!*s) {
        put(b, "{}", 2);
        return;
    }
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        char esc[8];

        if (safe_char(c))
            put(b, (const char *)&c, 1);
        else if (c == '\n')
            put(b, "\\n", 2);
        else if (c == '\t')
            put(b, "\\t", 2);
        else if (c == '\r')
            put(b, "\\r", 2);
        else if (c < 0x20 || c == 0x7f)   /* octal: always three digits at most */
            put(b, esc, (size_t)snprintf(esc, sizeof(esc), "\\%03o", c));
        else {
            esc[0] = '\\';
            esc[1] = (char)c;
            put(b, esc, 2);
        }
    }
}

/* --- list splitting ------------------------------------------------- */

static bool is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

static int hexval(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    c = (char)tolower((unsigned char)c);
    return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/* One backslash sequence at *p (just past the backslash); writes the
 * byte it stands for and returns the number of input characters used. */
static size_t unescape(const char *p, char *out)
{
    static const char from[] = "abfnrtv", to[] = "\a\b\f\n\r\t\v";
    const char *m;
    int v = 0;
    size_t n = 0;

    if (!*p) {
        *out = '\\';
        return 0;
    }
    if (*p == 'x') {
        while (n < 2 && hexval(p[1 + n]) >= 0)
            v = v * 16 + hexval(p[1 + n++]);
        *out = n ? (char)v : 'x';
        return n + 1;
    }
    if (*p >= '0' && *p <= '7') {
        while (n < 3 && p[n] >= '0' && p[n] <= '7')
            v = v * 8 + (p[n++] - '0');
        *out = (char)v;
        return n;
    }
    m = strchr(from, *p);
    *out = m ? to[m - from] : *p;
    return 1;
}

/* Scans one element starting at p (not white space).  Copies its value
 * to out (when non-NULL) and returns the length written, or (size_t)-1
 * on a malformed element; *end gets the position after it. */
static size_t scan_element(const char *p, char *out, const char **end)
{
    size_t n = 0;

    if (*p == '{') {
        int depth = 1;
        const char *q = ++p;

        for (; *q && depth; q++) {
            if (*q == '\\' && q[1])
                q++;
            else if (*q == '{')
                depth++;
            else if (*q == '}')
                depth--;
        }
        if (depth)
            return (size_t)-1;
        n = (size_t)(q - 1 - p);
        if (out)
            memcpy(out, p, n);
        *end = q;
        return n;
    }
    bool quoted = *p == '"';
    if (quoted)
        p++;
    while (*p && (quoted ? *p != '"' : !is_space(*p))) {
        char c = *p++;

        if (c == '\\')
            p += unescape(p, &c);
        if (out)
            out[n] = c;
        n++;
    }
    if (quoted) {
        if (*p != '"')
            return (size_t)-1;
        p++;
    }
    *end = p;
    return n;
}

int pp_tcl_split(const char *list, char ***elems, size_t *n)
{
    size_t count = 0, bytes = 0;
    const char *p = list, *end;
    char **v, *text;

    *elems = NULL;
    *n = 0;
    /* First pass: count and size, so one allocation holds everything. */
    for (;;) {
        while (is_space(*p))
            p++;
        if (!*p)
            break;
        size_t len = scan_element(p, NULL, &end);
        if (len == (size_t)-1)
            return -1;
        count++;
        bytes += len + 1;
        p = end;
    }
    v = malloc((count + 1) * sizeof(char *) + bytes + 1);
    if (!v)
        return -1;
    text = (char *)(v + count + 1);
    p = list;
    for (size_t i = 0; i < count; i++) {
        while (is_space(*p))
            p++;
        size_t len = scan_element(p, text, &end);
        text[len] = '\0';
        v[i] = text;
        text += len + 1;
        p = end;
    }
    v[count] = NULL;
    *elems = v;
    *n = count;
    return 0;
}

bool pp_tcl_parse_u64(const char *s, uint64_t *v)
{
    char *end;
    unsigned long long x;

    while (is_space(*s))
        s++;
    if (!isdigit((unsigned char)*s))
        return false;
    errno = 0;
    x = strtoull(s, &end, 0);
    if (errno || end == s)
        return false;
    while (is_space(*end))
        end++;
    if (*end)
        return false;
    *v = x;
    return true;
}

bool pp_tcl_parse_u32(const char *s, uint32_t *v)
{
    uint64_t x;

    if (!pp_tcl_parse_u64(s, &x) || x > UINT32_MAX)
        return false;
    *v = (uint32_t)x;
    return true;
}

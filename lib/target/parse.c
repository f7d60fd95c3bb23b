/*
 * parse.c - reads the text of a target description: lines, comments,
 * [sections] and key = value pairs (man/pmuprobe-target.5).  Values are
 * checked for form here; defaults and the checks that need the whole file
 * are in resolve.c.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "target/keys.h"

#define LINE_MAX_LEN 1024
#define CPU_MAX      4095

struct section {
    enum tk_section kind;
    unsigned line;
    unsigned first, last;            /* cpu range, or the cluster id */
    struct tk_entity *cluster;       /* [cluster N] */
    unsigned seen[K_COUNT];          /* line a key was set at in this section */
    char label[32];                  /* "core 0-3": prefix of messages */
};

int tk_fail(struct tk_state *st, unsigned line, const char *fmt, ...)
{
    va_list ap;
    int n;

    if (!st->err || st->errlen == 0)
        return PP_E_PARSE;
    n = snprintf(st->err, st->errlen, "%s:%u: ", st->name, line);
    if (n < 0 || (size_t)n >= st->errlen)
        return PP_E_PARSE;
    va_start(ap, fmt);
    vsnprintf(st->err + n, st->errlen - (size_t)n, fmt, ap);
    va_end(ap);
    return PP_E_PARSE;
}

static bool is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v';
}

static char *trim(char *s)
{
    size_t n;

    while (is_space(*s))
        s++;
    n = strlen(s);
    while (n && is_space(s[n - 1]))
        s[--n] = '\0';
    return s;
}

/* A '#' at the start or after whitespace starts a comment; one inside a
 * word ("a#b") does not, so values such as colours or URLs survive. */
static void strip_comment(char *s)
{
    for (char *p = s; *p; p++)
        if (*p == '#' && (p == s || is_space(p[-1]))) {
            *p = '\0';
            return;
        }
}

static bool parse_cpu(const char *s, unsigned *out, const char **end)
{
    unsigned long v = 0;
    const char *p = s;

    while (*p >= '0' && *p <= '9' && v <= CPU_MAX)
        v = v * 10 + (unsigned long)(*p++ - '0');
    if (p == s || v > CPU_MAX)
        return false;
    *out = (unsigned)v;
    *end = p;
    return true;
}

static struct tk_entity *find_entity(struct tk_entity *e, unsigned n, unsigned id)
{
    for (unsigned i = 0; i < n; i++)
        if (e[i].id == id)
            return &e[i];
    return NULL;
}

static int open_soc(struct tk_state *st, struct section *sec)
{
    if (st->have_soc)
        return tk_fail(st, sec->line, "a second [soc] section (the first is at line %u; "
                       "expected exactly one)", st->soc_line);
    st->have_soc = true;
    st->soc_line = sec->line;
    snprintf(sec->label, sizeof(sec->label), "soc");
    return PP_OK;
}

static int open_cluster(struct tk_state *st, struct section *sec, const char *arg)
{
    const char *end;
    unsigned id;
    struct tk_entity *old;

    if (!parse_cpu(arg, &id, &end) || *end || id > 255)
        return tk_fail(st, sec->line, "[cluster %s]: '%s' is not a cluster number "
                       "(expected 0..255, as in [cluster 0])", arg, arg);
    old = find_entity(st->cl, st->ncl, id);
    if (old)
        return tk_fail(st, sec->line, "cluster %u is defined twice (first at line %u)",
                       id, old->line);
    if (st->ncl == PP_MAX_CLUSTERS)
        return tk_fail(st, sec->line, "more than %d clusters (PP_MAX_CLUSTERS)",
                       PP_MAX_CLUSTERS);
    sec->cluster = &st->cl[st->ncl++];
    sec->cluster->id = id;
    sec->cluster->line = sec->line;
    sec->first = sec->last = id;
    snprintf(sec->label, sizeof(sec->label), "cluster %u", id);
    return PP_OK;
}

static int open_core(struct tk_state *st, struct section *sec, const char *arg)
{
    const char *p;
    unsigned first, last, fresh = 0;

    if (!parse_cpu(arg, &first, &p))
        return tk_fail(st, sec->line, "[core %s]: '%s' is not a cpu number or range "
                       "(expected [core N] or [core N-M], N from 0 to %d)", arg, arg, CPU_MAX);
    last = first;
    while (is_space(*p))
        p++;
    if (*p == '-') {
        p++;
        while (is_space(*p))
            p++;
        if (!parse_cpu(p, &last, &p))
            return tk_fail(st, sec->line, "[core %s]: the range has no valid end "
                           "(expected [core N-M], M from 0 to %d)", arg, CPU_MAX);
    }
    if (*p)
        return tk_fail(st, sec->line, "[core %s]: unexpected '%s' (expected [core N] or "
                       "[core N-M])", arg, p);
    if (last < first)
        return tk_fail(st, sec->line, "[core %u-%u]: the cpu range is reversed "
                       "(expected first <= last, as in [core %u-%u])", first, last, last, first);
    for (unsigned c = first; c <= last; c++)
        if (!find_entity(st->co, st->nco, c) && st->nco + ++fresh > PP_MAX_CORES)
            return tk_fail(st, sec->line, "[core %s]: more than %d cores (PP_MAX_CORES)",
                           arg, PP_MAX_CORES);
    for (unsigned c = first; c <= last; c++) {
        if (find_entity(st->co, st->nco, c))
            continue;
        st->co[st->nco].id = c;
        st->co[st->nco].line = sec->line;
        st->nco++;
    }
    sec->first = first;
    sec->last = last;
    if (first == last)
        snprintf(sec->label, sizeof(sec->label), "core %u", first);
    else
        snprintf(sec->label, sizeof(sec->label), "core %u-%u", first, last);
    return PP_OK;
}

static int open_section(struct tk_state *st, struct section *sec, char *line, unsigned lineno)
{
    char *body, *arg;
    size_t n;

    strip_comment(line);
    line = trim(line);
    n = strlen(line);
    if (line[n - 1] != ']')
        return tk_fail(st, lineno, "'%s' is not a section header (expected [soc], "
                       "[cluster N], [core N] or [core N-M])", line);
    line[n - 1] = '\0';
    body = trim(line + 1);
    arg = body + strcspn(body, " \t");
    if (*arg)
        *arg++ = '\0';
    arg = trim(arg);

    memset(sec, 0, sizeof(*sec));
    sec->line = lineno;
    if (strcmp(body, "soc") == 0 && *arg == '\0') {
        sec->kind = TS_SOC;
        return open_soc(st, sec);
    }
    if (strcmp(body, "cluster") == 0 && *arg) {
        sec->kind = TS_CLUSTER;
        return open_cluster(st, sec, arg);
    }
    if (strcmp(body, "core") == 0 && *arg) {
        sec->kind = TS_CORE;
        return open_core(st, sec, arg);
    }
    return tk_fail(st, lineno, "unknown section [%s%s%s] (expected [soc], [cluster N], "
                   "[core N] or [core N-M])", body, *arg ? " " : "", arg);
}

static void sections_of(const struct tk_def *def, char *buf, size_t len)
{
    static const char *const names[] = { "[soc]", "[cluster N]", "[core N]" };
    size_t used = 0;

    buf[0] = '\0';
    for (unsigned s = 0; s < 3; s++)
        if (def->sections & (1u << s)) {
            int w = snprintf(buf + used, len - used, "%s%s", used ? " or " : "", names[s]);
            if (w > 0 && (size_t)w < len - used)
                used += (size_t)w;
        }
}

static int unknown_key(struct tk_state *st, const struct section *sec, const char *key,
                       unsigned lineno)
{
    const struct tk_def *def = tk_key_find(key);
    const char *hint;
    char where[64];

    if (def) {
        sections_of(def, where, sizeof(where));
        return tk_fail(st, lineno, "%s: unknown key '%s' in %s (it belongs in %s)",
                       sec->label, key, tk_section_name(sec->kind), where);
    }
    hint = tk_key_suggest(key, sec->kind);
    if (hint)
        return tk_fail(st, lineno, "%s: unknown key '%s' (did you mean '%s'?)",
                       sec->label, key, hint);
    return tk_fail(st, lineno, "%s: unknown key '%s' (see pmuprobe-target(5) for the keys "
                   "of %s)", sec->label, key, tk_section_name(sec->kind));
}

static int store_string(struct tk_state *st, const struct tk_def *def, const char *value,
                        unsigned lineno)
{
    char *dst = def->id == K_NAME ? st->t->name : st->t->description;
    size_t cap = def->id == K_NAME ? sizeof(st->t->name) : sizeof(st->t->description);

    if (strlen(value) >= cap)
        return tk_fail(st, lineno, "soc: '%s' is %zu characters long (expected %s)",
                       def->name, strlen(value), def->expect);
    memcpy(dst, value, strlen(value) + 1);
    return PP_OK;
}

static int set_key(struct tk_state *st, struct section *sec, const char *key,
                   const char *value, unsigned lineno)
{
    const struct tk_def *def = tk_key_find(key);
    struct tk_val v;
    char msg[400];
    int rc;

    if (!def || !(def->sections & (1u << sec->kind)))
        return unknown_key(st, sec, key, lineno);
    if (sec->seen[def->id])
        return tk_fail(st, lineno, "%s: '%s' is set twice in one section (first at line %u; "
                       "a key may appear once per section)", sec->label, key,
                       sec->seen[def->id]);
    sec->seen[def->id] = lineno;
    if (*value == '\0')
        return tk_fail(st, lineno, "%s: '%s' has no value (expected %s)", sec->label, key,
                       def->expect ? def->expect : "yes/no, on/off, true/false or 1/0");

    memset(&v, 0, sizeof(v));
    rc = tk_value_parse(def, value, sec->kind == TS_CORE, &v, msg, sizeof(msg));
    if (rc != PP_OK)
        return tk_fail(st, lineno, "%s: %s", sec->label, msg);
    v.set = true;
    v.line = lineno;
    v.first = sec->first;

    switch (sec->kind) {
    case TS_SOC:
        if (def->kind == TK_STRING)
            return store_string(st, def, value, lineno);
        if (def->kind == TK_CHAIN)  /* value.c checked it: cannot fail */
            pp_jtag_chain_parse(value, &st->t->jtag, NULL, 0);
        st->soc[def->id] = v;
        break;
    case TS_CLUSTER:
        sec->cluster->v[def->id] = v;
        break;
    case TS_CORE:
        /* A later section overrides an earlier one, per core. */
        for (unsigned c = sec->first; c <= sec->last; c++)
            find_entity(st->co, st->nco, c)->v[def->id] = v;
        break;
    }
    return PP_OK;
}

/* Unquotes a "double quoted" value in place (\" and \\ escapes). */
static int unquote(struct tk_state *st, char *value, unsigned lineno)
{
    char *r = value + 1, *w = value;

    for (; *r && *r != '"'; r++) {
        if (*r == '\\' && (r[1] == '"' || r[1] == '\\'))
            r++;
        *w++ = *r;
    }
    if (*r != '"')
        return tk_fail(st, lineno, "unterminated quoted value (expected a closing '\"')");
    *w = '\0';
    r = trim(r + 1);
    if (*r && *r != '#')
        return tk_fail(st, lineno, "unexpected '%s' after a quoted value (expected a "
                       "# comment or nothing)", r);
    return PP_OK;
}

static int parse_line(struct tk_state *st, struct section *sec, bool *in_section,
                      char *line, unsigned lineno)
{
    char *eq, *key, *value;
    int rc;

    line = trim(line);
    if (*line == '\0' || *line == '#')
        return PP_OK;
    if (*line == '[') {
        rc = open_section(st, sec, line, lineno);
        *in_section = (rc == PP_OK);
        return rc;
    }
    eq = strchr(line, '=');
    if (!eq) {
        strip_comment(line);
        return tk_fail(st, lineno, "'%s' is neither 'key = value' nor a [section]",
                       trim(line));
    }
    *eq = '\0';
    key = trim(line);
    value = trim(eq + 1);
    if (!*in_section)
        return tk_fail(st, lineno, "'%s' comes before any section (expected [soc] first)",
                       key);
    if (*key == '\0')
        return tk_fail(st, lineno, "%s: '= %s' has no key (expected key = value)",
                       sec->label, value);
    if (*value == '"') {
        rc = unquote(st, value, lineno);
        if (rc != PP_OK)
            return rc;
    } else {
        strip_comment(value);
        value = trim(value);
    }
    return set_key(st, sec, key, value, lineno);
}

static int parse_text(struct tk_state *st, const char *text)
{
    struct section *sec = calloc(1, sizeof(*sec));
    char line[LINE_MAX_LEN];
    unsigned lineno = 0;
    bool in_section = false;
    int rc = PP_OK;

    if (!sec)
        return PP_E_NOMEM;
    while (*text && rc == PP_OK) {
        size_t n = strcspn(text, "\n");

        lineno++;
        if (n >= sizeof(line)) {
            rc = tk_fail(st, lineno, "line is %zu characters long (expected at most %d)",
                         n, LINE_MAX_LEN - 1);
            break;
        }
        memcpy(line, text, n);
        line[n] = '\0';
        if (memchr(line, '\0', n))
            rc = tk_fail(st, lineno, "NUL byte in the text (expected a text file)");
        else
            rc = parse_line(st, sec, &in_section, line, lineno);
        text += n + (text[n] == '\n');
    }
    st->last_line = lineno ? lineno : 1;
    free(sec);
    return rc;
}

int pp_target_parse(const char *text, const char *name, struct pp_target **out,
                    char *err, size_t errlen)
{
    return pp_target_parse_ex(text, name, NULL, out, err, errlen);
}

int pp_target_parse_ex(const char *text, const char *name,
                       const struct pp_core_type *const types[PP_MAX_CORES],
                       struct pp_target **out, char *err, size_t errlen)
{
    struct tk_state *st;
    int rc;

    if (err && errlen)
        err[0] = '\0';
    if (!text || !out)
        return PP_E_INVAL;
    *out = NULL;
    st = calloc(1, sizeof(*st));
    if (!st)
        return PP_E_NOMEM;
    st->t = calloc(1, sizeof(*st->t));
    if (!st->t) {
        free(st);
        return PP_E_NOMEM;
    }
    st->name = name ? name : "<string>";
    st->types = types;
    st->err = err;
    st->errlen = errlen;
    snprintf(st->t->path, sizeof(st->t->path), "%s", st->name);

    rc = parse_text(st, text);
    if (rc == PP_OK)
        rc = tk_resolve(st);
    if (rc == PP_OK)
        *out = st->t;
    else
        free(st->t);
    free(st);
    return rc;
}

void pp_target_free(struct pp_target *t)
{
    free(t);
}

const struct pp_core_desc *pp_target_core(const struct pp_target *t, unsigned cpu)
{
    if (!t)
        return NULL;
    for (unsigned i = 0; i < t->ncores; i++)
        if (t->cores[i].cpu == cpu)
            return &t->cores[i];
    return NULL;
}

/*
 * gen-catalog.c - build-time generator of the PMU event catalogs.
 *
 *   gen-catalog OUT.c FILE.ev...
 *
 * Reads the catalog data (lib/catalog/data/NAME.ev, format in
 * lib/catalog/data/README) and writes one C file with every catalog's
 * table, sorted by code, and its struct pp_catalog.  A row is written once
 * in the data and belongs to every catalog its section names, so an event
 * that several cores share with identical facts has one source.
 *
 * It refuses (exit 1, file:line on stderr) two rows with one code in a
 * catalog, a section naming an undeclared catalog, a catalog with no rows
 * and anything it cannot read, so a data mistake stops the build rather
 * than reaching a table.  Standard C only: it runs on the build host.
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_CATALOGS 64
#define MAX_ROWS     4096
#define MAX_ALIASES  64
#define MAX_LINE     512

struct row {
    unsigned code;
    char *text;               /* "EV(...)" as written */
    const char *file;
    unsigned line;
    unsigned long long in;    /* bit i: catalog i lists it */
};

struct alias {
    char *name, *source;
    unsigned code, cat;
};

struct catalog {
    char *key, *pretty, *common;   /* common: key or NULL */
    unsigned pmu;
    const char *file;
    unsigned line;
};

struct gen {
    struct catalog cat[MAX_CATALOGS];
    unsigned ncat;
    struct row row[MAX_ROWS];
    unsigned nrow;
    struct alias alias[MAX_ALIASES];
    unsigned nalias;
    /* sections name catalogs that may be declared in a later file, so
     * their keys wait here until every file is read */
    char *section[MAX_ROWS];
    unsigned nsection;
    unsigned row_section[MAX_ROWS];
    int cur;                  /* section of the file being read, or -1 */
};

static int fail(const char *file, unsigned line, const char *fmt, ...)
{
    va_list ap;

    fprintf(stderr, "%s:%u: ", file, line);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    return -1;
}

static char *dup_n(const char *s, size_t n)
{
    char *d = malloc(n + 1);

    if (!d) {
        perror("gen-catalog");
        exit(1);
    }
    memcpy(d, s, n);
    d[n] = '\0';
    return d;
}

static char *trim(char *s)
{
    char *e;

    while (isspace((unsigned char)*s))
        s++;
    e = s + strlen(s);
    while (e > s && isspace((unsigned char)e[-1]))
        *--e = '\0';
    return s;
}

static int find_catalog(const struct gen *g, const char *key, size_t len)
{
    for (unsigned i = 0; i < g->ncat; i++)
        if (strlen(g->cat[i].key) == len && strncmp(g->cat[i].key, key, len) == 0)
            return (int)i;
    return -1;
}

/* catalog KEY "Pretty name" pmuvN [common=KEY] */
static int parse_catalog(struct gen *g, char *s, const char *file, unsigned line)
{
    struct catalog *c;
    char *q, *end, *p;

    if (g->ncat == MAX_CATALOGS)
        return fail(file, line, "more than %d catalogs", MAX_CATALOGS);
    c = &g->cat[g->ncat];
    memset(c, 0, sizeof(*c));
    q = strchr(s, '"');
    end = q ? strchr(q + 1, '"') : NULL;
    if (!q || !end)
        return fail(file, line, "catalog: want KEY \"Pretty\" pmuvN [common=KEY]");
    *q = '\0';
    p = trim(s);
    c->key = dup_n(p, strlen(p));
    c->pretty = dup_n(q + 1, (size_t)(end - q - 1));
    c->file = file;
    c->line = line;
    g->ncat++;
    for (p = strtok(end + 1, " \t"); p; p = strtok(NULL, " \t")) {
        if (sscanf(p, "pmuv%u", &c->pmu) == 1)
            continue;
        if (strncmp(p, "common=", 7) == 0) {
            c->common = dup_n(p + 7, strlen(p + 7));
            continue;
        }
        return fail(file, line, "catalog %s: unknown word '%s'", c->key, p);
    }
    if (c->pmu != 2 && c->pmu != 3)
        return fail(file, line, "catalog %s: want pmuv2 or pmuv3", c->key);
    if (find_catalog(g, c->key, strlen(c->key)) != (int)(g->ncat - 1))
        return fail(file, line, "catalog %s declared twice", c->key);
    return 0;
}

/* alias NAME CODE SOURCE, for the catalog declared last in this file */
static int parse_alias(struct gen *g, char *s, const char *file, unsigned line, int cat)
{
    char name[64], source[32];
    unsigned code;
    struct alias *a;

    if (cat < 0)
        return fail(file, line, "alias before any catalog line in this file");
    if (sscanf(s, "%63s %x %31s", name, &code, source) != 3)
        return fail(file, line, "alias: want NAME CODE SOURCE");
    if (g->nalias == MAX_ALIASES)
        return fail(file, line, "more than %d aliases", MAX_ALIASES);
    a = &g->alias[g->nalias++];
    a->name = dup_n(name, strlen(name));
    a->source = dup_n(source, strlen(source));
    a->code = code;
    a->cat = (unsigned)cat;
    return 0;
}

/* The row ends at the ')' that closes its '(' outside string literals;
 * after it only a '#' comment may follow. */
static int parse_row(struct gen *g, char *s, const char *file, unsigned line)
{
    int depth = 0;
    bool in_str = false;
    char *p, *end = NULL;
    struct row *r;

    if (g->cur < 0)
        return fail(file, line, "event row before any [section] in this file");
    for (p = s; *p && !end; p++) {
        if (in_str) {
            if (*p == '\\' && p[1])
                p++;
            else if (*p == '"')
                in_str = false;
        } else if (*p == '"') {
            in_str = true;
        } else if (*p == '(') {
            depth++;
        } else if (*p == ')' && --depth == 0) {
            end = p + 1;
        }
    }
    if (!end)
        return fail(file, line, "unclosed event row");
    p = trim(end);
    if (*p && *p != '#')
        return fail(file, line, "text after the event row: '%s'", p);
    if (g->nrow == MAX_ROWS)
        return fail(file, line, "more than %d rows", MAX_ROWS);
    r = &g->row[g->nrow];
    if (sscanf(s + 3, "%x", &r->code) != 1 || r->code > 0xFFFF)
        return fail(file, line, "event row without a 16-bit code");
    r->text = dup_n(s, (size_t)(end - s));
    r->file = file;
    r->line = line;
    r->in = 0;
    g->row_section[g->nrow++] = (unsigned)g->cur;
    return 0;
}

static int parse_line(struct gen *g, char *s, const char *file, unsigned line, int *cat)
{
    char *e;

    s = trim(s);
    if (!*s || *s == '#')
        return 0;
    if (strncmp(s, "catalog ", 8) == 0) {
        if (parse_catalog(g, s + 8, file, line) < 0)
            return -1;
        *cat = (int)g->ncat - 1;
        return 0;
    }
    if (strncmp(s, "alias ", 6) == 0)
        return parse_alias(g, s + 6, file, line, *cat);
    if (*s == '[') {
        e = strchr(s, ']');
        if (!e || e == s + 1 || *trim(e + 1))
            return fail(file, line, "section: want [KEY KEY ...]");
        if (g->nsection == MAX_ROWS)
            return fail(file, line, "too many sections");
        g->cur = (int)g->nsection;
        g->section[g->nsection++] = dup_n(s + 1, (size_t)(e - s - 1));
        return 0;
    }
    if (strncmp(s, "EV(", 3) == 0 || strncmp(s, "EA(", 3) == 0)
        return parse_row(g, s, file, line);
    return fail(file, line, "cannot read '%s'", s);
}

static int read_file(struct gen *g, const char *file)
{
    char buf[MAX_LINE];
    unsigned line = 0;
    int cat = -1, rc = 0;
    FILE *f = fopen(file, "r");

    if (!f)
        return fail(file, 0, "%s", strerror(errno));
    g->cur = -1;
    while (rc == 0 && fgets(buf, sizeof(buf), f)) {
        line++;
        if (!strchr(buf, '\n') && !feof(f))
            rc = fail(file, line, "line longer than %d", MAX_LINE - 2);
        else
            rc = parse_line(g, buf, file, line, &cat);
    }
    fclose(f);
    return rc;
}

/* Give each row the catalogs its section names. */
static int resolve_sections(struct gen *g)
{
    for (unsigned i = 0; i < g->nrow; i++) {
        const char *p = g->section[g->row_section[i]];

        while (*p) {
            size_t n = strcspn(p, " \t");
            int c = n ? find_catalog(g, p, n) : -2;

            if (c == -1)
                return fail(g->row[i].file, g->row[i].line,
                            "section names '%.*s', which no catalog line declares", (int)n, p);
            if (c >= 0)
                g->row[i].in |= 1ull << c;
            p += n ? n : 1;
        }
    }
    return 0;
}

static int by_code(const void *a, const void *b)
{
    const struct row *x = *(const struct row *const *)a, *y = *(const struct row *const *)b;

    if (x->code != y->code)
        return x->code < y->code ? -1 : 1;
    return x < y ? -1 : x > y;
}

static void ident(FILE *o, const char *key)
{
    for (; *key; key++)
        fputc(isalnum((unsigned char)*key) ? *key : '_', o);
}

static int emit_catalog(const struct gen *g, unsigned c, FILE *o)
{
    const struct row *pick[MAX_ROWS];
    const struct catalog *cat = &g->cat[c];
    unsigned n = 0, na = 0;

    for (unsigned i = 0; i < g->nrow; i++)
        if (g->row[i].in & (1ull << c))
            pick[n++] = &g->row[i];
    if (n == 0)
        return fail(cat->file, cat->line, "catalog %s has no rows", cat->key);
    qsort(pick, n, sizeof(pick[0]), by_code);
    for (unsigned i = 1; i < n; i++)
        if (pick[i]->code == pick[i - 1]->code)
            return fail(pick[i]->file, pick[i]->line, "0x%04X is already in %s from %s:%u",
                        pick[i]->code, cat->key, pick[i - 1]->file, pick[i - 1]->line);
    if (cat->common && find_catalog(g, cat->common, strlen(cat->common)) < 0)
        return fail(cat->file, cat->line, "common=%s: no such catalog", cat->common);

    fputs("\nstatic const struct pp_event events_", o);
    ident(o, cat->key);
    fputs("[] = {\n", o);
    for (unsigned i = 0; i < n; i++)
        fprintf(o, "    %s, /* %s:%u */\n", pick[i]->text, pick[i]->file, pick[i]->line);
    fputs("};\n", o);
    for (unsigned i = 0; i < g->nalias; i++) {
        if (g->alias[i].cat != c)
            continue;
        if (na++ == 0) {
            fputs("\nstatic const struct pp_event_alias aliases_", o);
            ident(o, cat->key);
            fputs("[] = {\n", o);
        }
        fprintf(o, "    { \"%s\", 0x%04X, \"%s\" },\n", g->alias[i].name, g->alias[i].code,
                g->alias[i].source);
    }
    if (na)
        fputs("};\n", o);

    fputs("\nconst struct pp_catalog pp_catalog_", o);
    ident(o, cat->key);
    fprintf(o, " = {\n    .key = \"%s\",\n    .pretty = \"%s\",\n    .pmu_version = %u,\n",
            cat->key, cat->pretty, cat->pmu);
    fputs("    .events = events_", o);
    ident(o, cat->key);
    fprintf(o, ",\n    .n = %u,\n", n);
    if (cat->common) {
        fputs("    .common = &pp_catalog_", o);
        ident(o, cat->common);
        fputs(",\n", o);
    }
    if (na) {
        fputs("    .aliases = aliases_", o);
        ident(o, cat->key);
        fprintf(o, ",\n    .naliases = %u,\n", na);
    }
    fputs("};\n", o);
    return 0;
}

static int emit(const struct gen *g, FILE *o)
{
    fputs("/* Generated by lib/catalog/gen-catalog from lib/catalog/data: do not edit. */\n"
          "#include \"catalog/catalog_tables.h\"\n", o);
    for (unsigned c = 0; c < g->ncat; c++)
        if (emit_catalog(g, c, o) < 0)
            return -1;
    return 0;
}

static void gen_free(struct gen *g)
{
    for (unsigned i = 0; i < g->ncat; i++) {
        free(g->cat[i].key);
        free(g->cat[i].pretty);
        free(g->cat[i].common);
    }
    for (unsigned i = 0; i < g->nrow; i++)
        free(g->row[i].text);
    for (unsigned i = 0; i < g->nalias; i++) {
        free(g->alias[i].name);
        free(g->alias[i].source);
    }
    for (unsigned i = 0; i < g->nsection; i++)
        free(g->section[i]);
}

int main(int argc, char **argv)
{
    static struct gen g;
    FILE *o;
    int rc = 0;

    if (argc < 3) {
        fprintf(stderr, "usage: gen-catalog OUT.c FILE.ev...\n");
        return 2;
    }
    for (int i = 2; i < argc && rc == 0; i++)
        rc = read_file(&g, argv[i]);
    if (rc == 0)
        rc = resolve_sections(&g);
    if (rc == 0) {
        o = fopen(argv[1], "w");
        if (!o)
            rc = fail(argv[1], 0, "%s", strerror(errno));
        else {
            rc = emit(&g, o);
            if (fclose(o) != 0)
                rc = fail(argv[1], 0, "%s", strerror(errno));
            if (rc < 0)
                remove(argv[1]);
        }
    }
    gen_free(&g);
    return rc == 0 ? 0 : 1;
}

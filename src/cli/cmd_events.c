/*
 * cmd_events.c - `pmuprobe events [CPU]`: the events of a core, like
 * `perf list`, grouped by component, checked against what the core
 * advertises in PMCEID0-3 (spec 1.3; pp_pmceid_bit says which bit is
 * which event).
 */
#include <ctype.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "json.h"
#include "pmu/catalog.h"
#include "pmu/diag.h"
#include "pmu/evname.h"
#include "pmu/regs.h"
#include "session/inspect.h"


void help_events(FILE *out)
{
    fprintf(out,
        "Usage: pmuprobe [OPTIONS] events [--json] [CPU]\n"
        "       pmuprobe events --core TYPE|all [--json] [FILTER]\n"
        "List the PMU events of a core (default cpu0), grouped by component, with\n"
        "code, mnemonic, PMUEVENT bus and trace positions, accuracy where published,\n"
        "and a short description.  The core's PMCEID0-3 are read to mark each common\n"
        "event (0x0000-0x003F, 0x4000-0x403F):\n"
        "  yes   the core advertises it\n"
        "  no    the catalog lists it but the core does not advertise it\n"
        "  imp   an IMPLEMENTATION DEFINED event (PMCEID cannot tell)\n"
        "Events the core advertises but no catalog knows are listed at the end.\n"
        "Where Linux perf names an event differently, its name follows the\n"
        "description, and -e takes it too (Cortex-A53 0xC3: PREFETCH_LINEFILL_DROP).\n"
        "  -j, --json  one JSON document instead: per event code (number and \"0x\"\n"
        "              string), name, alias (perf's name or null), component,\n"
        "              advertised, description\n"
        "      --core TYPE  list the catalog of a core type (a53, cortex-a76,\n"
        "              neoverse-n1, armv8-pmuv3, ...; all: every type) without a\n"
        "              target or a probe, as perf list does: nothing is read, so\n"
        "              the adv column is -; then the perf names -e takes (cycles,\n"
        "              instructions, ...) with the event each counts on that type.\n"
        "              FILTER keeps the events and names that contain it (any case)\n");
}

/* NULL when no core was read (events --core): nothing to mark. */
static const char *mark(const struct pp_event *e, const uint32_t ceid[4], bool have)
{
    unsigned reg, bit;

    if (!ceid)
        return NULL;
    if (!pp_pmceid_bit(e->code, &reg, &bit))
        return "imp";
    if (!have)
        return "?";
    return (ceid[reg] >> bit) & 1u ? "yes" : "no";
}

/* alias: the core's other name for e (perf's), or NULL. */
static void print_event(const struct pp_event *e, const char *m, const struct pp_event_alias *alias)
{
    char bus[16] = "-", trace[16] = "-";

    if (e->bus_lsb >= 0)
        snprintf(bus, sizeof(bus), e->bus_bits > 1 ? "%d+%d" : "%d", e->bus_lsb, e->bus_bits);
    if (e->trace_lsb >= 0)
        snprintf(trace, sizeof(trace), "%d", e->trace_lsb);
    printf("  0x%04X %-28s %-3s %6s %5s %-6s %s", e->code, e->name, m ? m : "-", bus, trace,
           e->accuracy ? (e->accuracy == PP_ACC_PRECISE ? "prec" : "approx") : "",
           e->desc);
    if (alias)
        printf(" (%s: %s)", alias->source, alias->name);
    printf("\n");
}

/* Components in a stable order; NULL collects the rest. */
static const char *const components[] = {
    "L1I", "L1D", "L2", "L3", "L1ITLB", "L1DTLB", "L2TLB", "BPU", "BUS", NULL,
};

static bool same_component(const char *a, const char *b)
{
    if (!a || !b)
        return a == b;
    return strcmp(a, b) == 0;
}

static bool known_component(const char *c)
{
    for (size_t i = 0; components[i]; i++)
        if (c && strcmp(c, components[i]) == 0)
            return true;
    return false;
}

/* Whether text contains filter, in any case; a NULL filter keeps all. */
static bool contains(const char *text, const char *filter)
{
    size_t n = filter ? strlen(filter) : 0;

    if (!filter)
        return true;
    for (; text && *text; text++) {
        size_t i = 0;

        while (i < n && tolower((unsigned char)text[i]) == tolower((unsigned char)filter[i]))
            i++;
        if (i == n)
            return true;
    }
    return false;
}

/* FILTER of events --core: the mnemonic or the catalog's other name. */
static bool event_matches(const struct pp_catalog *cat, const struct pp_event *e,
                          const char *filter)
{
    const struct pp_event_alias *a = pp_catalog_alias_of(cat, e->code);

    return contains(e->name, filter) || (a && contains(a->name, filter));
}

static void list_group(const struct pp_catalog *cat, const char *comp, const uint32_t ceid[4],
                       bool have, const char *filter)
{
    bool header = false;

    for (size_t i = 0; i < cat->n; i++) {
        const struct pp_event *e = &cat->events[i];
        bool match = comp ? same_component(e->component, comp) : !known_component(e->component);

        if (!match || !event_matches(cat, e, filter))
            continue;
        if (!header)
            printf("%s:\n", comp ? comp : "core and other");
        header = true;
        print_event(e, mark(e, ceid, have), pp_catalog_alias_of(cat, e->code));
    }
    if (header)
        printf("\n");
}

/* Advertised events the core's table lacks: from the common catalog, or
 * unknown to every catalog. */
struct unlisted {
    const struct pp_catalog *cat;
    bool header;             /* text: heading printed */
    struct json *j;          /* --json */
};

static void print_unlisted(void *ctx, uint16_t code, const struct pp_event *e)
{
    struct unlisted *u = ctx;

    if (pp_event_core_has(u->cat, code))
        return;
    if (!u->header)
        printf("advertised by PMCEID but not in the %s table:\n", u->cat->pretty);
    u->header = true;
    if (e)
        print_event(e, "yes", NULL);
    else
        printf("  0x%04X %-28s yes  (unknown to every catalog)\n", code, "?");
}

static void list_unlisted(const struct pp_catalog *cat, const uint32_t ceid[4])
{
    struct unlisted u = { .cat = cat };

    for (unsigned r = 0; r < 4; r++)
        pp_catalog_pmceid_each(cat, r, ceid[r], print_unlisted, &u);
}

/* ---- --json ---------------------------------------------------------------------------- */

static void json_event(struct json *j, const struct pp_event *e, const char *m, bool own,
                       const struct pp_event_alias *alias)
{
    json_object(j);
    json_kuint(j, "code", e->code);
    json_khex(j, "code_hex", e->code, 4);
    json_kstring(j, "name", e->name);
    json_kstring(j, "alias", alias ? alias->name : NULL);
    json_kstring(j, "component", e->component);
    json_kstring(j, "advertised", m);
    json_kbool(j, "core_table", own);
    json_kstring(j, "type", pp_ev_type_name(e->type));
    json_kstring(j, "accuracy", e->accuracy ? pp_ev_accuracy_name(e->accuracy) : NULL);
    if (e->bus_lsb >= 0) {
        json_kint(j, "bus_lsb", e->bus_lsb);
        json_kint(j, "bus_bits", e->bus_bits);
    } else {
        json_knull(j, "bus_lsb");
        json_knull(j, "bus_bits");
    }
    if (e->trace_lsb >= 0)
        json_kint(j, "trace_lsb", e->trace_lsb);
    else
        json_knull(j, "trace_lsb");
    json_kstring(j, "description", e->desc);
    json_object_end(j);
}

static void json_unlisted(void *ctx, uint16_t code, const struct pp_event *e)
{
    const struct unlisted *u = ctx;

    if (pp_event_core_has(u->cat, code))
        return;
    if (e) {
        json_event(u->j, e, "yes", false, NULL);
        return;
    }
    json_object(u->j);
    json_kuint(u->j, "code", code);
    json_khex(u->j, "code_hex", code, 4);
    json_knull(u->j, "name");
    json_kstring(u->j, "advertised", "yes");
    json_kbool(u->j, "core_table", false);
    json_kstring(u->j, "description", "unknown to every catalog");
    json_object_end(u->j);
}

/* The core's table, then what PMCEID advertises beyond it (from the common
 * catalog, or unknown: name null), as in the text listing. */
static void json_events(struct json *j, const struct pp_catalog *cat, const uint32_t ceid[4],
                        bool have, const char *filter)
{
    struct unlisted u = { .cat = cat, .j = j };

    json_key(j, "events");
    json_array(j);
    for (size_t i = 0; i < cat->n; i++)
        if (event_matches(cat, &cat->events[i], filter))
            json_event(j, &cat->events[i], mark(&cat->events[i], ceid, have), true,
                       pp_catalog_alias_of(cat, cat->events[i].code));
    for (unsigned r = 0; have && r < 4; r++)
        pp_catalog_pmceid_each(cat, r, ceid[r], json_unlisted, &u);
    json_array_end(j);
}

static int events_json(const struct pp_core_desc *c, const struct pp_catalog *cat,
                       const uint32_t ceid[4], bool have, const struct pp_diag *d)
{
    struct json j;

    json_begin(&j, stdout);
    json_object(&j);
    json_kuint(&j, "cpu", c->cpu);
    json_kstring(&j, "type", c->type->pretty);
    json_kuint(&j, "pmu_version", c->type->pmu_version);
    json_kstring(&j, "catalog", cat->key);
    json_key(&j, "pmceid");
    if (have) {
        json_array(&j);
        for (unsigned r = 0; r < (c->type->pmuv3p1 ? 4u : 2u); r++)
            json_uint(&j, ceid[r]);
        json_array_end(&j);
    } else {
        json_object(&j);
        json_kstring(&j, "error", "PMCEID unreadable");
        json_kstring(&j, "cause", d ? pp_cause_name(d->cause) : NULL);
        json_kstring(&j, "cause_text", d ? pp_cause_str(d->cause) : NULL);
        json_kstring(&j, "evidence", d ? d->evidence : NULL);
        json_kstring(&j, "remedy", d ? d->remedy : NULL);
        json_object_end(&j);
    }
    json_events(&j, cat, ceid, have, NULL);
    json_object_end(&j);
    if (!json_end(&j)) {
        cli_error("events: writing the output failed");
        return EXIT_OUTPUT;
    }
    return EXIT_OK;
}

static int events_text(const struct pp_core_desc *c, const struct pp_catalog *cat,
                       const uint32_t ceid[4], bool have, const struct pp_diag *d)
{
    if (!have && d)
        printf("PMCEID unreadable on cpu%u: %s (%s); showing the catalog only\n\n", c->cpu,
               pp_cause_str(d->cause), d->evidence);
    printf("cpu%u %s (PMUv%u): %zu events in the catalog\n", c->cpu, c->type->pretty,
           c->type->pmu_version, cat->n);
    printf("  code   %-28s adv %6s %5s %-6s %s\n\n", "mnemonic", "bus", "trace", "acc",
           "description");
    for (size_t i = 0; components[i]; i++)
        list_group(cat, components[i], ceid, have, NULL);
    list_group(cat, NULL, ceid, have, NULL);
    if (have)
        list_unlisted(cat, ceid);
    return EXIT_OK;
}

/* ---- --core: a catalog without a target ------------------------------------------------- */

/* What perf name i stands for on ct; false when the type has no such event. */
static bool alias_on(const struct pp_core_type *ct, size_t i, struct pp_evsel *sel)
{
    char err[256];

    return pp_event_resolve(ct, pp_event_alias_name(i), sel, err, sizeof(err)) == PP_OK;
}

static bool alias_matches(const struct pp_core_type *ct, size_t i, const char *filter)
{
    struct pp_evsel sel;

    return contains(pp_event_alias_name(i), filter) ||
           (alias_on(ct, i, &sel) && sel.ev && contains(sel.ev->name, filter));
}

static void core_text(const struct pp_core_type *ct, const struct pp_catalog *cat,
                      const char *filter)
{
    printf("%s (%s, PMUv%u): %zu events in the catalog; no core read, so adv is -\n",
           ct->pretty, ct->name, ct->pmu_version, cat->n);
    if (filter)
        printf("only names containing '%s'\n", filter);
    printf("  code   %-28s adv %6s %5s %-6s %s\n\n", "mnemonic", "bus", "trace", "acc",
           "description");
    for (size_t i = 0; components[i]; i++)
        list_group(cat, components[i], NULL, false, filter);
    list_group(cat, NULL, NULL, false, filter);
    printf("perf names -e takes, and what they count on %s:\n", ct->pretty);
    for (size_t i = 0; pp_event_alias_name(i); i++) {
        struct pp_evsel sel;

        if (!alias_matches(ct, i, filter))
            continue;
        if (!alias_on(ct, i, &sel))
            printf("  %-24s (no such event on %s)\n", pp_event_alias_name(i), ct->pretty);
        else if (sel.cycle_counter)
            printf("  %-24s PMCCNTR, the cycle counter (CPU_CYCLES 0x%04X)\n",
                   pp_event_alias_name(i), sel.code);
        else
            printf("  %-24s 0x%04X %s\n", pp_event_alias_name(i), sel.code,
                   sel.ev ? sel.ev->name : "");
    }
}

static void core_json(struct json *j, const struct pp_core_type *ct,
                      const struct pp_catalog *cat, const char *filter)
{
    json_object(j);
    json_kstring(j, "type", ct->pretty);
    json_kstring(j, "core_type", ct->name);
    json_kuint(j, "pmu_version", ct->pmu_version);
    json_kstring(j, "catalog", cat->key);
    json_kstring(j, "filter", filter);
    json_events(j, cat, NULL, false, filter);
    json_key(j, "aliases");
    json_array(j);
    for (size_t i = 0; pp_event_alias_name(i); i++) {
        struct pp_evsel sel;
        bool on = alias_on(ct, i, &sel);

        if (!alias_matches(ct, i, filter))
            continue;
        json_object(j);
        json_kstring(j, "name", pp_event_alias_name(i));
        if (on) {
            json_kuint(j, "code", sel.code);
            json_khex(j, "code_hex", sel.code, 4);
        } else {
            json_knull(j, "code");
            json_knull(j, "code_hex");
        }
        json_kstring(j, "event", on && sel.ev ? sel.ev->name : NULL);
        json_kbool(j, "cycle_counter", on && sel.cycle_counter);
        json_object_end(j);
    }
    json_array_end(j);
    json_object_end(j);
}

/* The types of --core TYPE|all: the generic PMUv3 type last. */
static const struct pp_core_type *core_type_at(const char *which, unsigned i)
{
    unsigned n;
    const struct pp_core_type *t = pp_core_types(&n);

    if (strcmp(which, "all") != 0)
        return i == 0 ? pp_core_type_find(which) : NULL;
    return i < n ? &t[i] : i == n ? pp_core_type_generic() : NULL;
}

static int events_core(const char *which, const char *filter, bool json)
{
    bool all = strcmp(which, "all") == 0;
    struct json j;

    if (!core_type_at(which, 0)) {
        char known[512];

        pp_core_type_names(known, sizeof(known));
        cli_error("events --core '%s': unknown core type; known: %s, armv8-pmuv3, all", which,
                  known);
        return EXIT_USAGE;
    }
    if (json) {
        json_begin(&j, stdout);
        if (all) {
            json_object(&j);
            json_key(&j, "core_types");
            json_array(&j);
        }
    }
    for (unsigned i = 0; core_type_at(which, i); i++) {
        const struct pp_core_type *ct = core_type_at(which, i);
        const struct pp_catalog *cat = pp_catalog_find(ct->catalog);

        if (!cat)
            continue;
        if (json)
            core_json(&j, ct, cat, filter);
        else
            core_text(ct, cat, filter);
        if (!json && core_type_at(which, i + 1))
            printf("\n");
    }
    if (json && all) {
        json_array_end(&j);
        json_object_end(&j);
    }
    if (json ? !json_end(&j) : fflush(stdout) != 0 || ferror(stdout)) {
        cli_error("events: writing the output failed");
        return EXIT_OUTPUT;
    }
    return EXIT_OK;
}

enum { OPT_CORE = 300 };

/* -j and --core TYPE; -1 when the listing should go on, else the exit code. */
static int parse_events_opts(int argc, char **argv, bool *json, const char **core)
{
    static const struct option longopts[] = {
        { "json", no_argument, NULL, 'j' }, { "core", required_argument, NULL, OPT_CORE },
        { "help", no_argument, NULL, 'h' }, { NULL, 0, NULL, 0 },
    };
    int ch;

    *json = false;
    *core = NULL;
    while ((ch = cli_getopt(argc, argv, "jh", longopts, "events")) != -1) {
        if (ch == 'j')
            *json = true;
        else if (ch == OPT_CORE)
            *core = optarg;
        else {
            if (ch == 'h')
                help_events(stdout);
            return ch == 'h' ? EXIT_OK : EXIT_USAGE;
        }
    }
    return -1;
}

int cmd_events(const struct cli_opts *o, int argc, char **argv)
{
    const struct pp_core_desc *c;
    const struct pp_catalog *cat;
    struct session s;
    struct pp_diag d;
    uint32_t ceid[4];
    bool have, diag_ok, json = false;
    const char *core;
    int rc;

    if ((rc = parse_events_opts(argc, argv, &json, &core)) >= 0)
        return rc;
    if (core && argc - optind <= 1)
        return events_core(core, argc - optind == 1 ? argv[optind] : NULL, json);
    if (argc - optind > 1) {
        cli_usage("events", "one core at a time, not '%s' and '%s'", argv[optind],
                  argv[optind + 1]);
        return EXIT_USAGE;
    }
    rc = session_open(o, &s);
    if (rc != EXIT_OK)
        return rc;
    c = parse_cpu(s.target, argc - optind == 1 ? argv[optind] : "cpu0");
    cat = c ? pp_catalog_find(c->type->catalog) : NULL;
    if (!cat) {
        if (c)
            cli_error("no event catalog for %s", c->type->pretty);
        session_close(&s);
        return EXIT_USAGE;
    }
    have = pp_pmceid_read(s.bus, c, ceid, &d, &diag_ok);
    rc = (json ? events_json : events_text)(c, cat, ceid, have, diag_ok ? &d : NULL);
    session_close(&s);
    return rc;
}

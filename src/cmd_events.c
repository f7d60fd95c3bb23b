/*
 * cmd_events.c - `pmuprobe events [CPU]`: the events of a core, like
 * `perf list`, grouped by component, checked against what the core
 * advertises in PMCEID0-3 (spec 1.3: bit n of PMCEIDr is common event
 * 0x0000/0x0020/0x4000/0x4020 + n).
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "pmu/catalog.h"
#include "pmu/diag.h"
#include "pmu/evname.h"
#include "pmu/regs.h"

static const uint16_t pmceid_base[4] = { 0x0000, 0x0020, 0x4000, 0x4020 };

void help_events(FILE *out)
{
    fprintf(out,
        "Usage: pmuprobe [OPTIONS] events [CPU]\n"
        "List the PMU events of a core (default cpu0), grouped by component, with\n"
        "code, mnemonic, PMUEVENT bus and trace positions, accuracy where published,\n"
        "and a short description.  The core's PMCEID0-3 are read to mark each common\n"
        "event (0x0000-0x003F, 0x4000-0x403F):\n"
        "  yes   the core advertises it\n"
        "  no    the catalog lists it but the core does not advertise it\n"
        "  imp   an IMPLEMENTATION DEFINED event (PMCEID cannot tell)\n"
        "Events the core advertises but no catalog knows are listed at the end.\n");
}

/* PMCEIDn of the core, or explains why they could not be read. */
static bool read_pmceid(struct session *s, const struct pp_core_desc *c, uint32_t ceid[4])
{
    struct pp_op ops[4];
    unsigned n = c->type->pmuv3p1 ? 4 : 2;
    struct pp_diag d;

    memset(ceid, 0, 4 * sizeof(ceid[0]));
    for (unsigned i = 0; i < n; i++)
        ops[i] = (struct pp_op){ .addr = c->pmu_base + PP_PMU_PMCEID(i) };
    if (pp_bus_run(s->bus, ops, n) == PP_OK) {
        for (unsigned i = 0; i < n; i++)
            ceid[i] = ops[i].rdata;
        return true;
    }
    if (pp_diag_core(s->bus, c, &d) == PP_OK)
        printf("PMCEID unreadable on cpu%u: %s (%s); showing the catalog only\n\n", c->cpu,
               pp_cause_str(d.cause), d.evidence);
    return false;
}

static bool in_pmceid_range(uint16_t code, unsigned *reg, unsigned *bit)
{
    for (unsigned r = 0; r < 4; r++)
        if (code >= pmceid_base[r] && code < pmceid_base[r] + 32) {
            *reg = r;
            *bit = code - pmceid_base[r];
            return true;
        }
    return false;
}

static const char *mark(const struct pp_event *e, const uint32_t ceid[4], bool have)
{
    unsigned reg, bit;

    if (!in_pmceid_range(e->code, &reg, &bit))
        return "imp";
    if (!have)
        return "?";
    return (ceid[reg] >> bit) & 1u ? "yes" : "no";
}

static void print_event(const struct pp_event *e, const char *m)
{
    char bus[16] = "-", trace[16] = "-";

    if (e->bus_lsb >= 0)
        snprintf(bus, sizeof(bus), e->bus_bits > 1 ? "%d+%d" : "%d", e->bus_lsb, e->bus_bits);
    if (e->trace_lsb >= 0)
        snprintf(trace, sizeof(trace), "%d", e->trace_lsb);
    printf("  0x%04X %-28s %-3s %6s %5s %-6s %s\n", e->code, e->name, m, bus, trace,
           e->accuracy ? (e->accuracy == PP_ACC_PRECISE ? "prec" : "approx") : "",
           e->desc);
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

static void list_group(const struct pp_catalog *cat, const char *comp, const uint32_t ceid[4],
                       bool have)
{
    bool header = false;

    for (size_t i = 0; i < cat->n; i++) {
        const struct pp_event *e = &cat->events[i];
        bool match = comp ? same_component(e->component, comp) : !known_component(e->component);

        if (!match)
            continue;
        if (!header)
            printf("%s:\n", comp ? comp : "core and other");
        header = true;
        print_event(e, mark(e, ceid, have));
    }
    if (header)
        printf("\n");
}

/* Advertised events the core's table lacks: from the common catalog, or
 * unknown to every catalog. */
static void list_unlisted(const struct pp_catalog *cat, const uint32_t ceid[4])
{
    bool header = false;

    for (unsigned r = 0; r < 4; r++)
        for (unsigned b = 0; b < 32; b++) {
            uint16_t code = (uint16_t)(pmceid_base[r] + b);
            const struct pp_event *e;

            if (!((ceid[r] >> b) & 1u) || pp_event_core_has(cat, code))
                continue;
            if (!header)
                printf("advertised by PMCEID but not in the %s table:\n", cat->pretty);
            header = true;
            e = pp_catalog_lookup(cat, code);
            if (e)
                print_event(e, "yes");
            else
                printf("  0x%04X %-28s yes  (unknown to every catalog)\n", code, "?");
        }
}

int cmd_events(const struct cli_opts *o, int argc, char **argv)
{
    const struct pp_core_desc *c;
    const struct pp_catalog *cat;
    struct session s;
    uint32_t ceid[4];
    bool have;
    int rc;

    if (argc > 2 || (argc == 2 && argv[1][0] == '-')) {
        bool h = argc == 2 && argv[1][1] == 'h';

        help_events(h ? stdout : stderr);
        return h ? EXIT_OK : EXIT_USAGE;
    }
    rc = session_open(o, &s);
    if (rc != EXIT_OK)
        return rc;
    c = parse_cpu(s.target, argc == 2 ? argv[1] : "cpu0");
    cat = c ? pp_catalog_find(c->type->catalog) : NULL;
    if (!cat) {
        if (c)
            cli_error("no event catalog for %s", c->type->pretty);
        session_close(&s);
        return EXIT_USAGE;
    }
    have = read_pmceid(&s, c, ceid);
    printf("cpu%u %s (PMUv%u): %zu events in the catalog\n", c->cpu, c->type->pretty,
           c->type->pmu_version, cat->n);
    printf("  code   %-28s adv %6s %5s %-6s %s\n\n", "mnemonic", "bus", "trace", "acc",
           "description");
    for (size_t i = 0; components[i]; i++)
        list_group(cat, components[i], ceid, have);
    list_group(cat, NULL, ceid, have);
    if (have)
        list_unlisted(cat, ceid);
    session_close(&s);
    return EXIT_OK;
}

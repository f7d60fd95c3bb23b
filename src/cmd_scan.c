/*
 * cmd_scan.c - `pmuprobe scan`: the component tree from the ROM tables and
 * the cores found in it.
 */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>

#include "cli.h"
#include "coresight/coresight.h"
#include "pmu/identify.h"

void help_scan(FILE *out)
{
    fprintf(out,
        "Usage: pmuprobe [OPTIONS] scan\n"
        "Walk the ROM tables from the APB-AP's base address (class 0x1 and class 0x9\n"
        "tables, nested) and print every component: address, class, part name and\n"
        "DEVARCH; then one line per core: debug, PMU and CTI base, affinity, type;\n"
        "then check each core of the target description against what it reports\n"
        "(MIDR, part numbers, PMDEVARCH, PMCFGR.N).  The description wins: a\n"
        "mismatch is reported, not silently followed.\n");
}

static int print_component(void *ctx, const struct pp_cs_component *c)
{
    char name[64];
    unsigned *count = ctx;

    (*count)++;
    printf("%*s0x%08" PRIX32 "  ", (int)c->depth * 2, "", c->base);
    if (c->status != PP_OK) {
        printf("(IDs unreadable: %s)\n", pp_strerror(c->status));
        return 0;
    }
    printf("%-22s class 0x%X  part 0x%03X", pp_cs_part_name(&c->id, name, sizeof(name)),
           c->id.cls, c->id.part);
    if (c->id.devarch)
        printf("  DEVARCH 0x%08" PRIX32, c->id.devarch);
    printf("\n");
    return 0;
}

static void print_cores(const struct pp_topology *topo)
{
    printf("\n%-5s %-12s %-10s %-10s %-10s %-10s %s\n", "cpu", "type", "debug", "pmu",
           "cti", "mpidr", "midr");
    for (unsigned i = 0; i < topo->ncores; i++) {
        const struct pp_cs_core *c = &topo->cores[i];

        printf("cpu%-2u %-12s 0x%08" PRIX32 " 0x%08" PRIX32 " 0x%08" PRIX32 " 0x%08" PRIX64 " ",
               c->cpu, c->type ? c->type->pretty : "unknown", c->debug_base, c->pmu_base,
               c->cti_base, c->affinity);
        if (c->midr)
            printf("0x%08" PRIX32 "\n", c->midr);
        else
            printf("(core off: type from part 0x%03X)\n", c->debug_part);
    }
}

/* Checks the description against the silicon; returns mismatches found. */
static unsigned check_target(struct session *s)
{
    unsigned bad = 0;

    printf("\ntarget check:\n");
    for (unsigned i = 0; i < s->target->ncores; i++) {
        const struct pp_core_desc *c = &s->target->cores[i];
        struct pp_ident id;

        if (pp_identify_core(s->bus, c, &id) != PP_OK) {
            printf("cpu%-2u access path failed\n", c->cpu);
            bad++;
            continue;
        }
        printf("cpu%-2u %-11s %s%s\n", c->cpu, c->type->pretty, id.agrees ? "" : "MISMATCH: ",
               id.detail);
        bad += !id.agrees;
    }
    return bad;
}

int cmd_scan(const struct cli_opts *o, int argc, char **argv)
{
    struct session s;
    struct pp_topology topo;
    unsigned count = 0;
    int rc;

    if (argc > 1) {
        if (argv[1][0] == '-' && argv[1][1] == 'h') {
            help_scan(stdout);
            return EXIT_OK;
        }
        cli_error("scan: unexpected argument '%s' (scan takes none)", argv[1]);
        return EXIT_USAGE;
    }
    rc = session_open(o, &s);
    if (rc != EXIT_OK)
        return rc;
    printf("target %s: ROM table at 0x%08" PRIX32 " via %s\n", s.target->name,
           s.target->rom_base, pp_bus_name(s.bus));
    rc = pp_cs_walk(s.bus, s.target->rom_base, print_component, &count);
    if (rc != PP_OK) {
        cli_error("ROM table walk from 0x%08" PRIX32 " failed: %s; check rom.base in %s "
                  "(the AP's BASE register on a real board)", s.target->rom_base, pp_strerror(rc),
                  s.target->path);
        session_close(&s);
        return rc == PP_E_LINK ? EXIT_PATH : EXIT_TARGET;
    }
    rc = pp_topology_discover(s.bus, s.target->rom_base, &topo);
    if (rc == PP_OK)
        print_cores(&topo);
    else
        cli_error("core discovery failed: %s; the ROM tables list no debug block the "
                  "walk could read", pp_strerror(rc));
    if (rc == PP_OK && check_target(&s))
        printf("(the target description's types are used; fix it if the silicon is right)\n");
    printf("\n%u components, %u cores\n", count, rc == PP_OK ? topo.ncores : 0);
    session_close(&s);
    return rc == PP_OK ? EXIT_OK : EXIT_TARGET;
}

/*
 * cmd_scan.c - `pmuprobe scan`: the component tree from the ROM tables and
 * the cores found in it.
 */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "coresight/coresight.h"
#include "json.h"
#include "pmu/identify.h"
#include "session/inspect.h"
#include "session/session.h"

void help_scan(FILE *out)
{
    fprintf(out,
        "Usage: pmuprobe [OPTIONS] scan [--json] [--save FILE [--force]]\n"
        "Walk the ROM tables from the APB-AP's base address (class 0x1 and class 0x9\n"
        "tables, nested) and print every component: address, class, part name and\n"
        "DEVARCH; then one line per core: debug, PMU and CTI base, affinity, type,\n"
        "and how its PMU was paired with it: by equal DEVAFF (affinity), or by the\n"
        "CoreSight address conventions (address) where DEVAFF reads 0 or is absent;\n"
        "then check each core of the target description against what it reports\n"
        "(MIDR, part numbers, PMDEVARCH, PMCFGR.N).  The description wins: a\n"
        "mismatch is reported, not silently followed.  On -p ftdi the second line\n"
        "gives the TCK set (the --speed request rounded down).\n"
        "Without --target on rbb, ftdi and openocd the description is the one\n"
        "discovered from the live SoC (the APB-AP's BASE, the ROM tables, MIDR,\n"
        "PMCFGR), so every core is checked against itself.\n"
        "  -j, --json        one JSON document instead: the link (its TCK),\n"
        "                    components, cores (with the check)\n"
        "  -s, --save FILE   also write the SoC as discovered now as a target description\n"
        "                    (an editable pmuprobe-target(5) file; '-' for stdout);\n"
        "                    --target FILE then gives the same scan\n"
        "  -f, --force       overwrite FILE if it exists\n");
}

/* Components come from pp_scan_bus, the list pp_scan gives. */
static void print_component(const struct pp_component *c)
{
    printf("%*s0x%08" PRIX32 "  ", (int)c->depth * 2, "", c->addr);
    if (c->status != PP_OK) {
        printf("(IDs unreadable: %s)\n", pp_strerror(c->status));
        return;
    }
    printf("%-22s class 0x%X  part 0x%03X", c->name, c->cls, c->part);
    if (c->devarch)
        printf("  DEVARCH 0x%08" PRIX32, c->devarch);
    printf("\n");
}

static void print_cores(const struct pp_topology *topo)
{
    unsigned by_address = 0;

    printf("\n%-5s %-12s %-10s %-10s %-10s %-10s %-8s %s\n", "cpu", "type", "debug", "pmu",
           "cti", "mpidr", "paired", "midr");
    for (unsigned i = 0; i < topo->ncores; i++) {
        const struct pp_cs_core *c = &topo->cores[i];

        printf("cpu%-2u %-12s 0x%08" PRIX32 " 0x%08" PRIX32 " 0x%08" PRIX32 " 0x%08" PRIX64
               " %-8s ", c->cpu, c->type ? c->type->pretty : "unknown", c->debug_base,
               c->pmu_base, c->cti_base, c->affinity, pp_cs_pairing_name(c->paired));
        if (c->midr)
            printf("0x%08" PRIX32 "\n", c->midr);
        else
            printf("(core off: type from part 0x%03X)\n", c->debug_part);
        by_address += c->paired == PP_PAIR_ADDRESS && c->type && c->type->arch != PP_ARCH_V7;
    }
    /* Armv7 blocks never carry DEVAFF: address is their normal case. */
    if (by_address)
        printf("(%u Armv8 core%s paired with a PMU by address: EDDEVAFF/PMDEVAFF read 0, "
               "so the nearest PMU after each debug block was taken)\n", by_address,
               by_address == 1 ? "" : "s");
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

/* ---- --json ---------------------------------------------------------------------------- */

static void json_component(struct json *j, const struct pp_component *c)
{
    json_object(j);
    json_kuint(j, "address", c->addr);
    json_kuint(j, "rom", c->rom);
    json_kuint(j, "depth", c->depth);
    if (c->status != PP_OK) {
        json_kstring(j, "error", pp_strerror(c->status));
        json_object_end(j);
        return;
    }
    json_kuint(j, "class", c->cls);
    json_kstring(j, "class_name", pp_cs_class_name((uint8_t)c->cls));
    json_kuint(j, "part", c->part);
    json_kuint(j, "designer", c->designer);
    if (c->devarch)
        json_kuint(j, "devarch", c->devarch);
    else
        json_knull(j, "devarch");
    json_kstring(j, "name", c->name);
    json_object_end(j);
}

/* The description check of the target's cpuN, inside that core's object. */
static void json_check(struct json *j, struct session *s, unsigned cpu)
{
    const struct pp_core_desc *c = pp_target_core(s->target, cpu);
    struct pp_ident id;

    json_key(j, "check");
    if (!c) {
        json_null(j);
        return;
    }
    json_object(j);
    json_kstring(j, "described_type", c->type->pretty);
    if (pp_identify_core(s->bus, c, &id) != PP_OK) {
        json_knull(j, "agrees");
        json_kstring(j, "detail", "access path failed");
    } else {
        json_kbool(j, "agrees", id.agrees);
        json_kstring(j, "detail", id.detail);
    }
    json_object_end(j);
}

static void json_cores(struct json *j, struct session *s, const struct pp_topology *topo)
{
    json_key(j, "cores");
    json_array(j);
    for (unsigned i = 0; i < topo->ncores; i++) {
        const struct pp_cs_core *c = &topo->cores[i];

        json_object(j);
        json_kuint(j, "cpu", c->cpu);
        json_kstring(j, "type", c->type ? c->type->pretty : NULL);
        json_kuint(j, "debug_base", c->debug_base);
        json_kuint(j, "pmu_base", c->pmu_base);
        if (c->paired == PP_PAIR_NONE)
            json_knull(j, "paired");
        else
            json_kstring(j, "paired", pp_cs_pairing_name(c->paired));
        json_kuint(j, "cti_base", c->cti_base);
        json_kuint(j, "affinity", c->affinity);
        if (c->midr)
            json_kuint(j, "midr", c->midr);
        else
            json_knull(j, "midr");
        json_kuint(j, "debug_part", c->debug_part);
        json_check(j, s, c->cpu);
        json_object_end(j);
    }
    json_array_end(j);
}

/* Errors go to stderr as for text; the document records them too, and is
 * complete whatever failed. */
static int scan_json(struct session *s)
{
    struct pp_topology topo;
    struct pp_component *comp;
    struct json j;
    size_t n;
    int rc, exit_code = EXIT_OK;

    json_begin(&j, stdout);
    json_object(&j);
    json_kstring(&j, "target", s->target->name);
    json_kuint(&j, "rom_base", s->target->rom_base);
    json_kstring(&j, "probe", pp_bus_name(s->bus));
    link_report_json(&j, s->bus);
    json_key(&j, "components");
    json_array(&j);
    rc = pp_scan_bus(s->bus, s->target, &comp, &n, NULL, 0);
    for (size_t i = 0; i < n; i++)
        json_component(&j, &comp[i]);
    free(comp);
    json_array_end(&j);
    if (rc != PP_OK) {
        cli_error("ROM table walk from 0x%08" PRIX32 " failed: %s; check rom.base in %s "
                  "(the AP's BASE register on a real board)", s->target->rom_base,
                  pp_strerror(rc), s->target->path);
        json_kstring(&j, "error", pp_strerror(rc));
        exit_code = rc == PP_E_LINK ? EXIT_PATH : EXIT_TARGET;
    } else if ((rc = pp_topology_discover(s->bus, s->target->rom_base, &topo)) != PP_OK) {
        cli_error("core discovery failed: %s; the ROM tables list no debug block the "
                  "walk could read", pp_strerror(rc));
        json_kstring(&j, "error", pp_strerror(rc));
        exit_code = EXIT_TARGET;
    } else {
        json_cores(&j, s, &topo);
    }
    json_object_end(&j);
    if (!json_end(&j)) {
        cli_error("scan: writing the output failed");
        return EXIT_OUTPUT;
    }
    return exit_code;
}

static int scan_text(struct session *s)
{
    struct pp_topology topo;
    struct pp_component *comp;
    size_t count;
    int rc;

    printf("target %s: ROM table at 0x%08" PRIX32 " via %s\n", s->target->name,
           s->target->rom_base, pp_bus_name(s->bus));
    link_report_print(s->bus);
    rc = pp_scan_bus(s->bus, s->target, &comp, &count, NULL, 0);
    for (size_t i = 0; i < count; i++)
        print_component(&comp[i]);
    free(comp);
    if (rc != PP_OK) {
        cli_error("ROM table walk from 0x%08" PRIX32 " failed: %s; check rom.base in %s "
                  "(the AP's BASE register on a real board)", s->target->rom_base,
                  pp_strerror(rc), s->target->path);
        return rc == PP_E_LINK ? EXIT_PATH : EXIT_TARGET;
    }
    rc = pp_topology_discover(s->bus, s->target->rom_base, &topo);
    if (rc == PP_OK)
        print_cores(&topo);
    else
        cli_error("core discovery failed: %s; the ROM tables list no debug block the "
                  "walk could read", pp_strerror(rc));
    if (rc == PP_OK && check_target(s))
        printf("(the target description's types are used; fix it if the silicon is right)\n");
    printf("\n%zu components, %u cores\n", count, rc == PP_OK ? topo.ncores : 0);
    return rc == PP_OK ? EXIT_OK : EXIT_TARGET;
}

/* --save: a description of the live SoC, whatever --target said, written
 * before the scan so that a failed write costs no scan output. */
static int save(struct session *s, const char *path, bool force)
{
    const char *spec, *probe = s->probe_name;
    char via[16], err[512], *text = NULL;
    FILE *f;
    int rc;

    snprintf(via, sizeof(via), "%.*s", (int)pp_probe_split(probe, &spec), probe);
    rc = pp_discover_text(s->bus, via, &text, NULL, 0, err, sizeof(err));
    if (rc != PP_OK) {
        cli_error("scan --save %s: %s", path, err);
        return rc == PP_E_LINK || rc == PP_E_WAIT ? EXIT_PATH : EXIT_TARGET;
    }
    f = cli_create_output(path, force, "w");
    if (!f) {
        free(text);
        return EXIT_OUTPUT;
    }
    fputs(text, f);
    free(text);
    return cli_close_output(f, path) ? EXIT_OK : EXIT_OUTPUT;
}

static int scan_args(int argc, char **argv, bool *json, const char **save_to, bool *force)
{
    static const struct option longopts[] = {
        { "json", no_argument, NULL, 'j' }, { "save", required_argument, NULL, 's' },
        { "force", no_argument, NULL, 'f' }, { "help", no_argument, NULL, 'h' },
        { NULL, 0, NULL, 0 },
    };
    int ch;

    while ((ch = cli_getopt(argc, argv, "js:fh", longopts, "scan")) != -1) {
        if (ch == 'j')
            *json = true;
        else if (ch == 's')
            *save_to = optarg;
        else if (ch == 'f')
            *force = true;
        else {
            if (ch == 'h')
                help_scan(stdout);
            return ch == 'h' ? EXIT_OK : EXIT_USAGE;
        }
    }
    if (optind < argc) {
        cli_usage("scan", "unexpected argument '%s' (scan takes none)", argv[optind]);
        return EXIT_USAGE;
    }
    return -1;
}

int cmd_scan(const struct cli_opts *o, int argc, char **argv)
{
    struct session s;
    const char *save_to = NULL;
    bool json = false, force = false;
    int rc;

    if ((rc = scan_args(argc, argv, &json, &save_to, &force)) >= 0)
        return rc;
    rc = session_open(o, &s);
    if (rc != EXIT_OK)
        return rc;
    if (save_to)
        rc = save(&s, save_to, force);
    /* "--save -" puts the description on stdout in place of the scan. */
    if (rc == EXIT_OK && !(save_to && strcmp(save_to, "-") == 0))
        rc = json ? scan_json(&s) : scan_text(&s);
    session_close(&s);
    return rc;
}

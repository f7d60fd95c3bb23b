/*
 * cmd_status.c - `pmuprobe status`: per core, what the debug block says
 * about power, locks and authentication, and whether the PMU answers.
 */
#include <stdio.h>

#include "cli.h"
#include "pmu/diag.h"

void help_status(FILE *out)
{
    fprintf(out,
        "Usage: pmuprobe [OPTIONS] status [CPUS]\n"
        "For each core (default: all; CPUS as 0-3, 0,2, cpu1 or all) print whether it\n"
        "is powered, OS-locked, double-locked, halted, whether external non-invasive\n"
        "debug is enabled, and whether its PMU answers; when it does not, the condition\n"
        "that blocks it, the register values that prove it, and what to do.\n"
        "Reading EDPRSR clears its sticky bits; status reads it once per core.\n"
        "Exit status: 0 when every core was diagnosed, 3 when the access path failed.\n");
}

static const char *yesno(bool v)
{
    return v ? "yes" : "no";
}

/* DBGAUTHSTATUS NSNID [3:2]: 0b11 enabled, 0b10 disabled (spec 3.5). */
static const char *auth_str(const struct pp_diag *d)
{
    if (d->authstatus_st != PP_OP_OK)
        return "?";
    return ((d->authstatus >> 2) & 3u) == 3u ? "enabled" : "disabled";
}

static void print_row(const struct pp_core_desc *c, const struct pp_diag *d)
{
    bool known = d->edprsr_st == PP_OP_OK;

    printf("cpu%-2u %-11s %-5s %-6s %-6s %-6s %-9s %s\n", c->cpu, c->type->pretty,
           known ? (d->powered ? "on" : "off") : "?",
           known && d->powered ? yesno(d->oslock) : "-",
           known && d->powered ? yesno(d->doublelock) : "-",
           known && d->powered ? yesno(d->halted) : "-",
           auth_str(d), d->pmu_ok ? "ok" : pp_cause_str(d->cause));
}

static void print_detail(const struct pp_diag *d)
{
    printf("cpu%u: %s\n  evidence: %s\n  remedy:   %s\n", d->cpu, pp_cause_str(d->cause),
           d->evidence, d->remedy ? d->remedy : "-");
}

int cmd_status(const struct cli_opts *o, int argc, char **argv)
{
    struct session s;
    struct pp_diag diag[PP_MAX_CORES];
    uint64_t set = ~0ull;
    unsigned blocked = 0;
    int rc;

    if (argc > 2 || (argc == 2 && argv[1][0] == '-')) {
        help_status(argc == 2 && argv[1][1] == 'h' ? stdout : stderr);
        return argc == 2 && argv[1][1] == 'h' ? EXIT_OK : EXIT_USAGE;
    }
    rc = session_open(o, &s);
    if (rc != EXIT_OK)
        return rc;
    if (argc == 2 && !parse_cpus(s.target, argv[1], &set)) {
        session_close(&s);
        return EXIT_USAGE;
    }
    printf("%-5s %-11s %-5s %-6s %-6s %-6s %-9s %s\n", "cpu", "type", "power", "oslock",
           "dlock", "halted", "auth", "pmu");
    for (unsigned i = 0; i < s.target->ncores; i++) {
        const struct pp_core_desc *c = &s.target->cores[i];

        if (!(set & (1ull << c->cpu)))
            continue;
        rc = pp_diag_core(s.bus, c, &diag[i]);
        if (rc != PP_OK) {
            cli_error("cpu%u: access path failed: %s %s; check the probe and its "
                      "connection, then retry", c->cpu, pp_strerror(rc),
                      pp_bus_errmsg(s.bus));
            session_close(&s);
            return EXIT_PATH;
        }
        print_row(c, &diag[i]);
        blocked += !diag[i].pmu_ok;
    }
    if (blocked)
        printf("\n");
    for (unsigned i = 0; i < s.target->ncores; i++)
        if ((set & (1ull << s.target->cores[i].cpu)) && !diag[i].pmu_ok)
            print_detail(&diag[i]);
    session_close(&s);
    return EXIT_OK;
}

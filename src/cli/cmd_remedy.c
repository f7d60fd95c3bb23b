/*
 * cmd_remedy.c - the remedies the debug interface itself allows, each
 * behind an explicit command: `power` (EDPRCR.COREPURQ) and `unlock`
 * (clear the OS lock through OSLAR).  Facts: spec 3.2, 3.4, 4.3.
 */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "pmu/diag.h"
#include "pmu/power.h"
#include "pmu/regs.h"

void help_power(FILE *out)
{
    fprintf(out,
        "Usage: pmuprobe [OPTIONS] power CPUS on\n"
        "Request core power-up: set EDPRCR.COREPURQ (debug+0x310, bit 3, in the debug\n"
        "power domain, so it can be written with the core off), then poll EDPRSR.PU\n"
        "until the core reports power.  The power controller decides; the request may\n"
        "be refused on some SoCs.  Exit status 1 when a core did not come up.\n");
}

void help_unlock(FILE *out)
{
    fprintf(out,
        "Usage: pmuprobe [OPTIONS] unlock CPUS\n"
        "Clear the OS lock: write 0 to OSLAR_EL1 (debug+0x300) on Armv8, a value other\n"
        "than the key 0xC5ACCE55 to DBGOSLAR on Armv7.  The OS lock belongs to the OS:\n"
        "it sets it at cold reset and around core power-down to save and restore debug\n"
        "state.  Clearing it behind a running OS's back can corrupt that sequence; do\n"
        "it on a board whose OS does not manage it, or when you know it is safe.\n");
}

static int power_up(struct session *s, const struct pp_core_desc *c)
{
    struct pp_power_up pu;
    int rc = pp_power_up(s->bus, c->debug_base, &pu);

    if (pu.write_rc != PP_OK) {
        printf("cpu%u: EDPRCR write at 0x%08" PRIX32 " failed: %s\n", c->cpu,
               c->debug_base + PP_DBG_EDPRCR, pp_strerror(rc));
        return EXIT_TARGET;
    }
    if (rc == PP_OK) {
        printf("cpu%u: powered (EDPRSR=0x%08" PRIX32 ")\n", c->cpu, pu.edprsr);
        return EXIT_OK;
    }
    printf("cpu%u: still off 200 ms after the request (EDPRSR=0x%08" PRIX32 "); the power "
           "controller did not grant it: wake the core from software, or check the SoC's "
           "power controller\n", c->cpu, pu.edprsr);
    return EXIT_TARGET;
}

/* Opens the session and runs fn on each core of the cpu list; returns the
 * worst exit code. */
static int for_each_cpu(const struct cli_opts *o, const char *cpus,
                        int (*fn)(struct session *s, const struct pp_core_desc *c))
{
    struct session s;
    uint64_t set;
    int rc = session_open(o, &s), worst = EXIT_OK;

    if (rc != EXIT_OK)
        return rc;
    if (!parse_cpus(s.target, cpus, &set)) {
        session_close(&s);
        return EXIT_USAGE;
    }
    for (unsigned i = 0; i < s.target->ncores; i++) {
        if (!(set & (1ull << s.target->cores[i].cpu)))
            continue;
        rc = fn(&s, &s.target->cores[i]);
        worst = rc > worst ? rc : worst;
    }
    session_close(&s);
    return worst;
}

int cmd_power(const struct cli_opts *o, int argc, char **argv)
{
    int rc = parse_help_only(argc, argv, "power", help_power);

    if (rc >= 0)
        return rc;
    if (argc - optind != 2 || strcmp(argv[optind + 1], "on") != 0) {
        cli_error("power: expected CPUS on (e.g. power cpu2 on)");
        return EXIT_USAGE;
    }
    return for_each_cpu(o, argv[optind], power_up);
}

/* Zero unlocks both: Armv8 OSLAR_EL1 copies bit 0 to the lock, Armv7
 * DBGOSLAR locks only on the key 0xC5ACCE55 (spec 3.4, 4.3).  OSLAR is in
 * the core domain: a core that is off or double-locked refuses it. */
static int unlock_core(struct session *s, const struct pp_core_desc *c)
{
    struct pp_diag d;
    char text[PP_DIAG_TEXT_MAX];
    int rc = pp_bus_write32(s->bus, c->debug_base + PP_DBG_OSLAR, 0);

    if (rc == PP_OK) {
        printf("cpu%u: OS lock cleared\n", c->cpu);
        return EXIT_OK;
    }
    if (rc == PP_E_SLVERR && pp_diag_core(s->bus, c, &d) == PP_OK)
        printf("cpu%u: OSLAR write refused: %s\n", c->cpu,
               pp_diag_text(&d, 2, text, sizeof(text)));
    else
        printf("cpu%u: OSLAR write failed: %s\n", c->cpu, pp_strerror(rc));
    return rc == PP_E_LINK ? EXIT_PATH : EXIT_TARGET;
}

int cmd_unlock(const struct cli_opts *o, int argc, char **argv)
{
    int rc = parse_help_only(argc, argv, "unlock", help_unlock);

    if (rc >= 0)
        return rc;
    if (argc - optind != 1) {
        cli_error("unlock: expected CPUS (e.g. unlock cpu1)");
        return EXIT_USAGE;
    }
    fprintf(stderr, "pmuprobe: warning: the OS lock belongs to the OS; clearing it under "
                    "a running OS can corrupt its debug save/restore\n");
    return for_each_cpu(o, argv[optind], unlock_core);
}

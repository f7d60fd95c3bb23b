/*
 * cmd_remedy.c - the remedies the debug interface itself allows, each
 * behind an explicit command: `power` (EDPRCR.COREPURQ) and `unlock`
 * (clear the OS lock through OSLAR).  Facts: spec 3.2, 3.4, 4.3.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "pmu/regs.h"

#define EDPRCR_COREPURQ (1u << 3)
#define POWER_POLLS     100

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
    uint32_t prsr = 0;
    int rc = pp_bus_write32(s->bus, c->debug_base + PP_DBG_EDPRCR, EDPRCR_COREPURQ);

    if (rc != PP_OK) {
        printf("cpu%u: EDPRCR write at 0x%08" PRIX32 " failed: %s\n", c->cpu,
               c->debug_base + PP_DBG_EDPRCR, pp_strerror(rc));
        return EXIT_TARGET;
    }
    for (int i = 0; i < POWER_POLLS; i++) {
        rc = pp_bus_read32(s->bus, c->debug_base + PP_DBG_EDPRSR, &prsr);
        if (rc == PP_OK && (prsr & PP_EDPRSR_PU)) {
            printf("cpu%u: powered (EDPRSR=0x%08" PRIX32 ")\n", c->cpu, prsr);
            return EXIT_OK;
        }
    }
    printf("cpu%u: still off after the request (EDPRSR=0x%08" PRIX32 "); the power "
           "controller did not grant it\n", c->cpu, prsr);
    return EXIT_TARGET;
}

int cmd_power(const struct cli_opts *o, int argc, char **argv)
{
    struct session s;
    uint64_t set;
    int rc, worst = EXIT_OK;

    if (argc == 2 && strcmp(argv[1], "--help") == 0) {
        help_power(stdout);
        return EXIT_OK;
    }
    if (argc != 3 || strcmp(argv[2], "on") != 0) {
        cli_error("power: expected CPUS on (e.g. power cpu2 on)");
        return EXIT_USAGE;
    }
    rc = session_open(o, &s);
    if (rc != EXIT_OK)
        return rc;
    if (!parse_cpus(s.target, argv[1], &set)) {
        session_close(&s);
        return EXIT_USAGE;
    }
    for (unsigned i = 0; i < s.target->ncores; i++)
        if (set & (1ull << s.target->cores[i].cpu)) {
            rc = power_up(&s, &s.target->cores[i]);
            worst = rc > worst ? rc : worst;
        }
    session_close(&s);
    return worst;
}

int cmd_unlock(const struct cli_opts *o, int argc, char **argv)
{
    struct session s;
    uint64_t set;
    int rc, worst = EXIT_OK;

    if (argc == 2 && strcmp(argv[1], "--help") == 0) {
        help_unlock(stdout);
        return EXIT_OK;
    }
    if (argc != 2) {
        cli_error("unlock: expected CPUS (e.g. unlock cpu1)");
        return EXIT_USAGE;
    }
    rc = session_open(o, &s);
    if (rc != EXIT_OK)
        return rc;
    if (!parse_cpus(s.target, argv[1], &set)) {
        session_close(&s);
        return EXIT_USAGE;
    }
    fprintf(stderr, "pmuprobe: warning: the OS lock belongs to the OS; clearing it under "
                    "a running OS can corrupt its debug save/restore\n");
    for (unsigned i = 0; i < s.target->ncores; i++) {
        const struct pp_core_desc *c = &s.target->cores[i];

        if (!(set & (1ull << c->cpu)))
            continue;
        /* Zero unlocks both: Armv8 OSLAR_EL1 copies bit 0 to the lock, Armv7
         * DBGOSLAR locks only on the key 0xC5ACCE55 (spec 3.4, 4.3). */
        rc = pp_bus_write32(s.bus, c->debug_base + PP_DBG_OSLAR, 0);
        printf("cpu%u: OS lock %s\n", c->cpu, rc == PP_OK ? "cleared" : pp_strerror(rc));
        if (rc != PP_OK)
            worst = EXIT_TARGET;
    }
    session_close(&s);
    return worst;
}

/*
 * cmd_reset.c - `pmuprobe reset [trst|srst|both]`: pulses the adapter's
 * reset pins, as OpenOCD's `reset` does with the signals its
 * `reset_config` names, then examines the JTAG-DP again.
 *
 * The pulse goes between opening the link and examining the DP (session
 * open with o->reset set: probe_ftdi.c, and the rbb path opened here), so
 * a target whose DP does not answer before the reset can still be reset,
 * and the JTAG layer starts from what the reset left (Test-Logic-Reset
 * after nTRST).
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "adi/adi.h"
#include "cli.h"
#include "link/rbb.h"

void help_reset(FILE *out)
{
    fprintf(out,
        "Usage: pmuprobe [OPTIONS] reset [srst|trst|both]\n"
        "Pulse the adapter's reset pins, then examine the JTAG-DP again (chain, debug\n"
        "power-up, APB-AP).  srst (the default) asserts nSRST, the system reset; trst\n"
        "asserts nTRST, the TAP reset; both asserts the two.  Each pin is held low for\n"
        "%u ms, then released.\n"
        "-p ftdi drives the pins of the --adapter layout (its nTRST/nSRST; custom:\n"
        "layouts give them with trst= and srst=); -p rbb sends remote_bitbang's reset\n"
        "commands.  -p sim and -p openocd are refused: the simulated SoC has no pins,\n"
        "and OpenOCD resets with its own reset_config and reset commands.\n"
        "Exit status: 0 when the pins were pulsed and the DP answered again, 2 when the\n"
        "path or the adapter layout has no such pin, 3 when the access path failed.\n",
        PP_LINK_RESET_HOLD_MS);
}

static bool parse_pins(const char *arg, unsigned *pins)
{
    if (strcmp(arg, "srst") == 0)
        *pins = CLI_RESET_SRST;
    else if (strcmp(arg, "trst") == 0)
        *pins = CLI_RESET_TRST;
    else if (strcmp(arg, "both") == 0)
        *pins = CLI_RESET_TRST | CLI_RESET_SRST;
    else
        return false;
    return true;
}

static const char *pin_names(unsigned pins)
{
    if (pins == (CLI_RESET_TRST | CLI_RESET_SRST))
        return "nTRST and nSRST";
    return pins & CLI_RESET_TRST ? "nTRST" : "nSRST";
}

int cli_reset_pulse(const struct cli_opts *o, struct pp_link *link)
{
    int rc;

    if (!o->reset)
        return EXIT_OK;
    rc = pp_link_reset_pulse(link, o->reset & CLI_RESET_TRST, o->reset & CLI_RESET_SRST,
                             PP_LINK_RESET_HOLD_MS);
    if (rc == PP_OK)
        return EXIT_OK;
    cli_error("reset: %s", link->errmsg);
    return rc == PP_E_UNSUPPORTED ? EXIT_USAGE : EXIT_PATH;
}

int cli_bus_over_link(const struct cli_opts *o, struct pp_link *link, struct session *s,
                      char *err, size_t errlen)
{
    int rc = cli_reset_pulse(o, link);

    if (rc != EXIT_OK) {
        pp_link_close(link);
        return rc;
    }
    /* The bus owns the link and the tracer from here, also on failure. */
    s->bus = pp_bus_adi_new_traced(link, s->target, cli_take_trace(s), err, errlen);
    return s->bus ? EXIT_OK : EXIT_PATH;
}

/* The rbb path as the library opens it (lib/session/path_rbb.c), with the
 * pulse before the DP is examined. */
int probe_open_rbb_reset(const struct cli_opts *o, const char *spec, struct session *s)
{
    struct pp_link *link;
    char err[512];
    int rc;

    if (pp_link_rbb_open(spec, &link, err, sizeof(err)) != PP_OK) {
        cli_error("--probe %s: %s", o->probe, err);
        return EXIT_PATH;
    }
    err[0] = '\0';
    rc = cli_bus_over_link(o, link, s, err, sizeof(err));
    if (rc != EXIT_OK && err[0])
        cli_error("--probe %s: after the reset: %s", o->probe, err);
    return rc;
}

int cmd_reset(const struct cli_opts *o, int argc, char **argv)
{
    struct cli_opts ro = *o;
    struct link_report r;
    struct session s;
    int rc;

    rc = parse_help_only(argc, argv, "reset", help_reset);
    if (rc >= 0)
        return rc;
    ro.reset = CLI_RESET_SRST;
    if (argc - optind > 1 || (argc - optind == 1 && !parse_pins(argv[optind], &ro.reset))) {
        cli_error("reset: expected srst, trst or both (e.g. reset srst)");
        return EXIT_USAGE;
    }
    rc = session_open(&ro, &s);
    if (rc != EXIT_OK)
        return rc;
    link_report(s.bus, &r);
    printf("reset: %s asserted for %u ms, then released\n%s\n"
           "JTAG-DP examined again: debug domain powered up, APB-AP found\n",
           pin_names(ro.reset), PP_LINK_RESET_HOLD_MS, r.line);
    session_close(&s);
    return EXIT_OK;
}

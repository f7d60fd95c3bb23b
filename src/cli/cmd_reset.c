/*
 * cmd_reset.c - `pmuprobe reset [trst|srst|both]`: pulses the adapter's
 * reset pins, as OpenOCD's `reset` does with the signals its
 * `reset_config` names, then examines the JTAG-DP again.
 *
 * The pulse goes between opening the link and examining the DP (session
 * open with o->reset set: the library's pp_open_opts.reset, in
 * lib/session/path_rbb.c), so a target whose DP does not answer before
 * the reset can still be reset, and the JTAG layer starts from what the
 * reset left (Test-Logic-Reset after nTRST).
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "link/link.h"

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

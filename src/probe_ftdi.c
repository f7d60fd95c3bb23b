/*
 * probe_ftdi.c - the 'ftdi' access path.  Placeholder until the path lands:
 * it refuses with a message rather than pretending to work.
 */
#include "cli.h"

int probe_open_ftdi(const struct cli_opts *o, const char *spec, struct session *s)
{
    (void)o; (void)spec; (void)s;
    cli_error("--probe ftdi: this build has no ftdi access path yet");
    return EXIT_USAGE;
}

/*
 * probe_openocd.c - the 'openocd' access path.  Placeholder until the path lands:
 * it refuses with a message rather than pretending to work.
 */
#include "cli.h"

int probe_open_openocd(const struct cli_opts *o, const char *spec, struct session *s)
{
    (void)o; (void)spec; (void)s;
    cli_error("--probe openocd: this build has no openocd access path yet");
    return EXIT_USAGE;
}

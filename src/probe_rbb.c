/*
 * probe_rbb.c - the 'rbb' access path.  Placeholder until the path lands:
 * it refuses with a message rather than pretending to work.
 */
#include "cli.h"

int probe_open_rbb(const struct cli_opts *o, const char *spec, struct session *s)
{
    (void)o; (void)spec; (void)s;
    cli_error("--probe rbb: this build has no rbb access path yet");
    return EXIT_USAGE;
}

/*
 * cmd_convert.c - `pmuprobe convert`.  Placeholder until the command lands: it
 * refuses with a message rather than pretending to work.
 */
#include "cli.h"

void help_convert(FILE *out)
{
    fprintf(out, "Usage: pmuprobe convert (not in this build yet)\n");
}

int cmd_convert(const struct cli_opts *o, int argc, char **argv)
{
    (void)o; (void)argc; (void)argv;
    cli_error("convert: not in this build yet");
    return EXIT_USAGE;
}

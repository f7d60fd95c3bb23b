/*
 * cmd_top.c - `pmuprobe top`.  Placeholder until the command lands: it
 * refuses with a message rather than pretending to work.
 */
#include "cli.h"

void help_top(FILE *out)
{
    fprintf(out, "Usage: pmuprobe top (not in this build yet)\n");
}

int cmd_top(const struct cli_opts *o, int argc, char **argv)
{
    (void)o; (void)argc; (void)argv;
    cli_error("top: not in this build yet");
    return EXIT_USAGE;
}

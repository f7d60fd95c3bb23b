/*
 * cmd_stat.c - `pmuprobe stat`.  Placeholder until the command lands: it
 * refuses with a message rather than pretending to work.
 */
#include "cli.h"

void help_stat(FILE *out)
{
    fprintf(out, "Usage: pmuprobe stat (not in this build yet)\n");
}

int cmd_stat(const struct cli_opts *o, int argc, char **argv)
{
    (void)o; (void)argc; (void)argv;
    cli_error("stat: not in this build yet");
    return EXIT_USAGE;
}

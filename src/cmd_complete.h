/*
 * cmd_complete.h - what pmuprobe.c calls besides the commands: the hidden
 * completion interface (`pmuprobe __complete KIND`, used by the bash
 * completion) and --version.
 */
#ifndef PP_CMD_COMPLETE_H
#define PP_CMD_COMPLETE_H

#include <stddef.h>
#include <stdio.h>

#include "cli.h"

/*
 * pmuprobe [-t TARGET] __complete KIND [ARG]: one candidate per line.
 *   commands          the command names (and "help")
 *   options [CMD]     the global options, or CMD's, from their help text
 *   registers [CPUS]  register names of the target's cores (all by default)
 *   events [CPUS]     event mnemonics of those cores' catalogs
 *   cpus              all, cpuN
 *   targets           target names found where -t looks
 *   formats           capture formats (stream/convert --format)
 *   probes            access path prefixes for -p
 * Silent on stderr by design: a completion must not print into the line
 * being edited.  Returns 0, or 2 for an unknown KIND.
 */
int cmd_complete(const struct cli_opts *o, int argc, char **argv,
                 const struct command *cmds, size_t ncmds, void (*global_help)(FILE *out));

/* "pmuprobe VERSION", then the access paths and features built in, with
 * the versions of the libraries they use as those report them at run
 * time (src/version.c). */
void print_version(FILE *out);

#endif

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
 *   options [CMD]     the global options, or CMD's, from the tables they
 *                     are parsed with (cli_describe_options)
 *   valued [CMD]      those of them that take a value
 *   registers [CPUS]  register names of the target's cores (all by default)
 *   events [CPUS]     the perf aliases that resolve on those cores, then
 *                     the event mnemonics of their catalogs
 *   cpus              all, cpuN
 *   cpu               cpuN (events takes one core)
 *   faults            --fault specs: cpuN:ACTION, dp:overrun, dp:wait:
 *   metrics           the metrics plot --metric takes, as one word each
 *   targets           target names found where -t looks
 *   formats           capture formats (stream/convert --format)
 *   probes            access path prefixes for -p
 * Silent on stderr by design: a completion must not print into the line
 * being edited.  Returns 0, or 2 for an unknown KIND.
 */
int cmd_complete(const struct cli_opts *o, int argc, char **argv,
                 const struct command *cmds, size_t ncmds, const struct cli_optspec *global);

/* "pmuprobe VERSION", then the access paths and features built in, with
 * the versions of the libraries they use as those report them at run
 * time (src/version.c). */
void print_version(FILE *out);

#endif

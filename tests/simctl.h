/*
 * simctl.h - a client of pmuprobe-sim's control channel (man pmuprobe-sim,
 * CONTROL CHANNEL) for the measuring programs: tests/ocd_bench and
 * bench/pp-bench reset the server's counters just before their samples
 * and read them just after.
 */
#ifndef PP_TESTS_SIMCTL_H
#define PP_TESTS_SIMCTL_H

#include <stddef.h>
#include <stdint.h>

/*
 * Sends one command on the unix socket sock and reads the reply's first
 * line into reply[n].  0 when the reply starts "ok"; -1 otherwise, with
 * the reason in err[errlen] (cannot connect or send, or the reply).
 */
int simctl_command(const char *sock, const char *cmd, char *reply, size_t n, char *err,
                   size_t errlen);

/* The value of " KEY=N" in a stats reply; -1 when KEY is absent (a
 * counter is never negative, so a caller can tell a missing key from 0). */
int64_t simctl_stat(const char *reply, const char *key);

#endif

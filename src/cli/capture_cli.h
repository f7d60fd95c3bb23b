/*
 * capture_cli.h - what `stream` (alias `record`) and `stat` share: the
 * options that choose cores, events and timing, the setup of a capture
 * on the open session (events per core or per core type, programming with
 * ownership checks), the run with clean stops on SIGINT/SIGTERM and a
 * progress line, and the summary on stderr.
 */
#ifndef PP_CAPTURE_CLI_H
#define PP_CAPTURE_CLI_H

#include <getopt.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "capture/capture.h"
#include "cli.h"

#define CAPCLI_MAX_LISTS 16
#define CAPCLI_DEFAULT_EVENTS "cycles,instructions,L1D_CACHE_REFILL,BR_MIS_PRED"

/* Long options both commands take (values above 255). */
enum {
    CAPOPT_OBSERVE = 300, CAPOPT_STEAL, CAPOPT_RING, CAPOPT_POLICY, CAPOPT_REALTIME,
    CAPOPT_NO_EDPRSR, CAPOPT_QUIET, CAPOPT_RETRY, CAPOPT_LIVE,
};

struct capcli_opts {
    const char *cpus;
    const char *lists[CAPCLI_MAX_LISTS];   /* -e as given, [TYPE:]LIST */
    unsigned nlists;
    uint64_t interval_ns, duration_ns, count, retry_ns;
    bool snapshot, live, observe, steal, realtime, no_edprsr, quiet;
    size_t ring;
    enum pp_cap_policy policy;
};

/*
 * Handles one option both commands share (-c -e -i -d -n -s and the
 * CAPOPT_* long ones).  Returns 1 when handled, 0 when the option is not
 * a shared one, -1 after printing why its value is wrong.
 */
int capcli_option(int ch, const char *arg, struct capcli_opts *co);
/* Checks the combination; prints and returns EXIT_USAGE when wrong. */
int capcli_check(const struct capcli_opts *co, const char *cmd);

/* The long options every capture command takes; a command's table starts
 * with these and adds its own, then { NULL, 0, NULL, 0 }. */
#define CAPCLI_LONGOPTS                                                                 \
    { "cpu", required_argument, NULL, 'c' }, { "cpus", required_argument, NULL, 'c' },  \
    { "events", required_argument, NULL, 'e' },                                          \
    { "interval", required_argument, NULL, 'i' },                                        \
    { "duration", required_argument, NULL, 'd' }, { "count", required_argument, NULL, 'n' }, \
    { "snapshot", no_argument, NULL, 's' }, { "observe", no_argument, NULL, CAPOPT_OBSERVE }, \
    { "live", no_argument, NULL, CAPOPT_LIVE },                                          \
    { "steal", no_argument, NULL, CAPOPT_STEAL }, { "quiet", no_argument, NULL, 'q' },   \
    { "realtime", no_argument, NULL, CAPOPT_REALTIME },                                  \
    { "retry", required_argument, NULL, CAPOPT_RETRY },                                  \
    { "no-edprsr", no_argument, NULL, CAPOPT_NO_EDPRSR },                                \
    { "help", no_argument, NULL, 'h' }
/* Their short letters; a command's short option string starts with
 * CAPCLI_SHORTOPTS and adds its own.  Taking counters in use has no short
 * letter: -f is --force (overwrite the output file) in every command that
 * writes one, so it cannot mean --steal here: one letter, one meaning. */
#define CAPCLI_SHORTOPTS "c:e:i:d:n:sqh"

/*
 * The getopt loop of a capture command (cli_getopt: options anywhere,
 * usage errors in one line): each option goes first to own() (the
 * command's options; 1 taken, 0 not its, -1 bad value, printed), then to
 * the shared ones.  -h prints help to stdout.  Ends with capcli_check.
 * Returns EXIT_OK, EXIT_USAGE (after a message), or -1 after --help.
 */
int capcli_parse(int argc, char **argv, const char *shortopts, const struct option *longopts,
                 const char *cmd, struct capcli_opts *co,
                 int (*own)(int ch, const char *arg, void *ctx), void *ctx,
                 void (*help)(FILE *out));

/* SIGINT and SIGTERM set a flag (capcli_stop_signal) instead of killing
 * the process, so a capture ends with a complete output; SIGPIPE is
 * ignored so a closed pipe is a write error.  restore undoes it. */
struct capcli_signals {
    struct sigaction intr, term, pipe;
};
void capcli_signals_catch(struct capcli_signals *old);
void capcli_signals_restore(const struct capcli_signals *old);
/* The signal that asked to stop since the last catch, or 0. */
int capcli_stop_signal(void);

/* Help text of the shared options, as one command takes them: its -i
 * default, whether -n counts intervals (top's -n counts frames and is
 * described by top) and whether it has --ring and --policy. */
struct capcli_help {
    const char *interval_default;
    bool count, ring;
};
void capcli_help_options(FILE *out, const struct capcli_help *h);
/* stream's: -i 100ms, -n, --ring and --policy. */
void capcli_help_common(FILE *out);

/*
 * Opens the session, resolves the cores and events, and programs every
 * core (or, under --observe, reads what it runs).  Prints each refusal,
 * note and diagnosis.  *cap is NULL unless EXIT_OK is returned; any
 * failure closes the session.  *worst gets EXIT_TARGET when a core could
 * not be programmed or read but the capture can go on without it.
 */
int capcli_setup(const struct cli_opts *o, const struct capcli_opts *co, struct session *s,
                 struct pp_cap **cap, int *worst);

/*
 * Runs the capture to its end: SIGINT/SIGTERM stop it cleanly (the
 * output is completed), SIGPIPE is ignored so a closed pipe is a write
 * error, and with progress a one-line status on stderr is refreshed.
 */
int capcli_run(struct pp_cap *cap, const struct pp_cap_out *out, bool progress);

/* The summary on stderr: rate, jitter, late, dropped, bytes, gaps per core
 * and cause with the diagnosis, and why the capture stopped. */
void capcli_summary(const struct pp_cap *cap, const char *cmd, const char *output);
/* The same with the bytes the command itself wrote (top's frames, written
 * on its own thread, the last one after the capture's end), or
 * CAPCLI_BYTES_UNKNOWN (the screen: curses does not say). */
#define CAPCLI_BYTES_UNKNOWN UINT64_MAX
void capcli_summary_bytes(const struct pp_cap *cap, const char *cmd, const char *output,
                          uint64_t bytes);

/* A stop the command asked for, not a signal (top's q key): the summary
 * names it, e.g. "the q key".  A string literal. */
void capcli_stop_reason(const char *why);

/* Under --quiet, which drops the summary: why the capture failed (path
 * lost, output failed), if it did, since an error is not a summary. */
void capcli_report_failure(const struct pp_cap *cap, const char *output);

/* Exit status from the summary: 3 path lost, 4 output failed, 1 gaps. */
int capcli_exit_code(const struct pp_cap *cap);

/* Releases the PMUs, frees the capture and closes the session. */
void capcli_close(struct pp_cap *cap, struct session *s);

/* Sink adapter: a pp_sink driven as a struct pp_cap_out. */
struct pp_sink;
struct pp_cap_out capcli_sink_out(struct pp_sink *sink);

#endif

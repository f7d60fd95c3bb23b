/*
 * cli.h - what the pmuprobe commands share: global options, the open
 * session (target description, access path, simulated SoC) and helpers
 * for the arguments every command takes.
 */
#ifndef PP_CLI_H
#define PP_CLI_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "pmuprobe.h"
#include "pmu/program.h"
#include "target/target.h"

#define CLI_MAX_FAULTS 32
#define CLI_MAX_EVENTS (PP_MAX_COUNTERS + 1)   /* every counter and the cycle counter */

/* Exit codes: 0 ok, 1 a target condition or access failed, 2 bad usage or
 * input, 3 the access path itself failed (link lost, probe dead), 4 the
 * output could not be written (or would have overwritten a file). */
enum { EXIT_OK = 0, EXIT_TARGET = 1, EXIT_USAGE = 2, EXIT_PATH = 3, EXIT_OUTPUT = 4 };

struct cli_opts {
    const char *target;             /* name or path */
    const char *probe;              /* "sim" */
    const char *sim_time;           /* NULL = as the target says */
    const char *faults[CLI_MAX_FAULTS];
    unsigned nfaults;
    const char *adapter;            /* ftdi: adapter layout name, NULL = default */
    const char *transport;          /* ftdi, cmsis-dap: --transport jtag|swd, NULL = jtag */
    unsigned speed_khz;             /* TCK request, 0 = the path's default */
    unsigned reset;                 /* CLI_RESET_* pins to pulse before the DP is
                                     * examined (the reset command only) */
    bool reconnect;                 /* openocd: retry a lost connection */
    const char *jtag_chain;         /* rbb, ftdi: --jtag-chain, NULL = the target's */
};

/* The wire trace (trace_out.c): --trace[=FILE] and --trace-level open it
 * before the command, session_open hands it to the session, main closes
 * it last (a failed write of the trace file makes rc EXIT_OUTPUT). */
int cli_trace_open(const char *file, const char *level);
int cli_trace_start(struct pp_session *ps);
int cli_trace_close(int rc);

struct session {
    struct pp_target *target;
    struct pp_target *described;    /* as the file said, when "type = auto"
                                     * cores were resolved into target */
    struct pp_sim *sim;             /* NULL on non-sim paths */
    struct pp_bus *bus;
    char probe_name[64];            /* the access path as given, for output */
};

/* The reset pins are the library's (pp_open_opts.reset). */
#define CLI_RESET_TRST PP_RESET_TRST
#define CLI_RESET_SRST PP_RESET_SRST

/*
 * The link under a bus, as the user is told about it (link_report.c).
 * tck_hz is the clock pmuprobe set (ftdi: after the divisor's rounding),
 * 0 where something else sets it; tck says which in words ("6.000 MHz
 * (asked 7.000 MHz)", "set by the remote_bitbang server").  line is the
 * "link: ..." line; status and scan print it only where pmuprobe sets
 * the clock, so the other paths print what the simulated SoC prints.
 */
struct link_report {
    const char *name;               /* the bus's: "ftdi", "rbb", "openocd", "sim" */
    uint32_t tck_hz, asked_hz;
    uint32_t timer_hz;              /* cmsis-dap: the probe's Test Domain Timer, 0 none */
    char tck[96];
    char line[256];
};
struct pp_bus;
struct pp_link;
struct json;
void link_report(struct pp_bus *bus, struct link_report *r);
/* "link": {name, tck_hz, tck_asked_hz (null when not pmuprobe's), tck}; on
 * cmsis-dap also timer_hz (null when the probe has no timer). */
void link_report_json(struct json *j, struct pp_bus *bus);
/* The line, where pmuprobe sets the clock (tck_hz != 0). */
void link_report_print(struct pp_bus *bus);
struct command {
    const char *name;
    int (*run)(const struct cli_opts *o, int argc, char **argv);
    const char *summary;
    void (*help)(FILE *out);
};

/* Opens target, path and faults; prints the reason and returns an exit
 * code on failure. */
int session_open(const struct cli_opts *o, struct session *s);
void session_close(struct session *s);

/* "cpu2", "2", "0-3", "0,2", "all" -> bit set of cpus present in t.
 * Prints a message naming the input and returns false when invalid. */
bool parse_cpus(const struct pp_target *t, const char *arg, uint64_t *set);
/* One cpu: "cpu2" or "2". */
const struct pp_core_desc *parse_cpu(const struct pp_target *t, const char *arg);
/*
 * A time option: a decimal number (a fraction allowed) and a unit, ns, us,
 * ms, s, m or h ("500us", "1.5s", "12h").  A bare number is milliseconds
 * where bare_ms says so (-i, -I, --refresh: perf stat -I's unit), refused
 * elsewhere (-d, --retry: seconds or milliseconds would both be guesses).
 * Outside min_ns..max_ns is refused with the range.  Prints "OPT 'ARG':
 * what was expected" and returns false when wrong.
 */
struct cli_time {
    const char *opt;              /* "--interval", as the message names it */
    uint64_t min_ns, max_ns;
    bool bare_ms;
};
bool cli_parse_time(const struct cli_time *t, const char *arg, uint64_t *ns);
/* A decimal count from min to max; what is "a number of intervals".
 * Prints the range and returns false when arg is not one. */
bool cli_parse_count(const char *opt, const char *arg, uint64_t min, uint64_t max,
                     const char *what, uint64_t *n);
bool parse_u32(const char *arg, uint32_t *v);
/* vfprintf that adds what it wrote to *bytes: the byte counts the capture
 * summaries print (stat, the stream table) come from here. */
void cli_vcount(FILE *f, uint64_t *bytes, const char *fmt, va_list ap);

/*
 * getopt_long as every command calls it: options and operands in any
 * order (GNU style), "--" ending the options, and a usage error reported
 * in one line, "pmuprobe: CMD: unknown option '-z' (try 'pmuprobe help
 * CMD')" (also: a missing value, a value given to a flag, an ambiguous
 * abbreviation).  Returns the option, -1 at the end (optind at the first
 * operand; the operands follow in their order), or '?' after that line.
 * shortopts is getopt's string without any leading '+', '-' or ':'.
 */
struct option;
int cli_getopt(int argc, char **argv, const char *shortopts, const struct option *longopts,
               const char *cmd);
/* "pmuprobe: CMD: WHAT (try 'pmuprobe help CMD')", for a usage error. */
void cli_usage(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/*
 * The options a command takes, as its cli_getopt call names them: with
 * cli_describe_options(&spec) set, the next cli_getopt stores its tables
 * in spec and returns '?' without printing, so the command returns at
 * once as after any usage error, having touched nothing.  The bash
 * completion's option names come from there (cmd_complete.c), so they
 * cannot drift from what the command accepts.  NULL ends it.
 */
struct cli_optspec {
    const char *shortopts;
    const struct option *longopts;
};
void cli_describe_options(struct cli_optspec *into);

/* Options of the commands that take only -j/--json and -h/--help (scan,
 * status, events).  Returns -1 to go on (optind at the first operand), or
 * the exit code after help (-h) or a usage error (said in one line). */
int parse_json_only(int argc, char **argv, const char *cmd, void (*help)(FILE *out),
                    bool *json);
/* The same for the commands that take no option but -h/--help (power,
 * unlock, reset). */
int parse_help_only(int argc, char **argv, const char *cmd, void (*help)(FILE *out));
/* Resolves a comma-separated event list for one core (ev[] gets them in
 * the order asked, CLI_MAX_EVENTS slots) and allocates them to counters.
 * Prints what is wrong and returns EXIT_USAGE on failure. */
int plan_events(const struct pp_core_desc *c, const char *events, struct pp_evsel *ev,
                unsigned *n, struct pp_pmu_prog *prog);

/*
 * Output files never clobber by accident.  path NULL or "-"
 * is stdout.  A character device (/dev/null, /dev/full, a tty) or a FIFO
 * is written as is: nothing is lost by writing to it.  Any other existing
 * file (a symlink too, even a dangling one) is refused unless force:
 * "FILE exists; pass --force to overwrite".  A new file is created with
 * O_CREAT|O_EXCL, so a file that appears between check and create is not
 * overwritten either.  With force, an existing symlink or a file with
 * more than one hard link is replaced (unlinked, then created
 * exclusively), never written through, except names under /dev and /proc
 * (/dev/stdout).  mode is fopen's ("w", "wb").  Prints the reason
 * and returns NULL (the caller exits with EXIT_OUTPUT) on failure.
 */
FILE *cli_create_output(const char *path, bool force, const char *mode);
/* The same check without creating anything, for commands that want to
 * refuse before they touch the target; prints the reason when false. */
bool cli_output_ok(const char *path, bool force);
/* Closes what cli_create_output returned (stdout is flushed, not closed);
 * false after a write error, with the reason printed. */
bool cli_close_output(FILE *f, const char *path);

/* Prints "pmuprobe: " + message to stderr. */
void cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

int cmd_scan(const struct cli_opts *o, int argc, char **argv);
int cmd_status(const struct cli_opts *o, int argc, char **argv);
int cmd_read(const struct cli_opts *o, int argc, char **argv);
int cmd_write(const struct cli_opts *o, int argc, char **argv);
int cmd_power(const struct cli_opts *o, int argc, char **argv);
int cmd_unlock(const struct cli_opts *o, int argc, char **argv);
int cmd_stream(const struct cli_opts *o, int argc, char **argv);
int cmd_config(const struct cli_opts *o, int argc, char **argv);
int cmd_events(const struct cli_opts *o, int argc, char **argv);
int cmd_stat(const struct cli_opts *o, int argc, char **argv);
int cmd_top(const struct cli_opts *o, int argc, char **argv);
int cmd_convert(const struct cli_opts *o, int argc, char **argv);
int cmd_plot(const struct cli_opts *o, int argc, char **argv);
int cmd_reset(const struct cli_opts *o, int argc, char **argv);
void help_scan(FILE *out);
void help_status(FILE *out);
void help_read(FILE *out);
void help_write(FILE *out);
void help_power(FILE *out);
void help_unlock(FILE *out);
void help_stream(FILE *out);
void help_config(FILE *out);
void help_events(FILE *out);
void help_stat(FILE *out);
void help_top(FILE *out);
void help_convert(FILE *out);
void help_plot(FILE *out);
void help_reset(FILE *out);

#endif

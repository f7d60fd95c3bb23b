/*
 * session.c - opening what a command works on.  The library does the work
 * (lib/session: target, the sim and rbb paths, faults, "type = auto"
 * identification); this file maps the command-line options onto it, opens
 * the paths the library does not have yet (openocd, ftdi: src/probe_*.c),
 * prints the messages and picks exit codes.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bus/bus.h"
#include "cli.h"
#include "session/session.h"
#include "sim/sim.h"

/* Messages quote what peers and files sent; a control byte among them (an
 * escape sequence aimed at the terminal) is shown as \xNN, never sent.
 * Bytes >= 0x80 pass: they are UTF-8 in file names. */
void cli_error(const char *fmt, ...)
{
    char msg[2048];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    fputs("pmuprobe: ", stderr);
    for (const char *p = msg; *p; p++) {
        unsigned char c = (unsigned char)*p;

        if ((c < 0x20 && c != '\n' && c != '\t') || c == 0x7F)
            fprintf(stderr, "\\x%02X", c);
        else
            fputc(c, stderr);
    }
    fputc('\n', stderr);
}

/* open == NULL: the library opens this path (pp_session_attach). */
static const struct probe_kind probes[] = {
    { "sim",     NULL,               "sim" },
    { "rbb",     NULL,               "rbb:HOST:PORT | rbb:unix:PATH" },
    { "openocd", probe_open_openocd, "openocd[:HOST[:PORT]]" },
    { "ftdi",    probe_open_ftdi,    "ftdi[:VID:PID[:SERIAL]][@INTERFACE]" },
};
#define NPROBES (sizeof(probes) / sizeof(probes[0]))

static const struct probe_kind *find_probe(const char *arg, const char **spec)
{
    size_t len = pp_probe_split(arg, spec);

    for (size_t i = 0; i < NPROBES; i++)
        if (strlen(probes[i].name) == len && strncmp(probes[i].name, arg, len) == 0)
            return &probes[i];
    return NULL;
}

static void unknown_probe(const char *arg)
{
    char forms[256] = "";
    size_t n = 0;

    for (size_t i = 0; i < NPROBES && n < sizeof(forms); i++)
        n += (size_t)snprintf(forms + n, sizeof(forms) - n, "%s%s", i ? ", " : "",
                              probes[i].usage);
    cli_error("--probe '%s': unknown access path (expected one of: %s)", arg, forms);
}

static int sim_time_opt(const struct cli_opts *o, int *mode)
{
    *mode = PP_SIM_TIME_DEFAULT;
    if (!o->sim_time)
        return EXIT_OK;
    if (strcmp(o->sim_time, "realtime") == 0)
        *mode = PP_SIM_TIME_REALTIME;
    else if (strcmp(o->sim_time, "deterministic") == 0)
        *mode = PP_SIM_TIME_DETERMINISTIC;
    else {
        cli_error("--sim-time '%s': expected 'deterministic' or 'realtime'", o->sim_time);
        return EXIT_USAGE;
    }
    return EXIT_OK;
}

/* The option checks that are about the command line, then the library. */
static int attach_lib(const struct cli_opts *o, const struct probe_kind *k, struct pp_session *ps)
{
    struct pp_open_opts opts = { .faults = o->faults, .nfaults = o->nfaults };
    bool sim = strcmp(k->name, "sim") == 0;
    char err[512];
    int rc = sim_time_opt(o, &opts.sim_time);

    if (rc != EXIT_OK)
        return rc;
    if (!sim && o->sim_time) {
        cli_error("--sim-time belongs to the simulated SoC: give it to pmuprobe-sim, "
                  "not to --probe %s", k->name);
        return EXIT_USAGE;
    }
    /* remote_bitbang has no clock of its own (spec/openocd.md 1.3). */
    if (o->speed_khz)
        cli_error("warning: --speed is ignored on %s", sim ? "sim: the in-process simulated "
                  "SoC has no JTAG clock" : "rbb: the server sets the pace");
    err[0] = '\0';
    rc = pp_session_attach(ps, o->probe, &opts, err, sizeof(err));
    if (rc == PP_OK)
        return EXIT_OK;
    if (sim) {
        cli_error("%s", err);
        return rc == PP_E_NOMEM ? EXIT_PATH : EXIT_USAGE;
    }
    cli_error("--probe %s: %s", o->probe, err);
    return rc == PP_E_INVAL ? EXIT_USAGE : EXIT_PATH;
}

/* openocd and ftdi still open in src/probe_*.c, on the CLI's session. */
static int attach_cli(const struct cli_opts *o, const struct probe_kind *k, const char *spec,
                      struct pp_session *ps)
{
    struct session s = { .target = ps->target, .trace = pp_session_take_trace(ps) };
    int rc;

    snprintf(s.probe_name, sizeof(s.probe_name), "%s", o->probe);
    rc = k->open(o, spec, &s);
    ps->bus = s.bus;
    ps->sim = s.sim;
    ps->trace = s.trace;        /* not taken: the library gives it to the bus */
    pp_session_trace_bus(ps);
    return rc;
}

/* The reset command pulses pins between opening the link and examining
 * the DP: only paths whose link pmuprobe drives can (cmd_reset.c). */
static int attach_reset(const struct cli_opts *o, const struct probe_kind *k,
                        const char *spec, struct pp_session *ps)
{
    static const struct probe_kind rbb = { "rbb", probe_open_rbb_reset, NULL };

    if (strcmp(k->name, "ftdi") == 0)
        return attach_cli(o, k, spec, ps);
    if (strcmp(k->name, "rbb") == 0)
        return attach_cli(o, &rbb, spec, ps);
    if (strcmp(k->name, "openocd") == 0)
        cli_error("reset: on -p openocd, OpenOCD drives the reset pins: use its reset_config "
                  "and reset commands (telnet port 4444)");
    else
        cli_error("reset: the in-process simulated SoC (-p %s) has no reset pins; use -p "
                  "ftdi, or -p rbb with pmuprobe-sim", k->name);
    return EXIT_USAGE;
}

static int finish(struct pp_session *ps)
{
    char note[1024];
    int rc = pp_session_finish(ps, note, sizeof(note));

    if (rc != PP_OK) {
        cli_error("identifying the 'type = auto' cores of %s: %s", ps->target->path,
                  note[0] ? note : pp_strerror(rc));
        return rc == PP_E_PARSE || rc == PP_E_IO ? EXIT_USAGE : EXIT_PATH;
    }
    for (char *line = strtok(note, "\n"); line; line = strtok(NULL, "\n"))
        fprintf(stderr, "pmuprobe: warning: %s\n", line);
    return EXIT_OK;
}

/* --jtag-chain replaces the target's jtag.chain: what the own JTAG stack
 * expects to find (lib/link/jtagchain.h). */
static int chain_opt(const struct cli_opts *o, const struct probe_kind *k, struct pp_target *t)
{
    char err[300];

    if (!o->jtag_chain)
        return EXIT_OK;
    if (strcmp(k->name, "rbb") != 0 && strcmp(k->name, "ftdi") != 0) {
        cli_error("--jtag-chain describes the chain pmuprobe's own JTAG stack drives "
                  "(--probe rbb or ftdi), not --probe %s", k->name);
        return EXIT_USAGE;
    }
    if (pp_jtag_chain_parse(o->jtag_chain, &t->jtag, err, sizeof(err)) != PP_OK) {
        cli_error("--jtag-chain '%s': %s", o->jtag_chain, err);
        return EXIT_USAGE;
    }
    return EXIT_OK;
}

/* Where discoveries are kept between commands: $PMUPROBE_CACHE_DIR (empty:
 * nowhere), else the XDG cache directory. */
static const char *cache_dir(char *buf, size_t len)
{
    const char *env = getenv("PMUPROBE_CACHE_DIR");

    if (env)
        return *env ? env : NULL;
    if ((env = getenv("XDG_CACHE_HOME")) && *env == '/')
        snprintf(buf, len, "%s/pmuprobe", env);
    else if ((env = getenv("HOME")) && *env == '/')
        snprintf(buf, len, "%s/.cache/pmuprobe", env);
    else
        return NULL;
    return buf;
}

/* No --target on hardware: the SoC describes itself (lib/session/discover.c). */
static int discover(const struct probe_kind *k, struct pp_session *ps)
{
    char err[512], note[1024], dir[512], cached[600];
    int rc = pp_session_discover_cached(ps, k->name, cache_dir(dir, sizeof(dir)), cached,
                                        sizeof(cached), note, sizeof(note), err, sizeof(err));

    if (rc != PP_OK) {
        cli_error("no --target given, and %s", err);
        return rc == PP_E_LINK || rc == PP_E_WAIT ? EXIT_PATH : EXIT_TARGET;
    }
    if (cached[0])
        fprintf(stderr, "pmuprobe: target: discovered via %s (%s), as kept in %s\n", k->name,
                ps->target->description, cached);
    else
        fprintf(stderr, "pmuprobe: target: discovered via %s (%s); 'scan --save FILE' keeps "
                "it for --target\n", k->name, ps->target->description);
    for (char *line = strtok(note, "\n"); line; line = strtok(NULL, "\n"))
        fprintf(stderr, "pmuprobe: warning: %s\n", line);
    return EXIT_OK;
}

static int open_all(const struct cli_opts *o, struct pp_session *ps)
{
    const struct probe_kind *k;
    const char *spec;
    int rc;

    k = find_probe(o->probe, &spec);
    if (!k) {
        unknown_probe(o->probe);
        return EXIT_USAGE;
    }
    if (o->nfaults && strcmp(k->name, "sim") != 0) {
        cli_error("--fault needs the simulated SoC (--probe sim); on other paths "
                  "inject faults through the simulator's control channel");
        return EXIT_USAGE;
    }
    if ((rc = chain_opt(o, k, ps->target)) != EXIT_OK)
        return rc;
    if (o->reset)
        rc = attach_reset(o, k, spec, ps);
    else
        rc = k->open ? attach_cli(o, k, spec, ps) : attach_lib(o, k, ps);
    if (rc == EXIT_OK && ps->discovering)
        rc = discover(k, ps);
    return rc == EXIT_OK ? finish(ps) : rc;
}

int session_open(const struct cli_opts *o, struct session *s)
{
    struct pp_session *ps = NULL;
    char err[512];
    int rc;

    memset(s, 0, sizeof(*s));
    snprintf(s->probe_name, sizeof(s->probe_name), "%s", o->probe);
    if (pp_session_begin(o->target ? o->target : pp_session_default_target(o->probe), &ps, err,
                         sizeof(err)) != PP_OK) {
        cli_error("%s", err);
        pp_session_close(ps);
        return EXIT_USAGE;
    }
    rc = cli_trace_start(ps);
    if (rc == EXIT_OK)
        rc = open_all(o, ps);
    if (rc != EXIT_OK) {
        pp_session_close(ps);
        return rc;
    }
    /* The commands own the pieces from here (session_close frees them). */
    s->target = ps->target;
    s->described = ps->described;
    s->sim = ps->sim;
    s->bus = ps->bus;
    free(ps);
    return EXIT_OK;
}

void session_close(struct session *s)
{
    pp_bus_close(s->bus);
    pp_sim_free(s->sim);
    pp_target_free(s->target);
    pp_target_free(s->described);
    memset(s, 0, sizeof(*s));
}

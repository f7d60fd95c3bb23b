/*
 * session.c - opening what a command works on.  The library does the work
 * (lib/session: target, every access path (sim, rbb, openocd, ftdi),
 * faults, "type = auto" identification); this file maps the command-line options onto pp_open_opts, prints the
 * messages and picks exit codes.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bus/bus.h"
#include "bus/ocd_rpc.h"
#include "cli.h"
#include "link/ftdi.h"
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

/* The access paths, for the message that lists them; the library opens
 * each (lib/session/path_<name>.c). */
struct probe_kind {
    const char *name;
    const char *usage;
};
static const struct probe_kind probes[] = {
    { "sim",     "sim" },
    { "rbb",     "rbb:HOST:PORT | rbb:unix:PATH" },
    { "openocd", "openocd[:HOST[:PORT]]" },
    { "ftdi",    "ftdi[:VID:PID[:SERIAL]][@INTERFACE]" },
    { "cmsis-dap", "cmsis-dap[:VID:PID][:SERIAL]" },
};
#define NPROBES (sizeof(probes) / sizeof(probes[0]))

static const struct probe_kind *find_probe(const char *arg)
{
    const char *spec;
    size_t len = pp_probe_split(arg, &spec);

    for (size_t i = 0; i < NPROBES; i++)
        if (strlen(probes[i].name) == len && strncmp(probes[i].name, arg, len) == 0)
            return &probes[i];
    return NULL;
}

static bool is(const struct probe_kind *k, const char *name)
{
    return strcmp(k->name, name) == 0;
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

/* The reset command pulses pins between opening the link and examining
 * the DP: only paths whose link pmuprobe drives can (cmd_reset.c). */
static int reset_opts(const struct probe_kind *k)
{
    if (is(k, "ftdi") || is(k, "rbb") || is(k, "cmsis-dap"))
        return EXIT_OK;
    if (is(k, "openocd"))
        cli_error("reset: on -p openocd, OpenOCD drives the reset pins: use its reset_config "
                  "and reset commands (telnet port 4444)");
    else
        cli_error("reset: the in-process simulated SoC (-p %s) has no reset pins; use -p "
                  "ftdi, or -p rbb with pmuprobe-sim", k->name);
    return EXIT_USAGE;
}

/* --sim-time and --speed where the path has no use for them. */
static int sim_time_speed_opts(const struct cli_opts *o, const struct probe_kind *k,
                               struct pp_open_opts *opts)
{
    bool sim = is(k, "sim");
    int rc;

    if (is(k, "ftdi") || (is(k, "cmsis-dap") && !o->sim_time))
        return EXIT_OK;
    if (is(k, "openocd") && o->sim_time) {
        cli_error("--sim-time applies to --probe sim only; set the time mode where the "
                  "simulator runs (pmuprobe-sim --sim-time)");
        return EXIT_USAGE;
    }
    if (is(k, "openocd")) {
        if (o->speed_khz)
            cli_error("warning: --speed is ignored on openocd: OpenOCD sets the TCK (its "
                      "'adapter speed')");
        return EXIT_OK;
    }
    rc = sim_time_opt(o, &opts->sim_time);
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
    return EXIT_OK;
}

/* The command line as the library's open options; prints and returns the
 * exit code of an option the path has no use for. */
static int map_opts(const struct cli_opts *o, const struct probe_kind *k,
                    struct pp_open_opts *opts)
{
    memset(opts, 0, sizeof(*opts));
    opts->faults = o->faults;
    opts->nfaults = o->nfaults;
    opts->speed_khz = o->speed_khz;
    opts->adapter = o->adapter;
    opts->transport = o->transport;
    opts->reconnect = o->reconnect;
    opts->reset = o->reset;
    opts->jtag_chain = o->jtag_chain;
    return o->reset ? reset_opts(k) : sim_time_speed_opts(o, k, opts);
}

static void list_layouts(void)
{
    const struct pp_ftdi_layout *ly;

    fprintf(stderr, "adapters:\n");
    for (size_t i = 0; (ly = pp_ftdi_layout_get(i)); i++)
        fprintf(stderr, "  %-22s %04x:%04x  %s\n", ly->name, ly->vid, ly->pid, ly->summary);
    fprintf(stderr, "  custom:init=VALUE/DIR[,vidpid=VID:PID][,trst=SIG][,srst=SIG]"
            "[,swdio_oe=SIG|dir][,swd_en=SIG]\n");
}

/* The library's reason, worded after the option that caused it. */
static void say_failure(const struct cli_opts *o, const struct probe_kind *k,
                        enum pp_path_step step, const char *err)
{
    switch (step) {
    case PP_STEP_SPEC:
        if (is(k, "rbb"))
            cli_error("--probe %s: %s", o->probe, err);
        else
            cli_error("--probe %s", err);     /* err begins with the probe */
        return;
    case PP_STEP_CHAIN:
        cli_error("--%s", err);
        return;
    case PP_STEP_ADAPTER:
        cli_error("--%s", err);
        if (strncmp(o->adapter, "custom:", 7) != 0)
            list_layouts();
        return;
    case PP_STEP_RESET:
        cli_error("%s", err);
        return;
    default:
        break;
    }
    if (is(k, "ftdi") || (is(k, "cmsis-dap") && strncmp(err, "cmsis-dap", 9) == 0))
        cli_error("%s", err);           /* its messages begin with the path's name */
    else if (is(k, "openocd"))
        cli_error("--probe openocd: %s", err);
    else if (o->reset && step == PP_STEP_BUS)
        cli_error("--probe %s: after the reset: %s", o->probe, err);
    else
        cli_error("--probe %s: %s", o->probe, err);
}

/* A config without a mem_ap target (OpenOCD's stock zynq_7000.cfg,
 * imx6.cfg) works, slowly: say why and how to make it fast. */
static void note_apreg(const struct pp_ocd_attach *at)
{
    if (!at || !at->apreg)
        return;
    cli_error("note: OpenOCD has no mem_ap target on the APB-AP, so access goes through "
              "'%s apreg' (one OpenOCD DAP run per word: slow); for speed, add this line to "
              "the OpenOCD config, before init: target create pmuprobe.apb mem_ap -dap %s "
              "-ap-num %u", at->dap, at->dap, at->ap);
}

/* The option checks that are about the command line, then the library. */
static int attach(const struct cli_opts *o, const struct probe_kind *k, struct pp_session *ps)
{
    struct pp_open_opts opts;
    char err[512];
    int rc = map_opts(o, k, &opts);

    if (rc != EXIT_OK)
        return rc;
    err[0] = '\0';
    rc = pp_session_attach(ps, o->probe, &opts, err, sizeof(err));
    if (rc == PP_OK) {
        note_apreg(pp_bus_ocd_attach_info(ps->bus));
        return EXIT_OK;
    }
    if (is(k, "sim")) {
        cli_error("%s", err);
        return rc == PP_E_NOMEM ? EXIT_PATH : EXIT_USAGE;
    }
    say_failure(o, k, ps->failed_at, err);
    if (rc == PP_E_INVAL || (ps->failed_at == PP_STEP_RESET && rc == PP_E_UNSUPPORTED))
        return EXIT_USAGE;
    return EXIT_PATH;
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

/* --jtag-chain describes what the own JTAG stack expects to find
 * (lib/link/jtagchain.h); the library parses it (pp_open_opts.jtag_chain). */
static int chain_opt(const struct cli_opts *o, const struct probe_kind *k)
{
    if (!o->jtag_chain || is(k, "rbb") || is(k, "ftdi") || is(k, "cmsis-dap"))
        return EXIT_OK;
    cli_error("--jtag-chain describes the chain pmuprobe's own JTAG stack drives "
              "(--probe rbb, ftdi or cmsis-dap), not --probe %s", k->name);
    return EXIT_USAGE;
}

/* --transport: swd is the SW-DP over ftdi's TDI/TDO (lib/adi/dp_swd.c) or
 * a CMSIS-DAP probe connected in SWD (lib/link/cmsisdap.c). */
static int transport_opt(const struct cli_opts *o, const struct probe_kind *k)
{
    const char *t = o->transport;

    if (!t || strcmp(t, "jtag") == 0)
        return EXIT_OK;
    if (strcmp(t, "swd") != 0) {
        cli_error("--transport '%s': expected jtag or swd", t);
        return EXIT_USAGE;
    }
    if (!is(k, "ftdi") && !is(k, "cmsis-dap")) {
        cli_error("--transport swd is supported with --probe ftdi or cmsis-dap only, not --probe %s",
                  k->name);
        return EXIT_USAGE;
    }
    if (o->jtag_chain) {
        cli_error("--jtag-chain describes a JTAG chain: there is none with --transport swd");
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
    const struct probe_kind *k = find_probe(o->probe);
    int rc;

    if (!k) {
        unknown_probe(o->probe);
        return EXIT_USAGE;
    }
    if (o->nfaults && !is(k, "sim")) {
        cli_error("--fault needs the simulated SoC (--probe sim); on other paths "
                  "inject faults through the simulator's control channel");
        return EXIT_USAGE;
    }
    if ((rc = chain_opt(o, k)) != EXIT_OK || (rc = transport_opt(o, k)) != EXIT_OK)
        return rc;
    rc = attach(o, k, ps);
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

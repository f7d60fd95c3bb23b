/*
 * session.c - opening what a command works on: the target description,
 * the access path, and for the sim path the simulated SoC with the faults
 * asked for on the command line.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bus/bus.h"
#include "cli.h"
#include "pmu/identify.h"
#include "sim/sim.h"

void cli_error(const char *fmt, ...)
{
    va_list ap;

    fputs("pmuprobe: ", stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
}

static int load_target(const struct cli_opts *o, struct session *s)
{
    char path[512], err[512];
    int rc = pp_target_find(o->target, path, sizeof(path));

    if (rc != PP_OK) {
        cli_error("target '%s' not found: expected a file path or the name of a "
                  "target in $PMUPROBE_TARGETS or the installed targets directory "
                  "(e.g. a76-cluster, rpi3-a53, a7-soc)", o->target);
        return EXIT_USAGE;
    }
    rc = pp_target_load(path, &s->target, err, sizeof(err));
    if (rc != PP_OK) {
        cli_error("%s", err);
        return EXIT_USAGE;
    }
    return EXIT_OK;
}

static int apply_sim_options(const struct cli_opts *o, struct session *s)
{
    if (o->sim_time) {
        if (strcmp(o->sim_time, "realtime") == 0)
            s->target->time_mode = PP_TIME_REALTIME;
        else if (strcmp(o->sim_time, "deterministic") == 0)
            s->target->time_mode = PP_TIME_DETERMINISTIC;
        else {
            cli_error("--sim-time '%s': expected 'deterministic' or 'realtime'", o->sim_time);
            return EXIT_USAGE;
        }
    }
    return EXIT_OK;
}

static int open_sim(const struct cli_opts *o, const char *spec, struct session *s)
{
    char err[256];
    int rc = apply_sim_options(o, s);

    if (rc != EXIT_OK)
        return rc;
    if (*spec) {
        cli_error("--probe sim:%s: the simulated SoC takes no argument (expected 'sim')", spec);
        return EXIT_USAGE;
    }
    s->sim = pp_sim_new(s->target, err, sizeof(err));
    if (!s->sim) {
        cli_error("cannot build the simulated SoC from %s: %s", s->target->path, err);
        return EXIT_USAGE;
    }
    for (unsigned i = 0; i < o->nfaults; i++) {
        if (pp_sim_apply_fault(s->sim, o->faults[i], err, sizeof(err)) != PP_OK) {
            cli_error("--fault: %s", err);
            return EXIT_USAGE;
        }
    }
    s->bus = pp_bus_sim_new(s->sim);
    if (!s->bus) {
        cli_error("out of memory");
        return EXIT_PATH;
    }
    return EXIT_OK;
}

static const struct probe_kind probes[] = {
    { "sim",     open_sim,           "sim" },
    { "rbb",     probe_open_rbb,     "rbb:HOST:PORT | rbb:unix:PATH" },
    { "openocd", probe_open_openocd, "openocd[:HOST[:PORT]]" },
    { "ftdi",    probe_open_ftdi,    "ftdi[:VID:PID[:SERIAL]][@INTERFACE]" },
};
#define NPROBES (sizeof(probes) / sizeof(probes[0]))

/* "-p rbb:localhost:9999" -> the rbb kind and "localhost:9999";
 * "-p ftdi@B" -> the ftdi kind and "@B" (the interface suffix belongs to
 * the spec, so it is kept). */
static const struct probe_kind *find_probe(const char *arg, const char **spec)
{
    size_t len = strcspn(arg, ":@");

    *spec = arg[len] == ':' ? arg + len + 1 : arg + len;
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

/* "type = auto" cores get their type from the silicon once the path is
 * open.  The first description stays alive: the sim (if any) and the bus
 * were built from it. */
static int identify_auto_cores(struct session *s)
{
    struct pp_target *t = NULL;
    char note[1024];
    bool any = false;
    int rc;

    for (unsigned i = 0; i < s->target->ncores; i++)
        any |= s->target->cores[i].type_auto;
    if (!any)
        return EXIT_OK;
    rc = pp_identify_target(s->bus, s->target, &t, note, sizeof(note));
    if (rc != PP_OK) {
        cli_error("identifying the 'type = auto' cores of %s: %s", s->target->path,
                  note[0] ? note : pp_strerror(rc));
        return rc == PP_E_PARSE || rc == PP_E_IO ? EXIT_USAGE : EXIT_PATH;
    }
    for (char *line = strtok(note, "\n"); line; line = strtok(NULL, "\n"))
        fprintf(stderr, "pmuprobe: warning: %s\n", line);
    if (t) {
        s->described = s->target;
        s->target = t;
    }
    return EXIT_OK;
}

int session_open(const struct cli_opts *o, struct session *s)
{
    const struct probe_kind *k;
    const char *spec;
    int rc;

    memset(s, 0, sizeof(*s));
    snprintf(s->probe_name, sizeof(s->probe_name), "%s", o->probe);
    rc = load_target(o, s);
    if (rc != EXIT_OK)
        return rc;
    k = find_probe(o->probe, &spec);
    if (!k) {
        unknown_probe(o->probe);
        rc = EXIT_USAGE;
    } else if (o->nfaults && k->open != open_sim) {
        cli_error("--fault needs the simulated SoC (--probe sim); on other paths "
                  "inject faults through the simulator's control channel");
        rc = EXIT_USAGE;
    } else
        rc = k->open(o, spec, s);
    if (rc == EXIT_OK)
        rc = identify_auto_cores(s);
    if (rc != EXIT_OK)
        session_close(s);
    return rc;
}

void session_close(struct session *s)
{
    pp_bus_close(s->bus);
    pp_sim_free(s->sim);
    pp_target_free(s->target);
    pp_target_free(s->described);
    memset(s, 0, sizeof(*s));
}

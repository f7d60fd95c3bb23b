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

static int open_sim(const struct cli_opts *o, struct session *s)
{
    char err[256];
    int rc = apply_sim_options(o, s);

    if (rc != EXIT_OK)
        return rc;
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

int session_open(const struct cli_opts *o, struct session *s)
{
    int rc;

    memset(s, 0, sizeof(*s));
    rc = load_target(o, s);
    if (rc != EXIT_OK)
        return rc;
    if (strcmp(o->probe, "sim") == 0)
        rc = open_sim(o, s);
    else {
        cli_error("--probe '%s': unknown access path (expected 'sim')", o->probe);
        rc = EXIT_USAGE;
    }
    if (rc == EXIT_OK && o->nfaults && !s->sim) {
        cli_error("--fault needs the simulated SoC (--probe sim)");
        rc = EXIT_USAGE;
    }
    if (rc != EXIT_OK)
        session_close(s);
    return rc;
}

void session_close(struct session *s)
{
    pp_bus_close(s->bus);
    pp_sim_free(s->sim);
    pp_target_free(s->target);
    memset(s, 0, sizeof(*s));
}

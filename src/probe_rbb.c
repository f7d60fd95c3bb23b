/*
 * probe_rbb.c - the 'rbb' access path: pmuprobe's own JTAG/ADIv5 stack
 * (lib/adi) over a remote_bitbang link (lib/link/rbb.c) to pmuprobe-sim,
 * OpenOCD's protocol peer, or anything else that speaks it.
 *
 *   -p rbb:HOST:PORT      TCP, e.g. rbb:localhost:9999 or rbb:[::1]:9999
 *   -p rbb:unix:PATH      UNIX socket
 */
#include <stdio.h>
#include <string.h>

#include "adi/adi.h"
#include "bus/bus.h"
#include "cli.h"
#include "link/rbb.h"

int probe_open_rbb(const struct cli_opts *o, const char *spec, struct session *s)
{
    struct pp_link *l = NULL;
    char err[512];
    int rc;

    if (!*spec) {
        cli_error("--probe rbb: expected rbb:HOST:PORT or rbb:unix:PATH, the address a "
                  "remote_bitbang server such as pmuprobe-sim listens on");
        return EXIT_USAGE;
    }
    if (o->sim_time) {
        cli_error("--sim-time belongs to the simulated SoC: give it to pmuprobe-sim, "
                  "not to --probe rbb");
        return EXIT_USAGE;
    }
    rc = pp_link_rbb_open(spec, &l, err, sizeof(err));
    if (rc == PP_E_INVAL) {
        cli_error("--probe %s: %s", s->probe_name, err);
        return EXIT_USAGE;
    }
    if (rc != PP_OK) {
        cli_error("%s", err);
        return EXIT_PATH;
    }
    /* remote_bitbang has no clock of its own (spec/openocd.md 1.3). */
    if (o->speed_khz)
        cli_error("warning: --speed is ignored on rbb: the server sets the pace");
    s->bus = pp_bus_adi_new(l, s->target, err, sizeof(err));
    if (!s->bus) {
        cli_error("--probe %s: %s", s->probe_name, err);
        return EXIT_PATH;
    }
    return EXIT_OK;
}

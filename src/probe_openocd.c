/*
 * probe_openocd.c - the 'openocd' access path: pmuprobe as a client of an
 * OpenOCD the user already runs, over its TCL RPC port.
 *
 *   openocd               localhost:6666
 *   openocd:HOST          HOST:6666
 *   openocd:HOST:PORT     (an IPv6 address in brackets: openocd:[::1]:6666)
 *   openocd:PORT          localhost:PORT (all digits: a port, not a host)
 */
#include <stdlib.h>
#include <string.h>

#include "bus/ocd_rpc.h"
#include "cli.h"

static bool parse_port(const char *s, unsigned *port)
{
    uint32_t v;

    if (!parse_u32(s, &v) || v == 0 || v > 65535)
        return false;
    *port = v;
    return true;
}

static bool all_digits(const char *s)
{
    return *s && strspn(s, "0123456789") == strlen(s);
}

/* Splits spec into host and port; false on a malformed spec. */
static bool parse_spec(const char *spec, char *host, size_t hostlen, unsigned *port)
{
    const char *colon;
    size_t len;

    *port = PP_OCD_DEFAULT_PORT;
    snprintf(host, hostlen, "localhost");
    if (!*spec)
        return true;
    if (all_digits(spec))
        return parse_port(spec, port);
    if (*spec == '[') {
        const char *close = strchr(spec, ']');

        if (!close || (close[1] && close[1] != ':'))
            return false;
        len = (size_t)(close - spec - 1);
        colon = close[1] ? close + 1 : NULL;
        spec++;
    } else {
        colon = strrchr(spec, ':');
        if (colon && strchr(spec, ':') != colon)
            return false;      /* a bare IPv6 address needs brackets */
        len = colon ? (size_t)(colon - spec) : strlen(spec);
    }
    if (len >= hostlen)
        return false;
    if (len) {
        memcpy(host, spec, len);
        host[len] = '\0';
    }
    return !colon || parse_port(colon + 1, port);
}

int probe_open_openocd(const struct cli_opts *o, const char *spec, struct session *s)
{
    /* Gap cover: a core's PMUv3 counters in one read_memory, not seven. */
    struct pp_ocd_opts oo = { .reconnect = o->reconnect, .ap_hint = (int)s->target->ap_index,
                              .cover_gap_words = true };
    char host[256], err[512];

    if (o->sim_time) {
        cli_error("--sim-time applies to --probe sim only; set the time mode where the "
                  "simulator runs (pmuprobe-sim --sim-time)");
        return EXIT_USAGE;
    }
    if (!parse_spec(spec, host, sizeof(host), &oo.port)) {
        cli_error("--probe openocd:%s: expected openocd[:HOST[:PORT]] (e.g. openocd, "
                  "openocd:localhost:6666, openocd:[::1]:6666)", spec);
        return EXIT_USAGE;
    }
    oo.host = host;
    s->bus = pp_bus_ocd_new(&oo, err, sizeof(err));
    if (!s->bus) {
        cli_error("--probe openocd: %s", err);
        return EXIT_PATH;
    }
    return EXIT_OK;
}

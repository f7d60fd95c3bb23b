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

/*
 * The host goes to getaddrinfo, never into TCL; still, only what a host
 * name or address can hold is accepted, so text such as "[exit]", "$x",
 * "a;b" or a newline is refused at the command line with the expected
 * form rather than wandering into a resolver or a message (issue 9.5).
 * A name: letters, digits, '.', '-', '_', not starting with '-' or '.'.
 * An IPv6 address (inside brackets): hex digits, ':' and '.', with an
 * optional %zone of name characters.
 */
static bool host_ok(const char *host, bool bracketed)
{
    const char *zone = bracketed ? strchr(host, '%') : NULL;
    size_t addr_len = zone ? (size_t)(zone - host) : strlen(host);
    static const char name_chars[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                      "0123456789.-_";

    if (!*host)
        return false;
    if (!bracketed)
        return host[0] != '-' && host[0] != '.' && strspn(host, name_chars) == strlen(host);
    if (addr_len == 0 || strspn(host, "0123456789abcdefABCDEF:.") != addr_len)
        return false;
    return !zone || (zone[1] && strspn(zone + 1, name_chars) == strlen(zone + 1));
}

/* Splits spec into host and port; false on a malformed spec. */
static bool parse_spec(const char *spec, char *host, size_t hostlen, unsigned *port)
{
    const char *colon;
    bool bracketed = *spec == '[';
    size_t len;

    *port = PP_OCD_DEFAULT_PORT;
    snprintf(host, hostlen, "localhost");
    if (!*spec)
        return true;
    if (all_digits(spec))
        return parse_port(spec, port);
    if (bracketed) {
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
        if (!host_ok(host, bracketed))
            return false;
    }
    return !colon || parse_port(colon + 1, port);
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

int probe_open_openocd(const struct cli_opts *o, const char *spec, struct session *s)
{
    /* Gap cover: a core's PMUv3 counters in one read_memory, not seven.
     * Before discovery the stand-in target prefers no AP (index > 255). */
    const unsigned ap = s->target->ap_index;
    struct pp_ocd_opts oo = { .reconnect = o->reconnect, .ap_hint = ap <= 0xFFu ? (int)ap : -1,
                              .cover_gap_words = true };
    char host[256], err[512];

    if (o->sim_time) {
        cli_error("--sim-time applies to --probe sim only; set the time mode where the "
                  "simulator runs (pmuprobe-sim --sim-time)");
        return EXIT_USAGE;
    }
    if (o->speed_khz)
        cli_error("warning: --speed is ignored on openocd: OpenOCD sets the TCK (its "
                  "'adapter speed')");
    if (!parse_spec(spec, host, sizeof(host), &oo.port)) {
        cli_error("--probe openocd:%s: expected openocd[:HOST[:PORT]] (e.g. openocd, "
                  "openocd:localhost:6666, openocd:[::1]:6666); HOST is a name of letters, "
                  "digits, '.', '-' and '_', or an address", spec);
        return EXIT_USAGE;
    }
    oo.host = host;
    oo.trace = cli_take_trace(s);
    s->bus = pp_bus_ocd_new(&oo, err, sizeof(err));
    if (!s->bus) {
        cli_error("--probe openocd: %s", err);
        return EXIT_PATH;
    }
    note_apreg(pp_bus_ocd_attach_info(s->bus));
    return EXIT_OK;
}

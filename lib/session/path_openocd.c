/*
 * path_openocd.c - the "openocd" access path: pmuprobe as a client of an
 * OpenOCD the user already runs, over its TCL RPC port (spec/openocd.md 2).
 *
 *   openocd               localhost:6666
 *   openocd:HOST          HOST:6666
 *   openocd:HOST:PORT     (an IPv6 address in brackets: openocd:[::1]:6666)
 *   openocd:PORT          localhost:PORT (all digits: a port, not a host)
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "errmsg.h"
#include "bus/ocd_rpc.h"
#include "session/session.h"

static bool all_digits(const char *s)
{
    return *s && strspn(s, "0123456789") == strlen(s);
}

/* A port as a C integer constant (6666, 0x1a0a), 1..65535. */
static bool parse_port(const char *s, unsigned *port)
{
    char *end;
    unsigned long long v;

    if (!*s || *s == '-')
        return false;
    errno = 0;
    v = strtoull(s, &end, 0);
    if (errno || *end || v == 0 || v > 65535)
        return false;
    *port = (unsigned)v;
    return true;
}

/*
 * The host goes to getaddrinfo, never into TCL; still, only what a host
 * name or address can hold is accepted, so text such as "[exit]", "$x",
 * "a;b" or a newline is refused with the expected form rather than
 * wandering into a resolver or a message.
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

/* The 4 KB bases of the target's PMUv3 blocks, whose side-effect-free
 * windows a read block may cover (lib/bus/ocd_bus.c); none for the
 * stand-in target of discovery.  *n = 0 and NULL when there are none or
 * on out-of-memory (the blocks are then read exactly: slower, not wrong). */
static uint32_t *pmu3_blocks(const struct pp_target *t, size_t *n)
{
    uint32_t *b = t->ncores ? calloc(t->ncores, sizeof(*b)) : NULL;

    *n = 0;
    for (unsigned i = 0; b && i < t->ncores; i++)
        if (t->cores[i].type && t->cores[i].type->pmu_version >= 3)
            b[(*n)++] = t->cores[i].pmu_base & ~0xFFFu;
    return b;
}

int pp_path_open_openocd(struct pp_session *s, const char *spec,
                         const struct pp_open_opts *opts, char *err, size_t errlen)
{
    /* Gap cover: a core's PMUv3 counters in one read_memory, not seven.
     * Before discovery the stand-in target prefers no AP (index > 255). */
    const unsigned ap = s->target->ap_index;
    struct pp_ocd_opts oo = { .reconnect = opts && opts->reconnect,
                              .ap_hint = ap <= 0xFFu ? (int)ap : -1,
                              .cover_gap_words = true };
    char host[256];
    int rc;

    if (!parse_spec(spec, host, sizeof(host), &oo.port)) {
        pp_errmsg(err, errlen, "openocd:%s: expected openocd[:HOST[:PORT]] (e.g. openocd, "
                  "openocd:localhost:6666, openocd:[::1]:6666); HOST is a name of letters, "
                  "digits, '.', '-' and '_', or an address", spec);
        s->failed_at = PP_STEP_SPEC;
        return PP_E_INVAL;
    }
    rc = pp_path_no_sim_opts(s, "openocd", opts, err, errlen);
    if (rc == PP_OK)
        rc = pp_path_no_chain(s, "openocd", opts, err, errlen);
    if (rc != PP_OK)
        return rc;
    if (opts && opts->reset) {
        pp_errmsg(err, errlen, "on probe 'openocd', OpenOCD drives the reset pins: use its "
                  "reset_config and reset commands");
        s->failed_at = PP_STEP_OPTS;
        return PP_E_UNSUPPORTED;
    }
    oo.host = host;
    oo.trace = pp_session_take_trace(s);
    uint32_t *pmu = pmu3_blocks(s->target, &oo.npmu_blocks);

    oo.pmu_blocks = pmu;
    s->bus = pp_bus_ocd_new(&oo, err, errlen);
    free(pmu);
    if (!s->bus) {
        s->failed_at = PP_STEP_BUS;
        return PP_E_LINK;
    }
    return PP_OK;
}

void pp_path_openocd_target(struct pp_session *s)
{
    size_t n;
    uint32_t *pmu = pmu3_blocks(s->target, &n);

    /* Out of memory leaves the blocks unknown: read exactly, not wrongly. */
    (void)pp_bus_ocd_set_pmu_blocks(s->bus, pmu, n);
    free(pmu);
}

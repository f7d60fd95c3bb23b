/*
 * path_rbb.c - the "rbb" access path: pmuprobe's own JTAG/ADIv5 stack over
 * a remote_bitbang link ("rbb:HOST:PORT", "rbb:unix:PATH").
 */
#include <stdio.h>

#include "adi/adi.h"
#include "bus/bus.h"
#include "errmsg.h"
#include "link/rbb.h"
#include "session/session.h"

int pp_path_open_rbb(struct pp_session *s, const char *spec, const struct pp_open_opts *opts,
                     char *err, size_t errlen)
{
    struct pp_link *l = NULL;
    int rc;

    if (!*spec) {
        pp_errmsg(err, errlen, "probe 'rbb': expected rbb:HOST:PORT or rbb:unix:PATH, the "
                  "address a remote_bitbang server such as pmuprobe-sim listens on");
        return PP_E_INVAL;
    }
    if (opts && opts->sim_time != PP_SIM_TIME_DEFAULT) {
        pp_errmsg(err, errlen, "the simulated SoC's time mode belongs to pmuprobe-sim, "
                  "not to probe 'rbb'");
        return PP_E_INVAL;
    }
    if (opts && opts->nfaults) {
        pp_errmsg(err, errlen, "faults need the simulated SoC (probe 'sim'); on other "
                  "paths inject them through the simulator's control channel");
        return PP_E_INVAL;
    }
    rc = pp_link_rbb_open(spec, &l, err, errlen);
    if (rc != PP_OK)
        return rc;
    /* The bus owns the link and the tracer from here, also on failure. */
    s->bus = pp_bus_adi_new_traced(l, s->target, pp_session_take_trace(s), err, errlen);
    return s->bus ? PP_OK : PP_E_LINK;
}

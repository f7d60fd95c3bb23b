/*
 * path_sim.c - the "sim" access path: the simulated SoC built from the
 * target description, reached in process.
 */
#include <stdio.h>

#include "bus/bus.h"
#include "errmsg.h"
#include "session/session.h"
#include "sim/sim.h"

static int apply_time(struct pp_target *t, int mode, char *err, size_t errlen)
{
    switch (mode) {
    case PP_SIM_TIME_DEFAULT:
        return PP_OK;
    case PP_SIM_TIME_DETERMINISTIC:
        t->time_mode = PP_TIME_DETERMINISTIC;
        t->time_asked = true;
        return PP_OK;
    case PP_SIM_TIME_REALTIME:
        t->time_mode = PP_TIME_REALTIME;
        t->time_asked = true;
        return PP_OK;
    }
    pp_errmsg(err, errlen, "sim_time %d: expected a pp_sim_time value", mode);
    return PP_E_INVAL;
}

int pp_path_open_sim(struct pp_session *s, const char *spec, const struct pp_open_opts *opts,
                     char *err, size_t errlen)
{
    char why[512];
    int rc;

    if (*spec) {
        pp_errmsg(err, errlen, "probe 'sim:%s': the simulated SoC takes no argument "
                  "(expected 'sim')", spec);
        return PP_E_INVAL;
    }
    if (opts && opts->reset) {
        pp_errmsg(err, errlen, "the simulated SoC (probe 'sim') has no reset pins; use "
                  "probe 'ftdi', or 'rbb' with pmuprobe-sim");
        return PP_E_UNSUPPORTED;
    }
    rc = pp_path_no_chain(s, "sim", opts, err, errlen);
    if (rc != PP_OK)
        return rc;
    rc = apply_time(s->target, opts ? opts->sim_time : 0, err, errlen);
    if (rc != PP_OK)
        return rc;
    s->sim = pp_sim_new(s->target, why, sizeof(why));
    if (!s->sim) {
        pp_errmsg(err, errlen, "cannot build the simulated SoC from %s: %s", s->target->path, why);
        return PP_E_PARSE;
    }
    for (unsigned i = 0; opts && i < opts->nfaults; i++) {
        rc = pp_sim_check_fault_time(s->sim, opts->faults[i], why, sizeof(why));
        if (rc == PP_OK)
            rc = pp_sim_apply_fault(s->sim, opts->faults[i], why, sizeof(why));
        if (rc != PP_OK) {
            pp_errmsg(err, errlen, "fault: %s", why);
            return rc;
        }
    }
    s->bus = pp_bus_sim_new(s->sim);
    if (!s->bus) {
        pp_errmsg(err, errlen, "out of memory");
        return PP_E_NOMEM;
    }
    return PP_OK;
}

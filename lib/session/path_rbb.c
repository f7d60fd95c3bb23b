/*
 * path_rbb.c - the "rbb" access path: pmuprobe's own JTAG/ADIv5 stack over
 * a remote_bitbang link ("rbb:HOST:PORT", "rbb:unix:PATH"); and what the
 * own-stack paths (rbb, ftdi, cmsis-dap) share: the bus once their link is
 * open, the options they check alike, a USB id of a probe spec.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "adi/adi.h"
#include "bus/bus.h"
#include "errmsg.h"
#include "link/cmsisdap.h"
#include "link/link.h"
#include "link/rbb.h"
#include "session/session.h"

int pp_path_no_sim_opts(struct pp_session *s, const char *name,
                        const struct pp_open_opts *opts, char *err, size_t errlen)
{
    if (opts && opts->sim_time != PP_SIM_TIME_DEFAULT) {
        pp_errmsg(err, errlen, "the simulated SoC's time mode belongs to pmuprobe-sim, "
                  "not to probe '%s'", name);
        s->failed_at = PP_STEP_OPTS;
        return PP_E_INVAL;
    }
    if (opts && opts->nfaults) {
        pp_errmsg(err, errlen, "faults need the simulated SoC (probe 'sim'); on other "
                  "paths inject them through the simulator's control channel");
        s->failed_at = PP_STEP_OPTS;
        return PP_E_INVAL;
    }
    return PP_OK;
}

int pp_path_chain(struct pp_session *s, const struct pp_open_opts *opts, char *err,
                  size_t errlen)
{
    struct pp_jtag_chain chain;
    char why[300];

    if (!opts || !opts->jtag_chain)
        return PP_OK;
    if (pp_jtag_chain_parse(opts->jtag_chain, &chain, why, sizeof(why)) != PP_OK) {
        pp_errmsg(err, errlen, "jtag-chain '%s': %s", opts->jtag_chain, why);
        s->failed_at = PP_STEP_CHAIN;
        return PP_E_INVAL;
    }
    s->target->jtag = chain;
    return PP_OK;
}

int pp_path_no_chain(struct pp_session *s, const char *name, const struct pp_open_opts *opts,
                     char *err, size_t errlen)
{
    if (!opts || !opts->jtag_chain)
        return PP_OK;
    pp_errmsg(err, errlen, "jtag_chain describes the chain pmuprobe's own JTAG stack drives "
              "(probe 'rbb' or 'ftdi'), not probe '%s'", name);
    s->failed_at = PP_STEP_OPTS;
    return PP_E_INVAL;
}

/* The pulse goes before the DP is examined, so a target whose DP does not
 * answer before the reset can still be reset, and the JTAG layer starts
 * from what the reset left (Test-Logic-Reset after nTRST). */
static int reset_pulse(struct pp_session *s, struct pp_link *link, unsigned pins, char *err,
                       size_t errlen)
{
    int rc;

    if (!pins)
        return PP_OK;
    rc = pp_link_reset_pulse(link, pins & PP_RESET_TRST, pins & PP_RESET_SRST,
                             PP_LINK_RESET_HOLD_MS);
    if (rc != PP_OK) {
        pp_errmsg(err, errlen, "reset: %s", link->errmsg);
        s->failed_at = PP_STEP_RESET;
    }
    return rc;
}

bool pp_path_hex16(const char *s, uint16_t *out)
{
    char *end;
    unsigned long v;

    if (!*s)
        return false;
    v = strtoul(s, &end, 16);
    if (*end || v > 0xFFFF)
        return false;
    *out = (uint16_t)v;
    return true;
}

int pp_path_bus_over_link(struct pp_session *s, struct pp_link *link,
                          const struct pp_open_opts *opts, char *err, size_t errlen)
{
    /* pmuprobe's own SWD engine runs over links that shift JTAG bits
     * (lib/adi/dp_swd.c); a CMSIS-DAP probe speaks SWD itself, and its
     * link's DP transport (lib/adi/dp_cmsisdap.c) is picked by the bus. */
    bool swd = opts && opts->transport && strcmp(opts->transport, "swd") == 0 &&
               !pp_link_cmsisdap(link);
    int rc = reset_pulse(s, link, opts ? opts->reset : 0, err, errlen);

    if (rc != PP_OK) {
        pp_link_close(link);
        return rc;
    }
    /* The bus owns the link and the tracer from here, also on failure. */
    s->bus = (swd ? pp_bus_adi_swd_new_traced : pp_bus_adi_new_traced)(
        link, s->target, pp_session_take_trace(s), err, errlen);
    if (!s->bus) {
        s->failed_at = PP_STEP_BUS;
        return PP_E_LINK;
    }
    return PP_OK;
}

int pp_path_open_rbb(struct pp_session *s, const char *spec, const struct pp_open_opts *opts,
                     char *err, size_t errlen)
{
    struct pp_link *l = NULL;
    int rc;

    if (!*spec) {
        pp_errmsg(err, errlen, "probe 'rbb': expected rbb:HOST:PORT or rbb:unix:PATH, the "
                  "address a remote_bitbang server such as pmuprobe-sim listens on");
        s->failed_at = PP_STEP_SPEC;
        return PP_E_INVAL;
    }
    rc = pp_path_no_sim_opts(s, "rbb", opts, err, errlen);
    if (rc == PP_OK)
        rc = pp_path_chain(s, opts, err, errlen);
    if (rc != PP_OK)
        return rc;
    rc = pp_link_rbb_open(spec, &l, err, errlen);
    if (rc != PP_OK) {
        s->failed_at = PP_STEP_LINK;
        return rc;
    }
    return pp_path_bus_over_link(s, l, opts, err, errlen);
}

/*
 * path_cmsisdap.c - the "cmsis-dap" access path: pmuprobe drives a
 * CMSIS-DAP v2 probe itself (lib/link/cmsisdap.c): the chain is looked at
 * with DAP_JTAG_Sequence, the DP and APs are reached with DAP_Transfer
 * (lib/adi/dp_cmsisdap.c); spec/cmsis-dap-swd.md.
 *
 *   cmsis-dap[:VID:PID][:SERIAL]
 *
 * pp_open_opts.speed_khz is the SWJ clock asked for; pp_open_opts.transport
 * "swd" connects in SWD (no chain: DAP_Transfer from the DPIDR read on).
 */
#include <string.h>

#include "errmsg.h"
#include "link/cmsisdap.h"
#include "session/session.h"

#define SPEC_MAX 128

/* "", "SERIAL", "VID:PID" or "VID:PID:SERIAL"; cut in buf. */
static bool parse_spec(char *buf, struct pp_cmsisdap_params *p)
{
    char *pid, *serial;

    if (!*buf)
        return true;
    pid = strchr(buf, ':');
    if (!pid) {
        p->serial = buf;
        return true;
    }
    *pid++ = '\0';
    serial = strchr(pid, ':');
    if (serial) {
        *serial++ = '\0';
        if (!*serial)
            return false;
        p->serial = serial;
    }
    return pp_path_hex16(buf, &p->vid) && pp_path_hex16(pid, &p->pid);
}

int pp_path_open_cmsisdap(struct pp_session *s, const char *spec,
                          const struct pp_open_opts *opts, char *err, size_t errlen)
{
    struct pp_cmsisdap_params p = { .khz = opts ? opts->speed_khz : 0 };
    char buf[SPEC_MAX];
    struct pp_link *link;
    int rc;

    if (strlen(spec) >= sizeof(buf) || !parse_spec(strcpy(buf, spec), &p)) {
        pp_errmsg(err, errlen, "cmsis-dap:%s: expected cmsis-dap[:VID:PID][:SERIAL], e.g. "
                  "cmsis-dap:0d28:0204", spec);
        s->failed_at = PP_STEP_SPEC;
        return PP_E_INVAL;
    }
    if (opts && opts->adapter) {
        pp_errmsg(err, errlen, "--adapter names an FTDI pin layout; a CMSIS-DAP probe "
                  "has none");
        s->failed_at = PP_STEP_OPTS;
        return PP_E_INVAL;
    }
    /* pp_session_attach checked the transport (check_transport). */
    p.swd = opts && opts->transport && strcmp(opts->transport, "swd") == 0;
    rc = pp_path_no_sim_opts(s, "cmsis-dap", opts, err, errlen);
    if (rc == PP_OK)
        rc = pp_path_chain(s, opts, err, errlen);
    if (rc != PP_OK)
        return rc;
    rc = pp_link_cmsisdap_open(&p, &link, err, errlen);
    if (rc != PP_OK) {
        s->failed_at = PP_STEP_LINK;
        return rc;
    }
    return pp_path_bus_over_link(s, link, opts, err, errlen);
}

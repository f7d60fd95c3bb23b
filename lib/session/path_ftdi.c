/*
 * path_ftdi.c - the "ftdi" access path: pmuprobe drives an FTDI MPSSE
 * adapter itself (lib/link/ftdi.c) and runs its own ADIv5 JTAG-DP stack
 * over it (lib/adi); spec/ftdi-mpsse-jtag.md.
 *
 *   ftdi[:VID:PID[:SERIAL]][@A|B|C|D][,desc=TEXT][,usb=BUS-PORT.PORT][,sync]
 *
 * pp_open_opts.adapter picks the pin layout (and, without VID:PID, the
 * ids); speed_khz the TCK request; transport "swd" runs the SW-DP
 * transport (lib/adi/dp_swd.c) with SWDIO on TDI/TDO instead of JTAG.
 */
#include <stdio.h>
#include <string.h>

#include "errmsg.h"
#include "link/ftdi.h"
#include "session/session.h"

#define SPEC_MAX 256

struct ftdi_spec {
    char buf[SPEC_MAX];           /* the spec, cut into the strings below */
    struct pp_ftdi_params p;
    struct pp_ftdi_layout custom;
};

/* ",desc=...", ",usb=...", ",sync" */
static bool parse_option(char *opt, struct pp_ftdi_params *p)
{
    if (strncmp(opt, "desc=", 5) == 0 && opt[5])
        p->description = opt + 5;
    else if (strncmp(opt, "usb=", 4) == 0 && opt[4])
        p->usb_path = opt + 4;
    else if (strcmp(opt, "sync") == 0)
        p->sync = true;
    else
        return false;
    return true;
}

/* "@B" at the end of the id part. */
static bool parse_interface(char *ids, struct pp_ftdi_params *p)
{
    char *at = strchr(ids, '@');

    if (!at)
        return true;
    if (at[1] < 'A' || at[1] > 'D' || at[2]) {
        if (at[1] >= 'a' && at[1] <= 'd' && !at[2])
            at[1] = (char)(at[1] - 'a' + 'A');
        else
            return false;
    }
    p->interface = at[1];
    *at = '\0';
    return true;
}

static bool parse_ids(char *ids, struct pp_ftdi_params *p)
{
    char *pid, *serial;

    if (!*ids)
        return true;
    pid = strchr(ids, ':');
    if (!pid)
        return false;
    *pid++ = '\0';
    serial = strchr(pid, ':');
    if (serial) {
        *serial++ = '\0';
        if (!*serial)
            return false;
        p->serial = serial;
    }
    return pp_path_hex16(ids, &p->vid) && pp_path_hex16(pid, &p->pid);
}

static bool parse_spec(const char *spec, struct ftdi_spec *fs)
{
    char *opt, *next;

    if (strlen(spec) >= sizeof(fs->buf))
        return false;
    strcpy(fs->buf, spec);
    opt = strchr(fs->buf, ',');
    if (opt)
        *opt++ = '\0';
    for (; opt; opt = next) {
        next = strchr(opt, ',');
        if (next)
            *next++ = '\0';
        if (!parse_option(opt, &fs->p))
            return false;
    }
    return parse_interface(fs->buf, &fs->p) && parse_ids(fs->buf, &fs->p);
}

static int pick_layout(const char *adapter, struct ftdi_spec *fs, char *err, size_t errlen)
{
    char why[256];

    if (!adapter)
        return PP_OK;
    if (strncmp(adapter, "custom:", 7) == 0) {
        if (pp_ftdi_layout_parse(adapter, &fs->custom, why, sizeof(why)) != PP_OK) {
            pp_errmsg(err, errlen, "adapter: %s", why);
            return PP_E_INVAL;
        }
        fs->p.layout = &fs->custom;
        return PP_OK;
    }
    fs->p.layout = pp_ftdi_layout_find(adapter);
    if (!fs->p.layout) {
        pp_errmsg(err, errlen, "adapter '%s': unknown FTDI adapter layout", adapter);
        return PP_E_INVAL;
    }
    return PP_OK;
}

/*
 * --transport swd needs a layout that says how SWDIO is wired
 * (spec/cmsis-dap-swd.md 5.3): TDI through a resistor and TDO (the bare
 * modules, custom:), DO tied to SWDIO or a SWDIO_OE buffer (the -swd
 * layouts, custom: with swdio_oe=).  No layout: the chip's bare module.
 * The branded adapters' JTAG connectors are not wired for it.  The other
 * way round, a layout with DO tied to SWDIO or behind a SWDIO buffer
 * carries no JTAG (TDI and TDO are one line), as OpenOCD's configs for
 * them select swd.
 */
static int check_transport(const struct pp_open_opts *opts, const struct pp_ftdi_layout *ly,
                           char *err, size_t errlen)
{
    bool swd = opts && opts->transport && strcmp(opts->transport, "swd") == 0;

    if (!swd && ly && (ly->swdio == PP_FTDI_SWDIO_DIR || ly->swdio == PP_FTDI_SWDIO_OE)) {
        pp_errmsg(err, errlen, "adapter '%s' wires TDI and TDO to SWDIO, for SWD only: add "
                  "--transport swd", opts && opts->adapter ? opts->adapter : ly->name);
        return PP_E_INVAL;
    }
    if (!swd || !ly || ly->swdio != PP_FTDI_SWDIO_NONE)
        return PP_OK;
    pp_errmsg(err, errlen, "adapter '%s': --transport swd needs SWDIO wired to TDI (through "
              "a resistor) and TDO, which this adapter's JTAG connector is not; use a bare "
              "module (minimodule, ft232h, ft4232h), an SWD layout (ft232h-module-swd, "
              "minimodule-swd, olimex-arm-usb-ocd-h-swd) or custom: wired that way",
              opts->adapter);
    return PP_E_INVAL;
}

/* The link's messages already say "ftdi ..."; the JTAG/DP ones do not. */
static void name_bus_error(char *err, size_t errlen)
{
    char why[512];

    if (strncmp(err, "ftdi", 4) == 0)
        return;
    snprintf(why, sizeof(why), "%s", err);
    pp_errmsg(err, errlen, "ftdi: %s", why);
}

int pp_path_open_ftdi(struct pp_session *s, const char *spec, const struct pp_open_opts *opts,
                      char *err, size_t errlen)
{
    struct ftdi_spec fs = { .p.khz = opts ? opts->speed_khz : 0 };
    struct pp_link *link;
    int rc;

    if (!parse_spec(spec, &fs)) {
        pp_errmsg(err, errlen, "ftdi:%s: expected ftdi[:VID:PID[:SERIAL]][@A|B|C|D]"
                  "[,desc=TEXT][,usb=BUS-PORT.PORT][,sync], e.g. ftdi:0403:6010@A", spec);
        s->failed_at = PP_STEP_SPEC;
        return PP_E_INVAL;
    }
    rc = pick_layout(opts ? opts->adapter : NULL, &fs, err, errlen);
    if (rc != PP_OK) {
        s->failed_at = PP_STEP_ADAPTER;
        return rc;
    }
    rc = check_transport(opts, fs.p.layout, err, errlen);
    if (rc != PP_OK) {
        s->failed_at = PP_STEP_OPTS;
        return rc;
    }
    rc = pp_path_no_sim_opts(s, "ftdi", opts, err, errlen);
    if (rc == PP_OK)
        rc = pp_path_chain(s, opts, err, errlen);
    if (rc != PP_OK)
        return rc;
    rc = pp_link_ftdi_open(&fs.p, &link, err, errlen);
    if (rc != PP_OK) {
        s->failed_at = PP_STEP_LINK;
        return rc;
    }
    rc = pp_path_bus_over_link(s, link, opts, err, errlen);
    if (rc != PP_OK && s->failed_at == PP_STEP_BUS)
        name_bus_error(err, errlen);
    return rc;
}

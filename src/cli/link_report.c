/*
 * link_report.c - what the commands tell the user about the link under
 * the access path: the TCK it really runs at where pmuprobe sets it (ftdi:
 * the request rounded down to 30 MHz / (1 + divisor), spec/ftdi-mpsse-jtag.md
 * 1.7), and who sets it where pmuprobe does not (a remote_bitbang server
 * clocks as fast as it reads, spec/openocd.md 1.3; OpenOCD has its own
 * "adapter speed"), so that no number is invented.
 */
#include <stdio.h>
#include <string.h>

#include "adi/adi.h"
#include "cli.h"
#include "json.h"
#include "link/cmsisdap.h"
#include "link/ftdi.h"

/* "6.000 MHz": three decimals, truncated, as the divisor gives whole Hz. */
static void mhz(char *buf, size_t n, uint32_t hz)
{
    snprintf(buf, n, "%u.%03u MHz", (unsigned)(hz / 1000000u), (unsigned)(hz % 1000000u / 1000u));
}

/* swd: the DP is reached over SWD (--transport swd). */
static void report_ftdi(const struct pp_link *l, bool swd, struct link_report *r)
{
    struct pp_ftdi_info fi;
    char tck[32], asked[32];

    if (pp_link_ftdi_info(l, &fi) != PP_OK)
        return;
    r->tck_hz = fi.tck_hz;
    r->asked_hz = fi.tck_asked_hz;
    mhz(tck, sizeof(tck), fi.tck_hz);
    mhz(asked, sizeof(asked), fi.tck_asked_hz);
    snprintf(r->tck, sizeof(r->tck), "%s (asked %s)", tck, asked);
    snprintf(r->line, sizeof(r->line), "link: ftdi %s at %s interface %c (adapter %s%s%s), "
             "TCK %s", fi.chip, fi.usb_path, fi.interface, fi.layout, swd ? ", SWD with " : "",
             swd ? pp_ftdi_swdio_wiring(fi.swdio) : "", r->tck);
}

/* The probe's SWJ clock as asked (it does not say what it achieved,
 * spec/cmsis-dap-swd.md 6.3) and its Test Domain Timer, which DAP_Transfer
 * could stamp transfers with (spec 2.4); the capture's timestamps are
 * still the host's. */
static void report_cmsisdap(struct pp_link *l, struct link_report *r)
{
    const struct pp_cmsisdap_info *i = pp_cmsisdap_info(pp_link_cmsisdap(l));
    char tck[32], timer[48] = "none";

    r->tck_hz = r->asked_hz = i->clock_hz;
    r->timer_hz = i->timer_hz;
    mhz(tck, sizeof(tck), i->clock_hz);
    if (i->timer_hz)
        mhz(timer, sizeof(timer), i->timer_hz);
    snprintf(r->tck, sizeof(r->tck), "%s (asked; the probe does not report its own)", tck);
    if (i->swd) {
        snprintf(r->line, sizeof(r->line), "link: cmsis-dap %04x:%04x serial %s, %u x %u-byte "
                 "packets, test domain timer %s, SWD (DPIDR 0x%08X), SWCLK %s", i->vid,
                 i->pid, i->serial, i->packet_count, i->packet_size, timer, i->dpidr, tck);
        return;
    }
    snprintf(r->line, sizeof(r->line), "link: cmsis-dap %04x:%04x serial %s, %u x %u-byte "
             "packets, test domain timer %s, TCK %s", i->vid, i->pid, i->serial,
             i->packet_count, i->packet_size, timer, tck);
}

void link_report(struct pp_bus *bus, struct link_report *r)
{
    const char *name = pp_bus_name(bus);
    struct pp_link *l = pp_bus_adi_link(bus);

    memset(r, 0, sizeof(*r));
    r->name = name;
    if (l && strcmp(l->ops->name, "ftdi") == 0) {
        report_ftdi(l, pp_dp_is_swd(pp_bus_adi_dp(bus)), r);
        return;
    }
    if (l && strcmp(l->ops->name, "cmsis-dap") == 0) {
        report_cmsisdap(l, r);
        return;
    }
    if (l && strcmp(l->ops->name, "rbb") == 0)
        snprintf(r->tck, sizeof(r->tck), "set by the remote_bitbang server "
                 "(the protocol has no clock)");
    else if (strcmp(name, "openocd") == 0)
        snprintf(r->tck, sizeof(r->tck), "set by OpenOCD (its adapter speed)");
    else if (strcmp(name, "sim") == 0)
        snprintf(r->tck, sizeof(r->tck), "none (the in-process simulated SoC has no JTAG)");
    else
        snprintf(r->tck, sizeof(r->tck), "not known");
    snprintf(r->line, sizeof(r->line), "link: %s, TCK %s", name, r->tck);
}

void link_report_json(struct json *j, struct pp_bus *bus)
{
    struct link_report r;

    link_report(bus, &r);
    json_key(j, "link");
    json_object(j);
    json_kstring(j, "name", r.name);
    if (r.tck_hz) {
        json_kuint(j, "tck_hz", r.tck_hz);
        json_kuint(j, "tck_asked_hz", r.asked_hz);
    } else {
        json_knull(j, "tck_hz");
        json_knull(j, "tck_asked_hz");
    }
    json_kstring(j, "tck", r.tck);
    if (r.name && strcmp(r.name, "cmsis-dap") == 0) {
        if (r.timer_hz)
            json_kuint(j, "timer_hz", r.timer_hz);
        else
            json_knull(j, "timer_hz");
    }
    json_object_end(j);
}

void link_report_print(struct pp_bus *bus)
{
    struct link_report r;

    link_report(bus, &r);
    if (r.tck_hz)
        printf("%s\n", r.line);
}

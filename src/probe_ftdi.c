/*
 * probe_ftdi.c - the 'ftdi' access path: pmuprobe drives an FTDI MPSSE
 * adapter itself (lib/link/ftdi.c) and runs its own ADIv5 JTAG-DP stack
 * over it (lib/adi).
 *
 *   -p ftdi[:VID:PID[:SERIAL]][@A|B|C|D][,desc=TEXT][,usb=BUS-PORT.PORT][,sync]
 *
 * --adapter NAME picks the pin layout (and, without VID:PID, the ids);
 * --speed KHZ the TCK request.
 */
#include <stdlib.h>
#include <string.h>

#include "adi/adi.h"
#include "cli.h"
#include "link/ftdi.h"

#define SPEC_MAX 256

struct ftdi_spec {
    char buf[SPEC_MAX];           /* the spec, cut into the strings below */
    struct pp_ftdi_params p;
    struct pp_ftdi_layout custom;
};

static bool parse_hex16(const char *s, uint16_t *out)
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
    return parse_hex16(ids, &p->vid) && parse_hex16(pid, &p->pid);
}

static bool parse_spec(const char *spec, struct ftdi_spec *fs)
{
    char *opt, *next;

    memset(fs, 0, sizeof(*fs));
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

static void list_layouts(void)
{
    const struct pp_ftdi_layout *ly;

    fprintf(stderr, "adapters:\n");
    for (size_t i = 0; (ly = pp_ftdi_layout_get(i)); i++)
        fprintf(stderr, "  %-22s %04x:%04x  %s\n", ly->name, ly->vid, ly->pid, ly->summary);
    fprintf(stderr, "  custom:init=VALUE/DIR[,vidpid=VID:PID][,trst=SIG][,srst=SIG]\n");
}

static int pick_layout(const struct cli_opts *o, struct ftdi_spec *fs)
{
    char err[256];

    if (!o->adapter)
        return EXIT_OK;
    if (strncmp(o->adapter, "custom:", 7) == 0) {
        if (pp_ftdi_layout_parse(o->adapter, &fs->custom, err, sizeof(err)) != PP_OK) {
            cli_error("--adapter: %s", err);
            return EXIT_USAGE;
        }
        fs->p.layout = &fs->custom;
        return EXIT_OK;
    }
    fs->p.layout = pp_ftdi_layout_find(o->adapter);
    if (!fs->p.layout) {
        cli_error("--adapter '%s': unknown FTDI adapter layout", o->adapter);
        list_layouts();
        return EXIT_USAGE;
    }
    return EXIT_OK;
}

int probe_open_ftdi(const struct cli_opts *o, const char *spec, struct session *s)
{
    struct ftdi_spec fs;
    struct pp_link *link;
    char err[512];
    int rc;

    if (!parse_spec(spec, &fs)) {
        cli_error("--probe ftdi:%s: expected ftdi[:VID:PID[:SERIAL]][@A|B|C|D]"
                  "[,desc=TEXT][,usb=BUS-PORT.PORT][,sync], e.g. ftdi:0403:6010@A", spec);
        return EXIT_USAGE;
    }
    rc = pick_layout(o, &fs);
    if (rc != EXIT_OK)
        return rc;
    fs.p.khz = o->speed_khz;
    rc = pp_link_ftdi_open(&fs.p, &link, err, sizeof(err));
    if (rc != PP_OK) {
        cli_error("%s", err);
        return rc == PP_E_INVAL ? EXIT_USAGE : EXIT_PATH;
    }
    err[0] = '\0';
    rc = cli_bus_over_link(o, link, s, err, sizeof(err));
    /* Link messages already say "ftdi ..."; the JTAG/DP ones do not. */
    if (rc != EXIT_OK && err[0])
        cli_error("%s%s", strncmp(err, "ftdi", 4) == 0 ? "" : "ftdi: ", err);
    return rc;
}

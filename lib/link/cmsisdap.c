/*
 * cmsisdap.c - a CMSIS-DAP v2 probe over libusb-1.0 (cmsisdap.h): finding
 * its interface, DAP_Info, connecting in JTAG mode, the clock, the pins,
 * and the packet exchange with Packet Count commands in flight.
 * Facts: spec/cmsis-dap-swd.md 1.1-1.4, 2.2, 2.3, 2.6.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "errmsg.h"
#include "link/cmsisdap_internal.h"

#define TIMEOUT_MS      1000u     /* one command's reply; OpenOCD allows 6 s */
#define DRAIN_MS        10u       /* stale replies at open (spec 3.1 step 0) */
#define ID_INFO         0x00u
#define ID_CONNECT      0x02u
#define ID_DISCONNECT   0x03u
#define ID_XFER_CONFIG  0x04u
#define ID_SWJ_PINS     0x10u
#define ID_SWJ_CLOCK    0x11u
#define PORT_SWD        1u
#define PORT_JTAG       2u
#define ID_SWJ_SEQUENCE 0x12u
#define ID_SWD_CONFIG   0x13u
#define ID_TRANSFER     0x05u
#define WAIT_RETRY      64u       /* as OpenOCD (spec 2.6); the DP layer
                                   * recovers beyond that */

static int usb_fail(struct pp_cmsisdap *d, const char *what, int rc)
{
    /* Named as over -p ftdi (lib/link/ftdi.c): the cause a user acts on. */
    if (rc == LIBUSB_ERROR_NO_DEVICE) {
        snprintf(d->link->errmsg, sizeof(d->link->errmsg), "cmsis-dap: %s: the adapter was "
                 "unplugged (USB: no such device)", what);
        return PP_E_LINK;
    }
    snprintf(d->link->errmsg, sizeof(d->link->errmsg), "cmsis-dap: %s: %s", what,
             libusb_strerror(rc));
    return PP_E_LINK;
}

static int send_pkt(struct pp_cmsisdap *d, const uint8_t *out, size_t olen)
{
    int done = 0, rc;

    rc = libusb_bulk_transfer(d->h, d->ep_out, (unsigned char *)out, (int)olen, &done,
                              TIMEOUT_MS);
    if (rc == 0 && (size_t)done != olen)
        rc = LIBUSB_ERROR_IO;
    if (rc)
        return usb_fail(d, "sending a command", rc);
    d->link->stats.bytes_out += olen;
    return PP_OK;
}

static int recv_pkt(struct pp_cmsisdap *d, struct pp_cmsisdap_pkt *p)
{
    int got = 0, rc;

    rc = libusb_bulk_transfer(d->h, d->ep_in, p->in, (int)d->info.packet_size, &got,
                              TIMEOUT_MS);
    if (rc)
        return usb_fail(d, "reading a reply", rc);
    p->recv_ns = pp_mono_ns();
    p->ilen = (size_t)got;
    d->link->stats.bytes_in += (size_t)got;
    if (!got || p->in[0] != p->out[0]) {
        snprintf(d->link->errmsg, sizeof(d->link->errmsg), "cmsis-dap: command 0x%02X got "
                 "reply 0x%02X%s", p->out[0], got ? p->in[0] : 0,
                 got && p->in[0] == 0xFF ? " (the probe does not implement it)" : "");
        return PP_E_PROTO;
    }
    return PP_OK;
}

int pp_cmsisdap_run(struct pp_cmsisdap *d, struct pp_cmsisdap_pkt *p, size_t n)
{
    size_t sent = 0, read = 0;
    unsigned window = d->info.packet_count ? d->info.packet_count : 1;
    int rc = PP_OK, first = PP_OK;

    if (!n)
        return PP_OK;
    d->link->stats.round_trips++;
    d->link->stats.flushes++;
    while (read < n) {
        while (rc == PP_OK && sent < n && sent - read < window)
            rc = send_pkt(d, p[sent].out, p[sent].olen), sent++;
        if (rc != PP_OK && read >= sent)
            return rc;
        /* Every reply of what went out is read, also after an error, so
         * that none is left to answer the next command. */
        int r = recv_pkt(d, &p[read++]);

        if (r == PP_E_LINK)
            return r;
        if (first == PP_OK)
            first = r;
        if (rc != PP_OK && read >= sent)
            return rc;
    }
    return first;
}

/* One command, one reply. */
static int command(struct pp_cmsisdap *d, const uint8_t *out, size_t olen, uint8_t *in,
                   size_t *ilen)
{
    struct pp_cmsisdap_pkt p = { .out = out, .olen = olen, .in = in };
    int rc = pp_cmsisdap_run(d, &p, 1);

    *ilen = p.ilen;
    return rc;
}

/* ---- DAP_Info -------------------------------------------------------- */

static int info(struct pp_cmsisdap *d, uint8_t id, uint8_t *val, size_t *len)
{
    uint8_t out[2] = { ID_INFO, id }, in[PP_CMSISDAP_MAX_PACKET];
    size_t ilen;
    int rc = command(d, out, 2, in, &ilen);

    if (rc != PP_OK)
        return rc;
    *len = ilen >= 2 && in[1] <= ilen - 2 ? in[1] : 0;
    memcpy(val, in + 2, *len);
    return PP_OK;
}

static void info_string(struct pp_cmsisdap *d, uint8_t id, char *dst, size_t cap)
{
    uint8_t v[256];
    size_t len = 0;

    if (info(d, id, v, &len) != PP_OK || !len)
        return;
    snprintf(dst, cap, "%.*s", (int)len, (const char *)v);
}

static uint32_t le(const uint8_t *v, size_t len)
{
    uint32_t x = 0;

    for (size_t i = 0; i < len && i < 4; i++)
        x |= (uint32_t)v[i] << (8 * i);
    return x;
}

/* Capabilities, packet count and size, the timer (spec 2.3). */
static int read_info(struct pp_cmsisdap *d, char *err, size_t errlen)
{
    uint8_t v[256];
    size_t len = 0;
    int rc;

    if ((rc = info(d, 0xFF, v, &len)) != PP_OK)
        goto fail;
    /* Replies are read into PP_CMSISDAP_MAX_PACKET buffers; a larger
     * probe packet is used as far as that (requests set reply sizes). */
    if (len == 2 && le(v, 2) >= 64)
        d->info.packet_size = le(v, 2) < PP_CMSISDAP_MAX_PACKET ? le(v, 2)
                                                               : PP_CMSISDAP_MAX_PACKET;
    if ((rc = info(d, 0xFE, v, &len)) != PP_OK)
        goto fail;
    if (len == 1 && v[0])
        d->info.packet_count = v[0];
    if ((rc = info(d, 0xF0, v, &len)) != PP_OK)
        goto fail;
    d->info.caps = len ? v[0] : 0;
    if (d->info.caps & PP_CMSISDAP_CAP_TIMER) {
        if ((rc = info(d, 0xF1, v, &len)) != PP_OK)
            goto fail;
        d->info.timer_hz = le(v, len);
    }
    info_string(d, 0x04, d->info.protocol, sizeof(d->info.protocol));
    info_string(d, 0x09, d->info.firmware, sizeof(d->info.firmware));
    if (!(d->info.caps & PP_CMSISDAP_CAP_JTAG)) {
        pp_errmsg(err, errlen, "cmsis-dap: the probe %s does not offer JTAG (capabilities "
                  "0x%02X); pmuprobe's cmsis-dap path speaks JTAG only for now",
                  d->info.product, d->info.caps);
        return PP_E_UNSUPPORTED;
    }
    return PP_OK;
fail:
    pp_errmsg(err, errlen, "cmsis-dap: DAP_Info: %s", d->link->errmsg);
    return rc;
}

/* ---- finding the probe ------------------------------------------------ */

static bool string_of(libusb_device_handle *h, uint8_t idx, char *dst, size_t cap)
{
    dst[0] = '\0';
    return idx && libusb_get_string_descriptor_ascii(h, idx, (unsigned char *)dst,
                                                     (int)cap) > 0;
}

/* An interface as spec 1.1 describes it: "CMSIS-DAP" in its string (or the
 * product's), endpoint[0] bulk OUT, endpoint[1] bulk IN. */
static bool dap_interface(struct pp_cmsisdap *d, const struct libusb_interface_descriptor *a,
                          bool product_says)
{
    char s[128];
    const struct libusb_endpoint_descriptor *ep = a->endpoint;

    if (!string_of(d->h, a->iInterface, s, sizeof(s)) || !strstr(s, "CMSIS-DAP")) {
        if (!product_says || a->bInterfaceClass != LIBUSB_CLASS_VENDOR_SPEC)
            return false;
    }
    if (a->bNumEndpoints < 2 ||
        (ep[0].bmAttributes & 3) != LIBUSB_TRANSFER_TYPE_BULK ||
        (ep[0].bEndpointAddress & LIBUSB_ENDPOINT_IN) ||
        (ep[1].bmAttributes & 3) != LIBUSB_TRANSFER_TYPE_BULK ||
        !(ep[1].bEndpointAddress & LIBUSB_ENDPOINT_IN))
        return false;
    d->iface = a->bInterfaceNumber;
    d->ep_out = ep[0].bEndpointAddress;
    d->ep_in = ep[1].bEndpointAddress;
    d->info.packet_size = ep[0].wMaxPacketSize < PP_CMSISDAP_MAX_PACKET ?
                          ep[0].wMaxPacketSize : PP_CMSISDAP_MAX_PACKET;
    return true;
}

static bool find_interface(struct pp_cmsisdap *d, libusb_device *dev, bool product_says)
{
    struct libusb_config_descriptor *c;
    bool found = false;

    if (libusb_get_config_descriptor(dev, 0, &c) != 0)
        return false;
    for (int i = 0; i < c->bNumInterfaces && !found; i++)
        if (c->interface[i].num_altsetting > 0)
            found = dap_interface(d, &c->interface[i].altsetting[0], product_says);
    libusb_free_config_descriptor(c);
    return found;
}

/* Opens dev when it matches p and has a CMSIS-DAP v2 interface. */
static bool try_device(struct pp_cmsisdap *d, libusb_device *dev,
                       const struct pp_cmsisdap_params *p)
{
    struct libusb_device_descriptor dd;

    if (libusb_get_device_descriptor(dev, &dd) != 0)
        return false;
    if ((p->vid || p->pid) && (dd.idVendor != p->vid || dd.idProduct != p->pid))
        return false;
    if (libusb_open(dev, &d->h) != 0)
        return false;
    string_of(d->h, dd.iSerialNumber, d->info.serial, sizeof(d->info.serial));
    string_of(d->h, dd.iProduct, d->info.product, sizeof(d->info.product));
    if ((!p->serial || strcmp(p->serial, d->info.serial) == 0) &&
        find_interface(d, dev, strstr(d->info.product, "CMSIS-DAP") != NULL)) {
        d->info.vid = dd.idVendor;
        d->info.pid = dd.idProduct;
        return true;
    }
    libusb_close(d->h);
    d->h = NULL;
    return false;
}

static int find_probe(struct pp_cmsisdap *d, const struct pp_cmsisdap_params *p, char *err,
                      size_t errlen)
{
    libusb_device **list;
    ssize_t n = libusb_get_device_list(d->ctx, &list);

    if (n < 0) {
        pp_errmsg(err, errlen, "cmsis-dap: listing USB devices: %s", libusb_strerror((int)n));
        return PP_E_LINK;
    }
    for (ssize_t i = 0; i < n && !d->h; i++)
        try_device(d, list[i], p);
    libusb_free_device_list(list, 1);
    if (d->h)
        return PP_OK;
    if (p->vid || p->pid || p->serial)
        pp_errmsg(err, errlen, "cmsis-dap: no CMSIS-DAP v2 probe %04x:%04x%s%s found (or it "
                  "could not be opened: install 60-pmuprobe-cmsis-dap.rules from pmuprobe's data "
                  "directory in /etc/udev/rules.d)", p->vid, p->pid,
                  p->serial ? " serial " : "", p->serial ? p->serial : "");
    else
        pp_errmsg(err, errlen, "cmsis-dap: no CMSIS-DAP v2 probe found: no USB interface "
                  "whose string says CMSIS-DAP with bulk endpoints (or it could not be "
                  "opened: install 60-pmuprobe-cmsis-dap.rules from pmuprobe's data "
                  "directory in /etc/udev/rules.d)");
    return PP_E_NOTFOUND;
}

/* Replies a previous user left unread (spec 3.1 step 0). */
static void drain(struct pp_cmsisdap *d)
{
    uint8_t buf[PP_CMSISDAP_MAX_PACKET];
    int got;

    for (int i = 0; i < 16; i++)
        if (libusb_bulk_transfer(d->h, d->ep_in, buf, sizeof(buf), &got, DRAIN_MS) != 0)
            return;
}

/* ---- the link --------------------------------------------------------- */

static int simple(struct pp_cmsisdap *d, const uint8_t *out, size_t olen, uint8_t want_status)
{
    uint8_t in[PP_CMSISDAP_MAX_PACKET];
    size_t ilen;
    int rc = command(d, out, olen, in, &ilen);

    if (rc == PP_OK && (ilen < 2 || in[1] != want_status)) {
        snprintf(d->link->errmsg, sizeof(d->link->errmsg), "cmsis-dap: command 0x%02X "
                 "answered 0x%02X", out[0], ilen >= 2 ? in[1] : 0);
        rc = PP_E_PROTO;
    }
    return rc;
}

static int set_speed(struct pp_link *l, unsigned khz, unsigned *actual_khz)
{
    struct pp_cmsisdap *d = l->priv;
    uint8_t out[5] = { ID_SWJ_CLOCK };
    int rc;

    pp_cmsisdap_put32(out + 1, khz * 1000u);
    if ((rc = simple(d, out, 5, 0)) != PP_OK)
        return rc;
    /* The probe does not say what it achieved (spec 6.3: bit-banged ones
     * fall short); the request is what is known. */
    *actual_khz = khz;
    d->info.clock_hz = khz * 1000u;
    return PP_OK;
}

/* DAP_SWJ_Pins: nTRST is bit 5, nRESET bit 7, both active low (spec 2.2). */
static int reset(struct pp_link *l, bool trst, bool srst)
{
    uint8_t out[7] = { ID_SWJ_PINS, (uint8_t)((trst ? 0 : 0x20u) | (srst ? 0 : 0x80u)), 0xA0u };
    uint8_t in[PP_CMSISDAP_MAX_PACKET];
    size_t ilen;
    int rc = pp_cmsisdap_seq_flush(l);

    return rc == PP_OK ? command(l->priv, out, 7, in, &ilen) : rc;
}

static void close_probe(struct pp_link *l)
{
    struct pp_cmsisdap *d = l->priv;
    uint8_t out[1] = { ID_DISCONNECT }, in[PP_CMSISDAP_MAX_PACKET];
    size_t ilen;

    if (!d)
        return;
    if (d->h) {
        (void)command(d, out, 1, in, &ilen);
        libusb_release_interface(d->h, d->iface);
        libusb_close(d->h);
    }
    if (d->ctx)
        libusb_exit(d->ctx);
    pp_cmsisdap_seq_free(d);
    free(d);
}

static const struct pp_link_ops cmsisdap_ops = {
    .name = "cmsis-dap",
    .tms = pp_cmsisdap_seq_tms,
    .shift = pp_cmsisdap_seq_shift,
    .flush = pp_cmsisdap_seq_flush,
    .reset = reset,
    .set_speed = set_speed,
    .close = close_probe,
};

struct pp_cmsisdap *pp_link_cmsisdap(struct pp_link *l)
{
    return l && l->ops == &cmsisdap_ops ? l->priv : NULL;
}

const struct pp_cmsisdap_info *pp_cmsisdap_info(const struct pp_cmsisdap *d)
{
    return &d->info;
}

/* The probe, not the host, clocks the DP transfers: there is no TCK
 * schedule (tck_hz 0).  They are dated by what they measure instead
 * (link.h date_hz): the Test Domain Timer's stamps (DAP_Transfer bit 7,
 * spec 2.4) where DAP_Info offers one (capabilities bit 5, 0xF1 its
 * rate, 2.3), else the host's reply arrival in ns, an upper bound only. */
static void date_by(struct pp_cmsisdap *d)
{
    bool timer = (d->info.caps & PP_CMSISDAP_CAP_TIMER) && d->info.timer_hz;

    d->link->tck_hz = 0;
    d->link->date_hz = timer ? d->info.timer_hz : 1000000000u;
    d->link->date_upper = !timer;
}

/* Connect JTAG, the clock, and the transfer settings (spec 2.6). */
static int connect_jtag(struct pp_cmsisdap *d, unsigned khz, char *err, size_t errlen)
{
    const uint8_t conn[2] = { ID_CONNECT, PORT_JTAG };
    const uint8_t cfg[6] = { ID_XFER_CONFIG, 0, WAIT_RETRY & 0xFF, WAIT_RETRY >> 8, 0, 0 };
    unsigned actual;
    int rc;

    if ((rc = simple(d, conn, 2, PORT_JTAG)) == PP_OK &&
        (rc = set_speed(d->link, khz, &actual)) == PP_OK &&
        (rc = simple(d, cfg, 6, 0)) == PP_OK) {
        date_by(d);
        return PP_OK;
    }
    pp_errmsg(err, errlen, "%s", d->link->errmsg);
    return rc;
}

/* SWD: connect, one-cycle turnaround and no data phase on WAIT/FAULT
 * (ORUNDETECT stays off, spec 2.6, 4.8), the clock, the transfer
 * settings; then a line reset, JTAG-to-SWD (for a SWJ-DP) and a line
 * reset (spec 4.4), after which the first packet must read DPIDR (4.5). */
static int connect_swd(struct pp_cmsisdap *d, unsigned khz, char *err, size_t errlen)
{
    const uint8_t conn[2] = { ID_CONNECT, PORT_SWD }, swdcfg[2] = { ID_SWD_CONFIG, 0 };
    const uint8_t cfg[6] = { ID_XFER_CONFIG, 0, WAIT_RETRY & 0xFF, WAIT_RETRY >> 8, 0, 0 };
    const uint8_t seq[2 + 25] = { ID_SWJ_SEQUENCE, 200,
        0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x00,          /* line reset */
        0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x9E, 0xE7,    /* 56 ones, 0xE79E */
        0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x00 };        /* line reset */
    const uint8_t idr[4] = { ID_TRANSFER, 0, 1, 0x02 };          /* DP read DPIDR */
    uint8_t in[PP_CMSISDAP_MAX_PACKET];
    size_t ilen = 0;
    unsigned actual;
    int rc;

    if (!(d->info.caps & PP_CMSISDAP_CAP_SWD)) {
        pp_errmsg(err, errlen, "cmsis-dap: %s does not support SWD (capabilities 0x%02X)",
                  d->info.product, d->info.caps);
        return PP_E_UNSUPPORTED;
    }
    if ((rc = simple(d, conn, 2, PORT_SWD)) == PP_OK &&
        (rc = simple(d, swdcfg, 2, 0)) == PP_OK &&
        (rc = set_speed(d->link, khz, &actual)) == PP_OK &&
        (rc = simple(d, cfg, 6, 0)) == PP_OK &&
        (rc = simple(d, seq, sizeof(seq), 0)) == PP_OK &&
        (rc = command(d, idr, sizeof(idr), in, &ilen)) == PP_OK) {
        if (ilen < 7 || in[1] != 1 || in[2] != 1) {
            pp_errmsg(err, errlen, "cmsis-dap: SWD: the DPIDR read after the line reset "
                      "answered ACK %u: no SW-DP answers (check the wiring, the power and "
                      "that the target speaks SWD)", ilen >= 3 ? in[2] & 7u : 0u);
            return PP_E_LINK;
        }
        d->info.dpidr = pp_cmsisdap_get32(in + 3);
        d->info.swd = true;
        date_by(d);
        return PP_OK;
    }
    pp_errmsg(err, errlen, "%s", d->link->errmsg);
    return rc;
}

static int open_usb(struct pp_cmsisdap *d, const struct pp_cmsisdap_params *p, char *err,
                    size_t errlen)
{
    int rc = libusb_init(&d->ctx);

    if (rc != 0) {
        d->ctx = NULL;
        pp_errmsg(err, errlen, "cmsis-dap: libusb_init: %s", libusb_strerror(rc));
        return PP_E_LINK;
    }
    if ((rc = find_probe(d, p, err, errlen)) != PP_OK)
        return rc;
    rc = libusb_claim_interface(d->h, d->iface);
    if (rc != 0) {
        pp_errmsg(err, errlen, "cmsis-dap: claiming interface %d of %s: %s", d->iface,
                  d->info.product, libusb_strerror(rc));
        libusb_close(d->h);
        d->h = NULL;
        return rc == LIBUSB_ERROR_BUSY ? PP_E_BUSY : PP_E_LINK;
    }
    drain(d);
    d->info.packet_count = 1;
    return PP_OK;
}

int pp_link_cmsisdap_open(const struct pp_cmsisdap_params *p, struct pp_link **out, char *err,
                          size_t errlen)
{
    struct pp_link *l = calloc(1, sizeof(*l));
    struct pp_cmsisdap *d = calloc(1, sizeof(*d));
    int rc;

    *out = NULL;
    if (!l || !d) {
        free(l);
        free(d);
        pp_errmsg(err, errlen, "cmsis-dap: out of memory");
        return PP_E_NOMEM;
    }
    l->ops = &cmsisdap_ops;
    l->priv = d;
    d->link = l;
    if ((rc = open_usb(d, p, err, errlen)) == PP_OK &&
        (rc = read_info(d, err, errlen)) == PP_OK)
        rc = (p->swd ? connect_swd : connect_jtag)(d, p->khz ? p->khz :
                                                    PP_CMSISDAP_DEFAULT_KHZ, err, errlen);
    if (rc != PP_OK) {
        pp_link_close(l);
        return rc;
    }
    *out = l;
    return PP_OK;
}

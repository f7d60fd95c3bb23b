/*
 * usb.c - the libusb-1.0 API over the emulated probe: what OpenOCD 0.12's
 * cmsis_dap_usb_bulk.c and pmuprobe's cmsis-dap link import (spec/
 * cmsis-dap-swd.md 1.2), plus the neighbours a host may reach, since under
 * LD_PRELOAD a forgotten symbol silently falls through to the real libusb.
 *
 * One device: configuration 1, interface 0, class FF/00/00, interface
 * string "CMSIS-DAP v2 Interface", endpoint[0] bulk OUT 0x01, endpoint[1]
 * bulk IN 0x81, 512 bytes each (high speed; spec 1.1).  Transfers are
 * synchronous: an OUT packet is run at once into a reply buffer (dap.c);
 * an IN transfer takes the oldest reply, in real time no earlier than its
 * ready time (and there the command runs when the IN asks for it, no
 * earlier than the probe would start it).  An IN with no reply pending can never be answered (the
 * host is the only one who could send a command): it times out at once,
 * timeout 0 ("forever") included, so a host that polls does not hang.
 */
#include <libusb.h>
#include <stdlib.h>
#include <string.h>

#include "../emu-usb.h"
#include "emu.h"

#define EP_OUT 0x01u
#define EP_IN  0x81u
#define STR_INTERFACE 4

const char emu_usb_describe[] = "cmsisdap-emu";

struct libusb_context {
    int refs;
};

struct libusb_device {
    struct libusb_context *ctx;
};

struct libusb_device_handle {
    struct libusb_device *dev;
};

static struct libusb_context default_ctx;
static struct libusb_device the_dev;

int libusb_init(libusb_context **ctx)
{
    dap_lock();
    dap_get();
    if (ctx) {
        *ctx = calloc(1, sizeof(**ctx));
        dap_unlock();
        return *ctx ? 0 : LIBUSB_ERROR_NO_MEM;
    }
    default_ctx.refs++;
    dap_unlock();
    return 0;
}

void libusb_exit(libusb_context *ctx)
{
    if (ctx)
        free(ctx);
    else
        default_ctx.refs--;
}

ssize_t libusb_get_device_list(libusb_context *ctx, libusb_device ***list)
{
    *list = calloc(2, sizeof(**list));
    if (!*list)
        return LIBUSB_ERROR_NO_MEM;
    dap_lock();
    dap_get();
    the_dev.ctx = ctx;
    (*list)[0] = &the_dev;
    dap_unlock();
    return 1;
}

void libusb_free_device_list(libusb_device **list, int unref_devices)
{
    (void)unref_devices;
    free(list);
}

libusb_device *libusb_ref_device(libusb_device *dev)
{
    return dev;
}

void libusb_unref_device(libusb_device *dev)
{
    (void)dev;
}

int libusb_get_device_descriptor(libusb_device *dev, struct libusb_device_descriptor *desc)
{
    const struct dap *d = dap_get();

    (void)dev;
    emu_usb_device_descriptor(desc, 0x0210, d->vid, d->pid, 0x0100);
    return 0;
}

int libusb_get_config_descriptor(libusb_device *dev, uint8_t config_index,
                                 struct libusb_config_descriptor **config)
{
    static const struct emu_usb_iface dap_if = {
        .ep = { EP_OUT, EP_IN }, .max_packet = DAP_EP_SIZE, .string = STR_INTERFACE,
    };

    (void)dev;
    if (config_index != 0)
        return LIBUSB_ERROR_NOT_FOUND;
    return emu_usb_config_new(&dap_if, 1, config);
}

uint8_t libusb_get_bus_number(libusb_device *dev)
{
    (void)dev;
    return 1;
}

uint8_t libusb_get_device_address(libusb_device *dev)
{
    (void)dev;
    return 2;
}

uint8_t libusb_get_port_number(libusb_device *dev)
{
    (void)dev;
    return 1;
}

int libusb_get_port_numbers(libusb_device *dev, uint8_t *port_numbers, int len)
{
    (void)dev;
    if (len < 1)
        return LIBUSB_ERROR_OVERFLOW;
    port_numbers[0] = 1;
    return 1;
}

int libusb_get_max_packet_size(libusb_device *dev, unsigned char endpoint)
{
    (void)dev;
    (void)endpoint;
    return DAP_EP_SIZE;
}

int libusb_open(libusb_device *dev, libusb_device_handle **handle)
{
    struct libusb_device_handle *h = calloc(1, sizeof(*h));

    if (!h)
        return LIBUSB_ERROR_NO_MEM;
    h->dev = dev;
    *handle = h;
    return 0;
}

void libusb_close(libusb_device_handle *h)
{
    if (!h)
        return;
    dap_lock();
    dap_get()->claimed = false;
    dap_unlock();
    free(h);
}

libusb_device *libusb_get_device(libusb_device_handle *h)
{
    return h->dev;
}

int libusb_get_configuration(libusb_device_handle *h, int *config)
{
    (void)h;
    *config = 1;
    return 0;
}

int libusb_set_configuration(libusb_device_handle *h, int configuration)
{
    (void)h;
    return configuration == 1 || configuration == -1 ? 0 : LIBUSB_ERROR_NOT_FOUND;
}

int libusb_claim_interface(libusb_device_handle *h, int interface_number)
{
    struct dap *d;
    int rc = 0;

    (void)h;
    dap_lock();
    d = dap_get();
    if (interface_number != 0)
        rc = LIBUSB_ERROR_NOT_FOUND;
    else if (d->claimed)
        rc = LIBUSB_ERROR_BUSY;
    else
        d->claimed = true;
    dap_unlock();
    return rc;
}

int libusb_release_interface(libusb_device_handle *h, int interface_number)
{
    (void)h;
    if (interface_number != 0)
        return LIBUSB_ERROR_NOT_FOUND;
    dap_lock();
    dap_get()->claimed = false;
    dap_unlock();
    return 0;
}

int libusb_set_interface_alt_setting(libusb_device_handle *h, int interface_number,
                                     int alternate_setting)
{
    (void)h;
    (void)interface_number;
    return alternate_setting == 0 ? 0 : LIBUSB_ERROR_NOT_FOUND;
}

int libusb_clear_halt(libusb_device_handle *h, unsigned char endpoint)
{
    (void)h;
    (void)endpoint;
    return 0;
}

int libusb_reset_device(libusb_device_handle *h)
{
    (void)h;
    return 0;
}

int libusb_kernel_driver_active(libusb_device_handle *h, int interface_number)
{
    (void)h;
    (void)interface_number;
    return 0;
}

int libusb_detach_kernel_driver(libusb_device_handle *h, int interface_number)
{
    (void)h;
    (void)interface_number;
    return LIBUSB_ERROR_NOT_FOUND;
}

int libusb_get_string_descriptor_ascii(libusb_device_handle *h, uint8_t desc_index,
                                       unsigned char *data, int length)
{
    const struct dap *d = dap_get();
    const char *s;

    (void)h;
    switch (desc_index) {
    case EMU_USB_STR_MANUFACTURER: s = "pmuprobe"; break;
    case EMU_USB_STR_PRODUCT: s = "DAPLink CMSIS-DAP (pmuprobe emulator)"; break;
    case EMU_USB_STR_SERIAL: s = d->serial; break;
    case STR_INTERFACE: s = "CMSIS-DAP v2 Interface"; break;
    default: return desc_index == 0 ? LIBUSB_ERROR_INVALID_PARAM : LIBUSB_ERROR_PIPE;
    }
    return emu_usb_string(s, data, length);
}

int libusb_control_transfer(libusb_device_handle *h, uint8_t request_type, uint8_t bRequest,
                            uint16_t wValue, uint16_t wIndex, unsigned char *data,
                            uint16_t wLength, unsigned int timeout)
{
    (void)h; (void)request_type; (void)bRequest; (void)wValue; (void)wIndex; (void)data;
    (void)wLength; (void)timeout;
    return LIBUSB_ERROR_PIPE;
}

static int bulk_in(struct dap *d, unsigned char *data, int length, int *transferred)
{
    struct dap_reply *r;
    size_t n;

    if (!d->rlen)
        return LIBUSB_ERROR_TIMEOUT;
    r = &d->reply[d->rhead];
    if (r->pending)
        dap_run_pending(d, r);
    if (d->realtime && dap_now_ns() < r->ready_ns) {
        uint64_t t = r->ready_ns;

        dap_unlock();
        dap_sleep_until_ns(t);
        dap_lock();
    }
    n = r->len < (size_t)length ? r->len : (size_t)length;
    memcpy(data, r->data, n);
    *transferred = (int)n;
    d->rhead = (d->rhead + 1) % DAP_MAX_COUNT;
    d->rlen--;
    d->n.bulk_in++;
    return 0;
}

int libusb_bulk_transfer(libusb_device_handle *h, unsigned char endpoint, unsigned char *data,
                         int length, int *transferred, unsigned int timeout)
{
    struct dap *d;
    int rc = 0, dummy;

    (void)h;
    (void)timeout;
    if (!transferred)
        transferred = &dummy;
    *transferred = 0;
    dap_lock();
    d = dap_get();
    if (!d->claimed)
        rc = LIBUSB_ERROR_IO;
    else if (dap_unplug_due(d))
        rc = LIBUSB_ERROR_NO_DEVICE;
    else if (endpoint == EP_IN)
        rc = bulk_in(d, data, length, transferred);
    else if (endpoint != EP_OUT)
        rc = LIBUSB_ERROR_NOT_FOUND;
    else if (!dap_packet_out(d, data, (size_t)length))
        rc = LIBUSB_ERROR_TIMEOUT;    /* every buffer busy: NAKed until the timeout */
    else {
        *transferred = length;
        d->n.bulk_out++;
    }
    dap_unlock();
    return rc;
}

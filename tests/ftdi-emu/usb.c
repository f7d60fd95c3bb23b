/*
 * usb.c - the libusb-1.0 API over the emulated chips: every function that
 * libftdi1 1.5 and OpenOCD 0.12's ftdi driver import (spec/ftdi-mpsse-
 * jtag.md 3.1, 3.2), plus the neighbours a host may reach, since under
 * LD_PRELOAD a forgotten symbol silently falls through to the real libusb
 * (3.7 trap 9).
 *
 * Async transfers complete only inside libusb_handle_events*, never inside
 * submit (3.7 trap 2), and every call makes what progress it can (trap 3):
 * OUT transfers feed the MPSSE engine, IN transfers take packets from the
 * TX FIFO, the latency timer runs on the real clock.  In real time (rt.c)
 * a transfer also completes no earlier than the model's clock says: the
 * waits are sleeps on the monotonic clock with the lock dropped.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "../emu-usb.h"
#include "emu.h"

const char emu_usb_describe[] = "ftdi-emu";

struct libusb_context {
    struct libusb_device *devs[EMU_MAX_DEVICES];
    unsigned ndevs;
    struct xfer *pending;               /* submitted, in submission order */
    unsigned refs;                      /* the default context is shared */
};

struct libusb_device {
    struct libusb_context *ctx;
    struct emu_device *emu;
    int refs;
};

struct libusb_device_handle {
    struct libusb_device *dev;
    uint32_t claimed;
};

/* Private header in front of each libusb_transfer. */
struct xfer {
    struct xfer *next;
    struct libusb_context *ctx;
    bool pending, cancel;
    size_t filled;
    uint64_t submit_tick;               /* emu_now_tick() at submission */
    uint64_t done_tick;                 /* OUT in real time: its last packet arrives */
    _Alignas(16) unsigned char transfer[];
};

static struct libusb_context *default_ctx;

#define LOCKED(expr) do { emu_lock(); expr; emu_unlock(); } while (0)

static struct xfer *xfer_of(struct libusb_transfer *t)
{
    return (struct xfer *)((unsigned char *)t - offsetof(struct xfer, transfer));
}

static struct libusb_context *ctx_or_default(libusb_context *ctx)
{
    return ctx ? ctx : default_ctx;
}

static struct emu_channel *channel_of(struct libusb_device_handle *h, unsigned char ep)
{
    unsigned idx = ((ep & 0x0Fu) - 1u) / 2u;      /* 0x81/0x02 = A, 0x83/0x04 = B ... */
    struct emu_device *d = h->dev->emu;

    return idx < d->nif ? &d->ch[idx] : NULL;
}

static bool gone(const struct libusb_device *dev)
{
    return dev->emu->unplugged;
}

/* --- contexts, devices ---------------------------------------------------- */

static struct libusb_context *ctx_new(void)
{
    struct emu *e = emu_get();
    struct libusb_context *ctx = calloc(1, sizeof(*ctx));

    if (!ctx)
        return NULL;
    for (unsigned i = 0; i < e->ndev; i++) {
        struct libusb_device *d = calloc(1, sizeof(*d));

        if (!d)
            break;
        d->ctx = ctx;
        d->emu = &e->dev[i];
        d->refs = 1;
        ctx->devs[ctx->ndevs++] = d;
    }
    ctx->refs = 1;
    return ctx;
}

static void ctx_free(struct libusb_context *ctx)
{
    for (unsigned i = 0; i < ctx->ndevs; i++)
        free(ctx->devs[i]);
    free(ctx);
}

int libusb_init(libusb_context **ctx)
{
    int rc = 0;

    emu_lock();
    if (ctx) {
        *ctx = ctx_new();
        rc = *ctx ? 0 : LIBUSB_ERROR_NO_MEM;
    } else if (default_ctx) {
        default_ctx->refs++;
    } else {
        default_ctx = ctx_new();
        rc = default_ctx ? 0 : LIBUSB_ERROR_NO_MEM;
    }
    emu_unlock();
    return rc;
}

void libusb_exit(libusb_context *ctx)
{
    emu_lock();
    if (!ctx) {
        if (default_ctx && --default_ctx->refs == 0) {
            ctx_free(default_ctx);
            default_ctx = NULL;
        }
    } else {
        ctx_free(ctx);
    }
    emu_unlock();
}

ssize_t libusb_get_device_list(libusb_context *ctx, libusb_device ***list)
{
    struct libusb_context *c;
    struct emu *e;
    size_t n = 0;

    emu_lock();
    e = emu_get();
    c = ctx_or_default(ctx);
    *list = calloc(EMU_MAX_DEVICES + 1, sizeof(**list));
    if (!*list) {
        emu_unlock();
        return LIBUSB_ERROR_NO_MEM;
    }
    for (unsigned i = 0; c && i < c->ndevs && e->fault != FAULT_ABSENT; i++) {
        if (gone(c->devs[i]))
            continue;
        c->devs[i]->refs++;
        (*list)[n++] = c->devs[i];
    }
    emu_unlock();
    return (ssize_t)n;
}

void libusb_free_device_list(libusb_device **list, int unref_devices)
{
    if (!list)
        return;
    emu_lock();
    for (size_t i = 0; unref_devices && list[i]; i++)
        list[i]->refs--;
    emu_unlock();
    free(list);
}

/* Devices live as long as their context (libusb_exit frees them). */
libusb_device *libusb_ref_device(libusb_device *dev)
{
    LOCKED(dev->refs++);
    return dev;
}

void libusb_unref_device(libusb_device *dev)
{
    if (dev)
        LOCKED(dev->refs--);
}

int libusb_get_device_descriptor(libusb_device *dev, struct libusb_device_descriptor *desc)
{
    const struct emu_device *d = dev->emu;

    emu_usb_device_descriptor(desc, 0x0200, d->vid, d->pid, d->bcd);
    return 0;
}


/* Each interface: IN 0x81 then OUT 0x02 for A, 0x83/0x04 for B, ...
 * (spec 3.4), named by the product string. */
int libusb_get_config_descriptor(libusb_device *dev, uint8_t config_index,
                                 struct libusb_config_descriptor **config)
{
    struct emu_usb_iface ifs[EMU_USB_MAX_IF];
    unsigned nif = dev->emu->nif;

    if (config_index != 0)
        return LIBUSB_ERROR_NOT_FOUND;
    for (unsigned i = 0; i < nif && i < EMU_USB_MAX_IF; i++)
        ifs[i] = (struct emu_usb_iface){
            .ep = { (uint8_t)(0x81 + 2 * i), (uint8_t)(0x02 + 2 * i) },
            .max_packet = EMU_PACKET,
            .subclass = 0xFF,
            .protocol = 0xFF,
            .string = EMU_USB_STR_PRODUCT,
        };
    return emu_usb_config_new(ifs, nif, config);
}

int libusb_get_config_descriptor_by_value(libusb_device *dev, uint8_t value,
                                          struct libusb_config_descriptor **config)
{
    return value == 1 ? libusb_get_config_descriptor(dev, 0, config) : LIBUSB_ERROR_NOT_FOUND;
}

uint8_t libusb_get_bus_number(libusb_device *dev)
{
    return dev->emu->bus;
}

uint8_t libusb_get_device_address(libusb_device *dev)
{
    return dev->emu->address;
}

uint8_t libusb_get_port_number(libusb_device *dev)
{
    return dev->emu->port;
}

int libusb_get_port_numbers(libusb_device *dev, uint8_t *port_numbers, int len)
{
    if (len < 1)
        return LIBUSB_ERROR_OVERFLOW;
    port_numbers[0] = dev->emu->port;
    return 1;
}

libusb_device *libusb_get_parent(libusb_device *dev)
{
    (void)dev;
    return NULL;
}

int libusb_get_max_packet_size(libusb_device *dev, unsigned char endpoint)
{
    (void)dev;
    (void)endpoint;
    return EMU_PACKET;
}

int libusb_get_max_iso_packet_size(libusb_device *dev, unsigned char endpoint)
{
    (void)dev;
    (void)endpoint;
    return LIBUSB_ERROR_NOT_SUPPORTED;
}

/* --- handles -------------------------------------------------------------- */

int libusb_open(libusb_device *dev, libusb_device_handle **handle)
{
    struct libusb_device_handle *h;
    int rc = 0;

    emu_lock();
    if (gone(dev))
        rc = LIBUSB_ERROR_NO_DEVICE;
    else if (emu_get()->fault == FAULT_ACCESS)
        rc = LIBUSB_ERROR_ACCESS;
    else if (!(h = calloc(1, sizeof(*h))))
        rc = LIBUSB_ERROR_NO_MEM;
    else {
        h->dev = dev;
        dev->refs++;
        *handle = h;
    }
    emu_unlock();
    return rc;
}

libusb_device_handle *libusb_open_device_with_vid_pid(libusb_context *ctx, uint16_t vid,
                                                      uint16_t pid)
{
    struct libusb_context *c;
    libusb_device_handle *h = NULL;

    emu_lock();
    emu_get();
    c = ctx_or_default(ctx);
    for (unsigned i = 0; c && i < c->ndevs && !h; i++) {
        const struct emu_device *d = c->devs[i]->emu;

        if (d->vid == vid && d->pid == pid && libusb_open(c->devs[i], &h) != 0)
            h = NULL;
    }
    emu_unlock();
    return h;
}

/* Forgets the handle's transfers still queued (libusb requires none). */
static void drop_transfers(struct libusb_device_handle *h)
{
    struct libusb_context *ctx = h->dev->ctx;

    for (struct xfer **p = &ctx->pending; *p;) {
        struct libusb_transfer *t = (struct libusb_transfer *)(*p)->transfer;

        if (t->dev_handle == h) {
            (*p)->pending = false;
            *p = (*p)->next;
        } else {
            p = &(*p)->next;
        }
    }
}

void libusb_close(libusb_device_handle *h)
{
    if (!h)
        return;
    emu_lock();
    for (unsigned i = 0; i < h->dev->emu->nif; i++)
        if (h->dev->emu->ch[i].claimed_by == h)
            h->dev->emu->ch[i].claimed_by = NULL;
    drop_transfers(h);
    h->dev->refs--;
    emu_unlock();
    free(h);
}

libusb_device *libusb_get_device(libusb_device_handle *h)
{
    return h->dev;
}

int libusb_get_configuration(libusb_device_handle *h, int *config)
{
    if (gone(h->dev))
        return LIBUSB_ERROR_NO_DEVICE;
    *config = 1;
    return 0;
}

int libusb_set_configuration(libusb_device_handle *h, int configuration)
{
    if (gone(h->dev))
        return LIBUSB_ERROR_NO_DEVICE;
    return configuration == 1 || configuration == -1 ? 0 : LIBUSB_ERROR_NOT_FOUND;
}

int libusb_claim_interface(libusb_device_handle *h, int interface_number)
{
    struct emu_device *d = h->dev->emu;
    int rc = 0;

    emu_lock();
    if (gone(h->dev))
        rc = LIBUSB_ERROR_NO_DEVICE;
    else if (interface_number < 0 || (unsigned)interface_number >= d->nif)
        rc = LIBUSB_ERROR_NOT_FOUND;
    else if (emu_get()->fault == FAULT_BUSY ||
             (d->ch[interface_number].claimed_by && d->ch[interface_number].claimed_by != h))
        rc = LIBUSB_ERROR_BUSY;
    else {
        d->ch[interface_number].claimed_by = h;
        h->claimed |= 1u << interface_number;
    }
    emu_unlock();
    return rc;
}

int libusb_release_interface(libusb_device_handle *h, int interface_number)
{
    struct emu_device *d = h->dev->emu;

    if (interface_number < 0 || (unsigned)interface_number >= d->nif ||
        !(h->claimed & (1u << interface_number)))
        return LIBUSB_ERROR_NOT_FOUND;
    LOCKED(d->ch[interface_number].claimed_by = NULL; h->claimed &= ~(1u << interface_number));
    return gone(h->dev) ? LIBUSB_ERROR_NO_DEVICE : 0;
}

int libusb_set_interface_alt_setting(libusb_device_handle *h, int interface_number,
                                     int alternate_setting)
{
    (void)interface_number;
    if (gone(h->dev))
        return LIBUSB_ERROR_NO_DEVICE;
    return alternate_setting == 0 ? 0 : LIBUSB_ERROR_NOT_FOUND;
}

int libusb_clear_halt(libusb_device_handle *h, unsigned char endpoint)
{
    (void)endpoint;
    return gone(h->dev) ? LIBUSB_ERROR_NO_DEVICE : 0;
}

int libusb_reset_device(libusb_device_handle *h)
{
    return gone(h->dev) ? LIBUSB_ERROR_NO_DEVICE : 0;
}

int libusb_kernel_driver_active(libusb_device_handle *h, int interface_number)
{
    (void)interface_number;
    return gone(h->dev) ? LIBUSB_ERROR_NO_DEVICE : 0;
}

int libusb_detach_kernel_driver(libusb_device_handle *h, int interface_number)
{
    (void)interface_number;
    return gone(h->dev) ? LIBUSB_ERROR_NO_DEVICE : LIBUSB_ERROR_NOT_FOUND;
}

int libusb_attach_kernel_driver(libusb_device_handle *h, int interface_number)
{
    (void)h;
    (void)interface_number;
    return LIBUSB_ERROR_NOT_FOUND;
}

int libusb_get_string_descriptor_ascii(libusb_device_handle *h, uint8_t desc_index,
                                       unsigned char *data, int length)
{
    const struct emu_device *d = h->dev->emu;
    const char *s;

    if (gone(h->dev))
        return LIBUSB_ERROR_NO_DEVICE;
    if (desc_index == EMU_USB_STR_MANUFACTURER)
        s = d->manufacturer;
    else if (desc_index == EMU_USB_STR_PRODUCT)
        s = d->product;
    else if (desc_index == EMU_USB_STR_SERIAL)
        s = d->serial;
    else
        return desc_index == 0 ? LIBUSB_ERROR_INVALID_PARAM : LIBUSB_ERROR_PIPE;
    return emu_usb_string(s, data, length);
}

/* --- synchronous transfers ------------------------------------------------ */

int libusb_control_transfer(libusb_device_handle *h, uint8_t request_type, uint8_t bRequest,
                            uint16_t wValue, uint16_t wIndex, unsigned char *data,
                            uint16_t wLength, unsigned int timeout)
{
    int rc;

    (void)timeout;
    emu_lock();
    if (gone(h->dev))
        rc = LIBUSB_ERROR_NO_DEVICE;
    else {
        emu_get()->n.control++;
        rc = chip_control(h->dev->emu, request_type, bRequest, wValue, wIndex, data, wLength);
    }
    emu_unlock();
    return rc;
}

#define TICKS_PER_MS (EMU_TICK_HZ / 1000u)

/* Sleeps until tick until with the lock dropped, so that other threads
 * are not held up; 1 ms when until has passed (a poll). */
static void sleep_unlocked(uint64_t until, uint64_t now)
{
    emu_unlock();
    emu_sleep_until_tick(until > now ? until : now + TICKS_PER_MS);
    emu_lock();
}

static int bulk_out(struct emu_channel *c, const unsigned char *data, int length,
                    int *transferred)
{
    uint64_t since = emu_now_tick(), done;
    size_t taken = chip_out_at(c, data, (size_t)length, since, &done);
    struct emu *e = emu_get();

    *transferred = (int)taken;
    e->n.bytes_out += taken;
    e->n.bulk_out++;
    if (e->realtime) {
        rt_mark(since, done);
        for (uint64_t now; (now = emu_now_tick()) < done;)
            sleep_unlocked(done, now);
    }
    /* Not all taken: the MPSSE stalled on a full TX FIFO while nobody reads
     * (spec 3.5); the real chip would NAK until the timeout. */
    return taken == (size_t)length ? 0 : LIBUSB_ERROR_TIMEOUT;
}

/* Waits for packets: for the latency timer, and in real time for the
 * model's clock. */
static int bulk_in(struct emu_channel *c, unsigned char *data, int length, int *transferred,
                   unsigned int timeout)
{
    uint64_t since = emu_now_tick();
    uint64_t deadline = timeout ? since + timeout * TICKS_PER_MS : UINT64_MAX;
    size_t filled = 0;

    while (!chip_in_at(c, data, (size_t)length, &filled, since)) {
        uint64_t now = emu_now_tick(), until = chip_next_tick(c, since);

        if (now >= deadline) {
            *transferred = (int)filled;
            return LIBUSB_ERROR_TIMEOUT;
        }
        sleep_unlocked(until < deadline ? until : deadline, now);
    }
    *transferred = (int)filled;
    emu_get()->n.bulk_in++;
    return 0;
}

int libusb_bulk_transfer(libusb_device_handle *h, unsigned char endpoint, unsigned char *data,
                         int length, int *transferred, unsigned int timeout)
{
    struct emu_channel *c;
    int rc, dummy;

    if (!transferred)
        transferred = &dummy;
    *transferred = 0;
    emu_lock();
    emu_count_bulk(endpoint & LIBUSB_ENDPOINT_IN);
    c = channel_of(h, endpoint);
    if (gone(h->dev))
        rc = LIBUSB_ERROR_NO_DEVICE;
    else if (!c)
        rc = LIBUSB_ERROR_NOT_FOUND;
    else if (endpoint & LIBUSB_ENDPOINT_IN)
        rc = bulk_in(c, data, length, transferred, timeout);
    else
        rc = bulk_out(c, data, length, transferred);
    emu_unlock();
    return rc;
}

int libusb_interrupt_transfer(libusb_device_handle *h, unsigned char endpoint,
                              unsigned char *data, int length, int *transferred,
                              unsigned int timeout)
{
    (void)h; (void)endpoint; (void)data; (void)length; (void)transferred; (void)timeout;
    return LIBUSB_ERROR_NOT_SUPPORTED;
}

/* --- asynchronous transfers ----------------------------------------------- */

struct libusb_transfer *libusb_alloc_transfer(int iso_packets)
{
    size_t size = sizeof(struct xfer) + sizeof(struct libusb_transfer) +
                  (size_t)(iso_packets > 0 ? iso_packets : 0) *
                  sizeof(struct libusb_iso_packet_descriptor);
    struct xfer *x = calloc(1, size);

    if (!x)
        return NULL;
    ((struct libusb_transfer *)x->transfer)->num_iso_packets = iso_packets;
    return (struct libusb_transfer *)x->transfer;
}

static void unlink_xfer(struct xfer *x)
{
    for (struct xfer **p = &x->ctx->pending; x->pending && *p; p = &(*p)->next) {
        if (*p == x) {
            *p = x->next;
            break;
        }
    }
    x->pending = false;
    x->next = NULL;
}

void libusb_free_transfer(struct libusb_transfer *t)
{
    struct xfer *x;

    if (!t)
        return;
    x = xfer_of(t);
    emu_lock();
    if (x->pending)
        unlink_xfer(x);
    emu_unlock();
    if (t->flags & LIBUSB_TRANSFER_FREE_BUFFER)
        free(t->buffer);
    free(x);
}

/* The stats' most transfers in flight per direction, this one included. */
static void note_pending(struct libusb_context *ctx, bool in)
{
    struct emu_counters *n = &emu_get()->n;
    uint64_t k = 1, *max = in ? &n->max_pending_in : &n->max_pending_out;

    for (const struct xfer *x = ctx->pending; x; x = x->next)
        k += !(((const struct libusb_transfer *)x->transfer)->endpoint & LIBUSB_ENDPOINT_IN) == !in;
    if (k > *max)
        *max = k;
}

int libusb_submit_transfer(struct libusb_transfer *t)
{
    struct xfer *x = xfer_of(t), **tail;
    int rc = 0;

    emu_lock();
    if (x->pending)
        rc = LIBUSB_ERROR_BUSY;
    else if (t->type != LIBUSB_TRANSFER_TYPE_BULK)
        rc = LIBUSB_ERROR_NOT_SUPPORTED;
    else {
        emu_count_bulk(t->endpoint & LIBUSB_ENDPOINT_IN);
        if (gone(t->dev_handle->dev))
            rc = LIBUSB_ERROR_NO_DEVICE;
        else if (!channel_of(t->dev_handle, t->endpoint))
            rc = LIBUSB_ERROR_NOT_FOUND;
    }
    if (rc == 0) {
        x->ctx = t->dev_handle->dev->ctx;
        x->pending = true;
        x->cancel = false;
        x->filled = 0;
        x->submit_tick = x->done_tick = emu_now_tick();
        x->next = NULL;
        t->actual_length = 0;
        note_pending(x->ctx, t->endpoint & LIBUSB_ENDPOINT_IN);
        for (tail = &x->ctx->pending; *tail; tail = &(*tail)->next)
            ;
        *tail = x;
    }
    emu_unlock();
    return rc;
}

int libusb_cancel_transfer(struct libusb_transfer *t)
{
    struct xfer *x = xfer_of(t);
    int rc = LIBUSB_ERROR_NOT_FOUND;

    emu_lock();
    if (x->pending) {
        x->cancel = true;
        rc = 0;
    }
    emu_unlock();
    return rc;
}

static bool timed_out(const struct xfer *x, const struct libusb_transfer *t)
{
    return t->timeout && emu_now_tick() >= x->submit_tick + t->timeout * TICKS_PER_MS;
}

/* An OUT transfer's step: its bytes into the chip; in real time complete
 * once its last packet has arrived (rt.c 2). */
static bool step_out(struct xfer *x, struct libusb_transfer *t, struct emu_channel *c)
{
    struct emu *e = emu_get();

    if (x->filled < (size_t)t->length) {
        uint64_t done;
        size_t k = chip_out_at(c, t->buffer + x->filled, (size_t)t->length - x->filled,
                               x->submit_tick, &done);

        x->filled += k;
        e->n.bytes_out += k;
        if (k && done > x->done_tick)
            x->done_tick = done;
    }
    if (x->filled < (size_t)t->length)
        return false;
    if (!e->realtime)
        return true;
    if (emu_now_tick() < x->done_tick)
        return false;
    rt_mark(x->submit_tick, x->done_tick);
    return true;
}

/* Whether an earlier OUT transfer to the same endpoint still has bytes to
 * send: a bulk (stream) pipe delivers data in the order it was put in
 * (USB 2.0 5.3.2.1), so a later transfer may not slip its bytes into FIFO
 * room the earlier one is waiting for.  (Before the host kept more than
 * one OUT transfer in flight, nothing could.) */
static bool behind_out(const struct xfer *x)
{
    const struct libusb_transfer *t = (const struct libusb_transfer *)x->transfer;

    for (const struct xfer *y = x->ctx->pending; y && y != x; y = y->next) {
        const struct libusb_transfer *u = (const struct libusb_transfer *)y->transfer;

        if (u->dev_handle == t->dev_handle && u->endpoint == t->endpoint && !y->cancel &&
            y->filled < (size_t)u->length)
            return true;
    }
    return false;
}

/* The state a pending transfer has reached: -1 still pending, else its
 * libusb_transfer_status. */
static int step(struct xfer *x, bool in_pass)
{
    struct libusb_transfer *t = (struct libusb_transfer *)x->transfer;
    struct emu_channel *c = channel_of(t->dev_handle, t->endpoint);
    bool in = t->endpoint & LIBUSB_ENDPOINT_IN;

    if (gone(t->dev_handle->dev))
        return LIBUSB_TRANSFER_NO_DEVICE;
    if (x->cancel)
        return LIBUSB_TRANSFER_CANCELLED;
    if (in != in_pass)
        return -1;
    if (!in && behind_out(x))
        return -1;
    if (in ? chip_in_at(c, t->buffer, (size_t)t->length, &x->filled, x->submit_tick)
           : step_out(x, t, c))
        return LIBUSB_TRANSFER_COMPLETED;
    return timed_out(x, t) ? LIBUSB_TRANSFER_TIMED_OUT : -1;
}

static void complete(struct xfer *x, int status)
{
    struct libusb_transfer *t = (struct libusb_transfer *)x->transfer;
    struct emu *e = emu_get();

    unlink_xfer(x);
    t->status = (enum libusb_transfer_status)status;
    t->actual_length = (int)x->filled;
    if (status == LIBUSB_TRANSFER_COMPLETED) {
        if (t->endpoint & LIBUSB_ENDPOINT_IN)
            e->n.bulk_in++;
        else
            e->n.bulk_out++;
    }
    if (t->callback)
        t->callback(t);
}

/* Completes what can complete now, OUT transfers first so that an IN
 * submitted alongside finds the replies.  Returns how many completed. */
static int progress(struct libusb_context *ctx)
{
    int done = 0;

    for (bool again = true; again;) {
        again = false;
        for (int pass = 0; pass < 2 && !again; pass++) {
            for (struct xfer *x = ctx->pending; x; x = x->next) {
                int st = step(x, pass == 1);

                if (st >= 0) {
                    complete(x, st);
                    done++;
                    again = true;
                    break;                 /* the callback may have changed the list */
                }
            }
        }
    }
    return done;
}

/* When something may change without host action (ticks): a latency
 * timer, a transfer timeout, in real time the model's next event. */
static uint64_t next_wakeup(struct libusb_context *ctx)
{
    uint64_t t = UINT64_MAX;

    for (struct xfer *x = ctx->pending; x; x = x->next) {
        struct libusb_transfer *tr = (struct libusb_transfer *)x->transfer;
        struct emu_channel *c = channel_of(tr->dev_handle, tr->endpoint);
        uint64_t w = UINT64_MAX;

        if (tr->endpoint & LIBUSB_ENDPOINT_IN)
            w = chip_next_tick(c, x->submit_tick);
        else if (emu_get()->realtime && x->filled == (size_t)tr->length)
            w = x->done_tick;
        if (tr->timeout && x->submit_tick + tr->timeout * TICKS_PER_MS < w)
            w = x->submit_tick + tr->timeout * TICKS_PER_MS;
        if (w < t)
            t = w;
    }
    return t;
}

static int handle_events(libusb_context *ctx, const struct timeval *tv, int *completed)
{
    uint64_t deadline;
    struct libusb_context *c;

    emu_lock();
    c = ctx_or_default(ctx);
    deadline = emu_now_tick() + (tv ? (uint64_t)tv->tv_sec * EMU_TICK_HZ +
                                      (uint64_t)tv->tv_usec * (EMU_TICK_HZ / 1000000u)
                                    : 60000u * TICKS_PER_MS);
    for (;;) {
        uint64_t now, until;

        if (!c || progress(c) > 0 || (completed && *completed))
            break;
        now = emu_now_tick();
        if (now >= deadline)
            break;
        until = next_wakeup(c);
        sleep_unlocked(until < deadline ? until : deadline, now);
    }
    emu_unlock();
    return 0;
}

int libusb_handle_events_timeout_completed(libusb_context *ctx, struct timeval *tv,
                                           int *completed)
{
    return handle_events(ctx, tv, completed);
}

int libusb_handle_events_timeout(libusb_context *ctx, struct timeval *tv)
{
    return handle_events(ctx, tv, NULL);
}

int libusb_handle_events(libusb_context *ctx)
{
    return handle_events(ctx, NULL, NULL);
}

int libusb_handle_events_completed(libusb_context *ctx, int *completed)
{
    return handle_events(ctx, NULL, completed);
}

int libusb_get_next_timeout(libusb_context *ctx, struct timeval *tv)
{
    (void)ctx;
    tv->tv_sec = 0;
    tv->tv_usec = 1000;
    return 1;
}

/*
 * chip.c - one FTDI channel as the USB host sees it: the vendor control
 * requests (spec/ftdi-mpsse-jtag.md 3.3), the host->chip and chip->host
 * FIFOs (2.6), and bulk-IN packets of at most 512 bytes that each start
 * with two modem-status bytes, sent when 510 bytes are ready, when 0x87
 * asks for it, or when the latency timer fires (3.5).  In real time
 * (rt.c) whole packets move, at the times the model gives them.
 */
#include <string.h>

#include "emu.h"

/* Modem and line status as the emulated FT2232H sends them (spec 3.3). */
static const uint8_t status_bytes[2] = { 0x32, 0x60 };

void chip_reset_channel(struct emu_channel *c)
{
    rt_purge_rx(c);
    rt_purge_tx(c);
    c->rx_head = c->rx_len = 0;
    c->tx_head = c->tx_len = 0;
    c->tx_sent = c->tx_made;
    c->term_pending = false;
    c->latency_start_ms = emu_now_ms();
    c->rt_latency_start = emu_now_tick();
    engine_reset(c);
}

static void purge_rx(struct emu_channel *c)
{
    rt_purge_rx(c);
    c->rx_head = c->rx_len = 0;
    c->cmd_len = 0;
    c->bytes_left = 0;
}

static void purge_tx(struct emu_channel *c)
{
    rt_purge_tx(c);
    c->tx_head = c->tx_len = 0;
    c->tx_sent = c->tx_made;
    c->term_pending = false;
}

static struct emu_channel *port_channel(struct emu_device *d, uint16_t index)
{
    unsigned port = index & 0xFF;

    /* wIndex low byte is the port, A = 1 (spec 3.3); 0 also means A on
     * single-channel chips. */
    if (port == 0)
        port = 1;
    return port <= d->nif ? &d->ch[port - 1] : NULL;
}

static int copy_string(const char *s, unsigned char *data, uint16_t len)
{
    size_t n = strlen(s), out = 2 + 2 * n;

    if (len < 2)
        return LIBUSB_ERROR_OVERFLOW;
    if (out > len)
        out = len & ~1u;
    data[0] = (uint8_t)(2 + 2 * n);
    data[1] = LIBUSB_DT_STRING;
    for (size_t i = 0; 2 + 2 * i + 1 < out; i++) {
        data[2 + 2 * i] = (uint8_t)s[i];
        data[3 + 2 * i] = 0;
    }
    return (int)out;
}

/* Standard GET_DESCRIPTOR for strings and the device (libusb's inline
 * libusb_get_string_descriptor comes this way). */
static int standard_request(struct emu_device *d, uint8_t req, uint16_t value,
                            unsigned char *data, uint16_t len)
{
    uint8_t type = (uint8_t)(value >> 8), idx = (uint8_t)value;

    if (req == LIBUSB_REQUEST_GET_CONFIGURATION && len >= 1) {
        data[0] = 1;
        return 1;
    }
    if (req != LIBUSB_REQUEST_GET_DESCRIPTOR || type != LIBUSB_DT_STRING)
        return LIBUSB_ERROR_PIPE;
    if (idx == 0) {
        static const unsigned char langs[4] = { 4, LIBUSB_DT_STRING, 0x09, 0x04 };

        memcpy(data, langs, len < 4 ? len : 4);
        return len < 4 ? len : 4;
    }
    if (idx == 1)
        return copy_string(d->manufacturer, data, len);
    if (idx == 2)
        return copy_string(d->product, data, len);
    if (idx == 3)
        return copy_string(d->serial, data, len);
    return LIBUSB_ERROR_PIPE;
}

static int set_bitmode(struct emu_channel *c, uint16_t value)
{
    uint8_t mode = (uint8_t)(value >> 8);

    emu_log("ch%c SET_BITMODE mask 0x%02X mode 0x%02X", 'A' + c->index, value & 0xFF, mode);
    if (mode != 0x00 && mode != 0x02)
        emu_log("ch%c bit mode 0x%02X is not emulated (only reset and MPSSE)", 'A' + c->index,
                mode);
    c->bitmask = (uint8_t)value;
    c->bitmode = mode;
    engine_reset(c);
    return 0;
}

static int vendor_request(struct emu_device *d, uint8_t req, uint16_t value, uint16_t index,
                          unsigned char *data, uint16_t len)
{
    struct emu_channel *c = port_channel(d, index);

    if (req >= 0x90 && req <= 0x92) {          /* EEPROM: wIndex is the word address */
        if (req == 0x90 && len >= 2) {
            data[0] = data[1] = 0xFF;            /* blank EEPROM */
            return 2;
        }
        return 0;
    }
    if (!c)
        return LIBUSB_ERROR_INVALID_PARAM;
    switch (req) {
    case 0x00:                                  /* SIO_RESET */
        emu_log("ch%c SIO_RESET %u", 'A' + c->index, value);
        if (value == 0)
            chip_reset_channel(c);
        else if (value == 1)
            purge_rx(c);                        /* TCOFLUSH: host -> chip */
        else if (value == 2)
            purge_tx(c);                        /* TCIFLUSH: chip -> host */
        return 0;
    case 0x05:                                  /* POLL_MODEM_STATUS */
        if (len < 2)
            return LIBUSB_ERROR_OVERFLOW;
        memcpy(data, status_bytes, 2);
        return 2;
    case 0x09:                                  /* SET_LATENCY_TIMER */
        c->latency_ms = value & 0xFF;
        emu_log("ch%c latency %u ms", 'A' + c->index, c->latency_ms);
        return 0;
    case 0x0A:                                  /* GET_LATENCY_TIMER */
        if (len < 1)
            return LIBUSB_ERROR_OVERFLOW;
        data[0] = (uint8_t)c->latency_ms;
        return 1;
    case 0x0B:
        return set_bitmode(c, value);
    case 0x0C:                                  /* READ_PINS */
        if (len < 1)
            return LIBUSB_ERROR_OVERFLOW;
        data[0] = (uint8_t)(c->value & c->dir);
        return 1;
    case 0x01: case 0x02: case 0x03: case 0x04: case 0x06: case 0x07:
        return 0;                               /* modem, flow, baud, line: UART only */
    default:
        emu_log("unknown vendor request 0x%02X", req);
        return LIBUSB_ERROR_PIPE;
    }
}

int chip_control(struct emu_device *d, uint8_t type, uint8_t req, uint16_t value,
                 uint16_t index, unsigned char *data, uint16_t len)
{
    if ((type & LIBUSB_REQUEST_TYPE_VENDOR) == LIBUSB_REQUEST_TYPE_VENDOR)
        return vendor_request(d, req, value, index, data, len);
    if ((type & 0x60) == LIBUSB_REQUEST_TYPE_STANDARD && (type & LIBUSB_ENDPOINT_IN))
        return standard_request(d, req, value, data, len);
    return LIBUSB_ERROR_PIPE;
}

size_t chip_out(struct emu_channel *c, const uint8_t *buf, size_t n)
{
    uint64_t done;

    return chip_out_at(c, buf, n, emu_now_tick(), &done);
}

/* k bytes into the RX FIFO, arrived at tick at. */
static void rx_append(struct emu_channel *c, const uint8_t *buf, size_t k, uint64_t at)
{
    if (c->rx_head + c->rx_len + k > sizeof(c->rx)) {
        memmove(c->rx, c->rx + c->rx_head, c->rx_len);
        memmove(c->rx_at, c->rx_at + c->rx_head, c->rx_len * sizeof(c->rx_at[0]));
        c->rx_head = 0;
    }
    memcpy(c->rx + c->rx_head + c->rx_len, buf, k);
    for (size_t i = 0; i < k; i++)
        c->rx_at[c->rx_head + c->rx_len + i] = at;
    c->rx_len += k;
    c->rx_total += k;
}

size_t chip_out_at(struct emu_channel *c, const uint8_t *buf, size_t n, uint64_t since,
                   uint64_t *done)
{
    bool rt = emu_get()->realtime;
    size_t taken = 0;

    *done = since;
    if (c->bitmode != 0x02) {
        /* Not in MPSSE mode: the bytes go to the UART (spec 1.12). */
        emu_log("ch%c %zu bytes before MPSSE mode: sent to the UART", 'A' + c->index, n);
        return n;
    }
    engine_run(c);
    /* The engine ran dry before the host sent this: host time, not USB's. */
    if (rt && !c->rx_len && c->engine_at && since > c->engine_at)
        emu_get()->n.idle_host_ticks += since - c->engine_at;
    while (taken < n) {
        size_t room, k;
        uint64_t at;

        engine_run(c);
        room = c->dev->fifo - c->rx_len;
        k = n - taken < room ? n - taken : room;
        /* In real time a packet enters whole or not at all (rt.c 2). */
        if (rt && n - taken > k && k < EMU_PACKET)
            k = 0;
        else if (rt && k > EMU_PACKET)
            k = EMU_PACKET;
        if (k == 0)
            break;                          /* the engine stalls: TX FIFO full */
        at = rt ? rt_out_packet(c, k, since) : emu_now_tick();
        rx_append(c, buf + taken, k, at);
        taken += k;
        if (at > *done)
            *done = at;
    }
    engine_run(c);
    return taken;
}

uint64_t chip_latency_deadline(const struct emu_channel *c)
{
    return c->latency_start_ms + (c->latency_ms ? c->latency_ms : 1);
}

/* When the chip sends (rt.c 4): in real time, from what the model has
 * clocked by h; else at once, the latency timer on the real clock. */
struct in_view {
    bool rt;
    uint64_t h;                        /* UINT64_MAX: everything made counts */
};

/* One packet of k payload bytes into buf at *filled, sent at tick when. */
static void send_packet(struct emu_channel *c, unsigned char *buf, size_t *filled, size_t k,
                        const struct in_view *v)
{
    struct emu *e = emu_get();
    uint64_t when = v->rt ? v->h : emu_now_tick();

    if (v->rt && k)
        e->n.in_wait_ticks += when - c->tx_at[c->tx_head + k - 1];
    if (v->rt && c->tx_stalled && when > c->engine_at)
        e->n.stall_tx_ticks += when - c->engine_at;
    memcpy(buf + *filled, status_bytes, 2);
    memcpy(buf + *filled + 2, c->tx + c->tx_head, k);
    *filled += 2 + k;
    c->tx_head += k;
    c->tx_len -= k;
    c->tx_sent += k;
    if (!c->tx_len)
        c->tx_head = 0;
    c->latency_start_ms = emu_now_ms();
    c->rt_latency_start = when;
    if (c->tx_stalled && when > c->engine_at)
        c->engine_at = when;        /* room made: the engine goes on from here */
    c->tx_stalled = false;
    if (v->rt)
        rt_in_packet(c, v->h, true);
    e->n.bytes_in += k;
    if (!k)
        e->n.status_only++;
}

static bool timer_fired(const struct emu_channel *c, const struct in_view *v)
{
    uint64_t ms = c->latency_ms ? c->latency_ms : 1;

    if (v->rt)
        return v->h >= c->rt_latency_start + ms * (EMU_TICK_HZ / 1000u);
    return emu_now_ms() >= chip_latency_deadline(c);
}

bool chip_in(struct emu_channel *c, unsigned char *buf, size_t len, size_t *filled)
{
    return chip_in_at(c, buf, len, filled, emu_now_tick());
}

/* The packets the chip sends at v->h into a transfer submitted at since:
 * true when the transfer is complete. */
static bool in_at(struct emu_channel *c, unsigned char *buf, size_t len, size_t *filled,
                  const struct in_view *v, uint64_t since)
{
    for (;;) {
        size_t room = len - *filled, k, ready;
        bool flush, timer;

        engine_run(c);
        if (room < 2)
            return true;
        if (v->rt && !rt_in_packet(c, v->h, false))
            return false;           /* this microframe carries no more */
        ready = rt_ready(c, v->h, EMU_PAYLOAD);
        flush = rt_flush_due(c, v->h);
        timer = timer_fired(c, v);
        if (ready == EMU_PAYLOAD && room >= EMU_PACKET) {
            emu_get()->n.in_full++;
            send_packet(c, buf, filled, EMU_PAYLOAD, v);
            /* A flush that ended exactly on a full packet still owes the
             * host a short packet, or the transfer would not end. */
            c->term_pending = rt_flush_served(c, v->h);
            continue;
        }
        if (!flush && !c->term_pending && !timer && room >= EMU_PACKET)
            return false;
        k = ready < room - 2 ? ready : room - 2;
        if (flush)
            emu_get()->n.in_flush++;
        else
            emu_get()->n.in_timer++;
        send_packet(c, buf, filled, k, v);
        rt_flush_served(c, v->h);
        c->term_pending = false;
        if (v->rt)
            rt_mark(since, v->h);
        return true;
    }
}

/* The tick at which the chip owes the host a packet: its latency timer
 * runs out, a short packet is owed, a full packet's last byte was clocked,
 * or a flush (SEND_IMMEDIATE) it has not yet answered came (rt.c 4). */
static uint64_t in_owed(const struct emu_channel *c)
{
    uint64_t ms = c->latency_ms ? c->latency_ms : 1;
    uint64_t t = c->rt_latency_start + ms * (EMU_TICK_HZ / 1000u);

    if (c->term_pending)
        t = 0;
    if (c->tx_len >= EMU_PAYLOAD && c->tx_at[c->tx_head + EMU_PAYLOAD - 1] < t)
        t = c->tx_at[c->tx_head + EMU_PAYLOAD - 1];
    for (size_t i = 0; i < c->nflush; i++) {
        if (c->flush[i].upto > c->tx_sent) {
            if (c->flush[i].at < t)
                t = c->flush[i].at;
            break;
        }
    }
    return t;
}

/* The first microframe boundary after since, and not before the chip has
 * a reason to send (rt.c 4: a full packet made, an 0x87 executed, the
 * latency timer, a short packet owed), whose microframe has room. */
static uint64_t in_due(const struct emu_channel *c, uint64_t since)
{
    uint64_t t = in_owed(c), b;

    if (t <= since)
        t = since + 1;
    b = (t + EMU_UFRAME - 1) / EMU_UFRAME * EMU_UFRAME;
    if (b / EMU_UFRAME == c->in_uframe && c->in_packets >= EMU_UFRAME_PKTS)
        b += EMU_UFRAME;
    return b;
}

/*
 * In real time, the packets go at the microframe boundaries where the
 * host controller would have fetched them while the transfer was pending,
 * up to now: the controller runs a queued bulk IN transfer on its own
 * (EHCI 1.0 4.8 and 4.10, xHCI the same), so the time at which the host
 * program next looks (this call) does not hold the chip back.  Looking
 * only at now's boundary made a chip with a full TX FIFO wait for the
 * host's CPU.  Never earlier than the bytes were clocked, the transfer
 * submitted, or a packet's microframe had room (rt.c 4).
 */
bool chip_in_at(struct emu_channel *c, unsigned char *buf, size_t len, size_t *filled,
                uint64_t since)
{
    struct in_view v = { emu_get()->realtime, UINT64_MAX };
    uint64_t now_h, last = 0;

    if (!v.rt)
        return in_at(c, buf, len, filled, &v, since);
    now_h = rt_horizon(emu_now_tick());
    for (;;) {
        engine_run(c);
        v.h = in_due(c, since);
        if (v.h <= last)
            v.h = last + EMU_UFRAME;   /* nothing went at last: the next one */
        if (v.h > now_h)
            return false;
        last = v.h;
        if (in_at(c, buf, len, filled, &v, since))
            return true;
    }
}

uint64_t chip_next_tick(const struct emu_channel *c, uint64_t since)
{
    uint64_t now, t;

    if (!emu_get()->realtime)
        return chip_latency_deadline(c) * (EMU_TICK_HZ / 1000u);
    t = in_owed(c);
    now = emu_now_tick();
    if (t <= now)
        t = now + 1;                /* due, but this microframe is full */
    if (t <= since)
        t = since + 1;
    return (t + EMU_UFRAME - 1) / EMU_UFRAME * EMU_UFRAME;
}

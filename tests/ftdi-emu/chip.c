/*
 * chip.c - one FTDI channel as the USB host sees it: the vendor control
 * requests (spec/ftdi-mpsse-jtag.md 3.3), the host->chip and chip->host
 * FIFOs (2.6), and bulk-IN packets of at most 512 bytes that each start
 * with two modem-status bytes, sent when 510 bytes are ready, when 0x87
 * asks for it, or when the latency timer fires (3.5).
 */
#include <string.h>

#include "emu.h"

/* Modem and line status as the emulated FT2232H sends them (spec 3.3). */
static const uint8_t status_bytes[2] = { 0x32, 0x60 };

void chip_reset_channel(struct emu_channel *c)
{
    c->rx_head = c->rx_len = 0;
    c->tx_head = c->tx_len = 0;
    c->tx_sent = c->flush_to = c->tx_made;
    c->term_pending = false;
    c->latency_start_ms = emu_now_ms();
    engine_reset(c);
}

static void purge_rx(struct emu_channel *c)
{
    c->rx_head = c->rx_len = 0;
    c->cmd_len = 0;
    c->bytes_left = 0;
}

static void purge_tx(struct emu_channel *c)
{
    c->tx_head = c->tx_len = 0;
    c->tx_sent = c->flush_to = c->tx_made;
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
    size_t taken = 0;

    if (c->bitmode != 0x02) {
        /* Not in MPSSE mode: the bytes go to the UART (spec 1.12). */
        emu_log("ch%c %zu bytes before MPSSE mode: sent to the UART", 'A' + c->index, n);
        return n;
    }
    while (taken < n) {
        size_t room, k;

        engine_run(c);
        room = c->dev->fifo - c->rx_len;
        if (room == 0)
            break;                          /* the engine stalls: TX FIFO full */
        if (c->rx_head + c->rx_len + room > sizeof(c->rx)) {
            memmove(c->rx, c->rx + c->rx_head, c->rx_len);
            c->rx_head = 0;
        }
        k = n - taken < room ? n - taken : room;
        memcpy(c->rx + c->rx_head + c->rx_len, buf + taken, k);
        c->rx_len += k;
        taken += k;
    }
    engine_run(c);
    return taken;
}

uint64_t chip_latency_deadline(const struct emu_channel *c)
{
    return c->latency_start_ms + (c->latency_ms ? c->latency_ms : 1);
}

/* One packet of k payload bytes into buf at *filled. */
static void send_packet(struct emu_channel *c, unsigned char *buf, size_t *filled, size_t k)
{
    struct emu *e = emu_get();

    memcpy(buf + *filled, status_bytes, 2);
    memcpy(buf + *filled + 2, c->tx + c->tx_head, k);
    *filled += 2 + k;
    c->tx_head += k;
    c->tx_len -= k;
    c->tx_sent += k;
    if (!c->tx_len)
        c->tx_head = 0;
    c->latency_start_ms = emu_now_ms();
    e->n.bytes_in += k;
    if (!k)
        e->n.status_only++;
}

bool chip_in(struct emu_channel *c, unsigned char *buf, size_t len, size_t *filled)
{
    for (;;) {
        size_t room = len - *filled, k;
        bool flush, timer;

        engine_run(c);
        flush = c->tx_sent < c->flush_to && c->tx_len;
        timer = emu_now_ms() >= chip_latency_deadline(c);
        if (room < 2)
            return true;
        if (c->tx_len >= EMU_PAYLOAD && room >= EMU_PACKET) {
            send_packet(c, buf, filled, EMU_PAYLOAD);
            /* A flush that ended exactly on a full packet still owes the
             * host a short packet, or the transfer would not end. */
            c->term_pending = c->tx_sent == c->flush_to;
            continue;
        }
        if (!flush && !c->term_pending && !timer && room >= EMU_PACKET)
            return false;
        k = c->tx_len < EMU_PAYLOAD ? c->tx_len : EMU_PAYLOAD;
        if (k > room - 2)
            k = room - 2;
        send_packet(c, buf, filled, k);
        c->term_pending = false;
        return true;
    }
}

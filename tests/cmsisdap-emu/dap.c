/*
 * dap.c - the CMSIS-DAP command interpreter and its packet buffers
 * (spec/cmsis-dap-swd.md 1.4, 2).  One OUT packet holds one command
 * (DAP_ExecuteCommands: several) and gets one reply; the probe has Packet
 * Count buffers, so a host may send that many commands before it reads.
 * DAP_QueueCommands packets are held and run, answered 0x7F each, when
 * the next packet that is not one arrives (2.7).  DAP_TransferAbort is
 * out of band: no reply, nothing queued (1.4); commands here run to the
 * end at once, so it has nothing to abort.
 */
#include <string.h>

#include "emu.h"
#include "target/target.h"

#define UFRAME_NS 125000u              /* USB high-speed microframe (spec 6.1) */
/* What a probe's firmware spends besides clocking TCK: a fixed cost per
 * command (parse, reply) and per DAP transfer (the bit-banged request,
 * ACK and turnaround handling).  Round figures for a ~100 MHz
 * microcontroller [inferred, spec 6.2]. */
#define CMD_NS   2000u
#define XFER_NS  500u


static const char vendor[] = "pmuprobe";
static const char product[] = "CMSIS-DAP emulator";
static const char protocol[] = "2.1.2";
static const char firmware[] = "pmuprobe-emu 1";

static size_t info_string(uint8_t *o, const char *s)
{
    size_t len = strlen(s) + 1;       /* the NUL counts (spec 2.3) */

    o[0] = (uint8_t)len;
    memcpy(o + 1, s, len);
    return 1 + len;
}

static size_t info_word(uint8_t *o, uint32_t v, unsigned bytes)
{
    o[0] = (uint8_t)bytes;
    for (unsigned b = 0; b < bytes; b++)
        o[1 + b] = (uint8_t)(v >> (8 * b));
    return 1 + bytes;
}

/* DAP_Info (spec 2.3): capabilities SWD (bit0), JTAG (bit1), atomic
 * commands (bit4), Test Domain Timer (bit5). */
static size_t info(struct dap *d, uint8_t id, uint8_t *o)
{
    switch (id) {
    case 0x01: return info_string(o, vendor);
    case 0x02: return info_string(o, product);
    case 0x03: return info_string(o, d->serial);
    case 0x04: return info_string(o, protocol);
    case 0x09: return info_string(o, firmware);
    case 0xF0: return info_word(o, 0x01u | 0x02u | 0x10u | (d->timer_hz ? 0x20u : 0), 2);
    case 0xF1: return info_word(o, d->timer_hz, 4);
    case 0xFE: return info_word(o, d->count, 1);
    case 0xFF: return info_word(o, d->size, 2);
    default: o[0] = 0; return 1;
    }
}

static uint32_t get32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* DAP_SWJ_Pins: bit5 nTRST and bit7 nRESET drive the SoC's resets; the
 * answer is the pins as read back (spec 2.2). */
static uint8_t swj_pins(struct dap *d, uint8_t out, uint8_t select)
{
    if (select & 0x20u)
        d->ntrst = out & 0x20u;
    if (select & 0x80u)
        d->nreset = out & 0x80u;
    if (d->tap && (select & 0xA0u))
        pp_simjtag_reset(d->tap, !d->ntrst, !d->nreset);
    if (!d->ntrst)
        d->state = PP_TAP_RESET;
    return (uint8_t)((d->ntrst ? 0x20u : 0) | (d->nreset ? 0x80u : 0) | 0x08u | 0x02u);
}

/* On SWDIO/TMS: into the SW-DP in SWD mode, the TAP (TDI high) else. */
static void swj_sequence(struct dap *d, const uint8_t *p, unsigned bits)
{
    if (d->port == DAP_PORT_SWD) {
        swd_swj_sequence(d, p, bits);
        return;
    }
    for (unsigned i = 0; i < bits; i++)
        tap_cycle(d, (p[i / 8] >> (i % 8)) & 1u, true);
}

static size_t jtag_configure(struct dap *d, const uint8_t *p, size_t n, uint8_t *o)
{
    unsigned count = p[0];

    if (count == 0 || count > DAP_MAX_TAPS || n < 1 + count) {
        o[0] = 0xFF;
        return 1;
    }
    for (unsigned i = 0; i < count; i++)
        d->irlen[i] = p[1 + i];
    d->ntaps = count;
    o[0] = 0;
    return 1;
}

static size_t command(struct dap *d, const uint8_t *p, size_t n, uint8_t *o, size_t *used,
                      bool inner);

/* DAP_ExecuteCommands: n commands, each by its own length rules. */
static size_t execute(struct dap *d, const uint8_t *p, size_t n, uint8_t *o, size_t *used)
{
    unsigned count = n >= 2 ? p[1] : 0;
    size_t at = 2, len = 2;

    o[0] = ID_EXECUTE_COMMANDS;
    o[1] = (uint8_t)count;
    for (unsigned i = 0; i < count && at < n; i++) {
        size_t u = 0;

        len += command(d, p + at, n - at, o + len, &u, true);
        at += u ? u : n - at;
    }
    *used = at;
    return len;
}

/* Request bytes a fixed-length command needs, 0 for variable ones. */
static size_t fixed_len(uint8_t id)
{
    static const uint8_t len[0x17] = {
        [ID_INFO] = 2, [ID_HOST_STATUS] = 3, [ID_CONNECT] = 2, [ID_DISCONNECT] = 1,
        [ID_TRANSFER_CONFIGURE] = 6, [ID_WRITE_ABORT] = 6, [ID_DELAY] = 3,
        [ID_SWJ_PINS] = 7, [ID_SWJ_CLOCK] = 5, [ID_SWD_CONFIGURE] = 2, [ID_JTAG_IDCODE] = 2,
    };

    return id < sizeof(len) ? len[id] : 0;
}

static size_t invalid(struct dap *d, size_t n, uint8_t *o, size_t *used)
{
    d->n.invalid++;
    *used = n;
    o[0] = ID_INVALID;
    return 1;
}

/* A DAP_Transfer or DAP_TransferBlock while no port is connected: the
 * request is parsed and nothing done (spec 2.4). */
static size_t unconnected(const uint8_t *p, size_t n, uint8_t *o, size_t *used)
{
    *used = n;
    o[0] = p[0];
    o[1] = o[2] = 0;
    return p[0] == ID_TRANSFER ? 3 : 4;
}

/* DAP_Connect: SWD (1) or JTAG (2); the default port (0) is SWD when the
 * SoC's DP answers only SWD (its dp key), else JTAG. */
static uint8_t connect_port(const struct dap *d, uint8_t port)
{
    if (port == 0)
        return d->target && d->target->dp_kind == PP_DP_SWD ? DAP_PORT_SWD : DAP_PORT_JTAG;
    return port == DAP_PORT_SWD || port == DAP_PORT_JTAG ? port : 0;
}

static size_t run_fixed(struct dap *d, const uint8_t *p, uint8_t *o)
{
    uint32_t v;

    switch (p[0]) {
    case ID_INFO: return 1 + info(d, p[1], o + 1);
    case ID_HOST_STATUS: o[1] = p[1] > 1 ? 0xFF : 0; return 2;
    case ID_CONNECT:
        d->port = connect_port(d, p[1]);
        o[1] = d->port;
        return 2;
    case ID_SWD_CONFIGURE:
        d->turnaround = (p[1] & 3u) + 1u;
        d->data_phase = p[1] & 4u;
        o[1] = 0;
        return 2;
    case ID_DISCONNECT: d->port = 0; o[1] = 0; return 2;
    case ID_TRANSFER_CONFIGURE:
        d->idle = p[1];
        d->wait_retry = (uint16_t)(p[2] | p[3] << 8);
        d->match_retry = (uint16_t)(p[4] | p[5] << 8);
        o[1] = 0;
        return 2;
    case ID_WRITE_ABORT:
        o[1] = d->port ? 0 : 0xFF;
        if (d->port)
            tap_write_abort(d, p[1], get32(p + 2));
        return 2;
    case ID_DELAY: d->cmd_delay_ns += (uint64_t)(p[1] | p[2] << 8) * 1000u; o[1] = 0; return 2;
    case ID_SWJ_PINS: o[1] = swj_pins(d, p[1], p[2]); return 2;
    case ID_SWJ_CLOCK:
        v = get32(p + 1);
        if (v)
            d->clock_hz = v;
        o[1] = v ? 0 : 0xFF;
        return 2;
    case ID_JTAG_IDCODE:
        o[1] = d->port == 2 && tap_idcode(d, p[1], &v) ? 0 : 0xFF;
        for (unsigned b = 0; b < 4; b++)
            o[2 + b] = o[1] ? 0 : (uint8_t)(v >> (8 * b));
        return 6;
    default: return 0;
    }
}

static size_t command(struct dap *d, const uint8_t *p, size_t n, uint8_t *o, size_t *used,
                      bool inner)
{
    size_t fl = fixed_len(p[0]), len;

    d->n.commands++;
    o[0] = p[0];
    if (fl) {
        if (n < fl)
            return invalid(d, n, o, used);
        *used = fl;
        return run_fixed(d, p, o);
    }
    switch (p[0]) {
    case ID_TRANSFER:
    case ID_TRANSFER_BLOCK:
        if (!d->port)
            return unconnected(p, n, o, used);
        if (p[0] == ID_TRANSFER) {
            d->n.transfers++;
            len = tap_transfer(d, p + 1, n - 1, o + 1, used);
        } else {
            d->n.transfer_blocks++;
            len = tap_transfer_block(d, p + 1, n - 1, o + 1, used);
        }
        *used += 1;
        return 1 + len;
    case ID_SWJ_SEQUENCE: {
        unsigned bits = n >= 2 ? (p[1] ? p[1] : 256u) : 0;

        if (n < 2 + (bits + 7) / 8)
            return invalid(d, n, o, used);
        swj_sequence(d, p + 2, bits);
        *used = 2 + (bits + 7) / 8;
        o[1] = 0;
        return 2;
    }
    case ID_SWD_SEQUENCE:
        d->n.swd_sequences++;
        len = swd_sequence(d, p + 1, n - 1, o + 1, used);
        *used += 1;
        return 1 + len;
    case ID_JTAG_SEQUENCE:
        d->n.jtag_sequences++;
        len = tap_jtag_sequence(d, p + 1, n - 1, o + 1, used);
        *used += 1;
        return 1 + len;
    case ID_JTAG_CONFIGURE:
        if (n < 2)
            return invalid(d, n, o, used);
        *used = 2 + p[1];
        return 1 + jtag_configure(d, p + 1, n - 1, o + 1);
    case ID_EXECUTE_COMMANDS:
        if (!inner)
            return execute(d, p, n, o, used);
        return invalid(d, n, o, used);
    default:
        return invalid(d, n, o, used);
    }
}

static uint64_t next_uframe(const struct dap *d, uint64_t t)
{
    uint64_t rel = t - d->start_ns;

    return d->start_ns + (rel + UFRAME_NS - 1) / UFRAME_NS * UFRAME_NS;
}

/* Runs buf into r; in real time dates the reply from start. */
static void run_command(struct dap *d, struct dap_reply *r, const uint8_t *buf, size_t len,
                    uint64_t start)
{
    size_t used = 0;

    d->cmd_tck = 0;
    d->cmd_xfers = 0;
    d->cmd_delay_ns = 0;
    r->len = command(d, buf, len, r->data, &used, false);
    r->ready_ns = 0;
    if (d->realtime) {
        uint64_t cost = d->cmd_tck * 1000000000u / d->clock_hz + CMD_NS +
                        (uint64_t)d->cmd_xfers * XFER_NS + d->cmd_delay_ns;

        d->busy_until_ns = start + cost;
        d->n.model_ns += cost;
        r->ready_ns = next_uframe(d, d->busy_until_ns);
    }
    dap_log("cmd 0x%02X (%zu bytes) -> %zu bytes, %llu TCK", buf[0], len, r->len,
            (unsigned long long)d->cmd_tck);
}

void dap_run_pending(struct dap *d, struct dap_reply *r)
{
    uint64_t start = r->arrived_ns > d->busy_until_ns ? r->arrived_ns : d->busy_until_ns;

    if (dap_now_ns() < start) {
        dap_unlock();
        dap_sleep_until_ns(start);
        dap_lock();
    }
    r->pending = false;
    run_command(d, r, r->cmd, r->cmd_len, start);
}

/* One packet into the next reply buffer: run at once, or in real time
 * kept for dap_run_pending. */
static void run_packet(struct dap *d, const uint8_t *buf, size_t len, uint64_t arrived)
{
    struct dap_reply *r = &d->reply[(d->rhead + d->rlen) % DAP_MAX_COUNT];

    d->rlen++;
    if (!d->realtime) {
        r->pending = false;
        run_command(d, r, buf, len, 0);
        return;
    }
    memcpy(r->cmd, buf, len);
    r->cmd_len = len;
    r->arrived_ns = arrived;
    r->pending = true;
}

bool dap_packet_out(struct dap *d, const uint8_t *buf, size_t len)
{
    uint64_t arrived = d->realtime ? next_uframe(d, dap_now_ns()) : 0;

    if (!len || len > d->size)
        return true;                  /* a probe drops what it cannot parse */
    if (buf[0] == ID_TRANSFER_ABORT)
        return true;
    if (d->rlen + d->nheld >= d->count)
        return false;
    if (d->rlen + d->nheld == 0)
        d->n.round_trips++;
    if (d->rlen + d->nheld + 1 > d->n.max_in_flight)
        d->n.max_in_flight = d->rlen + d->nheld + 1;
    if (buf[0] == ID_QUEUE_COMMANDS) {
        memcpy(d->held[d->nheld], buf, len);
        d->held_len[d->nheld++] = len;
        d->n.queued++;
        return true;
    }
    for (size_t i = 0; i < d->nheld; i++) {
        d->held[i][0] = ID_EXECUTE_COMMANDS;
        run_packet(d, d->held[i], d->held_len[i], arrived);
    }
    d->nheld = 0;
    run_packet(d, buf, len, arrived);
    return true;
}

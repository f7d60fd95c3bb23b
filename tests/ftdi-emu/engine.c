/*
 * engine.c - the MPSSE command interpreter (spec/ftdi-mpsse-jtag.md 1).
 *
 * Streaming and resumable (1.3): a command's header is collected across
 * USB transfers, a byte shift runs one data byte at a time as bytes
 * arrive, and a command whose reply would overflow the TX FIFO waits until
 * the host reads (the back-pressure of 3.5).  Shift opcodes 0x00-0x7F are
 * decoded by their bit fields and never rejected (1.2); opcodes with bit 7
 * set that the chip does not know answer 0xFA and the opcode (1.10).
 *
 * Per clock (1.12): TMS/TDI presented, TDO sampled, rising edge: that is
 * pp_simjtag_cycle.  A -ve read sees the same bit (1.12).  The clocks of
 * one data byte (TMS steady) go to the TAP in one pp_simjtag_shift, which
 * in Shift-DR/IR moves the 8 bits through the chain at once: the model
 * runs in the host's thread, and a bit at a time it took most of the
 * host's CPU in a pipelined capture, which no real chip costs.  Each clock,
 * byte taken and byte made is also stamped on the real-time model's clock
 * (rt.c 3).
 */
#include <string.h>

#include "emu.h"
#include "sim/swdp.h"

#define OP_WNEG  0x01u
#define OP_BITS  0x02u
#define OP_RNEG  0x04u
#define OP_LSB   0x08u
#define OP_WTDI  0x10u
#define OP_RTDO  0x20u
#define OP_WTMS  0x40u

void engine_reset(struct emu_channel *c)
{
    c->cmd_len = 0;
    c->bytes_left = 0;
    c->value = 0;
    c->dir = 0;
    c->tms = c->tdi = false;
    c->loopback = false;
    c->div5 = true;                 /* H chips start at 12 MHz (spec 1.7) */
    c->adaptive = c->three_phase = false;
    c->divisor = 0;
    c->tck_period = rt_tck_ticks(c);
    if (c->tap && (c->trst || c->srst))
        pp_simjtag_reset(c->tap, false, false);
    c->trst = c->srst = false;
    c->swd_host = false;
}

/* Whether the JTAG signals reach the target: TCK (ADBUS0) an output and
 * the board's buffers enabled (board.c).  Said once in the log when not. */
static bool wired_through(const struct emu_channel *c)
{
    struct emu *e = emu_get();
    bool tck = c->dir & 0x01, on = emu_board_buffers_on(e->board, c->value, c->dir);

    if ((!tck || !on) && !e->unbuffered_logged) {
        e->unbuffered_logged = true;
        emu_log("ch%c clocks TCK that does not reach the target: %s (pins 0x%04X/0x%04X, "
                "board %s)", 'A' + c->index, tck ? "the board's JTAG buffers are disabled"
                : "TCK (ADBUS0) is an input", c->value, c->dir, e->board->name);
    }
    return tck && on;
}

/* The low byte as the pins are now: TDI and TMS move with the shifts. */
static uint16_t pins_now(const struct emu_channel *c)
{
    return (uint16_t)((c->value & ~0x000Au) | (unsigned)c->tdi << 1 | (unsigned)c->tms << 3);
}

/*
 * One SWCLK on a board with a strong SWDIO driver (emu.h, struct emu_swd):
 * who drives the line comes from the pins, as the board's buffers see
 * them, never from the protocol.  The line is the target's bit while it
 * drives, else DO's while the host drives, else the pull-up; with both
 * driving different levels the host's buffer wins (and reads back its own
 * bit), a fight counted and logged once.  DI reads the line, or the
 * pull-up while SWD_EN keeps SWDIO off the connector.
 */
static bool swd_clock(struct emu_channel *c)
{
    struct emu *e = emu_get();
    uint16_t v = pins_now(c);
    bool host = emu_board_swd_host_drives(e->board, v, c->dir);
    bool line = pp_simswd_cycle(c->tap, host, c->tdi);

    e->n.swdio_releases += c->swd_host && !host;
    c->swd_host = host;
    if (host && line != c->tdi) {
        if (!e->n.swdio_fights++)
            emu_log("ch%c SWDIO: host and target drive it at once (pins 0x%04X/0x%04X, "
                    "board %s)", 'A' + c->index, v, c->dir, e->board->name);
        return c->tdi;
    }
    return emu_board_swd_routed(e->board, v, c->dir) ? line : true;
}

/* k TCKs clocked: counted, and on the real-time model's clock (rt.c 1),
 * kept per channel, as this runs for every TCK. */
static void count_tck(struct emu_channel *c, unsigned k)
{
    struct emu_counters *n = &emu_get()->n;

    n->tck += k;
    c->engine_at += (uint64_t)k * c->tck_period;
    n->tck_ticks += (uint64_t)k * c->tck_period;
    n->last_tck_ticks = c->tck_period;
}

static bool clock_tdo(struct emu_channel *c, bool tms, bool tdi)
{
    bool tdo = true;                /* nothing wired: TDO pulled up */

    c->tms = tms;
    c->tdi = tdi;
    /* A TDI or TMS pin left an input floats high (the chip's pull-ups). */
    if (c->tap && wired_through(c))
        tdo = emu_get()->board->swd.wiring != EMU_SWD_PIN ? swd_clock(c)
              : pp_simjtag_cycle(c->tap, !(c->dir & 0x08) || tms, !(c->dir & 0x02) || tdi);
    count_tck(c, 1);
    return c->loopback ? tdi : tdo;
}

/* n clocks (at most 8) with TMS steady: TDI from bit i of tdi, TDO of
 * clock i into bit i of the result.  With the JTAG pins wired straight
 * through, TMS and TDI driven, the TAP takes them at once
 * (pp_simjtag_shift): the functional model then costs a byte, not 8 bits,
 * of the host's time, as the real chip costs none.  Every other wiring
 * goes clock by clock. */
static uint32_t clocks_tdo(struct emu_channel *c, uint32_t tdi, unsigned n)
{
    struct emu *e = emu_get();
    uint32_t tdo = 0;

    if (!c->tap || c->loopback || e->board->swd.wiring != EMU_SWD_PIN ||
        (c->dir & 0x0A) != 0x0A || !wired_through(c)) {
        for (unsigned i = 0; i < n; i++)
            tdo |= (uint32_t)clock_tdo(c, c->tms, (tdi >> i) & 1u) << i;
        return tdo;
    }
    tdo = pp_simjtag_shift(c->tap, c->tms, tdi, n);
    c->tdi = (tdi >> (n - 1u)) & 1u;
    count_tck(c, n);
    return tdo;
}

static size_t tx_room(const struct emu_channel *c)
{
    return c->dev->fifo - c->tx_len;
}

static void tx_push(struct emu_channel *c, uint8_t b)
{
    if (c->tx_head + c->tx_len >= sizeof(c->tx)) {
        memmove(c->tx, c->tx + c->tx_head, c->tx_len);
        memmove(c->tx_at, c->tx_at + c->tx_head, c->tx_len * sizeof(c->tx_at[0]));
        c->tx_head = 0;
    }
    rt_made(c, c->tx_head + c->tx_len);
    c->tx[c->tx_head + c->tx_len++] = b;
    c->tx_made++;
}

static uint8_t rx_pop(struct emu_channel *c)
{
    uint8_t b;

    rt_take(c, c->rx_head);
    b = c->rx[c->rx_head++];

    if (--c->rx_len == 0)
        c->rx_head = 0;
    return b;
}

/* Valid opcodes with bit 7 set on an H chip (spec 1.10). */
static bool known_high_opcode(const struct emu_channel *c, uint8_t op)
{
    if (op >= 0x80 && op <= 0x8F)
        return true;
    if ((op >= 0x94 && op <= 0x97) || op == 0x9C || op == 0x9D)
        return true;
    return op == 0x9E && c->dev->bcd == 0x0900;     /* FT232H only */
}

static bool is_bad(const struct emu_channel *c, uint8_t op)
{
    int reject = emu_get()->reject;

    return (op & 0x80) && (!known_high_opcode(c, op) || op == reject);
}

static size_t header_len(const struct emu_channel *c, uint8_t op)
{
    if (!(op & 0x80)) {
        if (op & OP_WTMS)
            return 3;
        if (op & OP_BITS)
            return (op & OP_WTDI) ? 3 : 2;
        return 3;
    }
    if (is_bad(c, op))
        return 1;
    switch (op) {
    case 0x80: case 0x82: case 0x86: case 0x8F: case 0x9C: case 0x9D: case 0x9E:
        return 3;
    case 0x8E:
        return 2;
    default:
        return 1;
    }
}

/* Reply bytes the command makes at once (byte shifts reply per byte). */
static size_t reply_len(const struct emu_channel *c, uint8_t op)
{
    if (!(op & 0x80))
        return ((op & OP_RTDO) && (op & (OP_WTMS | OP_BITS))) ? 1 : 0;
    if (is_bad(c, op))
        return 2;
    return (op == 0x81 || op == 0x83) ? 1 : 0;
}

static bool out_bit(uint8_t b, unsigned i, bool lsb)
{
    return lsb ? (b >> i) & 1 : (b >> (7 - i)) & 1;
}

/* Bits enter at the top and move down LSB first, at the bottom and move
 * up MSB first (spec 1.4). */
static uint8_t in_bit(uint8_t r, bool tdo, bool lsb)
{
    return lsb ? (uint8_t)((r >> 1) | (tdo << 7)) : (uint8_t)((r << 1) | tdo);
}

/* The pins that reach the target's resets, per the emulated board. */
static void apply_reset_pins(struct emu_channel *c)
{
    const struct emu_board *b = emu_get()->board;
    bool trst = emu_board_trst(b, c->value, c->dir);
    bool srst = emu_board_srst(b, c->value, c->dir);

    if (!c->tap || (trst == c->trst && srst == c->srst))
        return;
    emu_log("ch%c nTRST %s nSRST %s", 'A' + c->index, trst ? "low" : "high",
            srst ? "low" : "high");
    emu_get()->trst_asserts += trst && !c->trst;
    emu_get()->srst_asserts += srst && !c->srst;
    pp_simjtag_reset(c->tap, trst, srst);
    c->trst = trst;
    c->srst = srst;
}

static void set_low(struct emu_channel *c, uint8_t v, uint8_t d)
{
    /* On a board with DO tied to SWDIO, DO an input is the host letting go. */
    uint8_t outs = emu_get()->board->swd.wiring == EMU_SWD_TIED ? 0x09 : 0x0B;

    c->value = (uint16_t)((c->value & 0xFF00) | v);
    c->dir = (uint16_t)((c->dir & 0xFF00) | d);
    c->tdi = (v >> 1) & 1;
    c->tms = (v >> 3) & 1;
    if ((v & 1) || (d & outs) != outs)
        emu_log("ch%c low byte 0x%02X/0x%02X: TCK/TDI/TMS not outputs with TCK low", 'A' +
                c->index, v, d);
    apply_reset_pins(c);
}

static void set_high(struct emu_channel *c, uint8_t v, uint8_t d)
{
    c->value = (uint16_t)((c->value & 0x00FF) | v << 8);
    c->dir = (uint16_t)((c->dir & 0x00FF) | d << 8);
    apply_reset_pins(c);
}

/* Pins as read back: outputs as driven, inputs pulled up except TDO. */
static uint8_t read_low(const struct emu_channel *c)
{
    uint8_t v = (uint8_t)((c->value & c->dir) | (~c->dir & 0xFF));

    if (!(c->dir & 0x04) && c->tap && emu_get()->board->swd.wiring == EMU_SWD_PIN &&
        emu_board_buffers_on(emu_get()->board, c->value, c->dir) && !pp_simjtag_tdo(c->tap))
        v &= (uint8_t)~0x04;
    return v;
}

static void clocks(struct emu_channel *c, uint64_t n)
{
    for (uint64_t i = 0; i < n; i++)
        clock_tdo(c, c->tms, c->tdi);
}

/* n bits of a data shift (TMS steady): TDI from b in the command's bit
 * order (or held, when it writes none), the TDO bits in that order. */
static uint8_t shift_bits(struct emu_channel *c, uint8_t op, uint8_t b, unsigned n)
{
    bool lsb = op & OP_LSB;
    uint32_t tdi = 0, tdo;
    uint8_t r = 0;

    for (unsigned i = 0; i < n; i++)
        tdi |= (uint32_t)((op & OP_WTDI) ? out_bit(b, i, lsb) : c->tdi) << i;
    tdo = clocks_tdo(c, tdi, n);
    for (unsigned i = 0; i < n; i++)
        r = in_bit(r, (tdo >> i) & 1u, lsb);
    return r;
}

static void exec_tms(struct emu_channel *c, uint8_t op, uint8_t len, uint8_t b)
{
    unsigned n = len + 1u;
    bool tdi = (b >> 7) & 1;
    uint8_t r = 0;

    if (n > 7)
        emu_log("TMS command 0x%02X with %u bits (more than 7)", op, n);
    if (!(op & OP_LSB))
        emu_log("MSB-first TMS command 0x%02X", op);
    for (unsigned i = 0; i < n && i < 8; i++)
        r = in_bit(r, clock_tdo(c, (b >> i) & 1, tdi), true);
    if (op & OP_RTDO)
        tx_push(c, r);
}

static void exec_bits(struct emu_channel *c, uint8_t op, uint8_t len, uint8_t b)
{
    unsigned n = (len & 7u) + 1u;
    uint8_t r;

    if (!(op & (OP_WTDI | OP_RTDO)))
        emu_log("bit command 0x%02X neither writes nor reads: clocks only", op);
    r = shift_bits(c, op, b, n);
    if (op & OP_RTDO)
        tx_push(c, r);
}

/* One data byte of a byte shift; false when it must wait for a data byte
 * or for room in the TX FIFO. */
static bool byte_step(struct emu_channel *c)
{
    uint8_t op = c->cmd[0], b = 0, r;

    if ((op & OP_WTDI) && !c->rx_len)
        return false;
    if ((op & OP_RTDO) && !tx_room(c)) {
        c->tx_stalled = true;
        return false;
    }
    if (op & OP_WTDI)
        b = rx_pop(c);
    r = shift_bits(c, op, b, 8);
    if (op & OP_RTDO)
        tx_push(c, r);
    c->bytes_left--;
    return true;
}

static void exec_shift(struct emu_channel *c)
{
    uint8_t op = c->cmd[0];

    if (op & OP_WTMS)
        exec_tms(c, op, c->cmd[1], c->cmd[2]);
    else if (op & OP_BITS)
        exec_bits(c, op, c->cmd[1], (op & OP_WTDI) ? c->cmd[2] : 0);
    else {
        if (!(op & (OP_WTDI | OP_RTDO)))
            emu_log("byte command 0x%02X neither writes nor reads: clocks only", op);
        c->bytes_left = (uint32_t)(c->cmd[1] | c->cmd[2] << 8) + 1u;
    }
}

static void exec_high(struct emu_channel *c)
{
    struct emu *e = emu_get();
    uint8_t op = c->cmd[0];
    uint16_t arg = (uint16_t)(c->cmd[1] | c->cmd[2] << 8);

    if (is_bad(c, op)) {
        emu_log("bad command 0x%02X", op);
        e->n.bad_commands++;
        tx_push(c, 0xFA);
        tx_push(c, op);
        return;
    }
    switch (op) {
    case 0x80: set_low(c, c->cmd[1], c->cmd[2]); break;
    case 0x81: tx_push(c, read_low(c)); break;
    case 0x82: set_high(c, c->cmd[1], c->cmd[2]); break;
    case 0x83: tx_push(c, (uint8_t)(((c->value & c->dir) | (uint16_t)~c->dir) >> 8)); break;
    case 0x84: c->loopback = true; break;
    case 0x85: c->loopback = false; break;
    case 0x86: c->divisor = arg; e->last_divisor = arg; break;
    case 0x87:
        rt_send_immediate(c);
        e->n.send_immediate++;
        break;
    case 0x8A: c->div5 = false; break;
    case 0x8B: c->div5 = true; break;
    case 0x8C: c->three_phase = true; break;
    case 0x8D: c->three_phase = false; break;
    case 0x8E: clocks(c, c->cmd[1] + 1u); break;
    case 0x8F: case 0x9C: case 0x9D: clocks(c, ((uint64_t)arg + 1u) * 8u); break;
    case 0x96: c->adaptive = true; emu_log("adaptive clocking on (no RTCK modelled)"); break;
    case 0x97: c->adaptive = false; break;
    default:
        emu_log("command 0x%02X accepted, not modelled", op);
        break;
    }
    c->tck_period = rt_tck_ticks(c);   /* 0x86, 0x8A-0x8D may have changed it */
}

void engine_run(struct emu_channel *c)
{
    for (;;) {
        uint8_t op;

        if (c->bitmode != 0x02)
            return;
        if (c->bytes_left) {
            if (!byte_step(c))
                return;
            continue;
        }
        if (!c->cmd_len && !c->rx_len)
            return;
        op = c->cmd_len ? c->cmd[0] : c->rx[c->rx_head];
        while (c->cmd_len < header_len(c, op) && c->rx_len)
            c->cmd[c->cmd_len++] = rx_pop(c);
        if (c->cmd_len < header_len(c, op))
            return;
        if (tx_room(c) < reply_len(c, op)) {
            c->tx_stalled = true;
            return;
        }
        c->cmd_len = 0;
        emu_get()->n.commands++;
        if (op & 0x80)
            exec_high(c);
        else
            exec_shift(c);
    }
}

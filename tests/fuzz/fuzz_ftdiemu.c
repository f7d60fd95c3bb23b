/*
 * Fuzz target for a test tool, not the product: the FTDI emulator's MPSSE
 * interpreter (tests/ftdi-emu/
 * engine.c, spec/ftdi-mpsse-jtag.md 1) with the chip's FIFOs and bulk-IN
 * packets around it (chip.c, spec 2.6 and 3.5), channel A of an emulated
 * chip in MPSSE mode wired to the simulated TAP of
 * targets/rpi3-a53.target.
 *
 * Input: byte 0 steers the run, the rest is the host's write stream.
 *   bits 0-1  the chip: FT2232H, FT4232H, FT232H (FIFOs of 4096, 2048 and
 *             1024 bytes; 0x9E only on the FT232H), or an FT2232H with
 *             nothing wired to its pins (TDO pulled up): a TCK then costs
 *             next to nothing, so the fuzzer can afford the long clock
 *             and shift commands that the TAP makes slow
 *   bits 2-7  k: the host writes chunks of 1..8k bytes (lengths from a
 *             small PRNG seeded by byte 0), 0 = all in one write
 * After each chunk the host reads one 4096-byte IN transfer, as libftdi
 * does; when the chip takes only part of a write (its FIFOs are full) the
 * host reads everything before writing the rest.  The latency timer is
 * taken as expired at every read, so runs do not depend on the clock.
 * Once TCK_BUDGET clocks have run, the rest of the stream is dropped
 * (the SoC model costs about a microsecond a clock).
 *
 * Checked beyond memory safety: the FIFOs never exceed the chip's size,
 * every reply byte made is either still queued or was sent, every IN
 * packet starts with the two modem-status bytes, and a chip whose TX
 * FIFO was emptied always takes more of the host's bytes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "../ftdi-emu/emu.h"

#define USB_READ      4096u       /* libftdi's read chunk */
#define MAX_READS     64u         /* transfers one full drain may take */
#define TCK_BUDGET    (1u << 18)

static const char *const chips[4] = { "2232h", "4232h", "232h", "2232h" };

static uint32_t next_rand(uint32_t *x)
{
    *x ^= *x << 13;
    *x ^= *x >> 17;
    *x ^= *x << 5;
    return *x;
}

static void check(const struct emu_channel *c)
{
    if (c->rx_len > c->dev->fifo || c->tx_len > c->dev->fifo ||
        c->rx_head + c->rx_len > sizeof(c->rx) || c->tx_head + c->tx_len > sizeof(c->tx) ||
        c->cmd_len > sizeof(c->cmd) || c->tx_made - c->tx_sent != c->tx_len)
        abort();
}

/* One IN transfer; returns the payload bytes it carried. */
static size_t read_once(struct emu_channel *c)
{
    static unsigned char buf[USB_READ];
    size_t filled = 0, payload = 0;

    c->latency_start_ms = 0;        /* the timer has fired */
    (void)chip_in(c, buf, sizeof(buf), &filled);
    if (filled > sizeof(buf))
        abort();
    for (size_t p = 0; p < filled; p += EMU_PACKET) {
        if (filled - p < 2 || buf[p] != 0x32 || buf[p + 1] != 0x60)
            abort();
        payload += (filled - p < EMU_PACKET ? filled - p : EMU_PACKET) - 2;
    }
    check(c);
    return payload;
}

/* Reads until the chip has nothing more to send. */
static void drain(struct emu_channel *c)
{
    for (unsigned i = 0; i < MAX_READS && (c->tx_len || c->term_pending); i++)
        (void)read_once(c);
}

static void write_all(struct emu_channel *c, const uint8_t *p, size_t n)
{
    while (n > 0) {
        size_t taken = chip_out(c, p, n);

        check(c);
        if (taken > n)
            abort();
        if (taken == 0 && c->tx_len == 0)
            abort();                /* stalled with nothing to send */
        p += taken;
        n -= taken;
        if (n)
            drain(c);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    /* The emulator reads its configuration from the environment. */
    setenv("PMUPROBE_EMU_TARGET", "rpi3-a53", 1);
    setenv("PMUPROBE_EMU_CHIP", chips[data[0] & 3], 1);
    setenv("PMUPROBE_EMU_ADAPTER", "minimodule", 1);
    setenv("PMUPROBE_EMU_COUNT", "1", 1);
    unsetenv("PMUPROBE_EMU_FAULT");
    unsetenv("PMUPROBE_EMU_SIM_FAULTS");
    unsetenv("PMUPROBE_EMU_LOG");
    unsetenv("PMUPROBE_EMU_STATS");
    emu_restart();

    struct emu *e = emu_get();
    struct emu_device *d = &e->dev[0];
    struct emu_channel *c = &d->ch[0];
    if (!d->jtag) {
        fprintf(stderr, "fuzz_ftdiemu: the emulator has no simulated SoC\n");
        abort();
    }
    /* SET_BITMODE: mask 0x0B (TCK, TDI, TMS out), mode 0x02 MPSSE (spec 3.3). */
    if (chip_control(d, 0x40, 0x0B, 0x020B, 1, NULL, 0) != 0)
        abort();
    if ((data[0] & 3) == 3)
        c->tap = NULL;

    unsigned k = data[0] >> 2;
    uint32_t x = 0x9e3779b9u ^ data[0];
    const uint8_t *in = data + 1;
    size_t left = size - 1;

    while (left > 0 && e->n.tck < TCK_BUDGET) {
        size_t len = k ? 1 + next_rand(&x) % (8u * k) : left;

        if (len > left)
            len = left;
        write_all(c, in, len);
        (void)read_once(c);
        in += len;
        left -= len;
    }
    drain(c);
    emu_restart();
    return 0;
}

/*
 * rt.c - the emulator's real-time model (PMUPROBE_EMU_REALTIME=1): when a
 * byte the host sends reaches the MPSSE, when the MPSSE has clocked each
 * reply byte, and when a reply can be back on the host.  The functional
 * model (chip.c, engine.c) still runs as soon as bytes arrive; this file
 * stamps every byte with its time on the model's clock, and chip.c and
 * usb.c do not let a transfer complete before its stamps have passed on
 * the real (monotonic) clock.  So the emulator may be slower than the
 * modelled chip (a loaded machine) but never faster: a rate measured over
 * it never exceeds the TCK bound.
 *
 * Time unit: one tick of 60 MHz, the FT2232H's master clock, so that every
 * TCK period and the 125 us microframe (7500 ticks) are whole numbers.
 *
 * The model, and where each part comes from:
 *
 * 1. TCK.  TCK = 60 MHz / ((1 + div) * 2) with divide-by-5 off (0x8A),
 *    12 MHz / ((1 + div) * 2) with it on (0x8B, the H chips' reset state),
 *    div from 0x86 (AN_108 via spec/ftdi-mpsse-jtag.md 1.7): a period of
 *    (1 + div) * 2 ticks, times 5 with divide-by-5.  3-phase clocking
 *    (0x8C) makes a bit 1.5 periods (spec 1.7): (1 + div) * 3 ticks.
 *    Every clock the engine makes costs one period: each bit of a data or
 *    TMS shift (0x00-0x7F), each clock of 0x8E (n + 1) and 0x8F/0x9C/0x9D
 *    ((n + 1) * 8; the wait-on-GPIOL1 variants are taken as never
 *    stopping early).  Assumed: a command has no fixed overhead and
 *    commands that make no clock (0x80-0x87, 0x8A-0x8D ...) take no time.
 *    Neither AN_108 nor the datasheet gives a per-command time (spec 4.7
 *    calls it "the big unknown"), and zero keeps the model a lower bound
 *    on the real chip's time, which is what a bound on rates needs.
 *
 * 2. OUT (host -> chip).  High-speed bulk endpoints carry packets of 512
 *    bytes (wMaxPacketSize, USB 2.0 5.8.3); a transfer is cut into 512-byte
 *    packets from its start.  USB 2.0 5.8.4 (Table 5-10) allows at most 13
 *    bulk transactions of 512 bytes in a 125 us microframe, for the whole
 *    bus.  The model gives each direction EMU_UFRAME_PKTS = 6 of them (6 +
 *    6 <= 13 even when IN and OUT stream at once): 24.6 MB/s each way,
 *    below the FT2232H datasheet's best transfer rate (40 Mbyte/s, in
 *    synchronous FIFO mode) and the 35-45 MB/s seen on HS bulk (spec 4.7).
 *    A packet goes in the microframe in which the host submitted it (or a
 *    later one when that one is full) and reaches the chip at the end of
 *    that microframe: the chip takes a packet only once it has all of it
 *    (its CRC comes last).  The chip's RX FIFO (4 KiB on the 2232H, 2 KiB
 *    on the 4232H, 1 KiB on the 232H, spec 2.6) takes a packet only when
 *    it has room for all of it: a packet whose bytes would not fit waits
 *    until the engine has taken enough bytes out (the chip NAKs it, the
 *    host retries in a later microframe).  The OUT transfer completes when
 *    its last packet has reached the chip.  Transfers to the endpoint go
 *    in the order they were submitted (a bulk pipe is a stream: USB 2.0
 *    5.3.2.1): a later one waits while an earlier one waits for room.
 *
 * 3. The engine.  It starts a byte no earlier than the byte arrived and no
 *    earlier than it finished the previous one, then spends the clocks the
 *    command makes.  A reply byte exists once its last bit is clocked.  An
 *    engine that stopped because the TX FIFO (same sizes) was full goes on
 *    when an IN packet has made room.
 *
 * 4. IN (chip -> host).  Packets of at most 512 bytes, the first 2 of them
 *    modem status, so at most 510 reply bytes (spec 3.5).  The chip sends
 *    a packet when a full one is ready, when an 0x87 (Send Immediate,
 *    spec 1.8) executed after the bytes were made, or when the latency
 *    timer (1-255 ms, default 16, from the last packet sent) expires, then
 *    with whatever is there, status only when nothing.  Bytes sent in a
 *    microframe are the ones clocked by its end, and the transfer that
 *    receives them completes at that boundary: no IN transfer completes
 *    before the first microframe boundary after its data existed, nor
 *    before the first boundary after it was submitted (the host controller
 *    reports completions at microframe granularity).  At most 6 IN packets
 *    a microframe, as for OUT.  While a transfer is pending the host
 *    controller fetches packets on its own (EHCI 1.0 4.8, 4.10: it walks
 *    the asynchronous schedule without the CPU), so the packets go at the
 *    boundaries where they became due, however late the program looks
 *    (chip.c, chip_in_at): the program's own delay only counts where no
 *    transfer was pending.  A status-only packet (the latency timer)
 *    ends a transfer, and the next one starts when the program submits it.
 *
 * Where the time goes besides TCK (PMUPROBE_EMU_STATS, real time only):
 * idle_out_ns, the engine idle because its next command byte had not
 * arrived, of which idle_host_ns before the host had submitted it (the
 * rest: packets on their way); stall_tx_ns, the engine stopped on a full
 * TX FIFO until a packet made room; in_wait_ns, summed over IN packets,
 * from their last byte clocked to the packet sent; in_full, in_flush,
 * in_timer, the packets sent full, for an 0x87, for the latency timer (or
 * a short tail); max_pending_out, max_pending_in, the most async transfers
 * submitted at once.  TCK time + idle_out + stall_tx is the model's time.
 *
 * Not modelled: control transfers (vendor requests) take no bus time; the
 * host's own latencies (kernel, libusb, scheduling) are whatever the real
 * machine adds.
 *
 * The counters (setup.c) add, in real time or not: tck_ns, the time spent
 * clocking TCK; tck_hz, the frequency of the last TCK clocked (0: none);
 * model_ns, the modelled time from the first bulk transfer submitted to
 * the last one completed; wall_ns, the real time over the same span (at
 * least model_ns in real time); packets_out, packets_in, uframes_out,
 * uframes_in (real time only: with it off the functional model moves bytes
 * without packets).
 */
#include <time.h>

#include "emu.h"

uint64_t emu_now_tick(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * EMU_TICK_HZ + (uint64_t)ts.tv_nsec * 3u / 50u;
}

void emu_sleep_until_tick(uint64_t tick)
{
    uint64_t ns = tick / 3u * 50u + (tick % 3u * 50u + 2u) / 3u;  /* rounded up */
    struct timespec ts = { (time_t)(ns / 1000000000u), (long)(ns % 1000000000u) };

    while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) != 0)
        ;                              /* EINTR: a signal; sleep on */
}

uint64_t rt_tck_ticks(const struct emu_channel *c)
{
    return (1u + (uint64_t)c->divisor) * (c->three_phase ? 3u : 2u) * (c->div5 ? 5u : 1u);
}

uint64_t rt_tck_hz(const struct emu_channel *c)
{
    return EMU_TICK_HZ / ((1u + (uint64_t)c->divisor) * 2u * (c->div5 ? 5u : 1u));
}

static uint64_t max64(uint64_t a, uint64_t b)
{
    return a > b ? a : b;
}

/* Marks beyond EMU_MAX_FLUSHES merge into the newest: its bytes then wait
 * for the later 0x87, never the reverse. */
void rt_send_immediate(struct emu_channel *c)
{
    struct emu_flush f = { c->tx_made, c->engine_at };

    if (c->nflush == EMU_MAX_FLUSHES)
        c->flush[c->nflush - 1] = f;
    else
        c->flush[c->nflush++] = f;
}

void rt_purge_rx(struct emu_channel *c)
{
    uint64_t now = emu_now_tick();

    while (c->taken_total < c->rx_total)
        c->taken_at[c->taken_total++ % EMU_MAX_FIFO] = now;
}

void rt_purge_tx(struct emu_channel *c)
{
    c->nflush = 0;
    c->tx_stalled = false;
}

uint64_t rt_out_packet(struct emu_channel *c, size_t len, uint64_t since)
{
    struct emu *e = emu_get();
    uint64_t end = c->rx_total + len, t = since, m;

    /* Room for all of it: the byte fifo places before its end was taken
     * (chip_out checked that the functional model had taken it). */
    if (end > c->dev->fifo)
        t = max64(t, c->taken_at[(end - c->dev->fifo - 1u) % EMU_MAX_FIFO]);
    m = max64(t / EMU_UFRAME, c->out_uframe);
    if (m == c->out_uframe && c->out_packets >= EMU_UFRAME_PKTS)
        m++;
    if (m != c->out_uframe) {
        c->out_uframe = m;
        c->out_packets = 0;
        e->n.uframes_out++;
    }
    c->out_packets++;
    e->n.packets_out++;
    return (m + 1u) * EMU_UFRAME;
}

uint64_t rt_horizon(uint64_t now)
{
    return now - now % EMU_UFRAME;
}

size_t rt_ready(const struct emu_channel *c, uint64_t h, size_t max)
{
    size_t n = 0;

    if (h == UINT64_MAX)            /* not in real time: all made is ready */
        return c->tx_len < max ? c->tx_len : max;
    while (n < c->tx_len && n < max && c->tx_at[c->tx_head + n] <= h)
        n++;
    return n;
}

bool rt_flush_due(const struct emu_channel *c, uint64_t h)
{
    for (size_t i = 0; i < c->nflush; i++)
        if (c->flush[i].upto > c->tx_sent)
            return c->flush[i].at <= h;
    return false;
}

bool rt_flush_served(struct emu_channel *c, uint64_t h)
{
    size_t k = 0;
    bool exact = false;

    while (k < c->nflush && c->flush[k].upto <= c->tx_sent) {
        exact = c->flush[k].upto == c->tx_sent;
        k++;
    }
    for (size_t i = k; i < c->nflush; i++)
        c->flush[i - k] = c->flush[i];
    c->nflush -= k;
    return exact && !rt_flush_due(c, h);
}

bool rt_in_packet(struct emu_channel *c, uint64_t h, bool take)
{
    struct emu *e = emu_get();
    uint64_t m = h / EMU_UFRAME;
    bool fresh = m != c->in_uframe;

    if (!fresh && c->in_packets >= EMU_UFRAME_PKTS)
        return false;
    if (!take)
        return true;
    if (fresh) {
        c->in_uframe = m;
        c->in_packets = 0;
        e->n.uframes_in++;
    }
    c->in_packets++;
    e->n.packets_in++;
    return true;
}

void rt_mark(uint64_t since, uint64_t done)
{
    struct emu_counters *n = &emu_get()->n;

    if (!n->model_start || since < n->model_start)
        n->model_start = since;
    n->model_end = max64(n->model_end, done);
    n->wall_end = emu_now_tick();
}

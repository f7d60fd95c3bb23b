/*
 * swd.c - the probe's SWD engine: what CMSIS-DAP firmware does with
 * SWCLK/SWDIO for DAP_SWJ_Sequence, DAP_SWD_Sequence and, in SWD mode,
 * each DAP_Transfer wire packet (spec/cmsis-dap-swd.md 2.2, 2.4, 4.1-4.3),
 * clocked into the simulated SoC's SW-DP (sim/swdp.h) one SWCLK at a time.
 * The posting, RDBUFF collection and WAIT retries around the packets are
 * tap.c's, shared with JTAG mode.
 */
#include "emu.h"
#include "sim/swdp.h"

/* One SWCLK; SWDIO driven to bit when drive, else released.  Returns the
 * line as sampled (1 when nothing drives it: the pull-up, swd 4.2). */
bool swd_cycle(struct dap *d, bool drive, bool bit)
{
    d->n.tck++;
    d->cmd_tck++;
    if (!d->tap)
        return drive ? bit : true;
    return pp_simswd_cycle(d->tap, drive, bit);
}

/* n bits of bits, LSB first; past bit 63 the line stays low (the idle
 * cycles after a packet can number up to 255: DAP_TransferConfigure). */
static void swd_out(struct dap *d, uint64_t bits, unsigned n)
{
    for (unsigned i = 0; i < n; i++)
        swd_cycle(d, true, i < 64 && ((bits >> i) & 1u));
}

static uint64_t swd_in(struct dap *d, unsigned n)
{
    uint64_t v = 0;

    for (unsigned i = 0; i < n; i++)
        v |= (uint64_t)swd_cycle(d, false, false) << i;
    return v;
}

static unsigned parity32(uint32_t v)
{
    v ^= v >> 16;
    v ^= v >> 8;
    v ^= v >> 4;
    v ^= v >> 2;
    v ^= v >> 1;
    return v & 1u;
}

void swd_swj_sequence(struct dap *d, const uint8_t *p, unsigned bits)
{
    for (unsigned i = 0; i < bits; i++)
        swd_cycle(d, true, (p[i / 8] >> (i % 8)) & 1u);
    d->state = PP_TAP_UNKNOWN;        /* TMS moved behind the JTAG engine's back */
}

/*
 * One packet (swd 4.2): request (Start, APnDP, RnW, A[3:2], parity,
 * Stop, Park), turnaround, ACK; then for OK the 33-bit data phase (a read
 * with turnaround after it, a write with turnaround before it), idle
 * cycles with SWDIO low.  WAIT and FAULT end after the turnaround, or
 * clock a dummy data phase when DAP_SWD_Configure asked for it; anything
 * else is a protocol error after which the probe backs off turnaround +
 * 33 clocks (spec 4.2 "no response").  Returns the DAP response bits:
 * the ACK, | 0x08 on a read-data parity error.
 */
uint8_t swd_packet(struct dap *d, uint8_t req, uint32_t wdata, uint32_t *rdata)
{
    unsigned f = req & 0x0Fu, par = parity32(f);
    bool rnw = req & 0x02u;
    uint8_t ack;

    swd_out(d, 1u | f << 1 | par << 5 | 0u << 6 | 1u << 7, 8);
    swd_in(d, d->turnaround);
    ack = (uint8_t)swd_in(d, 3);
    if (ack == DAP_ACK_OK && rnw) {
        uint64_t v = swd_in(d, 33);

        swd_in(d, d->turnaround);
        *rdata = (uint32_t)v;
        if (((v >> 32) & 1u) != parity32((uint32_t)v))
            ack |= DAP_RESP_PARITY;
    } else if (ack == DAP_ACK_OK) {
        swd_in(d, d->turnaround);
        swd_out(d, wdata | (uint64_t)parity32(wdata) << 32, 33);
    } else if (ack == DAP_ACK_WAIT || ack == DAP_ACK_FAULT) {
        if (d->data_phase && rnw)
            swd_in(d, 33);
        swd_in(d, d->turnaround);
        if (d->data_phase && !rnw)
            swd_out(d, 0, 33);
        return ack;
    } else {
        swd_in(d, d->turnaround + 33u);
        return ack;
    }
    swd_out(d, 0, d->idle);
    return ack;
}

/* DAP_SWD_Sequence body (spec 2.2, 0x1D): info bits5:0 cycles (0 = 64),
 * bit7 input; output sequences carry their SWDIO bits. */
size_t swd_sequence(struct dap *d, const uint8_t *p, size_t n, uint8_t *out, size_t *used)
{
    unsigned nseq = n ? p[0] : 0;
    size_t at = 1, o = 1;

    out[0] = 0;
    for (unsigned s = 0; s < nseq && at < n; s++) {
        uint8_t info = p[at++];
        unsigned bits = info & 0x3Fu ? info & 0x3Fu : 64u, nbytes = (bits + 7) / 8;

        if (info & 0x80u) {
            uint64_t v = swd_in(d, bits);

            for (unsigned b = 0; b < nbytes && o < d->size; b++)
                out[o++] = (uint8_t)(v >> (8 * b));
            continue;
        }
        if (at + nbytes > n) {
            out[0] = 0xFF;
            break;
        }
        for (unsigned i = 0; i < bits; i++)
            swd_cycle(d, true, (p[at + i / 8] >> (i % 8)) & 1u);
        at += nbytes;
    }
    *used = at;
    return o;
}

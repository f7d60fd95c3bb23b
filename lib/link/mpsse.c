/*
 * mpsse.c - the link queue as MPSSE command bytes and a read-back plan.
 * Facts: spec/ftdi-mpsse-jtag.md 1.2-1.11 (opcodes, lengths, where read
 * bits land) and 4.3 (the per-scan template this encoding produces).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "link/mpsse.h"
#include "pmuprobe.h"

#define MIN_OUT 64u
#define MIN_IN  8u

void pp_mpsse_init(struct pp_mpsse *m, size_t max_in, size_t max_out)
{
    memset(m, 0, sizeof(*m));
    m->max_in = max_in < MIN_IN ? MIN_IN : max_in;
    m->max_out = max_out < MIN_OUT ? MIN_OUT : max_out;
    m->first_in = m->max_in;
    m->tdi_level = -1;
    m->tms_level = -1;
    m->tms_rd = SIZE_MAX;
}

void pp_mpsse_set_first_in(struct pp_mpsse *m, size_t n)
{
    m->first_in = n < MIN_IN ? MIN_IN : n > m->max_in ? m->max_in : n;
}

void pp_mpsse_free(struct pp_mpsse *m)
{
    free(m->out);
    free(m->rd);
    free(m->ck);
    memset(m, 0, sizeof(*m));
}

void pp_mpsse_clear(struct pp_mpsse *m)
{
    m->nout = m->nrd = m->nck = m->nin = 0;
    m->nrd_placed = 0;
    m->ck_out = m->ck_in = 0;
    m->tck = 0;
    m->err = PP_OK;
    m->tms_open = false;
    m->tms_rd = SIZE_MAX;
}

void pp_mpsse_forget_pins(struct pp_mpsse *m)
{
    m->tdi_level = -1;
    m->tms_level = -1;
}

/* Grows *buf to hold need elements of size sz; false (and m->err) on
 * out-of-memory. */
static bool reserve(struct pp_mpsse *m, void **buf, size_t *cap, size_t need, size_t sz)
{
    size_t ncap;
    void *p;

    if (need <= *cap)
        return true;
    ncap = *cap ? *cap : 256;
    while (ncap < need)
        ncap *= 2;
    p = realloc(*buf, ncap * sz);
    if (!p) {
        m->err = PP_E_NOMEM;
        return false;
    }
    *buf = p;
    *cap = ncap;
    return true;
}

static bool put(struct pp_mpsse *m, const uint8_t *b, size_t n)
{
    if (!reserve(m, (void **)&m->out, &m->outcap, m->nout + n, 1))
        return false;
    memcpy(m->out + m->nout, b, n);
    m->nout += n;
    return true;
}

static bool put_read(struct pp_mpsse *m, uint8_t *dst, uint32_t dst_bit, uint32_t nbits,
                     uint8_t shift, size_t nbytes)
{
    if (!reserve(m, (void **)&m->rd, &m->rdcap, m->nrd + 1, sizeof(*m->rd)))
        return false;
    m->rd[m->nrd++] = (struct pp_mpsse_read){
        .dst = dst, .dst_bit = dst_bit, .nbits = nbits, .in_pos = (uint32_t)m->nin,
        .shift = shift,
    };
    m->nin += nbytes;
    return true;
}

/* Ends the open chunk.  0x87 only when a reply is expected: without it the
 * chip holds a short reply until the latency timer fires (spec 1.8). */
static bool close_chunk(struct pp_mpsse *m)
{
    static const uint8_t send_imm = PP_MPSSE_SEND_IMM;

    m->tms_open = false;
    if (m->nout == m->ck_out)
        return true;
    if (m->nin > m->ck_in && !put(m, &send_imm, 1))
        return false;
    if (!reserve(m, (void **)&m->ck, &m->ckcap, m->nck + 1, sizeof(*m->ck)))
        return false;
    m->ck[m->nck++] = (struct pp_mpsse_chunk){
        .out_start = m->ck_out, .out_end = m->nout, .in_start = m->ck_in, .in_end = m->nin,
    };
    m->ck_out = m->nout;
    m->ck_in = m->nin;
    return true;
}

static size_t chunk_out_room(const struct pp_mpsse *m)
{
    size_t used = m->nout - m->ck_out + 1;      /* + the closing 0x87 */

    return used >= m->max_out ? 0 : m->max_out - used;
}

static size_t chunk_in_room(const struct pp_mpsse *m)
{
    size_t used = m->nin - m->ck_in, max = m->nck ? m->max_in : m->first_in;

    return used >= max ? 0 : max - used;
}

/* Makes room in the open chunk for a command of nout bytes and nin reply
 * bytes, closing the chunk first when it would overflow. */
static bool begin_cmd(struct pp_mpsse *m, size_t nout, size_t nin)
{
    m->tms_open = false;
    if (nout <= chunk_out_room(m) && nin <= chunk_in_room(m))
        return true;
    return close_chunk(m);
}

static int bit_at(const uint8_t *buf, size_t i)
{
    return buf ? (buf[i / 8] >> (i % 8)) & 1 : 0;
}

/* 8 bits of buf from bit offset pos, LSB first. */
static uint8_t byte_at(const uint8_t *buf, size_t pos)
{
    uint8_t v = 0;

    if (!buf)
        return 0;
    if (pos % 8 == 0)
        return buf[pos / 8];
    for (unsigned k = 0; k < 8; k++)
        v |= (uint8_t)(bit_at(buf, pos + k) << k);
    return v;
}

/* A new TMS command of one clock: TMS tms_bit, TDI tdi (bit 7), the TDO of
 * that clock read into dst bit dst_bit when dst is not NULL. */
static bool tms_cmd(struct pp_mpsse *m, int tms_bit, int tdi, uint8_t *dst, size_t dst_bit)
{
    uint8_t cmd[3] = { dst ? PP_MPSSE_TMS_RD : PP_MPSSE_TMS, 0,
                       (uint8_t)(tms_bit | tdi << 7) };

    if (!begin_cmd(m, sizeof(cmd), dst ? 1 : 0))
        return false;
    m->tms_pos = m->nout;
    m->tms_rd = SIZE_MAX;
    if (!put(m, cmd, sizeof(cmd)))
        return false;
    if (dst) {
        m->tms_rd = m->nrd;
        /* One bit clocked: it arrives in bit 7 (spec 1.4). */
        if (!put_read(m, dst, (uint32_t)dst_bit, 1, 7, 1))
            return false;
    }
    m->tms_open = true;
    m->tdi_level = tdi;
    m->tms_level = tms_bit;
    m->tck++;
    return true;
}

/* One more clock on the open TMS command when TDI agrees and it has room;
 * a read at its first clock moves down one bit per clock added. */
static bool tms_grow(struct pp_mpsse *m, int tms_bit, int tdi)
{
    uint8_t *c;

    if (!m->tms_open)
        return false;
    c = m->out + m->tms_pos;
    if (((c[2] >> 7) & 1) != tdi || c[1] + 1u >= PP_MPSSE_TMS_MAX_BITS)
        return false;
    c[1]++;
    c[2] |= (uint8_t)(tms_bit << c[1]);
    if (m->tms_rd != SIZE_MAX)
        m->rd[m->tms_rd].shift = (uint8_t)(7 - c[1]);
    m->tms_level = tms_bit;
    m->tck++;
    return true;
}

/* Zero-TMS run length from bit i. */
static unsigned zero_run(const uint8_t *tms, unsigned i, unsigned n)
{
    unsigned r = 0;

    while (i + r < n && !bit_at(tms, i + r))
        r++;
    return r;
}

/* Idle clocks as 0x8F ((Len+1)*8 clocks, pins unchanged: spec 1.7):
 * 3 bytes for up to 524288 clocks instead of 3 bytes per 6. */
static bool idle_bytes(struct pp_mpsse *m, unsigned nbytes)
{
    while (nbytes) {
        unsigned k = nbytes > PP_MPSSE_MAX_BYTES ? PP_MPSSE_MAX_BYTES : nbytes;
        uint8_t cmd[3] = { PP_MPSSE_CLK_BYTES, (uint8_t)(k - 1), (uint8_t)((k - 1) >> 8) };

        if (!begin_cmd(m, sizeof(cmd), 0) || !put(m, cmd, sizeof(cmd)))
            return false;
        m->tck += 8ull * k;
        nbytes -= k;
    }
    return true;
}

int pp_mpsse_tms(struct pp_mpsse *m, const uint8_t *tms, unsigned n, bool tdi)
{
    for (unsigned i = 0; i < n && m->err == PP_OK;) {
        unsigned run = zero_run(tms, i, n);
        int b = bit_at(tms, i);

        if (run >= 16 && m->tms_level == 0 && m->tdi_level == (int)tdi) {
            if (!idle_bytes(m, run / 8))
                break;
            i += run / 8 * 8;
            continue;
        }
        if (!tms_grow(m, b, tdi) && !tms_cmd(m, b, tdi, NULL, 0))
            break;
        i++;
    }
    return m->err;
}

/* A byte-shift command of k bytes from bit pos. */
static bool shift_bytes(struct pp_mpsse *m, const uint8_t *tdi, uint8_t *tdo, size_t pos,
                        unsigned k)
{
    bool rd_only = !tdi && tdo && m->tdi_level == 0;
    bool clk_only = !tdi && !tdo && m->tdi_level == 0;
    uint8_t op = rd_only ? PP_MPSSE_RD_BYTES : tdo ? PP_MPSSE_RW_BYTES : PP_MPSSE_WR_BYTES;
    uint8_t hdr[3] = { op, (uint8_t)(k - 1), (uint8_t)((k - 1) >> 8) };

    if (clk_only)
        return idle_bytes(m, k);
    if (!put(m, hdr, sizeof(hdr)))
        return false;
    if (!rd_only) {
        if (!reserve(m, (void **)&m->out, &m->outcap, m->nout + k, 1))
            return false;
        for (unsigned j = 0; j < k; j++)
            m->out[m->nout++] = byte_at(tdi, pos + 8 * j);
        m->tdi_level = bit_at(tdi, pos + 8 * k - 1);
    }
    m->tck += 8ull * k;
    return !tdo || put_read(m, tdo, (uint32_t)pos, 8 * k, 0, k);
}

/* Whole bytes of a shift, each command as large as the chunk allows. */
static bool shift_byte_run(struct pp_mpsse *m, const uint8_t *tdi, uint8_t *tdo, size_t pos,
                           unsigned nbytes)
{
    while (nbytes && m->err == PP_OK) {
        /* With TDI already low a NULL tdi needs no data bytes. */
        bool data = tdi || m->tdi_level != 0;
        size_t room_out, room_in, k = nbytes;

        if (!begin_cmd(m, data ? 4 : 3, tdo ? 1 : 0))
            return false;
        room_out = chunk_out_room(m) - 3;
        room_in = chunk_in_room(m);
        if (data && k > room_out)
            k = room_out;
        if (tdo && k > room_in)
            k = room_in;
        if (k > PP_MPSSE_MAX_BYTES)
            k = PP_MPSSE_MAX_BYTES;
        if (!shift_bytes(m, tdi, tdo, pos, (unsigned)k))
            return false;
        pos += 8 * k;
        nbytes -= (unsigned)k;
    }
    return m->err == PP_OK;
}

/* 1..7 bits from pos in bit mode; a read lands in the top bits (spec 1.4). */
static bool shift_bits(struct pp_mpsse *m, const uint8_t *tdi, uint8_t *tdo, size_t pos,
                       unsigned r)
{
    bool rd_only = !tdi && tdo && m->tdi_level == 0;
    uint8_t op = rd_only ? PP_MPSSE_RD_BITS : tdo ? PP_MPSSE_RW_BITS : PP_MPSSE_WR_BITS;
    uint8_t cmd[3] = { op, (uint8_t)(r - 1), 0 };
    size_t len = rd_only ? 2 : 3;

    for (unsigned k = 0; k < r; k++)
        cmd[2] |= (uint8_t)(bit_at(tdi, pos + k) << k);
    if (!begin_cmd(m, len, tdo ? 1 : 0) || !put(m, cmd, len))
        return false;
    if (!rd_only)
        m->tdi_level = bit_at(tdi, pos + r - 1);
    m->tck += r;
    return !tdo || put_read(m, tdo, (uint32_t)pos, r, (uint8_t)(8 - r), 1);
}

int pp_mpsse_shift(struct pp_mpsse *m, const uint8_t *tdi, uint8_t *tdo, unsigned n,
                   bool last_tms)
{
    size_t body = last_tms ? n - 1 : n, pos = 0;

    if (n == 0 || m->err != PP_OK)
        return m->err;
    /* Data commands keep TMS where it is; when it may be high, the first
     * bit goes out on a TMS command with TMS low. */
    if (body && m->tms_level != 0) {
        if (!tms_cmd(m, 0, bit_at(tdi, 0), tdo, 0))
            return m->err;
        pos = 1;
    }
    if (body - pos >= 8) {
        unsigned nbytes = (unsigned)((body - pos) / 8);

        if (!shift_byte_run(m, tdi, tdo, pos, nbytes))
            return m->err;
        pos += 8ull * nbytes;
    }
    if (body > pos && !shift_bits(m, tdi, tdo, pos, (unsigned)(body - pos)))
        return m->err;
    /* The last bit rides on the TMS edge that leaves Shift-xR (spec 1.5). */
    if (last_tms)
        tms_cmd(m, 1, bit_at(tdi, n - 1), tdo, n - 1);
    return m->err;
}

int pp_mpsse_raw(struct pp_mpsse *m, const uint8_t *cmd, size_t n, size_t nreply)
{
    if (m->err != PP_OK)
        return m->err;
    if (!n)
        return PP_E_INVAL;
    if (!begin_cmd(m, n, nreply) || !put(m, cmd, n))
        return m->err;
    m->nin += nreply;
    /* Setting the low byte sets TDI (bit 1) and TMS (bit 3) too. */
    if (cmd[0] == PP_MPSSE_SET_LOW && n >= 3) {
        m->tdi_level = (cmd[1] >> 1) & 1;
        m->tms_level = (cmd[1] >> 3) & 1;
    }
    return PP_OK;
}

int pp_mpsse_finish(struct pp_mpsse *m)
{
    if (m->err == PP_OK)
        close_chunk(m);
    return m->err;
}

static void place(const struct pp_mpsse_read *e, const uint8_t *in)
{
    const uint8_t *src = in + e->in_pos;

    if (e->shift == 0 && e->dst_bit % 8 == 0 && e->nbits % 8 == 0) {
        memcpy(e->dst + e->dst_bit / 8, src, e->nbits / 8);
        return;
    }
    for (uint32_t k = 0; k < e->nbits; k++) {
        uint32_t s = e->shift + k, d = e->dst_bit + k;
        uint8_t bit = (uint8_t)(1u << (d % 8));

        if ((src[s / 8] >> (s % 8)) & 1)
            e->dst[d / 8] |= bit;
        else
            e->dst[d / 8] &= (uint8_t)~bit;
    }
}

void pp_mpsse_unpack_upto(struct pp_mpsse *m, const uint8_t *in, size_t nin)
{
    for (; m->nrd_placed < m->nrd; m->nrd_placed++) {
        const struct pp_mpsse_read *e = &m->rd[m->nrd_placed];

        if (e->in_pos + (e->shift + e->nbits + 7u) / 8u > nin)
            return;
        place(e, in);
    }
}

void pp_mpsse_unpack(struct pp_mpsse *m, const uint8_t *in)
{
    pp_mpsse_unpack_upto(m, in, m->nin);
}

/* Length of the command at out[i] (spec 1.3), 0 when it is not one this
 * encoder or a raw caller would send. */
static size_t cmd_len(const uint8_t *out, size_t nout, size_t i)
{
    uint8_t op = out[i];

    if (!(op & 0x80)) {
        bool bits = op & 0x02, wr = op & 0x10, tms = op & 0x40;
        size_t n;

        if (tms || bits)
            return (wr || tms) ? 3 : 2;
        if (i + 2 >= nout)
            return 0;
        n = (size_t)(out[i + 1] | out[i + 2] << 8) + 1;
        return 3 + (wr ? n : 0);
    }
    switch (op) {
    case 0x80: case 0x82: case 0x86: case 0x8F: case 0x9C: case 0x9D: case 0x9E:
        return 3;
    case 0x8E:
        return 2;
    default:
        return 1;
    }
}

static bool sent_opcode(const uint8_t *out, size_t nout, uint8_t op)
{
    for (size_t i = 0; i < nout;) {
        size_t len = cmd_len(out, nout, i);

        if (!len)
            return false;
        if (out[i] == op)
            return true;
        i += len;
    }
    return false;
}

long pp_mpsse_find_bad_command(const uint8_t *in, size_t nin, const uint8_t *out,
                               size_t nout, uint8_t *opcode)
{
    for (size_t i = 0; i + 1 < nin; i++) {
        if (in[i] != PP_MPSSE_BAD_REPLY || !(in[i + 1] & 0x80))
            continue;
        if (sent_opcode(out, nout, in[i + 1])) {
            *opcode = in[i + 1];
            return (long)i;
        }
    }
    return -1;
}

uint16_t pp_mpsse_divisor(uint32_t hz)
{
    uint32_t div;

    if (hz == 0)
        return 0xFFFF;
    /* Round the clock down, never up: div = ceil(30 MHz / hz) - 1. */
    div = (30000000u + hz - 1) / hz;
    div = div ? div - 1 : 0;
    return div > 0xFFFF ? 0xFFFF : (uint16_t)div;
}

uint32_t pp_mpsse_divisor_hz(uint16_t div)
{
    return 30000000u / (1u + div);
}

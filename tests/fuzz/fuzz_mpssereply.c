/*
 * Fuzz target: the product's handling of what an FTDI chip answers to a
 * queued batch (lib/link/mpsse.c): the read-back plan placing reply bits
 * into the callers' TDO buffers (pp_mpsse_unpack), and the search for a
 * bad-command answer in a reply longer than asked for
 * (pp_mpsse_find_bad_command, spec/ftdi-mpsse-jtag.md 1.10), chunk by
 * chunk as lib/link/ftdi.c's run_chunks feeds them.  The chip's bytes are
 * arbitrary here: a clone, a glitch or a chip out of step sends anything.
 *
 * Input:
 *   byte 0      chunk limits: max_in = 64 << (b & 7) (capped at 4096, the
 *               FT2232H FIFO), max_out = 64 << (b >> 3 & 7)
 *   then a program of at most MAX_OPS queueing calls, each one opcode byte
 *   (low 2 bits) and its arguments, ended by opcode 3:
 *     0  pp_mpsse_tms: n = 1 + (a & 15) TMS bits from b, c; TDI = a >> 7
 *     1  pp_mpsse_shift: n = 1 + (a | b << 8) % MAX_SHIFT bits; c bit 0:
 *        TDI from data (else NULL), bit 1: read TDO, bit 2: last TMS
 *     2  pp_mpsse_raw: a bit 0 ? GET_LOW (one reply byte) : SET_LOW b, c
 *   then the chip's reply: per chunk its expected bytes, then one byte n
 *   and n & 7 surplus bytes (as a chip that rejected an opcode sends).  A
 *   reply cut short is a timeout: nothing is unpacked.
 *
 * Checked beyond memory safety (every TDO buffer is allocated to its exact
 * size): unpacking writes every one of the n TDO bits of a shift and no
 * bit past them (two unpacks over buffers filled with 0x00 and 0xFF agree
 * on bits 0..n-1 and keep the fill above), the same reply unpacks to the
 * same bits, and a bad command found points at 0xFA and an opcode with
 * bit 7 set inside the reply.
 */
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "link/mpsse.h"

#define MAX_OPS    48u
#define MAX_SHIFT  8192u          /* bits per shift */

struct tdo_buf {
    uint8_t *lo, *hi;             /* the same reads over 0x00 and 0xFF fills */
    unsigned n;                   /* bits */
};

struct run {
    struct pp_mpsse lo, hi;       /* the same batch queued twice, one per fill */
    struct tdo_buf buf[MAX_OPS];
    unsigned nbuf;
};

static uint8_t take(const uint8_t **p, size_t *left)
{
    uint8_t b = 0;

    if (*left) {
        b = **p;
        (*p)++;
        (*left)--;
    }
    return b;
}

static void queue_shift(struct run *r, uint8_t a, uint8_t b, uint8_t c)
{
    unsigned n = 1u + (unsigned)(a | b << 8) % MAX_SHIFT;
    size_t bytes = (n + 7u) / 8u;
    uint8_t *tdi = NULL;
    struct tdo_buf *t = NULL;

    if (c & 1) {
        tdi = malloc(bytes);
        if (!tdi)
            abort();
        for (size_t i = 0; i < bytes; i++)
            tdi[i] = (uint8_t)(a * 31u + i * 7u + c);
    }
    if (c & 2) {
        t = &r->buf[r->nbuf++];
        t->n = n;
        t->lo = malloc(bytes);
        t->hi = malloc(bytes);
        if (!t->lo || !t->hi)
            abort();
    }
    (void)pp_mpsse_shift(&r->lo, tdi, t ? t->lo : NULL, n, c & 4);
    (void)pp_mpsse_shift(&r->hi, tdi, t ? t->hi : NULL, n, c & 4);
    free(tdi);
}

/* Queues the program; returns where the reply starts. */
static const uint8_t *queue(struct run *r, const uint8_t *p, size_t *left)
{
    for (unsigned i = 0; i < MAX_OPS && *left; i++) {
        uint8_t op = take(&p, left) & 3u, a = take(&p, left), b = take(&p, left),
                c = take(&p, left);
        uint8_t tms[2] = { b, c };
        uint8_t raw[3] = { PP_MPSSE_SET_LOW, b, c };
        uint8_t get = PP_MPSSE_GET_LOW;

        switch (op) {
        case 0:
            (void)pp_mpsse_tms(&r->lo, tms, 1u + (a & 15u), a >> 7);
            (void)pp_mpsse_tms(&r->hi, tms, 1u + (a & 15u), a >> 7);
            break;
        case 1:
            queue_shift(r, a, b, c);
            break;
        case 2:
            if (a & 1) {
                (void)pp_mpsse_raw(&r->lo, &get, 1, 1);
                (void)pp_mpsse_raw(&r->hi, &get, 1, 1);
            } else {
                (void)pp_mpsse_raw(&r->lo, raw, 3, 0);
                (void)pp_mpsse_raw(&r->hi, raw, 3, 0);
            }
            break;
        default:
            return p;
        }
    }
    return p;
}

/* One chunk's reply and its surplus, as run_chunks and check_surplus see
 * them; false when the reply ran out (a timeout). */
static bool reply_chunk(const struct pp_mpsse *m, const struct pp_mpsse_chunk *k, uint8_t *in,
                        const uint8_t **p, size_t *left)
{
    size_t nin = k->in_end - k->in_start, extra;
    uint8_t *all, op = 0;
    long at;

    if (*left < nin + 1)
        return false;
    memcpy(in + k->in_start, *p, nin);
    *p += nin;
    *left -= nin;
    extra = take(p, left) & 7u;
    if (!extra || *left < extra)
        return true;
    all = malloc(nin + extra);
    if (!all)
        abort();
    memcpy(all, in + k->in_start, nin);
    memcpy(all + nin, *p, extra);
    *p += extra;
    *left -= extra;
    at = pp_mpsse_find_bad_command(all, nin + extra, m->out + k->out_start,
                                   k->out_end - k->out_start, &op);
    if (at >= 0 && ((size_t)at + 1 >= nin + extra || all[at] != PP_MPSSE_BAD_REPLY ||
                    all[at + 1] != op || !(op & 0x80)))
        abort();
    free(all);
    return true;
}

static void check_unpacked(const struct run *r)
{
    for (unsigned i = 0; i < r->nbuf; i++) {
        const struct tdo_buf *t = &r->buf[i];

        for (unsigned k = 0; k < (t->n + 7u) / 8u * 8u; k++) {
            int lo = t->lo[k / 8] >> (k % 8) & 1, hi = t->hi[k / 8] >> (k % 8) & 1;

            if (k < t->n ? lo != hi : (lo != 0 || hi != 1))
                abort();        /* a TDO bit not from the reply, or one past n written */
        }
    }
}

static void run_free(struct run *r)
{
    for (unsigned i = 0; i < r->nbuf; i++) {
        free(r->buf[i].lo);
        free(r->buf[i].hi);
    }
    pp_mpsse_free(&r->lo);
    pp_mpsse_free(&r->hi);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct run r = { .nbuf = 0 };
    const uint8_t *p = data;
    size_t left = size, max_in, max_out;
    uint8_t b0 = take(&p, &left), *in;
    bool whole = true;

    max_in = (size_t)64u << (b0 & 7u);
    max_in = max_in > 4096u ? 4096u : max_in;
    max_out = (size_t)64u << (b0 >> 3 & 7u);
    pp_mpsse_init(&r.lo, max_in, max_out);
    pp_mpsse_init(&r.hi, max_in, max_out);
    p = queue(&r, p, &left);
    if (pp_mpsse_finish(&r.lo) != 0 || pp_mpsse_finish(&r.hi) != 0 || r.lo.nin != r.hi.nin ||
        r.lo.nck != r.hi.nck) {
        run_free(&r);
        return 0;
    }
    for (unsigned i = 0; i < r.nbuf; i++) {
        memset(r.buf[i].lo, 0x00, (r.buf[i].n + 7u) / 8u);
        memset(r.buf[i].hi, 0xFF, (r.buf[i].n + 7u) / 8u);
    }
    in = malloc(r.lo.nin ? r.lo.nin : 1);
    if (!in)
        abort();
    for (size_t c = 0; c < r.lo.nck && whole; c++)
        whole = reply_chunk(&r.lo, &r.lo.ck[c], in, &p, &left);
    if (whole) {
        pp_mpsse_unpack(&r.lo, in);
        pp_mpsse_unpack(&r.hi, in);
        check_unpacked(&r);
    }
    free(in);
    run_free(&r);
    return 0;
}

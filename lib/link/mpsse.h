/*
 * mpsse.h - the link queue as FTDI MPSSE command bytes (internal API).
 *
 * A pure encoder: it turns the link primitives (TMS moves, shifts with the
 * last bit on the TMS edge) into the MPSSE byte stream an FT2232H/FT232H/
 * FT4232H executes, plus a read-back plan that says where every bit of the
 * reply lands.  No I/O here: lib/link/ftdi.c sends the bytes, the tests
 * check them.  Facts: spec/ftdi-mpsse-jtag.md 1.2-1.11 and 4.3.
 *
 * Opcodes used (all documented, -ve write / +ve read, LSB first, so TCK
 * idles low): 0x19/0x1B write, 0x28/0x2A read, 0x39/0x3B write+read,
 * 0x4B TMS, 0x6B TMS with read, 0x8F idle clocks, 0x87 send immediate.
 *
 * The batch is cut into chunks at command boundaries so that no chunk
 * expects more reply bytes than the chip's TX FIFO holds (a write-then-read
 * host would otherwise deadlock: spec 3.5, 4.7) nor more command bytes than
 * max_out.  Every chunk that expects a reply ends with 0x87 so the chip
 * sends it at once instead of after the latency timer (spec 1.8).
 */
#ifndef PP_LINK_MPSSE_H
#define PP_LINK_MPSSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Opcodes (spec 1.2, 1.6-1.10). */
#define PP_MPSSE_WR_BYTES      0x19u   /* bytes out on -ve, LSB first */
#define PP_MPSSE_WR_BITS       0x1Bu
#define PP_MPSSE_RD_BYTES      0x28u   /* bytes in on +ve, LSB first */
#define PP_MPSSE_RD_BITS       0x2Au
#define PP_MPSSE_RW_BYTES      0x39u   /* out -ve, in +ve, LSB first */
#define PP_MPSSE_RW_BITS       0x3Bu
#define PP_MPSSE_TMS           0x4Bu   /* TMS out -ve, TDI = bit 7 */
#define PP_MPSSE_TMS_RD        0x6Bu   /* TMS out -ve, TDO in +ve */
#define PP_MPSSE_SET_LOW       0x80u   /* value, direction: ADBUS */
#define PP_MPSSE_GET_LOW       0x81u
#define PP_MPSSE_SET_HIGH      0x82u   /* value, direction: ACBUS */
#define PP_MPSSE_GET_HIGH      0x83u
#define PP_MPSSE_LOOPBACK_ON   0x84u
#define PP_MPSSE_LOOPBACK_OFF  0x85u
#define PP_MPSSE_SET_DIVISOR   0x86u   /* ValL, ValH */
#define PP_MPSSE_SEND_IMM      0x87u
#define PP_MPSSE_DIV5_OFF      0x8Au
#define PP_MPSSE_DIV5_ON       0x8Bu
#define PP_MPSSE_3PHASE_ON     0x8Cu
#define PP_MPSSE_3PHASE_OFF    0x8Du
#define PP_MPSSE_CLK_BITS      0x8Eu   /* Len: Len+1 clocks, no data */
#define PP_MPSSE_CLK_BYTES     0x8Fu   /* LenL, LenH: (Len+1)*8 clocks */
#define PP_MPSSE_ADAPTIVE_ON   0x96u
#define PP_MPSSE_ADAPTIVE_OFF  0x97u
#define PP_MPSSE_BAD_REPLY     0xFAu   /* then the rejected opcode */

#define PP_MPSSE_TMS_MAX_BITS  6u      /* 7 bits leak TDI onto TMS: spec 1.5 */
#define PP_MPSSE_MAX_BYTES     65536u  /* one byte-shift command */

/* Where one piece of the reply goes: bit k (0 <= k < nbits) of the piece
 * is bit (shift + k) of the reply stream counted from byte in_pos, and
 * lands in bit dst_bit + k of dst. */
struct pp_mpsse_read {
    uint8_t *dst;
    uint32_t dst_bit;
    uint32_t nbits;
    uint32_t in_pos;
    uint8_t shift;
};

/* A chunk: out[out_start..out_end) expects in[in_start..in_end). */
struct pp_mpsse_chunk {
    size_t out_start, out_end;
    size_t in_start, in_end;
};

struct pp_mpsse {
    uint8_t *out;                    /* command bytes of the batch */
    size_t nout, outcap;
    struct pp_mpsse_read *rd;        /* read-back plan */
    size_t nrd, rdcap;
    size_t nrd_placed;               /* rd[0..nrd_placed) unpacked */
    struct pp_mpsse_chunk *ck;       /* closed chunks */
    size_t nck, ckcap;
    size_t nin;                      /* reply bytes the batch expects */
    size_t ck_out, ck_in;            /* where the open chunk starts */
    size_t max_in, max_out;          /* chunk limits */
    size_t first_in;                 /* reply bytes of a batch's first chunk */
    uint64_t tck;                    /* TCK cycles queued since reset */
    int err;                         /* sticky PP_E_NOMEM / PP_E_INVAL */
    /* Pin levels after the queued commands (-1 unknown): lets a NULL-tdi
     * read use 0x28 and idle runs use 0x8F when nothing else changes. */
    int tdi_level, tms_level;
    /* The last command if it is a TMS command that may still grow. */
    bool tms_open;
    size_t tms_pos;                  /* offset of its opcode */
    size_t tms_rd;                   /* its read entry, or SIZE_MAX */
};

/* A batch's first chunk closes after at most n reply bytes (never more
 * than max_in).  For a link that sends each chunk as it closes: the chip
 * has nothing to clock from the end of one batch until the first chunk
 * of the next arrives, and a short first chunk leaves the host sooner;
 * the chunks after it, built while the chip clocks it, keep it busy.
 * A link that runs chunk by chunk, one round trip each, keeps the
 * default (max_in). */
void pp_mpsse_set_first_in(struct pp_mpsse *m, size_t n);

/* Where the queue's bytes are final: a TMS command still open may grow in
 * place (its length and TMS bits), everything before it is settled and
 * may go out before the batch is complete. */
static inline size_t pp_mpsse_settled(const struct pp_mpsse *m)
{
    return m->tms_open ? m->tms_pos : m->nout;
}

/* The reply bytes of the closed chunks: each ends with 0x87, so the chip
 * sends them without waiting for more (spec 1.8). */
static inline size_t pp_mpsse_closed_in(const struct pp_mpsse *m)
{
    return m->nck ? m->ck[m->nck - 1].in_end : 0;
}

/* max_in: reply bytes per chunk (the chip's TX FIFO: 4096 FT2232H, 2048
 * FT4232H, 1024 FT232H); max_out: command bytes per chunk (>= 64). */
void pp_mpsse_init(struct pp_mpsse *m, size_t max_in, size_t max_out);
void pp_mpsse_free(struct pp_mpsse *m);
/* Empties the batch (keeps buffers and the known pin levels). */
void pp_mpsse_clear(struct pp_mpsse *m);
/* Pin levels are unknown again (after a purge or a reset of the chip). */
void pp_mpsse_forget_pins(struct pp_mpsse *m);

/* n TCKs with TMS from tms[] bits (LSB first) and TDI held at tdi. */
int pp_mpsse_tms(struct pp_mpsse *m, const uint8_t *tms, unsigned n, bool tdi);
/* n TCKs shifting tdi[] (NULL: zeros) with TMS low, the last one with TMS
 * high when last_tms; the n TDO bits go to tdo[] (NULL: not read) when the
 * reply is unpacked. */
int pp_mpsse_shift(struct pp_mpsse *m, const uint8_t *tdi, uint8_t *tdo, unsigned n,
                   bool last_tms);
/* A command the encoder does not build itself (GPIO, clock setup) that
 * returns nreply bytes, which are dropped.  Never split across chunks. */
int pp_mpsse_raw(struct pp_mpsse *m, const uint8_t *cmd, size_t n, size_t nreply);
/* Closes the last chunk (0x87 when it expects a reply).  Call once before
 * sending; returns the sticky error if any queueing call failed. */
int pp_mpsse_finish(struct pp_mpsse *m);
/* Places the reply in[0..m->nin) as the read-back plan says: the reads
 * pp_mpsse_unpack_upto has not placed yet. */
void pp_mpsse_unpack(struct pp_mpsse *m, const uint8_t *in);
/* Places the reads whose bytes all lie in in[0..nin), the part of the
 * reply that has arrived, in order, each once: a link that streams a
 * batch does it while it waits for the rest, so that after the last byte
 * only the last reads are left.  Only after pp_mpsse_finish (a read of
 * an open TMS command may still grow before it). */
void pp_mpsse_unpack_upto(struct pp_mpsse *m, const uint8_t *in, size_t nin);

/*
 * Looks for a bad-command answer (0xFA then an opcode with bit 7 set that
 * the commands out[0..nout) contain) in the reply in[0..nin).  Only
 * meaningful when the reply had the wrong length: 0xFA is also plain data.
 * Returns the offset of the 0xFA and stores the opcode, or -1.
 */
long pp_mpsse_find_bad_command(const uint8_t *in, size_t nin, const uint8_t *out,
                               size_t nout, uint8_t *opcode);

/* TCK = 60 MHz / ((1 + div) * 2) with divide-by-5 off (spec 1.7): the
 * divisor for the fastest clock not above hz, and the clock it gives. */
uint16_t pp_mpsse_divisor(uint32_t hz);
uint32_t pp_mpsse_divisor_hz(uint16_t div);

#endif

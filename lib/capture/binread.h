/*
 * binread.h - the pmuprobe binary capture format (man/pmuprobe-bin.5):
 * its constants, the encoding both the writer (sink_bin.c) and the reader
 * (binread.c) follow, and the reader.
 *
 * Layout, all little-endian:
 *   header  "PMUPROBE", u16 version major, u16 minor, u32 header length,
 *           u32 record length, u32 flags, then the meta in fixed-size
 *           fields (PP_BIN_* sizes below), padded to a multiple of 8;
 *   records fixed-size, record length each: struct pp_cap_sample's 56-byte
 *           header, ncores 8-byte core states, nvals 16-byte values;
 *   trailer u32 PP_BIN_TRAILER_TAG, u32 trailer length, the summary.
 * A file that ends without a trailer (killed writer) is read up to its
 * last complete record.
 */
#ifndef PP_CAP_BINREAD_H
#define PP_CAP_BINREAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "capture/record.h"

#define PP_BIN_MAGIC         "PMUPROBE"
#define PP_BIN_MAGIC_LEN     8u
#define PP_BIN_VERSION_MAJOR 1u      /* a reader refuses a major it does not know */
#define PP_BIN_VERSION_MINOR 2u      /* additions a reader may ignore (1.1: tck_hz,
                                      * 1.2: missed, after the trailer's gaps) */
#define PP_BIN_PREAMBLE_LEN  24u     /* magic .. flags */
#define PP_BIN_META_FIXED    168u    /* target, probe, times, flags, ncores, nvals, tck */
#define PP_BIN_CORE_FIXED    48u     /* cpu, type, nev, first, nmetrics, pad */
#define PP_BIN_EVENT_LEN     104u    /* name, mnemonic, code, counter, pad */
#define PP_BIN_METRIC_LEN    64u     /* name, num, den, pad, scale */
#define PP_BIN_REC_HEAD      56u     /* sizeof(struct pp_cap_sample) */
#define PP_BIN_CSTAT_LEN     8u
#define PP_BIN_VAL_LEN       16u
#define PP_BIN_TRAILER_TAG   0x4C494154u  /* "TAIL": never a record kind */
#define PP_BIN_FLAG_REALTIME 1u      /* meta flags */
#define PP_BIN_FLAG_SNAPSHOT 2u
#define PP_BIN_TRAILER_FIXED 384u    /* tag .. bus_tck; then ncores x PP_CAP_NCAUSES gaps */

/* Little-endian field access, the same on every host. */
static inline void pp_le16_put(uint8_t *p, uint16_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
}

static inline void pp_le32_put(uint8_t *p, uint32_t v)
{
    for (unsigned i = 0; i < 4; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

static inline void pp_le64_put(uint8_t *p, uint64_t v)
{
    for (unsigned i = 0; i < 8; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

static inline uint16_t pp_le16_get(const uint8_t *p)
{
    return (uint16_t)(p[0] | p[1] << 8);
}

static inline uint32_t pp_le32_get(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static inline uint64_t pp_le64_get(const uint8_t *p)
{
    return (uint64_t)pp_le32_get(p) | (uint64_t)pp_le32_get(p + 4) << 32;
}

/* Bytes of the header for this meta (a multiple of 8). */
size_t pp_bin_header_len(const struct pp_cap_meta *m);
/* Encodes the header into buf (pp_bin_header_len bytes, zeroed padding). */
void pp_bin_encode_header(const struct pp_cap_meta *m, uint8_t *buf);
/* Encodes one record into buf (pp_cap_record_size bytes).  DROP records
 * get zeroed arrays.  On little-endian hosts the result equals the
 * record's bytes, which lets the writer skip this step. */
void pp_bin_encode_record(const struct pp_cap_sample *smp, uint8_t *buf);
/* Bytes of the trailer for this meta. */
size_t pp_bin_trailer_len(const struct pp_cap_meta *m);
/* The same for a file of format minor version minor (before 1.2: no
 * missed count at the end). */
size_t pp_bin_trailer_len_minor(const struct pp_cap_meta *m, unsigned minor);
void pp_bin_encode_trailer(const struct pp_cap_meta *m, const struct pp_cap_summary *sum,
                           uint8_t *buf);

/* ---- reader ------------------------------------------------------------------- */

struct pp_binread;

/*
 * Reads and checks the header from in (name is for messages).  NULL on
 * failure with err saying what is wrong ("not a pmuprobe capture: bad
 * magic", "version 2.0 is newer than this reader (1.x)", ...).
 */
struct pp_binread *pp_binread_open(FILE *in, const char *name, char *err, size_t n);

const struct pp_cap_meta *pp_binread_meta(const struct pp_binread *r);

/*
 * The next record: returns 1 with *smp pointing at it (valid until the
 * next call), 0 at the end (trailer read, or the file ends: a partial
 * last record is dropped and pp_binread_truncated() says so), or
 * PP_E_PARSE / PP_E_IO with pp_binread_errmsg().
 */
int pp_binread_next(struct pp_binread *r, const struct pp_cap_sample **smp);

/* After the end: true with *out filled when the file has its trailer. */
bool pp_binread_summary(const struct pp_binread *r, struct pp_cap_summary *out);
/* After the end: the file ended without a trailer. */
bool pp_binread_truncated(const struct pp_binread *r);
/* Bytes of a partial record at the end that were ignored. */
size_t pp_binread_partial_bytes(const struct pp_binread *r);
uint64_t pp_binread_records(const struct pp_binread *r);
const char *pp_binread_errmsg(const struct pp_binread *r);
void pp_binread_free(struct pp_binread *r);

#endif

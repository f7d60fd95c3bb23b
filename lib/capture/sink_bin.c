/*
 * sink_bin.c - the binary capture format (man/pmuprobe-bin.5; layout in
 * capture/binread.h): the encoder and the "bin" sink.
 *
 * The sink is the path for the highest rates: a record goes out with one
 * fwrite and no formatting.  On little-endian hosts the in-memory record
 * already is the file's record (checked below at compile time), so the
 * sample is written as it came out of the ring.
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "capture/binread.h"
#include "capture/sink.h"
#include "pmuprobe.h"

_Static_assert(sizeof(struct pp_cap_sample) == PP_BIN_REC_HEAD, "record header is 56 bytes");
_Static_assert(offsetof(struct pp_cap_sample, seq) == 16, "seq at 16");
_Static_assert(offsetof(struct pp_cap_sample, late_ns) == 48, "late_ns at 48");
_Static_assert(sizeof(struct pp_cap_cstat) == PP_BIN_CSTAT_LEN, "core state is 8 bytes");
_Static_assert(offsetof(struct pp_cap_cstat, why) == 2 && offsetof(struct pp_cap_cstat, discont) == 4,
               "core state layout");
_Static_assert(sizeof(struct pp_cap_val) == PP_BIN_VAL_LEN, "value is 16 bytes");

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define HOST_IS_FILE_ORDER 1
#else
#define HOST_IS_FILE_ORDER 0
#endif

static uint64_t double_bits(double d)
{
    uint64_t u;

    memcpy(&u, &d, sizeof(u));
    return u;
}

/* A fixed-size string field: NUL-padded, always NUL-terminated. */
static void put_str(uint8_t *p, const char *str, size_t field)
{
    size_t n = strnlen(str, field - 1);

    memcpy(p, str, n);
    memset(p + n, 0, field - n);
}

size_t pp_bin_header_len(const struct pp_cap_meta *m)
{
    size_t len = PP_BIN_PREAMBLE_LEN + PP_BIN_META_FIXED;

    for (unsigned k = 0; k < m->ncores; k++)
        len += PP_BIN_CORE_FIXED + m->core[k].nev * PP_BIN_EVENT_LEN +
               m->core[k].nmetrics * PP_BIN_METRIC_LEN;
    return (len + 7) & ~(size_t)7;
}

static uint8_t *encode_core(const struct pp_cap_core *c, uint8_t *p)
{
    pp_le32_put(p, c->cpu);
    put_str(p + 4, c->type, sizeof(c->type));
    pp_le32_put(p + 28, c->nev);
    pp_le32_put(p + 32, c->first);
    pp_le32_put(p + 36, c->nmetrics);
    p += PP_BIN_CORE_FIXED;
    for (unsigned i = 0; i < c->nev; i++, p += PP_BIN_EVENT_LEN) {
        put_str(p, c->ev[i].name, PP_CAP_NAME_LEN);
        put_str(p + 48, c->ev[i].mnemonic, PP_CAP_NAME_LEN);
        pp_le16_put(p + 96, c->ev[i].code);
        p[98] = c->ev[i].counter;
    }
    for (unsigned i = 0; i < c->nmetrics; i++, p += PP_BIN_METRIC_LEN) {
        put_str(p, c->metric[i].name, PP_CAP_NAME_LEN);
        p[48] = c->metric[i].num;
        p[49] = c->metric[i].den;
        pp_le64_put(p + 56, double_bits(c->metric[i].scale));
    }
    return p;
}

void pp_bin_encode_header(const struct pp_cap_meta *m, uint8_t *buf)
{
    size_t len = pp_bin_header_len(m);
    uint8_t *p = buf;

    memset(buf, 0, len);
    memcpy(p, PP_BIN_MAGIC, PP_BIN_MAGIC_LEN);
    pp_le16_put(p + 8, PP_BIN_VERSION_MAJOR);
    pp_le16_put(p + 10, PP_BIN_VERSION_MINOR);
    pp_le32_put(p + 12, (uint32_t)len);
    pp_le32_put(p + 16, (uint32_t)pp_cap_record_size(m));
    p += PP_BIN_PREAMBLE_LEN;
    put_str(p, m->target, sizeof(m->target));
    put_str(p + 64, m->probe, sizeof(m->probe));
    pp_le64_put(p + 128, m->interval_ns);
    pp_le64_put(p + 136, m->start_mono_ns);
    pp_le64_put(p + 144, m->start_real_ns);
    pp_le32_put(p + 152, (m->realtime ? PP_BIN_FLAG_REALTIME : 0u) |
                         (m->snapshot ? PP_BIN_FLAG_SNAPSHOT : 0u));
    pp_le32_put(p + 156, m->ncores);
    pp_le32_put(p + 160, m->nvals);
    pp_le32_put(p + 164, m->tck_hz);      /* version 1.1; was reserved (zero) */
    p += PP_BIN_META_FIXED;
    for (unsigned k = 0; k < m->ncores; k++)
        p = encode_core(&m->core[k], p);
}

void pp_bin_encode_record(const struct pp_cap_sample *smp, uint8_t *buf)
{
    const struct pp_cap_cstat *cs = pp_cap_cstats_c(smp);
    const struct pp_cap_val *v = pp_cap_vals_c(smp);
    uint8_t *p = buf;

    pp_le32_put(p, smp->kind);
    pp_le32_put(p + 4, smp->ncores);
    pp_le32_put(p + 8, smp->nvals);
    pp_le32_put(p + 12, smp->dropped);
    pp_le64_put(p + 16, smp->seq);
    pp_le64_put(p + 24, smp->t_start_ns);
    pp_le64_put(p + 32, smp->t_end_ns);
    pp_le64_put(p + 40, smp->t_real_ns);
    pp_le64_put(p + 48, smp->late_ns);
    p += PP_BIN_REC_HEAD;
    if (smp->kind == PP_CAP_DROP) {  /* its arrays are unused: write zeros, not garbage */
        memset(p, 0, smp->ncores * PP_BIN_CSTAT_LEN + smp->nvals * PP_BIN_VAL_LEN);
        return;
    }
    for (unsigned k = 0; k < smp->ncores; k++, p += PP_BIN_CSTAT_LEN) {
        p[0] = cs[k].status;
        p[1] = cs[k].cause;
        pp_le16_put(p + 2, cs[k].why);
        pp_le32_put(p + 4, cs[k].discont);
    }
    for (unsigned i = 0; i < smp->nvals; i++, p += PP_BIN_VAL_LEN) {
        pp_le64_put(p, v[i].total);
        pp_le64_put(p + 8, v[i].delta);
    }
}

size_t pp_bin_trailer_len_minor(const struct pp_cap_meta *m, unsigned minor)
{
    return PP_BIN_TRAILER_FIXED + (size_t)m->ncores * PP_CAP_NCAUSES * 8u + (minor >= 2 ? 8u : 0u);
}

size_t pp_bin_trailer_len(const struct pp_cap_meta *m)
{
    return pp_bin_trailer_len_minor(m, PP_BIN_VERSION_MINOR);
}

void pp_bin_encode_trailer(const struct pp_cap_meta *m, const struct pp_cap_summary *sum,
                           uint8_t *buf)
{
    static const struct pp_cap_summary none;
    size_t len = pp_bin_trailer_len(m);
    uint8_t *p;

    memset(buf, 0, len);
    pp_le32_put(buf, PP_BIN_TRAILER_TAG);
    pp_le32_put(buf + 4, (uint32_t)len);
    pp_le32_put(buf + 12, sum ? 1u : 0u);    /* 0: the writer had no summary */
    if (!sum)
        sum = &none;
    pp_le32_put(buf + 8, (uint32_t)sum->stop);
    put_str(buf + 16, sum->stop_msg, sizeof(sum->stop_msg));
    p = buf + 272;
    const uint64_t u[] = {
        sum->samples, sum->written, sum->late, sum->dropped, sum->blocked_ns,
        double_bits(sum->requested_hz), double_bits(sum->achieved_hz),
        sum->jitter_p50_ns, sum->jitter_p99_ns, sum->jitter_max_ns, sum->elapsed_ns,
        sum->bytes, sum->bus_round_trips, sum->bus_tck,
    };
    for (size_t i = 0; i < sizeof(u) / sizeof(u[0]); i++, p += 8)
        pp_le64_put(p, u[i]);
    for (unsigned k = 0; k < m->ncores; k++)
        for (unsigned c = 0; c < PP_CAP_NCAUSES; c++, p += 8)
            pp_le64_put(p, sum->gaps[k][c]);
    pp_le64_put(p, sum->missed);          /* version 1.2 */
}

/* ---- the sink ----------------------------------------------------------------- */

struct bin_state {
    uint8_t *buf;                /* one record, or the header / trailer */
    size_t cap;
};

static int bin_grow(struct bin_state *b, size_t n)
{
    uint8_t *p;

    if (n <= b->cap)
        return PP_OK;
    p = realloc(b->buf, n);
    if (!p)
        return PP_E_NOMEM;
    b->buf = p;
    b->cap = n;
    return PP_OK;
}

static int bin_init(struct pp_sink *s)
{
    s->priv = calloc(1, sizeof(struct bin_state));
    return s->priv ? PP_OK : PP_E_NOMEM;
}

static void bin_fini(struct pp_sink *s)
{
    struct bin_state *b = s->priv;

    free(b->buf);
    free(b);
}

static int bin_begin(struct pp_sink *s, const struct pp_cap_meta *m)
{
    struct bin_state *b = s->priv;
    size_t hl = pp_bin_header_len(m), tl = pp_bin_trailer_len(m), rl = pp_cap_record_size(m);
    size_t need = hl > tl ? hl : tl;

    if (bin_grow(b, need > rl ? need : rl) != PP_OK) {
        snprintf(s->errmsg, sizeof(s->errmsg), "out of memory");
        return PP_E_NOMEM;
    }
    pp_bin_encode_header(m, b->buf);
    return pp_sink_put(s, b->buf, hl);
}

static int bin_write(struct pp_sink *s, const struct pp_cap_sample *smp)
{
    struct bin_state *b = s->priv;
    size_t n = pp_cap_record_size(s->meta);

    if (HOST_IS_FILE_ORDER && smp->kind == PP_CAP_SAMPLE)
        return pp_sink_put(s, smp, n);
    pp_bin_encode_record(smp, b->buf);
    return pp_sink_put(s, b->buf, n);
}

static int bin_end(struct pp_sink *s, const struct pp_cap_summary *sum)
{
    struct bin_state *b = s->priv;

    pp_bin_encode_trailer(s->meta, sum, b->buf);
    return pp_sink_put(s, b->buf, pp_bin_trailer_len(s->meta));
}

const struct pp_sink_ops pp_sink_bin_ops = {
    .name = "bin",
    .binary = true,
    .init = bin_init,
    .begin = bin_begin,
    .write = bin_write,
    .end = bin_end,
    .fini = bin_fini,
};

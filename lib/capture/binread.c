/*
 * binread.c - reads the binary capture format (man/pmuprobe-bin.5) back
 * into the records of capture/record.h, for `pmuprobe convert`.
 *
 * Everything read is checked before it is trusted: counts against the
 * record.h limits, the header and record lengths against what the meta
 * implies, each record's kind and sizes.  A file cut short (the writer was
 * killed) is not an error: it ends at its last complete record.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "errmsg.h"
#include "capture/binread.h"
#include "pmuprobe.h"

struct pp_binread {
    FILE *in;
    char name[128];
    struct pp_cap_meta meta;
    size_t rec_len;
    uint64_t offset;             /* of the next byte to read */
    uint64_t records;
    uint8_t *raw;                /* one record or the trailer as read */
    size_t raw_cap;
    struct pp_cap_sample *rec;   /* the decoded record handed out */
    bool done, truncated, has_summary;
    unsigned minor;              /* the file's format minor version */
    size_t partial;
    struct pp_cap_summary summary;
    char errmsg[256];
};

/* Reads up to n bytes; the count read.  Short only at the end of the
 * file or on an error (ferror tells). */
static size_t read_some(struct pp_binread *r, void *buf, size_t n)
{
    size_t got = fread(buf, 1, n, r->in);

    r->offset += got;
    return got;
}

static void get_str(char *dst, const uint8_t *p, size_t field)
{
    memcpy(dst, p, field);
    dst[field - 1] = '\0';
}

static double get_double(const uint8_t *p)
{
    uint64_t u = pp_le64_get(p);
    double d;

    memcpy(&d, &u, sizeof(d));
    return d;
}

/* One core's block; NULL when its counts are out of bounds. */
static const uint8_t *decode_core(struct pp_cap_core *c, const uint8_t *p, const uint8_t *end)
{
    if (end - p < (ptrdiff_t)PP_BIN_CORE_FIXED)
        return NULL;
    c->cpu = pp_le32_get(p);
    get_str(c->type, p + 4, sizeof(c->type));
    c->nev = pp_le32_get(p + 28);
    c->first = pp_le32_get(p + 32);
    c->nmetrics = pp_le32_get(p + 36);
    p += PP_BIN_CORE_FIXED;
    if (c->nev > PP_CAP_MAX_EVENTS || c->nmetrics > PP_CAP_MAX_METRICS ||
        end - p < (ptrdiff_t)(c->nev * PP_BIN_EVENT_LEN + c->nmetrics * PP_BIN_METRIC_LEN))
        return NULL;
    for (unsigned i = 0; i < c->nev; i++, p += PP_BIN_EVENT_LEN) {
        get_str(c->ev[i].name, p, PP_CAP_NAME_LEN);
        get_str(c->ev[i].mnemonic, p + 48, PP_CAP_NAME_LEN);
        c->ev[i].code = pp_le16_get(p + 96);
        c->ev[i].counter = p[98];
    }
    for (unsigned i = 0; i < c->nmetrics; i++, p += PP_BIN_METRIC_LEN) {
        get_str(c->metric[i].name, p, PP_CAP_NAME_LEN);
        c->metric[i].num = p[48];
        c->metric[i].den = p[49];
        c->metric[i].scale = get_double(p + 56);
        if (c->metric[i].num >= c->nev || c->metric[i].den >= c->nev)
            return NULL;
    }
    return p;
}

/* The meta after the preamble; false when it is inconsistent. */
static bool decode_meta(struct pp_cap_meta *m, const uint8_t *p, const uint8_t *end)
{
    unsigned nvals = 0;
    uint32_t flags;

    if (end - p < (ptrdiff_t)PP_BIN_META_FIXED)
        return false;
    get_str(m->target, p, sizeof(m->target));
    get_str(m->probe, p + 64, sizeof(m->probe));
    m->interval_ns = pp_le64_get(p + 128);
    m->start_mono_ns = pp_le64_get(p + 136);
    m->start_real_ns = pp_le64_get(p + 144);
    flags = pp_le32_get(p + 152);
    m->realtime = flags & PP_BIN_FLAG_REALTIME;
    m->snapshot = flags & PP_BIN_FLAG_SNAPSHOT;
    m->ncores = pp_le32_get(p + 156);
    m->nvals = pp_le32_get(p + 160);
    m->tck_hz = pp_le32_get(p + 164);     /* 1.0 files: reserved zero = not known */
    p += PP_BIN_META_FIXED;
    if (m->ncores == 0 || m->ncores > PP_CAP_MAX_CORES)
        return false;
    for (unsigned k = 0; k < m->ncores; k++) {
        p = decode_core(&m->core[k], p, end);
        if (!p || m->core[k].first != nvals)
            return false;
        nvals += m->core[k].nev;
    }
    return nvals == m->nvals;
}

static struct pp_binread *open_fail(struct pp_binread *r, uint8_t *hdr)
{
    free(hdr);
    free(r);
    return NULL;
}

struct pp_binread *pp_binread_open(FILE *in, const char *name, char *err, size_t n)
{
    struct pp_binread *r = calloc(1, sizeof(*r));
    uint8_t pre[PP_BIN_PREAMBLE_LEN], *hdr = NULL;
    uint32_t hlen, major, minor;

    if (!r) {
        pp_errmsg(err, n, "out of memory");
        return NULL;
    }
    r->in = in;
    snprintf(r->name, sizeof(r->name), "%s", name ? name : "input");
    if (read_some(r, pre, sizeof(pre)) != sizeof(pre) ||
        memcmp(pre, PP_BIN_MAGIC, PP_BIN_MAGIC_LEN) != 0) {
        pp_errmsg(err, n, "%s: not a pmuprobe capture (no \"PMUPROBE\" header)%s", r->name,
                ferror(in) ? ": read error" : "");
        return open_fail(r, NULL);
    }
    major = pp_le16_get(pre + 8);
    minor = pp_le16_get(pre + 10);
    hlen = pp_le32_get(pre + 12);
    r->rec_len = pp_le32_get(pre + 16);
    r->minor = minor;
    if (major != PP_BIN_VERSION_MAJOR) {
        pp_errmsg(err, n, "%s: format version %u.%u; this pmuprobe reads version %u.x", r->name,
                major, minor, PP_BIN_VERSION_MAJOR);
        return open_fail(r, NULL);
    }
    /* 1 MiB is far above the largest meta record.h allows (~245 KiB). */
    if (hlen < PP_BIN_PREAMBLE_LEN + PP_BIN_META_FIXED || hlen > (1u << 20)) {
        pp_errmsg(err, n, "%s: header length %u out of range", r->name, hlen);
        return open_fail(r, NULL);
    }
    hdr = malloc(hlen);
    if (!hdr) {
        pp_errmsg(err, n, "out of memory");
        return open_fail(r, NULL);
    }
    if (read_some(r, hdr, hlen - PP_BIN_PREAMBLE_LEN) != hlen - PP_BIN_PREAMBLE_LEN) {
        pp_errmsg(err, n, "%s: header cut short (%u bytes expected)", r->name, hlen);
        return open_fail(r, hdr);
    }
    if (!decode_meta(&r->meta, hdr, hdr + hlen - PP_BIN_PREAMBLE_LEN)) {
        pp_errmsg(err, n, "%s: capture description is inconsistent (cores, events or indices)",
                r->name);
        return open_fail(r, hdr);
    }
    free(hdr);
    if (r->rec_len != pp_cap_record_size(&r->meta)) {
        pp_errmsg(err, n, "%s: record length %zu, the description implies %zu", r->name,
                r->rec_len, pp_cap_record_size(&r->meta));
        return open_fail(r, NULL);
    }
    r->raw_cap = r->rec_len > pp_bin_trailer_len(&r->meta) ? r->rec_len
                                                            : pp_bin_trailer_len(&r->meta);
    r->raw = malloc(r->raw_cap);
    r->rec = malloc(r->rec_len);
    if (!r->raw || !r->rec) {
        free(r->raw);
        free(r->rec);
        pp_errmsg(err, n, "out of memory");
        return open_fail(r, NULL);
    }
    return r;
}

const struct pp_cap_meta *pp_binread_meta(const struct pp_binread *r)
{
    return &r->meta;
}

static int parse_error(struct pp_binread *r, uint64_t at, const char *what)
{
    snprintf(r->errmsg, sizeof(r->errmsg), "%s: record %llu at offset %llu: %s", r->name,
             (unsigned long long)r->records, (unsigned long long)at, what);
    r->done = true;
    return PP_E_PARSE;
}

/* The end of the data: clean (EOF where a record would start) or cut
 * inside a record; either way what came before stands. */
static int end_of_file(struct pp_binread *r, size_t partial)
{
    if (ferror(r->in)) {
        snprintf(r->errmsg, sizeof(r->errmsg), "reading %s: %s", r->name, strerror(errno ? errno : EIO));
        r->done = true;
        return PP_E_IO;
    }
    r->done = true;
    r->truncated = true;
    r->partial = partial;
    return 0;
}

static void decode_summary(struct pp_binread *r, const uint8_t *b)
{
    struct pp_cap_summary *s = &r->summary;
    const uint8_t *p = b + 272;

    memset(s, 0, sizeof(*s));
    s->stop = (enum pp_cap_stop)pp_le32_get(b + 8);
    get_str(s->stop_msg, b + 16, sizeof(s->stop_msg));
    s->samples = pp_le64_get(p);
    s->written = pp_le64_get(p + 8);
    s->late = pp_le64_get(p + 16);
    s->dropped = pp_le64_get(p + 24);
    s->blocked_ns = pp_le64_get(p + 32);
    s->requested_hz = get_double(p + 40);
    s->achieved_hz = get_double(p + 48);
    s->jitter_p50_ns = pp_le64_get(p + 56);
    s->jitter_p99_ns = pp_le64_get(p + 64);
    s->jitter_max_ns = pp_le64_get(p + 72);
    s->elapsed_ns = pp_le64_get(p + 80);
    s->bytes = pp_le64_get(p + 88);
    s->bus_round_trips = pp_le64_get(p + 96);
    s->bus_tck = pp_le64_get(p + 104);
    p = b + PP_BIN_TRAILER_FIXED;
    for (unsigned k = 0; k < r->meta.ncores; k++)
        for (unsigned c = 0; c < PP_CAP_NCAUSES; c++, p += 8)
            s->gaps[k][c] = pp_le64_get(p);
    if (r->minor >= 2)           /* before 1.2 not recorded: 0, "none known" */
        s->missed = pp_le64_get(p);
    r->has_summary = pp_le32_get(b + 12) != 0;
}

static int read_trailer(struct pp_binread *r, uint64_t at)
{
    size_t len = pp_le32_get(r->raw + 4), got;
    size_t want = pp_bin_trailer_len_minor(&r->meta, r->minor);

    /* A later minor version may append fields: read ours, skip the rest. */
    if (len < want)
        return parse_error(r, at, "trailer shorter than this version's");
    got = read_some(r, r->raw + 8, want - 8);
    if (got != want - 8)
        return end_of_file(r, got + 8);
    decode_summary(r, r->raw);
    r->done = true;
    return 0;
}

static int decode_record(struct pp_binread *r, uint64_t at)
{
    const uint8_t *p = r->raw;
    struct pp_cap_sample *s = r->rec;
    struct pp_cap_cstat *cs;
    struct pp_cap_val *v;

    s->kind = pp_le32_get(p);
    s->ncores = pp_le32_get(p + 4);
    s->nvals = pp_le32_get(p + 8);
    if (s->kind != PP_CAP_SAMPLE && s->kind != PP_CAP_DROP)
        return parse_error(r, at, "unknown record kind");
    if (s->ncores != r->meta.ncores || s->nvals != r->meta.nvals)
        return parse_error(r, at, "core or value count differs from the header's");
    s->dropped = pp_le32_get(p + 12);
    s->seq = pp_le64_get(p + 16);
    s->t_start_ns = pp_le64_get(p + 24);
    s->t_end_ns = pp_le64_get(p + 32);
    s->t_real_ns = pp_le64_get(p + 40);
    s->late_ns = pp_le64_get(p + 48);
    p += PP_BIN_REC_HEAD;
    cs = pp_cap_cstats(s);
    for (unsigned k = 0; k < s->ncores; k++, p += PP_BIN_CSTAT_LEN) {
        cs[k].status = p[0];
        cs[k].cause = p[1];
        cs[k].why = pp_le16_get(p + 2);
        cs[k].discont = pp_le32_get(p + 4);
        if (s->kind == PP_CAP_SAMPLE && cs[k].status > PP_CAP_GAP)
            return parse_error(r, at, "unknown core status");
    }
    v = pp_cap_vals(s);
    for (unsigned i = 0; i < s->nvals; i++, p += PP_BIN_VAL_LEN) {
        v[i].total = pp_le64_get(p);
        v[i].delta = pp_le64_get(p + 8);
    }
    r->records++;
    return 1;
}

int pp_binread_next(struct pp_binread *r, const struct pp_cap_sample **smp)
{
    uint64_t at = r->offset;
    size_t got;

    if (r->done)
        return 0;
    /* Kind and length first: they tell a record from the trailer. */
    got = read_some(r, r->raw, 8);
    if (got != 8)
        return end_of_file(r, got);
    if (pp_le32_get(r->raw) == PP_BIN_TRAILER_TAG)
        return read_trailer(r, at);
    got = read_some(r, r->raw + 8, r->rec_len - 8);
    if (got != r->rec_len - 8)
        return end_of_file(r, got + 8);
    int rc = decode_record(r, at);

    if (rc == 1)
        *smp = r->rec;
    return rc;
}

bool pp_binread_summary(const struct pp_binread *r, struct pp_cap_summary *out)
{
    if (!r->has_summary)
        return false;
    *out = r->summary;
    return true;
}

bool pp_binread_truncated(const struct pp_binread *r)
{
    return r->truncated;
}

size_t pp_binread_partial_bytes(const struct pp_binread *r)
{
    return r->partial;
}

uint64_t pp_binread_records(const struct pp_binread *r)
{
    return r->records;
}

const char *pp_binread_errmsg(const struct pp_binread *r)
{
    return r->errmsg;
}

void pp_binread_free(struct pp_binread *r)
{
    if (!r)
        return;
    free(r->raw);
    free(r->rec);
    free(r);
}

/*
 * sink.c - the generic half of a sink: format lookup, checks on the meta
 * and the records, byte counting and write errors, and the text
 * formatting helpers the text formats share.  The formats live in
 * sink_<format>.c.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "errmsg.h"
#include "capture/sink.h"
#include "editdist.h"
#include "pmu/extend.h"
#include "pmuprobe.h"

static const struct pp_sink_ops *const sink_table[] = {
    &pp_sink_csv_ops, &pp_sink_jsonl_ops, &pp_sink_perf_ops, &pp_sink_trace_ops, &pp_sink_bin_ops,
};
#define NSINKS (sizeof(sink_table) / sizeof(sink_table[0]))

static const char *const sink_names[NSINKS + 1] = { "csv", "jsonl", "perf", "trace", "bin", NULL };

const char *const *pp_sink_formats(void)
{
    return sink_names;
}

/* "unknown output format 'cvs': did you mean 'csv'?" when one is close,
 * else the whole list: the user learns the right name either way. */
static void unknown_format(const char *format, char *err, size_t n)
{
    const char *best = NULL;
    unsigned bestd = 3;          /* farther than 2 edits is a different word */

    for (size_t i = 0; i < NSINKS; i++) {
        unsigned d = pp_edit_distance(format, sink_names[i]);

        if (d < bestd) {
            bestd = d;
            best = sink_names[i];
        }
    }
    if (best)
        pp_errmsg(err, n, "unknown output format '%s': did you mean '%s'?", format, best);
    else
        pp_errmsg(err, n, "unknown output format '%s' (formats: csv, jsonl, perf, trace, bin)",
                format);
}

struct pp_sink *pp_sink_new(const char *format, FILE *out, const struct pp_sink_opts *o,
                            char *err, size_t n)
{
    const struct pp_sink_ops *ops = NULL;
    struct pp_sink *s;

    if (!format || !out) {
        pp_errmsg(err, n, "no output format or no output");
        return NULL;
    }
    for (size_t i = 0; i < NSINKS; i++)
        if (strcmp(format, sink_table[i]->name) == 0)
            ops = sink_table[i];
    if (!ops) {
        unknown_format(format, err, n);
        return NULL;
    }
    s = calloc(1, sizeof(*s));
    if (!s) {
        pp_errmsg(err, n, "out of memory");
        return NULL;
    }
    s->ops = ops;
    s->out = out;
    if (o)
        s->opts = *o;
    if (!s->opts.sep)
        s->opts.sep = ',';
    if (!s->opts.name)
        s->opts.name = "output";
    if (ops->init && ops->init(s) != PP_OK) {
        pp_errmsg(err, n, "out of memory");
        free(s);
        return NULL;
    }
    return s;
}

/* Every index a format follows from the meta must be in bounds, so the
 * formats need not check again per sample. */
static bool meta_ok(const struct pp_cap_meta *m)
{
    unsigned nvals = 0;

    if (m->ncores == 0 || m->ncores > PP_CAP_MAX_CORES)
        return false;
    for (unsigned k = 0; k < m->ncores; k++) {
        const struct pp_cap_core *c = &m->core[k];

        if (c->nev > PP_CAP_MAX_EVENTS || c->nmetrics > PP_CAP_MAX_METRICS || c->first != nvals)
            return false;
        for (unsigned j = 0; j < c->nmetrics; j++)
            if (c->metric[j].num >= c->nev || c->metric[j].den >= c->nev)
                return false;
        nvals += c->nev;
    }
    return nvals == m->nvals;
}

bool pp_sink_flush_due(uint64_t interval_ns, uint64_t *last_ns)
{
    uint64_t now = pp_mono_ns();

    if (interval_ns < PP_SINK_FLUSH_NS && now - *last_ns < PP_SINK_FLUSH_NS)
        return false;
    *last_ns = now;
    return true;
}

/* A failed flush is a failed write: a full disk or a closed pipe shows
 * here first in a live capture. */
static int flush_out(struct pp_sink *s)
{
    errno = 0;
    if (fflush(s->out) == 0 && !ferror(s->out)) {
        s->flushed_bytes = s->bytes;
        return PP_OK;
    }
    snprintf(s->errmsg, sizeof(s->errmsg), "writing %s: %s", s->opts.name,
             strerror(errno ? errno : EIO));
    s->failed = PP_E_IO;
    return PP_E_IO;
}

/* After the header and each record of a live text output. */
static int live_flush(struct pp_sink *s, int rc, bool header)
{
    if (rc != PP_OK || !s->opts.live || s->ops->binary)
        return rc;
    if (!header && !pp_sink_flush_due(s->meta->interval_ns, &s->flushed_ns))
        return rc;
    if (header)
        s->flushed_ns = pp_mono_ns();
    return flush_out(s);
}

int pp_sink_begin(struct pp_sink *s, const struct pp_cap_meta *m)
{
    if (!s || !m || s->begun) {
        if (s)
            snprintf(s->errmsg, sizeof(s->errmsg), "sink already begun");
        return PP_E_INVAL;
    }
    if (s->failed)
        return s->failed;
    if (!meta_ok(m)) {
        snprintf(s->errmsg, sizeof(s->errmsg),
                 "capture description out of bounds (cores, events, metrics or value indices)");
        return PP_E_INVAL;
    }
    s->meta = m;
    s->begun = true;
    return live_flush(s, s->ops->begin(s, m), true);
}

int pp_sink_write(struct pp_sink *s, const struct pp_cap_sample *smp)
{
    if (!s || !smp || !s->begun || s->ended)
        return PP_E_INVAL;
    if (s->failed)
        return s->failed;
    if ((smp->kind != PP_CAP_SAMPLE && smp->kind != PP_CAP_DROP) ||
        smp->ncores != s->meta->ncores || smp->nvals != s->meta->nvals) {
        snprintf(s->errmsg, sizeof(s->errmsg),
                 "record %llu does not match the capture (kind %u, %u cores, %u values)",
                 (unsigned long long)smp->seq, smp->kind, smp->ncores, smp->nvals);
        return PP_E_INVAL;
    }
    return live_flush(s, s->ops->write(s, smp), false);
}

int pp_sink_end(struct pp_sink *s, const struct pp_cap_summary *sum)
{
    int rc;

    if (!s || !s->begun || s->ended)
        return PP_E_INVAL;
    s->ended = true;
    if (s->failed)
        return s->failed;
    rc = s->ops->end(s, sum);
    if (rc != PP_OK)
        return rc;
    /* Buffered bytes meet a full disk or a closed pipe only here. */
    return flush_out(s);
}

uint64_t pp_sink_bytes(const struct pp_sink *s)
{
    if (!s)
        return 0;
    return s->failed ? s->flushed_bytes : s->bytes;
}

const char *pp_sink_errmsg(const struct pp_sink *s)
{
    return s ? s->errmsg : "no sink";
}

const char *pp_sink_format(const struct pp_sink *s)
{
    return s->ops->name;
}

void pp_sink_free(struct pp_sink *s)
{
    if (!s)
        return;
    if (s->ops->fini)
        s->ops->fini(s);
    free(s);
}

int pp_sink_put(struct pp_sink *s, const void *buf, size_t n)
{
    size_t done;

    if (s->failed)
        return s->failed;
    errno = 0;
    done = fwrite(buf, 1, n, s->out);
    s->bytes += done;
    if (done != n) {
        snprintf(s->errmsg, sizeof(s->errmsg), "writing %s: %s", s->opts.name,
                 strerror(errno ? errno : EIO));
        s->failed = PP_E_IO;
        return PP_E_IO;
    }
    return PP_OK;
}

/* ---- names ------------------------------------------------------------------ */

const char *pp_sink_status_name(unsigned status)
{
    static const char *const names[] = { "ok", "discont", "gap", "drop" };

    return status < 4 ? names[status] : "unknown";
}

const char *pp_sink_why_names(unsigned why, char *buf, size_t n)
{
    size_t len = 0;

    if (!n)
        return "";
    buf[0] = '\0';
    for (unsigned bit = 0; bit < 16; bit++) {
        if (!(why >> bit & 1u))
            continue;
        int w = snprintf(buf + len, n - len, "%s%s", len ? "+" : "", pp_ext_why_name(1u << bit));

        if (w < 0 || (size_t)w >= n - len)
            break;
        len += (size_t)w;
    }
    return buf;
}

const char *pp_sink_stop_name(int stop)
{
    switch (stop) {
    case PP_CAP_STOP_DONE:   return "done";
    case PP_CAP_STOP_SIGNAL: return "signal";
    case PP_CAP_STOP_LINK:   return "link";
    case PP_CAP_STOP_SINK:   return "sink";
    default:                 return "unknown";
    }
}

/* ---- text formatting ---------------------------------------------------------- */

/* The decimal digits of v, least significant first; their count. */
static size_t digits_reversed(char tmp[20], uint64_t v)
{
    size_t n = 0;

    do {
        tmp[n++] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    return n;
}

char *pp_fmt_u64(char *p, uint64_t v)
{
    char tmp[20];
    size_t n = digits_reversed(tmp, v);

    while (n)
        *p++ = tmp[--n];
    return p;
}

char *pp_fmt_u64_grouped(char *p, uint64_t v)
{
    char tmp[20];
    size_t n = digits_reversed(tmp, v);

    while (n) {
        *p++ = tmp[--n];
        if (n && n % 3 == 0)
            *p++ = ',';
    }
    return p;
}

/* Zero-padded fraction of `digits` digits. */
static char *fmt_frac(char *p, uint64_t v, unsigned digits)
{
    for (unsigned i = digits; i > 0; i--) {
        p[i - 1] = (char)('0' + v % 10);
        v /= 10;
    }
    return p + digits;
}

char *pp_fmt_ns_as_s(char *p, uint64_t ns)
{
    p = pp_fmt_u64(p, ns / 1000000000u);
    *p++ = '.';
    return fmt_frac(p, ns % 1000000000u, 9);
}

char *pp_fmt_ns_as_us(char *p, uint64_t ns)
{
    p = pp_fmt_u64(p, ns / 1000u);
    *p++ = '.';
    return fmt_frac(p, ns % 1000u, 3);
}

char *pp_fmt_double(char *p, double v, unsigned decimals)
{
    static const uint64_t pow10[] = { 1, 10, 100, 1000, 10000, 100000, 1000000 };
    uint64_t scale, r;

    if (isnan(v))
        return pp_fmt_str(p, "nan");
    if (decimals > 6)
        decimals = 6;
    if (v < 0) {
        *p++ = '-';
        v = -v;
    }
    if (isinf(v))
        return pp_fmt_str(p, "inf");
    if (v >= 1e12) {             /* beyond what a ratio of counts needs */
        int w = snprintf(p, 32, "%.*e", (int)decimals, v);

        return p + (w > 0 ? w : 0);
    }
    scale = pow10[decimals];
    r = (uint64_t)llround(v * (double)scale);
    p = pp_fmt_u64(p, r / scale);
    if (!decimals)
        return p;
    *p++ = '.';
    return fmt_frac(p, r % scale, decimals);
}

char *pp_fmt_str(char *p, const char *str)
{
    size_t n = strlen(str);

    memcpy(p, str, n);
    return p + n;
}

/* Length of the well-formed UTF-8 sequence at c (RFC 3629 4), 0 when it
 * is not one: a name read from a file may hold anything, and a JSON
 * parser rejects a document with invalid UTF-8. */
static size_t utf8_len(const unsigned char *c)
{
    size_t n;
    unsigned cp;

    if (*c >= 0xC2 && *c <= 0xDF)
        n = 2, cp = *c & 0x1Fu;
    else if (*c >= 0xE0 && *c <= 0xEF)
        n = 3, cp = *c & 0x0Fu;
    else if (*c >= 0xF0 && *c <= 0xF4)
        n = 4, cp = *c & 0x07u;
    else
        return 0;
    for (size_t i = 1; i < n; i++) {
        if ((c[i] & 0xC0) != 0x80)
            return 0;
        cp = cp << 6 | (c[i] & 0x3Fu);
    }
    if ((n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 || cp > 0x10FFFF)) ||
        (cp >= 0xD800 && cp <= 0xDFFF))
        return 0;                /* overlong, beyond Unicode, or a surrogate */
    return n;
}

char *pp_fmt_json_str(char *p, const char *str)
{
    static const char hex[] = "0123456789abcdef";

    *p++ = '"';
    for (const unsigned char *c = (const unsigned char *)str; *c; c++) {
        if (*c >= 0x80) {
            size_t n = utf8_len(c);

            if (!n) {
                p = pp_fmt_str(p, "\\ufffd");   /* U+FFFD for a broken byte */
                continue;
            }
            memcpy(p, c, n);
            p += n;
            c += n - 1;
            continue;
        }
        switch (*c) {
        case '"':  *p++ = '\\'; *p++ = '"';  break;
        case '\\': *p++ = '\\'; *p++ = '\\'; break;
        case '\n': *p++ = '\\'; *p++ = 'n';  break;
        case '\r': *p++ = '\\'; *p++ = 'r';  break;
        case '\t': *p++ = '\\'; *p++ = 't';  break;
        default:
            if (*c < 0x20) {     /* RFC 8259 7: control characters escaped */
                p = pp_fmt_str(p, "\\u00");
                *p++ = hex[*c >> 4];
                *p++ = hex[*c & 15];
            } else {
                *p++ = (char)*c;
            }
        }
    }
    *p++ = '"';
    return p;
}

/*
 * Fuzz target: the binary capture reader (lib/capture/binread.c,
 * man/pmuprobe-bin.5) and what `pmuprobe convert` does with what it
 * reads: every record goes through every output sink (lib/capture/sink*.c),
 * as src/cli/cmd_convert.c's replay does, so a header or record the reader
 * lets through is also exercised by the code that formats it (names,
 * metric indices and scales, core status and cause, DROP records, the
 * summary).
 *
 * Input: a capture file, whole.  The seeds under corpus/binread are real
 * captures of `pmuprobe -p sim stream --format bin` (one with a core off
 * for a while: GAP and DISCONT records; one cut inside a record), so that
 * mutations land in records and not only in the magic; fuzz.mk gives the
 * fuzzer binread.dict with the magic, the trailer tag and the version.
 *
 * Checked beyond memory safety: converting to bin and reading that back
 * gives the same description counts and the same records, byte for byte
 * (a record has no padding, record.h), up to where the first read stopped.
 */
#define _GNU_SOURCE        /* open_memstream, fmemopen */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "pmuprobe.h"
#include "capture/binread.h"
#include "capture/sink.h"

#define MAX_RECORDS 4096u

struct pass {
    uint8_t *recs;               /* records as read, back to back */
    size_t rec_len, n, cap;      /* cap: room for records in recs */
};

/* The sink every output but bin goes to: opened once, never read. */
static FILE *null_out(void)
{
    static FILE *f;

    if (!f && !(f = fopen("/dev/null", "w")))
        abort();
    return f;
}

/* Reads data as convert does, into sink s (NULL: none); keeps the records
 * in p when p is not NULL. */
static void replay(const uint8_t *data, size_t size, struct pp_sink *s, struct pass *p)
{
    FILE *in = fmemopen((void *)data, size, "rb");
    char err[256];
    struct pp_binread *r;
    const struct pp_cap_sample *smp;
    struct pp_cap_summary sum;
    bool sink_ok, keep;

    if (!in)
        return;
    r = pp_binread_open(in, "<fuzz>", err, sizeof err);
    if (!r) {
        fclose(in);
        return;
    }
    sink_ok = s && pp_sink_begin(s, pp_binread_meta(r)) == PP_OK;
    keep = p && (sink_ok || !s);
    if (p) {
        /* Room for as many records as the input holds after the header
         * (pp_binread_open has read exactly that far): each takes rec_len
         * bytes (binread.c refuses a file whose rec_len is not
         * pp_cap_record_size), and at most MAX_RECORDS are read.  Only a
         * trailer's bytes may go unused. */
        long at = ftell(in);
        size_t body = at >= 0 && (size_t)at <= size ? size - (size_t)at : 0;

        p->rec_len = pp_cap_record_size(pp_binread_meta(r));
        p->cap = body / p->rec_len < MAX_RECORDS ? body / p->rec_len : MAX_RECORDS;
        p->recs = p->cap ? malloc(p->rec_len * p->cap) : NULL;
        if (p->cap && !p->recs)
            abort();
    }
    while (pp_binread_next(r, &smp) == 1 && pp_binread_records(r) <= MAX_RECORDS) {
        if (sink_ok && pp_sink_write(s, smp) != PP_OK)
            sink_ok = keep = false;  /* the sink refused it: the round trip stops here */
        if (keep && p->n == p->cap)
            abort();                 /* the reader returned more records than the file holds */
        if (keep)
            memcpy(p->recs + p->rec_len * p->n++, smp, p->rec_len);
    }
    (void)pp_binread_truncated(r);
    (void)pp_binread_partial_bytes(r);
    (void)pp_binread_errmsg(r);
    if (sink_ok)
        (void)pp_sink_end(s, pp_binread_summary(r, &sum) ? &sum : NULL);
    pp_binread_free(r);
    fclose(in);
}

static void text_sinks(const uint8_t *data, size_t size)
{
    static const struct pp_sink_opts opts[] = {
        { .metrics = true }, { .long_form = true, .sep = ';' }, { .perf_x = true, .sep = '|' },
    };
    const char *const *fmt = pp_sink_formats();
    char err[256];

    for (; *fmt; fmt++) {
        if (strcmp(*fmt, "bin") == 0)
            continue;
        for (unsigned i = 0; i < (strcmp(*fmt, "csv") == 0 ? 3u : 1u); i++) {
            struct pp_sink *s = pp_sink_new(*fmt, null_out(), &opts[i], err, sizeof err);

            if (!s)
                abort();
            replay(data, size, s, NULL);
            pp_sink_free(s);
        }
    }
}

/* A DROP record's core and value arrays are unused: the bin sink writes
 * zeros there (sink_bin.c), so only its head must survive. */
static bool same_record(const uint8_t *a, const uint8_t *b, size_t len)
{
    const struct pp_cap_sample *s = (const struct pp_cap_sample *)a;

    return memcmp(a, b, s->kind == PP_CAP_DROP ? sizeof(*s) : len) == 0;
}

/* convert --format bin, then the result read back. */
static void round_trip(const uint8_t *data, size_t size)
{
    struct pass first = { 0 }, again = { 0 };
    char *buf = NULL, err[256];
    size_t len = 0;
    FILE *out = open_memstream(&buf, &len);
    struct pp_sink *s;

    if (!out)
        abort();
    s = pp_sink_new("bin", out, NULL, err, sizeof err);
    if (!s)
        abort();
    replay(data, size, s, &first);
    pp_sink_free(s);
    fclose(out);
    if (len)
        replay((const uint8_t *)buf, len, NULL, &again);
    if (first.n && (again.rec_len != first.rec_len || again.n != first.n))
        abort();             /* the bin sink lost records or changed the description */
    for (size_t i = 0; i < first.n; i++)
        if (!same_record(first.recs + i * first.rec_len, again.recs + i * first.rec_len,
                         first.rec_len))
            abort();         /* the bin sink wrote what the reader reads differently */
    free(first.recs);
    free(again.recs);
    free(buf);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0)
        return 0;   /* fmemopen refuses a zero-size buffer */
    text_sinks(data, size);
    round_trip(data, size);
    return 0;
}

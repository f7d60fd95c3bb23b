/*
 * sink.h - where a capture's records go: csv, jsonl, perf, trace or bin
 * (internal API used by the capture engine's writer thread and by
 * `pmuprobe convert`).
 *
 * A sink turns the records of lib/capture/record.h into one output
 * format on a FILE the caller opened (and closes).  Calls go
 * begin(meta), write(record)..., end(summary); every format records gaps
 * (GAP cores with their cause), untrusted deltas (DISCONT) and DROP
 * records explicitly, and the output is complete and parseable once
 * end() has returned.  Nothing here prints to stderr: errors are return
 * values plus pp_sink_errmsg().
 */
#ifndef PP_CAP_SINK_H
#define PP_CAP_SINK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "capture/record.h"

struct pp_sink_opts {
    bool long_form;      /* csv: one row per sample per core per event */
    char sep;            /* csv separator; 0 = ',' */
    bool perf_x;         /* csv in `perf stat -x SEP -I` field order */
    bool metrics;        /* add the derived metrics (csv, jsonl, perf, trace) */
    const char *name;    /* the output's name for messages ("run.csv");
                          * NULL = "output".  Added beside the brief's
                          * fields so a write error can name the file. */
    bool live;           /* a capture's own output (stream): text formats
                          * reach a pipe or file as pp_sink_flush_due says;
                          * off for convert, which only needs the end */
};

struct pp_sink;

/*
 * A sink of `format` ("csv", "jsonl", "perf", "trace", "bin") writing to
 * out.  o may be NULL (all defaults).  Unknown format: NULL, and err
 * says "did you mean" or lists the formats.  Does not write anything yet.
 */
struct pp_sink *pp_sink_new(const char *format, FILE *out, const struct pp_sink_opts *o,
                            char *err, size_t n);

/*
 * The capture's description; call once, before any write.  Writes the
 * format's header (csv header row, jsonl meta object, bin header...).
 * Returns PP_OK, PP_E_INVAL (meta out of bounds, called twice) or
 * PP_E_IO (the output failed; see pp_sink_errmsg).
 */
int pp_sink_begin(struct pp_sink *s, const struct pp_cap_meta *m);

/*
 * One record: a PP_CAP_SAMPLE or a PP_CAP_DROP, laid out as record.h says
 * (ncores and nvals must match the meta).  Returns PP_OK, PP_E_INVAL or
 * PP_E_IO.  After a PP_E_IO every later call returns PP_E_IO at once.
 */
int pp_sink_write(struct pp_sink *s, const struct pp_cap_sample *smp);

/*
 * The trailer (summary, closing brackets) and an fflush.  sum may be NULL
 * when there is no summary (the trailer then says so).  Returns PP_OK or
 * PP_E_IO (a full disk often shows only here, at the flush).
 */
int pp_sink_end(struct pp_sink *s, const struct pp_cap_summary *sum);

/*
 * Live text output: whether text written since *last_ns (CLOCK_MONOTONIC,
 * updated when true) should be flushed now, after a record.  After every
 * record at an interval of 100 ms or more; at faster rates (and
 * interval 0) at most every 100 ms, so a reader (a pipe, tail -f) gets
 * each line within one interval or about 100 ms, a kill -9 loses no more,
 * and a fast capture pays a handful of write(2) calls a second.
 */
#define PP_SINK_FLUSH_NS 100000000ull
bool pp_sink_flush_due(uint64_t interval_ns, uint64_t *last_ns);

/* Bytes written to the output so far: all those handed to it while it
 * works; once it failed, those it had taken at its last successful flush
 * (a buffer that met a full disk never reached it). */
uint64_t pp_sink_bytes(const struct pp_sink *s);

/* Why the last call failed ("writing run.csv: No space left on device");
 * "" when nothing failed.  Never NULL. */
const char *pp_sink_errmsg(const struct pp_sink *s);

/* The format's name ("csv"). */
const char *pp_sink_format(const struct pp_sink *s);

/* Frees the sink; does not fclose out.  NULL is fine. */
void pp_sink_free(struct pp_sink *s);

/* NULL-terminated list of the format names. */
const char *const *pp_sink_formats(void);

/* ---- for the format files (sink_*.c) --------------------------------------- */

/*
 * One per format, like struct pp_bus_ops.  Each hook returns PP_OK or a
 * pp_err; output goes only through pp_sink_put() (so bytes are counted
 * and write errors are caught in one place).  priv is the format's state,
 * allocated by init and freed by fini.
 */
struct pp_sink_ops {
    const char *name;
    bool binary;         /* never flushed per record (opts.live): a reader of
                          * bin needs whole records, and the 1 M samples/s
                          * pipeline stays one write(2) per stdio buffer */
    int  (*init)(struct pp_sink *s);                               /* optional */
    int  (*begin)(struct pp_sink *s, const struct pp_cap_meta *m);
    int  (*write)(struct pp_sink *s, const struct pp_cap_sample *smp);
    int  (*end)(struct pp_sink *s, const struct pp_cap_summary *sum);
    void (*fini)(struct pp_sink *s);                               /* optional */
};

extern const struct pp_sink_ops pp_sink_csv_ops;
extern const struct pp_sink_ops pp_sink_jsonl_ops;
extern const struct pp_sink_ops pp_sink_perf_ops;
extern const struct pp_sink_ops pp_sink_trace_ops;
extern const struct pp_sink_ops pp_sink_bin_ops;

struct pp_sink {
    const struct pp_sink_ops *ops;
    FILE *out;
    struct pp_sink_opts opts;        /* sep filled in, name never NULL */
    const struct pp_cap_meta *meta;  /* set by begin; the caller keeps it alive */
    void *priv;
    uint64_t bytes;                  /* handed to out */
    uint64_t flushed_bytes;          /* of them, flushed without an error */
    uint64_t flushed_ns;             /* opts.live: the last flush */
    int failed;                      /* sticky pp_err once the output failed */
    bool begun, ended;
    char errmsg[256];
};

/* Writes n bytes; PP_OK or PP_E_IO with errmsg naming the output. */
int pp_sink_put(struct pp_sink *s, const void *buf, size_t n);

/*
 * Text helpers shared by the text formats.  They format into a caller's
 * buffer and return the position after the text (no NUL), because the
 * hot paths build a whole line and hand it over with one pp_sink_put:
 * snprintf per field costs more than the rest of a row (locale and format
 * parsing each call), and would cap csv well below 200,000 samples/s.
 */
char *pp_fmt_u64(char *p, uint64_t v);                 /* "12345" */
char *pp_fmt_u64_grouped(char *p, uint64_t v);         /* "12,345" */
char *pp_fmt_ns_as_s(char *p, uint64_t ns);            /* "1.000123456" */
char *pp_fmt_ns_as_us(char *p, uint64_t ns);           /* "1000123.456" */
char *pp_fmt_double(char *p, double v, unsigned decimals); /* "1.234"; nan -> "nan" */
char *pp_fmt_str(char *p, const char *str);            /* copy */
/* A JSON string literal with its quotes, escaping as RFC 8259 requires;
 * at most 6 * strlen(str) + 2 bytes. */
char *pp_fmt_json_str(char *p, const char *str);

/* Time of a sample relative to the capture's start (0 when earlier). */
static inline uint64_t pp_sink_rel_ns(const struct pp_cap_meta *m, uint64_t t_ns)
{
    return t_ns > m->start_mono_ns ? t_ns - m->start_mono_ns : 0;
}

/* "ok", "discont", "gap", "drop" */
const char *pp_sink_status_name(unsigned status);
/* DISCONT reasons as "power+reset"; "" when none; buf of n bytes. */
const char *pp_sink_why_names(unsigned why, char *buf, size_t n);
/* "done", "signal", "link", "sink" */
const char *pp_sink_stop_name(int stop);

#endif

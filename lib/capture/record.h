/*
 * record.h - what a capture produces: its description, its samples and its
 * summary (internal API shared by the engine, the ring and the sinks).
 *
 * The engine (capture.c) fills these; the ring (ring.c) carries samples
 * between the sampler thread and the writer thread as fixed-size slots;
 * the sinks (sink_*.c) turn them into csv, jsonl, perf, trace and bin.
 * One sample covers every core of the capture: one bus batch, one read
 * window, one record (design.md rule 1).
 */
#ifndef PP_CAP_RECORD_H
#define PP_CAP_RECORD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define PP_CAP_MAX_CORES   64u
#define PP_CAP_MAX_EVENTS  32u   /* per core: up to 31 event counters + cycles */
#define PP_CAP_MAX_METRICS 8u    /* derived metrics per core */
#define PP_CAP_NAME_LEN    48u

/* One counted event of one core, as the user asked for it. */
struct pp_cap_event {
    char     name[PP_CAP_NAME_LEN];  /* as asked ("cycles", "L1D_CACHE_REFILL", "r0x42:u") */
    char     mnemonic[PP_CAP_NAME_LEN]; /* catalog mnemonic ("CPU_CYCLES"), or "raw 0x42" */
    uint16_t code;                   /* event number (0x11 for the cycle counter) */
    uint8_t  counter;                /* PMEVCNTR<n>, or 31 for PMCCNTR */
};

/* A derived metric: num / den * scale over one interval's deltas, where
 * num and den index the core's events.  "IPC" = instructions / cycles. */
struct pp_cap_metric {
    char     name[PP_CAP_NAME_LEN];  /* "IPC", "L1D MPKI", "branch miss %" */
    uint8_t  num, den;               /* indices into pp_cap_core.ev */
    double   scale;                  /* 1, 1000, 100 */
};

struct pp_cap_core {
    unsigned cpu;                    /* logical cpu number of the target */
    char     type[24];               /* core type name ("cortex-a76") */
    unsigned nev;
    struct pp_cap_event ev[PP_CAP_MAX_EVENTS];
    unsigned first;                  /* index of ev[0] in a sample's values */
    unsigned nmetrics;
    struct pp_cap_metric metric[PP_CAP_MAX_METRICS];
};

/* The description of a capture: fixed before the first sample. */
struct pp_cap_meta {
    char     target[64];             /* target name */
    char     probe[64];              /* access path ("sim", "rbb:localhost:9999") */
    uint64_t interval_ns;            /* requested; 0 = as fast as the path allows */
    uint64_t start_mono_ns;          /* CLOCK_MONOTONIC at the start */
    uint64_t start_real_ns;          /* CLOCK_REALTIME at the same instant */
    bool     realtime;               /* samples carry t_real_ns */
    bool     snapshot;               /* counters read from snapshot copies */
    uint32_t tck_hz;                 /* the link's TCK as set by pmuprobe (FTDI);
                                      * 0: not known (no JTAG, or set by the
                                      * remote_bitbang server or OpenOCD) */
    unsigned ncores;
    unsigned nvals;                  /* sum of core[k].nev */
    struct pp_cap_core core[PP_CAP_MAX_CORES];
};

/* Per-core state in one sample. */
enum pp_cap_status {
    PP_CAP_OK      = 0,              /* values and deltas trusted */
    PP_CAP_DISCONT = 1,              /* values read, some deltas untrusted (why) */
    PP_CAP_GAP     = 2,              /* no values: the core could not be read (cause) */
};

struct pp_cap_cstat {
    uint8_t  status;                 /* enum pp_cap_status */
    uint8_t  cause;                  /* GAP: enum pp_cause (pmu/diag.h); else 0 */
    uint16_t why;                    /* PP_EXT_WHY_* bits (pmu/extend.h) */
    uint32_t discont;                /* bit i: ev[i]'s delta is untrusted (0 reported) */
};

struct pp_cap_val {
    uint64_t total;                  /* 64-bit count since the capture started */
    uint64_t delta;                  /* since the previous sample; 0 if untrusted */
};

enum pp_cap_kind {
    PP_CAP_SAMPLE = 0,               /* a sample */
    PP_CAP_DROP   = 1,               /* samples lost to a full ring (drop policy)
                                      * or missed (--duration, sampler.c):
                                      * seq .. seq + dropped - 1 are missing */
};

/*
 * A record in the ring and at a sink's door.  Fixed header, then ncores
 * struct pp_cap_cstat, then nvals struct pp_cap_val (all 8-byte aligned).
 * pp_cap_record_size(meta) is its size; a DROP record has the same size
 * and its arrays are unused.
 */
struct pp_cap_sample {
    uint32_t kind;                   /* enum pp_cap_kind */
    uint32_t ncores, nvals;
    uint32_t dropped;                /* DROP: samples lost */
    uint64_t seq;                    /* 0, 1, 2, ... (counts dropped ones too) */
    uint64_t t_start_ns, t_end_ns;   /* CLOCK_MONOTONIC around the read window */
    uint64_t t_real_ns;              /* CLOCK_REALTIME at t_start, when meta.realtime */
    uint64_t late_ns;                /* how far after its deadline the read started */
};

static inline size_t pp_cap_record_size(const struct pp_cap_meta *m)
{
    return sizeof(struct pp_cap_sample) + m->ncores * sizeof(struct pp_cap_cstat) +
           m->nvals * sizeof(struct pp_cap_val);
}

static inline struct pp_cap_cstat *pp_cap_cstats(struct pp_cap_sample *s)
{
    return (struct pp_cap_cstat *)(s + 1);
}

static inline const struct pp_cap_cstat *pp_cap_cstats_c(const struct pp_cap_sample *s)
{
    return (const struct pp_cap_cstat *)(s + 1);
}

static inline struct pp_cap_val *pp_cap_vals(struct pp_cap_sample *s)
{
    return (struct pp_cap_val *)(pp_cap_cstats(s) + s->ncores);
}

static inline const struct pp_cap_val *pp_cap_vals_c(const struct pp_cap_sample *s)
{
    return (const struct pp_cap_val *)(pp_cap_cstats_c(s) + s->ncores);
}

/* A metric's value over one interval from the core's slice of values (v =
 * vals + core->first).  false when the denominator is 0 or a delta is
 * untrusted (discont bit set), so no sink prints a made-up ratio. */
static inline bool pp_cap_metric_eval(const struct pp_cap_metric *m, const struct pp_cap_val *v,
                                      uint32_t discont, double *out)
{
    if ((discont >> m->num & 1u) || (discont >> m->den & 1u) || v[m->den].delta == 0)
        return false;
    *out = (double)v[m->num].delta / (double)v[m->den].delta * m->scale;
    return true;
}

/* The end of a capture, for the summary and the sinks' trailers. */
enum pp_cap_stop {
    PP_CAP_STOP_DONE = 0,            /* duration or count reached */
    PP_CAP_STOP_SIGNAL,              /* SIGINT / SIGTERM / caller's stop flag */
    PP_CAP_STOP_LINK,                /* the access path died */
    PP_CAP_STOP_SINK,                /* the output failed (disk full, closed pipe) */
};

#define PP_CAP_NCAUSES 16u           /* enough for enum pp_cause */

struct pp_cap_summary {
    enum pp_cap_stop stop;
    char     stop_msg[256];          /* why, in words, for LINK and SINK */
    uint64_t samples;                /* taken by the sampler */
    uint64_t written;                /* handed to the sink */
    uint64_t late;                   /* samples started after their deadline */
    uint64_t dropped;                /* lost to a full ring (drop policy), or missed */
    uint64_t missed;                 /* of dropped: never taken, their time passed
                                      * while the sampler was busy (--duration) */
    uint64_t blocked_ns;             /* sampler time spent waiting for the ring (block policy) */
    double   requested_hz, achieved_hz;
    uint64_t jitter_p50_ns, jitter_p99_ns, jitter_max_ns; /* |interval - requested| */
    uint64_t elapsed_ns;
    uint64_t bytes;                  /* written by the sink */
    uint64_t gaps[PP_CAP_MAX_CORES][PP_CAP_NCAUSES]; /* gap samples per core and cause */
    uint64_t bus_round_trips, bus_tck; /* from pp_bus_get_stats over the capture */
};

#endif

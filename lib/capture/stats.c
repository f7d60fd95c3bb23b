/*
 * stats.c - what the summary says about timing: interval jitter
 * percentiles from a histogram (a capture of hours at 10 kHz must not
 * keep every interval), late samples, achieved rate, and the gaps per
 * core and cause the sampler counted.
 */
#include <string.h>

#include "capture/engine.h"

static unsigned msb64(uint64_t v)
{
    unsigned n = 0;

    while (v >>= 1)
        n++;
    return n;
}

/* Exact below 64; above, 32 buckets per power of two. */
static unsigned bucket_of(uint64_t v)
{
    unsigned msb, shift;

    if (v < 64)
        return (unsigned)v;
    msb = msb64(v);                          /* 6..63 */
    shift = msb - 5;
    return 64u + (msb - 6u) * CAP_HIST_SUB + (unsigned)((v >> shift) - CAP_HIST_SUB);
}

/* The middle of a bucket's range, as the value it stands for. */
static uint64_t bucket_value(unsigned b)
{
    unsigned msb, shift;
    uint64_t lo;

    if (b < 64)
        return b;
    msb = 6u + (b - 64u) / CAP_HIST_SUB;
    shift = msb - 5;
    lo = (uint64_t)(CAP_HIST_SUB + (b - 64u) % CAP_HIST_SUB) << shift;
    return lo + ((1ull << shift) >> 1);
}

void cap_hist_add(struct cap_hist *h, uint64_t v)
{
    h->bucket[bucket_of(v)]++;
    h->n++;
    if (v > h->max)
        h->max = v;
}

uint64_t cap_hist_quantile(const struct cap_hist *h, double p)
{
    uint64_t rank, seen = 0;

    if (h->n == 0)
        return 0;
    rank = (uint64_t)(p * (double)h->n);
    if (rank >= h->n)
        rank = h->n - 1;
    for (unsigned b = 0; b < CAP_HIST_BUCKETS; b++) {
        seen += h->bucket[b];
        if (seen > rank) {
            uint64_t v = bucket_value(b);

            return v > h->max ? h->max : v;
        }
    }
    return h->max;
}

/* |(t - prev) - I| without wrapping: a path's estimate may put a sample
 * before the previous one (docs/reliability.md), which is then that much
 * more than an interval off, never 2^64 ns. */
static uint64_t interval_error(uint64_t prev, uint64_t t, uint64_t I)
{
    uint64_t d;

    if (t < prev)
        return I + (prev - t);
    d = t - prev;
    return d > I ? d - I : I - d;
}

/* Per sample, on the sampler thread: lateness and the interval since the
 * previous sample's start, against the one asked for. */
void cap_stats_sample(struct pp_cap *c, uint64_t t_start, uint64_t deadline)
{
    uint64_t I = c->cfg.interval_ns;

    if (I && t_start > deadline && t_start - deadline > I / 2)
        atomic_fetch_add_explicit(&c->n_late, 1, memory_order_relaxed);
    if (c->last_start) {
        cap_hist_add(&c->jitter, interval_error(c->last_start, t_start, I));
    } else {
        c->first_start = t_start;
    }
    c->last_start = t_start;
}

/* On the writer thread once the sampler is done (its fields are final). */
void cap_stats_summary(struct pp_cap *c, struct pp_cap_summary *s)
{
    uint64_t n = atomic_load(&c->n_samples);
    uint64_t span = c->last_start > c->first_start ? c->last_start - c->first_start : 0;
    struct pp_bus_stats b;

    s->samples = n;
    s->late = atomic_load(&c->n_late);
    s->dropped = atomic_load(&c->n_dropped);
    s->missed = atomic_load(&c->n_missed);
    s->blocked_ns = atomic_load(&c->blocked_ns);
    s->requested_hz = c->cfg.interval_ns ? 1e9 / (double)c->cfg.interval_ns : 0.0;
    s->achieved_hz = n > 1 && span ? (double)(n - 1) * 1e9 / (double)span : 0.0;
    s->jitter_p50_ns = cap_hist_quantile(&c->jitter, 0.50);
    s->jitter_p99_ns = cap_hist_quantile(&c->jitter, 0.99);
    s->jitter_max_ns = c->jitter.max;
    s->elapsed_ns = c->t_stop - c->t0;
    pp_bus_get_stats(c->cfg.bus, &b);
    s->bus_round_trips = b.round_trips - c->bus0.round_trips;
    s->bus_tck = b.tck - c->bus0.tck;
}

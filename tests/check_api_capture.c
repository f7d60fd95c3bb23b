/*
 * check_api_capture.c - the public capture API (lib/pmuprobe.h, section
 * "capture") as a program linked against the shared libpmuprobe sees it:
 * callback and pull modes, gaps with their cause, stop, statistics, the
 * file sink.  Linked against lib/libpmuprobe.la: nothing internal.
 */
#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pmuprobe.h"

/* enum pp_cause values fixed by the public API (PP_CAUSE_CORE_OFF). */
#define CAUSE_CORE_OFF 2
#define MAX_SLICES     4096
#define NEV            2

static const unsigned cpu01[] = { 0, 1 };

/* What a test saw, slice by slice, in arrival order. */
struct seen {
    struct pp_capture *cap;      /* for stopping from the callback */
    size_t n;
    struct pp_sample s[MAX_SLICES];
    uint64_t v[MAX_SLICES][NEV], d[MAX_SLICES][NEV];
    /* fault test: stop once cpu1 was seen off and cpu0 read after it */
    uint64_t off_seq;
    bool off_seen, stopped;
    bool overflow;               /* more slices came than s[] holds */
};

/* Runs on the engine's writer thread: a failed assertion here would
 * longjmp out of another thread's stack (CK_FORK=no under valgrind), so
 * the overflow is recorded and asserted after the capture ended. */
static void keep(struct seen *w, const struct pp_sample *s)
{
    if (w->n >= MAX_SLICES) {
        w->overflow = true;
        return;
    }
    w->s[w->n] = *s;
    for (unsigned i = 0; i < s->nvalues && i < NEV; i++) {
        w->v[w->n][i] = s->values[i];
        w->d[w->n][i] = s->deltas[i];
    }
    w->s[w->n].values = w->s[w->n].deltas = NULL;    /* not valid past here */
    w->n++;
}

static void on_sample(void *user, const struct pp_sample *s)
{
    keep(user, s);
}

static struct pp_session *open_sim(int sim_time, const char *fault)
{
    const char *faults[1] = { fault };
    struct pp_open_opts o = { .sim_time = sim_time, .faults = faults, .nfaults = fault ? 1 : 0 };
    struct pp_session *s = NULL;
    char err[256];
    int rc = pp_session_open("a76-cluster", "sim", &o, &s, err, sizeof(err));

    ck_assert_msg(rc == PP_OK, "%s", err);
    return s;
}

static struct pp_capture *start(struct pp_session *s, const struct pp_capture_opts *o)
{
    struct pp_capture *c = NULL;
    char err[512] = "";
    int rc = pp_capture_start(s, o, &c, err, sizeof(err));

    ck_assert_msg(rc == PP_OK, "pp_capture_start: %s: %s", pp_errname(rc), err);
    ck_assert_ptr_nonnull(c);
    return c;
}

/* Pulls every slice until the end, keeping them in w unless it is NULL;
 * returns how many. */
static size_t pull_all(struct pp_capture *c, struct seen *w)
{
    struct pp_sample s;
    size_t n = 0;
    int rc;

    while ((rc = pp_capture_next(c, &s, UINT64_MAX)) == 1) {
        if (w)
            keep(w, &s);
        n++;
    }
    ck_assert_int_eq(rc, PP_CAPTURE_END);
    ck_assert_int_eq(pp_capture_next(c, &s, 0), PP_CAPTURE_END);
    return n;
}

/* count intervals on cpu0,1: count + 1 samples of each core, in seq
 * order, core by core; a baseline of zeros, then totals that grow by
 * their deltas. */
static void check_counted(const struct seen *w, uint64_t count)
{
    ck_assert_uint_eq(w->n, 2 * (count + 1));
    for (size_t j = 0; j < w->n; j++) {
        const struct pp_sample *s = &w->s[j];

        ck_assert_uint_eq(s->seq, j / 2);
        ck_assert_uint_eq(s->core, j % 2);
        ck_assert_uint_eq(s->cpu, j % 2);
        ck_assert(!s->gap);
        ck_assert_uint_eq(s->nvalues, NEV);
        ck_assert(s->baseline == (s->seq == 0));
        if (s->baseline) {
            ck_assert_uint_eq(w->d[j][0], 0);
            continue;
        }
        ck_assert_uint_eq(s->discont, 0);
        for (unsigned i = 0; i < NEV; i++) {
            ck_assert_uint_gt(w->v[j][i], w->v[j - 2][i]);
            ck_assert_uint_eq(w->d[j][i], w->v[j][i] - w->v[j - 2][i]);
        }
        ck_assert_uint_ge(s->t_ns, w->s[j - 2].t_ns);
    }
}

START_TEST(callback_gets_count_plus_one_samples_per_core_with_growing_totals)
{
    struct pp_session *s = open_sim(PP_SIM_TIME_DETERMINISTIC, NULL);
    struct seen *w = calloc(1, sizeof(*w));
    const struct pp_capture_opts o = {
        .events = "cycles,instructions", .cpus = cpu01, .ncpus = 2, .interval_ns = 1000000,
        .count = 5, .on_sample = on_sample, .user = w,
    };
    struct pp_capture *c = start(s, &o);
    struct pp_sample x;

    ck_assert_int_eq(pp_capture_wait(c, UINT64_MAX), 1);
    check_counted(w, 5);
    ck_assert_uint_eq(pp_capture_ncores(c), 2);
    ck_assert_uint_eq(pp_capture_cpu(c, 1), 1);
    ck_assert_uint_eq(pp_capture_cpu(c, 2), UINT32_MAX);
    ck_assert_uint_eq(pp_capture_nevents(c), 2);
    ck_assert_str_eq(pp_capture_event_name(c, 1), "instructions");
    ck_assert_ptr_null(pp_capture_event_name(c, 2));
    ck_assert_int_eq(pp_capture_next(c, &x, 0), PP_E_INVAL);     /* not in pull mode */
    ck_assert_int_eq(pp_capture_close(c), PP_OK);
    pp_session_close(s);
    free(w);
}
END_TEST

START_TEST(pull_returns_the_same_samples_and_then_the_end)
{
    struct pp_session *s = open_sim(PP_SIM_TIME_DETERMINISTIC, NULL);
    struct seen *w = calloc(1, sizeof(*w));
    const struct pp_capture_opts o = {
        .events = "cycles,instructions", .cpus = cpu01, .ncpus = 2, .interval_ns = 1000000,
        .count = 5,
    };
    struct pp_capture *c = start(s, &o);
    struct pp_capture_stats st;

    pull_all(c, w);
    check_counted(w, 5);
    ck_assert_int_eq(pp_capture_wait(c, UINT64_MAX), 1);
    ck_assert_int_eq(pp_capture_stats(c, &st), PP_OK);
    ck_assert_int_eq(st.stop, PP_CAPTURE_DONE);
    ck_assert_int_eq(pp_capture_close(c), PP_OK);
    pp_session_close(s);
    free(w);
}
END_TEST

/* A queue of one sample and a puller that does not pull yet: the capture
 * cannot end (the writer waits), and once pulled nothing is missing. */
START_TEST(a_full_pull_queue_holds_the_writer_and_loses_nothing)
{
    struct pp_session *s = open_sim(PP_SIM_TIME_DETERMINISTIC, NULL);
    struct seen *w = calloc(1, sizeof(*w));
    const struct pp_capture_opts o = {
        .events = "cycles,instructions", .cpus = cpu01, .ncpus = 2, .count = 300, .queue = 1,
    };
    struct pp_capture *c = start(s, &o);
    struct pp_capture_stats st;

    ck_assert_int_eq(pp_capture_wait(c, 20000000), 0);
    pull_all(c, w);
    ck_assert_int_eq(pp_capture_wait(c, UINT64_MAX), 1);
    check_counted(w, 300);
    ck_assert_int_eq(pp_capture_stats(c, &st), PP_OK);
    ck_assert_uint_eq(st.samples, 301);
    ck_assert_uint_eq(st.written, 301);
    ck_assert_uint_eq(st.dropped, 0);
    ck_assert_int_eq(pp_capture_close(c), PP_OK);
    pp_session_close(s);
    free(w);
}
END_TEST

static void stop_after_core_off(void *user, const struct pp_sample *s)
{
    struct seen *w = user;

    keep(w, s);
    if (s->cpu == 1 && s->gap && s->cause == CAUSE_CORE_OFF && !w->off_seen) {
        w->off_seen = true;
        w->off_seq = s->seq;
    }
    if (w->off_seen && s->cpu == 0 && s->seq > w->off_seq + 2 && !w->stopped) {
        w->stopped = true;
        pp_capture_stop(w->cap);
    }
}

/* cpu1 powers off 20 ms into the simulated SoC's (wall-clock) time, which
 * on a slow host (valgrind, load) may be before the capture programs it:
 * then its gaps start at once.  The capture stops from the callback once
 * cpu1 was seen off and cpu0 read on after it; its count only bounds a
 * capture where that never happens (then the test fails, not hangs). */
START_TEST(a_core_powered_off_is_a_core_off_gap_and_the_others_go_on)
{
    struct pp_session *s = open_sim(PP_SIM_TIME_REALTIME, "cpu1:off@20ms");
    struct seen *w = calloc(1, sizeof(*w));
    const struct pp_capture_opts o = {
        .events = "cycles,instructions", .cpus = cpu01, .ncpus = 2, .interval_ns = 1000000,
        .count = MAX_SLICES / 2 - 1, .on_sample = stop_after_core_off, .user = w,
    };
    struct pp_capture_stats st;
    uint64_t gaps = 0, off = 0;

    w->cap = start(s, &o);
    ck_assert_int_eq(pp_capture_wait(w->cap, UINT64_MAX), 1);
    ck_assert(!w->overflow);
    ck_assert_msg(w->stopped, "cpu1 never seen off (core-off gap) with cpu0 read after it, "
                  "in %zu slices", w->n);
    for (size_t j = 0; j < w->n; j++) {
        const struct pp_sample *x = &w->s[j];

        if (x->cpu == 0)
            ck_assert_msg(!x->gap, "cpu0 gap at seq %llu", (unsigned long long)x->seq);
        if (x->gap) {
            ck_assert_uint_eq(x->nvalues, 0);
            ck_assert_ptr_null(x->values);
            gaps++;
        }
        if (x->cpu == 1 && x->seq >= w->off_seq) {
            ck_assert(x->gap);
            ck_assert_int_eq(x->cause, CAUSE_CORE_OFF);
            off++;
        }
    }
    ck_assert_uint_gt(off, 0);
    /* The statistics add up with what arrived. */
    ck_assert_int_eq(pp_capture_stats(w->cap, &st), PP_OK);
    /* Stopped, unless the callback, which runs behind the sampler (by up
     * to the ring's 8192 samples), asked only once every sample of the
     * count had been taken: then the capture was done already (seen on a
     * starved machine under valgrind). */
    if (st.stop != PP_CAPTURE_STOPPED) {
        ck_assert_int_eq(st.stop, PP_CAPTURE_DONE);
        ck_assert_uint_eq(st.samples, o.count + 1);
    }
    ck_assert_uint_eq(st.written * 2, w->n);
    ck_assert_uint_eq(st.samples, st.written + st.dropped);
    ck_assert_uint_eq(st.gap_samples, gaps);
    ck_assert_uint_eq(pp_capture_gaps(w->cap, 1, CAUSE_CORE_OFF), off);
    ck_assert_uint_eq(pp_capture_gaps(w->cap, 0, CAUSE_CORE_OFF), 0);
    ck_assert_int_eq(pp_capture_close(w->cap), PP_OK);
    pp_session_close(s);
    free(w);
}
END_TEST

START_TEST(stop_ends_a_capture_without_limit)
{
    struct pp_session *s = open_sim(PP_SIM_TIME_DETERMINISTIC, NULL);
    const struct pp_capture_opts o = { .cpus = cpu01, .ncpus = 2, .interval_ns = 100000 };
    struct pp_capture *c = start(s, &o);
    struct pp_capture_stats st;
    struct pp_sample x;
    size_t n;

    for (int i = 0; i < 6; i++)
        ck_assert_int_eq(pp_capture_next(c, &x, UINT64_MAX), 1);
    pp_capture_stop(c);
    n = pull_all(c, NULL);
    ck_assert_int_eq(pp_capture_wait(c, UINT64_MAX), 1);
    ck_assert_int_eq(pp_capture_stats(c, &st), PP_OK);
    ck_assert_int_eq(st.stop, PP_CAPTURE_STOPPED);
    ck_assert_uint_eq(st.written * 2, n + 6);
    ck_assert_uint_eq(st.samples, st.written);
    ck_assert_int_eq(pp_capture_close(c), PP_OK);
    pp_session_close(s);
}
END_TEST

/* ---- batches (pp_capture_next_batch) ------------------------------------------ */

#define BMAX 64

/* Caller-owned columns of up to BMAX rows of NEV values, filled with a
 * pattern no call writes, so a row the library left alone shows. */
struct cols {
    uint64_t seq[BMAX], t_ns[BMAX], t_real_ns[BMAX], v[BMAX * NEV], d[BMAX * NEV];
    uint32_t core[BMAX], cpu[BMAX], discont[BMAX];
    int32_t cause[BMAX];
    uint8_t gap[BMAX];
    struct pp_sample_batch b;
};

static struct pp_sample_batch *cols_init(struct cols *k, size_t max)
{
    memset(k, 0xA5, sizeof(*k));
    k->b = (struct pp_sample_batch){
        .max = max, .stride = NEV, .seq = k->seq, .t_ns = k->t_ns, .t_real_ns = k->t_real_ns,
        .core = k->core, .cpu = k->cpu, .gap = k->gap, .cause = k->cause,
        .discont = k->discont, .values = k->v, .deltas = k->d,
    };
    return &k->b;
}

/* Row r of k as the pp_sample pp_capture_next would have given, into w. */
static void keep_row(struct seen *w, const struct cols *k, size_t r)
{
    const struct pp_sample x = {
        .seq = k->seq[r], .t_ns = k->t_ns[r], .t_real_ns = k->t_real_ns[r],
        .core = k->core[r], .cpu = k->cpu[r], .gap = k->gap[r], .cause = k->cause[r],
        .baseline = k->seq[r] == 0, .discont = k->discont[r],
        .nvalues = k->gap[r] ? 0 : NEV, .values = k->v + r * NEV, .deltas = k->d + r * NEV,
    };

    keep(w, &x);
}

/* Pulls batches of up to max rows until the end, keeping every row in w;
 * returns how many batches came. */
static size_t batch_all(struct pp_capture *c, struct seen *w, size_t max)
{
    struct cols *k = malloc(sizeof(*k));
    struct pp_sample_batch *b = cols_init(k, max);
    size_t batches = 0;
    int rc;

    while ((rc = pp_capture_next_batch(c, b, UINT64_MAX)) == 1) {
        ck_assert_uint_ge(b->n, 1);
        ck_assert_uint_le(b->n, max);
        for (size_t r = 0; r < b->n; r++)
            keep_row(w, k, r);
        batches++;
    }
    ck_assert_int_eq(rc, PP_CAPTURE_END);
    ck_assert_uint_eq(b->n, 0);
    free(k);
    return batches;
}

static struct pp_capture *start_counted(struct pp_session *s, uint64_t count)
{
    const struct pp_capture_opts o = {
        .events = "cycles,instructions", .cpus = cpu01, .ncpus = 2, .count = count,
    };

    return start(s, &o);
}

/* Deterministic sim time: two fresh sessions count alike, so one pulled
 * slice by slice and one pulled in batches hold the same rows. */
START_TEST(a_batch_holds_the_rows_single_pulls_give)
{
    struct pp_session *s1 = open_sim(PP_SIM_TIME_DETERMINISTIC, NULL);
    struct pp_session *s2 = open_sim(PP_SIM_TIME_DETERMINISTIC, NULL);
    struct seen *one = calloc(1, sizeof(*one)), *many = calloc(1, sizeof(*many));
    struct pp_capture *c1 = start_counted(s1, 20), *c2 = start_counted(s2, 20);

    pull_all(c1, one);
    batch_all(c2, many, BMAX);
    check_counted(many, 20);
    ck_assert_uint_eq(many->n, one->n);
    for (size_t j = 0; j < one->n; j++) {
        ck_assert_uint_eq(many->s[j].seq, one->s[j].seq);
        ck_assert_uint_eq(many->s[j].core, one->s[j].core);
        ck_assert_uint_eq(many->s[j].cpu, one->s[j].cpu);
        ck_assert_uint_eq(many->s[j].discont, one->s[j].discont);
        for (unsigned i = 0; i < NEV; i++) {
            ck_assert_uint_eq(many->v[j][i], one->v[j][i]);
            ck_assert_uint_eq(many->d[j][i], one->d[j][i]);
        }
    }
    ck_assert_int_eq(pp_capture_close(c1), PP_OK);
    ck_assert_int_eq(pp_capture_close(c2), PP_OK);
    pp_session_close(s1);
    pp_session_close(s2);
    free(one);
    free(many);
}
END_TEST

/* The capture ends before the first pull, so every row is queued: batches
 * of 3 rows split records of 2 cores, and the rows stay in order. */
START_TEST(a_batch_holds_at_most_max_rows)
{
    struct pp_session *s = open_sim(PP_SIM_TIME_DETERMINISTIC, NULL);
    struct seen *w = calloc(1, sizeof(*w));
    struct pp_capture *c = start_counted(s, 9);

    ck_assert_int_eq(pp_capture_wait(c, UINT64_MAX), 1);
    ck_assert_uint_eq(batch_all(c, w, 3), 7);       /* 20 rows: 6 x 3, then 2 */
    check_counted(w, 9);
    ck_assert_int_eq(pp_capture_close(c), PP_OK);
    pp_session_close(s);
    free(w);
}
END_TEST

/* cpu1 powered off from the start: each of its rows is a gap with the
 * cause, its values and deltas zero, never left as the caller's bytes. */
START_TEST(a_gap_row_carries_its_cause_and_zero_values)
{
    struct pp_session *s = open_sim(PP_SIM_TIME_DETERMINISTIC, "cpu1:off");
    struct pp_capture *c = start_counted(s, 4);
    struct cols *k = malloc(sizeof(*k));
    struct pp_sample_batch *b = cols_init(k, BMAX);
    size_t gaps = 0;

    ck_assert_int_eq(pp_capture_wait(c, UINT64_MAX), 1);
    ck_assert_int_eq(pp_capture_next_batch(c, b, 0), 1);
    ck_assert_uint_eq(b->n, 10);
    for (size_t r = 0; r < b->n; r++) {
        ck_assert_uint_eq(k->gap[r], k->cpu[r] == 1);
        ck_assert_int_eq(k->cause[r], k->gap[r] ? CAUSE_CORE_OFF : 0);
        if (!k->gap[r])
            continue;
        gaps++;
        ck_assert_uint_eq(k->discont[r], 0);
        for (unsigned i = 0; i < NEV; i++) {
            ck_assert_uint_eq(k->v[r * NEV + i], 0);
            ck_assert_uint_eq(k->d[r * NEV + i], 0);
        }
    }
    ck_assert_uint_eq(gaps, 5);
    ck_assert_uint_eq(pp_capture_gaps(c, 1, CAUSE_CORE_OFF), 5);
    ck_assert_int_eq(pp_capture_close(c), PP_OK);
    pp_session_close(s);
    free(k);
}
END_TEST

START_TEST(the_end_comes_after_the_last_batch_and_stays)
{
    struct pp_session *s = open_sim(PP_SIM_TIME_DETERMINISTIC, NULL);
    struct pp_capture *c = start_counted(s, 3);
    struct cols *k = malloc(sizeof(*k));
    struct pp_sample_batch *b = cols_init(k, BMAX);
    size_t rows = 0;
    int rc;

    while ((rc = pp_capture_next_batch(c, b, UINT64_MAX)) == 1)
        rows += b->n;
    ck_assert_int_eq(rc, PP_CAPTURE_END);
    ck_assert_uint_eq(rows, 8);
    b->n = 7;
    ck_assert_int_eq(pp_capture_next_batch(c, b, 0), PP_CAPTURE_END);
    ck_assert_uint_eq(b->n, 0);
    ck_assert_int_eq(pp_capture_close(c), PP_OK);
    pp_session_close(s);
    free(k);
}
END_TEST

/* One sample a minute: once the baseline's rows are pulled nothing else
 * is queued for a minute, so a batch waiting 0 or 1 ms times out. */
START_TEST(a_batch_times_out_with_no_rows)
{
    struct pp_session *s = open_sim(PP_SIM_TIME_DETERMINISTIC, NULL);
    const struct pp_capture_opts o = { .events = "cycles,instructions", .cpus = cpu01,
                                       .ncpus = 2, .interval_ns = 60 * 1000000000ull };
    struct pp_capture *c = start(s, &o);
    struct cols *k = malloc(sizeof(*k));
    struct pp_sample_batch *b = cols_init(k, BMAX);
    size_t rows = 0;

    while (rows < 2) {
        ck_assert_int_eq(pp_capture_next_batch(c, b, UINT64_MAX), 1);
        rows += b->n;
    }
    ck_assert_uint_eq(rows, 2);
    ck_assert_int_eq(pp_capture_next_batch(c, b, 0), 0);
    ck_assert_uint_eq(b->n, 0);
    ck_assert_int_eq(pp_capture_next_batch(c, b, 1000000), 0);
    ck_assert_uint_eq(b->n, 0);
    pp_capture_stop(c);
    ck_assert_int_eq(pp_capture_next_batch(c, b, UINT64_MAX), PP_CAPTURE_END);
    ck_assert_int_eq(pp_capture_close(c), PP_OK);
    pp_session_close(s);
    free(k);
}
END_TEST

/* A sample every ms: without fill_ns a batch holds what is queued (the
 * first, the baseline); with it the batch waits until all 20 rows of
 * the capture are there (the end comes long before its 60 s). */
START_TEST(a_batch_with_fill_ns_waits_for_max_rows)
{
    struct pp_session *s = open_sim(PP_SIM_TIME_DETERMINISTIC, NULL);
    const struct pp_capture_opts o = { .events = "cycles,instructions", .cpus = cpu01,
                                       .ncpus = 2, .interval_ns = 1000000, .count = 9 };
    struct pp_capture *c = start(s, &o);
    struct seen *w = calloc(1, sizeof(*w));
    struct cols *k = malloc(sizeof(*k));
    struct pp_sample_batch *b = cols_init(k, 20);

    b->fill_ns = 60 * 1000000000ull;
    ck_assert_int_eq(pp_capture_next_batch(c, b, UINT64_MAX), 1);
    ck_assert_uint_eq(b->n, 20);
    for (size_t r = 0; r < b->n; r++)
        keep_row(w, k, r);
    check_counted(w, 9);
    ck_assert_int_eq(pp_capture_next_batch(c, b, UINT64_MAX), PP_CAPTURE_END);
    ck_assert_int_eq(pp_capture_close(c), PP_OK);
    pp_session_close(s);
    free(k);
    free(w);
}
END_TEST

/* Three single pulls leave cpu1's slice of sample 1 for the batch that
 * follows: every row once, in order. */
START_TEST(single_pulls_and_batches_mix_in_order)
{
    struct pp_session *s = open_sim(PP_SIM_TIME_DETERMINISTIC, NULL);
    struct pp_capture *c = start_counted(s, 9);
    struct seen *w = calloc(1, sizeof(*w));
    struct pp_sample x;

    for (int i = 0; i < 3; i++) {
        ck_assert_int_eq(pp_capture_next(c, &x, UINT64_MAX), 1);
        keep(w, &x);
    }
    batch_all(c, w, 4);
    check_counted(w, 9);
    ck_assert_int_eq(pp_capture_close(c), PP_OK);
    pp_session_close(s);
    free(w);
}
END_TEST

START_TEST(a_malformed_batch_is_refused)
{
    struct pp_session *s = open_sim(PP_SIM_TIME_DETERMINISTIC, NULL);
    struct pp_capture *c = start_counted(s, 1);
    struct cols *k = malloc(sizeof(*k));
    struct pp_sample_batch *b = cols_init(k, BMAX);

    ck_assert_int_eq(pp_capture_next_batch(NULL, b, 0), PP_E_INVAL);
    ck_assert_int_eq(pp_capture_next_batch(c, NULL, 0), PP_E_INVAL);
    b->max = 0;
    ck_assert_int_eq(pp_capture_next_batch(c, b, 0), PP_E_INVAL);
    b->max = BMAX;
    b->stride = NEV - 1;                        /* narrower than the events */
    ck_assert_int_eq(pp_capture_next_batch(c, b, 0), PP_E_INVAL);
    b->stride = NEV;
    b->values = NULL;
    ck_assert_int_eq(pp_capture_next_batch(c, b, 0), PP_E_INVAL);
    ck_assert_int_eq(pp_capture_close(c), PP_OK);
    pp_session_close(s);
    free(k);
}
END_TEST

static uint32_t le32(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static long file_size(FILE *f)
{
    ck_assert_int_eq(fseek(f, 0, SEEK_END), 0);
    return ftell(f);
}

/* Sample records in a bin file (man/pmuprobe-bin.5): header, records of
 * one length, then the trailer with its tag. */
static size_t bin_records(const char *path, unsigned ncores)
{
    unsigned char b[24], tag[4];
    FILE *f = fopen(path, "rb");
    size_t hlen, rlen, tlen, n;
    long size;

    ck_assert_ptr_nonnull(f);
    ck_assert_uint_eq(fread(b, 1, sizeof(b), f), sizeof(b));
    ck_assert_int_eq(memcmp(b, "PMUPROBE", 8), 0);
    hlen = le32(b + 12);
    rlen = le32(b + 16);
    /* Format 1.2 ends the trailer with the missed count. */
    tlen = 384 + 128 * ncores + (b[10] >= 2 ? 8 : 0);
    size = file_size(f);
    ck_assert_uint_eq(((size_t)size - hlen - tlen) % rlen, 0);
    n = ((size_t)size - hlen - tlen) / rlen;
    ck_assert_int_eq(fseek(f, (long)(hlen + n * rlen), SEEK_SET), 0);
    ck_assert_uint_eq(fread(tag, 1, 4, f), 4);
    ck_assert_uint_eq(le32(tag), 0x4C494154);
    fclose(f);
    return n;
}

static size_t csv_rows(const char *path)
{
    char line[1024];
    FILE *f = fopen(path, "r");
    size_t n = 0;

    ck_assert_ptr_nonnull(f);
    while (fgets(line, sizeof(line), f))
        n += line[0] >= '0' && line[0] <= '9';
    fclose(f);
    return n;
}

static void capture_to(const char *format, char *path, size_t pathlen, struct seen *w,
                       struct pp_capture_stats *st)
{
    struct pp_session *s = open_sim(PP_SIM_TIME_DETERMINISTIC, NULL);
    const char *tmp = getenv("TMPDIR");
    struct pp_capture_opts o = {
        .cpus = cpu01, .ncpus = 2, .interval_ns = 1000000, .count = 7, .format = format,
        .on_sample = on_sample, .user = w,
    };
    struct pp_capture *c;

    snprintf(path, pathlen, "%s/check_api_capture.%d.%s", tmp ? tmp : "/tmp", (int)getpid(),
             format);
    o.file = path;
    c = start(s, &o);
    ck_assert_int_eq(pp_capture_wait(c, UINT64_MAX), 1);
    ck_assert_int_eq(pp_capture_stats(c, st), PP_OK);
    ck_assert_int_eq(pp_capture_close(c), PP_OK);
    pp_session_close(s);
}

START_TEST(a_bin_file_holds_every_sample_and_the_callback_still_runs)
{
    struct seen *w = calloc(1, sizeof(*w));
    struct pp_capture_stats st;
    char path[512];

    capture_to("bin", path, sizeof(path), w, &st);
    check_counted(w, 7);
    ck_assert_uint_eq(bin_records(path, 2), 8);
    ck_assert_uint_gt(st.bytes, 0);
    unlink(path);
    free(w);
}
END_TEST

START_TEST(a_csv_file_has_a_row_per_core_and_sample)
{
    struct seen *w = calloc(1, sizeof(*w));
    struct pp_capture_stats st;
    char path[512];

    capture_to("csv", path, sizeof(path), w, &st);
    ck_assert_uint_eq(csv_rows(path), w->n);
    ck_assert_uint_eq(csv_rows(path), 16);
    unlink(path);
    free(w);
}
END_TEST

START_TEST(an_unknown_event_is_not_found_and_named)
{
    struct pp_session *s = open_sim(PP_SIM_TIME_DETERMINISTIC, NULL);
    const struct pp_capture_opts o = { .events = "cycles,bogus_evt", .cpus = cpu01, .ncpus = 2 };
    struct pp_capture *c = (struct pp_capture *)&c;
    struct pp_counters *k;
    char err[512] = "";

    ck_assert_int_eq(pp_capture_start(s, &o, &c, err, sizeof(err)), PP_E_NOTFOUND);
    ck_assert_ptr_null(c);
    ck_assert_msg(strstr(err, "bogus_evt") != NULL, "err: %s", err);
    /* Nothing was taken: the PMU is free for a counter set. */
    ck_assert_int_eq(pp_counters_open(s, 0, "cycles", &k, err, sizeof(err)), PP_OK);
    ck_assert_int_eq(pp_counters_close(k), PP_OK);
    pp_session_close(s);
}
END_TEST

/* Self-hosted software claims cpu0's PMU (claim tag 1 in DBGCLAIMSET,
 * debug + 0xFA0, spec 3): the capture is refused, unless forced. */
START_TEST(a_pmu_in_use_is_refused_unless_forced)
{
    struct pp_session *s = open_sim(PP_SIM_TIME_DETERMINISTIC, NULL);
    struct pp_capture_opts o = { .cpus = cpu01, .ncpus = 1, .count = 1 };
    struct pp_core_info ci;
    struct pp_capture *c;
    char err[1024] = "";
    const char *tmp = getenv("TMPDIR");
    char path[512];

    snprintf(path, sizeof(path), "%s/check_api_capture.%d.busy.csv", tmp ? tmp : "/tmp",
             (int)getpid());
    o.file = path;
    ck_assert_int_eq(pp_session_core(s, 0, &ci), PP_OK);
    ck_assert_int_eq(pp_bus_write32(pp_session_bus(s), ci.debug_base + 0xFA0, 1u << 1), PP_OK);
    ck_assert_int_eq(pp_capture_start(s, &o, &c, err, sizeof(err)), PP_E_BUSY);
    ck_assert_ptr_null(c);
    ck_assert_msg(strstr(err, "cpu0") != NULL, "err: %s", err);
    ck_assert_msg(access(path, F_OK) != 0, "%s left behind", path);   /* no capture, no file */
    o.file = NULL;
    o.flags = PP_CAPTURE_FORCE;
    c = start(s, &o);
    ck_assert_int_eq(pp_capture_wait(c, UINT64_MAX), 1);
    ck_assert_int_eq(pp_capture_close(c), PP_OK);
    pp_session_close(s);
}
END_TEST

START_TEST(bad_options_are_refused_with_a_reason)
{
    struct pp_session *s = open_sim(PP_SIM_TIME_DETERMINISTIC, NULL);
    static const unsigned cpu9[] = { 9 };
    struct pp_capture_opts o = { .count = 1, .duration_ns = 1000000 };
    struct pp_capture *c;
    char err[512] = "";

    ck_assert_int_eq(pp_capture_start(s, &o, &c, err, sizeof(err)), PP_E_INVAL);
    ck_assert_ptr_nonnull(strstr(err, "count"));
    o = (struct pp_capture_opts){ .cpus = cpu9, .ncpus = 1 };
    ck_assert_int_eq(pp_capture_start(s, &o, &c, err, sizeof(err)), PP_E_NOTFOUND);
    ck_assert_ptr_nonnull(strstr(err, "cpu9"));
    o = (struct pp_capture_opts){ .file = "/nonexistent-dir/x.csv" };
    ck_assert_int_eq(pp_capture_start(s, &o, &c, err, sizeof(err)), PP_E_IO);
    ck_assert_ptr_nonnull(strstr(err, "/nonexistent-dir/x.csv"));
    ck_assert_int_eq(pp_capture_start(NULL, &o, &c, NULL, 0), PP_E_INVAL);
    ck_assert_int_eq(pp_capture_close(NULL), PP_OK);
    pp_session_close(s);
}
END_TEST

static Suite *capture_api_suite(void)
{
    Suite *s = suite_create("capture API");
    TCase *modes = tcase_create("modes");
    TCase *ends = tcase_create("gaps and ends");
    TCase *batches = tcase_create("batches");
    TCase *files = tcase_create("files");
    TCase *refusals = tcase_create("refusals");

    tcase_set_timeout(modes, 60);
    tcase_set_timeout(ends, 60);
    tcase_set_timeout(batches, 60);
    tcase_set_timeout(files, 60);
    tcase_add_test(modes, callback_gets_count_plus_one_samples_per_core_with_growing_totals);
    tcase_add_test(modes, pull_returns_the_same_samples_and_then_the_end);
    tcase_add_test(modes, a_full_pull_queue_holds_the_writer_and_loses_nothing);
    tcase_add_test(ends, a_core_powered_off_is_a_core_off_gap_and_the_others_go_on);
    tcase_add_test(ends, stop_ends_a_capture_without_limit);
    tcase_add_test(batches, a_batch_holds_the_rows_single_pulls_give);
    tcase_add_test(batches, a_batch_holds_at_most_max_rows);
    tcase_add_test(batches, a_gap_row_carries_its_cause_and_zero_values);
    tcase_add_test(batches, the_end_comes_after_the_last_batch_and_stays);
    tcase_add_test(batches, a_batch_times_out_with_no_rows);
    tcase_add_test(batches, a_batch_with_fill_ns_waits_for_max_rows);
    tcase_add_test(batches, single_pulls_and_batches_mix_in_order);
    tcase_add_test(batches, a_malformed_batch_is_refused);
    tcase_add_test(files, a_bin_file_holds_every_sample_and_the_callback_still_runs);
    tcase_add_test(files, a_csv_file_has_a_row_per_core_and_sample);
    tcase_add_test(refusals, an_unknown_event_is_not_found_and_named);
    tcase_add_test(refusals, a_pmu_in_use_is_refused_unless_forced);
    tcase_add_test(refusals, bad_options_are_refused_with_a_reason);
    suite_add_tcase(s, modes);
    suite_add_tcase(s, ends);
    suite_add_tcase(s, batches);
    suite_add_tcase(s, files);
    suite_add_tcase(s, refusals);
    return s;
}

int main(void)
{
    SRunner *r = srunner_create(capture_api_suite());
    int failed;

    srunner_run_all(r, CK_NORMAL);
    failed = srunner_ntests_failed(r);
    srunner_free(r);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

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
    ck_assert_int_eq(st.stop, PP_CAPTURE_STOPPED);
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
    TCase *files = tcase_create("files");
    TCase *refusals = tcase_create("refusals");

    tcase_set_timeout(modes, 60);
    tcase_set_timeout(ends, 60);
    tcase_set_timeout(files, 60);
    tcase_add_test(modes, callback_gets_count_plus_one_samples_per_core_with_growing_totals);
    tcase_add_test(modes, pull_returns_the_same_samples_and_then_the_end);
    tcase_add_test(modes, a_full_pull_queue_holds_the_writer_and_loses_nothing);
    tcase_add_test(ends, a_core_powered_off_is_a_core_off_gap_and_the_others_go_on);
    tcase_add_test(ends, stop_ends_a_capture_without_limit);
    tcase_add_test(files, a_bin_file_holds_every_sample_and_the_callback_still_runs);
    tcase_add_test(files, a_csv_file_has_a_row_per_core_and_sample);
    tcase_add_test(refusals, an_unknown_event_is_not_found_and_named);
    tcase_add_test(refusals, a_pmu_in_use_is_refused_unless_forced);
    tcase_add_test(refusals, bad_options_are_refused_with_a_reason);
    suite_add_tcase(s, modes);
    suite_add_tcase(s, ends);
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

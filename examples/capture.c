/*
 * capture.c - a libpmuprobe capture: cycles and instructions on cpu0 and
 * cpu1 every 10 ms for 0.2 s, one line per core and sample from a
 * callback on the capture's writer thread, then the statistics.
 *
 *   cc capture.c $(pkg-config --cflags --libs libpmuprobe) -o capture
 *   ./capture [TARGET [PROBE]]       (default: a76-cluster over "sim")
 */
#include <inttypes.h>
#include <stdio.h>

#include <pmuprobe.h>

/* Called once per core and sample; values and deltas are in the order
 * of opts.events and valid only during the call. */
static void print_sample(void *user, const struct pp_sample *s)
{
    (void)user;
    if (s->gap) {
        printf("%4" PRIu64 " %8.3f ms cpu%u gap (cause %d)\n", s->seq, s->t_ns / 1e6, s->cpu,
               s->cause);
        return;
    }
    printf("%4" PRIu64 " %8.3f ms cpu%u cycles %12" PRIu64 " (+%" PRIu64 ") instructions %12"
           PRIu64 " (+%" PRIu64 ")%s\n", s->seq, s->t_ns / 1e6, s->cpu, s->values[0],
           s->deltas[0], s->values[1], s->deltas[1], s->baseline ? " baseline" : "");
}

int main(int argc, char **argv)
{
    const char *target = argc > 1 ? argv[1] : "a76-cluster";
    const char *probe = argc > 2 ? argv[2] : "sim";
    static const unsigned cpus[] = { 0, 1 };
    const struct pp_capture_opts opts = {
        .events = "cycles,instructions",
        .cpus = cpus, .ncpus = 2,
        .interval_ns = 10 * 1000 * 1000,     /* 10 ms */
        .duration_ns = 200 * 1000 * 1000,    /* 0.2 s */
        .on_sample = print_sample,
    };
    struct pp_capture_stats st;
    struct pp_capture *cap;
    struct pp_session *s;
    char err[512];
    int rc;

    if (pp_session_open(target, probe, NULL, &s, err, sizeof(err)) != PP_OK) {
        fprintf(stderr, "capture: %s\n", err);
        return 1;
    }
    if (pp_capture_start(s, &opts, &cap, err, sizeof(err)) != PP_OK) {
        fprintf(stderr, "capture: %s\n", err);
        pp_session_close(s);
        return 1;
    }
    pp_capture_wait(cap, UINT64_MAX);
    pp_capture_stats(cap, &st);
    printf("samples %" PRIu64 " written %" PRIu64 " late %" PRIu64 " dropped %" PRIu64
           " gaps %" PRIu64 " elapsed %.3f s achieved %.1f/s\n", st.samples, st.written,
           st.late, st.dropped, st.gap_samples, st.elapsed_ns / 1e9, st.achieved_hz);
    rc = pp_capture_close(cap);
    if (rc != PP_OK)
        fprintf(stderr, "capture: %s\n", pp_strerror(rc));
    pp_session_close(s);
    return rc == PP_OK ? 0 : 1;
}

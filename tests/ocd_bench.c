/*
 * ocd_bench.c - what one sample costs through OpenOCD, three ways, side by
 * side in one run (issue 6, "numbers, not adjectives"):
 *
 *   mdw    one `mdw` RPC per register: what a user scripts by hand
 *   block  pmuprobe's batch: one RPC per sample, read_memory per run of
 *          adjacent registers (pp_bus_run)
 *   loop   the OpenOCD-side TCL loop: one RPC for many samples
 *          (pp_bus_run_repeat)
 *
 * A sample is the counters of every core: PMEVCNTR0..N-1 and PMCCNTR at
 * the target's PMU bases (7 registers per Cortex-A53).  Prints one line
 * per mode: samples, seconds, samples/s, RPC round trips per sample.
 *
 *   ocd_bench -t TARGET -P PORT [-n SAMPLES] [-m MODE]... [-L LOOPCHUNK] [-G GAP]
 *
 * -G sets pp_ocd_opts.cover_gap_words for block and loop.
 *
 * With several -m the modes run in that order on one connection each.
 */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bus/bus.h"
#include "bus/ocd_rpc.h"
#include "bus/ocd_tcl.h"
#include "pmu/regs.h"
#include "target/target.h"

#define MAX_OPS 512

struct bench {
    const struct pp_target *t;
    unsigned port;
    unsigned samples, chunk;
    bool gap;
    struct pp_op ops[MAX_OPS];
    size_t n;
};

static double now_s(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Every core's event counters and cycle counter, in address order. */
static void plan(struct bench *b)
{
    b->n = 0;
    for (unsigned c = 0; c < b->t->ncores; c++) {
        const struct pp_core_desc *cd = &b->t->cores[c];
        bool v3 = cd->type->pmu_version >= 3;

        for (unsigned i = 0; i < cd->counters && b->n < MAX_OPS; i++)
            b->ops[b->n++] = (struct pp_op){
                .addr = cd->pmu_base + (v3 ? PP_PMU_PMEVCNTR_V3(i) : PP_PMU_PMEVCNTR_V2(i)) };
        if (b->n < MAX_OPS)
            b->ops[b->n++] = (struct pp_op){
                .addr = cd->pmu_base + (v3 ? PP_PMU_PMCCNTR_V3 : PP_PMU_PMCCNTR_V2) };
    }
}

static void report(const char *mode, unsigned samples, double secs, double rt, size_t n)
{
    printf("%-6s %6u samples x %3zu regs  %7.3f s  %9.1f samples/s  %8.3f RPC round trips/sample\n",
           mode, samples, n, secs, samples / secs, rt / samples);
}

static struct pp_bus *attach(const struct bench *b)
{
    struct pp_ocd_opts o = { .port = b->port, .ap_hint = (int)b->t->ap_index,
                             .cover_gap_words = b->gap };
    char err[256];
    struct pp_bus *bus = pp_bus_ocd_new(&o, err, sizeof(err));

    if (!bus)
        fprintf(stderr, "ocd_bench: %s\n", err);
    return bus;
}

/* One `<target> mdw ADDR` per register, its text parsed as a user's
 * script would: "0x80011000: 0001f2c4 \n". */
static int run_mdw(struct bench *b)
{
    struct pp_bus *bus = attach(b);
    struct pp_ocd_rpc *r;
    char err[256], script[128];
    double t0;

    if (!bus)
        return 1;
    if (pp_ocd_connect("localhost", b->port, 0, &r, err, sizeof(err)) != PP_OK) {
        fprintf(stderr, "ocd_bench: %s\n", err);
        pp_bus_close(bus);
        return 1;
    }
    t0 = now_s();
    for (unsigned s = 0; s < b->samples; s++) {
        for (size_t i = 0; i < b->n; i++) {
            char *reply, *colon;
            size_t len;

            snprintf(script, sizeof(script), "%s mdw 0x%08" PRIx32,
                     pp_bus_ocd_attach_info(bus)->target, b->ops[i].addr);
            if (pp_ocd_exchange(r, script, 0, &reply, &len, err, sizeof(err)) != PP_OK) {
                fprintf(stderr, "ocd_bench: %s\n", err);
                pp_ocd_close(r);
                pp_bus_close(bus);
                return 1;
            }
            colon = strchr(reply, ':');
            b->ops[i].rdata = colon ? (uint32_t)strtoul(colon + 1, NULL, 16) : 0;
            free(reply);
        }
    }
    report("mdw", b->samples, now_s() - t0, (double)pp_ocd_round_trips(r), b->n);
    pp_ocd_close(r);
    pp_bus_close(bus);
    return 0;
}

static int run_block(struct bench *b)
{
    struct pp_bus *bus = attach(b);
    struct pp_bus_stats st;
    double t0;
    int rc = PP_OK;

    if (!bus)
        return 1;
    pp_bus_get_stats(bus, &st);
    uint64_t rt0 = st.round_trips;
    t0 = now_s();
    for (unsigned s = 0; s < b->samples && rc == PP_OK; s++)
        rc = pp_bus_run(bus, b->ops, b->n);
    pp_bus_get_stats(bus, &st);
    if (rc == PP_OK)
        report("block", b->samples, now_s() - t0, (double)(st.round_trips - rt0), b->n);
    else
        fprintf(stderr, "ocd_bench: %s: %s\n", pp_strerror(rc), pp_bus_errmsg(bus));
    pp_bus_close(bus);
    return rc != PP_OK;
}

static int run_loop(struct bench *b)
{
    struct pp_bus *bus = attach(b);
    struct pp_op *ops = calloc((size_t)b->chunk * b->n, sizeof(*ops));
    uint64_t *t_ns = calloc(b->chunk, sizeof(*t_ns));
    struct pp_bus_stats st;
    unsigned done = 0;
    double t0;
    int rc = PP_OK;

    if (!bus || !ops || !t_ns) {
        free(ops);
        free(t_ns);
        pp_bus_close(bus);
        return 1;
    }
    for (unsigned k = 0; k < b->chunk; k++)
        memcpy(ops + (size_t)k * b->n, b->ops, b->n * sizeof(*ops));
    pp_bus_get_stats(bus, &st);
    uint64_t rt0 = st.round_trips;
    t0 = now_s();
    while (done < b->samples && rc == PP_OK) {
        unsigned count = b->samples - done < b->chunk ? b->samples - done : b->chunk;

        rc = pp_bus_run_repeat(bus, ops, b->n, count, 0, t_ns);
        done += count;
    }
    pp_bus_get_stats(bus, &st);
    if (rc == PP_OK)
        report("loop", b->samples, now_s() - t0, (double)(st.round_trips - rt0), b->n);
    else
        fprintf(stderr, "ocd_bench: %s: %s\n", pp_strerror(rc), pp_bus_errmsg(bus));
    free(ops);
    free(t_ns);
    pp_bus_close(bus);
    return rc != PP_OK;
}

static int usage(void)
{
    fprintf(stderr, "usage: ocd_bench -t TARGET -P PORT [-n SAMPLES] [-L CHUNK] "
                    "[-G GAPWORDS] [-m mdw|block|loop]...\n");
    return 2;
}

int main(int argc, char **argv)
{
    struct bench b = { .samples = 100, .chunk = 100 };
    const char *target = NULL, *modes[8];
    unsigned nmodes = 0;
    struct pp_target *t;
    char path[512], err[512];
    int ch, rc = 0;

    while ((ch = getopt(argc, argv, "t:P:n:m:L:G:")) != -1) {
        switch (ch) {
        case 't': target = optarg; break;
        case 'P': b.port = (unsigned)atoi(optarg); break;
        case 'n': b.samples = (unsigned)atoi(optarg); break;
        case 'L': b.chunk = (unsigned)atoi(optarg); break;
        case 'G': b.gap = atoi(optarg) != 0; break;
        case 'm': if (nmodes < 8) modes[nmodes++] = optarg; break;
        default: return usage();
        }
    }
    if (!target || !b.port || !b.samples || !b.chunk)
        return usage();
    if (pp_target_find(target, path, sizeof(path)) != PP_OK
        || pp_target_load(path, &t, err, sizeof(err)) != PP_OK) {
        fprintf(stderr, "ocd_bench: target %s: %s\n", target, err);
        return 1;
    }
    b.t = t;
    plan(&b);
    if (!nmodes) {
        modes[nmodes++] = "mdw";
        modes[nmodes++] = "block";
        modes[nmodes++] = "loop";
    }
    for (unsigned i = 0; i < nmodes && !rc; i++) {
        if (strcmp(modes[i], "mdw") == 0)
            rc = run_mdw(&b);
        else if (strcmp(modes[i], "block") == 0)
            rc = run_block(&b);
        else if (strcmp(modes[i], "loop") == 0)
            rc = run_loop(&b);
        else
            rc = usage();
        fflush(stdout);
    }
    pp_target_free(t);
    return rc;
}

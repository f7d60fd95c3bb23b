/*
 * pp-bench.c - one measurement for `make bench` (bench/run drives it):
 * a capture plan sampled through one access path by the real capture
 * engine (lib/capture), timed, with what the path spent, printed as one
 * line of key=value pairs on stdout.
 *
 *   pp-bench -P PATH [-t TARGET] [-c NCORES] [-e NEVENTS | -E LIST] [-n COUNT]
 *            [-m sync|repeat] [-f none|csv|jsonl|perf|trace|bin] [-o FILE]
 *            [-C CTLSOCKET] [-k KHZ] [-T det|real|target] [-R FILE]
 *            [-p auto|snapshot|live] [-S FIRST]
 *
 * PATH     sim             in-process simulated SoC (lib/bus/sim_bus.c)
 *          simpins         own JTAG/ADIv5 stack on the simulated TAP's pins,
 *                          in process (no socket: the stack's own cost)
 *          rbb:ENDPOINT    own stack over remote_bitbang (pmuprobe-sim)
 *          ftdi[:VID:PID]  own stack over libftdi1 (the USB emulator under
 *                          LD_PRELOAD in the benchmark)
 *          cmsis-dap[:VID:PID]  own stack over a CMSIS-DAP v2 probe
 *                          (lib/link/cmsisdap.c; the USB-level emulator
 *                          tests/cmsisdap-emu under LD_PRELOAD in the
 *                          benchmark); -k is its SWJ clock
 *          openocd[:PORT]  a running OpenOCD's TCL RPC, with the block
 *                          reads the CLI uses (cover_gap_words)
 * The plan: the first NCORES cores of TARGET, each with NEVENTS counters
 * (cycles, then event counters: instructions, L1D_CACHE_REFILL, ...);
 * COUNT intervals (COUNT + 1 samples: the first is the baseline).
 * -p: the read plan, as stream's default, --snapshot or --live (default
 * auto, the capture engine's default: lib/capture/capture.c).
 * -m repeat asks for the path's repeat mode (pp_bus_run_repeat: OpenOCD's
 * TCL loop, queued JTAG repetitions): the capture engine uses it only for
 * a non-zero interval, so the interval is then 1 ns (as fast as possible);
 * a path without one prints status=unsupported.  -S FIRST: the first set
 * after the baseline holds FIRST samples (pp_cap_config.first_set), so
 * that two runs share it whatever the path's pace (default: what fits
 * 100 ms at the baseline's pace, lib/capture/plan.c).
 * -C: pmuprobe-sim's control socket; its counters are reset just before
 * sampling and read just after, so srv_* cover the samples only.  A reply
 * that lacks one of the counters srv_* come from fails the run (exit 1,
 * naming the key): a count the server did not send is never printed as 0.
 * -R FILE: the register plan of one sample, as the capture engine put it on
 * the bus: the reads of the window's last batch, one "0xADDR" a line in
 * bus order (in sync mode a batch is one sample; with -m repeat the last
 * set of repetitions); the batch's writes are there too, in bus order, as
 * "w 0xADDR 0xVALUE" lines.  bench/run gives it to tests/ocd_bench, so
 * the hand-written OpenOCD scripts do the very accesses pmuprobe does (a
 * snapshot plan's PMSSCR writes included); the line adds plan_reads and
 * plan_writes.
 *
 * Counts: bus_* are pp_bus_get_stats deltas over the sampling window
 * (register accesses, link round trips, TCK), sim_* the in-process SoC's
 * APB accesses, srv_* the server's, tap_* (simpins) the simulated TAP's
 * TCK and scans, cpu_s this process's user + system
 * time over the window (both threads of the engine; a server's CPU is not
 * in it, the in-process SoC's and the FTDI emulator's are), peak_kb the
 * process's peak resident memory.  Rates are left to the reader of the line.
 */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "adi/adi.h"
#include "bus/bus.h"
#include "bus/ocd_rpc.h"
#include "capture/capture.h"
#include "capture/sink.h"
#include "link/cmsisdap.h"
#include "link/ftdi.h"
#include "link/rbb.h"
#include "link/simpins.h"
#include "pmu/evname.h"
#include "sim/jtag.h"
#include "sim/sim.h"
#include "target/target.h"
#include "trace.h"
#include "../tests/simctl.h"

#define MAX_EVENTS 7
#define ERRLEN 512

/* cycles first (the cycle counter), then the event counters in this
 * order; every Armv8 core's catalog has them (spec 1.4, common events). */
static const char *const plan_events[MAX_EVENTS] = {
    "cycles", "instructions", "L1D_CACHE_REFILL", "L1D_CACHE", "BR_MIS_PRED",
    "L2D_CACHE", "L2D_CACHE_REFILL",
};

struct opts {
    const char *path, *target, *format, *output, *ctl, *events, *time, *plan_file;
    unsigned ncores, nevents, khz;
    uint64_t count;
    bool repeat, snapshot, live;
    unsigned first_set;           /* -S, 0: the engine's default */
};

/* What a path owns besides the bus. */
struct path {
    struct pp_target *t;
    struct pp_sim *sim;
    struct pp_simjtag *jtag;
    struct pp_bus *bus;
};

struct window {
    struct timespec t0, t1;
    struct rusage r0, r1;
    struct pp_bus_stats b0, b1;
    struct pp_sim_stats s0, s1;
    struct pp_simjtag_stats j0, j1;   /* simpins: the simulated TAP's own counts */
};

/* -R: the accesses of the newest batch, from the APB layer of the wire
 * trace (lib/trace.h).  The bus counts a batch before it runs it and
 * traces its operations after, so a change of the count starts a new
 * batch. */
struct plan_acc {
    uint32_t addr, value;
    bool write;
};

struct plan_rec {
    const struct pp_bus *bus;
    uint64_t batch;
    struct plan_acc *acc;
    size_t nreads, nwrites, cap;
    bool oom;
};

static void plan_rec_fn(void *user, const struct pp_trace_rec *rec)
{
    struct plan_rec *pr = user;
    struct pp_bus_stats st;

    if (rec->layer != PP_TRACE_APB)
        return;
    pp_bus_get_stats(pr->bus, &st);
    if (st.batches != pr->batch) {
        pr->batch = st.batches;
        pr->nreads = pr->nwrites = 0;
    }
    if (pr->nreads + pr->nwrites == pr->cap) {
        size_t cap = pr->cap ? 2 * pr->cap : 64;
        struct plan_acc *a = realloc(pr->acc, cap * sizeof(*a));

        if (!a) {
            pr->oom = true;
            return;
        }
        pr->acc = a;
        pr->cap = cap;
    }
    pr->acc[pr->nreads + pr->nwrites] = (struct plan_acc){ rec->addr, (uint32_t)rec->value,
                                                          rec->write };
    if (rec->write)
        pr->nwrites++;
    else
        pr->nreads++;
}

/* Starts recording on the bus (which owns the tracer from here). */
static int plan_rec_start(struct plan_rec *pr, struct pp_bus *bus)
{
    struct pp_trace *tr = pp_trace_new(plan_rec_fn, pr, PP_TRACE_APB);

    if (!tr)
        return PP_E_NOMEM;
    pr->bus = bus;
    pp_bus_set_trace(bus, tr);
    return PP_OK;
}

static int plan_rec_write(const struct plan_rec *pr, const char *file, char *err)
{
    FILE *f = fopen(file, "w");
    int bad;

    if (pr->oom || !pr->nreads) {
        snprintf(err, ERRLEN, "-R: %s", pr->oom ? "out of memory" : "no reads recorded");
        if (f)
            fclose(f);
        return PP_E_IO;
    }
    if (!f) {
        snprintf(err, ERRLEN, "cannot write %s", file);
        return PP_E_IO;
    }
    for (size_t i = 0; i < pr->nreads + pr->nwrites; i++)
        if (pr->acc[i].write)
            fprintf(f, "w 0x%08" PRIx32 " 0x%08" PRIx32 "\n", pr->acc[i].addr, pr->acc[i].value);
        else
            fprintf(f, "0x%08" PRIx32 "\n", pr->acc[i].addr);
    bad = ferror(f);
    if (fclose(f) != 0 || bad) {
        snprintf(err, ERRLEN, "writing %s failed", file);
        return PP_E_IO;
    }
    return PP_OK;
}

/* ---- access paths ----------------------------------------------------------- */

static int open_sim_paths(struct path *p, bool pins, char *err)
{
    struct pp_link *l;

    p->sim = pp_sim_new(p->t, err, ERRLEN);
    if (!p->sim)
        return PP_E_INVAL;
    if (!pins) {
        p->bus = pp_bus_sim_new(p->sim);
        return p->bus ? PP_OK : PP_E_NOMEM;
    }
    p->jtag = pp_simjtag_new(p->sim, err, ERRLEN);
    if (!p->jtag)
        return PP_E_INVAL;
    l = pp_link_simpins_new(p->jtag, NULL, 0, NULL, 0, err, ERRLEN);
    if (!l)
        return PP_E_INVAL;
    p->bus = pp_bus_adi_new(l, p->t, err, ERRLEN);
    return p->bus ? PP_OK : PP_E_LINK;
}

static int open_rbb(struct path *p, const char *endpoint, char *err)
{
    struct pp_link *l;
    int rc = pp_link_rbb_open(endpoint, &l, err, ERRLEN);

    if (rc != PP_OK)
        return rc;
    p->bus = pp_bus_adi_new(l, p->t, err, ERRLEN);
    return p->bus ? PP_OK : PP_E_LINK;
}

/* "" or ":VID:PID" (hex). */
static int open_ftdi(struct path *p, const char *spec, unsigned khz, char *err)
{
    struct pp_ftdi_params fp = { .khz = khz };
    struct pp_link *l;
    unsigned vid, pid;
    int rc;

    if (*spec) {
        if (sscanf(spec, ":%x:%x", &vid, &pid) != 2 || vid > 0xFFFF || pid > 0xFFFF) {
            snprintf(err, ERRLEN, "ftdi%s: expected ftdi[:VID:PID]", spec);
            return PP_E_INVAL;
        }
        fp.vid = (uint16_t)vid;
        fp.pid = (uint16_t)pid;
    }
    rc = pp_link_ftdi_open(&fp, &l, err, ERRLEN);
    if (rc != PP_OK)
        return rc;
    p->bus = pp_bus_adi_new(l, p->t, err, ERRLEN);
    return p->bus ? PP_OK : PP_E_LINK;
}

/* "" or ":VID:PID" (hex); the bus picks the link's DP transport
 * (lib/adi/dp_cmsisdap.c: DAP_Transfer packets). */
static int open_cmsisdap(struct path *p, const char *spec, unsigned khz, char *err)
{
    struct pp_cmsisdap_params cp = { .khz = khz };
    struct pp_link *l;
    unsigned vid, pid;
    int rc;

    if (*spec) {
        if (sscanf(spec, ":%x:%x", &vid, &pid) != 2 || vid > 0xFFFF || pid > 0xFFFF) {
            snprintf(err, ERRLEN, "cmsis-dap%s: expected cmsis-dap[:VID:PID]", spec);
            return PP_E_INVAL;
        }
        cp.vid = (uint16_t)vid;
        cp.pid = (uint16_t)pid;
    }
    rc = pp_link_cmsisdap_open(&cp, &l, err, ERRLEN);
    if (rc != PP_OK)
        return rc;
    p->bus = pp_bus_adi_new(l, p->t, err, ERRLEN);
    return p->bus ? PP_OK : PP_E_LINK;
}

/* "" or ":PORT".  The block reads as the CLI makes them
 * (lib/session/path_openocd.c: a core's counters in one read_memory). */
static int open_openocd(struct path *p, const char *spec, char *err)
{
    struct pp_ocd_opts o = { .ap_hint = (int)p->t->ap_index, .cover_gap_words = true };
    uint32_t pmu[64];

    /* The target's PMUv3 blocks, as the CLI gives them (path_openocd.c). */
    for (unsigned i = 0; i < p->t->ncores && o.npmu_blocks < 64; i++)
        if (p->t->cores[i].type->pmu_version >= 3)
            pmu[o.npmu_blocks++] = p->t->cores[i].pmu_base & ~0xFFFu;
    o.pmu_blocks = pmu;

    if (*spec) {
        char *end;
        unsigned long port = strtoul(spec + 1, &end, 10);

        if (*spec != ':' || *end || port == 0 || port > 65535) {
            snprintf(err, ERRLEN, "openocd%s: expected openocd[:PORT]", spec);
            return PP_E_INVAL;
        }
        o.port = (unsigned)port;
    }
    p->bus = pp_bus_ocd_new(&o, err, ERRLEN);
    return p->bus ? PP_OK : PP_E_LINK;
}

static bool starts(const char *s, const char *prefix)
{
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

static int open_path(struct path *p, const struct opts *o, char *err)
{
    if (strcmp(o->path, "sim") == 0)
        return open_sim_paths(p, false, err);
    if (strcmp(o->path, "simpins") == 0)
        return open_sim_paths(p, true, err);
    if (starts(o->path, "rbb:"))
        return open_rbb(p, o->path + 4, err);
    if (starts(o->path, "ftdi"))
        return open_ftdi(p, o->path + 4, o->khz, err);
    if (starts(o->path, "cmsis-dap"))
        return open_cmsisdap(p, o->path + 9, o->khz, err);
    if (starts(o->path, "openocd"))
        return open_openocd(p, o->path + 7, err);
    snprintf(err, ERRLEN, "unknown path '%s' (sim, simpins, rbb:ENDPOINT, ftdi[:VID:PID], "
             "cmsis-dap[:VID:PID], openocd[:PORT])", o->path);
    return PP_E_INVAL;
}

static void close_path(struct path *p)
{
    pp_bus_close(p->bus);
    pp_simjtag_free(p->jtag);
    pp_sim_free(p->sim);
    pp_target_free(p->t);
}

/* ---- pmuprobe-sim's control channel (man pmuprobe-sim, CONTROL CHANNEL) ------ */

static int ctl_command(const char *sock, const char *cmd, char *reply, size_t n, char *err)
{
    return simctl_command(sock, cmd, reply, n, err, ERRLEN) == 0 ? PP_OK : PP_E_LINK;
}

/* The server's counters pp-bench prints (man pmuprobe-sim, stats), under
 * the names bench/run reads. */
static const char *const srv_keys[][2] = {
    { "total.tck", "srv_tck" }, { "total.round_trips", "srv_rt" },
    { "total.dr_scans", "srv_dr" }, { "total.ir_scans", "srv_ir" },
    { "total.ap_reads", "srv_ap_reads" }, { "total.ap_writes", "srv_ap_writes" },
    { "total.waits", "srv_waits" },
};
#define NSRV (sizeof(srv_keys) / sizeof(srv_keys[0]))

/* Every key present, or PP_E_PROTO naming the missing one: a count the
 * server did not send must not reach the figures as 0. */
static int srv_counts(const char *reply, int64_t *v, char *err)
{
    for (size_t i = 0; i < NSRV; i++) {
        v[i] = simctl_stat(reply, srv_keys[i][0]);
        if (v[i] < 0) {
            snprintf(err, ERRLEN, "the server's stats reply has no %s: '%.200s'",
                     srv_keys[i][0], reply);
            return PP_E_PROTO;
        }
    }
    return PP_OK;
}

/* ---- the capture ------------------------------------------------------------- */

struct null_out {
    uint64_t records;
};

static int null_begin(void *ctx, const struct pp_cap_meta *m)
{
    (void)ctx;
    (void)m;
    return PP_OK;
}

static int null_write(void *ctx, const struct pp_cap_sample *s)
{
    (void)s;
    ((struct null_out *)ctx)->records++;
    return PP_OK;
}

static int null_end(void *ctx, const struct pp_cap_summary *sum)
{
    (void)ctx;
    (void)sum;
    return PP_OK;
}

static int sink_begin(void *ctx, const struct pp_cap_meta *m)
{
    return pp_sink_begin(ctx, m);
}

static int sink_write(void *ctx, const struct pp_cap_sample *s)
{
    return pp_sink_write(ctx, s);
}

static int sink_end(void *ctx, const struct pp_cap_summary *sum)
{
    return pp_sink_end(ctx, sum);
}

static uint64_t sink_bytes(void *ctx)
{
    return pp_sink_bytes(ctx);
}

/* Resolves the plan's events for one core into ev[]. */
static int plan_core(const struct opts *o, const struct pp_core_desc *cd, struct pp_evsel *ev,
                     unsigned *nev, char *err)
{
    char list[256], *save = NULL;
    unsigned n = 0;

    if (o->events) {
        snprintf(list, sizeof(list), "%s", o->events);
    } else {
        list[0] = '\0';
        for (unsigned i = 0; i < o->nevents; i++)
            snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%s", i ? "," : "",
                     plan_events[i]);
    }
    for (char *tok = strtok_r(list, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        if (n == PP_CAP_MAX_EVENTS || pp_event_resolve(cd->type, tok, &ev[n++], err, ERRLEN) != PP_OK)
            return PP_E_INVAL;
    }
    *nev = n;
    return PP_OK;
}

static int build_capture(const struct opts *o, struct path *p, struct pp_cap **out, char *err)
{
    struct pp_cap_config cfg = {
        .bus = p->bus, .target = p->t->name, .probe = o->path, .count = o->count,
        .interval_ns = o->repeat ? 1 : 0, .snapshot = o->snapshot, .live = o->live,
        .first_set = o->first_set,
    };
    struct pp_evsel ev[PP_CAP_MAX_EVENTS];
    struct pp_cap *c = pp_cap_new(&cfg);
    unsigned nev;
    int rc = c ? PP_OK : PP_E_NOMEM;

    for (unsigned k = 0; k < o->ncores && rc == PP_OK; k++) {
        rc = plan_core(o, &p->t->cores[k], ev, &nev, err);
        if (rc == PP_OK)
            rc = pp_cap_add_core(c, &p->t->cores[k], ev, nev, err, ERRLEN);
    }
    /* Forced: a benchmark that died earlier may have left its claim on
     * the server's SoC. */
    for (unsigned k = 0; k < o->ncores && rc == PP_OK; k++)
        rc = pp_cap_program(c, k, PP_CAP_FORCE, err, ERRLEN);
    if (rc != PP_OK) {
        pp_cap_free(c);
        return rc;
    }
    *out = c;
    return PP_OK;
}

static void window_mark(const struct path *p, struct timespec *t, struct rusage *r,
                        struct pp_bus_stats *b, struct pp_sim_stats *s,
                        struct pp_simjtag_stats *j)
{
    clock_gettime(CLOCK_MONOTONIC, t);
    getrusage(RUSAGE_SELF, r);
    pp_bus_get_stats(p->bus, b);
    memset(s, 0, sizeof(*s));
    if (p->sim)
        pp_sim_get_stats(p->sim, s);
    memset(j, 0, sizeof(*j));
    if (p->jtag)
        pp_simjtag_get_stats(p->jtag, j);
}

static double tv_s(const struct timeval *tv)
{
    return (double)tv->tv_sec + (double)tv->tv_usec / 1e6;
}

static double user_s(const struct window *w)
{
    return tv_s(&w->r1.ru_utime) - tv_s(&w->r0.ru_utime);
}

static double sys_s(const struct window *w)
{
    return tv_s(&w->r1.ru_stime) - tv_s(&w->r0.ru_stime);
}

static double wall_s(const struct window *w)
{
    return (double)(w->t1.tv_sec - w->t0.tv_sec) + (double)(w->t1.tv_nsec - w->t0.tv_nsec) / 1e9;
}

/* The process's peak resident memory in kB: VmHWM, which, unlike
 * ru_maxrss, does not carry over the peak of the process image before
 * execve (a Python parent's, when bench/run starts us). */
static long peak_kb(void)
{
    FILE *f = fopen("/proc/self/status", "r");
    struct rusage ru;
    char line[256];
    long kb = -1;

    while (f && fgets(line, sizeof(line), f)) {
        if (strncmp(line, "VmHWM:", 6) == 0) {
            kb = strtol(line + 6, NULL, 10);
            break;
        }
    }
    if (f)
        fclose(f);
    if (kb >= 0)
        return kb;
    getrusage(RUSAGE_SELF, &ru);
    return ru.ru_maxrss;
}

/* Runs the capture between the two marks of w; with a control socket,
 * srv[NSRV] gets the server's counters over the same window. */
static int measure(const struct opts *o, struct path *p, struct pp_cap *c,
                   const struct pp_cap_out *out, struct window *w, int64_t *srv,
                   struct plan_rec *pr, char *err)
{
    char reply[2048];
    int rc = PP_OK;

    if (o->ctl && (rc = ctl_command(o->ctl, "stats reset", reply, sizeof(reply), err)) != PP_OK)
        return rc;
    if (o->plan_file && (rc = plan_rec_start(pr, p->bus)) != PP_OK)
        return rc;
    window_mark(p, &w->t0, &w->r0, &w->b0, &w->s0, &w->j0);
    rc = pp_cap_run(c, out);
    window_mark(p, &w->t1, &w->r1, &w->b1, &w->s1, &w->j1);
    /* Off before the release, whose writes are no sample's. */
    if (o->plan_file)
        pp_bus_set_trace(p->bus, NULL);
    if (rc != PP_OK) {
        snprintf(err, ERRLEN, "capture: %s", pp_strerror(rc));
        return rc;
    }
    if (o->plan_file && (rc = plan_rec_write(pr, o->plan_file, err)) != PP_OK)
        return rc;
    if (!o->ctl)
        return PP_OK;
    rc = ctl_command(o->ctl, "stats", reply, sizeof(reply), err);
    return rc == PP_OK ? srv_counts(reply, srv, err) : rc;
}

/* PP_OK when every sample of every core came back whole. */
static int check_summary(const struct pp_cap *c, unsigned ncores, char *err)
{
    const struct pp_cap_summary *s = pp_cap_summary(c);

    if (s->stop != PP_CAP_STOP_DONE) {
        snprintf(err, ERRLEN, "capture stopped early: %s", s->stop_msg);
        return PP_E_IO;
    }
    for (unsigned k = 0; k < ncores; k++) {
        for (unsigned i = 0; i < PP_CAP_NCAUSES; i++) {
            if (s->gaps[k][i]) {
                snprintf(err, ERRLEN, "core %u: %" PRIu64 " gap samples", k, s->gaps[k][i]);
                return PP_E_IO;
            }
        }
    }
    return PP_OK;
}

static void print_line(const struct opts *o, const struct path *p, const struct pp_cap *c,
                       const struct window *w, uint64_t bytes, const int64_t *srv,
                       const struct plan_rec *pr)
{
    const struct pp_cap_summary *s = pp_cap_summary(c);
    struct pp_bus_stats total;
    double secs = wall_s(w);

    pp_bus_get_stats(p->bus, &total);
    printf("pp-bench status=ok path=%s mode=%s target=%s cores=%u events=%u format=%s"
           " samples=%" PRIu64 " secs=%.6f cpu_s=%.6f user_s=%.6f sys_s=%.6f"
           " samples_per_s=%.1f"
           " bus_ops=%" PRIu64 " bus_rt=%" PRIu64 " bus_tck=%" PRIu64
           " sim_reads=%" PRIu64 " sim_writes=%" PRIu64 " bytes=%" PRIu64,
           o->path, o->repeat ? "repeat" : "sync", p->t->name, o->ncores,
           pp_cap_meta(c)->core[0].nev, o->format, s->samples, secs, user_s(w) + sys_s(w),
           user_s(w), sys_s(w),
           (double)s->samples / secs, w->b1.ops - w->b0.ops,
           w->b1.round_trips - w->b0.round_trips, w->b1.tck - w->b0.tck,
           w->s1.reads - w->s0.reads, w->s1.writes - w->s0.writes, bytes);
    for (size_t i = 0; srv && i < NSRV; i++)
        printf(" %s=%" PRId64, srv_keys[i][1], srv[i]);
    /* The TAP's count beside the link's: bench/run checks they agree. */
    if (p->jtag)
        printf(" tap_tck=%" PRIu64 " tap_dr=%" PRIu64 " tap_ir=%" PRIu64,
               w->j1.tck - w->j0.tck, w->j1.dr_scans - w->j0.dr_scans,
               w->j1.ir_scans - w->j0.ir_scans);
    if (o->plan_file)
        printf(" plan_reads=%zu plan_writes=%zu", pr->nreads, pr->nwrites);
    printf(" link_tck_total=%" PRIu64 " link_rt_total=%" PRIu64 " peak_kb=%ld\n",
           total.tck, total.round_trips, peak_kb());
}

/* ---- main ---------------------------------------------------------------------- */

static int usage(void)
{
    fprintf(stderr,
            "usage: pp-bench -P sim|simpins|rbb:ENDPOINT|ftdi[:VID:PID]|cmsis-dap[:VID:PID]|\n"
            "                   openocd[:PORT]\n"
            "                [-t TARGET] [-c NCORES] [-e NEVENTS | -E LIST] [-n COUNT]\n"
            "                [-m sync|repeat] [-f none|csv|jsonl|perf|trace|bin] [-o FILE]\n"
            "                [-C CTLSOCKET] [-k KHZ] [-T det|real|target] [-R FILE]\n"
            "                [-p auto|snapshot|live] [-S FIRST]\n");
    return 2;
}

static bool parse_uint(const char *s, unsigned long long max, unsigned long long *v)
{
    char *end;

    *v = strtoull(s, &end, 10);
    return *s && *s != '-' && !*end && *v <= max;
}

static int parse_opts(int argc, char **argv, struct opts *o)
{
    unsigned long long v;
    int ch;

    *o = (struct opts){ .target = "a76-cluster", .format = "none", .output = "/dev/null",
                        .time = "det", .ncores = 4, .nevents = MAX_EVENTS, .khz = 30000,
                        .count = 1000 };
    while ((ch = getopt(argc, argv, "P:t:c:e:E:n:m:f:o:C:k:T:R:p:S:")) != -1) {
        switch (ch) {
        case 'P': o->path = optarg; break;
        case 't': o->target = optarg; break;
        case 'E': o->events = optarg; break;
        case 'f': o->format = optarg; break;
        case 'o': o->output = optarg; break;
        case 'C': o->ctl = optarg; break;
        case 'T': o->time = optarg; break;
        case 'R': o->plan_file = optarg; break;
        case 'p':
            if (strcmp(optarg, "auto") && strcmp(optarg, "snapshot") && strcmp(optarg, "live"))
                return usage();
            o->snapshot = strcmp(optarg, "snapshot") == 0;
            o->live = strcmp(optarg, "live") == 0;
            break;
        case 'm':
            if (strcmp(optarg, "sync") && strcmp(optarg, "repeat"))
                return usage();
            o->repeat = strcmp(optarg, "repeat") == 0;
            break;
        case 'c': if (!parse_uint(optarg, PP_CAP_MAX_CORES, &v) || !v) return usage();
            o->ncores = (unsigned)v; break;
        case 'e': if (!parse_uint(optarg, MAX_EVENTS, &v) || !v) return usage();
            o->nevents = (unsigned)v; break;
        case 'n': if (!parse_uint(optarg, UINT64_MAX / 2, &v) || !v) return usage();
            o->count = v; break;
        case 'k': if (!parse_uint(optarg, 1000000, &v) || !v) return usage();
            o->khz = (unsigned)v; break;
        case 'S': if (!parse_uint(optarg, 1000000, &v) || !v) return usage();
            o->first_set = (unsigned)v; break;
        default: return usage();
        }
    }
    return o->path && optind == argc ? 0 : usage();
}

static int load_target(const struct opts *o, struct path *p, char *err)
{
    char file[512];
    int rc;

    if (pp_target_find(o->target, file, sizeof(file)) != PP_OK) {
        snprintf(err, ERRLEN, "target '%s' not found", o->target);
        return PP_E_NOTFOUND;
    }
    rc = pp_target_load(file, &p->t, err, ERRLEN);
    if (rc != PP_OK)
        return rc;
    if (o->ncores > p->t->ncores) {
        snprintf(err, ERRLEN, "target %s has %u cores, not %u", p->t->name, p->t->ncores,
                 o->ncores);
        return PP_E_INVAL;
    }
    /* Deterministic by default: the in-process counts then repeat. */
    if (strcmp(o->time, "det") == 0)
        p->t->time_mode = PP_TIME_DETERMINISTIC;
    else if (strcmp(o->time, "real") == 0)
        p->t->time_mode = PP_TIME_REALTIME;
    return PP_OK;
}

/* The output: none, or a sink of the format into o->output. */
static int open_output(const struct opts *o, FILE **f, struct pp_sink **sink,
                       struct null_out *nul, struct pp_cap_out *out, char *err)
{
    if (strcmp(o->format, "none") == 0) {
        *out = (struct pp_cap_out){ .ctx = nul, .begin = null_begin, .write = null_write,
                                    .end = null_end };
        return PP_OK;
    }
    *f = fopen(o->output, "wb");
    if (!*f) {
        snprintf(err, ERRLEN, "cannot write %s", o->output);
        return PP_E_IO;
    }
    *sink = pp_sink_new(o->format, *f, NULL, err, ERRLEN);
    if (!*sink)
        return PP_E_INVAL;
    *out = (struct pp_cap_out){ .ctx = *sink, .begin = sink_begin, .write = sink_write,
                                .end = sink_end, .bytes = sink_bytes };
    return PP_OK;
}

static int run(const struct opts *o, struct path *p, char *err)
{
    struct null_out nul = { 0 };
    struct pp_cap_out out;
    struct pp_sink *sink = NULL;
    struct pp_cap *c = NULL;
    struct window w;
    struct plan_rec pr = { 0 };
    int64_t srv[NSRV];
    FILE *f = NULL;
    int rc = open_output(o, &f, &sink, &nul, &out, err);

    if (rc == PP_OK)
        rc = build_capture(o, p, &c, err);
    if (rc == PP_OK)
        rc = measure(o, p, c, &out, &w, srv, &pr, err);
    if (rc == PP_OK)
        rc = check_summary(c, o->ncores, err);
    /* Released before the line, so its link totals cover the whole
     * session as the server's or the emulator's own totals do. */
    if (c)
        pp_cap_release(c);
    if (rc == PP_OK)
        print_line(o, p, c, &w, sink ? pp_sink_bytes(sink) : 0, o->ctl ? srv : NULL, &pr);
    free(pr.acc);
    pp_cap_free(c);
    pp_sink_free(sink);
    if (f && fclose(f) != 0 && rc == PP_OK) {
        snprintf(err, ERRLEN, "closing %s failed", o->output);
        rc = PP_E_IO;
    }
    return rc;
}

int main(int argc, char **argv)
{
    struct path p = { 0 };
    struct opts o;
    char err[ERRLEN] = "";
    int rc;

    if (parse_opts(argc, argv, &o) != 0)
        return 2;
    rc = load_target(&o, &p, err);
    if (rc == PP_OK)
        rc = open_path(&p, &o, err);
    if (rc == PP_OK && o.repeat && !p.bus->ops->run_repeat) {
        printf("pp-bench status=unsupported path=%s mode=repeat reason=no-repeat-mode\n",
               o.path);
        close_path(&p);
        return 0;
    }
    if (rc == PP_OK)
        rc = run(&o, &p, err);
    if (rc != PP_OK)
        fprintf(stderr, "pp-bench: %s: %s\n", o.path, *err ? err : pp_strerror(rc));
    close_path(&p);
    return rc == PP_OK ? 0 : 1;
}

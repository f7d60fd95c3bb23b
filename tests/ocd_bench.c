/*
 * ocd_bench.c - what one sample costs through OpenOCD, three ways, side by
 * side in one run ("numbers, not adjectives"):
 *
 *   mdw    one `mdw` RPC per register: what a user scripts by hand
 *   block  pmuprobe's batch: one RPC per sample, read_memory per run of
 *          adjacent registers (pp_bus_run)
 *   loop   the OpenOCD-side TCL loop: one RPC for many samples
 *          (pp_bus_run_repeat)
 *   tcl    the loop an expert writes by hand: a proc that reads each
 *          sample with one read_memory per block and returns many samples
 *          per RPC; the register set in address order, each once, one
 *          read per PMU window, and the plan's writes (a snapshot plan's
 *          PMSSCR write) each just before the block it must precede; no
 *          status per word, no overrun check (plan_blocks says which
 *          reads share a block)
 *   tclo   the same loop, its accesses in the plan's order (PMCCNTR
 *          high, low, high; flags before counters; the check after them):
 *          a read joins the block before it when it lies above it in the
 *          same PMU window, a write is a write_memory of its own
 *
 * A sample is the counters of every core: PMEVCNTR0..N-1 and PMCCNTR at
 * the target's PMU bases (7 registers per Cortex-A53).  Prints one line
 * per mode: samples, seconds, samples/s, RPC round trips per sample, and
 * this process's CPU time (user + system, then system alone) per sample
 * over the same window (getrusage; OpenOCD's and the server's CPU are
 * not in it).
 *
 *   ocd_bench -t TARGET -P PORT [-n SAMPLES] [-m MODE]... [-L LOOPCHUNK] [-G GAP]
 *             [-C CTLSOCKET] [-R REGFILE] [-k]
 *
 * -k (loop): a set that fails with a status of the target's (a WAIT storm's
 * dp-wait) does not end the run: one line "set N: STATUS: DETAIL" goes to
 * stdout and sampling goes on; "set N: ok" after each good set.  A lost
 * path (PP_E_LINK: no reply within the request's deadline, a closed
 * connection) still ends it, exit 1.  tests/openocd-storm.test runs
 * sets of 10 through a WAIT storm this way.
 *
 * -R takes the sample's accesses from REGFILE instead (one a line, in
 * order, repeats allowed: "0xADDR" a read, "w 0xADDR 0xVALUE" a write,
 * "o 0xADDR" a read loop needs in a set's first repetition only
 * (pp_op.once; the other modes read it every sample);
 * bench/pp-bench -R writes the plan the capture engine puts on the bus),
 * so the scripts do what pmuprobe does, its writes included (mdw: `mww`).
 * mdw, tcl and tclo add the OpenOCD commands they issue per sample.
 * -G sets pp_ocd_opts.cover_gap_words for block and loop.
 * -C names the control socket of the pmuprobe-sim behind OpenOCD: its
 * counters are reset just before the first sample and read just after the
 * last, and the line adds the JTAG DR scans, TCK and JTAG round trips (the
 * server's remote_bitbang reads) per sample.  Attaching happens before the
 * reset, so these counts are the samples' alone and, the sim being
 * deterministic, exact (tests/openocd-bench.test pins them; bench/run
 * takes them from this line).
 *
 * With several -m the modes run in that order on one connection each.
 */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "bus/bus.h"
#include "bus/ocd_rpc.h"
#include "bus/ocd_tcl.h"
#include "pmu/regs.h"
#include "target/target.h"
#include "simctl.h"

#define MAX_OPS 512

struct bench {
    const struct pp_target *t;
    const char *ctl;              /* pmuprobe-sim's control socket, or NULL */
    unsigned port;
    unsigned samples, chunk;
    bool gap, keep;
    const char *regfile;          /* -R, or NULL: the counters of every core */
    struct pp_op ops[MAX_OPS];
    size_t n, nreads;             /* accesses; the reads among them */
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
    b->nreads = b->n;
}

/* One line of REGFILE: "0xADDR", "o 0xADDR" or "w 0xADDR 0xVALUE".
 * False when it is none of them (or the address is not word-aligned). */
static bool parse_access(const char *line, struct pp_op *op)
{
    bool write = line[0] == 'w' && line[1] == ' ', once = line[0] == 'o' && line[1] == ' ';
    const char *p = write || once ? line + 2 : line;
    char *end;
    unsigned long a = strtoul(p, &end, 16), v = 0;

    if (end == p || a > 0xFFFFFFFFul || (a & 3u))
        return false;
    if (write) {
        p = end;
        v = strtoul(p, &end, 16);
        if (end == p || v > 0xFFFFFFFFul)
            return false;
    }
    while (*end == ' ' || *end == '\n')
        end++;
    if (*end)
        return false;
    *op = (struct pp_op){ .addr = (uint32_t)a, .write = write, .wdata = (uint32_t)v,
                          .once = once };
    return true;
}

/* -R: the registers of REGFILE, in its order.  0, or -1 with a message. */
static int plan_file(struct bench *b)
{
    FILE *f = fopen(b->regfile, "r");
    char line[64];

    if (!f) {
        fprintf(stderr, "ocd_bench: cannot read %s\n", b->regfile);
        return -1;
    }
    b->n = b->nreads = 0;
    while (fgets(line, sizeof(line), f)) {
        if (b->n == MAX_OPS || !parse_access(line, &b->ops[b->n])) {
            fprintf(stderr, "ocd_bench: %s: bad or too many accesses at '%s'\n", b->regfile,
                    line);
            fclose(f);
            return -1;
        }
        b->nreads += !b->ops[b->n++].write;
    }
    fclose(f);
    if (b->nreads)
        return 0;
    fprintf(stderr, "ocd_bench: %s holds no read\n", b->regfile);
    return -1;
}

/* The sampling window: from just before the first sample to just after
 * the last, in wall-clock time and in this process's CPU time. */
struct window {
    double t0, user0, sys0;
};

static double tv_s(const struct timeval *tv)
{
    return (double)tv->tv_sec + (double)tv->tv_usec / 1e6;
}

static void cpu_now(double *user, double *sys)
{
    struct rusage ru;

    getrusage(RUSAGE_SELF, &ru);
    *user = tv_s(&ru.ru_utime);
    *sys = tv_s(&ru.ru_stime);
}

/* Opens the window: with -C the server's counters are reset first. */
static int window_open(const struct bench *b, struct window *w)
{
    char reply[256], err[512];

    if (b->ctl && simctl_command(b->ctl, "stats reset", reply, sizeof(reply), err,
                                 sizeof(err)) != 0) {
        fprintf(stderr, "ocd_bench: %s\n", err);
        return -1;
    }
    cpu_now(&w->user0, &w->sys0);
    w->t0 = now_s();
    return 0;
}

/* With -C: the server's counters over the window, per sample. */
static int report_server(const struct bench *b)
{
    static const char *const keys[] = { "total.dr_scans", "total.tck", "total.round_trips" };
    char reply[2048], err[512];
    int64_t v[3];

    if (simctl_command(b->ctl, "stats", reply, sizeof(reply), err, sizeof(err)) != 0) {
        fprintf(stderr, "ocd_bench: %s\n", err);
        return -1;
    }
    for (size_t i = 0; i < 3; i++) {
        v[i] = simctl_stat(reply, keys[i]);
        if (v[i] < 0) {
            fprintf(stderr, "ocd_bench: no %s in '%.200s'\n", keys[i], reply);
            return -1;
        }
    }
    printf("  %.3f JTAG scans/sample  %.3f TCK/sample  %.3f JTAG RT/sample",
           (double)v[0] / b->samples, (double)v[1] / b->samples, (double)v[2] / b->samples);
    return 0;
}

/* Closes the window and prints the mode's line. */
static int report(const struct bench *b, const char *mode, const struct window *w, double rt,
                  unsigned cmds)
{
    double secs = now_s() - w->t0, user, sys;

    cpu_now(&user, &sys);
    user -= w->user0;
    sys -= w->sys0;
    printf("%-6s %6u samples x %3zu regs  %7.3f s  %9.1f samples/s  %8.3f RPC round trips/sample"
           "  %.3f CPU us/sample  %.3f system us/sample  %zu writes/sample",
           mode, b->samples, b->nreads, secs, b->samples / secs, rt / b->samples,
           (user + sys) * 1e6 / b->samples, sys * 1e6 / b->samples, b->n - b->nreads);
    /* Only where a mode knows them: its own commands, one per block or
     * write. */
    if (cmds)
        printf("  %u OpenOCD commands/sample", cmds);
    if (b->ctl && report_server(b) != 0) {
        printf("\n");
        return -1;
    }
    printf("\n");
    return 0;
}

static struct pp_bus *attach(const struct bench *b)
{
    struct pp_ocd_opts o = { .port = b->port, .ap_hint = (int)b->t->ap_index,
                             .cover_gap_words = b->gap };
    uint32_t pmu[64];

    for (unsigned i = 0; i < b->t->ncores && o.npmu_blocks < 64; i++)
        if (b->t->cores[i].type->pmu_version >= 3)
            pmu[o.npmu_blocks++] = b->t->cores[i].pmu_base & ~0xFFFu;
    o.pmu_blocks = pmu;
    char err[256];
    struct pp_bus *bus = pp_bus_ocd_new(&o, err, sizeof(err));

    if (!bus)
        fprintf(stderr, "ocd_bench: %s\n", err);
    return bus;
}

/* One `<target> mdw ADDR` per register, its text parsed as a user's
 * script would: "0x80011000: 0001f2c4 \n", and one `mww ADDR VALUE` per
 * write.  0, or -1 with a message. */
static int mdw_sample(struct bench *b, struct pp_bus *bus, struct pp_ocd_rpc *r)
{
    char err[256], script[128];

    for (size_t i = 0; i < b->n; i++) {
        char *reply, *colon;
        size_t len;

        if (b->ops[i].write)
            snprintf(script, sizeof(script), "%s mww 0x%08" PRIx32 " 0x%08" PRIx32,
                     pp_bus_ocd_attach_info(bus)->target, b->ops[i].addr, b->ops[i].wdata);
        else
            snprintf(script, sizeof(script), "%s mdw 0x%08" PRIx32,
                     pp_bus_ocd_attach_info(bus)->target, b->ops[i].addr);
        if (pp_ocd_exchange(r, script, 0, &reply, &len, err, sizeof(err)) != PP_OK) {
            fprintf(stderr, "ocd_bench: %s\n", err);
            return -1;
        }
        colon = strchr(reply, ':');
        if (!b->ops[i].write)
            b->ops[i].rdata = colon ? (uint32_t)strtoul(colon + 1, NULL, 16) : 0;
        free(reply);
    }
    return 0;
}

/*
 * Each mode takes one sample before the window opens: the first access
 * after attaching pays one-off DP traffic (a scan or two, depending on
 * what OpenOCD's DAP last selected for earlier clients), so without it
 * the per-sample counts would carry a remainder of 1/N that depends on
 * history.
 */
static int run_mdw(struct bench *b)
{
    struct pp_bus *bus = attach(b);
    struct pp_ocd_rpc *r;
    struct window w = { 0 };
    char err[256];
    uint64_t rt0;
    int rc;

    if (!bus)
        return 1;
    if (pp_ocd_connect("localhost", b->port, 0, &r, err, sizeof(err)) != PP_OK) {
        fprintf(stderr, "ocd_bench: %s\n", err);
        pp_bus_close(bus);
        return 1;
    }
    rc = mdw_sample(b, bus, r);
    rt0 = pp_ocd_round_trips(r);
    if (rc == 0)
        rc = window_open(b, &w);
    for (unsigned s = 0; s < b->samples && rc == 0; s++)
        rc = mdw_sample(b, bus, r);
    if (rc == 0)
        rc = report(b, "mdw", &w, (double)(pp_ocd_round_trips(r) - rt0), (unsigned)b->n);
    pp_ocd_close(r);
    pp_bus_close(bus);
    return rc != 0;
}

static int run_block(struct bench *b)
{
    struct pp_bus *bus = attach(b);
    struct pp_bus_stats st;
    struct window w = { 0 };
    int rc;

    if (!bus)
        return 1;
    rc = pp_bus_run(bus, b->ops, b->n);
    pp_bus_get_stats(bus, &st);
    uint64_t rt0 = st.round_trips;
    if (rc == PP_OK && window_open(b, &w) != 0)
        rc = PP_E_IO;
    for (unsigned s = 0; s < b->samples && rc == PP_OK; s++)
        rc = pp_bus_run(bus, b->ops, b->n);
    pp_bus_get_stats(bus, &st);
    if (rc != PP_OK)
        fprintf(stderr, "ocd_bench: %s: %s\n", pp_strerror(rc), pp_bus_errmsg(bus));
    else if (report(b, "block", &w, (double)(st.round_trips - rt0), 0) != 0)
        rc = PP_E_IO;
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
    struct window w = { 0 };
    int rc;

    if (!bus || !ops || !t_ns) {
        free(ops);
        free(t_ns);
        pp_bus_close(bus);
        return 1;
    }
    for (unsigned k = 0; k < b->chunk; k++)
        memcpy(ops + (size_t)k * b->n, b->ops, b->n * sizeof(*ops));
    rc = pp_bus_run_repeat(bus, ops, b->n, 1, 0, t_ns);
    pp_bus_get_stats(bus, &st);
    uint64_t rt0 = st.round_trips;
    if (rc == PP_OK && window_open(b, &w) != 0)
        rc = PP_E_IO;
    for (unsigned set = 0; done < b->samples && rc == PP_OK; set++) {
        unsigned count = b->samples - done < b->chunk ? b->samples - done : b->chunk;

        rc = pp_bus_run_repeat(bus, ops, b->n, count, 0, t_ns);
        done += count;
        if (!b->keep || rc == PP_E_LINK || rc == PP_E_NOMEM)
            continue;
        if (rc == PP_OK)
            printf("set %u: ok\n", set);
        else
            printf("set %u: %s: %s\n", set, pp_strerror(rc), pp_bus_errmsg(bus));
        fflush(stdout);
        rc = PP_OK;
    }
    pp_bus_get_stats(bus, &st);
    if (rc != PP_OK)
        fprintf(stderr, "ocd_bench: %s: %s\n", pp_strerror(rc), pp_bus_errmsg(bus));
    else if (report(b, "loop", &w, (double)(st.round_trips - rt0), 0) != 0)
        rc = PP_E_IO;
    free(ops);
    free(t_ns);
    pp_bus_close(bus);
    return rc != PP_OK;
}

/* ---- tcl: the expert's hand-written loop ------------------------------------- */

/* The PMU block windows an expert reads whole (spec/arm-pmu-coresight.md
 * 1.1): registers and their RES0 neighbours without read side effects,
 * each inside one 1 KB TAR window; lib/bus/ocd_bus.c covers gaps in the
 * same windows.  Debug blocks have none (DBGDTRTX, EDPCSR read with side
 * effects), so their registers are read one run each. */
static const struct {
    uint32_t lo, hi;
} expert_window[] = { { 0x000, 0x0FC }, { 0x400, 0x47C }, { 0xC00, 0xCFC }, { 0xE00, 0xE2C } };

/* The window of addr when it is in a PMU block (PMUv3), else -1. */
static int window_of(const struct pp_target *t, uint32_t addr)
{
    for (unsigned c = 0; c < t->ncores; c++) {
        if ((addr & ~0xFFFu) != t->cores[c].pmu_base || t->cores[c].type->pmu_version < 3)
            continue;
        for (size_t w = 0; w < sizeof(expert_window) / sizeof(expert_window[0]); w++)
            if ((addr & 0xFFFu) >= expert_window[w].lo && (addr & 0xFFFu) <= expert_window[w].hi)
                return (int)w;
    }
    return -1;
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

    return x < y ? -1 : x > y;
}

/* " w ADDR VALUE" for write op i, or " r ADDR WORDS" for a block; the
 * characters list[*used..] now hold (snprintf's count: past len means the
 * list did not fit, which the callers check once at the end). */
static void emit_write(const struct pp_op *op, char *list, size_t len, size_t *used)
{
    *used += (size_t)snprintf(list + *used, *used < len ? len - *used : 0,
                              " w 0x%08" PRIx32 " 0x%08" PRIx32, op->addr, op->wdata);
}

static void emit_read(uint32_t first, uint32_t last, char *list, size_t len, size_t *used)
{
    *used += (size_t)snprintf(list + *used, *used < len ? len - *used : 0, " r 0x%08" PRIx32 " %u",
                              first, (unsigned)((last - first) / 4 + 1));
}

/* The block (of blocks first[0..nb), last[]) that holds addr. */
static size_t block_of(const uint32_t *first, const uint32_t *last, size_t nb, uint32_t addr)
{
    for (size_t k = 0; k < nb; k++)
        if (addr >= first[k] && addr <= last[k])
            return k;
    return nb;
}

/* Where write op i goes in the address-ordered program: before the block
 * of the first read after it in the plan in its own 4 KB block (the
 * snapshot copies after their PMSSCR write), else of the first read after
 * it at all; nb (the end) when no read follows. */
static size_t write_slot(const struct bench *b, size_t i, const uint32_t *first,
                         const uint32_t *last, size_t nb)
{
    size_t any = b->n;

    for (size_t j = i + 1; j < b->n; j++) {
        if (b->ops[j].write)
            continue;
        if ((b->ops[j].addr & ~0xFFFu) == (b->ops[i].addr & ~0xFFFu))
            return block_of(first, last, nb, b->ops[j].addr);
        if (any == b->n)
            any = j;
    }
    return any == b->n ? nb : block_of(first, last, nb, b->ops[any].addr);
}

/* The program the best hand-written loop runs each sample, as "r ADDR
 * WORDS" / "w ADDR VALUE" triples of a TCL list.  It reads the register
 * set, not the plan's order: every address once, ascending, and one
 * read_memory per run of adjacent words or per PMU window the run lies in
 * (one more word costs a scan of 40 TCK, another read_memory two USB round
 * trips), so it pays neither for the plan's order (hi/lo/hi, flags before
 * counters) nor for status per word or the overrun check.  The plan's
 * writes it must do as well (a snapshot's PMSSCR write, without which the
 * copies are stale): each one write_memory, just before the block it must
 * precede (write_slot).  where[i]: the word of the reply that is read op
 * i (repeated addresses share one).  Returns the OpenOCD commands per
 * sample (blocks and writes), 0 when the list does not fit; *words the
 * words read per sample. */
static unsigned plan_blocks_ordered(const struct bench *b, char *list, size_t len,
                                    size_t *where, size_t *words);

static unsigned plan_blocks(const struct bench *b, bool ordered, char *list, size_t len,
                            size_t *where, size_t *words)
{
    uint32_t addr[MAX_OPS], first[MAX_OPS], last[MAX_OPS];
    size_t na = 0, nb = 0, used = 0, slot[MAX_OPS];
    unsigned cmds = 0;

    if (ordered)
        return plan_blocks_ordered(b, list, len, where, words);
    for (size_t i = 0; i < b->n; i++)
        if (!b->ops[i].write)
            addr[na++] = b->ops[i].addr;
    qsort(addr, na, sizeof(addr[0]), cmp_u32);
    *words = 0;
    for (size_t i = 0; i < na;) {
        int w = window_of(b->t, addr[i]);
        size_t j = i + 1;

        first[nb] = last[nb] = addr[i];
        while (j < na && (addr[j] == last[nb] || addr[j] == last[nb] + 4
                          || (w >= 0 && window_of(b->t, addr[j]) == w
                              && (addr[j] & ~0xFFFu) == (first[nb] & ~0xFFFu))))
            last[nb] = addr[j++];
        for (size_t k = 0; k < b->n; k++)
            if (!b->ops[k].write && b->ops[k].addr >= first[nb] && b->ops[k].addr <= last[nb])
                where[k] = *words + (b->ops[k].addr - first[nb]) / 4;
        *words += (last[nb] - first[nb]) / 4 + 1;
        nb++;
        i = j;
    }
    for (size_t i = 0; i < b->n; i++)
        if (b->ops[i].write)
            slot[i] = write_slot(b, i, first, last, nb);
    for (size_t k = 0; k <= nb; k++) {
        for (size_t i = 0; i < b->n; i++) {
            if (b->ops[i].write && slot[i] == k) {
                emit_write(&b->ops[i], list, len, &used);
                cmds++;
            }
        }
        if (k < nb) {
            emit_read(first[k], last[k], list, len, &used);
            cmds++;
        }
    }
    return used < len ? cmds : 0;
}

/* tclo's program: the plan's accesses in its order, a read joining the
 * block before it when it is the next word or lies above it in the same
 * PMU window of the same block; a write is a write_memory of its own. */
static unsigned plan_blocks_ordered(const struct bench *b, char *list, size_t len,
                                    size_t *where, size_t *words)
{
    size_t used = 0;
    unsigned cmds = 0;

    *words = 0;
    for (size_t i = 0; i < b->n;) {
        uint32_t first = b->ops[i].addr, last = first;
        int w = window_of(b->t, first);
        size_t j = i + 1;

        cmds++;
        if (b->ops[i].write) {
            emit_write(&b->ops[i++], list, len, &used);
            continue;
        }
        while (j < b->n && !b->ops[j].write && b->ops[j].addr > last
               && (b->ops[j].addr == last + 4
                   || (w >= 0 && window_of(b->t, b->ops[j].addr) == w
                       && (b->ops[j].addr & ~0xFFFu) == (first & ~0xFFFu))))
            last = b->ops[j++].addr;
        for (size_t k = i; k < j; k++)
            where[k] = *words + (b->ops[k].addr - first) / 4;
        *words += (last - first) / 4 + 1;
        emit_read(first, last, list, len, &used);
        i = j;
    }
    return used < len ? cmds : 0;
}

/* Defined once per connection, as a user would source it. */
static const char expert_proc[] =
    "proc ocd_bench_samples {t prog n} {\n"
    "  set out {}\n"
    "  for {set i 0} {$i < $n} {incr i} {\n"
    "    foreach {op a x} $prog {\n"
    "      if {$op eq {w}} {$t write_memory $a 32 [list $x]; continue}\n"
    "      lappend out {*}[$t read_memory $a 32 $x]\n"
    "    }\n"
    "  }\n"
    "  return $out\n"
    "}\n";

/* count samples in one RPC; every word parsed, the plan's taken into
 * b->ops (as a user's script would use them).  0, or -1 with a message. */
static int expert_chunk(struct bench *b, struct pp_ocd_rpc *r, const char *target,
                        const char *blocks, const size_t *where, size_t words, unsigned count)
{
    char script[8192], err[256], *reply, *p, *end;
    size_t len, got = 0;

    snprintf(script, sizeof(script), "ocd_bench_samples %s {%s} %u", target, blocks, count);
    if (pp_ocd_exchange(r, script, 60000, &reply, &len, err, sizeof(err)) != PP_OK) {
        fprintf(stderr, "ocd_bench: %s\n", err);
        return -1;
    }
    for (p = reply;; p = end) {
        unsigned long v = strtoul(p, &end, 16);

        if (end == p)
            break;
        for (size_t i = 0; i < b->n; i++)
            if (!b->ops[i].write && where[i] == got % words)
                b->ops[i].rdata = (uint32_t)v;
        got++;
    }
    if (got != words * count)
        fprintf(stderr, "ocd_bench: tcl: %zu words back, expected %zu: '%.200s'\n", got,
                words * count, reply);
    free(reply);
    return got == words * count ? 0 : -1;
}

static int run_tcl(struct bench *b, bool ordered)
{
    struct pp_bus *bus = attach(b);
    struct pp_ocd_rpc *r = NULL;
    struct window w = { 0 };
    size_t where[MAX_OPS], words, len;
    char blocks[6144], err[256], *reply;
    const char *target;
    unsigned ncmds = plan_blocks(b, ordered, blocks, sizeof(blocks), where, &words), done = 0;
    uint64_t rt0;
    int rc = -1;

    if (!bus || !ncmds) {
        if (bus)
            fprintf(stderr, "ocd_bench: tcl: the plan's block list is too long\n");
        pp_bus_close(bus);
        return 1;
    }
    target = pp_bus_ocd_attach_info(bus)->target;
    if (pp_ocd_connect("localhost", b->port, 0, &r, err, sizeof(err)) == PP_OK
        && pp_ocd_exchange(r, expert_proc, 0, &reply, &len, err, sizeof(err)) == PP_OK) {
        free(reply);
        rc = expert_chunk(b, r, target, blocks, where, words, 1);
    } else {
        fprintf(stderr, "ocd_bench: %s\n", err);
    }
    rt0 = r ? pp_ocd_round_trips(r) : 0;
    if (rc == 0)
        rc = window_open(b, &w);
    while (rc == 0 && done < b->samples) {
        unsigned count = b->samples - done < b->chunk ? b->samples - done : b->chunk;

        rc = expert_chunk(b, r, target, blocks, where, words, count);
        done += count;
    }
    if (rc == 0)
        rc = report(b, ordered ? "tclo" : "tcl", &w, (double)(pp_ocd_round_trips(r) - rt0),
                    ncmds);
    pp_ocd_close(r);
    pp_bus_close(bus);
    return rc != 0;
}

static int usage(void)
{
    fprintf(stderr, "usage: ocd_bench -t TARGET -P PORT [-n SAMPLES] [-L CHUNK] "
                    "[-G GAPWORDS] [-C CTLSOCKET] [-R REGFILE] [-k] "
                    "[-m mdw|block|loop|tcl|tclo]...\n");
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

    while ((ch = getopt(argc, argv, "t:P:n:m:L:G:C:R:k")) != -1) {
        switch (ch) {
        case 't': target = optarg; break;
        case 'P': b.port = (unsigned)atoi(optarg); break;
        case 'n': b.samples = (unsigned)atoi(optarg); break;
        case 'L': b.chunk = (unsigned)atoi(optarg); break;
        case 'G': b.gap = atoi(optarg) != 0; break;
        case 'C': b.ctl = optarg; break;
        case 'R': b.regfile = optarg; break;
        case 'k': b.keep = true; break;
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
    if (b.regfile && plan_file(&b) != 0) {
        pp_target_free(t);
        return 1;
    }
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
        else if (strcmp(modes[i], "tcl") == 0)
            rc = run_tcl(&b, false);
        else if (strcmp(modes[i], "tclo") == 0)
            rc = run_tcl(&b, true);
        else
            rc = usage();
        fflush(stdout);
    }
    pp_target_free(t);
    return rc;
}

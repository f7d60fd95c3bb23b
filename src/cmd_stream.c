/*
 * cmd_stream.c - `pmuprobe stream`: program counters on a set of cores and
 * print them at a fixed interval, like `perf stat -I`.
 *
 * Each sample is one bus batch for all cores (design.md rule 1), planned by
 * the 64-bit extension (lib/pmu/extend.h): overflow flags, counters, the
 * previous sample's flag clear.  The loop sleeps to absolute deadlines so
 * the rate does not drift.
 */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "pmu/diag.h"
#include "pmu/extend.h"
#include "pmu/program.h"
#include "pmu/snapshot.h"

#define DEFAULT_EVENTS "cycles,instructions,L1D_CACHE_REFILL,BR_MIS_PRED"
#define NS_PER_S 1000000000ull

void help_stream(FILE *out)
{
    fprintf(out,
        "Usage: pmuprobe [OPTIONS] stream [-c CPUS] [-e EVENTS] [-i INTERVAL]\n"
        "                                 [-d DURATION | -n COUNT]\n"
        "Program the events on each core and print one line per core per interval\n"
        "with the counts of that interval, as perf stat -I does.\n"
        "  -c, --cpus CPUS        cores to sample (default all): 0-3, 0,2, cpu1, all\n"
        "  -e, --events LIST      comma-separated events (default\n"
        "                         " DEFAULT_EVENTS ");\n"
        "                         Arm mnemonics, perf names (cycles, instructions,\n"
        "                         branch-misses, ...), raw codes (r0x42), modifiers\n"
        "                         :u :k :h\n"
        "  -i, --interval TIME    sample interval: 100us, 10ms, 1s (default 100ms)\n"
        "  -d, --duration TIME    stop after TIME (default 1s)\n"
        "  -n, --count N          stop after N samples\n"
        "  -s, --snapshot         capture each core's counters at one instant with\n"
        "                         the PMU snapshot block (Cortex-A55/A76) and read\n"
        "                         the copies; event counters 0-5 only\n"
        "Counts are extended to 64 bits from the overflow flags; a counter reset or\n"
        "power cycle shows as '-' (a discontinuity), never as a huge count.  A core\n"
        "that fails is reported once with its cause and printed as a gap; the other\n"
        "cores go on.  Exit status: 0 ok, 1 some core failed, 2 bad arguments.\n");
}

struct stream_core {
    const struct pp_core_desc *core;
    struct pp_pmu_prog prog;
    struct pp_ext ext;               /* 64-bit extension state */
    size_t first_op, nops;           /* its slice of this sample's batch */
    bool reported;
};

struct stream {
    struct stream_core cores[PP_MAX_CORES];
    unsigned ncores;
    struct pp_op ops[PP_MAX_CORES * PP_EXT_PLAN_MAX];
    size_t nops;
    char names[CLI_MAX_EVENTS][48];      /* column titles, as asked */
    unsigned nnames;
};

struct stream_opts {
    uint64_t cpus, interval_ns, duration_ns, count;
    const char *events;
    bool snapshot;
};

static void report_failure(struct session *s, struct stream_core *sc, const char *what)
{
    struct pp_diag d;

    if (sc->reported)
        return;
    sc->reported = true;
    if (pp_diag_core(s->bus, sc->core, &d) == PP_OK)
        fprintf(stderr, "pmuprobe: cpu%u: %s: %s\n  evidence: %s\n  remedy:   %s\n",
                sc->core->cpu, what, pp_cause_str(d.cause), d.evidence,
                d.remedy ? d.remedy : "-");
    else
        fprintf(stderr, "pmuprobe: cpu%u: %s\n", sc->core->cpu, what);
}

static int setup_core(struct session *s, struct stream *st, const struct pp_core_desc *c,
                      const struct stream_opts *so)
{
    struct stream_core *sc = &st->cores[st->ncores++];
    struct pp_evsel ev[CLI_MAX_EVENTS];
    char err[256];
    unsigned n;
    int rc = plan_events(c, so->events, ev, &n, &sc->prog);

    if (rc != EXIT_OK)
        return rc;
    sc->core = c;
    st->nnames = n;
    for (unsigned i = 0; i < n; i++)
        snprintf(st->names[i], sizeof(st->names[i]), "%s", ev[i].name);
    rc = so->snapshot ? pp_snap_init(&sc->ext, c, pp_ext_prog_mask(&sc->prog), err, sizeof(err))
                      : pp_ext_init(&sc->ext, c, pp_ext_prog_mask(&sc->prog), err, sizeof(err));
    if (rc != PP_OK) {
        cli_error("%s", err);    /* err names the core */
        return EXIT_USAGE;
    }
    if (pp_pmu_program(s->bus, c, &sc->prog) != PP_OK) {
        report_failure(s, sc, "cannot program counters");
        return EXIT_TARGET;
    }
    return EXIT_OK;
}

static void print_header(const struct stream *st)
{
    printf("%10s %-5s", "time(s)", "cpu");
    for (unsigned i = 0; i < st->nnames; i++)
        printf(" %16s", st->names[i]);
    printf("\n");
}

/* Lays out one sample: every core's plan, one batch. */
static void plan_sample(struct stream *st)
{
    st->nops = 0;
    for (unsigned i = 0; i < st->ncores; i++) {
        struct stream_core *sc = &st->cores[i];

        sc->first_op = st->nops;
        /* Cannot fail: ops[] holds PP_EXT_PLAN_MAX per core. */
        pp_ext_plan(&sc->ext, st->ops, sizeof(st->ops) / sizeof(st->ops[0]), &st->nops);
        sc->nops = st->nops - sc->first_op;
    }
}

static void print_core(struct session *s, struct stream_core *sc, const struct stream *st,
                       double t)
{
    struct pp_ext_sample smp;
    const struct pp_op *slice = &st->ops[sc->first_op];

    pp_ext_update(&sc->ext, slice, sc->nops, NULL, &smp);
    if (smp.why & PP_EXT_WHY_READ) {
        printf("%10.3f cpu%-2u  <not counted: %s>\n", t, sc->core->cpu,
               pp_strerror(smp.err));
        report_failure(s, sc, "counters unreadable");
        return;
    }
    if (smp.why & (PP_EXT_WHY_START | PP_EXT_WHY_GAP))
        return;   /* a baseline: the next sample has deltas */
    printf("%10.3f cpu%-2u", t, sc->core->cpu);
    for (unsigned i = 0; i < sc->prog.nreq; i++) {
        const struct pp_ext_val *v = &smp.v[sc->prog.slot[i] == PP_CYCLE_SLOT ? PP_EXT_CYCLE
                                                                            : sc->prog.slot[i]];

        if (v->flags & PP_EXT_F_DISCONT)
            printf(" %16s", "-");
        else
            printf(" %16" PRIu64, v->delta);
    }
    if (smp.why)
        printf("  (discontinuity: %s)", pp_ext_why_str(smp.why & -smp.why));
    printf("\n");
}

static void add_ns(struct timespec *ts, uint64_t ns)
{
    ns += (uint64_t)ts->tv_nsec;
    ts->tv_sec += (time_t)(ns / NS_PER_S);
    ts->tv_nsec = (long)(ns % NS_PER_S);
}

static int run_loop(struct session *s, struct stream *st, const struct stream_opts *so)
{
    struct timespec start, next;
    uint64_t samples = so->count ? so->count + 1 : so->duration_ns / so->interval_ns + 1;
    int exit_code = EXIT_OK;

    clock_gettime(CLOCK_MONOTONIC, &start);
    next = start;
    for (uint64_t k = 0; k < samples; k++) {
        double t = (double)(k * so->interval_ns) / 1e9;

        plan_sample(st);
        if (pp_bus_run(s->bus, st->ops, st->nops) == PP_E_LINK) {
            cli_error("access path lost: %s", pp_bus_errmsg(s->bus));
            return EXIT_PATH;
        }
        for (unsigned i = 0; i < st->ncores; i++) {
            print_core(s, &st->cores[i], st, t);
            exit_code = st->cores[i].reported ? EXIT_TARGET : exit_code;
        }
        fflush(stdout);
        add_ns(&next, so->interval_ns);
        if (so->interval_ns && k + 1 < samples)
            clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, NULL);
    }
    return exit_code;
}

static int parse_stream_opts(int argc, char **argv, struct stream_opts *so, const char **cpus)
{
    static const struct option longopts[] = {
        { "cpus", required_argument, NULL, 'c' }, { "events", required_argument, NULL, 'e' },
        { "interval", required_argument, NULL, 'i' }, { "duration", required_argument, NULL, 'd' },
        { "count", required_argument, NULL, 'n' }, { "snapshot", no_argument, NULL, 's' },
        { "help", no_argument, NULL, 'h' },
        { NULL, 0, NULL, 0 },
    };
    uint32_t count;
    int ch;

    *so = (struct stream_opts){ .interval_ns = 100000000, .duration_ns = NS_PER_S,
                                .events = DEFAULT_EVENTS };
    *cpus = "all";
    while ((ch = getopt_long(argc, argv, "+c:e:i:d:n:sh", longopts, NULL)) != -1) {
        switch (ch) {
        case 'c': *cpus = optarg; break;
        case 'e': so->events = optarg; break;
        case 'i':
            if (!parse_duration_ns(optarg, &so->interval_ns)) {
                cli_error("--interval '%s': expected a time such as 100us, 10ms or 1s", optarg);
                return EXIT_USAGE;
            }
            break;
        case 'd':
            if (!parse_duration_ns(optarg, &so->duration_ns)) {
                cli_error("--duration '%s': expected a time such as 500ms or 30s", optarg);
                return EXIT_USAGE;
            }
            break;
        case 'n':
            if (!parse_u32(optarg, &count) || count == 0) {
                cli_error("--count '%s': expected a positive number of samples", optarg);
                return EXIT_USAGE;
            }
            so->count = count;
            break;
        case 's': so->snapshot = true; break;
        case 'h': help_stream(stdout); return -1;
        default: help_stream(stderr); return EXIT_USAGE;
        }
    }
    if (optind < argc) {
        cli_error("stream: unexpected argument '%s'", argv[optind]);
        return EXIT_USAGE;
    }
    if (so->interval_ns == 0 && so->count == 0) {
        cli_error("--interval 0 (as fast as possible) needs --count");
        return EXIT_USAGE;
    }
    return EXIT_OK;
}

int cmd_stream(const struct cli_opts *o, int argc, char **argv)
{
    struct stream_opts so;
    struct session s;
    struct stream *st;
    const char *cpus;
    int rc = parse_stream_opts(argc, argv, &so, &cpus), worst = EXIT_OK;

    if (rc != EXIT_OK)
        return rc < 0 ? EXIT_OK : rc;
    rc = session_open(o, &s);
    if (rc != EXIT_OK)
        return rc;
    st = calloc(1, sizeof(*st));
    if (!st || !parse_cpus(s.target, cpus, &so.cpus)) {
        rc = st ? EXIT_USAGE : EXIT_PATH;
        goto out;
    }
    for (unsigned i = 0; i < s.target->ncores && rc != EXIT_USAGE; i++) {
        if (so.cpus & (1ull << s.target->cores[i].cpu)) {
            rc = setup_core(&s, st, &s.target->cores[i], &so);
            worst = rc > worst ? rc : worst;
        }
    }
    if (rc == EXIT_USAGE)
        goto out;
    print_header(st);
    rc = run_loop(&s, st, &so);
    rc = rc > worst ? rc : worst;
out:
    free(st);
    session_close(&s);
    return rc;
}

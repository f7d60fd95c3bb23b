/*
 * cmd_stream.c - `pmuprobe stream`: program counters on a set of cores and
 * print them at a fixed interval, like `perf stat -I`.
 *
 * Each sample is one bus batch laid out once before the loop (design.md
 * rule 1); the loop sleeps to absolute deadlines so the rate does not drift.
 */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "pmu/diag.h"
#include "pmu/program.h"
#include "pmu/regs.h"

#define DEFAULT_EVENTS "cycles,instructions,L1D_CACHE_REFILL,BR_MIS_PRED"
#define MAX_EVENTS 16
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
        "A core that fails is reported once with its cause and printed as a gap; the\n"
        "other cores go on.  Exit status: 0 ok, 1 some core failed, 2 bad arguments.\n");
}

struct stream_core {
    const struct pp_core_desc *core;
    struct pp_pmu_prog prog;
    size_t first_op;                 /* its slice of the sample batch */
    uint64_t prev[PP_MAX_COUNTERS + 1];  /* last raw value per slot */
    bool have_prev, reported;
};

struct stream {
    struct stream_core cores[PP_MAX_CORES];
    unsigned ncores;
    struct pp_op ops[PP_MAX_CORES * (MAX_EVENTS + 2)];
    size_t nops;
    char names[MAX_EVENTS][48];      /* column titles, as asked */
    unsigned nnames;
};

struct stream_opts {
    uint64_t cpus, interval_ns, duration_ns, count;
    const char *events;
};

static int resolve_events(const struct pp_core_desc *c, const char *events, struct pp_evsel *ev,
                          unsigned *n)
{
    char list[512], err[256], *save = NULL;

    snprintf(list, sizeof(list), "%s", events);
    *n = 0;
    for (char *tok = strtok_r(list, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        if (*n == MAX_EVENTS) {
            cli_error("too many events (at most %d)", MAX_EVENTS);
            return EXIT_USAGE;
        }
        if (pp_event_resolve(c->type, tok, &ev[*n], err, sizeof(err)) != PP_OK) {
            cli_error("cpu%u: %s", c->cpu, err);
            return EXIT_USAGE;
        }
        (*n)++;
    }
    if (*n == 0) {
        cli_error("no events given (expected e.g. -e cycles,instructions)");
        return EXIT_USAGE;
    }
    return EXIT_OK;
}

/* Slots read per sample: each event counter, then PMCCNTR low and high
 * (PMUv3's cycle counter is 64-bit; PMUv2's is 32-bit, one word). */
static size_t slice_len(const struct stream_core *sc)
{
    bool wide = sc->core->type->pmu_version >= 3;

    return sc->prog.nev + (sc->prog.cycles ? (wide ? 2u : 1u) : 0u);
}

static void lay_out(struct stream *st, struct stream_core *sc)
{
    struct pp_op *op = &st->ops[st->nops];
    uint32_t base = sc->core->pmu_base, cc = pp_pmu_ccntr_off(sc->core);

    sc->first_op = st->nops;
    for (unsigned e = 0; e < sc->prog.nev; e++)
        *op++ = (struct pp_op){ .addr = base + pp_pmu_evcntr_off(sc->core, e) };
    if (sc->prog.cycles) {
        *op++ = (struct pp_op){ .addr = base + cc };
        if (sc->core->type->pmu_version >= 3)
            *op++ = (struct pp_op){ .addr = base + cc + 4 };
    }
    st->nops += slice_len(sc);
}

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
                      const char *events)
{
    struct stream_core *sc = &st->cores[st->ncores++];
    struct pp_evsel ev[MAX_EVENTS];
    char err[256];
    unsigned n;
    int rc = resolve_events(c, events, ev, &n);

    if (rc != EXIT_OK)
        return rc;
    sc->core = c;
    if (pp_pmu_allocate(c, ev, n, &sc->prog, err, sizeof(err)) != PP_OK) {
        cli_error("%s", err);
        return EXIT_USAGE;
    }
    st->nnames = n;
    for (unsigned i = 0; i < n; i++)
        snprintf(st->names[i], sizeof(st->names[i]), "%s", ev[i].name);
    lay_out(st, sc);
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

/* Reads this core's slice into raw[slot]; false if any read failed. */
static bool slice_values(const struct stream *st, const struct stream_core *sc, uint64_t *raw)
{
    const struct pp_op *op = &st->ops[sc->first_op];

    for (size_t i = 0; i < slice_len(sc); i++)
        if (op[i].st != PP_OP_OK)
            return false;
    for (unsigned e = 0; e < sc->prog.nev; e++)
        raw[e] = op[e].rdata;
    if (sc->prog.cycles) {
        uint64_t hi = sc->core->type->pmu_version >= 3 ? op[sc->prog.nev + 1].rdata : 0;

        raw[PP_CYCLE_SLOT] = hi << 32 | op[sc->prog.nev].rdata;
    }
    return true;
}

static void print_core(struct session *s, struct stream_core *sc, const struct stream *st,
                       double t)
{
    uint64_t raw[PP_MAX_COUNTERS + 1] = { 0 };
    bool wide = sc->core->type->pmu_version >= 3;

    if (!slice_values(st, sc, raw)) {
        printf("%10.3f cpu%-2u  <not counted: %s>\n", t, sc->core->cpu,
               pp_op_status_str(st->ops[sc->first_op].st));
        report_failure(s, sc, "counters unreadable");
        sc->have_prev = false;
        return;
    }
    if (sc->have_prev) {
        printf("%10.3f cpu%-2u", t, sc->core->cpu);
        for (unsigned i = 0; i < sc->prog.nreq; i++) {
            unsigned slot = sc->prog.slot[i];
            /* 32-bit counters wrap; one interval never spans 2^32 events at
             * the rates a core reaches in the intervals this command takes. */
            uint64_t d = raw[slot] - sc->prev[slot];

            if (slot != PP_CYCLE_SLOT || !wide)
                d &= 0xFFFFFFFFu;
            printf(" %16" PRIu64, d);
        }
        printf("\n");
    }
    memcpy(sc->prev, raw, sizeof(raw));
    sc->have_prev = true;
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
        { "count", required_argument, NULL, 'n' }, { "help", no_argument, NULL, 'h' },
        { NULL, 0, NULL, 0 },
    };
    uint32_t count;
    int ch;

    *so = (struct stream_opts){ .interval_ns = 100000000, .duration_ns = NS_PER_S,
                                .events = DEFAULT_EVENTS };
    *cpus = "all";
    while ((ch = getopt_long(argc, argv, "+c:e:i:d:n:h", longopts, NULL)) != -1) {
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
            rc = setup_core(&s, st, &s.target->cores[i], so.events);
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

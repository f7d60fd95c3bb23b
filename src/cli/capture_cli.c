/*
 * capture_cli.c - the half of `stream` and `stat` that is the same: see
 * capture_cli.h.
 */
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "capture/sink.h"
#include "capture_cli.h"
#include "pmu/diag.h"
#include "sim/sim.h"

#define NS_PER_S     1000000000ull
#define WAIT_STEP    100000000ull    /* look at signals and progress every 100 ms */
#define PROGRESS_NS  250000000ull

/* The process state: set by the handler, read by the loop; and the
 * command's own reason when it stopped the capture without a signal. */
static volatile sig_atomic_t stop_signal;
static const char *stop_why;
/* Set by capcli_setup on -p sim with deterministic target time: per
 * second of wall time, counts are not the core's rates. */
static unsigned sim_access_ns;

/* ---- options ----------------------------------------------------------------------- */

static int take_list(const char *arg, struct capcli_opts *co)
{
    if (co->nlists == CAPCLI_MAX_LISTS) {
        cli_error("too many -e options (at most %d)", CAPCLI_MAX_LISTS);
        return -1;
    }
    co->lists[co->nlists++] = arg;
    return 1;
}

static int take_count(const char *arg, struct capcli_opts *co)
{
    return cli_parse_count("--count", arg, 1, UINT32_MAX, "a number of intervals", &co->count)
           ? 1 : -1;
}

static int take_ring(const char *arg, struct capcli_opts *co)
{
    uint32_t n;

    if (!parse_u32(arg, &n) || n < 2 || n > (1u << 24)) {
        cli_error("--ring '%s': expected a number of records from 2 to 16777216", arg);
        return -1;
    }
    co->ring = n;
    return 1;
}

static int take_policy(const char *arg, struct capcli_opts *co)
{
    if (!pp_cap_policy_parse(arg, &co->policy)) {
        cli_error("--policy '%s': expected 'block' (the sampler waits for the writer) or "
                  "'drop' (samples are dropped and counted)", arg);
        return -1;
    }
    return 1;
}

/* The times the capture commands take (capture_cli.h): a bare -i is
 * milliseconds as perf's -I; -d and --retry want a unit.  An hour between
 * samples is already far past any counter's wrap; a year is the longest
 * soak anyone has asked for. */
static const struct cli_time interval = { "--interval", 0, 3600 * NS_PER_S, true };
static const struct cli_time duration = { "--duration", 1, 8760 * 3600 * NS_PER_S, false };
static const struct cli_time retry = { "--retry", 1, 3600 * NS_PER_S, false };

static int take_time(int ch, const char *arg, struct capcli_opts *co)
{
    switch (ch) {
    case 'i': return cli_parse_time(&interval, arg, &co->interval_ns) ? 1 : -1;
    case 'd': return cli_parse_time(&duration, arg, &co->duration_ns) ? 1 : -1;
    default: return cli_parse_time(&retry, arg, &co->retry_ns) ? 1 : -1;
    }
}

int capcli_option(int ch, const char *arg, struct capcli_opts *co)
{
    switch (ch) {
    case 'c': co->cpus = arg; return 1;
    case 'e': return take_list(arg, co);
    case 'i': case 'd': case CAPOPT_RETRY: return take_time(ch, arg, co);
    case 'n': return take_count(arg, co);
    case 's': co->snapshot = true; return 1;
    case CAPOPT_LIVE: co->live = true; return 1;
    case CAPOPT_STEAL: co->steal = true; return 1;
    case 'q': case CAPOPT_QUIET: co->quiet = true; return 1;
    case CAPOPT_OBSERVE: co->observe = true; return 1;
    case CAPOPT_RING: return take_ring(arg, co);
    case CAPOPT_POLICY: return take_policy(arg, co);
    case CAPOPT_REALTIME: co->realtime = true; return 1;
    case CAPOPT_NO_EDPRSR: co->no_edprsr = true; return 1;
    default: return 0;
    }
}

int capcli_check(const struct capcli_opts *co, const char *cmd)
{
    if (co->observe && co->nlists) {
        cli_error("%s: --observe counts the events the target programmed; it takes no -e",
                  cmd);
        return EXIT_USAGE;
    }
    if (co->observe && co->snapshot) {
        cli_error("%s: --snapshot writes PMSSCR to capture, and --observe never writes",
                  cmd);
        return EXIT_USAGE;
    }
    if (co->snapshot && co->live) {
        cli_error("%s: --snapshot and --live exclude each other (without either, each core "
                  "gets the cheaper one)", cmd);
        return EXIT_USAGE;
    }
    if (co->observe && co->steal) {
        cli_error("%s: --steal takes counters, and --observe never writes", cmd);
        return EXIT_USAGE;
    }
    if (co->count && co->duration_ns) {
        cli_error("%s: --count and --duration exclude each other", cmd);
        return EXIT_USAGE;
    }
    return EXIT_OK;
}

int capcli_parse(int argc, char **argv, const char *shortopts, const struct option *longopts,
                 const char *cmd, struct capcli_opts *co,
                 int (*own)(int ch, const char *arg, void *ctx), void *ctx,
                 void (*help)(FILE *out))
{
    int ch, r;

    while ((ch = cli_getopt(argc, argv, shortopts, longopts, cmd)) != -1) {
        if (ch == '?')
            return EXIT_USAGE;      /* said in one line */
        if (ch == 'h') {
            help(stdout);
            return -1;
        }
        r = own(ch, optarg, ctx);
        if (r == 0)
            r = capcli_option(ch, optarg, co);
        if (r <= 0)
            return EXIT_USAGE;
    }
    if (optind < argc) {
        cli_usage(cmd, "unexpected argument '%s' (%s samples the cores of the target; it "
                  "takes options only and runs no command)", argv[optind], cmd);
        return EXIT_USAGE;
    }
    return capcli_check(co, cmd);
}

void capcli_help_options(FILE *out, const struct capcli_help *h)
{
    fprintf(out,
        "  -c, --cpu CPUS         cores (default all): 0-3, 0-3,6, cpu1, all\n"
        "  -e, --events [TYPE:]LIST  comma-separated events, resolved for each core:\n"
        "                         Arm mnemonics, perf names (cycles, instructions,\n"
        "                         branch-misses, ...), raw codes (r0x42), modifiers\n"
        "                         :u :k :h (default " CAPCLI_DEFAULT_EVENTS ").\n"
        "                         On big.LITTLE give one list per core type:\n"
        "                         -e a76:cycles,instructions -e a55:cycles\n"
        "  -i, --interval TIME    sample interval: 100us, 10ms, 1s, 5m, up to 1h; a bare\n"
        "                         number is milliseconds, as perf stat -I; 0 = as fast\n"
        "                         as the access path allows, one round trip per sample\n"
        "                         (default %s).  Below 5ms, paths with a repeat mode\n"
        "                         (ftdi, openocd) carry many samples per round trip,\n"
        "                         spaced by the interval on the target side; rbb\n"
        "                         makes one round trip per sample at every interval\n"
        "  -d, --duration TIME    stop when TIME is up, with its unit: ns, us, ms, s, m\n"
        "                         or h (500ms, 30s, 8h), up to 8760h; samples a slower\n"
        "                         path could not take by then are not taken late but\n"
        "                         counted in the summary (dropped, missed)\n",
        h->interval_default);
    if (h->count)
        fprintf(out,
            "  -n, --count N          stop after N intervals, 1 to 4294967295 (N + 1\n"
            "                         samples: the first is the baseline)\n"
            "                         without -d or -n: until Ctrl-C (SIGINT) or SIGTERM\n");
    fprintf(out,
        "  -s, --snapshot         read each core's counters from the snapshot block\n"
        "                         (Cortex-A55/A76), all captured at one instant;\n"
        "                         the default on cores that have it, unless the\n"
        "                         cycle counter is sampled alone or an event counter\n"
        "                         above 5 is in use (then those cores are read live)\n"
        "      --live             read the counters live on every core\n"
        "      --observe          never write: count whatever the target's software has\n"
        "                         programmed (events named from PMEVTYPER<n>)\n"
        "      --steal            take counters that on-target software is using\n"
        "      --realtime         stamp samples with CLOCK_REALTIME too\n");
    if (h->ring)
        fprintf(out,
            "      --ring N           records buffered between sampler and writer (8192)\n"
            "      --policy POLICY    when the buffer is full: block (the sampler waits,\n"
            "                         samples come late) or drop (samples are dropped,\n"
            "                         counted, and a drop record marks the gap)\n");
    fprintf(out,
        "      --retry TIME       how often a failing core is tried again (100ms; a\n"
        "                         unit as for -d, up to 1h)\n"
        "      --no-edprsr        do not read EDPRSR with each sample (power cycles\n"
        "                         and resets are then seen only as failed reads)\n"
        "  -q, --quiet            no progress line and no summary on stderr\n");
}

void capcli_help_common(FILE *out)
{
    static const struct capcli_help stream = { "100ms", true, true };

    capcli_help_options(out, &stream);
}

/* ---- setup --------------------------------------------------------------------------- */

struct lists {
    const struct pp_core_type *type[CAPCLI_MAX_LISTS];
    const char *typed[CAPCLI_MAX_LISTS];
    unsigned ntyped;
    char any[512];
};

/* -e a76:LIST names a core type before the first ':'; anything else
 * (cycles:u, r0x42:k, a plain list) is for every core. */
static int split_lists(const struct capcli_opts *co, struct lists *l)
{
    size_t used = 0;

    memset(l, 0, sizeof(*l));
    for (unsigned i = 0; i < co->nlists; i++) {
        const char *arg = co->lists[i], *colon = strchr(arg, ':');
        char prefix[32];
        const struct pp_core_type *ct = NULL;

        if (colon && (size_t)(colon - arg) < sizeof(prefix)) {
            memcpy(prefix, arg, (size_t)(colon - arg));
            prefix[colon - arg] = '\0';
            ct = pp_core_type_find(prefix);
        }
        if (ct) {
            l->type[l->ntyped] = ct;
            l->typed[l->ntyped++] = colon + 1;
            continue;
        }
        if (used + strlen(arg) + 2 > sizeof(l->any)) {
            cli_error("event lists too long (at most %zu characters)", sizeof(l->any) - 1);
            return EXIT_USAGE;
        }
        used += (size_t)snprintf(l->any + used, sizeof(l->any) - used, "%s%s",
                                 used ? "," : "", arg);
    }
    return EXIT_OK;
}

static const char *list_for(const struct lists *l, const struct capcli_opts *co,
                            const struct pp_core_desc *c)
{
    for (unsigned i = 0; i < l->ntyped; i++)
        if (l->type[i] == c->type || strcasecmp(l->type[i]->name, c->type->name) == 0)
            return l->typed[i];
    if (l->any[0])
        return l->any;
    return co->nlists ? NULL : CAPCLI_DEFAULT_EVENTS;
}

static int typed_lists_used(const struct lists *l, const struct session *s, uint64_t set)
{
    for (unsigned i = 0; i < l->ntyped; i++) {
        bool used = false;

        for (unsigned k = 0; k < s->target->ncores; k++) {
            const struct pp_core_desc *c = &s->target->cores[k];

            if ((set >> c->cpu & 1u) && strcasecmp(c->type->name, l->type[i]->name) == 0)
                used = true;
        }
        if (!used) {
            cli_error("-e %s:...: no selected core is a %s", l->type[i]->name,
                      l->type[i]->pretty);
            return EXIT_USAGE;
        }
    }
    return EXIT_OK;
}

static int add_listed(struct pp_cap *cap, const struct lists *l, const struct capcli_opts *co,
                      const struct pp_core_desc *c)
{
    const char *list = list_for(l, co, c);
    struct pp_evsel ev[CLI_MAX_EVENTS];
    struct pp_pmu_prog prog;
    char err[256];
    unsigned n;
    int rc;

    if (!list) {
        cli_error("cpu%u (%s): no event list for its type; add -e %s:LIST or a list "
                  "without a type", c->cpu, c->type->pretty, c->type->name);
        return EXIT_USAGE;
    }
    rc = plan_events(c, list, ev, &n, &prog);     /* prints what is wrong */
    if (rc != EXIT_OK)
        return rc;
    if (pp_cap_add_core(cap, c, ev, n, err, sizeof(err)) != PP_OK) {
        cli_error("%s", err);
        return EXIT_USAGE;
    }
    return EXIT_OK;
}

static int add_observed(struct pp_cap *cap, const struct pp_core_desc *c)
{
    char err[512];
    int rc = pp_cap_add_observed(cap, c, err, sizeof(err));

    if (rc == PP_OK)
        return EXIT_OK;
    cli_error("%s%s", rc == PP_E_NOTFOUND ? "skipped: " : "", err);
    return rc == PP_E_LINK ? EXIT_PATH : EXIT_TARGET;
}

static int add_cores(struct pp_cap *cap, const struct session *s, const struct capcli_opts *co,
                     uint64_t set, int *worst)
{
    struct lists l;
    int rc = split_lists(co, &l);

    if (rc == EXIT_OK)
        rc = typed_lists_used(&l, s, set);
    for (unsigned i = 0; i < s->target->ncores && rc == EXIT_OK; i++) {
        const struct pp_core_desc *c = &s->target->cores[i];

        if (!(set >> c->cpu & 1u))
            continue;
        if (!co->observe) {
            rc = add_listed(cap, &l, co, c);
            continue;
        }
        rc = add_observed(cap, c);
        if (rc == EXIT_TARGET) {
            *worst = EXIT_TARGET;
            rc = EXIT_OK;
        }
    }
    if (rc == EXIT_OK && pp_cap_ncores(cap) == 0) {
        cli_error("no core left to capture: every core selected was skipped (see the "
                  "messages above); choose other cores with -c, or program counters on the "
                  "target before --observe%s", s->sim ? " (-p sim builds a fresh SoC for "
                  "every command, so nothing an earlier config programmed is there: use "
                  "pmuprobe-sim over -p rbb, which keeps its SoC)" : "");
        rc = EXIT_TARGET;
    }
    return rc;
}

/* Programs every core; a refusal stops everything before sampling. */
static int program_cores(struct pp_cap *cap, const struct capcli_opts *co, int *worst)
{
    const struct pp_cap_meta *m = pp_cap_meta(cap);

    for (unsigned k = 0; k < pp_cap_ncores(cap); k++) {
        char msg[1024];
        int rc = pp_cap_program(cap, k, co->steal ? PP_CAP_FORCE : 0u, msg, sizeof(msg));

        if (rc == PP_OK) {
            if (msg[0])
                fprintf(stderr, "pmuprobe: %s%s\n", co->steal ? "warning: --steal: " : "note: ",
                        msg);
            continue;
        }
        if (rc == PP_E_BUSY) {
            fprintf(stderr, "pmuprobe: %s\n  refused: nothing written to cpu%u; stop that "
                    "software first, or pass --steal to take the counters anyway\n", msg,
                    m->core[k].cpu);
            return EXIT_TARGET;
        }
        if (rc == PP_E_UNSUPPORTED) {
            fprintf(stderr, "pmuprobe: %s\n  refused: nothing written to cpu%u\n", msg,
                    m->core[k].cpu);
            return EXIT_TARGET;
        }
        if (rc == PP_E_LINK) {
            cli_error("access path lost while programming cpu%u%s%s; check the probe and "
                      "its connection, then run again", m->core[k].cpu, msg[0] ? ": " : "", msg);
            return EXIT_PATH;
        }
        /* The core stays in the capture as a gap and is retried. */
        fprintf(stderr, "pmuprobe: %s\n", msg);
        *worst = EXIT_TARGET;
    }
    return EXIT_OK;
}

/*
 * The in-process simulator in deterministic time (the default of most
 * targets, lib/sim/sim.h) moves target time on by access_ns per bus
 * access, not with the wall clock: a 1.2 GHz core then counts a few
 * thousand cycles per wall second.  Said once here and in the summary.
 */
static void sim_time_note(const struct session *s, const struct capcli_opts *co)
{
    const struct pp_target *t = s->sim ? pp_sim_target(s->sim) : NULL;

    sim_access_ns = 0;
    if (!t || t->time_mode != PP_TIME_DETERMINISTIC)
        return;
    sim_access_ns = t->access_ns ? t->access_ns : 1;
    if (!co->quiet)
        fprintf(stderr, "pmuprobe: note: the simulated SoC keeps deterministic target time "
                "(%u ns per bus access), not wall time: counts per second are per second "
                "of wall time, far below the core's clock; --sim-time realtime runs it on "
                "the wall clock\n", sim_access_ns);
}

int capcli_setup(const struct cli_opts *o, const struct capcli_opts *co, struct session *s,
                 struct pp_cap **cap, int *worst)
{
    struct pp_cap_config cfg;
    struct link_report lr;
    uint64_t set;
    int rc = session_open(o, s);

    *cap = NULL;
    *worst = EXIT_OK;
    if (rc != EXIT_OK)
        return rc;
    if (!parse_cpus(s->target, co->cpus ? co->cpus : "all", &set)) {
        session_close(s);
        return EXIT_USAGE;
    }
    link_report(s->bus, &lr);   /* the TCK goes into the capture's meta */
    cfg = (struct pp_cap_config){
        .bus = s->bus, .target = s->target->name, .probe = s->probe_name, .tck_hz = lr.tck_hz,
        .interval_ns = co->interval_ns, .duration_ns = co->duration_ns, .count = co->count,
        .snapshot = co->snapshot, .live = co->live, .observe = co->observe, .realtime = co->realtime,
        .no_edprsr = co->no_edprsr, .ring_slots = co->ring, .policy = co->policy,
        .retry_ns = co->retry_ns,
    };
    *cap = pp_cap_new(&cfg);
    if (!*cap) {
        cli_error("out of memory");
        session_close(s);
        return EXIT_PATH;
    }
    rc = add_cores(*cap, s, co, set, worst);
    if (rc == EXIT_OK)
        rc = program_cores(*cap, co, worst);
    if (rc == EXIT_OK)
        sim_time_note(s, co);
    if (rc != EXIT_OK) {
        capcli_close(*cap, s);
        *cap = NULL;
    }
    return rc;
}

/* ---- run -------------------------------------------------------------------------------- */

static void on_signal(int sig)
{
    stop_signal = sig;
}

void capcli_signals_catch(struct capcli_signals *old)
{
    struct sigaction sa;

    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    stop_signal = 0;
    sigaction(SIGINT, &sa, &old->intr);
    sigaction(SIGTERM, &sa, &old->term);
    /* A closed pipe becomes a write error (EPIPE): the capture stops
     * with its summary instead of dying silently. */
    sa.sa_handler = SIG_IGN;
    sigaction(SIGPIPE, &sa, &old->pipe);
}

void capcli_signals_restore(const struct capcli_signals *old)
{
    sigaction(SIGINT, &old->intr, NULL);
    sigaction(SIGTERM, &old->term, NULL);
    sigaction(SIGPIPE, &old->pipe, NULL);
}

int capcli_stop_signal(void)
{
    return stop_signal;
}

void capcli_stop_reason(const char *why)
{
    stop_why = why;
}

/* What asked for a PP_CAP_STOP_SIGNAL stop, in words. */
static const char *stop_request(void)
{
    if (stop_signal == SIGINT)
        return "SIGINT";
    if (stop_signal == SIGTERM)
        return "SIGTERM";
    return stop_why ? stop_why : "signal";
}

static const char *fmt_bytes(uint64_t b, char *buf, size_t n)
{
    if (b >= 1ull << 20)
        snprintf(buf, n, "%.1f MB", (double)b / (1 << 20));
    else if (b >= 10ull << 10)
        snprintf(buf, n, "%.1f kB", (double)b / (1 << 10));
    else
        snprintf(buf, n, "%" PRIu64 " bytes", b);
    return buf;
}

static void show_progress(const struct pp_cap *cap)
{
    struct pp_cap_progress p;
    char bytes[32];
    double s;

    pp_cap_progress(cap, &p);
    s = (double)p.elapsed_ns / 1e9;
    fprintf(stderr, "\rpmuprobe: %.1f s, %" PRIu64 " samples (%.0f/s), late %" PRIu64
            ", dropped %" PRIu64 ", gaps %" PRIu64 ", %s\033[K", s, p.samples,
            s > 0 ? (double)p.samples / s : 0.0, p.late, p.dropped, p.gap_samples,
            fmt_bytes(p.bytes, bytes, sizeof(bytes)));
    fflush(stderr);
}

int capcli_run(struct pp_cap *cap, const struct pp_cap_out *out, bool progress)
{
    struct capcli_signals old;
    uint64_t shown = 0;
    int rc;

    capcli_signals_catch(&old);
    rc = pp_cap_start(cap, out);
    if (rc != PP_OK) {
        capcli_signals_restore(&old);
        cli_error("cannot start the capture: %s", pp_strerror(rc));
        return rc == PP_E_NOMEM ? EXIT_PATH : EXIT_TARGET;
    }
    while (!pp_cap_wait(cap, WAIT_STEP)) {
        if (stop_signal)
            pp_cap_stop(cap);
        if (progress && ++shown % (PROGRESS_NS / WAIT_STEP + 1) == 0)
            show_progress(cap);
    }
    if (progress && shown)
        fputs("\r\033[K", stderr);
    capcli_signals_restore(&old);
    return EXIT_OK;
}

/* ---- summary ------------------------------------------------------------------------------ */

static const char *fmt_ns(uint64_t ns, char *buf, size_t n)
{
    if (ns >= 1000000ull)
        snprintf(buf, n, "%.2f ms", (double)ns / 1e6);
    else if (ns >= 10000ull)
        snprintf(buf, n, "%.1f us", (double)ns / 1e3);
    else
        snprintf(buf, n, "%" PRIu64 " ns", ns);
    return buf;
}

static void summary_rate(const struct pp_cap_summary *s, const struct pp_cap_meta *m,
                         const char *cmd)
{
    fprintf(stderr, "pmuprobe: %s: %" PRIu64 " samples of %u core%s in %.3f s", cmd,
            s->samples, m->ncores, m->ncores == 1 ? "" : "s", (double)s->elapsed_ns / 1e9);
    if (s->requested_hz > 0)
        fprintf(stderr, ": requested %.1f/s, achieved %.1f/s (%+.2f %%)\n", s->requested_hz,
                s->achieved_hz, (s->achieved_hz / s->requested_hz - 1.0) * 100.0);
    else
        fprintf(stderr, ": achieved %.1f/s (as fast as the path allows)\n", s->achieved_hz);
}

static void summary_timing(const struct pp_cap_summary *s)
{
    char p50[32], p99[32], max[32];

    fprintf(stderr, "pmuprobe:   interval jitter p50 %s, p99 %s, max %s; late %" PRIu64
            ", dropped %" PRIu64, fmt_ns(s->jitter_p50_ns, p50, sizeof(p50)),
            fmt_ns(s->jitter_p99_ns, p99, sizeof(p99)),
            fmt_ns(s->jitter_max_ns, max, sizeof(max)), s->late, s->dropped);
    if (s->missed)
        fprintf(stderr, " (%" PRIu64 " missed: due while a slower read or the writer held the "
                "sampler)", s->missed);
    if (s->blocked_ns)
        fprintf(stderr, ", waited %s for the writer", fmt_ns(s->blocked_ns, p50, sizeof(p50)));
    fputc('\n', stderr);
}

static void summary_core(const struct pp_cap *cap, unsigned k)
{
    const struct pp_cap_summary *s = pp_cap_summary(cap);
    const struct pp_diag *d = pp_cap_core_diag(cap, k, NULL);
    char text[PP_DIAG_TEXT_MAX];
    uint64_t total = 0;

    for (unsigned i = 0; i < PP_CAP_NCAUSES; i++)
        total += s->gaps[k][i];
    if (!total)
        return;
    fprintf(stderr, "pmuprobe:   cpu%u: %" PRIu64 " gap sample%s:", pp_cap_meta(cap)->core[k].cpu,
            total, total == 1 ? "" : "s");
    for (unsigned i = 0; i < PP_CAP_NCAUSES; i++)
        if (s->gaps[k][i])
            fprintf(stderr, " %s %" PRIu64 " (%s)", pp_cause_name((int)i), s->gaps[k][i],
                    pp_cause_str((int)i));
    fputc('\n', stderr);
    if (d && d->cause != PP_CAUSE_NONE)
        fprintf(stderr, "      last diagnosis: %s\n", pp_diag_text(d, 6, text, sizeof(text)));
}

void capcli_summary(const struct pp_cap *cap, const char *cmd, const char *output)
{
    capcli_summary_bytes(cap, cmd, output, pp_cap_summary(cap)->bytes);
}

void capcli_summary_bytes(const struct pp_cap *cap, const char *cmd, const char *output,
                          uint64_t nbytes)
{
    const struct pp_cap_summary *s = pp_cap_summary(cap);
    const struct pp_cap_meta *m = pp_cap_meta(cap);
    char bytes[32];

    summary_rate(s, m, cmd);
    summary_timing(s);
    if (nbytes == CAPCLI_BYTES_UNKNOWN)
        fprintf(stderr, "pmuprobe:   %" PRIu64 " records to %s\n", s->written, output);
    else
        fprintf(stderr, "pmuprobe:   %" PRIu64 " records, %s to %s%s\n", s->written,
                fmt_bytes(nbytes, bytes, sizeof(bytes)), output,
                s->stop == PP_CAP_STOP_SINK ? " before it failed" : "");
    if (sim_access_ns)
        fprintf(stderr, "pmuprobe:   target time: simulated, deterministic (%u ns per bus "
                "access), not wall time\n", sim_access_ns);
    for (unsigned k = 0; k < m->ncores; k++)
        summary_core(cap, k);
    if (s->stop == PP_CAP_STOP_SIGNAL)
        fprintf(stderr, "pmuprobe:   stopped on request (%s)\n", stop_request());
    else if (s->stop == PP_CAP_STOP_LINK)
        fprintf(stderr, "pmuprobe: %s; the output is complete up to there\n", s->stop_msg);
    else if (s->stop == PP_CAP_STOP_SINK)
        fprintf(stderr, "pmuprobe: output failed: %s\n", s->stop_msg);
}

void capcli_report_failure(const struct pp_cap *cap, const char *output)
{
    const struct pp_cap_summary *s = pp_cap_summary(cap);

    if (s->stop == PP_CAP_STOP_LINK)
        cli_error("%s; the output is complete up to there", s->stop_msg);
    else if (s->stop == PP_CAP_STOP_SINK && strstr(s->stop_msg, output))
        cli_error("output failed: %s", s->stop_msg);
    else if (s->stop == PP_CAP_STOP_SINK)
        cli_error("output failed: %s (%s)", s->stop_msg, output);
}

int capcli_exit_code(const struct pp_cap *cap)
{
    const struct pp_cap_summary *s = pp_cap_summary(cap);

    if (s->stop == PP_CAP_STOP_LINK)
        return EXIT_PATH;
    if (s->stop == PP_CAP_STOP_SINK)
        return EXIT_OUTPUT;
    for (unsigned k = 0; k < pp_cap_ncores(cap); k++)
        for (unsigned i = 0; i < PP_CAP_NCAUSES; i++)
            if (s->gaps[k][i])
                return EXIT_TARGET;
    return EXIT_OK;
}

void capcli_close(struct pp_cap *cap, struct session *s)
{
    if (cap) {
        pp_cap_release(cap);
        pp_cap_free(cap);
    }
    session_close(s);
}

/* ---- a sink as the capture's output ----------------------------------------------------------- */

static int sink_begin(void *ctx, const struct pp_cap_meta *m)
{
    return pp_sink_begin(ctx, m);
}

static int sink_write(void *ctx, const struct pp_cap_sample *smp)
{
    return pp_sink_write(ctx, smp);
}

static int sink_end(void *ctx, const struct pp_cap_summary *sum)
{
    return pp_sink_end(ctx, sum);
}

static uint64_t sink_bytes(void *ctx)
{
    return pp_sink_bytes(ctx);
}

static const char *sink_errmsg(void *ctx)
{
    return pp_sink_errmsg(ctx);
}

struct pp_cap_out capcli_sink_out(struct pp_sink *sink)
{
    return (struct pp_cap_out){ .ctx = sink, .begin = sink_begin, .write = sink_write,
                                .end = sink_end, .bytes = sink_bytes, .errmsg = sink_errmsg };
}

/*
 * capture.h - the capture engine (internal API): counters of many cores
 * sampled at a steady rate by a sampler thread, carried through a
 * lock-free ring to a writer thread, and handed to an output (a sink, a
 * live view, a test's collector).
 *
 * Use:
 *   pp_cap_new(&cfg)                       nothing on the bus yet
 *   pp_cap_add_core(...) per core          events -> counters (no bus)
 *   pp_cap_add_observed(...) per core      --observe: what the target runs
 *   pp_cap_program(cap, k, ...) per core   ownership check, claim, program
 *   pp_cap_start(cap, &out)                meta, out->begin, the threads
 *   pp_cap_wait(cap, timeout) / pp_cap_stop(cap)
 *   pp_cap_summary(cap)                    after pp_cap_wait returned true
 *   pp_cap_release(cap)                    stop counters, drop the claim
 *   pp_cap_free(cap)
 *
 * Threads.  The caller's thread does the setup, waits, and may call
 * pp_cap_stop and pp_cap_progress at any time.  Between pp_cap_start and
 * the pp_cap_wait that returns true, the sampler thread alone drives the
 * bus (the simulated SoC is not thread-safe), and the writer thread alone
 * calls the output.  Both threads block SIGINT and SIGTERM so the
 * caller's handlers run on the caller's thread.
 *
 * One sample is one bus batch for every core (design.md rule 1); the
 * first sample of a capture is the baseline (every core DISCONT, reason
 * "start"), so --count N gives N intervals and N + 1 records.
 */
#ifndef PP_CAPTURE_H
#define PP_CAPTURE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pmuprobe.h"
#include "capture/record.h"
#include "pmu/diag.h"
#include "pmu/evname.h"
#include "pmu/program.h"
#include "target/target.h"

/* Where records go.  Called on the writer thread only, in this order:
 * begin once, write per record, end once (also after a failure or a
 * stop, so a file is complete).  Each returns PP_OK or a pp_err; a
 * failed begin or write stops the capture (PP_CAP_STOP_SINK). */
struct pp_cap_out {
    void *ctx;
    int  (*begin)(void *ctx, const struct pp_cap_meta *m);
    int  (*write)(void *ctx, const struct pp_cap_sample *s);
    int  (*end)(void *ctx, const struct pp_cap_summary *sum);
    uint64_t (*bytes)(void *ctx);              /* optional: bytes written */
    const char *(*errmsg)(void *ctx);          /* optional: why a call failed */
};

/* What the sampler does when the ring is full. */
enum pp_cap_policy {
    PP_CAP_POLICY_BLOCK = 0,   /* wait for the writer; the wait shows as lateness */
    PP_CAP_POLICY_DROP,        /* drop the sample, count it, emit a PP_CAP_DROP record */
};

#define PP_CAP_RING_DEFAULT   8192u          /* slots */
#define PP_CAP_RETRY_DEFAULT  100000000ull   /* 100 ms between retries of a failed core */
#define PP_CAP_REPEAT_WINDOW  20000000ull    /* at most 20 ms of samples per run_repeat */
#define PP_CAP_REPEAT_MAX_INTERVAL 5000000ull /* slower captures: one sample a call */
#define PP_CAP_FIRST_SPAN     100000000ull   /* the first set, at the baseline's pace */

struct pp_cap_config {
    struct pp_bus *bus;
    const char *target;          /* names for the meta ("a76-cluster", "sim") */
    const char *probe;
    uint32_t tck_hz;             /* for the meta: the link's TCK, 0 = not known */
    uint64_t interval_ns;        /* 0 = as fast as the path allows */
    uint64_t duration_ns;        /* stop after this long (0 = no limit) */
    uint64_t count;              /* stop after this many intervals (0 = no limit) */
    /* The read plan of each core (plan.c): by default the snapshot block
     * where the core has it and it copies the counters in use (event
     * counters 0-5), when more than the cycle counter alone is sampled;
     * live reads elsewhere.  snapshot forces the block (a core without it
     * is refused), live forces live reads; not both. */
    bool     snapshot;           /* force the snapshot copies (Cortex-A55/A76) */
    bool     live;               /* force live reads */
    bool     observe;            /* never write: count what the target programmed */
    bool     realtime;           /* samples carry CLOCK_REALTIME too */
    bool     no_edprsr;          /* do not read EDPRSR before each core's counters */
    bool     no_repeat;          /* never use the path's repeat mode */
    unsigned first_set;          /* samples in the first repeat set after the
                                  * baseline; 0: what fits PP_CAP_FIRST_SPAN at
                                  * the baseline's pace (plan.c) */
    size_t   ring_slots;         /* 0 = PP_CAP_RING_DEFAULT */
    enum pp_cap_policy policy;
    uint64_t retry_ns;           /* 0 = PP_CAP_RETRY_DEFAULT; a failed core is
                                  * retried this often */
    /* Called on the sampler thread before each bus call with the seq of
     * its first sample, after the wait for its deadline (tests, demos:
     * inject faults between samples).  One call per sample, except in the
     * path's repeat mode where one bus call carries several.  Optional. */
    void   (*hook)(void *arg, uint64_t seq);
    void    *hook_arg;
};

struct pp_cap;

/* Live figures, readable from any thread while the capture runs. */
struct pp_cap_progress {
    uint64_t samples, written, late, dropped, gap_samples, bytes;
    uint64_t elapsed_ns;
    bool     done;
};

/* A new capture; NULL on out-of-memory or a config without a bus.
 * cfg is copied (the names must outlive the capture). */
struct pp_cap *pp_cap_new(const struct pp_cap_config *cfg);
void pp_cap_free(struct pp_cap *c);

/*
 * Adds a core with its events, in the order the user asked them (ev[i]
 * from pp_event_resolve): "cycles" goes to the cycle counter, the others
 * to PMEVCNTR0, 1, ... (pp_pmu_allocate).  No bus access.  PP_E_BUSY
 * (too many events), PP_E_UNSUPPORTED (a forced snapshot on a core without
 * the block), PP_E_INVAL (more than PP_CAP_MAX_CORES, a core twice, a
 * forced snapshot with event counters above 5, snapshot and live both
 * forced) with a message naming the core.
 */
int pp_cap_add_core(struct pp_cap *c, const struct pp_core_desc *core,
                    const struct pp_evsel *ev, unsigned nev, char *err, size_t errlen);

/*
 * --observe: reads the core's PMU programming (one batch of reads, no
 * write) and adds the counters in use with the events their PMEVTYPER
 * (PMCCFILTR) name.  PP_E_NOTFOUND with a message when nothing counts on
 * that core; the bus error when the core could not be read (err holds a
 * diagnosis).
 */
int pp_cap_add_observed(struct pp_cap *c, const struct pp_core_desc *core,
                        char *err, size_t errlen);

unsigned pp_cap_ncores(const struct pp_cap *c);
const struct pp_cap_meta *pp_cap_meta(const struct pp_cap *c);

#define PP_CAP_FORCE (1u << 0)   /* program over counters someone else uses */

/*
 * Takes core k's PMU (PP_CAP_FORCE: even when in use) and programs its
 * counters: EDPRSR read once (stale sticky bits from before the capture
 * must not read as a power cycle later), then pp_pmu_configure (ownership
 * read, claim tag 0, program, zero, start).  Returns PP_OK (msg may hold a
 * note or the --force warning), PP_E_BUSY (refused, msg says who owns
 * what; nothing written), PP_E_UNSUPPORTED (refused: the PMU has fewer
 * counters than asked for, msg says how many), or the bus error (msg holds a diagnosis; the
 * core stays in the capture and is retried as a failed core).  Under
 * observe nothing is written and PP_OK is returned.
 */
int pp_cap_program(struct pp_cap *c, unsigned k, unsigned flags, char *msg, size_t msglen);

/*
 * Starts: fills the meta (times, metrics), calls out->begin on the writer
 * thread, and starts sampling.  out must stay valid until pp_cap_wait
 * has returned true.  PP_E_NOMEM, PP_E_INVAL (no cores, started twice),
 * PP_E_IO (a thread could not start; nothing runs then).
 */
int pp_cap_start(struct pp_cap *c, const struct pp_cap_out *out);

/* Asks the capture to stop (PP_CAP_STOP_SIGNAL); returns at once.  Safe
 * from any thread (one atomic store), not from a signal handler: set a
 * flag there and call this from the waiting loop. */
void pp_cap_stop(struct pp_cap *c);
/* The same, as the caller's own planned end (top's -n frames): the
 * summary then says PP_CAP_STOP_DONE, as when the count is reached, not
 * that something interrupted the capture. */
void pp_cap_finish(struct pp_cap *c);

/*
 * Waits up to timeout_ns (UINT64_MAX: until done) for the capture to end.
 * true when it has: the threads are joined, out->end has run, and the
 * summary is final.  false on timeout (call again).
 */
bool pp_cap_wait(struct pp_cap *c, uint64_t timeout_ns);

/* pp_cap_start then pp_cap_wait(UINT64_MAX). */
int pp_cap_run(struct pp_cap *c, const struct pp_cap_out *out);

void pp_cap_progress(const struct pp_cap *c, struct pp_cap_progress *p);

/* The summary; final once pp_cap_wait returned true. */
const struct pp_cap_summary *pp_cap_summary(const struct pp_cap *c);

/* The last diagnosis of core k (cause PP_CAUSE_NONE when it never
 * failed), and how many failure episodes it had. */
const struct pp_diag *pp_cap_core_diag(const struct pp_cap *c, unsigned k, uint64_t *episodes);

/*
 * Hands the PMUs back after the capture: on each core pmuprobe programmed,
 * counters stopped (PMCR.E = 0, PMCNTENCLR) and claim tag 0 cleared, one
 * read and one write batch per core.  Cores that do not answer are
 * skipped.  Nothing under observe.  Call after pp_cap_wait returned true.
 */
void pp_cap_release(struct pp_cap *c);

/* ---- helpers also used by the CLI ----------------------------------------- */

/* Fills core->metric[] from the table of core type ct with the metrics
 * whose events are all in core->ev[] (metrics.c). */
void pp_cap_metrics_fill(struct pp_cap_core *core, const struct pp_core_type *ct);
/* The i-th metric a core of that PMU version may get ("IPC", "L1D MPKI"),
 * NULL past the last: the names plot --metric takes (bash completion). */
const char *pp_cap_metric_name(unsigned pmu_version, size_t i);

/*
 * An event list as -e takes it ("cycles,instructions", "r0x11:u") for
 * core c: each name resolved for its type into ev[] (PP_CAP_PLAN_MAX
 * slots, in the order given, *n of them), then counters allocated into
 * *prog (evlist.c).  Returns PP_OK, or with a one-line message in err
 * (about 700 bytes suffice): PP_E_INVAL (list too long), PP_E_PARSE (an
 * empty name, no names), PP_E_NOTFOUND (unknown event: err names it and
 * suggests), PP_E_BUSY (more events than the core has counters), or
 * pp_event_resolve's other errors.  No bus access.
 */
#define PP_CAP_PLAN_MAX (PP_MAX_COUNTERS + 1)   /* every counter and the cycle counter */
int pp_cap_plan_events(const struct pp_core_desc *c, const char *events, struct pp_evsel *ev,
                       unsigned *n, struct pp_pmu_prog *prog, char *err, size_t errlen);

/* "block" / "drop" -> policy; false when unknown. */
bool pp_cap_policy_parse(const char *s, enum pp_cap_policy *out);

#endif

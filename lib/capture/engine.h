/*
 * engine.h - the capture engine's insides, shared by capture.c (setup,
 * threads), plan.c (the batch), sampler.c (the sampler thread) and
 * stats.c (jitter and the summary).  Not for use outside lib/capture/.
 */
#ifndef PP_CAP_ENGINE_H
#define PP_CAP_ENGINE_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "capture/capture.h"
#include "capture/ring.h"
#include "pmu/extend.h"
#include "pmu/program.h"

/* Reads of the programming check (plan.c): DBGCLAIMCLR, PMEVTYPER<n>,
 * PMCCFILTR, PMCNTENSET, PMCR. */
#define CAP_GUARD_MAX (4u + PP_MAX_COUNTERS)
/* Ops one core may put in one sample: EDPRSR, its extension plan, then
 * the programming check. */
#define CAP_CORE_OPS (1u + PP_EXT_PLAN_MAX + CAP_GUARD_MAX)
#define CAP_NOT_SENT SIZE_MAX

/* What pmuprobe programmed on a core, as read back right after: the
 * samples read it again (plan.c, a few registers each) and any difference
 * not explained by a power cycle or reset is a takeover.  One item per
 * register: it reads as ours when (value & mask) == want. */
enum cap_guard_kind { CAP_G_PMCR, CAP_G_CNTEN, CAP_G_CLAIM, CAP_G_CCFILTR, CAP_G_TYPER };

struct cap_guard_item {
    uint32_t addr, mask, want;
    uint8_t  kind;                    /* enum cap_guard_kind */
    uint8_t  idx;                     /* n of PMEVTYPER<n> */
};

struct cap_guard {
    bool     on;
    unsigned n;                       /* items, in the order they are read */
    struct cap_guard_item item[CAP_GUARD_MAX];
    unsigned sel[CAP_GUARD_MAX];      /* the items in this sample's slice */
    unsigned nsel;
};

/* ---- jitter histogram (stats.c) ------------------------------------------- */

/* Log-linear buckets: exact below 64 ns, then 32 per power of two (about
 * 3 % resolution), so percentiles need no stored array of intervals. */
#define CAP_HIST_SUB     32u
#define CAP_HIST_BUCKETS (64u + 58u * CAP_HIST_SUB)

struct cap_hist {
    uint64_t n, max;
    uint64_t bucket[CAP_HIST_BUCKETS];
};

void cap_hist_add(struct cap_hist *h, uint64_t v);
/* The value below which a fraction p (0..1) of the values lie; 0 when
 * empty. */
uint64_t cap_hist_quantile(const struct cap_hist *h, double p);

/* ---- one core -------------------------------------------------------------- */

struct cap_core {
    const struct pp_core_desc *desc;
    struct pp_pmu_prog prog;          /* what pp_cap_program writes */
    uint8_t  ctr[PP_CAP_MAX_EVENTS];  /* event i -> extension counter index */
    struct pp_ext ext;
    bool     programmed;              /* pmuprobe wrote its PMU: release at the end */
    unsigned prog_flags;              /* PP_CAP_FORCE as given to pp_cap_program */
    uint32_t live;                    /* the live claim tag held (PP_CLAIM_LIVE0/1), or 0 */
    struct cap_guard guard;
    bool     taken;                   /* someone took the counters: out for good */
    /* failure handling: a core that fails leaves the hot batch */
    bool     out;                     /* not in the hot batch: a gap each sample */
    bool     reprogram;               /* must be programmed again before it rejoins */
    int      cause;                   /* enum pp_cause while out */
    uint64_t retry_at_ns;
    struct pp_diag diag;              /* the last diagnosis */
    uint64_t episodes;
    /* this sample's ops: [EDPRSR read], the extension's plan (ext_n ops),
     * then the programming check */
    struct pp_op slice[CAP_CORE_OPS];
    size_t   nslice, ext_at, ext_n;   /* ext_at: 1 with the EDPRSR read, else 0 */
    bool     planned;                 /* slice holds the plan for ... */
    uint32_t planned_consumed;        /* ... this ext.consumed (all else in the
                                       * plan is fixed for the capture) */
    size_t   sent[CAP_CORE_OPS];      /* slice op -> batch index, or CAP_NOT_SENT */
};

/* ---- the capture -------------------------------------------------------------- */

struct pp_cap {
    struct pp_cap_config cfg;
    struct pp_cap_meta meta;
    struct cap_core core[PP_CAP_MAX_CORES];
    unsigned order[PP_CAP_MAX_CORES]; /* cores in ascending PMU address */
    const struct pp_cap_out *out;

    /* the programming check's turn (plan.c): the next item of all cores'
     * guards, counted over the cores in address order, and how many items
     * each sample reads */
    unsigned guard_next, guard_per_sample;

    /* the batch: up to `reps` repetitions of ncores * CAP_CORE_OPS ops */
    struct pp_op *ops;
    size_t   ops_cap, nops;
    unsigned reps;                    /* repetitions per bus call (1: plain run) */
    unsigned reps_first;              /* the first set's at most (plan.c) */
    unsigned reps_now;                /* this set's, fitted to the path's pace (sampler.c);
                                       * 1 until a call has been timed */
    bool reps_timed;                  /* a call of this capture has been timed */
    uint64_t *rep_t;                  /* run_repeat read times */
    struct pp_bus_window *rep_win;    /* and their windows (bus.h) */

    struct pp_ring *ring;
    size_t   rec_size;
    struct pp_cap_sample *rec;        /* the sample being built */
    struct pp_cap_sample *droprec;    /* a DROP record */

    /* sampler-owned */
    uint64_t t0, t_stop, next_seq, first_start, last_start;
    uint64_t pending_drops, first_dropped;
    struct cap_hist jitter;
    bool     link_dead;
    bool     dp_stalled;              /* a diagnosis since the last batch met WAIT */
    char     link_msg[256];
    char     batch_msg[256];          /* what the path said of the last batch
                                       * (pp_bus_errmsg), "" when nothing */
    struct pp_bus_stats bus0;

    /* shared between threads */
    atomic_bool stop;                 /* pp_cap_stop, or the writer failed */
    atomic_bool finish;               /* pp_cap_finish: the stop was planned */
    atomic_bool sampler_done;         /* release: sampler-owned fields final */
    atomic_bool writer_done;
    pthread_mutex_t done_mu;          /* with done_cv: the sampler's end wakes */
    pthread_cond_t done_cv;           /* the writer from its idle wait */
    atomic_bool sink_failed;
    _Atomic uint64_t n_samples, n_written, n_late, n_dropped, n_gaps, n_bytes, blocked_ns;
    _Atomic uint64_t n_missed;        /* of n_dropped: not taken, their time had passed */
    char     sink_msg[256];           /* writer-owned */

    pthread_t sampler, writer;
    bool     started, joined, released;
    /* summary.gaps is counted by the sampler while it runs; the rest is
     * filled by the writer once the sampler is done */
    struct pp_cap_summary summary;
};

/* clock helpers (sampler.c) */
uint64_t cap_real_ns(void);

/* plan.c */
int  cap_plan_alloc(struct pp_cap *c);
void cap_plan_core(struct pp_cap *c, struct cap_core *cc);
void cap_plan_lay(struct pp_cap *c);
void cap_plan_collect(struct pp_cap *c, struct cap_core *cc, size_t rep);
void cap_core_decode(struct pp_cap *c, struct cap_core *cc, struct pp_ext_sample *out);
/* The programming check of this sample: PP_OK, PP_E_BUSY when the
 * programming differs (evidence in ev), or the error of a failed read. */
int  cap_guard_check(const struct cap_core *cc, char *ev, size_t evlen);

/* sampler.c, capture.c */
void *cap_sampler_main(void *arg);
/* Marks the sampler done and wakes the writer (capture.c). */
void cap_sampler_finished(struct pp_cap *c);
void *cap_writer_main(void *arg);
void cap_core_fail(struct pp_cap *c, struct cap_core *cc);
int  cap_gap_cause(int diag_rc, const struct pp_diag *d, bool waited);
int  cap_core_configure(struct pp_cap *c, struct cap_core *cc, char *msg, size_t msglen);
/* The size of the next run_repeat set after one of reps repetitions
 * (planned of them asked) took span ns of host time, at most max
 * (sampler.c fit_reps). */
unsigned cap_next_reps(unsigned reps, unsigned planned, unsigned max, uint64_t span);
/* The first set's size after a call of one sample took span ns, at most
 * cap (sampler.c fit_reps). */
unsigned cap_first_reps(uint64_t span, unsigned cap);

/* stats.c */
void cap_stats_sample(struct pp_cap *c, uint64_t t_start, uint64_t deadline);
void cap_stats_summary(struct pp_cap *c, struct pp_cap_summary *s);

#endif

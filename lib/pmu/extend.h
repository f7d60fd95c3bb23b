/*
 * extend.h - 64-bit counting over 32-bit PMU counters (internal).
 *
 * One struct pp_ext per core holds what is needed to turn successive raw
 * reads into 64-bit totals: the previous raw values, the overflow flags
 * already accounted for, and the totals.  No allocation, no bus access: the
 * caller appends a core's read plan to its own batch (many cores, one round
 * trip), runs the batch, and hands this core's slice of the results back.
 *
 * The plan of one sample, per core (spec/arm-pmu-coresight.md 1.1, 4.1):
 *   [PMOVSCLR write of x->consumed]  only when some flag awaits clearing
 *   PMOVSSET read                    only when a 32-bit counter is sampled
 *   PMEVCNTR<n> for n in the mask    32-bit: one read (0x000+8n v3, +4n v2)
 *                                    64-bit (counter64): hi, lo, hi
 *   PMCCNTR                          PMUv3: hi, lo, hi (0x0FC, 0x0F8, 0x0FC)
 *                                    PMUv2: one 32-bit read at 0x07C
 * The clear comes first so that the flags read after it show only wraps
 * that happened after the clear; that is how one round trip per sample
 * both consumes and clears flags (spec 2.8: PMOVSCLR is W1C, PMCR.P/C do
 * not touch the flags).
 *
 * Rules, per counter, with L the previous raw value, R this one, F the
 * counter's flag in the PMOVSSET read minus the flags still "consumed"
 * (accounted for but not yet seen cleared):
 *   32-bit counters
 *    1. F set,   R <  L: one wrap.  delta = 2^32 + R - L; flag consumed.
 *    2. F set,   R >= L: more than 2^32 counts in one interval (or a wrap
 *       and a reset): DISCONTINUITY (AMBIGUOUS).
 *    3. F clear, R >= L: delta = R - L.
 *    4. F clear, R <  L: a wrap the flag read could not show, or a reset.
 *       Taken as a wrap when 2^32 - L + R <= period_max and either R <=
 *       window_max (the wrap fell between the PMOVSSET read and the
 *       counter read: the "read window") or the flag was cleared by this
 *       very batch (the wrap came before the clear and was wiped by it).
 *       The flag the wrap set is marked consumed so the next sample does
 *       not count it again.  Otherwise a reset: DISCONTINUITY (BACKWARDS).
 *       A snapshot captures flags and counters at one instant, so there it
 *       has no read window: only the "cleared by this batch" arm applies.
 *   64-bit counters (PMCCNTR on PMUv3, PMEVCNTR with counter64)
 *    5. R >= L: delta = R - L; R < L: reset, DISCONTINUITY (BACKWARDS).
 *       Their flags are neither used nor cleared.
 *   hi/lo/hi: with h1, lo, h2 read in that order, the value is h1:lo when
 *   h1 == h2.  When they differ the low word carried between the two high
 *   reads: lo < 2^31 means it carried before lo was read, so h2:lo; else
 *   after, so h1:lo.  Valid while fewer than 2^31 counts pass between the
 *   two high reads (spec 2.8).
 *
 * Discontinuities.  A DISCONTINUITY reports delta 0 and leaves the total
 * unchanged: the counts between the last trusted sample and this one are
 * unknown, and a reset or power cycle must never show up as a huge delta.
 * The baseline then restarts at this sample's raw values; flags already
 * set at a baseline are stale and are cleared unread, as is the flag of a
 * 32-bit counter whose new raw value is <= window_max (a wrap inside this
 * read window cannot be excluded, and its flag must not count later).
 * Causes for the whole core: any read of the core failed (this sample is
 * a gap: no values, and the next good sample restarts the baseline),
 * EDPRSR.SPD or SR seen set (when the caller passes an EDPRSR value read
 * earlier in the same batch), a snapshot that was not captured, the first
 * sample.  Per counter: rules 2, 4 and 5 above.  Assumed throughout: a
 * 32-bit counter makes fewer than 2^32 counts between two samples.
 */
#ifndef PP_EXTEND_H
#define PP_EXTEND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pmuprobe.h"
#include "pmu/program.h"
#include "target/target.h"

#define PP_EXT_NCTR      32u    /* PMEVCNTR0..30 and the cycle counter */
#define PP_EXT_CYCLE     31u    /* the cycle counter's index and flag bit */
/* Most ops one core's live plan takes: clear, flags, 31 + 1 counters of
 * three reads each. */
#define PP_EXT_PLAN_MAX  (2u + 3u * PP_EXT_NCTR)

/* Defaults of the rule 4 limits (pp_ext_set_limits). */
#define PP_EXT_PERIOD_MAX_DEFAULT 0x80000000u   /* 2^31 counts per interval */
#define PP_EXT_WINDOW_MAX_DEFAULT 0x01000000u   /* 2^24 counts in a read window */

/* Per-counter result flags. */
#define PP_EXT_F_DISCONT  (1u << 0)  /* delta untrustworthy: 0 reported */
#define PP_EXT_F_WRAP     (1u << 1)  /* a wrap seen in the flags was added */
#define PP_EXT_F_WINDOW   (1u << 2)  /* a wrap inferred by rule 4 was added */
#define PP_EXT_F_GAP      (1u << 3)  /* no value this sample */

/* Why a sample holds discontinuities (bits of pp_ext_sample.why). */
#define PP_EXT_WHYS(X)                                                          \
    X(PP_EXT_WHY_START,     0, "start",     "first sample: baseline")           \
    X(PP_EXT_WHY_READ,      1, "read",      "a read of the core failed")        \
    X(PP_EXT_WHY_GAP,       2, "gap",       "previous sample was a gap")        \
    X(PP_EXT_WHY_POWER,     3, "power",     "EDPRSR.SPD: core powered down since last look") \
    X(PP_EXT_WHY_RESET,     4, "reset",     "EDPRSR.SR: core reset since last look") \
    X(PP_EXT_WHY_NOCAPTURE, 5, "nocapture", "snapshot not captured (PMSSSR.NC = 1)") \
    X(PP_EXT_WHY_BACKWARDS, 6, "backwards", "a counter ran backwards without overflow") \
    X(PP_EXT_WHY_AMBIGUOUS, 7, "ambiguous", "overflow flag set but counter not below last value")

enum pp_ext_why {
#define PP_EXT_WHY_ENUM(name, bit, shortname, msg) name = 1u << (bit),
    PP_EXT_WHYS(PP_EXT_WHY_ENUM)
#undef PP_EXT_WHY_ENUM
};

/* "backwards" / its sentence for one PP_EXT_WHY_* bit; never NULL. */
const char *pp_ext_why_name(unsigned why);
const char *pp_ext_why_str(unsigned why);

/* One core's extension state.  Fill it with pp_ext_init or pp_snap_init;
 * the fields are readable, the running state is the module's. */
struct pp_ext {
    unsigned cpu;
    uint32_t pmu_base;
    uint8_t  pmu_version;
    bool     snapshot;          /* fed by the snapshot block (snapshot.h) */
    uint32_t mask;              /* bit n: PMEVCNTR<n>; bit 31: cycle counter */
    uint32_t wide;              /* of mask: read as 64 bits */
    uint64_t period_max;        /* rule 4 limits */
    uint64_t window_max;
    /* running state */
    bool     based;             /* last[] holds a trusted baseline */
    uint64_t samples;           /* samples fed (gaps included) */
    uint32_t consumed;          /* flags accounted for, clear not yet seen */
    uint64_t last[PP_EXT_NCTR];
    uint64_t total[PP_EXT_NCTR];
};

/* What one sample read, decoded from the ops (or from a snapshot). */
struct pp_ext_raw {
    bool     ok;                /* every read (and a snapshot's capture) succeeded */
    int      err;               /* pp_err of the first failed op, else PP_OK */
    int      bad_op;            /* its index in the core's slice, else -1 */
    uint32_t cleared;           /* flags the plan's PMOVSCLR write cleared */
    bool     nocapture;         /* snapshot: PMSSSR.NC read as 1 */
    bool     coherent;          /* flags and counters from one instant */
    uint32_t ovs;               /* overflow flags as read */
    uint64_t val[PP_EXT_NCTR];  /* per counter in the mask */
};

struct pp_ext_val {
    uint64_t total;             /* counts since the first sample */
    uint64_t delta;             /* since the previous sample; 0 if DISCONT */
    uint64_t raw;               /* value read (64-bit assembled where wide) */
    unsigned flags;             /* PP_EXT_F_* */
};

struct pp_ext_sample {
    uint32_t mask;              /* which v[] are meaningful (= x->mask) */
    unsigned why;               /* PP_EXT_WHY_* bits; 0 = all deltas trusted */
    uint32_t ovs;               /* overflow flags as read */
    int      err;               /* first failed op: pp_err and index, or */
    int      bad_op;            /* PP_OK and -1 */
    struct pp_ext_val v[PP_EXT_NCTR];   /* those outside mask are not written */
};

/*
 * Starts the state for the counters in mask on core (no bus access).
 * PP_E_INVAL with a message when the mask is empty or names a counter the
 * core lacks.  Event counters are 64-bit when core->counter64 (PMUv3p5);
 * the PMUv3 cycle counter always is.
 */
int pp_ext_init(struct pp_ext *x, const struct pp_core_desc *core, uint32_t mask,
                char *err, size_t errlen);
/* The mask of the counters a program uses. */
uint32_t pp_ext_prog_mask(const struct pp_pmu_prog *p);
/* Sets the rule 4 limits: the most counts a counter makes between two
 * samples, and in one read window (PMOVSSET read to its counter read).
 * 0 keeps the current value. */
void pp_ext_set_limits(struct pp_ext *x, uint64_t period_max, uint64_t window_max);

/*
 * The most counts one counter makes per nanosecond: a 5 GHz clock and 8
 * events a cycle (slot-counting events such as STALL_SLOT count up to
 * PMMIR.SLOTS per cycle; no A-profile core retires more than 8 a cycle).
 * Rule 4's window limit is this rate times the read window as measured.
 */
#define PP_EXT_COUNTS_PER_NS 40u

/*
 * window_max for a read window that took read_ns (the whole bus batch
 * around the core's PMOVSSET and counter reads, which bounds the window):
 * PP_EXT_COUNTS_PER_NS * read_ns, never below PP_EXT_WINDOW_MAX_DEFAULT
 * (which covers any fast path) nor above 2^32 - 1.  A window_max fixed at
 * the default takes a wrap inside a read longer than about 0.4 ms at the
 * highest rate (2.2 ms at 7.6 counts/ns) for a reset: two lost deltas
 * (BACKWARDS, then AMBIGUOUS when the flag shows).
 */
uint64_t pp_ext_window_for(uint64_t read_ns);

/* Ops the next sample's plan takes (changes after each update). */
size_t pp_ext_plan_len(const struct pp_ext *x);
/*
 * Appends the next sample's plan (live or snapshot, as initialised) at
 * ops[*n] and advances *n.  PP_E_INVAL when fewer than pp_ext_plan_len(x)
 * slots are left of cap.  Pure: the same state gives the same plan.
 */
int pp_ext_plan(const struct pp_ext *x, struct pp_op *ops, size_t cap, size_t *n);
/* The PMOVSCLR write of the consumed flags (the plan's first op when
 * there is one); false when no flag awaits clearing. */
bool pp_ext_clear_op(const struct pp_ext *x, struct pp_op *op);

/* Decodes this core's slice of a run batch (ops as planned, n ops).
 * PP_E_INVAL when the slice does not match the plan of x. */
int pp_ext_decode(const struct pp_ext *x, const struct pp_op *ops, size_t n,
                  struct pp_ext_raw *raw);
/* Applies the rules to one decoded sample.  edprsr: an EDPRSR value read
 * before the PMU reads of the same batch, or NULL. */
void pp_ext_feed(struct pp_ext *x, const struct pp_ext_raw *raw, const uint32_t *edprsr,
                 struct pp_ext_sample *out);
/* pp_ext_decode then pp_ext_feed.  PP_OK also for a gap (see out->why);
 * PP_E_INVAL when the slice does not match the plan (x unchanged). */
int pp_ext_update(struct pp_ext *x, const struct pp_op *ops, size_t n, const uint32_t *edprsr,
                  struct pp_ext_sample *out);

/* The hi/lo/hi rule above, for callers reading 64-bit registers. */
uint64_t pp_ext_join64(uint32_t hi1, uint32_t lo, uint32_t hi2);

#endif

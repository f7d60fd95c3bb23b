/*
 * bus.h - the access-path boundary (internal).
 *
 * Every way of reaching the APB (in-process simulator, own JTAG stack over
 * remote_bitbang or FTDI, OpenOCD TCL RPC) is one struct pp_bus_ops in one
 * file under lib/bus/.  Nothing above this layer knows which one it talks to.
 */
#ifndef PP_BUS_H
#define PP_BUS_H

#include <stdbool.h>
#include <stdint.h>

#include "pmuprobe.h"

struct pp_trace;

/* When one repetition of run_repeat was read: CLOCK_MONOTONIC bounds that
 * surely contain every read of it (not an estimate: a path that can only
 * bound a read gives the bound, however wide). */
struct pp_bus_window {
    uint64_t lo, hi;
};

struct pp_bus_ops {
    const char *name;                 /* "sim", "rbb", "ftdi", "openocd" */
    /* Required.  Carries ops[0..n) and sets every op's st.  Must not stop at
     * an error response: later ops still run and get their own status.
     * Returns PP_OK or the pp_err of the first failed op. */
    int  (*run)(struct pp_bus *bus, struct pp_op *ops, size_t n);
    /*
     * Optional (NULL when the path cannot do better than calling run in a
     * loop).  Carries the batch ops[0..n) count times, repetition k meant
     * to start interval_ns after repetition k-1, in as few round trips as
     * the path allows: an OpenOCD-side TCL loop, FTDI transfers queued
     * with TCK-timed spacing.  The caller lays out count copies of the
     * batch: repetition k's results land in ops[k * n + i].  t_ns[k] gets
     * the CLOCK_MONOTONIC time at which repetition k was read, as well as
     * the path can tell (target-side timing anchored to host time).
     * win, when not NULL, gets repetition k's window in win[k]: lo <= hi,
     * both non-decreasing in k, and the window contains the estimate.
     * A call that fails as a whole may leave them: pp_bus_run_repeat_window
     * then dates every repetition evenly over the call (bus.c).
     * Returns as run does, for the whole set.
     */
    int  (*run_repeat)(struct pp_bus *bus, struct pp_op *ops, size_t n, unsigned count,
                       uint64_t interval_ns, uint64_t *t_ns, struct pp_bus_window *win);
    /* Required.  Frees priv and whatever the path owns. */
    void (*close)(struct pp_bus *bus);
    /* Optional.  Hands the bus's tracer (or NULL) to the layers under the
     * path (DP engine, JTAG, RPC), which report their own records; the
     * bus keeps ownership.  Paths without layers leave it NULL: their
     * trace is the APB records pp_bus_run writes. */
    void (*set_trace)(struct pp_bus *bus, struct pp_trace *tr);
};

/* The APB-AP a path found at open, for discovery without a target file
 * (lib/session/discover.c): its BASE register points at the top-level ROM
 * table (spec/arm-pmu-coresight.md 6.1). */
struct pp_bus_ap {
    bool     known;                   /* the path read the fields below */
    unsigned apsel;
    uint32_t idr;
    uint32_t base;                    /* BASE as read: format and present bits
                                       * included (pp_bus_rom_base decodes) */
};

struct pp_bus {
    const struct pp_bus_ops *ops;
    const char *name;                 /* pp_bus_name when set (static), else
                                       * ops->name: one ops table serves
                                       * several kinds of link */
    void *priv;
    struct pp_bus_ap ap;
    struct pp_bus_stats stats;        /* batches/ops counted by pp_bus_run;
                                       * round_trips/tck by the path */
    struct pp_trace *trace;           /* the wire trace, NULL when off (owned) */
    char errmsg[256];
    /* pp_bus_set_errmsg calls so far.  errmsg is kept until the next
     * error (pp_bus_errmsg's callers read it after calls of their own),
     * so a caller that notes this before a call knows whether errmsg
     * speaks of that call. */
    unsigned errseq;
};

/* Gives the bus its tracer (owned from here: the old one is freed; NULL
 * stops tracing) and passes it to the path's layers (ops->set_trace). */
void pp_bus_set_trace(struct pp_bus *bus, struct pp_trace *tr);

/* The ROM table address in the AP's BASE register: PP_OK, or
 * PP_E_NOTFOUND when the path did not read BASE or BASE says "no debug
 * entries" (legacy 0xFFFFFFFF, or format 1 with the present bit clear). */
int pp_bus_rom_base(const struct pp_bus *bus, uint32_t *rom);

/* pp_bus_run_repeat with each repetition's window too (run_repeat's win). */
int pp_bus_run_repeat_window(struct pp_bus *bus, struct pp_op *ops, size_t n, unsigned count,
                             uint64_t interval_ns, uint64_t *t_ns, struct pp_bus_window *win);

/* Allocates a bus bound to ops/priv; NULL on out-of-memory. */
struct pp_bus *pp_bus_new(const struct pp_bus_ops *ops, void *priv);
/* printf-style detail for pp_bus_errmsg(). */
void pp_bus_set_errmsg(struct pp_bus *bus, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* In-process path over the simulated SoC (lib/bus/sim_bus.c).  The bus
 * does not own the sim. */
struct pp_bus *pp_bus_sim_new(struct pp_sim *sim);

#endif

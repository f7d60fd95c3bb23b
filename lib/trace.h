/*
 * trace.h - the wire trace (internal side of pp_trace_fn, pmuprobe.h).
 *
 * One struct pp_trace per bus, owned by the bus (pp_bus_set_trace); the
 * layers under it (the JTAG-DP engine, the JTAG layer, the OpenOCD RPC)
 * hold the same pointer and report through the calls below.  Every call
 * is a no-op when tr is NULL or its level is below the record's layer, so
 * callers test pp_trace_on() only where building the record costs
 * something.
 *
 * The tracer also decodes: it follows SELECT and TAR as the DP accesses
 * go by, so a DRW or BDn access names the APB address it reached, and it
 * keeps a copy of the target's core map, so an APB address names its
 * register ("cpu0 PMCR").
 */
#ifndef PP_TRACE_H
#define PP_TRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pmuprobe.h"

struct pp_core_type;

struct pp_target;

/* What the tracer knows of one core, to name APB addresses. */
struct pp_trace_core {
    unsigned cpu;
    uint32_t debug_base, pmu_base, cti_base;
    const struct pp_core_type *type;
    unsigned counters;
};

struct pp_trace {
    pp_trace_fn fn;
    void *user;
    int level;
    /* DP and MEM-AP state followed from the accesses seen (spec 7.1-7.3). */
    bool select_known, tar_known;
    uint32_t select, tar;
    struct pp_trace_core *cores;
    unsigned ncores;
};

/* NULL when out of memory or fn is NULL. */
struct pp_trace *pp_trace_new(pp_trace_fn fn, void *user, int level);
void pp_trace_free(struct pp_trace *tr);                 /* NULL-safe */

static inline bool pp_trace_on(const struct pp_trace *tr, int layer)
{
    return tr && tr->level >= layer;
}

/* Copies the cores' block bases of t for naming APB addresses; t NULL
 * forgets them.  Called whenever the session's target changes. */
int pp_trace_set_target(struct pp_trace *tr, const struct pp_target *t);

/* "cpu0 PMCR", "cpu2 EDPRSR", "cpu1 cti+0x0A0", or "" when no core's block
 * holds addr. */
void pp_trace_name_apb(const struct pp_trace *tr, uint32_t addr, char *buf, size_t len);

/* PP_TRACE_APB: one operation of a batch once it ran. */
void pp_trace_apb(struct pp_trace *tr, const struct pp_op *op);

/* PP_TRACE_DAP: one DPACC or APACC scan as the DP answered it.  a is the
 * scan's A[3:2] address (0x0-0xC); the AP register is chosen by the bank
 * SELECT held, as the tracer followed it.  value: what was written, or
 * for a read its result when has_value.  ack: "OK", "WAIT", "discarded"
 * (a scan after a WAIT, which the overrun check made the DP drop). */
struct pp_trace_dap {
    bool ap, rnw, has_value;
    uint8_t a;
    uint32_t value;
    const char *ack;
    unsigned retry;
};
void pp_trace_dap(struct pp_trace *tr, const struct pp_trace_dap *d);

/* Forgets what SELECT and TAR hold (after a link error or an ABORT). */
void pp_trace_dap_forget(struct pp_trace *tr);

/* A free-form record of a layer: OpenOCD commands (DAP), JTAG scans and
 * link round trips (WIRE). */
void pp_trace_text(struct pp_trace *tr, int layer, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#endif

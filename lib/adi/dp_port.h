/*
 * dp_port.h - the DP transport boundary (internal to lib/adi): what every
 * way of reaching a DP shares, and the ops each one fills in.
 *
 *   dp.c           ADIv5 JTAG-DP: DPACC/APACC scans over pp_jtag (the host
 *                  resolves posted reads and WAITs itself)
 *   dp_swd.c       a SW-DP through pmuprobe's SWD engine (lib/link/swd.h)
 *                  on a JTAG link wired SWDIO to TDI/TDO
 *   dp_cmsisdap.c  a CMSIS-DAP probe: DAP_Transfer/DAP_TransferBlock
 *                  packets, the probe resolving posted reads and retrying
 *                  WAITs (spec/cmsis-dap-swd.md 2.4, 2.5)
 *
 * adi_bus.c and memap.c see only the pp_dp_* calls of adi.h; the calls
 * below the ops table (SELECT cache, idle count, sticky clear, stats,
 * message, trace) keep their state here so that every transport answers
 * them alike.
 */
#ifndef PP_ADI_DP_PORT_H
#define PP_ADI_DP_PORT_H

#include "adi/adi.h"

struct pp_dp_ops {
    const char *name;            /* for messages: "JTAG-DP", "CMSIS-DAP" */
    /* pp_dp_exec's contract (adi.h); errmsg in dp->errmsg on failure. */
    int  (*exec)(struct pp_dp *dp, struct pp_dp_xfer *x, size_t n, uint32_t *ctrl);
    /* ABORT with DAPABORT; also sets dp->clear_next and forgets SELECT. */
    int  (*abort)(struct pp_dp *dp);
    /* Optional: the transport's own bring-up in place of pp_dp_power_up's
     * CTRL/STAT handshake (the SW-DP: connect, then its engine's). */
    int  (*power_up)(struct pp_dp *dp, char *err, size_t errlen);
    /* Optional: the transport's own tracer hook (NULL: only dp->trace). */
    void (*set_trace)(struct pp_dp *dp, struct pp_trace *tr);
    void (*free_priv)(void *priv);
};

struct pp_dp {
    const struct pp_dp_ops *ops;
    void *priv;                  /* the transport's */
    bool select_known;
    uint32_t select;
    unsigned idle_base, idle_cur, wait_streak;
    bool clear_next;
    bool swd;                    /* the wire is SWD: the SW-DP is alone on it, so
                                  * there is no JTAG chain to find (ADIv5.2 B4),
                                  * and messages name a SW-DP */
    bool no_orundetect;          /* the transport retries WAITs itself (CMSIS-DAP):
                                  * an overrun flag would make the DP drop the
                                  * retried APACCs (spec/cmsis-dap-swd.md 4.8) */
    uint64_t run_tck;            /* TCKs of the last run's main queue */
    struct pp_dp_stats st;
    struct pp_trace *trace;      /* the bus's, NULL when off */
    unsigned trace_retry;        /* WAIT recoveries since the last run that
                                  * completed: the re-issues of one request */
    char errmsg[256];
};

/* A DP over ops with priv (owned: ops->free_priv frees it, also when this
 * fails).  NULL on OOM. */
struct pp_dp *pp_dp_port_new(const struct pp_dp_ops *ops, void *priv);
/* Doubles the idle count after a WAIT (capped). */
void pp_dp_grow_idle(struct pp_dp *dp);

#endif

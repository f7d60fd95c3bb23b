/*
 * dp_port.c - the DP transport boundary (dp_port.h): the pp_dp_* calls of
 * adi.h that every transport answers alike, and the dispatch to the one
 * that moves the transfers.
 */
#include <stdio.h>
#include <stdlib.h>

#include "adi/dp_port.h"
#include "errmsg.h"
#include "trace.h"

#define IDLE_DEFAULT   1u
#define IDLE_MAX       255u
#define IDLE_BASE_MAX  64u

struct pp_dp *pp_dp_port_new(const struct pp_dp_ops *ops, void *priv)
{
    struct pp_dp *dp = priv ? calloc(1, sizeof(*dp)) : NULL;

    if (!dp) {
        if (priv)
            ops->free_priv(priv);
        return NULL;
    }
    dp->ops = ops;
    dp->priv = priv;
    dp->idle_base = dp->idle_cur = IDLE_DEFAULT;
    return dp;
}

bool pp_dp_is_swd(const struct pp_dp *dp)
{
    return dp && dp->swd;
}

void pp_dp_free(struct pp_dp *dp)
{
    if (!dp)
        return;
    dp->ops->free_priv(dp->priv);
    free(dp);
}

int pp_dp_exec(struct pp_dp *dp, struct pp_dp_xfer *x, size_t n, uint32_t *ctrl)
{
    return dp->ops->exec(dp, x, n, ctrl);
}

int pp_dp_abort(struct pp_dp *dp)
{
    return dp->ops->abort(dp);
}

const char *pp_dp_errmsg(const struct pp_dp *dp)
{
    return dp->errmsg;
}

void pp_dp_get_stats(const struct pp_dp *dp, struct pp_dp_stats *out)
{
    *out = dp->st;
}

uint64_t pp_dp_run_tck(const struct pp_dp *dp)
{
    return dp->run_tck;
}

uint32_t pp_dp_ctrl_word(const struct pp_dp *dp, uint32_t clear)
{
    return PP_CS_CSYSPWRUPREQ | PP_CS_CDBGPWRUPREQ | (dp->no_orundetect ? 0 : PP_CS_ORUNDETECT) |
           (clear & PP_CS_STICKY);
}

void pp_dp_clear_sticky_next(struct pp_dp *dp)
{
    dp->clear_next = true;
}

bool pp_dp_select_cached(const struct pp_dp *dp, uint32_t *select)
{
    *select = dp->select;
    return dp->select_known;
}

unsigned pp_dp_idle(const struct pp_dp *dp)
{
    return dp->idle_cur;
}

/* One stray WAIT (an injected storm, a slow access) should not cost every
 * later batch; WAITs in consecutive batches mean the AP is slower than
 * the base allows, so the base creeps up. */
void pp_dp_batch_done(struct pp_dp *dp, bool had_wait)
{
    dp->trace_retry = 0;
    if (!had_wait)
        dp->wait_streak = 0;
    else if (++dp->wait_streak >= 2 && dp->idle_base < IDLE_BASE_MAX) {
        dp->idle_base++;
        dp->wait_streak = 0;
    }
    dp->idle_cur = dp->idle_base;
}

void pp_dp_grow_idle(struct pp_dp *dp)
{
    dp->idle_cur = dp->idle_cur * 2u + 1u;
    if (dp->idle_cur > IDLE_MAX)
        dp->idle_cur = IDLE_MAX;
}

void pp_dp_set_trace(struct pp_dp *dp, struct pp_trace *tr)
{
    dp->trace = tr;
    pp_trace_dap_forget(tr);
    if (dp->ops->set_trace)
        dp->ops->set_trace(dp, tr);
}

int pp_dp_power_up(struct pp_dp *dp, char *err, size_t errlen)
{
    const uint32_t acks = PP_CS_CDBGPWRUPACK | PP_CS_CSYSPWRUPACK;
    struct pp_dp_xfer x[2] = {
        { .addr = PP_DP_CTRLSTAT, .wdata = pp_dp_ctrl_word(dp, PP_CS_STICKY), .tag = -1 },
        { .addr = PP_DP_CTRLSTAT, .rnw = 1, .tag = -1 },
    };
    uint32_t ctrl = 0;
    bool asked = false;
    int rc = PP_OK;

    if (dp->ops->power_up)
        return dp->ops->power_up(dp, err, errlen);
    /* Spec 7.2: ask for both domains, wait for both ACKs; a DP that needs
     * time answers a few polls later.  The request goes again until the
     * DP took it (a WAIT may have kept it out). */
    for (int t = 0; t < 10; t++) {
        rc = pp_dp_exec(dp, asked ? &x[1] : x, asked ? 1 : 2, &ctrl);
        asked = asked || x[0].done;
        if (rc == PP_OK && (x[1].rdata & acks) == acks)
            return PP_OK;
        if (rc != PP_OK && rc != PP_E_WAIT) {
            pp_errmsg(err, errlen, "%s power-up: %s", dp->ops->name, dp->errmsg);
            return rc;
        }
    }
    pp_errmsg(err, errlen, "%s power-up: CTRL/STAT reads 0x%08X, the debug (bit 29) and "
              "system (bit 31) power-up ACKs did not come: check target power and reset",
              dp->ops->name, x[1].rdata);
    return PP_E_TIMEOUT;
}

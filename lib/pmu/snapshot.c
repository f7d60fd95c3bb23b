/*
 * snapshot.c - the Cortex-A55/A76 IMPLEMENTATION DEFINED snapshot block as
 * a source of coherent counter samples.
 * Offsets and fields: spec/arm-pmu-coresight.md 1.4 table 2.
 */
#include <stdio.h>
#include <string.h>

#include "errmsg.h"
#include "bus/bus.h"
#include "pmu/regs.h"
#include "pmu/snapshot.h"

bool pp_snap_supported(const struct pp_core_desc *core)
{
    /* The block sits in the PMUv3 window 0x600-0x7FC; PMCFGR.SS reports it. */
    return core->snapshot && core->type->pmu_version >= 3;
}

int pp_snap_check_silicon(struct pp_bus *bus, const struct pp_core_desc *core, uint32_t *pmcfgr)
{
    *pmcfgr = 0;
    if (pp_bus_read32(bus, core->pmu_base + PP_PMU_PMCFGR, pmcfgr) != PP_OK || *pmcfgr == 0 ||
        (*pmcfgr & PP_PMCFGR_SS))
        return PP_OK;
    return PP_E_UNSUPPORTED;
}

bool pp_snap_copies(uint32_t mask)
{
    uint32_t copied = (1u << PP_SNAP_NEVCNT) - 1u;

    return (mask & ~(copied | 1u << PP_EXT_CYCLE)) == 0;
}

int pp_snap_init(struct pp_ext *x, const struct pp_core_desc *core, uint32_t mask,
                 char *err, size_t errlen)
{
    int rc;

    if (!pp_snap_supported(core)) {
        memset(x, 0, sizeof(*x));
        pp_errmsg(err, errlen, "cpu%u: %s has no snapshot block (an IMPLEMENTATION DEFINED "
                  "feature of Cortex-A55/A76, spec 1.4); sample the counters live instead",
                  core->cpu, core->type->pretty);
        return PP_E_UNSUPPORTED;
    }
    rc = pp_ext_init(x, core, mask, err, errlen);
    if (rc != PP_OK)
        return rc;
    if (!pp_snap_copies(mask)) {
        pp_errmsg(err, errlen, "cpu%u: the snapshot block copies PMEVCNTR0-%u and the cycle "
                  "counter only; mask 0x%08X asks for more", core->cpu, PP_SNAP_NEVCNT - 1, mask);
        memset(x, 0, sizeof(*x));
        return PP_E_INVAL;
    }
    x->snapshot = true;
    /* The copies are 32-bit words; PMCCNTSR has both halves of one instant. */
    x->wide = mask & 1u << PP_EXT_CYCLE;
    return PP_OK;
}

/* The captured flags matter only to 32-bit counters (extend.h rules 1-4);
 * a 64-bit copy (PMCCNTSR) cannot wrap between two samples. */
static bool snap_needs_flags(const struct pp_ext *x)
{
    return (x->mask & ~x->wide) != 0;
}

size_t pp_snap_plan_len(const struct pp_ext *x)
{
    size_t n = snap_needs_flags(x) ? 3 : 2;   /* PMSSCR write, PMSSSR, [PMOVSSR] */

    /* one copy a counter, two words for PMCCNTSR (bit counts, not a loop
     * over 32 counters: this runs every sample) */
    return n + (size_t)__builtin_popcount(x->mask) + (x->mask >> PP_EXT_CYCLE & 1u);
}

static struct pp_op rd(uint32_t addr)
{
    return (struct pp_op){ .addr = addr };
}

size_t pp_snap_plan_ops(const struct pp_ext *x, struct pp_op *ops)
{
    uint32_t b = x->pmu_base;
    size_t n = 0;

    ops[n++] = (struct pp_op){ .addr = b + PP_PMU_PMSSCR_IMPDEF, .wdata = PP_PMSSCR_SS, .write = 1 };
    ops[n++] = rd(b + PP_SNAP_PMSSSR);
    if (snap_needs_flags(x))
        ops[n++] = rd(b + PP_SNAP_PMOVSSR);
    if (x->mask >> PP_EXT_CYCLE & 1u) {
        ops[n++] = rd(b + PP_SNAP_PMCCNTSR);
        ops[n++] = rd(b + PP_SNAP_PMCCNTSR + 4);
    }
    for (unsigned i = 0; i < PP_SNAP_NEVCNT; i++)
        if (x->mask >> i & 1u)
            ops[n++] = rd(b + PP_SNAP_PMEVCNTSR(i));
    return n;
}

void pp_snap_fill(const struct pp_ext *x, const struct pp_op *ops, struct pp_ext_raw *raw)
{
    size_t k = 1;

    raw->coherent = true;
    /* NC = 1: the capture did not happen and the copies are stale. */
    raw->nocapture = (ops[k++].rdata & PP_SNAP_NC) != 0;
    raw->ovs = snap_needs_flags(x) ? ops[k++].rdata : 0;
    if (x->mask >> PP_EXT_CYCLE & 1u) {
        raw->val[PP_EXT_CYCLE] = (uint64_t)ops[k + 1].rdata << 32 | ops[k].rdata;
        k += 2;
    }
    for (unsigned i = 0; i < PP_SNAP_NEVCNT; i++)
        if (x->mask >> i & 1u)
            raw->val[i] = ops[k++].rdata;
}

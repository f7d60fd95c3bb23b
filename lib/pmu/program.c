/*
 * program.c - allocating events to counters, starting and stopping them.
 * Offsets: spec/arm-pmu-coresight.md 1.1 (PMUv3) and 4.1 (PMUv2); PMCR
 * fields 1.3; claim tags 3.
 */
#include <stdio.h>
#include <string.h>

#include "bus/bus.h"
#include "errmsg.h"
#include "pmu/catalog.h"
#include "pmu/program.h"
#include "pmu/regs.h"

/* Room for every write of one step: claim (clear, set), disable, 31
 * types, PMCCFILTR, PMOVSCLR, PMCR, enable, release. */
#define MAX_STEP_OPS (PP_MAX_COUNTERS + 10)

/* PMCR bits that hold state in the external view (spec 1.3): E, D, X, DP,
 * LC, LP, FZO.  P and C are write-only; [31:11] are RAZ/WI on PMUv3 and
 * identification on PMUv2, never written back. */
#define PMCR_KEEP 0x000002F9u

uint32_t pp_pmu_evcntr_off(const struct pp_core_desc *core, unsigned n)
{
    return core->type->pmu_version >= 3 ? PP_PMU_PMEVCNTR_V3(n) : PP_PMU_PMEVCNTR_V2(n);
}

uint32_t pp_pmu_ccntr_off(const struct pp_core_desc *core)
{
    return core->type->pmu_version >= 3 ? PP_PMU_PMCCNTR_V3 : PP_PMU_PMCCNTR_V2;
}

int pp_pmu_allocate(const struct pp_core_desc *core, const struct pp_evsel *ev, unsigned n,
                    struct pp_pmu_prog *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof(*out));
    if (n > PP_MAX_COUNTERS + 1) {
        pp_errmsg(err, errlen, "cpu%u: %u events asked, at most %u fit a PMU", core->cpu, n,
                  PP_MAX_COUNTERS + 1);
        return PP_E_BUSY;
    }
    out->nreq = n;
    for (unsigned i = 0; i < n; i++) {
        if (ev[i].cycle_counter && !out->cycles) {
            out->cycles = true;
            out->cycles_filter = ev[i].filter;
            out->slot[i] = PP_CYCLE_SLOT;
            continue;
        }
        if (out->nev >= core->counters) {
            pp_errmsg(err, errlen, "cpu%u: %u events need event counters but %s has %u "
                      "(plus the cycle counter)", core->cpu,
                      n - (out->cycles ? 1u : 0u), core->type->pretty, core->counters);
            return PP_E_BUSY;
        }
        out->slot[i] = (uint8_t)out->nev;
        out->ev[out->nev++] = ev[i];
    }
    return PP_OK;
}

static void put(struct pp_op *ops, size_t *n, uint32_t addr, uint32_t val)
{
    ops[(*n)++] = (struct pp_op){ .addr = addr, .wdata = val, .write = 1 };
}

int pp_pmu_program(struct pp_bus *bus, const struct pp_core_desc *core,
                   const struct pp_pmu_prog *p)
{
    return pp_pmu_program_ex(bus, core, p, 0);
}

/* The program step with the claim tags to set (live: the live tag to
 * hold, or 0); any other live tag is cleared in the same batch, so a
 * capture that held it sees the steal (program.h, PP_CLAIM_LIVE). */
static int program_claiming(struct pp_bus *bus, const struct pp_core_desc *core,
                            const struct pp_pmu_prog *p, unsigned flags, uint32_t live)
{
    struct pp_op ops[MAX_STEP_OPS];
    uint32_t base = core->pmu_base, enable = 0;
    uint32_t pmcr = PP_PMCR_P | PP_PMCR_C;
    size_t n = 0;

    if (p->nev > PP_MAX_COUNTERS)
        return PP_E_INVAL;
    /* Claim before the first PMU write, so a self-hosted agent that checks
     * the tags sees us as early as possible. */
    if (flags & PP_PROG_CLAIM) {
        put(ops, &n, core->debug_base + PP_DBG_CLAIMCLR, PP_CLAIM_LIVE & ~live);
        put(ops, &n, core->debug_base + PP_DBG_CLAIMSET, PP_CLAIM_EXTERNAL | live);
    }
    /* Disable first so no counter runs half-programmed. */
    put(ops, &n, base + PP_PMU_PMCNTENCLR, ~0u);
    for (unsigned i = 0; i < p->nev; i++) {
        put(ops, &n, base + PP_PMU_PMEVTYPER(i), p->ev[i].code | p->ev[i].filter);
        enable |= 1u << i;
    }
    if (p->cycles) {
        put(ops, &n, base + PP_PMU_PMCCFILTR, p->cycles_filter);
        enable |= PP_CCNT_BIT;
    }
    put(ops, &n, base + PP_PMU_PMOVSCLR, ~0u);
    if (!(flags & PP_PROG_NOSTART))
        pmcr |= PP_PMCR_E;
    if (core->type->pmu_version >= 3)
        pmcr |= PP_PMCR_LC;
    put(ops, &n, base + PP_PMU_PMCR, pmcr);
    /* Enable last: every used counter starts from zero at this write. */
    put(ops, &n, base + PP_PMU_PMCNTENSET, enable);
    return pp_bus_run(bus, ops, n);
}

/* Event counters the PMU reports it has.  The description's 'counters'
 * is what the allocation went by; PMCFGR.N is the silicon's word (spec
 * 1.3), and a counter beyond it would read 0 forever.  A PMCFGR that
 * reads all zero says nothing (CC is RAO where the register exists), so
 * the description stands. */
static int check_counters(const struct pp_core_desc *core, const struct pp_pmu_prog *p,
                          const struct pp_pmu_state *st, char *msg, size_t len)
{
    unsigned n = st->pmcfgr & 0xFFu;

    if (st->pmcfgr == 0 || p->nev <= n)
        return PP_OK;
    snprintf(msg, len, "cpu%u: %u events need event counters but the PMU has %u (PMCFGR.N; "
             "the target description says %u): ask for at most %u events besides cycles, "
             "or fix 'counters' in the description", core->cpu, p->nev, n, core->counters, n);
    return PP_E_UNSUPPORTED;
}

/* A common event whose PMCEID bit is clear; false for events no PMCEID
 * bit stands for (IMPLEMENTATION DEFINED ones). */
static bool not_advertised(const struct pp_pmu_state *st, uint16_t code)
{
    unsigned reg, bit;

    return pp_pmceid_bit(code, &reg, &bit) && !(st->pmceid[reg] >> bit & 1u);
}

/* Appends to msg a note naming the events the core does not advertise: a
 * clear PMCEID bit means the event is not implemented, so its counter will
 * most likely stay at 0.  Counted anyway, as the user asked. */
static void note_unadvertised(const struct pp_core_desc *core, const struct pp_pmu_prog *p,
                              const struct pp_pmu_state *st, char *msg, size_t len)
{
    char list[256] = "";
    size_t used = 0, have = len ? strlen(msg) : 0;
    unsigned found = 0;

    for (unsigned i = 0; i < p->nev && used < sizeof(list); i++) {
        const char *name = pp_pmu_event_name(core, p->ev[i].code);
        int w;

        if (!not_advertised(st, p->ev[i].code))
            continue;
        w = snprintf(list + used, sizeof(list) - used, "%s%s (0x%04X)", found ? ", " : "",
                     name ? name : "event", (unsigned)p->ev[i].code);
        used += w > 0 ? (size_t)w : 0;
        found++;
    }
    if (found && have < len)
        snprintf(msg + have, len - have, "%scpu%u does not advertise %s in PMCEID: %s may "
                 "count nothing", have ? "; " : "", core->cpu, list,
                 found > 1 ? "they" : "it");
}

int pp_pmu_program_ex(struct pp_bus *bus, const struct pp_core_desc *core,
                      const struct pp_pmu_prog *p, unsigned flags)
{
    return program_claiming(bus, core, p, flags, 0);
}

int pp_pmu_configure_ex(struct pp_bus *bus, const struct pp_core_desc *core,
                        const struct pp_pmu_prog *p, unsigned flags, uint32_t own,
                        struct pp_pmu_state *st, char *msg, size_t len)
{
    int rc = pp_pmu_read_state(bus, core, st);
    struct pp_pmu_state seen;
    uint32_t live = 0;

    if (len)
        msg[0] = '\0';
    if (rc != PP_OK)
        return rc;
    if (check_counters(core, p, st, msg, len) != PP_OK)
        return PP_E_UNSUPPORTED;
    seen = *st;
    seen.claim &= ~(own & PP_CLAIM_LIVE);
    if (pp_pmu_check_owner(core, &seen, msg, len) != PP_OK && !(flags & PP_PROG_FORCE))
        return PP_E_BUSY;
    note_unadvertised(core, p, st, msg, len);
    /* The live tag not held now: a steal changes DBGCLAIMCLR visibly. */
    if ((flags & PP_PROG_LIVE) && st->live_ok)
        live = st->claim & PP_CLAIM_LIVE0 ? PP_CLAIM_LIVE1 : PP_CLAIM_LIVE0;
    flags &= ~(unsigned)(PP_PROG_CLAIM | PP_PROG_FORCE | PP_PROG_LIVE);
    if (st->claim_ok)
        flags |= PP_PROG_CLAIM;
    return program_claiming(bus, core, p, flags, live);
}

int pp_pmu_configure(struct pp_bus *bus, const struct pp_core_desc *core,
                     const struct pp_pmu_prog *p, unsigned flags, struct pp_pmu_state *st,
                     char *msg, size_t len)
{
    return pp_pmu_configure_ex(bus, core, p, flags & ~(unsigned)PP_PROG_LIVE, 0, st, msg, len);
}

int pp_pmu_control(struct pp_bus *bus, const struct pp_core_desc *core,
                   const struct pp_pmu_state *st, unsigned ctl)
{
    struct pp_op ops[MAX_STEP_OPS];
    uint32_t base = core->pmu_base, pmcr = st->pmcr & PMCR_KEEP;
    size_t n = 0;

    if ((ctl & PP_CTL_START) && (ctl & PP_CTL_STOP))
        return PP_E_INVAL;
    if (ctl & PP_CTL_CLAIM) {
        /* Taking the PMU ends any capture's live claim (program.h). */
        put(ops, &n, core->debug_base + PP_DBG_CLAIMCLR, PP_CLAIM_LIVE);
        put(ops, &n, core->debug_base + PP_DBG_CLAIMSET, PP_CLAIM_EXTERNAL);
    }
    if (ctl & (PP_CTL_START | PP_CTL_STOP | PP_CTL_RESET)) {
        if (ctl & PP_CTL_START)
            pmcr |= PP_PMCR_E;
        if (ctl & PP_CTL_STOP)
            pmcr &= ~PP_PMCR_E;
        if (ctl & PP_CTL_RESET) {
            pmcr |= PP_PMCR_P | PP_PMCR_C;
            put(ops, &n, base + PP_PMU_PMOVSCLR, ~0u);
        }
        /* One PMCR write: every counter stops (or starts) at one instant. */
        put(ops, &n, base + PP_PMU_PMCR, pmcr);
    }
    /* Then hand the counters back: disabled counters with no claim read as
     * unused to the next owner check (ours included). */
    if (ctl & PP_CTL_STOP)
        put(ops, &n, base + PP_PMU_PMCNTENCLR, ~0u);
    if (ctl & PP_CTL_RELEASE)
        put(ops, &n, core->debug_base + PP_DBG_CLAIMCLR, PP_CLAIM_EXTERNAL | PP_CLAIM_LIVE);
    if (n == 0)
        return PP_OK;
    return pp_bus_run(bus, ops, n);
}

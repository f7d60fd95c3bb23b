/*
 * owner.c - who is using a core's counters: one batch of reads, then a
 * decision that never touches the bus.
 *
 * There is no architectural lock on the PMU between the on-target kernel
 * (perf) and an external debugger, so the evidence is the programming
 * itself (PMCR.E, PMCNTENSET, PMEVTYPER<n>, PMCCFILTR; spec 1.3) and the
 * claim tags (DBGCLAIMSET/CLR, spec 3) by the convention in program.h.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "bus/bus.h"
#include "pmu/catalog.h"
#include "pmu/program.h"
#include "pmu/regs.h"

/* PMCR, PMCNTENSET, PMCCFILTR, 31 types, 31 counters x 2 words, PMCCNTR x 2,
 * PMCFGR, PMCEID0-3, DBGCLAIMSET, DBGCLAIMCLR. */
#define MAX_STATE_OPS (3 + PP_MAX_COUNTERS * 3 + 2 + 5 + 2)

/* Where each value of the state batch sits. */
struct layout {
    size_t pmcr, cnten, ccfiltr, typer0, cnt0, ccnt, cfgr, ceid0, nceid, claimset, claimclr, n;
    bool wide_ev, wide_cc;
};

static void add_read(struct pp_op *ops, size_t *n, uint32_t addr)
{
    ops[(*n)++] = (struct pp_op){ .addr = addr };
}

static void lay_out(const struct pp_core_desc *core, unsigned ncnt, struct pp_op *ops,
                    struct layout *l)
{
    uint32_t base = core->pmu_base;
    size_t n = 0;

    l->wide_ev = core->type->pmu_version >= 3 && core->counter64;
    l->wide_cc = core->type->pmu_version >= 3;
    l->pmcr = n;
    add_read(ops, &n, base + PP_PMU_PMCR);
    l->cnten = n;
    add_read(ops, &n, base + PP_PMU_PMCNTENSET);
    l->ccfiltr = n;
    add_read(ops, &n, base + PP_PMU_PMCCFILTR);
    l->typer0 = n;
    for (unsigned i = 0; i < ncnt; i++)
        add_read(ops, &n, base + PP_PMU_PMEVTYPER(i));
    l->cnt0 = n;
    for (unsigned i = 0; i < ncnt; i++) {
        add_read(ops, &n, base + pp_pmu_evcntr_off(core, i));
        if (l->wide_ev)
            add_read(ops, &n, base + pp_pmu_evcntr_off(core, i) + 4);
    }
    l->ccnt = n;
    add_read(ops, &n, base + pp_pmu_ccntr_off(core));
    if (l->wide_cc)
        add_read(ops, &n, base + pp_pmu_ccntr_off(core) + 4);
    /* What the PMU has, for pp_pmu_configure: spec 1.3. */
    l->cfgr = n;
    add_read(ops, &n, base + PP_PMU_PMCFGR);
    l->ceid0 = n;
    l->nceid = core->type->pmuv3p1 ? 4 : 2;
    for (size_t i = 0; i < l->nceid; i++)
        add_read(ops, &n, base + PP_PMU_PMCEID(i));
    l->claimset = n;
    add_read(ops, &n, core->debug_base + PP_DBG_CLAIMSET);
    l->claimclr = n;
    add_read(ops, &n, core->debug_base + PP_DBG_CLAIMCLR);
    l->n = n;
}

static uint64_t word_pair(const struct pp_op *ops, size_t i, bool wide)
{
    return (wide ? (uint64_t)ops[i + 1].rdata << 32 : 0) | ops[i].rdata;
}

static void fill(struct pp_pmu_state *st, const struct pp_op *ops, const struct layout *l)
{
    st->pmcr = ops[l->pmcr].rdata;
    st->cntenset = ops[l->cnten].rdata;
    st->ccfiltr = ops[l->ccfiltr].rdata;
    for (unsigned i = 0; i < st->ncnt; i++) {
        st->evtyper[i] = ops[l->typer0 + i].rdata;
        st->value[i] = word_pair(ops, l->cnt0 + i * (l->wide_ev ? 2u : 1u), l->wide_ev);
    }
    st->value[PP_CYCLE_SLOT] = word_pair(ops, l->ccnt, l->wide_cc);
    st->pmcfgr = ops[l->cfgr].rdata;
    for (size_t i = 0; i < l->nceid; i++)
        st->pmceid[i] = ops[l->ceid0 + i].rdata;
}

/* Claim tags are optional for our purposes: a debug block without them (or
 * one that refuses the read while the PMU answers) only loses the check. */
static void fill_claim(struct pp_pmu_state *st, const struct pp_op *ops, const struct layout *l)
{
    const uint32_t need = PP_CLAIM_EXTERNAL | PP_CLAIM_SELF;

    st->claim_st = ops[l->claimset].st != PP_OP_OK ? ops[l->claimset].st : ops[l->claimclr].st;
    if (st->claim_st != PP_OP_OK)
        return;
    st->claim_impl = ops[l->claimset].rdata;
    st->claim = ops[l->claimclr].rdata & st->claim_impl;
    st->claim_ok = (st->claim_impl & need) == need;
    st->live_ok = st->claim_ok && (st->claim_impl & PP_CLAIM_LIVE) == PP_CLAIM_LIVE;
}

int pp_pmu_read_state(struct pp_bus *bus, const struct pp_core_desc *core,
                      struct pp_pmu_state *out)
{
    struct pp_op ops[MAX_STATE_OPS];
    struct layout l;
    int rc;

    memset(out, 0, sizeof(*out));
    out->ncnt = core->counters < PP_MAX_COUNTERS ? core->counters : PP_MAX_COUNTERS;
    lay_out(core, out->ncnt, ops, &l);
    rc = pp_bus_run(bus, ops, l.n);
    if (rc == PP_E_LINK || rc == PP_E_PROTO || rc == PP_E_TIMEOUT)
        return rc;
    out->st = PP_OP_OK;
    for (size_t i = 0; i < l.claimset; i++) {
        if (ops[i].st != PP_OP_OK) {
            out->st = ops[i].st;
            out->bad_addr = ops[i].addr;
            return pp_op_status_err(ops[i].st);
        }
    }
    fill(out, ops, &l);
    fill_claim(out, ops, &l);
    return PP_OK;
}

bool pp_pmu_counting(const struct pp_pmu_state *st, unsigned n)
{
    return (st->pmcr & PP_PMCR_E) && (st->cntenset >> n & 1u);
}

uint16_t pp_pmu_evtyper_code(const struct pp_core_desc *core, uint32_t evtyper)
{
    if (core->type->pmu_version < 3)
        return (uint16_t)(evtyper & 0xFFu);
    return (uint16_t)(evtyper & (core->type->arch == PP_ARCH_V8_0 ? 0x3FFu : 0xFFFFu));
}

const char *pp_pmu_event_name(const struct pp_core_desc *core, uint16_t code)
{
    const struct pp_catalog *cat = pp_catalog_find(core->type->catalog);
    const struct pp_event *ev = cat ? pp_catalog_lookup(cat, code) : NULL;

    return ev ? ev->name : NULL;
}

uint32_t pp_pmu_busy(const struct pp_pmu_state *st)
{
    bool on = (st->pmcr & PP_PMCR_E) != 0;
    uint32_t busy = 0;

    for (unsigned i = 0; i < st->ncnt; i++)
        if ((st->cntenset >> i & 1u) && (on || st->evtyper[i] != 0))
            busy |= 1u << i;
    if ((st->cntenset & PP_CCNT_BIT) && (on || st->ccfiltr != 0))
        busy |= PP_CCNT_BIT;
    return busy;
}

/* A bounded text being built; output is cut at len - 1. */
struct text {
    char *buf;
    size_t len, n;
};

static void addf(struct text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void addf(struct text *t, const char *fmt, ...)
{
    va_list ap;
    int k;

    if (t->n + 1 >= t->len)
        return;
    va_start(ap, fmt);
    k = vsnprintf(t->buf + t->n, t->len - t->n, fmt, ap);
    va_end(ap);
    if (k > 0)
        t->n = t->n + (size_t)k < t->len ? t->n + (size_t)k : t->len - 1;
}

/* "PMEVCNTR0 (INST_RETIRED 0x0008), PMCCNTR (cycles)" */
static void list_counters(const struct pp_core_desc *core, const struct pp_pmu_state *st,
                          uint32_t busy, struct text *t)
{
    const char *sep = "";

    for (unsigned i = 0; i < st->ncnt; i++) {
        uint16_t code = pp_pmu_evtyper_code(core, st->evtyper[i]);
        const char *name = pp_pmu_event_name(core, code);

        if (!(busy >> i & 1u))
            continue;
        addf(t, "%sPMEVCNTR%u (%s%s0x%04X)", sep, i, name ? name : "", name ? " " : "", code);
        sep = ", ";
    }
    if (busy & PP_CCNT_BIT)
        addf(t, "%sPMCCNTR (cycles)", sep);
}

/* The register values that show the counters are in use. */
static void list_evidence(const struct pp_pmu_state *st, uint32_t busy, struct text *t)
{
    addf(t, "PMCR=0x%08X (E=%u) PMCNTENSET=0x%08X", st->pmcr, st->pmcr & PP_PMCR_E,
         st->cntenset);
    for (unsigned i = 0; i < st->ncnt; i++)
        if ((busy >> i & 1u) && st->evtyper[i])
            addf(t, " PMEVTYPER%u=0x%08X", i, st->evtyper[i]);
    if ((busy & PP_CCNT_BIT) && st->ccfiltr)
        addf(t, " PMCCFILTR=0x%08X", st->ccfiltr);
}

int pp_pmu_check_owner(const struct pp_core_desc *core, const struct pp_pmu_state *st,
                       char *msg, size_t len)
{
    struct text t = { msg, len, 0 };
    uint32_t busy = pp_pmu_busy(st);

    if (len)
        msg[0] = '\0';
    if (st->claim_ok && (st->claim & PP_CLAIM_SELF)) {
        addf(&t, "cpu%u: self-hosted software has claimed the PMU: DBGCLAIMCLR=0x%08X "
             "(claim tag 1 set", core->cpu, st->claim);
        if (busy) {
            addf(&t, "); counters in use: ");
            list_counters(core, st, busy, &t);
            addf(&t, "; evidence: ");
            list_evidence(st, busy, &t);
        } else {
            addf(&t, ")");
        }
        return PP_E_BUSY;
    }
    if (st->claim_ok && (st->claim & PP_CLAIM_LIVE)) {
        /* A capture killed, or cut off by a lost link, cannot drop its
         * tag; nothing on the target tells it from a live one. */
        addf(&t, "cpu%u: a running capture (another pmuprobe stream) holds the PMU, or one "
             "ended without releasing it (killed, or its link lost): DBGCLAIMCLR=0x%08X "
             "(claim tags 0 and %u set)", core->cpu, st->claim,
             st->claim & PP_CLAIM_LIVE0 ? 2u : 3u);
        if (busy) {
            addf(&t, "; counters in use: ");
            list_counters(core, st, busy, &t);
        }
        return PP_E_BUSY;
    }
    if (!busy)
        return PP_OK;
    if (st->claim_ok && (st->claim & PP_CLAIM_EXTERNAL)) {
        addf(&t, "cpu%u: counters in use under an external debugger's claim (claim tag 0, "
             "DBGCLAIMCLR=0x%08X; an earlier pmuprobe config?), taken over: ", core->cpu,
             st->claim);
        list_counters(core, st, busy, &t);
        return PP_OK;
    }
    addf(&t, "cpu%u: counters in use by on-target software: ", core->cpu);
    list_counters(core, st, busy, &t);
    addf(&t, "; evidence: ");
    list_evidence(st, busy, &t);
    return PP_E_BUSY;
}

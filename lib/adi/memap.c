/*
 * memap.c - the APB-AP as a MEM-AP (spec 7.3): finding it by IDR, setting
 * CSW once, and planning each batch's TAR/DRW/BD0-BD3 transfers.
 *
 * Planning is a small dynamic programme.  Before each op the state is the
 * AP register bank SELECT holds (0: CSW/TAR/DRW, 1: BD0-BD3, or unknown)
 * and what TAR holds (auto-increment followed, unknown past a 1 KB
 * boundary).  An op can be done as
 *   DRW            bank 0, TAR already at the address   1 scan
 *   TAR + DRW      bank 0                               2 scans
 *   BD             bank 1, TAR already in its block     1 scan, TAR kept
 *   TAR + BD       TAR written in bank 0, then bank 1   2 scans + switch
 * and a bank switch is a SELECT write between two IR changes.  The
 * cheapest path through the batch wins, so registers that share a 16-byte
 * block and are read out of order (hi, lo, hi of a 64-bit counter) stay
 * in BD without rewriting TAR, and scattered registers use TAR + DRW.
 * A few states per op suffice, so the cost is linear in the batch.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "adi/adi.h"
#include "errmsg.h"

#define MAXS 8                /* states kept per op */
#define BANK_UNKNOWN 2
#define SWITCH_TCK (2u * 9u + 39u)   /* IR to DPACC, SELECT, IR to APACC */
/* At a batch's start the IR still holds DPACC from the last batch's
 * CTRL/STAT check, so a SELECT write there costs just its scan. */
#define SWITCH_AT_START_TCK 39u
/* Batches are usually replayed (a capture samples the same registers
 * again and again), so a plan is chosen for HORIZON runs of the batch in
 * a row: paying a bank switch once to stay in BD0-BD3 for good beats
 * rewriting TAR in every run.  Only the first run's choices are used. */
#define HORIZON 3u
#define HORIZON_MAX_OPS 4096u

enum how { HOW_DRW, HOW_TAR_DRW, HOW_BD, HOW_TAR_BD };

struct pst {
    uint8_t  bank;
    bool     tk;              /* TAR known */
    uint32_t tar;
    uint32_t cost;
    int8_t   prev;            /* state index in the previous layer */
    uint8_t  how;
};

static uint32_t block_of(uint32_t a)
{
    return a & ~0xFu;
}

static bool same_key(const struct pst *a, const struct pst *b)
{
    return a->bank == b->bank && a->tk == b->tk && (!a->tk || a->tar == b->tar);
}

/* Keeps the cheapest state per (bank, TAR); when full, drops the dearest. */
static void relax(struct pst *layer, unsigned *nl, const struct pst *c)
{
    unsigned worst = 0;

    for (unsigned i = 0; i < *nl; i++) {
        if (same_key(&layer[i], c)) {
            if (c->cost < layer[i].cost)
                layer[i] = *c;
            return;
        }
        if (layer[i].cost > layer[worst].cost)
            worst = i;
    }
    if (*nl < MAXS)
        layer[(*nl)++] = *c;
    else if (c->cost < layer[worst].cost)
        layer[worst] = *c;
}

/* TAR after a DRW access: +4 inside the 1 KB auto-increment block. */
static void tar_after_drw(struct pst *c, uint32_t a)
{
    uint32_t next = a + 4u;

    c->tk = (next & (PP_TAR_INC_BLOCK - 1u)) != 0;
    c->tar = next;
}

struct costs {
    uint32_t scan;            /* one APACC scan with its idle */
    uint32_t sw;              /* one bank switch */
    uint32_t sw_start;        /* one at the first op of a run */
};

/* The switch cost at the first op of a run: SWITCH_AT_START_TCK after a
 * batch's CTRL/STAT tail, a whole switch between the repetitions of a
 * repeat run, which have no tail in between. */
static struct costs costs_at(const struct costs *k, bool first)
{
    struct costs c = *k;

    if (first)
        c.sw = k->sw_start;
    return c;
}

static void expand(const struct pst *s, int8_t si, uint32_t a, const struct costs *k,
                   bool forget, struct pst *layer, unsigned *nl)
{
    bool tar_here = s->tk && s->tar == a;
    bool in_block = s->tk && block_of(s->tar) == block_of(a);
    struct pst c;

    /* DRW, in bank 0 */
    c = (struct pst){ .bank = 0, .prev = si };
    c.cost = s->cost + (s->bank != 0 ? k->sw : 0) + (tar_here ? 0 : k->scan) + k->scan;
    c.how = tar_here ? HOW_DRW : HOW_TAR_DRW;
    tar_after_drw(&c, a);
    if (forget)
        c.tk = false;
    relax(layer, nl, &c);

    /* BD, in bank 1 */
    c = (struct pst){ .bank = 1, .prev = si, .tk = true };
    if (in_block) {
        c.cost = s->cost + (s->bank != 1 ? k->sw : 0) + k->scan;
        c.tar = s->tar;
        c.how = HOW_BD;
    } else {
        c.cost = s->cost + (s->bank != 0 ? k->sw : 0) + k->scan + k->sw + k->scan;
        c.tar = a;
        c.how = HOW_TAR_BD;
    }
    if (forget)
        c.tk = false;
    relax(layer, nl, &c);
}

static struct pst start_state(const struct pp_memap *m, const struct pp_dp *dp)
{
    struct pst s = { .bank = BANK_UNKNOWN, .tk = m->tar_known, .tar = m->tar, .prev = -1 };
    uint32_t sel;

    if (pp_dp_select_cached(dp, &sel) && (sel >> 24) == m->apsel && ((sel >> 4) & 0xFu) < 2)
        s.bank = (uint8_t)((sel >> 4) & 0xFu);
    return s;
}

static struct pp_dp_xfer ap_xfer(const struct pp_memap *m, bool rnw, uint8_t addr,
                                 uint32_t wdata, int32_t tag, uint8_t role)
{
    return (struct pp_dp_xfer){ .ap = 1, .rnw = rnw, .addr = addr, .apsel = m->apsel,
                                .wdata = wdata, .tag = tag, .role = role };
}

static struct pp_dp_xfer dp_xfer(bool rnw, uint8_t addr, uint32_t wdata, int32_t tag,
                                 uint8_t role)
{
    return (struct pp_dp_xfer){ .rnw = rnw, .addr = addr, .wdata = wdata, .tag = tag,
                                .role = role };
}

/* Transfers for one op planned as how. */
static size_t emit(const struct pp_memap *m, const struct pp_dp *dp, const struct pp_op *op,
                   int32_t tag, uint8_t how, bool check, struct pp_dp_xfer *x)
{
    size_t k = 0;
    bool bd = how == HOW_BD || how == HOW_TAR_BD;

    if (how == HOW_TAR_DRW || how == HOW_TAR_BD)
        x[k++] = ap_xfer(m, false, PP_AP_TAR, op->addr, tag, PP_MEMAP_ROLE_TAR);
    x[k++] = ap_xfer(m, !op->write, bd ? (uint8_t)(PP_AP_BD0 | (op->addr & 0xCu)) : PP_AP_DRW,
                     op->wdata, tag, PP_MEMAP_ROLE_DATA);
    if (check) {
        x[k++] = dp_xfer(true, PP_DP_CTRLSTAT, 0, tag, PP_MEMAP_ROLE_CHECK);
        x[k++] = dp_xfer(false, PP_DP_CTRLSTAT, pp_dp_ctrl_word(dp, PP_CS_STICKYERR), tag,
                         PP_MEMAP_ROLE_CLEAR);
    }
    return k;
}

/* The programme's working set: the pending ops and a layer of states
 * after each step (steps = ops x runs in the horizon). */
struct plan {
    size_t *idx;              /* pending ops, in order */
    size_t nops, steps;
    struct pst *L;            /* L[j * MAXS + s]: state s after step j */
    unsigned *nl;             /* states in each layer */
    uint8_t *how;             /* the first run's choice per op */
};

/* Lays p out in m's scratch block (idx, L, nl, how: alignments falling),
 * grown only for a batch larger than any before.  A capture plans one
 * batch per sample, so a malloc here (kilobytes of layers) was the
 * stream's per-sample allocation: reusing the block makes a steady stream
 * allocate nothing, and keeps ASan's quarantine from filling with freed
 * plans (tests/soak.test). */
static bool plan_alloc(struct pp_memap *m, struct plan *p, const struct pp_op *ops, size_t n,
                       bool per_op)
{
    size_t nops = 0, steps, len;

    for (size_t i = 0; i < n; i++)
        nops += ops[i].st == PP_OP_PENDING;
    steps = per_op || nops > HORIZON_MAX_OPS ? nops : nops * HORIZON;
    len = nops * sizeof(*p->idx) + (steps + 1) * (MAXS * sizeof(*p->L) + sizeof(*p->nl)) + nops;
    if (len > m->scratch_len) {
        void *b = malloc(len);

        if (!b)
            return false;
        free(m->scratch);
        m->scratch = b;
        m->scratch_len = len;
    }
    *p = (struct plan){ .idx = m->scratch, .steps = steps };
    p->L = (struct pst *)(void *)(p->idx + nops);
    p->nl = (unsigned *)(void *)(p->L + (steps + 1) * MAXS);
    p->how = (uint8_t *)(p->nl + steps + 1);
    for (size_t i = 0; i < n; i++)
        if (ops[i].st == PP_OP_PENDING)
            p->idx[p->nops++] = i;
    memset(p->nl, 0, (steps + 1) * sizeof(*p->nl));
    return true;
}

/* Fills the layers and returns the state, after the first run, on the
 * cheapest path through the whole horizon. */
static size_t plan_solve(struct plan *p, const struct pst *start, const struct pp_op *ops,
                         const struct costs *k, bool per_op)
{
    size_t best = 0;

    p->L[0] = *start;
    p->nl[0] = 1;
    for (size_t j = 0; j < p->steps; j++) {
        struct costs kj = costs_at(k, j % p->nops == 0);

        for (unsigned s = 0; s < p->nl[j]; s++)
            expand(&p->L[j * MAXS + s], (int8_t)s, ops[p->idx[j % p->nops]].addr, &kj, per_op,
                   &p->L[(j + 1) * MAXS], &p->nl[j + 1]);
    }
    for (unsigned s = 1; s < p->nl[p->steps]; s++)
        if (p->L[p->steps * MAXS + s].cost < p->L[p->steps * MAXS + best].cost)
            best = s;
    for (size_t j = p->steps; j > p->nops; j--)
        best = (size_t)p->L[j * MAXS + best].prev;
    /* Each op's choice, walking back from there. */
    for (size_t j = p->nops, s = best; j > 0; j--) {
        p->how[j - 1] = p->L[j * MAXS + s].how;
        s = (size_t)p->L[j * MAXS + s].prev;
    }
    return best;
}

static int plan_from(struct pp_memap *m, const struct pp_dp *dp, const struct pst *startp,
                     bool after_tail, const struct pp_memap_req *r)
{
    const struct pp_op *ops = r->ops;
    const bool per_op_check = after_tail && r->per_op_check;
    size_t *nx = r->nx;
    const struct costs k = { .scan = 39u + pp_dp_idle(dp), .sw = SWITCH_TCK,
                             .sw_start = after_tail ? SWITCH_AT_START_TCK : SWITCH_TCK };
    struct pst start = *startp;
    struct plan p;
    size_t end;

    if (!plan_alloc(m, &p, ops, r->n, per_op_check) ||
        *nx + p.nops * PP_MEMAP_XFERS_PER_OP > r->cap)
        return PP_E_NOMEM;
    if (p.nops) {
        end = plan_solve(&p, &start, ops, &k, per_op_check);
        for (size_t j = 0; j < p.nops; j++)
            *nx += emit(m, dp, &ops[p.idx[j]], r->first_tag + (int32_t)p.idx[j], p.how[j],
                        per_op_check, &r->x[*nx]);
        m->tar_known = p.L[p.nops * MAXS + end].tk;
        m->tar = p.L[p.nops * MAXS + end].tar;
        m->bank_end = p.L[p.nops * MAXS + end].bank;
    } else {
        m->bank_end = start.bank;
    }
    return PP_OK;
}

int pp_memap_plan(struct pp_memap *m, const struct pp_dp *dp, const struct pp_memap_req *r)
{
    struct pst start = start_state(m, dp);

    return plan_from(m, dp, &start, true, r);
}

/* No CTRL/STAT tail in between: the next plan starts where this one ends. */
int pp_memap_plan_next(struct pp_memap *m, const struct pp_dp *dp, const struct pp_memap_req *r)
{
    struct pst start = { .bank = m->bank_end <= 1 ? m->bank_end : BANK_UNKNOWN,
                         .tk = m->tar_known, .tar = m->tar, .prev = -1 };

    return plan_from(m, dp, &start, false, r);
}

void pp_memap_free(struct pp_memap *m)
{
    free(m->scratch);
    m->scratch = NULL;
    m->scratch_len = 0;
}

void pp_memap_forget(struct pp_memap *m)
{
    m->tar_known = false;
    m->bank_end = BANK_UNKNOWN;
}

/* ---- setup ---------------------------------------------------------------- */

static bool is_apb_memap(uint32_t idr)
{
    return PP_IDR_CLASS(idr) == PP_IDR_CLASS_MEMAP &&
           (PP_IDR_TYPE(idr) == 2u || PP_IDR_TYPE(idr) == 6u);
}

#define SCAN_APS 16u

/* IDRs of the target's AP and APSEL 0-15 in one flush. */
static int read_idrs(struct pp_dp *dp, unsigned want, uint32_t *idr, uint32_t *want_idr,
                     char *err, size_t errlen)
{
    struct pp_dp_xfer x[SCAN_APS + 1];
    uint32_t ctrl = 0;
    int rc = PP_E_WAIT;

    for (unsigned i = 0; i < SCAN_APS; i++)
        x[i] = (struct pp_dp_xfer){ .ap = 1, .rnw = 1, .addr = PP_AP_IDR, .apsel = (uint8_t)i,
                                    .tag = -1 };
    x[SCAN_APS] = x[0];
    x[SCAN_APS].apsel = (uint8_t)want;
    for (int t = 0; t < 8 && rc == PP_E_WAIT; t++)
        rc = pp_dp_exec(dp, x, SCAN_APS + 1, &ctrl);
    if (rc != PP_OK) {
        pp_errmsg(err, errlen, "reading the AP IDRs: %s",
                  rc == PP_E_WAIT ? "the DP kept answering WAIT" : pp_dp_errmsg(dp));
        return rc;
    }
    for (unsigned i = 0; i < SCAN_APS; i++)
        idr[i] = x[i].rdata;
    *want_idr = x[SCAN_APS].rdata;
    return PP_OK;
}

static int pick_ap(struct pp_memap *m, struct pp_dp *dp, const struct pp_target *t, char *err,
                   size_t errlen)
{
    uint32_t idr[SCAN_APS], want_idr = 0;
    char seen[SCAN_APS * 14 + 1] = "";
    size_t len = 0;
    int rc = read_idrs(dp, t->ap_index & 0xFFu, idr, &want_idr, err, errlen);

    if (rc != PP_OK)
        return rc;
    if (t->ap_index <= 0xFFu && is_apb_memap(want_idr)) {
        m->apsel = (uint8_t)t->ap_index;
        m->idr = want_idr;
        return PP_OK;
    }
    for (unsigned i = 0; i < SCAN_APS; i++) {
        if (is_apb_memap(idr[i])) {
            m->apsel = (uint8_t)i;
            m->idr = idr[i];
            return PP_OK;
        }
        if (idr[i] && len < sizeof(seen))
            len += (size_t)snprintf(seen + len, sizeof(seen) - len, " %u:0x%08X", i, idr[i]);
    }
    /* An ap.index past 255 is the stand-in of discovery: no AP preferred. */
    if (t->ap_index <= 0xFFu)
        pp_errmsg(err, errlen, "no APB-AP (MEM-AP of type APB, IDR class 0x8, type 2 or 6) "
                  "at APSEL %u (the target's ap.index) or 0-15; IDRs seen:%s", t->ap_index,
                  len ? seen : " none (every AP reads 0)");
    else
        pp_errmsg(err, errlen, "no APB-AP (MEM-AP of type APB, IDR class 0x8, type 2 or 6) "
                  "among APSEL 0-15; IDRs seen:%s; the PMU needs an APB-AP: check the DAP "
                  "with OpenOCD's '<dap> info', or give --target with ap.index",
                  len ? seen : " none (every AP reads 0)");
    return PP_E_NOTFOUND;
}

/* Spec 7.3: 32-bit size and single auto-increment; every other CSW bit
 * (Prot, DbgSwEnable, Mode) stays as the AP has it. */
static int set_csw(struct pp_memap *m, struct pp_dp *dp, char *err, size_t errlen)
{
    struct pp_dp_xfer x[2] = {
        { .ap = 1, .rnw = 1, .addr = PP_AP_CSW, .apsel = m->apsel, .tag = -1 },
        { .addr = PP_DP_CTRLSTAT, .rnw = 1, .tag = -1 },
    };
    uint32_t ctrl = 0, want;
    int rc = PP_E_WAIT;

    for (int t = 0; t < 8 && rc == PP_E_WAIT; t++)
        rc = pp_dp_exec(dp, x, 2, &ctrl);
    if (rc == PP_OK && (x[1].rdata & PP_CS_STICKYERR)) {
        pp_dp_clear_sticky_next(dp);
        pp_errmsg(err, errlen, "reading CSW of AP %u set STICKYERR (CTRL/STAT 0x%08X)",
                  m->apsel, x[1].rdata);
        return PP_E_FAULT;
    }
    if (rc != PP_OK) {
        pp_errmsg(err, errlen, "reading CSW of AP %u: %s", m->apsel,
                  rc == PP_E_WAIT ? "the DP kept answering WAIT" : pp_dp_errmsg(dp));
        return rc;
    }
    m->csw = x[0].rdata;
    want = (m->csw & ~(PP_CSW_SIZE_MASK | PP_CSW_INC_MASK)) | PP_CSW_SIZE_WORD |
           PP_CSW_INC_SINGLE;
    if (want == m->csw)
        return PP_OK;
    x[0] = (struct pp_dp_xfer){ .ap = 1, .addr = PP_AP_CSW, .apsel = m->apsel, .wdata = want,
                                .tag = -1 };
    rc = PP_E_WAIT;
    for (int t = 0; t < 8 && rc == PP_E_WAIT; t++)
        rc = pp_dp_exec(dp, x, 2, &ctrl);
    if (rc != PP_OK || (x[1].rdata & PP_CS_STICKYERR)) {
        pp_errmsg(err, errlen, "writing CSW 0x%08X to AP %u: %s", want, m->apsel,
                  rc != PP_OK ? pp_dp_errmsg(dp) : "STICKYERR set");
        return rc != PP_OK ? rc : PP_E_FAULT;
    }
    m->csw = want;
    return PP_OK;
}

/* BASE (spec/arm-pmu-coresight.md 6.1) points discovery at the ROM table.
 * An AP that cannot tell is no reason to fail: a target file gives it. */
static void read_base(struct pp_memap *m, struct pp_dp *dp)
{
    struct pp_dp_xfer x = { .ap = 1, .rnw = 1, .addr = PP_AP_BASE, .apsel = m->apsel,
                            .tag = -1 };
    uint32_t ctrl = 0;
    int rc = PP_E_WAIT;

    for (int t = 0; t < 8 && rc == PP_E_WAIT; t++)
        rc = pp_dp_exec(dp, &x, 1, &ctrl);
    m->base_known = rc == PP_OK;
    m->base = x.rdata;
}

int pp_memap_setup(struct pp_memap *m, struct pp_dp *dp, const struct pp_target *t,
                   char *err, size_t errlen)
{
    void *scratch = m->scratch;
    size_t scratch_len = m->scratch_len;
    int rc;

    /* A second setup (a new AP on the same bus) keeps the working set. */
    memset(m, 0, sizeof(*m));
    m->scratch = scratch;
    m->scratch_len = scratch_len;
    m->bank_end = BANK_UNKNOWN;
    if ((rc = pick_ap(m, dp, t, err, errlen)) != PP_OK)
        return rc;
    read_base(m, dp);
    return set_csw(m, dp, err, errlen);
}

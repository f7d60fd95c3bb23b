/*
 * trace.c - the wire trace: records built once, in one format, for every
 * layer that reports (trace.h).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "pmu/regs.h"
#include "target/target.h"
#include "trace.h"

#define BLOCK 0x1000u            /* a CoreSight component is 4 KB */

struct pp_trace *pp_trace_new(pp_trace_fn fn, void *user, int level)
{
    struct pp_trace *tr;

    if (!fn)
        return NULL;
    tr = calloc(1, sizeof(*tr));
    if (!tr)
        return NULL;
    tr->fn = fn;
    tr->user = user;
    tr->level = level > 0 ? level : PP_TRACE_DAP;
    return tr;
}

void pp_trace_free(struct pp_trace *tr)
{
    if (!tr)
        return;
    free(tr->cores);
    free(tr);
}

int pp_trace_set_target(struct pp_trace *tr, const struct pp_target *t)
{
    struct pp_trace_core *c = NULL;

    if (!tr)
        return PP_OK;
    free(tr->cores);
    tr->cores = NULL;
    tr->ncores = 0;
    if (t && t->ncores) {
        /* Out of memory only costs the names, never the trace. */
        c = calloc(t->ncores, sizeof(*c));
        if (!c)
            return PP_E_NOMEM;
        for (unsigned i = 0; i < t->ncores; i++) {
            const struct pp_core_desc *d = &t->cores[i];

            c[i] = (struct pp_trace_core){ .cpu = d->cpu, .debug_base = d->debug_base,
                                           .pmu_base = d->pmu_base, .cti_base = d->cti_base,
                                           .type = d->type, .counters = d->counters };
        }
    }
    tr->cores = c;
    tr->ncores = c ? t->ncores : 0;
    return PP_OK;
}

static bool in_block(uint32_t base, uint32_t addr)
{
    return base && addr - base < BLOCK;
}

/* The register at a block offset of a core, by the same maps `read` uses. */
static void name_reg(const struct pp_trace_core *c, enum pp_block blk, uint32_t addr,
                     uint32_t base, char *buf, size_t len)
{
    struct pp_reg_ref ref;

    pp_reg_at(c->type, c->counters, blk, (uint16_t)(addr - base), &ref);
    snprintf(buf, len, "cpu%u %s", c->cpu, ref.name);
}

void pp_trace_name_apb(const struct pp_trace *tr, uint32_t addr, char *buf, size_t len)
{
    buf[0] = '\0';
    for (unsigned i = 0; tr && i < tr->ncores; i++) {
        const struct pp_trace_core *c = &tr->cores[i];

        if (in_block(c->pmu_base, addr)) {
            name_reg(c, PP_BLK_PMU, addr, c->pmu_base, buf, len);
            return;
        }
        if (in_block(c->debug_base, addr)) {
            name_reg(c, PP_BLK_DEBUG, addr, c->debug_base, buf, len);
            return;
        }
        if (in_block(c->cti_base, addr)) {
            snprintf(buf, len, "cpu%u cti+0x%03X", c->cpu, (unsigned)(addr - c->cti_base));
            return;
        }
    }
}

static void emit(struct pp_trace *tr, struct pp_trace_rec *rec)
{
    rec->t_ns = pp_mono_ns();
    tr->fn(tr->user, rec);
}

void pp_trace_apb(struct pp_trace *tr, const struct pp_op *op)
{
    char name[48], value[16] = "-", text[160];
    struct pp_trace_rec rec = { .layer = PP_TRACE_APB, .write = op->write, .addr = op->addr,
                                .value = op->write ? op->wdata : op->rdata,
                                .status = pp_op_status_name(op->st), .reg = name,
                                .text = text };

    if (!pp_trace_on(tr, PP_TRACE_APB))
        return;
    pp_trace_name_apb(tr, op->addr, name, sizeof(name));
    /* A read that failed has no value to show. */
    if (op->write || op->st == PP_OP_OK)
        snprintf(value, sizeof(value), "0x%08X", (unsigned)rec.value);
    snprintf(text, sizeof(text), "apb  %s 0x%08X %s %-10s %-6s %s", op->write ? "W" : "R",
             op->addr, op->write ? "<-" : "->", value, rec.status, name);
    emit(tr, &rec);
}

/* ---- DP and AP accesses (spec/arm-pmu-coresight.md 7.1-7.3) ---------------- */

static const char *dp_name(uint8_t a, bool rnw)
{
    switch (a) {
    case 0x0: return rnw ? "DPIDR" : "ABORT";
    case 0x4: return "CTRL/STAT";
    case 0x8: return "SELECT";
    default:  return "RDBUFF";
    }
}

/* A MEM-AP register by its full address, bank from SELECT[7:4]. */
static const char *ap_name(unsigned reg)
{
    static const char *const bd[] = { "BD0", "BD1", "BD2", "BD3" };

    switch (reg) {
    case 0x00: return "CSW";
    case 0x04: return "TAR";
    case 0x0C: return "DRW";
    case 0xF4: return "CFG";
    case 0xF8: return "BASE";
    case 0xFC: return "IDR";
    }
    return reg >= 0x10 && reg < 0x20 ? bd[(reg - 0x10) / 4] : "AP?";
}

/* The APB address a DRW or BDn access reached, as TAR said; DRW then
 * moves TAR on by a word (single auto-increment, which the MEM-AP setup
 * writes into CSW, wrapping inside 1 KB: spec 7.3). */
static bool apb_address(struct pp_trace *tr, unsigned reg, bool ran, uint32_t *addr)
{
    if (!tr->tar_known)
        return false;
    if (reg == 0x0C) {
        *addr = tr->tar;
        if (ran)
            tr->tar = (tr->tar & ~0x3FFu) | ((tr->tar + 4u) & 0x3FFu);
        return true;
    }
    if (reg >= 0x10 && reg < 0x20) {
        *addr = (tr->tar & ~0xFu) | (reg - 0x10);
        return true;
    }
    return false;
}

/* Follows SELECT and TAR writes that ran. */
static void follow(struct pp_trace *tr, const struct pp_trace_dap *d, unsigned reg, bool ran)
{
    if (!ran || d->rnw)
        return;
    if (!d->ap && d->a == 0x8) {
        tr->select = d->value;
        tr->select_known = true;
    } else if (d->ap && reg == 0x04) {
        tr->tar = d->value;
        tr->tar_known = true;
    }
}

void pp_trace_dap(struct pp_trace *tr, const struct pp_trace_dap *d)
{
    char text[200], where[80] = "", name[48], value[16] = "-";
    bool ran = strcmp(d->ack, "OK") == 0;
    unsigned reg = d->ap ? ((tr && tr->select_known ? tr->select & 0xF0u : 0u) | d->a) : d->a;
    struct pp_trace_rec rec = { .layer = PP_TRACE_DAP, .write = !d->rnw, .addr = reg,
                                .value = d->value, .status = d->ack, .retry = d->retry,
                                .text = text };
    uint32_t apb;

    if (!pp_trace_on(tr, PP_TRACE_DAP))
        return;
    rec.reg = d->ap ? ap_name(reg) : dp_name(d->a, d->rnw);
    if (d->ap && apb_address(tr, reg, ran, &apb)) {
        pp_trace_name_apb(tr, apb, name, sizeof(name));
        snprintf(where, sizeof(where), "  [0x%08X%s%s]", apb, name[0] ? " " : "", name);
    }
    follow(tr, d, reg, ran);
    if (d->has_value || !d->rnw)
        snprintf(value, sizeof(value), "0x%08X", d->value);
    snprintf(text, sizeof(text), "dap  %s %s %-9s %s %-10s %s%s", d->ap ? "APACC" : "DPACC",
             d->rnw ? "R" : "W", rec.reg, d->rnw ? "->" : "<-", value, d->ack, where);
    if (d->retry) {
        size_t l = strlen(text);

        snprintf(text + l, sizeof(text) - l, "  (retry %u)", d->retry);
    }
    emit(tr, &rec);
}

void pp_trace_dap_forget(struct pp_trace *tr)
{
    if (tr)
        tr->select_known = tr->tar_known = false;
}

void pp_trace_text(struct pp_trace *tr, int layer, const char *fmt, ...)
{
    char text[512];
    struct pp_trace_rec rec = { .layer = layer, .reg = "", .status = "", .text = text };
    va_list ap;

    if (!pp_trace_on(tr, layer))
        return;
    va_start(ap, fmt);
    vsnprintf(text, sizeof(text), fmt, ap);
    va_end(ap);
    emit(tr, &rec);
}

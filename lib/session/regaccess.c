/*
 * regaccess.c - pp_reg_read / pp_reg_write: PMU and external debug
 * registers by Arm name (lib/pmu/regs.c resolves and decodes), one bus
 * batch per call, a failed access explained by the core's diagnosis
 * (lib/pmu/diag.c) as `pmuprobe read` explains it.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "pmu/catalog.h"
#include "pmu/extend.h"
#include "session/inspect.h"
#include "session/session.h"

/* A NULL err is allowed everywhere: messages then go to a scratch buffer. */
struct msg {
    char *buf;
    size_t len;
    char scratch[8];
};

static void msg_init(struct msg *m, char *err, size_t errlen)
{
    m->buf = err && errlen ? err : m->scratch;
    m->len = err && errlen ? errlen : sizeof(m->scratch);
    m->buf[0] = '\0';
}

void pp_reg_unknown_msg(const struct pp_core_desc *c, const char *name, char *buf, size_t len)
{
    const char *sugg[3];
    size_t n = pp_reg_suggest(c->type, name, sugg, 3);

    snprintf(buf, len, "cpu%u: no register '%s' on %s (PMUv%u, %u counters)%s%s%s", c->cpu,
             name, c->type->pretty, c->type->pmu_version, c->counters,
             n ? "; did you mean " : "; expected an Arm register name or pmu+0xOFF/debug+0xOFF",
             n ? sugg[0] : "", n ? "?" : "");
}

/* Bounded appender: text past the end is dropped, buf stays terminated. */
static void put(char *buf, size_t len, size_t *pos, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static void put(char *buf, size_t len, size_t *pos, const char *fmt, ...)
{
    va_list ap;
    int n;

    if (*pos + 1 >= len)
        return;
    va_start(ap, fmt);
    n = vsnprintf(buf + *pos, len - *pos, fmt, ap);
    va_end(ap);
    if (n > 0)
        *pos = *pos + (size_t)n < len ? *pos + (size_t)n : len - 1;
}

struct put_ctx {
    char *buf;
    size_t len, *pos;
};

static void put_advertised(void *ctx, uint16_t code, const struct pp_event *e)
{
    struct put_ctx *p = ctx;

    if (e)
        put(p->buf, p->len, p->pos, " %s", e->name);
    else
        put(p->buf, p->len, p->pos, " 0x%04X", code);
}

/* "    advertised events: SW_INCR L1I_CACHE_REFILL ..." for PMCEIDn (spec
 * 1.3: bit b of PMCEIDn is common event pp_pmceid_code(n, b)). */
static void put_pmceid(const struct pp_core_desc *c, const struct pp_reg_ref *ref, uint32_t v,
                       char *buf, size_t len, size_t *pos)
{
    struct put_ctx p = { buf, len, pos };
    unsigned idx;

    if (strncmp(ref->name, "PMCEID", 6) != 0 || sscanf(ref->name, "PMCEID%u", &idx) != 1 ||
        idx > 3)
        return;
    put(buf, len, pos, "    advertised events:");
    pp_catalog_pmceid_each(pp_catalog_find(c->type->catalog), idx, v, put_advertised, &p);
    put(buf, len, pos, "\n");
}

size_t pp_reg_format(const struct pp_core_desc *c, const struct pp_reg_ref *ref, uint32_t addr,
                     const struct pp_reg_ref *hi, uint64_t v, bool raw, char *buf, size_t len)
{
    size_t pos = 0;

    if (!buf || len == 0)
        return 0;
    buf[0] = '\0';
    if (hi) {
        put(buf, len, &pos, "cpu%u %-12s 0x%08" PRIX32 " = 0x%016" PRIX64 "\n", c->cpu,
            ref->name, addr, v);
        if (!raw)
            put(buf, len, &pos, "  %-8s %-7s = 0x%016" PRIX64 " 64 bits: %s (high word, 0x%08"
                PRIX32 ") and %s\n", "value", "[63:0]", v, hi->name, addr + 4, ref->name);
        return pos;
    }
    put(buf, len, &pos, "cpu%u %-12s 0x%08" PRIX32 " = 0x%08" PRIX32 "\n", c->cpu, ref->name,
        addr, (uint32_t)v);
    if (raw)
        return pos;
    pos += pp_reg_decode(ref->reg, (uint32_t)v, buf + pos, len - pos);
    put_pmceid(c, ref, (uint32_t)v, buf, len, &pos);
    return pos;
}

static uint32_t block_base(const struct pp_core_desc *c, const struct pp_reg_ref *r)
{
    return r->reg->block == PP_BLK_PMU ? c->pmu_base : c->debug_base;
}

/* The core of cpu and the register name on it, into *ref and *addr. */
static int resolve(struct pp_session *s, unsigned cpu, const char *name,
                   const struct pp_core_desc **core, struct pp_reg_ref *ref, uint32_t *addr,
                   struct msg *m)
{
    const struct pp_core_desc *c = s ? pp_target_core(s->target, cpu) : NULL;
    int rc;

    if (!s || !name) {
        snprintf(m->buf, m->len, "a session and a register name are required");
        return PP_E_INVAL;
    }
    if (!c) {
        snprintf(m->buf, m->len, "cpu%u: no such core on target %s", cpu, s->target->name);
        return PP_E_NOTFOUND;
    }
    rc = pp_reg_resolve(c->type, c->counters, name, ref);
    if (rc == PP_E_INVAL)
        snprintf(m->buf, m->len, "'%s': a block offset is pmu+0xOFF or debug+0xOFF, word "
                 "aligned, below 0x1000", name);
    else if (rc != PP_OK)
        pp_reg_unknown_msg(c, name, m->buf, m->len);
    if (rc != PP_OK)
        return rc;
    *core = c;
    *addr = block_base(c, ref) + ref->offset;
    return PP_OK;
}

/* Why the access to ref at addr answered st, on one line: for an error
 * response, the diagnosis of its core (EDPRSR is read once, here). */
static void explain(struct pp_bus *bus, const struct pp_core_desc *c,
                    const struct pp_reg_ref *ref, uint32_t addr, int st, struct msg *m)
{
    struct pp_diag d;
    char text[PP_DIAG_TEXT_MAX];
    int n = snprintf(m->buf, m->len, "cpu%u %s 0x%08" PRIX32 ": %s", c->cpu, ref->name, addr,
                     pp_op_status_str(st));
    size_t pos = n > 0 && (size_t)n < m->len ? (size_t)n : m->len - 1;

    if (st != PP_OP_SLVERR || pp_diag_core(bus, c, &d) != PP_OK)
        return;
    if (d.pmu_ok)
        put(m->buf, m->len, &pos, ": %s",
            pp_diag_refused(&d, c->type->pretty, "; ", text, sizeof(text)));
    else
        put(m->buf, m->len, &pos, ": %s", pp_diag_line(&d, text, sizeof(text)));
}

/* Runs ops; on failure explains the first failed one and returns its error. */
static int run(struct pp_session *s, const struct pp_core_desc *c, const struct pp_reg_ref *ref,
               uint32_t addr, struct pp_op *ops, size_t n, struct msg *m)
{
    int rc = pp_bus_run(s->bus, ops, n);

    if (rc == PP_OK)
        return PP_OK;
    for (size_t i = 0; i < n; i++) {
        if (ops[i].st == PP_OP_OK)
            continue;
        if (ops[i].st == PP_OP_LINK || ops[i].st == PP_OP_WAIT)
            snprintf(m->buf, m->len, "access path failed: %s %s", pp_strerror(rc),
                     pp_bus_errmsg(s->bus));
        else
            explain(s->bus, c, ref, addr, ops[i].st, m);
        return pp_op_status_err(ops[i].st);
    }
    return rc;
}

static void fill_fields(const struct pp_reg *reg, uint32_t v, struct pp_reg_value *out)
{
    out->nfields = reg->nfields < PP_REG_MAX_FIELDS ? reg->nfields : PP_REG_MAX_FIELDS;
    for (size_t i = 0; i < out->nfields; i++) {
        const struct pp_field *f = &reg->fields[i];
        uint32_t mask = f->width >= 32 ? 0xFFFFFFFFu : (1u << f->width) - 1u;

        out->fields[i] = (struct pp_reg_field){
            .name = f->name, .lsb = f->lsb, .width = f->width, .value = (v >> f->lsb) & mask,
            .meaning = pp_reg_field_meaning(reg, i, v), .desc = f->desc,
        };
    }
}

int pp_reg_read(struct pp_session *s, unsigned cpu, const char *name, struct pp_reg_value *out,
                char *err, size_t errlen)
{
    const struct pp_core_desc *c;
    struct pp_reg_ref ref, hi;
    struct pp_op ops[3];
    struct msg m;
    uint32_t addr;
    bool wide;
    int rc;

    msg_init(&m, err, errlen);
    if (!out)
        return PP_E_INVAL;
    memset(out, 0, sizeof(*out));
    rc = resolve(s, cpu, name, &c, &ref, &addr, &m);
    if (rc != PP_OK)
        return rc;
    snprintf(out->name, sizeof(out->name), "%s", ref.name);
    out->block = ref.reg->block == PP_BLK_PMU ? "pmu" : "debug";
    out->desc = ref.reg->desc;
    out->offset = ref.offset;
    out->addr = addr;
    out->width = 32;
    if (ref.reg->access == PP_WO) {
        snprintf(m.buf, m.len, "%s is write-only; it cannot be read", ref.name);
        return PP_E_INVAL;
    }
    /* A 64-bit counter: high, low, high, so a carry between the reads is
     * seen (spec/arm-pmu-coresight.md 2.8, pp_ext_join64). */
    wide = pp_reg_high_word(c->type, c->counters, &ref, &hi);
    ops[0] = (struct pp_op){ .addr = wide ? addr + 4 : addr };
    ops[1] = (struct pp_op){ .addr = addr };
    ops[2] = (struct pp_op){ .addr = addr + 4 };
    rc = run(s, c, &ref, addr, ops, wide ? 3 : 1, &m);
    if (rc != PP_OK)
        return rc;
    if (wide) {
        out->value = pp_ext_join64(ops[0].rdata, ops[1].rdata, ops[2].rdata);
        out->width = 64;
    } else {
        out->value = ops[0].rdata;
        fill_fields(ref.reg, ops[0].rdata, out);
    }
    pp_reg_format(c, &ref, addr, wide ? &hi : NULL, out->value, false, out->text,
                  sizeof(out->text));
    return PP_OK;
}

int pp_reg_write(struct pp_session *s, unsigned cpu, const char *name, uint64_t value,
                 char *err, size_t errlen)
{
    const struct pp_core_desc *c;
    struct pp_reg_ref ref, hi;
    struct pp_op ops[2];
    struct msg m;
    uint32_t addr;
    bool wide;
    int rc;

    msg_init(&m, err, errlen);
    rc = resolve(s, cpu, name, &c, &ref, &addr, &m);
    if (rc != PP_OK)
        return rc;
    if (ref.reg->access == PP_RO) {
        snprintf(m.buf, m.len, "%s is read-only; it cannot be written", ref.name);
        return PP_E_INVAL;
    }
    wide = pp_reg_high_word(c->type, c->counters, &ref, &hi);
    if (!wide && value > 0xFFFFFFFFu) {
        snprintf(m.buf, m.len, "0x%" PRIX64 " does not fit %s (32 bits)", value, ref.name);
        return PP_E_INVAL;
    }
    ops[0] = (struct pp_op){ .addr = addr, .wdata = (uint32_t)value, .write = 1 };
    ops[1] = (struct pp_op){ .addr = addr + 4, .wdata = (uint32_t)(value >> 32), .write = 1 };
    return run(s, c, &ref, addr, ops, wide ? 2 : 1, &m);
}

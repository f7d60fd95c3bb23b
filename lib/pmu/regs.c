/*
 * regs.c - name resolution, offset lookup, "did you mean" suggestions and
 * field decoding over the register maps in regs_pmu.c / regs_debug.c.
 *
 * Which map applies follows the core type: PMUv2 or PMUv3 (spec
 * arm-pmu-coresight.md 1 and 4.1), Armv7 or Armv8 debug (spec 3 and 4.3);
 * optional registers are hidden unless the core has the feature.
 */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "pmuprobe.h"
#include "coresight/coresight.h"
#include "pmu/regs.h"
#include "editdist.h"

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))
#define NAME_MAX_LEN 48

/* The maps and limits that apply to one core. */
struct view {
    const struct pp_core_type *ct;   /* NULL: every optional feature */
    unsigned counters;
    const struct pp_reg *map[2];     /* by enum pp_block */
    size_t n[2];
};

static void view_init(struct view *v, const struct pp_core_type *ct, unsigned counters)
{
    v->ct = ct;
    v->counters = counters ? counters : ct ? ct->counters : 31u;
    v->map[PP_BLK_PMU] = pp_regs_pmu(ct ? ct->pmu_version : 3u, &v->n[PP_BLK_PMU]);
    v->map[PP_BLK_DEBUG] = pp_regs_debug(ct ? ct->arch : PP_ARCH_V8_2, &v->n[PP_BLK_DEBUG]);
}

/* Optional registers exist only with their feature (spec 1.1 Feature column,
 * 1.4 for the IMP DEF snapshot block). */
static bool reg_available(const struct view *v, const struct pp_reg *r)
{
    if (!v->ct)
        return true;
    if ((r->flags & PP_REGF_V3P1) && !v->ct->pmuv3p1)
        return false;
    if ((r->flags & PP_REGF_SNAPSHOT) && !v->ct->snapshot)
        return false;
    if ((r->flags & PP_REGF_PCSAMPLE) && !v->ct->pcsample)
        return false;
    return true;
}

/* Indexed registers are per event counter, so PMCFGR.N bounds them too. */
static unsigned reg_limit(const struct view *v, const struct pp_reg *r)
{
    if (r->count <= 1)
        return 1;
    return r->count < v->counters ? r->count : v->counters;
}

/* "PMEVCNTR_HI" instance 3 is shown "PMEVCNTR3_HI": the number goes after
 * the stem, before any "_" suffix. */
static size_t stem_len(const char *regname)
{
    const char *us = strchr(regname, '_');

    return us ? (size_t)(us - regname) : strlen(regname);
}

static void fill_ref(struct pp_reg_ref *out, const struct pp_reg *r, unsigned idx)
{
    size_t sl = stem_len(r->name);

    out->reg = r;
    out->index = idx;
    out->block = r->block;
    out->offset = (uint16_t)(r->offset + idx * r->stride);
    if (r->count <= 1)
        snprintf(out->name, sizeof(out->name), "%s", r->name);
    else
        snprintf(out->name, sizeof(out->name), "%.*s%u%s", (int)sl, r->name, idx, r->name + sl);
}

static void fill_raw(struct pp_reg_ref *out, enum pp_block blk, uint16_t offset)
{
    memset(out, 0, sizeof(*out));
    out->block = blk;
    out->offset = offset;
    snprintf(out->name, sizeof(out->name), "%s+0x%03X",
             blk == PP_BLK_PMU ? "pmu" : "debug", (unsigned)offset);
}

/* A decimal instance number at *s: no sign, no leading zeros, < 100. */
static bool parse_index(const char **s, unsigned *idx)
{
    const char *p = *s;
    unsigned v = 0;
    size_t nd = 0;

    while (isdigit((unsigned char)p[nd]) && nd < 3)
        v = v * 10u + (unsigned)(p[nd++] - '0');
    if (nd == 0 || nd > 2 || isdigit((unsigned char)p[nd]) || (nd > 1 && p[0] == '0'))
        return false;
    *s = p + nd;
    *idx = v;
    return true;
}

/* Does name (already without block prefix) name an instance of r? */
static bool name_matches(const struct pp_reg *r, const char *name, unsigned *idx)
{
    size_t sl = stem_len(r->name);
    const char *p = name;

    *idx = 0;
    if (r->count <= 1)
        return strcasecmp(name, r->name) == 0;
    /* "PMEVCNTR3_HI" */
    if (strncasecmp(p, r->name, sl) == 0) {
        p += sl;
        if (parse_index(&p, idx) && strcasecmp(p, r->name + sl) == 0)
            return true;
    }
    /* "PMEVCNTR_HI3" */
    p = name;
    if (r->name[sl] && strncasecmp(p, r->name, strlen(r->name)) == 0) {
        p += strlen(r->name);
        if (parse_index(&p, idx) && *p == '\0')
            return true;
    }
    return false;
}

static int lookup_block(const struct view *v, enum pp_block blk, const char *name,
                        struct pp_reg_ref *out)
{
    for (size_t i = 0; i < v->n[blk]; i++) {
        const struct pp_reg *r = &v->map[blk][i];
        unsigned idx;

        if (!name_matches(r, name, &idx))
            continue;
        /* Names are unique within a map: a gated or out-of-range match
         * means the name does not exist on this core. */
        if (!reg_available(v, r) || idx >= reg_limit(v, r))
            return PP_E_NOTFOUND;
        fill_ref(out, r, idx);
        return PP_OK;
    }
    return PP_E_NOTFOUND;
}

/* blocks: bit per enum pp_block to search. */
static int lookup(const struct view *v, unsigned blocks, const char *name, struct pp_reg_ref *out)
{
    for (unsigned b = PP_BLK_PMU; b <= PP_BLK_DEBUG; b++)
        if ((blocks & (1u << b)) && lookup_block(v, (enum pp_block)b, name, out) == PP_OK)
            return PP_OK;
    return PP_E_NOTFOUND;
}

/* Armv7 and Armv8 names for the same register (spec 4.3 vs 3), and old PMU
 * names (spec 1.1: PMOVSR; 4.1: PMXEVTYPER/PMXEVCNTR).  Used in both
 * directions, on the start of the name so "EDPIDR2" maps to "DBGPIDR2". */
static const char *const aliases[][2] = {
    { "EDPRSR",       "DBGPRSR" },
    { "EDPRCR",       "DBGPRCR" },
    { "OSLAR",        "DBGOSLAR" },
    { "EDLAR",        "DBGLAR" },
    { "EDLSR",        "DBGLSR" },
    { "EDDEVTYPE",    "DBGDEVTYPE" },
    { "EDPIDR",       "DBGPIDR" },
    { "EDCIDR",       "DBGCIDR" },
    { "PMOVSR",       "PMOVSCLR" },
    { "PMXEVTYPER31", "PMCCFILTR" },
    { "PMXEVTYPER",   "PMEVTYPER" },
    { "PMXEVCNTR",    "PMEVCNTR" },
};

static int lookup_alias(const struct view *v, unsigned blocks, const char *name,
                        struct pp_reg_ref *out)
{
    char alt[NAME_MAX_LEN + 16];

    for (size_t i = 0; i < NELEM(aliases); i++) {
        for (int dir = 0; dir < 2; dir++) {
            const char *from = aliases[i][dir], *to = aliases[i][1 - dir];
            size_t fl = strlen(from);

            if (strncasecmp(name, from, fl) != 0)
                continue;
            snprintf(alt, sizeof(alt), "%s%s", to, name + fl);
            if (lookup(v, blocks, alt, out) == PP_OK)
                return PP_OK;
        }
    }
    return PP_E_NOTFOUND;
}

/* Strips a "pmu." / "debug." / "dbg." prefix; returns the blocks to search. */
static unsigned strip_block(const char **name)
{
    static const struct { const char *prefix; unsigned blocks; } pfx[] = {
        { "pmu.",   1u << PP_BLK_PMU },
        { "debug.", 1u << PP_BLK_DEBUG },
        { "dbg.",   1u << PP_BLK_DEBUG },
    };

    for (size_t i = 0; i < NELEM(pfx); i++) {
        size_t l = strlen(pfx[i].prefix);

        if (strncasecmp(*name, pfx[i].prefix, l) == 0) {
            *name += l;
            return pfx[i].blocks;
        }
    }
    return (1u << PP_BLK_PMU) | (1u << PP_BLK_DEBUG);
}

/* Copies name into buf without an "_EL0".."_EL3" suffix (Arm's system
 * register spelling, "PMCR_EL0").  False if it does not fit. */
static bool copy_base_name(const char *name, char *buf, size_t len)
{
    size_t l = strlen(name);

    if (l >= len)
        return false;
    if (l > 4 && strncasecmp(name + l - 4, "_EL", 3) == 0 && name[l - 1] >= '0' && name[l - 1] <= '3')
        l -= 4;
    memcpy(buf, name, l);
    buf[l] = '\0';
    return true;
}

/* What a raw offset no map entry names resolves to, so that callers can
 * always use ref.reg (block, access, decode as one 32-bit value). */
static const struct pp_reg raw_word[] = {
    [PP_BLK_PMU] = { .name = "pmu+offset", .block = PP_BLK_PMU, .count = 1, .access = PP_RW,
                     .desc = "PMU block location with no name on this core" },
    [PP_BLK_DEBUG] = { .name = "debug+offset", .block = PP_BLK_DEBUG, .count = 1, .access = PP_RW,
                       .desc = "debug block location with no name on this core" },
};

/* "pmu+0xE04", "debug+0x314": true if name has that form (rc set). */
static bool resolve_raw(const struct view *v, const char *name, struct pp_reg_ref *out, int *rc)
{
    static const struct { const char *prefix; enum pp_block blk; } pfx[] = {
        { "pmu+",   PP_BLK_PMU },
        { "debug+", PP_BLK_DEBUG },
        { "dbg+",   PP_BLK_DEBUG },
    };

    for (size_t i = 0; i < NELEM(pfx); i++) {
        size_t l = strlen(pfx[i].prefix);
        const char *num = name + l;
        char *end;
        unsigned long off;

        if (strncasecmp(name, pfx[i].prefix, l) != 0)
            continue;
        if (!isdigit((unsigned char)*num)) {
            *rc = PP_E_INVAL;
            return true;
        }
        off = strtoul(num, &end, 0);
        if (*end != '\0' || off >= 0x1000u || (off & 3u)) {
            *rc = PP_E_INVAL;
            return true;
        }
        if (pp_reg_at(v->ct, v->counters, pfx[i].blk, (uint16_t)off, out) != PP_OK)
            out->reg = &raw_word[pfx[i].blk];
        *rc = PP_OK;
        return true;
    }
    return false;
}

int pp_reg_resolve(const struct pp_core_type *ct, unsigned counters,
                   const char *name, struct pp_reg_ref *out)
{
    struct view v;
    char base[NAME_MAX_LEN];
    unsigned blocks;
    int rc;

    if (!name || !out)
        return PP_E_INVAL;
    memset(out, 0, sizeof(*out));
    view_init(&v, ct, counters);
    if (resolve_raw(&v, name, out, &rc))
        return rc;
    blocks = strip_block(&name);
    if (!copy_base_name(name, base, sizeof(base)))
        return PP_E_NOTFOUND;
    if (lookup(&v, blocks, base, out) == PP_OK)
        return PP_OK;
    return lookup_alias(&v, blocks, base, out);
}

int pp_reg_at(const struct pp_core_type *ct, unsigned counters, enum pp_block blk,
              uint16_t offset, struct pp_reg_ref *out)
{
    struct view v;

    if (!out || (blk != PP_BLK_PMU && blk != PP_BLK_DEBUG))
        return PP_E_INVAL;
    fill_raw(out, blk, offset);
    view_init(&v, ct, counters);
    for (size_t i = 0; i < v.n[blk]; i++) {
        const struct pp_reg *r = &v.map[blk][i];
        unsigned idx = 0;

        if (!reg_available(&v, r) || offset < r->offset)
            continue;
        if (r->count > 1) {
            if ((offset - r->offset) % r->stride)
                continue;
            idx = (offset - r->offset) / r->stride;
            if (idx >= reg_limit(&v, r))
                continue;
        } else if (offset != r->offset) {
            continue;
        }
        fill_ref(out, r, idx);
        return PP_OK;
    }
    return PP_E_NOTFOUND;
}

/* --- suggestions ----------------------------------------------------------- */

/* For an indexed register the number is not part of the name compared:
 * "PMEVCNTR9" is close to "PMEVCNTR". */
static void strip_digits(const char *in, char *out)
{
    size_t o = 0;

    for (; *in; in++)
        if (!isdigit((unsigned char)*in))
            out[o++] = *in;
    out[o] = '\0';
}

/* How far off a name may be: one edit per four letters, at most three. */
static unsigned max_distance(const char *cand)
{
    unsigned d = 1u + (unsigned)strlen(cand) / 4u;

    return d > 3u ? 3u : d;
}

size_t pp_reg_suggest(const struct pp_core_type *ct, const char *name,
                      const char **out, size_t max)
{
    struct view v;
    char base[NAME_MAX_LEN], nodigits[NAME_MAX_LEN];
    size_t found = 0;

    if (!name || !out || max == 0)
        return 0;
    view_init(&v, ct, 0);
    (void)strip_block(&name);
    if (!copy_base_name(name, base, sizeof(base)))
        return 0;
    strip_digits(base, nodigits);
    /* One pass per distance keeps the result best-first without storage. */
    for (unsigned d = 0; d <= 3u && found < max; d++) {
        for (unsigned b = PP_BLK_PMU; b <= PP_BLK_DEBUG && found < max; b++) {
            for (size_t i = 0; i < v.n[b] && found < max; i++) {
                const struct pp_reg *r = &v.map[b][i];
                const char *cmp = r->count > 1 ? nodigits : base;

                if (!reg_available(&v, r) || d > max_distance(r->name))
                    continue;
                if (pp_edit_distance(cmp, r->name) == d)
                    out[found++] = r->name;
            }
        }
    }
    return found;
}

/* --- decoding -------------------------------------------------------------- */

/* Bounded appender: text past the end is dropped, buf stays terminated. */
struct sink {
    char *buf;
    size_t len, pos;
};

static void put(struct sink *s, const char *fmt, ...)
{
    va_list ap;
    int n;

    if (s->len == 0 || s->pos >= s->len - 1)
        return;
    va_start(ap, fmt);
    n = vsnprintf(s->buf + s->pos, s->len - s->pos, fmt, ap);
    va_end(ap);
    if (n < 0)
        return;
    s->pos += (size_t)n;
    if (s->pos > s->len - 1)
        s->pos = s->len - 1;
}

static uint32_t field_get(const struct pp_field *f, uint32_t val)
{
    uint32_t mask = f->width >= 32 ? 0xFFFFFFFFu : (1u << f->width) - 1u;

    return (val >> f->lsb) & mask;
}

static bool name_ends_with(const char *s, const char *tail)
{
    size_t ls = strlen(s), lt = strlen(tail);

    return ls >= lt && strcasecmp(s + ls - lt, tail) == 0;
}

/* spec 3.3 EDSCR.STATUS. */
static const char *edscr_status(uint32_t v)
{
    static const struct { uint8_t code; const char *meaning; } tab[] = {
        { 0x01, "restarting, exiting Debug state" },
        { 0x02, "non-debug state" },
        { 0x07, "breakpoint" },
        { 0x13, "external debug request" },
        { 0x1B, "halting step, normal" },
        { 0x1F, "halting step, exclusive" },
        { 0x23, "OS unlock catch" },
        { 0x27, "reset catch" },
        { 0x2B, "watchpoint" },
        { 0x2F, "HLT instruction" },
        { 0x33, "software access to debug register" },
        { 0x37, "exception catch" },
        { 0x3B, "halting step, no syndrome" },
    };

    for (size_t i = 0; i < NELEM(tab); i++)
        if (tab[i].code == v)
            return tab[i].meaning;
    return "reserved";
}

/* spec 5.3 DEVTYPE: MAJOR, and SUB given the MAJOR. */
static const char *devtype_major(uint32_t major)
{
    static const char *const names[] = {
        "miscellaneous", "trace sink", "trace link", "trace source",
        "debug control", "debug logic", "performance monitor",
    };

    return major < NELEM(names) ? names[major] : NULL;
}

static const char *devtype_sub(uint32_t major, uint32_t sub)
{
    static const char *const pmu_subs[] = {
        "other", "processor", "DSP", "engine/coprocessor", "bus", "memory",
    };
    static const char *const ctl_subs[] = {
        NULL, "trigger matrix", "authentication", "power requestor",
    };

    if (major == 6)
        return sub < NELEM(pmu_subs) ? pmu_subs[sub] : NULL;
    if (major == 4)
        return sub < NELEM(ctl_subs) ? ctl_subs[sub] : NULL;
    if ((major == 3 || major == 5) && sub == 1)
        return "processor";
    return NULL;
}

/* spec 1.3 PMDEVARCH, 3.5 EDDEVARCH. */
static const char *devarch_part(uint32_t part)
{
    switch (part) {
    case 0xA15: return "Armv8-A external debug";
    case 0xA16: return "PMUv3, 32-bit external view";
    case 0xA26: return "PMUv3, 64-bit external view";
    case 0xA10:
    case 0xA20: return "PC sample-based profiling only";
    }
    return NULL;
}

static const char *devarch_ver(uint32_t val, uint32_t ver)
{
    static const char *const dbg[] = {
        [6] = "Armv8.0", [7] = "Armv8.1", [8] = "Armv8.2",
        [9] = "Armv8.4", [10] = "Armv8.8", [11] = "Armv8.9",
    };

    if ((val & 0xFFFu) == 0xA15)
        return ver < NELEM(dbg) ? dbg[ver] : NULL;
    if ((val & 0xFFFu) == 0xA16 || (val & 0xFFFu) == 0xA26)
        return ver == 2 ? "PMUv3" : NULL;
    return NULL;
}

static const char *midr_meaning(const char *field, uint32_t fv, uint32_t val)
{
    const struct pp_core_type *ct;

    if (strcmp(field, "Implementer") == 0)
        return fv == 0x41 ? "Arm" : NULL;
    if (strcmp(field, "Architecture") == 0)
        return fv == 0xF ? "see the ID registers" : NULL;
    if (strcmp(field, "PartNum") == 0) {
        ct = pp_core_type_by_midr(val);
        return ct ? ct->pretty : NULL;
    }
    return NULL;
}

/* Value meanings where the spec enumerates them; NULL when it does not. */
static const char *field_meaning(const struct pp_reg *r, const struct pp_field *f,
                                 uint32_t fv, uint32_t val)
{
    static const char *const auth[] = { "not implemented", "reserved", "disabled", "enabled" };

    if (name_ends_with(r->name, "AUTHSTATUS") && f->width == 2)
        return auth[fv & 3u];
    if (strcmp(r->name, "EDSCR") == 0 && strcmp(f->name, "STATUS") == 0)
        return edscr_status(fv);
    if (name_ends_with(r->name, "DEVTYPE"))
        return strcmp(f->name, "MAJOR") == 0 ? devtype_major(fv)
             : devtype_sub(val & 0xFu, fv);
    if (name_ends_with(r->name, "DEVARCH")) {
        if (strcmp(f->name, "ARCHITECT") == 0)
            return fv == 0x23B ? "Arm" : NULL;
        if (strcmp(f->name, "ARCHPART") == 0)
            return devarch_part(fv);
        if (strcmp(f->name, "ARCHVER") == 0)
            return devarch_ver(val, fv);
        return NULL;
    }
    if (strcmp(r->name, "MIDR") == 0)
        return midr_meaning(f->name, fv, val);
    if (name_ends_with(r->name, "CIDR1") && strcmp(f->name, "CLASS") == 0)
        return pp_cs_class_name((uint8_t)fv);
    if (strcmp(r->name, "PMCFGR") == 0 && strcmp(f->name, "SIZE") == 0)
        return fv == 63 ? "64-bit counters" : fv == 31 ? "32-bit counters" : NULL;
    return NULL;
}

static void put_bits(char *bits, size_t len, const struct pp_field *f)
{
    if (f->width == 1)
        snprintf(bits, len, "[%u]", (unsigned)f->lsb);
    else
        snprintf(bits, len, "[%u:%u]", (unsigned)(f->lsb + f->width - 1), (unsigned)f->lsb);
}

/* A one-bit field's description says what it means when set ("enable all
 * counters", "OS lock set"), so at 0 it is shown as what 1 would mean,
 * never as a fact.  "write 1: ..." describes an action on write, true
 * whatever is read. */
static bool is_clear_flag(const struct pp_field *f, uint32_t fv)
{
    return f->width == 1 && fv == 0 && strncmp(f->desc, "write 1", 7) != 0;
}

static void put_field(struct sink *s, int namew, const struct pp_reg *r,
                      const struct pp_field *f, uint32_t val)
{
    char bits[16], num[16];
    uint32_t fv = field_get(f, val);
    const char *meaning = field_meaning(r, f, fv, val);

    put_bits(bits, sizeof(bits), f);
    if (f->width > 4)
        snprintf(num, sizeof(num), "0x%X", (unsigned)fv);
    else
        snprintf(num, sizeof(num), "%u", (unsigned)fv);
    if (meaning)
        put(s, "  %-*s %-7s = %-8s %s: %s\n", namew, f->name, bits, num, f->desc, meaning);
    else if (is_clear_flag(f, fv))
        put(s, "  %-*s %-7s = %-8s (1: %s)\n", namew, f->name, bits, num, f->desc);
    else
        put(s, "  %-*s %-7s = %-8s %s\n", namew, f->name, bits, num, f->desc);
}

static const struct pp_field *find_field(const struct pp_reg *r, const char *name)
{
    for (size_t i = 0; i < r->nfields; i++)
        if (strcasecmp(r->fields[i].name, name) == 0)
            return &r->fields[i];
    return NULL;
}

/* PMCNTENSET-style registers: bit 31 = C, bits [30:0] = P<n> (spec 1.1). */
static bool is_counter_mask(const struct pp_reg *r)
{
    const struct pp_field *p = find_field(r, "P");

    return p && p->lsb == 0 && p->width == 31;
}

static void put_counters(struct sink *s, int namew, const struct pp_reg *r, uint32_t val)
{
    bool any = false;

    put(s, "  %-*s %-7s =", namew, "counters", "");
    if (find_field(r, "C") && (val & (1u << 31))) {
        put(s, " C");
        any = true;
    }
    for (unsigned n = 0; n < 31; n++) {
        if (val & (1u << n)) {
            put(s, " P%u", n);
            any = true;
        }
    }
    put(s, any ? "\n" : " none\n");
}

/* The name column fits the register's longest field name, at least 8. */
static int name_width(const struct pp_reg *r)
{
    size_t w = 8;

    for (size_t i = 0; i < r->nfields; i++)
        if (strlen(r->fields[i].name) > w)
            w = strlen(r->fields[i].name);
    return (int)w;
}

size_t pp_reg_decode(const struct pp_reg *reg, uint32_t val, char *buf, size_t len)
{
    struct sink s = { buf, len, 0 };
    int namew;

    if (!buf || len == 0)
        return 0;
    buf[0] = '\0';
    if (!reg)
        return 0;
    namew = name_width(reg);
    if (reg->nfields == 0)
        put(&s, "  %-*s %-7s = 0x%08X %s\n", namew, "value", "[31:0]", (unsigned)val, reg->desc);
    for (size_t i = 0; i < reg->nfields; i++)
        put_field(&s, namew, reg, &reg->fields[i], val);
    if (is_counter_mask(reg))
        put_counters(&s, namew, reg, val);
    return s.pos;
}

bool pp_reg_field(const struct pp_reg *reg, const char *field, uint32_t val, uint32_t *out)
{
    const struct pp_field *f;

    if (!reg || !field)
        return false;
    f = find_field(reg, field);
    if (!f)
        return false;
    if (out)
        *out = field_get(f, val);
    return true;
}

const char *pp_reg_field_meaning(const struct pp_reg *reg, size_t i, uint32_t val)
{
    if (!reg || i >= reg->nfields)
        return NULL;
    return field_meaning(reg, &reg->fields[i], field_get(&reg->fields[i], val), val);
}

bool pp_reg_high_word(const struct pp_core_type *ct, unsigned counters,
                      const struct pp_reg_ref *lo, struct pp_reg_ref *hi)
{
    if (!lo->reg || lo->reg->flags & PP_REGF_HI64 || lo->offset + 4u >= 0x1000u)
        return false;
    return pp_reg_at(ct, counters, lo->reg->block, (uint16_t)(lo->offset + 4), hi) == PP_OK &&
           hi->reg->flags & PP_REGF_HI64;
}

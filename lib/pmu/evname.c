/*
 * evname.c - turning what a user types into an event to program.
 *
 * Order of interpretation of the part before ':': perf alias, Arm mnemonic
 * (core catalog, then the architecture's common catalog), raw hex code.
 * Aliases and mnemonics cannot collide (aliases use '-', mnemonics '_'), and
 * no mnemonic reads as a raw code, so the order only matters for speed.
 * Filter bits: spec/arm-pmu-coresight.md 1.3 (PMEVTYPER P/U/NSH).
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "errmsg.h"
#include "pmuprobe.h"
#include "pmu/evname.h"
#include "editdist.h"

#define CPU_CYCLES_CODE 0x11u  /* what PMCCNTR counts; ev for the cycle alias */
#define MAX_CANDIDATES  4

/* Exception levels a modifier includes. */
#define LVL_EL0 1u
#define LVL_EL1 2u
#define LVL_EL2 4u

struct alias_candidate {
    uint16_t    code;
    const char *name;   /* the mnemonic the core must list under that code */
};

struct alias {
    const char *alias;
    bool        cycle_counter;
    struct alias_candidate cand[MAX_CANDIDATES];  /* preference order, name NULL ends */
};

/*
 * perf's generic events, each mapped to the events a core may list, best
 * first.  A candidate counts only when the core's own table lists that code
 * under that mnemonic: IMP DEF numbers are reused (Cortex-A9 0x40-0x42 are
 * Java events, 0x50 a coherency event; Cortex-A15/A57 0x68 is
 * UNALIGNED_LD_SPEC), so the code alone would pick the wrong event.
 * Codes and mnemonics checked against lib/catalog/data (NAME.ev) and
 * ../shared/data/arm-pmu/pmu/<core>.json.
 */
static const struct alias aliases[] = {
    /* Every core has a dedicated cycle counter (PMCFGR.CC, spec 1.3). */
    { "cycles",     true,  { { CPU_CYCLES_CODE, "CPU_CYCLES" } } },
    { "cpu-cycles", true,  { { CPU_CYCLES_CODE, "CPU_CYCLES" } } },
    /* Retired instructions.  Cortex-A9 does not implement 0x08 (TRM DDI0388I
     * table 11-5, note a) and names 0x68, instructions leaving the rename
     * stage, as the substitute.  INST_SPEC last: speculative, but better
     * than nothing on a core with neither. */
    { "instructions", false, { { 0x08, "INST_RETIRED" }, { 0x68, "INST_RENAME" },
                               { 0x1B, "INST_SPEC" } } },
    /* All branches retired (v8.1+ cores); else taken branches retired
     * (PC_WRITE_RETIRED: A7, A9, A32, A35, A53); else BR_PRED, which like
     * BR_RETIRED counts taken and not-taken branches, though speculatively
     * (A15, A57, A72). */
    { "branches", false, { { 0x21, "BR_RETIRED" }, { 0x0C, "PC_WRITE_RETIRED" },
                           { 0x12, "BR_PRED" } } },
    /* Retired mispredictions where listed, else the speculative count every
     * core has. */
    { "branch-misses", false, { { 0x22, "BR_MIS_PRED_RETIRED" }, { 0x10, "BR_MIS_PRED" } } },
    /* perf's own Arm mapping: cache = L1 data cache. */
    { "cache-references", false, { { 0x04, "L1D_CACHE" } } },
    { "cache-misses",     false, { { 0x03, "L1D_CACHE_REFILL" } } },
    /* Read/write split where the core has it (0x40-0x43), else the total:
     * the closest counter a core without the split has. */
    { "L1-dcache-loads",       false, { { 0x40, "L1D_CACHE_RD" }, { 0x04, "L1D_CACHE" } } },
    { "L1-dcache-load-misses", false, { { 0x42, "L1D_CACHE_REFILL_RD" },
                                        { 0x03, "L1D_CACHE_REFILL" } } },
    { "L1-dcache-stores",      false, { { 0x41, "L1D_CACHE_WR" }, { 0x04, "L1D_CACHE" } } },
    { "L1-icache-load-misses", false, { { 0x01, "L1I_CACHE_REFILL" } } },
    /* Last level: LL_CACHE_RD where listed (A55, A76, N1), else the L2 (the
     * last cache inside these clusters) read count, else all L2 accesses.
     * Cortex-A9 has no L2 of its own: no mapping. */
    { "LLC-loads",       false, { { 0x36, "LL_CACHE_RD" }, { 0x50, "L2D_CACHE_RD" },
                                  { 0x16, "L2D_CACHE" } } },
    { "LLC-load-misses", false, { { 0x37, "LL_CACHE_MISS_RD" }, { 0x52, "L2D_CACHE_REFILL_RD" },
                                  { 0x17, "L2D_CACHE_REFILL" } } },
    /* L1D_TLB_REFILL_RD (A15, A57, A72, A76, N1), else all data TLB refills. */
    { "dTLB-load-misses", false, { { 0x4C, "L1D_TLB_REFILL_RD" }, { 0x05, "L1D_TLB_REFILL" } } },
    { "iTLB-load-misses", false, { { 0x02, "L1I_TLB_REFILL" } } },
    { "bus-cycles",       false, { { 0x1D, "BUS_CYCLES" } } },
    /* STALL_FRONTEND/BACKEND are Armv8.1 events (A55, A76, N1).  Cortex-A9
     * has near equivalents: cycles waiting for the instruction cache, and
     * cycles with instructions that could not be dispatched. */
    { "stalled-cycles-frontend", false, { { 0x23, "STALL_FRONTEND" },
                                          { 0x60, "ICACHE_DEP_STALL" } } },
    { "stalled-cycles-backend",  false, { { 0x24, "STALL_BACKEND" },
                                          { 0x66, "ISSUE_NO_DISPATCH" } } },
};

#define N_ALIASES (sizeof(aliases) / sizeof(aliases[0]))

/* PMUv2 cores with the Virtualization Extensions, whose PMXEVTYPER has the
 * P/U/NSK/NSU/NSH filter bits (Armv7-A ARM, PMXEVTYPER with the
 * Virtualization Extensions).  Other PMUv2 cores, such as Cortex-A9, have
 * an event number and nothing else. */
static const char *const v7_filtering_cores[] = { "cortex-a7", "cortex-a15" };

const char *pp_event_alias_name(size_t i)
{
    return i < N_ALIASES ? aliases[i].alias : NULL;
}

bool pp_event_core_has(const struct pp_catalog *cat, uint16_t code)
{
    return pp_catalog_own(cat, code) != NULL;
}

static bool core_lists(const struct pp_catalog *cat, const struct alias_candidate *c)
{
    const struct pp_event *ev = pp_catalog_own(cat, c->code);

    return ev && ev->name && strcasecmp(ev->name, c->name) == 0;
}

static const struct alias *find_alias(const char *name)
{
    for (size_t i = 0; i < N_ALIASES; i++)
        if (strcasecmp(aliases[i].alias, name) == 0)
            return &aliases[i];
    return NULL;
}

static bool can_filter(const struct pp_core_type *ct)
{
    if (ct->pmu_version >= 3)
        return true;
    for (size_t i = 0; i < sizeof(v7_filtering_cores) / sizeof(v7_filtering_cores[0]); i++)
        if (ct->name && strcmp(ct->name, v7_filtering_cores[i]) == 0)
            return true;
    return false;
}

/* Width of PMEVTYPER.evtCount (spec 1.3): 10 bits in Armv8.0, 16 from
 * Armv8.1; Armv7 PMXEVTYPER has 8.  A wider code would be cut short by the
 * register and count some other event. */
static unsigned event_bits(const struct pp_core_type *ct)
{
    switch (ct->arch) {
    case PP_ARCH_V7:   return 8;
    case PP_ARCH_V8_0: return 10;
    default:           return 16;
    }
}

/* Modifiers in perf's spirit: each letter adds an exception level. */
static int parse_modifiers(const char *mods, const char *spec, unsigned *levels,
                           char *err, size_t errlen)
{
    *levels = 0;
    if (!*mods) {
        pp_errmsg(err, errlen, "empty modifier after ':' in '%s'; accepted: u (EL0), k (EL1), h (EL2)",
                spec);
        return PP_E_PARSE;
    }
    for (const char *p = mods; *p; p++) {
        switch (tolower((unsigned char)*p)) {
        case 'u': *levels |= LVL_EL0; break;
        case 'k': *levels |= LVL_EL1; break;
        case 'h': *levels |= LVL_EL2; break;
        default:
            pp_errmsg(err, errlen, "unknown modifier '%c' in '%s'; accepted: u (EL0), k (EL1), h (EL2)",
                    isprint((unsigned char)*p) ? *p : '?', spec);
            return PP_E_PARSE;
        }
    }
    return PP_OK;
}

/* P excludes EL1, U excludes EL0, NSH includes EL2 (spec 1.3): exclude the
 * levels not asked for, include EL2 only when asked. */
static uint32_t filter_bits(unsigned levels)
{
    uint32_t f = 0;

    if (!(levels & LVL_EL1))
        f |= PP_EVTYPER_P;
    if (!(levels & LVL_EL0))
        f |= PP_EVTYPER_U;
    if (levels & LVL_EL2)
        f |= PP_EVTYPER_NSH;
    return f;
}

enum raw_result { RAW_NONE, RAW_OK, RAW_BAD };

static bool all_hex(const char *s)
{
    if (!*s)
        return false;
    for (; *s; s++)
        if (!isxdigit((unsigned char)*s))
            return false;
    return true;
}

/* "r0x42", "r42", "0x42".  An 'r' not followed by hex digits is a name
 * (RC_LD_SPEC); "0x" or "r0x" with anything but hex digits is a bad code. */
static enum raw_result parse_raw(const char *s, uint32_t *code, char *err, size_t errlen)
{
    const char *hex;
    uint32_t v = 0;

    if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
        hex = s + 2;
    else if ((s[0] == 'r' || s[0] == 'R') && s[1] == '0' && (s[2] == 'x' || s[2] == 'X'))
        hex = s + 3;
    else if ((s[0] == 'r' || s[0] == 'R') && all_hex(s + 1))
        hex = s + 1;
    else
        return RAW_NONE;
    if (!all_hex(hex)) {
        pp_errmsg(err, errlen, "malformed raw event code '%s'; write r42, r0x42 or 0x42", s);
        return RAW_BAD;
    }
    for (; *hex; hex++) {
        v = v * 16 + (uint32_t)(isdigit((unsigned char)*hex) ? *hex - '0'
                                                             : tolower((unsigned char)*hex) - 'a' + 10);
        if (v > 0xFFFFu) {
            pp_errmsg(err, errlen, "raw event code '%s' is over 0xFFFF", s);
            return RAW_BAD;
        }
    }
    *code = v;
    return RAW_OK;
}

static bool all_digits(const char *s)
{
    for (; *s; s++)
        if (!isdigit((unsigned char)*s))
            return false;
    return true;
}

struct suggestion {
    const char *input;
    const char *best;
    unsigned dist;
};

static void consider(struct suggestion *s, const char *name)
{
    unsigned d;

    if (!name)
        return;
    d = pp_edit_distance(s->input, name);
    if (d < s->dist) {     /* strict: earlier sources win ties */
        s->dist = d;
        s->best = name;
    }
}

static void consider_catalog(struct suggestion *s, const struct pp_catalog *cat)
{
    if (!cat || !cat->events)
        return;
    for (size_t i = 0; i < cat->n; i++)
        consider(s, cat->events[i].name);
}

/* The closest name the user could have meant: the core's own mnemonics,
 * then the aliases, then the common mnemonics.  Nothing when even the
 * closest needs more than about a quarter of the word changed. */
static const char *suggest(const struct pp_catalog *cat, const char *input)
{
    struct suggestion s = { input, NULL, (unsigned)-1 };

    consider_catalog(&s, cat);
    for (size_t i = 0; i < N_ALIASES; i++)
        consider(&s, aliases[i].alias);
    if (cat)
        consider_catalog(&s, cat->common);
    if (!s.best || s.dist > 1 + strlen(input) / 4)
        return NULL;
    return s.best;
}

static int resolve_alias(const struct pp_core_type *ct, const struct pp_catalog *cat,
                         const struct alias *a, struct pp_evsel *out, char *err, size_t errlen)
{
    char tried[160] = "";
    size_t used = 0;

    if (a->cycle_counter) {
        out->code = CPU_CYCLES_CODE;
        out->cycle_counter = true;
        out->ev = pp_catalog_lookup(cat, CPU_CYCLES_CODE);
        return PP_OK;
    }
    for (size_t i = 0; i < MAX_CANDIDATES && a->cand[i].name; i++) {
        if (core_lists(cat, &a->cand[i])) {
            out->code = a->cand[i].code;
            out->ev = pp_catalog_lookup(cat, a->cand[i].code);
            return PP_OK;
        }
        if (used < sizeof(tried)) {
            int w = snprintf(tried + used, sizeof(tried) - used, "%s%s",
                             used ? ", " : "", a->cand[i].name);
            used += w > 0 ? (size_t)w : 0;
        }
    }
    pp_errmsg(err, errlen, "'%s' has no counterpart on %s: it lists none of %s",
            a->alias, ct->pretty, tried);
    return PP_E_NOTFOUND;
}

/* The part before ':' to code, cycle_counter and ev. */
static int resolve_name(const struct pp_core_type *ct, const struct pp_catalog *cat,
                        const char *name, struct pp_evsel *out, char *err, size_t errlen)
{
    const struct alias *a = find_alias(name);
    const struct pp_event *ev;
    const char *hint;
    uint32_t code;

    if (a)
        return resolve_alias(ct, cat, a, out, err, errlen);
    ev = pp_catalog_by_name(cat, name);
    if (ev) {
        out->code = ev->code;
        out->ev = ev;
        return PP_OK;
    }
    switch (parse_raw(name, &code, err, errlen)) {
    case RAW_OK:
        out->code = (uint16_t)code;
        out->ev = pp_catalog_lookup(cat, out->code);
        return PP_OK;
    case RAW_BAD:
        return PP_E_PARSE;
    case RAW_NONE:
        break;
    }
    if (all_digits(name)) {
        pp_errmsg(err, errlen, "event '%s' is a bare number: write raw codes in hex as r%s or 0x%s",
                name, name, name);
        return PP_E_PARSE;
    }
    hint = suggest(cat, name);
    if (hint)
        pp_errmsg(err, errlen, "unknown event '%s' for %s; did you mean %s?", name, ct->pretty, hint);
    else
        pp_errmsg(err, errlen, "unknown event '%s' for %s", name, ct->pretty);
    return PP_E_NOTFOUND;
}

/* Copies spec without surrounding blanks into out->name. */
static int take_name(const char *spec, struct pp_evsel *out, char *err, size_t errlen)
{
    size_t len;

    while (isspace((unsigned char)*spec))
        spec++;
    len = strlen(spec);
    while (len && isspace((unsigned char)spec[len - 1]))
        len--;
    if (len == 0) {
        pp_errmsg(err, errlen, "empty event name");
        return PP_E_PARSE;
    }
    if (len >= sizeof(out->name)) {
        pp_errmsg(err, errlen, "event '%.24s...' is too long (at most %zu characters)",
                spec, sizeof(out->name) - 1);
        return PP_E_PARSE;
    }
    memcpy(out->name, spec, len);
    out->name[len] = '\0';
    return PP_OK;
}

/* Filtering needs filter bits in PMEVTYPER/PMXEVTYPER. */
static int apply_filter(const struct pp_core_type *ct, unsigned levels, const char *mods,
                        struct pp_evsel *out, char *err, size_t errlen)
{
    if (!can_filter(ct)) {
        pp_errmsg(err, errlen, "%s cannot count by exception level (its PMU has no filter bits); "
                "drop ':%s' from '%s'", ct->pretty, mods, out->name);
        return PP_E_UNSUPPORTED;
    }
    out->filter = filter_bits(levels);
    return PP_OK;
}

/* Splits out->name at the first ':' into base and modifier levels. */
static int split_spec(struct pp_evsel *out, char *base, size_t baselen, const char **mods,
                      unsigned *levels, char *err, size_t errlen)
{
    const char *colon = strchr(out->name, ':');
    size_t n = colon ? (size_t)(colon - out->name) : strlen(out->name);

    snprintf(base, baselen, "%.*s", (int)n, out->name);
    if (n == 0) {
        pp_errmsg(err, errlen, "no event name before ':' in '%s'", out->name);
        return PP_E_PARSE;
    }
    *mods = colon ? colon + 1 : NULL;
    *levels = 0;
    return colon ? parse_modifiers(colon + 1, out->name, levels, err, errlen) : PP_OK;
}

int pp_event_resolve(const struct pp_core_type *ct, const char *spec,
                     struct pp_evsel *out, char *err, size_t errlen)
{
    char base[sizeof(out->name)];
    const struct pp_catalog *cat;
    const char *mods;
    unsigned levels, bits;
    int rc;

    pp_errmsg(err, errlen, "%s", "");
    if (!ct || !spec || !out) {
        pp_errmsg(err, errlen, "no core type, event or result given");
        return PP_E_INVAL;
    }
    memset(out, 0, sizeof(*out));
    rc = take_name(spec, out, err, errlen);
    if (rc == PP_OK)    /* a bad modifier is a parse error whatever the name */
        rc = split_spec(out, base, sizeof(base), &mods, &levels, err, errlen);
    if (rc != PP_OK)
        return rc;
    cat = pp_catalog_find(ct->catalog);
    rc = resolve_name(ct, cat, base, out, err, errlen);
    if (rc != PP_OK)
        return rc;
    bits = event_bits(ct);
    if (out->code >> bits) {
        pp_errmsg(err, errlen, "event 0x%04X ('%s') does not fit %s's %u-bit event number field",
                out->code, base, ct->pretty, bits);
        return PP_E_UNSUPPORTED;
    }
    return mods ? apply_filter(ct, levels, mods, out, err, errlen) : PP_OK;
}

/*
 * value.c - the keys of a target description and how their values are
 * written: numbers (decimal or 0x-hex, "A +S" in core sections), reals,
 * booleans and the few enumerations.  Defaults are applied later, in
 * resolve.c; man/pmuprobe-target.5 documents both.
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "target/keys.h"
#include "editdist.h"
#include "pmu/catalog.h"

#define SOC     (1u << TS_SOC)
#define CLUSTER (1u << TS_CLUSTER)
#define CORE    (1u << TS_CORE)

#define ADDR32  "a 32-bit address, decimal or 0x-hex"
#define PKI     "a rate per kilo-instruction, 0..1000"
#define EVLIST  "common event numbers (0x00-0x3F, 0x4000-0x403F) or mnemonics, " \
                "comma or space separated"

static const struct tk_def keys[] = {
    { "name",             K_NAME,          SOC,           TK_STRING, 0, 0, 0, 0, "text of up to 63 characters" },
    { "description",      K_DESCRIPTION,   SOC,           TK_STRING, 0, 0, 0, 0, "text of up to 159 characters" },
    { "dp",               K_DP,            SOC,           TK_DPKIND, 0, 0, 0, 0, "jtag, swd or swj" },
    { "dp.idcode",        K_DP_IDCODE,     SOC,           TK_INT, 0, 0xFFFFFFFF, 0, 0, "a 32-bit JTAG IDCODE" },
    { "dp.targetid",      K_DP_TARGETID,   SOC,           TK_INT, 0, 0xFFFFFFFF, 0, 0, "a 32-bit TARGETID value with bit 0 set" },
    { "ap.index",         K_AP_INDEX,      SOC,           TK_INT, 0, 255, 0, 0, "an APSEL from 0 to 255" },
    { "ap.idr",           K_AP_IDR,        SOC,           TK_INT, 0, 0xFFFFFFFF, 0, 0, "a 32-bit AP IDR value" },
    { "rom.base",         K_ROM_BASE,      SOC | CLUSTER, TK_INT, 0, 0xFFFFFFFF, 0, 0, ADDR32 },
    { "rom.class",        K_ROM_CLASS,     SOC | CLUSTER, TK_CLASS, 0, 0, 0, 0, "1 or 9 (0x1 or 0x9)" },
    { "rom.part",         K_ROM_PART,      SOC | CLUSTER, TK_INT, 0, 0xFFF, 0, 0, "a 12-bit part number, 0..0xFFF" },
    { "time",             K_TIME,          SOC,           TK_TIME, 0, 0, 0, 0, "deterministic or realtime" },
    { "time.access_ns",   K_TIME_ACCESS_NS,SOC,           TK_INT, 1, 1000000000, 0, 0, "nanoseconds, 1..1000000000" },
    { "jtag.chain",       K_JTAG_CHAIN,    SOC,           TK_CHAIN, 0, 0, 0, 0, "a JTAG chain, e.g. tdo pl:irlen=6:idcode=0x23727093 dap tdi" },
    { "slots",            K_SLOTS,         CLUSTER,       TK_INT, 1, PP_MAX_CORES, 0, 0, "a slot count, 1..64" },
    { "cluster",          K_CLUSTER,       CORE,          TK_INT, 0, 255, 0, 0, "a cluster number, 0..255" },
    { "slot",             K_SLOT,          CORE,          TK_INT, 0, 255, 0, 0, "a slot number, 0..255" },
    { "type",             K_TYPE,          CORE,          TK_TYPE, 0, 0, 0, 0, "a core type" },
    { "debug",            K_DEBUG,         CORE,          TK_INT, 0, 0xFFFFFFFF, 0, 0, ADDR32 },
    { "pmu",              K_PMU,           CORE,          TK_INT, 0, 0xFFFFFFFF, 0, 0, ADDR32 },
    { "cti",              K_CTI,           CORE,          TK_INT, 0, 0xFFFFFFFF, 0, 0, ADDR32 },
    { "mpidr",            K_MPIDR,         CORE,          TK_INT, 0, 0xFFFFFFFFFFll, 0, 0, "an MPIDR value of up to 40 bits" },
    { "devaff.zero",      K_DEVAFF_ZERO,   CORE,          TK_BOOL, 0, 0, 0, 0, NULL },
    { "counters",         K_COUNTERS,      CORE,          TK_INT, 1, 31, 0, 0, "a counter count, 1..31" },
    { "counter64",        K_COUNTER64,     CORE,          TK_BOOL, 0, 0, 0, 0, NULL },
    { "snapshot",         K_SNAPSHOT,      CORE,          TK_BOOL, 0, 0, 0, 0, NULL },
    { "pcsample",         K_PCSAMPLE,      CORE,          TK_BOOL, 0, 0, 0, 0, NULL },
    { "power",            K_POWER,         CORE,          TK_BOOL, 0, 0, 0, 0, NULL },
    { "oslock",           K_OSLOCK,        CORE,          TK_OSLOCK, 0, 0, 0, 0, "locked or unlocked" },
    { "doublelock",       K_DOUBLELOCK,    CORE,          TK_BOOL, 0, 0, 0, 0, NULL },
    { "halted",           K_HALTED,        CORE,          TK_BOOL, 0, 0, 0, 0, NULL },
    { "auth",             K_AUTH,          CORE,          TK_AUTH, 0, 0, 0, 0, "a comma list of dbgen, niden, spiden, spniden, or all or none" },
    { "epmad",            K_EPMAD,         CORE,          TK_BOOL, 0, 0, 0, 0, NULL },
    { "os.unlock_us",     K_OS_UNLOCK_US,  CORE,          TK_INT, -1, 0x7FFFFFFF, 0, 0, "microseconds, or -1 for never" },
    { "sim.midr",         K_SIM_MIDR,      CORE,          TK_INT, 0, 0xFFFFFFFF, 0, 0, "a 32-bit MIDR value" },
    { "sim.counters",     K_SIM_COUNTERS,  CORE,          TK_INT, 0, 31, 0, 0, "a counter count, 0..31" },
    { "sim.pmceid.set",   K_SIM_PMCEID_SET,   CORE,       TK_EVLIST, 0, 0, 0, 0, EVLIST },
    { "sim.pmceid.clear", K_SIM_PMCEID_CLEAR, CORE,       TK_EVLIST, 0, 0, 0, 0, EVLIST },
    { "workload.clock_mhz", K_WL_CLOCK_MHZ, CORE,         TK_FLOAT, 0, 0, 1, 10000, "MHz, 1..10000" },
    { "workload.ipc",     K_WL_IPC,        CORE,          TK_FLOAT, 0, 0, 0.01, 8, "instructions per cycle, 0.01..8" },
    { "workload.l1d_pki", K_WL_L1D_PKI,    CORE,          TK_FLOAT, 0, 0, 0, 1000, PKI },
    { "workload.l1d_mpki",K_WL_L1D_MPKI,   CORE,          TK_FLOAT, 0, 0, 0, 1000, PKI },
    { "workload.l1i_mpki",K_WL_L1I_MPKI,   CORE,          TK_FLOAT, 0, 0, 0, 1000, PKI },
    { "workload.l2d_pki", K_WL_L2D_PKI,    CORE,          TK_FLOAT, 0, 0, 0, 1000, PKI },
    { "workload.l2d_mpki",K_WL_L2D_MPKI,   CORE,          TK_FLOAT, 0, 0, 0, 1000, PKI },
    { "workload.br_pki",  K_WL_BR_PKI,     CORE,          TK_FLOAT, 0, 0, 0, 1000, PKI },
    { "workload.br_mpki", K_WL_BR_MPKI,    CORE,          TK_FLOAT, 0, 0, 0, 1000, PKI },
    { "workload.tlb_mpki",K_WL_TLB_MPKI,   CORE,          TK_FLOAT, 0, 0, 0, 1000, PKI },
    { "workload.stall_fe",K_WL_STALL_FE,   CORE,          TK_FLOAT, 0, 0, 0, 1, "a fraction of cycles, 0..1" },
    { "workload.stall_be",K_WL_STALL_BE,   CORE,          TK_FLOAT, 0, 0, 0, 1, "a fraction of cycles, 0..1" },
    { "workload.phase_us",K_WL_PHASE_US,   CORE,          TK_INT, 1, 10000000, 0, 0, "microseconds, 1..10000000" },
    { "workload.swing",   K_WL_SWING,      CORE,          TK_FLOAT, 0, 0, 0, 0.9, "a fraction, 0..0.9" },
    { "workload.seed",    K_WL_SEED,       CORE,          TK_INT, 0, INT64_MAX, 0, 0, "a non-negative integer" },
};

#define NKEYS (sizeof(keys) / sizeof(keys[0]))

const struct tk_def *tk_key_find(const char *name)
{
    for (size_t i = 0; i < NKEYS; i++)
        if (strcmp(keys[i].name, name) == 0)
            return &keys[i];
    return NULL;
}

const struct tk_def *tk_key_by_id(enum tk_id id)
{
    for (size_t i = 0; i < NKEYS; i++)
        if (keys[i].id == id)
            return &keys[i];
    return NULL;
}

const char *tk_section_name(enum tk_section sec)
{
    switch (sec) {
    case TS_SOC:     return "[soc]";
    case TS_CLUSTER: return "[cluster N]";
    case TS_CORE:    return "[core N]";
    }
    return "?";
}

const char *tk_key_suggest(const char *name, enum tk_section sec)
{
    const char *best = NULL;
    unsigned best_d = 3;     /* suggest only within two edits */

    for (size_t i = 0; i < NKEYS; i++) {
        unsigned d;

        if (!(keys[i].sections & (1u << sec)))
            continue;
        d = pp_edit_distance(name, keys[i].name);
        /* "ipc" for "workload.ipc": the prefix is easy to forget. */
        if (strncmp(keys[i].name, "workload.", 9) == 0 && strcmp(name, keys[i].name + 9) == 0)
            d = 1;
        if (d < best_d) {
            best_d = d;
            best = keys[i].name;
        }
    }
    return best;
}

static const char *skip_space(const char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    return s;
}

/* An unsigned decimal or 0x-hex number up to 2^63-1; *end after it. */
static bool parse_uint(const char *s, int64_t *out, const char **end)
{
    uint64_t v = 0;
    unsigned base = 10;
    const char *p = s;
    bool any = false;

    if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
        base = 16;
        p += 2;
    }
    for (;; p++) {
        unsigned d;

        if (isdigit((unsigned char)*p))
            d = (unsigned)(*p - '0');
        else if (base == 16 && isxdigit((unsigned char)*p))
            d = (unsigned)(tolower((unsigned char)*p) - 'a' + 10);
        else
            break;
        if (v > ((uint64_t)INT64_MAX - d) / base)
            return false;
        v = v * base + d;
        any = true;
    }
    *out = (int64_t)v;
    *end = p;
    return any;
}

static bool parse_int(const char *s, int64_t *out, const char **end)
{
    bool neg = (*s == '-');

    if (!parse_uint(s + neg, out, end))
        return false;
    if (neg)
        *out = -*out;
    return true;
}

/* "2.1", "3", ".5": plain decimal, no exponent, whatever the locale. */
static bool parse_real(const char *s, double *out, const char **end)
{
    const char *p = s;
    double v = 0, scale = 1;
    bool neg = false, any = false;

    if (*p == '-' || *p == '+')
        neg = (*p++ == '-');
    for (; isdigit((unsigned char)*p); p++, any = true)
        v = v * 10 + (*p - '0');
    if (*p == '.')
        for (p++; isdigit((unsigned char)*p); p++, any = true) {
            scale /= 10;
            v += (*p - '0') * scale;
        }
    if (!any || v > 1e15)
        return false;
    *out = neg ? -v : v;
    *end = p;
    return true;
}

/* Splits "A +S" / "A -S" / "A": the step text goes to *step (NULL if
 * none).  Returns false if there is text after the value. */
static bool split_step(const char *after_base, const char **step, bool *neg)
{
    const char *p = skip_space(after_base);

    *step = NULL;
    if (*p == '\0')
        return true;
    if (*p != '+' && *p != '-')
        return false;
    *neg = (*p == '-');
    *step = skip_space(p + 1);
    return **step != '\0';
}

static int bad(char *msg, size_t msglen, const struct tk_def *def, const char *text,
               const char *what, const char *expect)
{
    snprintf(msg, msglen, "'%s' = %s %s (expected %s)", def->name, text, what, expect);
    return PP_E_PARSE;
}

static int parse_int_value(const struct tk_def *def, const char *text, bool step_ok,
                           struct tk_val *out, char *msg, size_t msglen)
{
    const char *end, *step;
    bool neg = false;
    char range[64];

    if (!parse_int(text, &out->i, &end) || !split_step(end, &step, &neg))
        return bad(msg, msglen, def, text, "is not a number",
                   step_ok ? "decimal or 0x-hex, or A +S in a range section" : "decimal or 0x-hex");
    if (step) {
        const char *send;
        if (!step_ok)
            return bad(msg, msglen, def, text, "uses the A +S form outside a [core] section",
                       "a single number");
        if (!parse_uint(step, &out->istep, &send) || *skip_space(send) != '\0')
            return bad(msg, msglen, def, text, "has a step that is not a number",
                       "A +S with S decimal or 0x-hex");
        if (neg)
            out->istep = -out->istep;
    }
    if (out->i < def->min || out->i > def->max) {
        snprintf(range, sizeof(range), def->max > 0xFFFF ? "0x%llX..0x%llX" : "%lld..%lld",
                 (long long)def->min, (long long)def->max);
        if (def->min < 0)
            snprintf(range, sizeof(range), "%lld..%lld", (long long)def->min, (long long)def->max);
        return bad(msg, msglen, def, text, "is out of range", range);
    }
    return PP_OK;
}

static int parse_float_value(const struct tk_def *def, const char *text, bool step_ok,
                             struct tk_val *out, char *msg, size_t msglen)
{
    const char *end, *step;
    bool neg = false;
    char range[64];

    if (!parse_real(text, &out->f, &end) || !split_step(end, &step, &neg))
        return bad(msg, msglen, def, text, "is not a number", "a decimal such as 2.1");
    if (step) {
        const char *send;
        if (!step_ok)
            return bad(msg, msglen, def, text, "uses the A +S form outside a [core] section",
                       "a single number");
        if (!parse_real(step, &out->fstep, &send) || *skip_space(send) != '\0')
            return bad(msg, msglen, def, text, "has a step that is not a number",
                       "A +S with S a decimal such as 0.1");
        if (neg)
            out->fstep = -out->fstep;
    }
    if (out->f < def->fmin || out->f > def->fmax) {
        snprintf(range, sizeof(range), "%g..%g", def->fmin, def->fmax);
        return bad(msg, msglen, def, text, "is out of range", range);
    }
    return PP_OK;
}

static bool word_in(const char *text, const char *const *words)
{
    for (; *words; words++)
        if (strcasecmp(text, *words) == 0)
            return true;
    return false;
}

static bool parse_bool(const char *text, bool *out)
{
    static const char *const yes[] = { "yes", "on", "true", "1", NULL };
    static const char *const no[] = { "no", "off", "false", "0", NULL };

    if (word_in(text, yes))
        *out = true;
    else if (word_in(text, no))
        *out = false;
    else
        return false;
    return true;
}

static bool parse_auth(const char *text, int64_t *out)
{
    static const char *const names[] = { "dbgen", "niden", "spiden", "spniden" };
    const char *p = text;

    if (strcasecmp(text, "all") == 0) {
        *out = PP_AUTH_ALL;
        return true;
    }
    if (strcasecmp(text, "none") == 0) {
        *out = 0;
        return true;
    }
    *out = 0;
    while (*p) {
        size_t n;
        bool found = false;

        p = skip_space(p);
        n = strcspn(p, ", \t");
        for (unsigned i = 0; i < 4; i++)
            if (strlen(names[i]) == n && strncasecmp(p, names[i], n) == 0) {
                *out |= 1u << i;     /* PP_AUTH_* follow this order */
                found = true;
            }
        if (!found)
            return false;
        p = skip_space(p + n);
        if (*p == ',') {
            p++;
            if (*skip_space(p) == '\0')
                return false;
        } else if (*p) {
            return false;
        }
    }
    return true;
}

/* A number, or a mnemonic of the Armv8 or Armv7 common events: PMCEID
 * only covers common events, whose names every core shares. */
static bool event_code(const char *word, int64_t *code)
{
    static const char *const common[] = { "armv8-common", "armv7-common" };
    const char *end;

    if (parse_uint(word, code, &end))
        return *end == '\0';
    for (size_t i = 0; i < 2; i++) {
        const struct pp_event *e = pp_catalog_by_name(pp_catalog_find(common[i]), word);

        if (e) {
            *code = e->code;
            return true;
        }
    }
    return false;
}

static int parse_evlist(const struct tk_def *def, const char *text, struct tk_val *out,
                        char *msg, size_t msglen)
{
    const char *p = skip_space(text);

    while (*p) {
        char word[64], what[128];
        size_t n = strcspn(p, ", \t");
        unsigned reg, bit;
        int64_t code;

        snprintf(word, sizeof(word), "%.*s", (int)n, p);
        if (n == 0 || n >= sizeof(word) || !event_code(word, &code)) {
            snprintf(what, sizeof(what), "has '%s', which is no number or common event "
                     "mnemonic", word);
            return bad(msg, msglen, def, text, what, def->expect);
        }
        if (code < 0 || code > 0xFFFF || !pp_pmceid_bit((uint16_t)code, &reg, &bit)) {
            snprintf(what, sizeof(what), "has event 0x%04llX, which no PMCEID bit stands for",
                     (long long)code);
            return bad(msg, msglen, def, text, what, def->expect);
        }
        out->ev[reg] |= 1u << bit;
        p = skip_space(p + n);
        if (*p == ',')
            p = skip_space(p + 1);
    }
    return PP_OK;
}

int tk_value_parse(const struct tk_def *def, const char *text, bool step_ok,
                   struct tk_val *out, char *msg, size_t msglen)
{
    bool b;
    char known[256];

    switch (def->kind) {
    case TK_STRING:
        return PP_OK;        /* stored by the caller, who knows the buffer */
    case TK_CHAIN: {         /* checked here, stored by the caller */
        struct pp_jtag_chain c;
        char why[300];

        if (pp_jtag_chain_parse(text, &c, why, sizeof(why)) == PP_OK)
            return PP_OK;
        snprintf(msg, msglen, "'%s': %s", def->name, why);
        return PP_E_PARSE;
    }
    case TK_TYPE:
        /* "auto": identified through the access path (pmu/identify.h);
         * until then the generic PMUv3 core stands in. */
        out->i = strcasecmp(text, "auto") == 0;
        out->type = out->i ? NULL : pp_core_type_find(text);
        if (out->i)
            return PP_OK;
        if (out->type)
            return PP_OK;
        pp_core_type_names(known, sizeof(known));
        snprintf(msg, msglen, "'type' = %s is not a known core type (known: %s, or auto)",
                 text, known);
        return PP_E_PARSE;
    case TK_INT:
        return parse_int_value(def, text, step_ok, out, msg, msglen);
    case TK_FLOAT:
        return parse_float_value(def, text, step_ok, out, msg, msglen);
    case TK_BOOL:
        if (!parse_bool(text, &b))
            return bad(msg, msglen, def, text, "is not a boolean",
                       "yes/no, on/off, true/false or 1/0");
        out->i = b;
        return PP_OK;
    case TK_OSLOCK:
        if (strcasecmp(text, "locked") == 0)
            b = true;
        else if (strcasecmp(text, "unlocked") == 0)
            b = false;
        else if (!parse_bool(text, &b))
            return bad(msg, msglen, def, text, "is not an OS lock state", def->expect);
        out->i = b;
        return PP_OK;
    case TK_TIME:
        if (strcasecmp(text, "deterministic") == 0)
            out->i = PP_TIME_DETERMINISTIC;
        else if (strcasecmp(text, "realtime") == 0)
            out->i = PP_TIME_REALTIME;
        else
            return bad(msg, msglen, def, text, "is not a time mode", def->expect);
        return PP_OK;
    case TK_AUTH:
        if (!parse_auth(text, &out->i))
            return bad(msg, msglen, def, text, "is not a list of authentication signals",
                       def->expect);
        return PP_OK;
    case TK_CLASS:
        if (strcmp(text, "1") == 0 || strcasecmp(text, "0x1") == 0)
            out->i = 1;
        else if (strcmp(text, "9") == 0 || strcasecmp(text, "0x9") == 0)
            out->i = 9;
        else
            return bad(msg, msglen, def, text, "is not a ROM table class", def->expect);
        return PP_OK;
    case TK_DPKIND:
        if (strcasecmp(text, "jtag") == 0)
            out->i = PP_DP_JTAG;
        else if (strcasecmp(text, "swd") == 0)
            out->i = PP_DP_SWD;
        else if (strcasecmp(text, "swj") == 0)
            out->i = PP_DP_SWJ;
        else
            return bad(msg, msglen, def, text, "is not a debug port kind", def->expect);
        return PP_OK;
    case TK_EVLIST:
        return parse_evlist(def, text, out, msg, msglen);
    }
    return PP_E_PARSE;
}

bool tk_int_at(const struct tk_val *v, unsigned cpu, int64_t *out)
{
    int64_t k = (int64_t)cpu - (int64_t)v->first;
    const int64_t big = (int64_t)1 << 40;

    /* cpu numbers are below 4096, so with |step| <= 2^40 the product stays
     * below 2^52 and the sum cannot overflow unless the base is huge. */
    if (k != 0 && v->istep != 0 &&
        (v->istep > big || v->istep < -big || v->i > INT64_MAX / 2 || v->i < -big))
        return false;
    *out = v->i + v->istep * k;
    return true;
}

double tk_float_at(const struct tk_val *v, unsigned cpu)
{
    return v->f + v->fstep * (double)((int64_t)cpu - (int64_t)v->first);
}

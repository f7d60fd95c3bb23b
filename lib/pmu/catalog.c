/*
 * catalog.c - lookups over the PMU event catalogs.
 *
 * The tables are data in lib/catalog/data, turned into C at build time by
 * lib/catalog/gen-catalog, each sorted by code with unique codes (the
 * generator refuses a repeated code; tests/check_catalog.c and
 * tests/check_catalog_data.c hold the result to it).
 * PMCEIDn ranges: spec/arm-pmu-coresight.md "PMCEID0..3".
 */
#include <stddef.h>
#include <string.h>
#include <strings.h>

#include "pmu/catalog.h"
#include "catalog/catalog_tables.h"

static const struct pp_catalog *const catalogs[] = {
    &pp_catalog_armv7_common,
    &pp_catalog_armv8_common,
    &pp_catalog_cortex_a7,
    &pp_catalog_cortex_a9,
    &pp_catalog_cortex_a15,
    &pp_catalog_cortex_a32,
    &pp_catalog_cortex_a35,
    &pp_catalog_cortex_a53,
    &pp_catalog_cortex_a55,
    &pp_catalog_cortex_a57,
    &pp_catalog_cortex_a72,
    &pp_catalog_cortex_a76,
    &pp_catalog_neoverse_n1,
};

#define N_CATALOGS (sizeof(catalogs) / sizeof(catalogs[0]))

const struct pp_catalog *const *pp_catalog_all(size_t *n)
{
    if (n)
        *n = N_CATALOGS;
    return catalogs;
}

const struct pp_catalog *pp_catalog_find(const char *key)
{
    if (!key)
        return NULL;
    for (size_t i = 0; i < N_CATALOGS; i++)
        if (strcmp(catalogs[i]->key, key) == 0)
            return catalogs[i];
    return NULL;
}

/* Binary search: every table is sorted by code. */
static const struct pp_event *find_code(const struct pp_catalog *cat, uint16_t code)
{
    size_t lo = 0, hi = cat->n;

    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        uint16_t c = cat->events[mid].code;

        if (c == code)
            return &cat->events[mid];
        if (c < code)
            lo = mid + 1;
        else
            hi = mid;
    }
    return NULL;
}

const struct pp_event *pp_catalog_own(const struct pp_catalog *cat, uint16_t code)
{
    return cat && cat->events ? find_code(cat, code) : NULL;
}

const struct pp_event *pp_catalog_lookup(const struct pp_catalog *cat, uint16_t code)
{
    const struct pp_event *ev;

    if (!cat)
        return NULL;
    ev = find_code(cat, code);
    if (ev || !cat->common)
        return ev;
    return find_code(cat->common, code);
}

static const struct pp_event *find_name(const struct pp_catalog *cat, const char *name)
{
    for (size_t i = 0; i < cat->n; i++)
        if (strcasecmp(cat->events[i].name, name) == 0)
            return &cat->events[i];
    return NULL;
}

static const struct pp_event *find_alias(const struct pp_catalog *cat, const char *name)
{
    for (size_t i = 0; i < cat->naliases; i++)
        if (strcasecmp(cat->aliases[i].name, name) == 0)
            return find_code(cat, cat->aliases[i].code);
    return NULL;
}

const struct pp_event *pp_catalog_by_name(const struct pp_catalog *cat, const char *name)
{
    const struct pp_event *ev;

    if (!cat || !name)
        return NULL;
    ev = find_name(cat, name);
    if (!ev)
        ev = find_alias(cat, name);
    if (ev || !cat->common)
        return ev;
    return find_name(cat->common, name);
}

const struct pp_event_alias *pp_catalog_alias_of(const struct pp_catalog *cat, uint16_t code)
{
    for (size_t i = 0; cat && i < cat->naliases; i++)
        if (cat->aliases[i].code == code)
            return &cat->aliases[i];
    return NULL;
}

/* Only the core's own table counts: a common event the core does not list
 * is not implemented there, and its PMCEID bit must read 0 (seed 000 shows
 * Cortex-A32 PMCEID1 all-zero for 0x20-0x30).  PMUv2 has PMCEID0/1 only. */
static const uint16_t pmceid_base[4] = { 0x0000, 0x0020, 0x4000, 0x4020 };

uint16_t pp_pmceid_code(unsigned reg, unsigned bit)
{
    return (uint16_t)(pmceid_base[reg & 3u] + (bit & 31u));
}

bool pp_pmceid_bit(uint16_t code, unsigned *reg, unsigned *bit)
{
    for (unsigned r = 0; r < 4; r++)
        if (code >= pmceid_base[r] && code < pmceid_base[r] + 32u) {
            *reg = r;
            *bit = code - pmceid_base[r];
            return true;
        }
    return false;
}

void pp_catalog_pmceid_each(const struct pp_catalog *cat, unsigned reg, uint32_t v,
                            pp_pmceid_fn fn, void *ctx)
{
    for (unsigned b = 0; b < 32; b++) {
        uint16_t code = pp_pmceid_code(reg, b);

        if ((v >> b) & 1u)
            fn(ctx, code, pp_catalog_lookup(cat, code));
    }
}

uint32_t pp_catalog_pmceid(const struct pp_catalog *cat, unsigned reg)
{
    uint32_t v = 0;
    unsigned r, b;

    if (!cat || reg > 3 || (cat->pmu_version < 3 && reg > 1))
        return 0;
    for (size_t i = 0; i < cat->n; i++)
        if (pp_pmceid_bit(cat->events[i].code, &r, &b) && r == reg)
            v |= 1u << b;
    return v;
}

const char *pp_ev_type_name(int type)
{
    switch (type) {
    case PP_EVT_INS:   return "INS";
    case PP_EVT_UEVT:  return "UEVT";
    case PP_EVT_CYCLE: return "CYCLE";
    case PP_EVT_EXC:   return "EXC";
    case PP_EVT_ETM:   return "ETM";
    default:           return "UNKNOWN";
    }
}

const char *pp_ev_accuracy_name(int accuracy)
{
    switch (accuracy) {
    case PP_ACC_PRECISE: return "precise";
    case PP_ACC_APPROX:  return "approximate";
    default:             return "";
    }
}

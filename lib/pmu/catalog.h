/*
 * catalog.h - PMU event catalogs as data tables (internal).
 *
 * Event numbers, mnemonics, types, components and bus positions are facts
 * taken from ARM-software/data (../shared/data/arm-pmu) and the Arm seed
 * documents; descriptions are our own words.
 */
#ifndef PP_CATALOG_H
#define PP_CATALOG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum pp_ev_type {
    PP_EVT_UNKNOWN = 0,
    PP_EVT_INS,          /* instruction executed/retired */
    PP_EVT_UEVT,         /* micro-architectural event */
    PP_EVT_CYCLE,        /* counts cycles while a condition holds */
    PP_EVT_EXC,          /* exception */
    PP_EVT_ETM,          /* trace-unit signal */
};

enum pp_ev_accuracy {
    PP_ACC_UNSTATED = 0,
    PP_ACC_PRECISE,
    PP_ACC_APPROX,
};

#define PP_EVF_ARCH        (1u << 0)   /* architecturally defined */
#define PP_EVF_IMPDEF      (1u << 1)   /* implementation-defined number */
#define PP_EVF_RECOMMENDED (1u << 2)   /* IMP DEF with recommended meaning */

struct pp_event {
    uint16_t    code;
    const char *name;        /* mnemonic, upper case, stable */
    const char *desc;        /* short description, our words */
    uint8_t     type;        /* enum pp_ev_type */
    uint8_t     accuracy;    /* enum pp_ev_accuracy */
    uint8_t     flags;       /* PP_EVF_* */
    const char *component;   /* "L1D", "L1I", "L2", "BPU", ...; NULL if none */
    int16_t     bus_lsb;     /* PMUEVENT bus bit; -1 = not published */
    int8_t      bus_bits;    /* width on the PMUEVENT bus; 0 = not published */
    int16_t     trace_lsb;   /* CPU-to-ETM event bus bit; -1 = not published */
};

/* Another name of one of the core's events, where a tool users compare
 * with spells it differently (Linux perf's per-core event lists). */
struct pp_event_alias {
    const char *name;        /* upper case, as that tool spells it */
    uint16_t    code;        /* an event of the same catalog */
    const char *source;      /* "perf" */
};

struct pp_catalog {
    const char *key;                 /* "cortex-a76", "armv8-common", "armv7-common" */
    const char *pretty;              /* "Cortex-A76" */
    uint8_t pmu_version;             /* 2 or 3 */
    const struct pp_event *events;   /* sorted by code, unique codes */
    size_t n;
    const struct pp_catalog *common; /* architecture's common events, or NULL */
    const struct pp_event_alias *aliases;  /* other names, or NULL */
    size_t naliases;
};

/* By key ("cortex-a76", "armv8-common"); NULL if unknown. */
const struct pp_catalog *pp_catalog_find(const char *key);
/* All catalogs, for tests and listings. */
const struct pp_catalog *const *pp_catalog_all(size_t *n);
/* The core's own entry first, else the common catalog's; NULL if neither. */
const struct pp_event *pp_catalog_lookup(const struct pp_catalog *cat, uint16_t code);
/* The core's own entry only (no common fallback); NULL if it lacks it. */
const struct pp_event *pp_catalog_own(const struct pp_catalog *cat, uint16_t code);
/* Case-insensitive mnemonic lookup: the core's mnemonics, then its aliases
 * (pp_event_alias), then the common catalog's; NULL if none. */
const struct pp_event *pp_catalog_by_name(const struct pp_catalog *cat, const char *name);
/* The core's alias of event code, NULL if it has none. */
const struct pp_event_alias *pp_catalog_alias_of(const struct pp_catalog *cat, uint16_t code);
/* The common event that bit b of PMCEID<reg> stands for (spec 1.3: bit b of
 * PMCEID0..3 is event 0x0000/0x0020/0x4000/0x4020 + b); reg 0..3, b 0..31. */
uint16_t pp_pmceid_code(unsigned reg, unsigned bit);
/* The PMCEID register and bit of a common event; false for a number no
 * PMCEID bit stands for (0x40-0x3FFF, from 0x4040: IMPLEMENTATION DEFINED
 * and other events). */
bool pp_pmceid_bit(uint16_t code, unsigned *reg, unsigned *bit);
/* Calls fn once per set bit of v, the value of PMCEID<reg> (reg 0..3), in
 * bit order, with the event code the bit stands for and its catalog entry
 * (pp_catalog_lookup; NULL when no catalog of cat knows it, or cat is NULL).
 * The one walk behind every printer of advertised events. */
typedef void (*pp_pmceid_fn)(void *ctx, uint16_t code, const struct pp_event *ev);
void pp_catalog_pmceid_each(const struct pp_catalog *cat, unsigned reg, uint32_t v,
                            pp_pmceid_fn fn, void *ctx);
/* PMCEIDn (reg 0..3) as this core implements it: bit b set when the core's
 * own table lists common event pp_pmceid_code(reg, b). */
uint32_t pp_catalog_pmceid(const struct pp_catalog *cat, unsigned reg);
const char *pp_ev_type_name(int type);          /* "INS", "UEVT", ... */
const char *pp_ev_accuracy_name(int accuracy);  /* "precise", "approximate", "" */

#endif

/*
 * evname.h - turning what a user types into an event to program
 * (internal): Arm mnemonics, perf-style aliases mapped per core, raw codes,
 * and exception-level modifiers.
 */
#ifndef PP_EVNAME_H
#define PP_EVNAME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pmu/catalog.h"
#include "pmu/coretype.h"

/* PMEVTYPER filter bits (spec 1.3): P excludes EL1, U excludes EL0, NSH
 * includes EL2. */
#define PP_EVTYPER_P   (1u << 31)
#define PP_EVTYPER_U   (1u << 30)
#define PP_EVTYPER_NSH (1u << 27)

struct pp_evsel {
    uint16_t code;               /* event number to program */
    bool     cycle_counter;      /* counted by PMCCNTR, not an event counter */
    uint32_t filter;             /* PP_EVTYPER_* bits from :u/:k/:h */
    const struct pp_event *ev;   /* catalog entry, NULL for an unknown raw code */
    char     name[48];           /* as the user wrote it, lower/upper case kept */
};

/*
 * Resolves one event for a core type:
 *   - Arm mnemonics, case-insensitive: L1D_CACHE_REFILL, inst_retired,
 *     and a catalog's aliases for its own events (perf's per-core names:
 *     prefetch_linefill_drop is Cortex-A53 0xC3)
 *   - perf aliases mapped per core: cycles, cpu-cycles, instructions,
 *     branches, branch-misses, cache-references, cache-misses, bus-cycles,
 *     stalled-cycles-frontend, stalled-cycles-backend, L1-dcache-loads,
 *     L1-dcache-load-misses, L1-dcache-stores, L1-icache-load-misses,
 *     LLC-loads, LLC-load-misses, dTLB-load-misses, iTLB-load-misses
 *     (e.g. instructions is INST_RETIRED 0x08, but 0x68 on Cortex-A9, which
 *     lacks 0x08)
 *   - raw codes: r0x42, r42 (hex, as perf), 0x42
 *   - modifiers after ':' in perf's spirit: u (EL0 only), k (EL1 only),
 *     h (EL2 only), combinable (":uk"); refused on PMUs without filtering.
 * cycles resolves to the cycle counter.  On failure returns PP_E_NOTFOUND
 * (or PP_E_PARSE, PP_E_UNSUPPORTED) with a message naming the input and
 * "did you mean X?" from the catalog and alias list.
 */
int pp_event_resolve(const struct pp_core_type *ct, const char *spec,
                     struct pp_evsel *out, char *err, size_t errlen);

/* The i-th perf alias pp_event_resolve takes ("cycles", "instructions",
 * ...), NULL past the last: for listings (events --core) and the bash
 * completion.  What it stands for depends on the core type: resolve it. */
const char *pp_event_alias_name(size_t i);

/* Whether the core itself lists the event (its own catalog table). */
bool pp_event_core_has(const struct pp_catalog *cat, uint16_t code);

#endif

/*
 * program.h - programming a core's counters (internal).
 */
#ifndef PP_PROGRAM_H
#define PP_PROGRAM_H

#include <stdbool.h>
#include <stdint.h>

#include "pmuprobe.h"
#include "pmu/evname.h"
#include "target/target.h"

#define PP_MAX_COUNTERS 31
#define PP_CYCLE_SLOT   31      /* slot number of the cycle counter */

/* Which event goes on which counter of one core. */
struct pp_pmu_prog {
    unsigned nev;                        /* event counters used: 0..nev-1 */
    struct pp_evsel ev[PP_MAX_COUNTERS]; /* ev[i] is counted by PMEVCNTR<i> */
    bool     cycles;                     /* the cycle counter is used */
    uint32_t cycles_filter;              /* PMCCFILTR filter bits */
    unsigned nreq;                       /* events asked for */
    uint8_t  slot[PP_MAX_COUNTERS + 1];  /* slot[i]: counter of asked event i,
                                          * PP_CYCLE_SLOT for the cycle counter */
};

/*
 * Allocates events to counters: "cycles" to the cycle counter, the rest to
 * event counters in order.  PP_E_BUSY with a message when there are more
 * events than the core has counters.
 */
int pp_pmu_allocate(const struct pp_core_desc *core, const struct pp_evsel *ev, unsigned n,
                    struct pp_pmu_prog *out, char *err, size_t errlen);

/*
 * Programs and starts the counters in one bus batch: disable all, write
 * PMEVTYPER<n> and PMCCFILTR, clear overflow flags, reset and enable via
 * PMCR (E|P|C, and LC on PMUv3 so the cycle counter overflows at 64 bits),
 * then enable the used counters in PMCNTENSET.
 */
int pp_pmu_program(struct pp_bus *bus, const struct pp_core_desc *core,
                   const struct pp_pmu_prog *p);

/* Offsets of counter n and the cycle counter for the core's PMU view. */
uint32_t pp_pmu_evcntr_off(const struct pp_core_desc *core, unsigned n);
uint32_t pp_pmu_ccntr_off(const struct pp_core_desc *core);

#endif

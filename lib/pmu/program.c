/*
 * program.c - allocating events to counters and starting them.
 * Offsets: spec/arm-pmu-coresight.md 1.1 (PMUv3) and 4.1 (PMUv2).
 */
#include <stdio.h>
#include <string.h>

#include "bus/bus.h"
#include "pmu/program.h"
#include "pmu/regs.h"

uint32_t pp_pmu_evcntr_off(const struct pp_core_desc *core, unsigned n)
{
    return core->type->pmu_version >= 3 ? PP_PMU_PMEVCNTR_V3(n) : PP_PMU_PMEVCNTR_V2(n);
}

uint32_t pp_pmu_ccntr_off(const struct pp_core_desc *core)
{
    return core->type->pmu_version >= 3 ? PP_PMU_PMCCNTR_V3 : PP_PMU_PMCCNTR_V2;
}

int pp_pmu_allocate(const struct pp_core_desc *core, const struct pp_evsel *ev, unsigned n,
                    struct pp_pmu_prog *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof(*out));
    if (n > PP_MAX_COUNTERS + 1) {
        snprintf(err, errlen, "cpu%u: %u events asked, at most %u fit a PMU", core->cpu, n,
                 PP_MAX_COUNTERS + 1);
        return PP_E_BUSY;
    }
    out->nreq = n;
    for (unsigned i = 0; i < n; i++) {
        if (ev[i].cycle_counter && !out->cycles) {
            out->cycles = true;
            out->cycles_filter = ev[i].filter;
            out->slot[i] = PP_CYCLE_SLOT;
            continue;
        }
        if (out->nev >= core->counters) {
            snprintf(err, errlen, "cpu%u: %u events need event counters but %s has %u "
                     "(plus the cycle counter)", core->cpu,
                     n - (out->cycles ? 1u : 0u), core->type->pretty, core->counters);
            return PP_E_BUSY;
        }
        out->slot[i] = (uint8_t)out->nev;
        out->ev[out->nev++] = ev[i];
    }
    return PP_OK;
}

int pp_pmu_program(struct pp_bus *bus, const struct pp_core_desc *core,
                   const struct pp_pmu_prog *p)
{
    struct pp_op ops[PP_MAX_COUNTERS + 8];
    uint32_t base = core->pmu_base, enable = 0;
    uint32_t pmcr = PP_PMCR_E | PP_PMCR_P | PP_PMCR_C;
    size_t n = 0;

    /* Disable first so no counter runs half-programmed. */
    ops[n++] = (struct pp_op){ .addr = base + PP_PMU_PMCNTENCLR, .wdata = ~0u, .write = 1 };
    for (unsigned i = 0; i < p->nev; i++) {
        ops[n++] = (struct pp_op){ .addr = base + PP_PMU_PMEVTYPER(i),
                                   .wdata = p->ev[i].code | p->ev[i].filter, .write = 1 };
        enable |= 1u << i;
    }
    if (p->cycles) {
        ops[n++] = (struct pp_op){ .addr = base + PP_PMU_PMCCFILTR, .wdata = p->cycles_filter,
                                   .write = 1 };
        enable |= 1u << 31;
    }
    ops[n++] = (struct pp_op){ .addr = base + PP_PMU_PMOVSCLR, .wdata = ~0u, .write = 1 };
    if (core->type->pmu_version >= 3)
        pmcr |= PP_PMCR_LC;
    ops[n++] = (struct pp_op){ .addr = base + PP_PMU_PMCR, .wdata = pmcr, .write = 1 };
    ops[n++] = (struct pp_op){ .addr = base + PP_PMU_PMCNTENSET, .wdata = enable, .write = 1 };
    return pp_bus_run(bus, ops, n);
}

/*
 * power.c - see power.h.
 */
#include <time.h>

#include "pmu/power.h"
#include "pmu/regs.h"

/* The power controller takes its time: poll EDPRSR.PU every millisecond
 * for up to 200 ms rather than spinning round trips on the link. */
#define POWER_POLLS     200
#define POWER_POLL_NS   1000000L

int pp_power_up(struct pp_bus *bus, uint32_t debug_base, struct pp_power_up *out)
{
    out->edprsr = 0;
    out->write_rc = pp_bus_write32(bus, debug_base + PP_DBG_EDPRCR, PP_EDPRCR_COREPURQ);
    if (out->write_rc != PP_OK)
        return out->write_rc;
    for (int i = 0; i < POWER_POLLS; i++) {
        const struct timespec pause = { 0, POWER_POLL_NS };

        if (pp_bus_read32(bus, debug_base + PP_DBG_EDPRSR, &out->edprsr) == PP_OK &&
            (out->edprsr & PP_EDPRSR_PU))
            return PP_OK;
        nanosleep(&pause, NULL);
    }
    return PP_E_TIMEOUT;
}

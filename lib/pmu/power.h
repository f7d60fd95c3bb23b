/*
 * power.h - asking the power controller to power a core up (internal).
 *
 * EDPRCR.COREPURQ sits in the debug power domain, so it takes a write while
 * the core is off; whether the core comes up is the SoC's power
 * controller's decision (spec/arm-pmu-coresight.md 3.2).
 */
#ifndef PP_POWER_H
#define PP_POWER_H

#include <stdint.h>

#include "bus/bus.h"

/* What pp_power_up saw. */
struct pp_power_up {
    int      write_rc;       /* the EDPRCR write: PP_OK or the bus error */
    uint32_t edprsr;         /* the last EDPRSR read (0 when none answered) */
};

/*
 * Sets EDPRCR.COREPURQ of the core whose debug block is at debug_base,
 * then reads EDPRSR every millisecond until PU is set, for up to 200 ms:
 * one write, then one read round trip per poll.  Returns PP_OK when the
 * core reports power, the write's error when EDPRCR could not be written,
 * PP_E_TIMEOUT when the core stayed off; *out says which.
 */
int pp_power_up(struct pp_bus *bus, uint32_t debug_base, struct pp_power_up *out);

#endif

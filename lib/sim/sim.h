/*
 * sim.h - the simulated SoC (internal API).
 *
 * One model serves every access path: the in-process bus, the
 * remote_bitbang server and the USB-level FTDI emulator all call these
 * functions.  Built from a struct pp_target.  Not thread-safe: one thread
 * drives a sim at a time.  Facts: spec/arm-pmu-coresight.md.
 */
#ifndef PP_SIM_H
#define PP_SIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pmuprobe.h"
#include "target/target.h"

/* Builds the SoC.  NULL on failure with the reason in err. */
struct pp_sim *pp_sim_new(const struct pp_target *t, char *err, size_t errlen);
void pp_sim_free(struct pp_sim *sim);
const struct pp_target *pp_sim_target(const struct pp_sim *sim);

/*
 * One 32-bit APB access as the APB-AP makes it (PADDRDBG31 = 1, so the
 * Software Lock does not apply).  Returns PP_OP_OK or PP_OP_SLVERR (an APB
 * error response, PSLVERR).  Unmapped addresses answer
 * PP_OP_SLVERR (the interconnect's default slave).  In deterministic mode each access advances target time by
 * the target's access_ns.
 */
int pp_sim_apb_read(struct pp_sim *sim, uint32_t addr, uint32_t *val);
int pp_sim_apb_write(struct pp_sim *sim, uint32_t addr, uint32_t val);

/* Target time in ns since the SoC started. */
uint64_t pp_sim_now_ns(struct pp_sim *sim);
/* Real-time mode: while held, target time stands at the moment of the
 * hold (an in-process batch, lib/bus/sim_bus.c); no effect in
 * deterministic mode. */
void pp_sim_hold_time(struct pp_sim *sim, bool hold);
/* Deterministic mode only: let target time pass without bus activity. */
void pp_sim_advance_ns(struct pp_sim *sim, uint64_t ns);

/* Fault injection.  cpu is the logical number from the target.  All return
 * PP_OK or PP_E_INVAL (no such cpu); setting the double lock on a core
 * without FEAT_DoubleLock (Cortex-A9) or EPMAD on an Armv7 core returns
 * PP_E_UNSUPPORTED and changes nothing. */
int pp_sim_set_power(struct pp_sim *sim, unsigned cpu, bool on);
int pp_sim_set_oslock(struct pp_sim *sim, unsigned cpu, bool locked);
int pp_sim_set_doublelock(struct pp_sim *sim, unsigned cpu, bool on);
int pp_sim_set_halted(struct pp_sim *sim, unsigned cpu, bool halted);
int pp_sim_set_auth(struct pp_sim *sim, unsigned cpu, unsigned auth /* PP_AUTH_* */);
int pp_sim_set_epmad(struct pp_sim *sim, unsigned cpu, bool disabled);
/* The snapshot block accepts PMSSCR.SS but captures nothing (PMSSSR.NC =
 * 1, the copies keep their values); PP_E_UNSUPPORTED on a core without
 * the block. */
int pp_sim_set_snapshot_refused(struct pp_sim *sim, unsigned cpu, bool refused);
/* Makes one address answer with an error response (on) or normally (off). */
int pp_sim_set_addr_error(struct pp_sim *sim, uint32_t addr, bool on);
/*
 * Applies a fault written as on the command line:
 *   cpuN:off | cpuN:on | cpuN:oslock | cpuN:osunlock | cpuN:dlock |
 *   cpuN:halt | cpuN:run | cpuN:noauth | cpuN:epmad | cpuN:nocapture |
 *   ADDR:error
 * and their undoing forms cpuN:dunlock | cpuN:auth | cpuN:noepmad |
 *   cpuN:capture | ADDR:ok;
 * DP faults dp:wait:N (the next N DPACC/APACC scans answer WAIT) and
 * dp:overrun (STICKYORUN set), which need a TAP over the sim (sim/jtag.h;
 * PP_E_UNSUPPORTED without one).  Each may end in @TIME (sim time since
 * the SoC started) or @+TIME (from now), TIME as 200ms, 1.5s, 500us,
 * 1000ns: the fault then waits until pp_sim_now_ns reaches it and takes
 * effect at that time.  Several faults may be given separated by commas.
 * Returns PP_E_PARSE with a message naming the spec and the accepted forms,
 * PP_E_INVAL (with a message) for a cpu the target does not have,
 * PP_E_UNSUPPORTED (with a message) for dlock on a core without
 * FEAT_DoubleLock or epmad on an Armv7 core, as the target parser refuses.
 */
int pp_sim_apply_fault(struct pp_sim *sim, const char *spec, char *err, size_t errlen);
/* The i-th action a core fault takes (cpuN:ACTION: "off", "oslock", ...),
 * NULL past the last: for the bash completion of --fault. */
const char *pp_sim_fault_action(size_t i);
/*
 * For callers that never advance target time themselves (pmuprobe's sim
 * path, pmuprobe-sim): PP_E_UNSUPPORTED, with a message pointing at
 * --sim-time realtime, when the sim keeps deterministic time and spec
 * holds a fault that would wait for a time still to come (deterministic
 * time moves only with bus accesses, so it would fire late or never)
 * and the deterministic mode came from the target file, not from the
 * caller (pp_target.time_asked: then the time is meant as target time).
 * PP_OK otherwise, also for a malformed spec (pp_sim_apply_fault says why).
 */
int pp_sim_check_fault_time(struct pp_sim *sim, const char *spec, char *err, size_t errlen);

/* Cumulative count of an event the core's workload has produced while the
 * core was powered, running and the event countable, whether or not a
 * counter was counting it.  For tests.  0 for events the model lacks. */
uint64_t pp_sim_event_total(struct pp_sim *sim, unsigned cpu, uint16_t event);

struct pp_sim_stats {
    uint64_t reads, writes;       /* APB accesses */
    uint64_t errors;              /* error responses given */
    uint64_t faults;              /* faults applied (pp_sim_apply_fault), a timed one
                                   * when its time came: a test can tell each landed */
};
void pp_sim_get_stats(const struct pp_sim *sim, struct pp_sim_stats *out);

#endif

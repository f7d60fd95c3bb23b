/*
 * fixture.h - targets and simulated SoCs for the check tests, built in C so
 * that each test states the SoC it needs (design.md: a test never scripts
 * replies the simulator can serve).
 */
#ifndef PP_TEST_FIXTURE_H
#define PP_TEST_FIXTURE_H

#include <stdint.h>

#include "bus/bus.h"
#include "capture/record.h"
#include "sim/sim.h"
#include "target/target.h"

struct pp_link;
struct pp_simjtag;

/* A target with no clusters or cores yet: deterministic time, access_ns
 * per access.  Free with pp_target_free. */
struct pp_target *fx_target(const char *name, uint32_t rom, uint8_t cls, uint16_t part,
                            uint32_t access_ns);
void fx_add_cluster(struct pp_target *t, uint32_t rom, uint8_t cls, uint16_t part,
                    unsigned slots);
/* Appends cpuN (N = cores so far): powered, all authentication signals
 * high, OS lock clear and no simulated OS, features as its type has, and
 * workload *wl with seed wl->seed + N so cores differ. */
struct pp_core_desc *fx_add_core(struct pp_target *t, const char *type, unsigned cluster,
                                 unsigned slot, uint32_t debug, uint32_t pmu, uint32_t cti,
                                 uint64_t mpidr, const struct pp_workload *wl);

/* A target (owned), its simulated SoC and the in-process bus over it. */
struct fx_rig {
    struct pp_target *t;
    struct pp_sim *sim;
    struct pp_bus *bus;
};

void fx_rig_build(struct fx_rig *r, struct pp_target *t);   /* takes t */
void fx_rig_parse(struct fx_rig *r, const char *text);      /* a .target text */
void fx_rig_down(struct fx_rig *r);

/* The SoC of the ADI, JTAG-DP and SW-DP tests (check_adi.c, check_simjtag.c,
 * check_simswd.c): two Cortex-A72 in the v8 map, the APB-AP at APSEL 1,
 * deterministic time.  FX_A72_PAIR_SOC opens its [soc] section with name
 * and keys (more "key = value\n" lines of the test's own, "" for none);
 * FX_A72_PAIR_CORES closes it, after any further [soc] keys. */
#define FX_A72_PAIR_SOC(name, keys) \
    "[soc]\n" \
    "name = " name "\n" \
    "dp.idcode = 0x5BA00477\n" \
    keys \
    "rom.base = 0x80000000\n" \
    "rom.class = 1\n" \
    "time = deterministic\n" \
    "time.access_ns = 100\n"
#define FX_A72_PAIR_CORES \
    "[cluster 0]\n" \
    "rom.base = 0x80400000\n" \
    "rom.class = 1\n" \
    "[core 0-1]\n" \
    "type = cortex-a72\n" \
    "debug = 0x80410000 +0x100000\n" \
    "oslock = unlocked\n"

/* The JTAG pins of sim's DP (pp_simjtag_new); free with pp_simjtag_free
 * before the sim. */
struct pp_simjtag *fx_simjtag(struct pp_sim *sim);

/* The ADIv5 JTAG-DP bus over j's pins, TDO/TDI side pins as
 * pp_link_simpins_new takes them (NULL, 0: none).  The bus owns the link;
 * *lnk (when lnk is not NULL) lets the test reach it. */
struct pp_bus *fx_adi_bus(struct pp_simjtag *j, const struct pp_target *t,
                          const unsigned *tdo, unsigned ntdo, const unsigned *tdi,
                          unsigned ntdi, struct pp_link **lnk);

/* A hand-made capture's meta for the plot and top-view tests: ncores
 * Cortex-A76 cores counting cycles (event 0, the cycle counter) and
 * instructions (event 1), with the IPC metric, every interval_ns from
 * start_ns. */
void fx_ipc_meta(struct pp_cap_meta *m, unsigned ncores, uint64_t interval_ns,
                 uint64_t start_ns);

#endif

/*
 * sim_internal.h - the simulated SoC's state, shared by the files of
 * lib/sim/ (internal to that room).
 *
 * soc.c       construction, address map, APB dispatch, time
 * romtable.c  top and cluster ROM tables (class 0x1 and 0x9)
 * ids.c       CoreSight identification registers, CTI stub
 * core.c      per-core power, locks, authentication, reset, running time
 * debug.c     external debug block (Armv8 and Armv7 views)
 * pmu.c       PMU block (PMUv3 EXT32 and PMUv2 views), snapshot, PC sample
 * workload.c  the counting model: signals, event mapping, counter update
 * fault.c     fault injection API and pp_sim_apply_fault
 *
 * Facts: spec/arm-pmu-coresight.md (cited as "spec N.N").
 */
#ifndef PP_SIM_INTERNAL_H
#define PP_SIM_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include "sim/sim.h"
#include "pmu/catalog.h"
#include "pmu/coretype.h"

#define SIM_MAX_EVCNT   31          /* PMEVCNTR0..30 */
#define SIM_CCNT        31          /* cycle counter: "counter 31", bit 31 */
#define SIM_NO_UNLOCK   UINT64_MAX  /* no OS unlock pending */

/* Workload signals: what the modelled core does, per unit of running time.
 * Events are functions of these (workload.c). */
enum sim_sig {
    SIG_CYCLES,
    SIG_INST,           /* instructions retired */
    SIG_L1D,            /* L1D accesses (= loads + stores) */
    SIG_L1D_REFILL,
    SIG_L1I,            /* L1I accesses */
    SIG_L1I_REFILL,
    SIG_L2D,
    SIG_L2D_REFILL,
    SIG_BR,             /* branches retired */
    SIG_BR_MIS,
    SIG_TLB_REFILL,     /* L1D TLB refills */
    SIG_STALL_FE,       /* cycles */
    SIG_STALL_BE,       /* cycles */
    SIG_EXC,            /* exceptions taken */
    SIG_COUNT
};

enum sim_fn_kind {
    FN_NONE,            /* counts nothing (not implemented, CHAIN, ...) */
    FN_SWINC,           /* SW_INCR: counts PMSWINC writes only */
    FN_SIG,             /* floor(signal * num / den), or its complement */
};

/* How one event's count follows from a signal. */
struct sim_evfn {
    uint8_t  kind;      /* enum sim_fn_kind */
    uint8_t  sig;       /* enum sim_sig */
    bool     comp;      /* count signal - floor(signal * num / den) */
    uint16_t num, den;
};

/* Exception-level filter of a counter (PMEVTYPER/PMCCFILTR U and P). */
#define SIM_FILT_NO_EL0 1u
#define SIM_FILT_NO_EL1 2u

struct sim_counter {
    uint64_t val;       /* value at its last sync */
    uint64_t base;      /* value of its count function at the last sync */
    uint64_t tau;       /* running time of its last sync */
    struct sim_evfn fn;
    uint8_t  filt;      /* SIM_FILT_* */
    bool     div64;     /* PMCR.D on the cycle counter */
};

/* Fixed-point workload state of one core.  Rates are events per ns in
 * Q32; the cursor caches the cumulative counts at the start of one phase
 * so that evaluating a signal costs O(1) for the usual forward moves. */
struct sim_wl {
    uint64_t phase_ns;              /* 0 = one endless phase */
    uint64_t base_q32[SIG_COUNT];   /* rates at variation factor 1 */
    uint32_t swing_q16;             /* +-swing, Q16 */
    uint64_t seed;
    unsigned cpu;
    uint64_t cur_phase;
    uint64_t cur_start[SIG_COUNT];  /* cumulative counts at phase start */
    uint64_t cur_rate[SIG_COUNT];   /* rates in cur_phase, Q32 */
};

struct sim_core {
    const struct pp_core_desc *desc;
    bool in_reset;                  /* nSRST held (jtag_dp.c): EDPRSR.R */
    const struct pp_core_type *type;
    const struct pp_catalog *cat;   /* NULL if the catalog is unknown */
    unsigned ncnt;                  /* event counters (PMCFGR.N) */
    uint32_t cnt_mask;              /* implemented PMCNTEN/PMOVS bits */
    uint32_t pmceid[4];
    bool     v71;                   /* Armv7.1 debug (A7, A15) */

    /* power, locks, authentication (core.c) */
    bool     powered, oslock, dlock, halted, epmad;
    unsigned auth;                  /* PP_AUTH_* */
    uint32_t sticky;                /* EDPRSR sticky bits: SPD SR SDAD SPMAD SDR */
    uint32_t edprcr;                /* CORENPDRQ[0], COREPURQ[3] */
    uint32_t claim;                 /* claim tags [7:0] */
    uint32_t dscr_rw;               /* writable EDSCR / DBGDSCRext bits */
    uint64_t unlock_at;             /* when the OS clears the OS lock */

    /* running time: target ns spent powered and not halted */
    uint64_t tau, tau_at;

    /* PMU (pmu.c, workload.c) */
    uint32_t pmcr;                  /* stored PMCR bits (E D X DP LC LP) */
    uint32_t cnten, inten, ovs, userenr;
    uint32_t evtyper[SIM_MAX_EVCNT];
    uint32_t ccfiltr;
    struct sim_counter cnt[SIM_MAX_EVCNT + 1];  /* [SIM_CCNT] = PMCCNTR */

    /* PC sample latches (PMPCSR[63:32], PMCID1SR, PMCID2SR, PMVIDSR) */
    uint32_t pcs_hi, pcs_cid1, pcs_cid2, pcs_vid;
    /* IMP DEF snapshot (A55/A76, spec 1.4 table 2) */
    uint32_t ss_pc_lo, ss_pc_hi, ss_cid1, ss_cid2;
    uint32_t ss_nc, ss_ovs, ss_cnt[6];
    bool     ss_refuse;                /* fault: captures refused (NC = 1) */
    uint64_t ss_ccnt;

    struct sim_wl wl;
};

/* One parsed fault (fault.c): what pp_sim_apply_fault acts on, now or
 * when the sim's clock reaches at_ns. */
enum sim_fault_kind { SF_CORE, SF_ADDR, SF_DP_WAIT, SF_DP_OVERRUN };

struct sim_fault {
    uint64_t at_ns;
    uint8_t  kind;                  /* enum sim_fault_kind */
    uint8_t  act;                   /* SF_CORE: action; SF_ADDR: 1 = error */
    uint32_t arg;                   /* cpu, address or WAIT count */
};

enum sim_blk_kind { BLK_ROM_TOP, BLK_ROM_CLUSTER, BLK_DEBUG, BLK_PMU, BLK_CTI };

/* One 4 KB block of the APB space. */
struct sim_block {
    uint32_t base;
    uint8_t  kind;                  /* enum sim_blk_kind */
    uint16_t idx;                   /* cluster or core index */
};

struct pp_sim {
    struct pp_target t;             /* our copy: cores point into it */
    struct sim_core *cores;         /* parallel to t.cores */
    struct sim_block *blocks;       /* sorted by base */
    unsigned nblocks;
    uint32_t *err_addrs;            /* sorted; pp_sim_set_addr_error */
    unsigned nerr, caperr;
    uint64_t now_ns;                /* deterministic mode */
    uint64_t start_ns;              /* real-time mode: CLOCK_MONOTONIC at creation */
    uint64_t held_ns;               /* real-time mode: target time while held, */
    bool held;                      /* pp_sim_hold_time (one in-process batch) */
    struct pp_sim_stats stats;
    /* Timed faults, sorted by at_ns; next_fault_ns is the first one's
     * time (UINT64_MAX: none), the one compare an access pays. */
    struct sim_fault *timed;
    unsigned ntimed, captimed;
    uint64_t next_fault_ns;
    struct pp_simjtag *dp;          /* the TAP over this sim, NULL if none */
};

/* soc.c */
uint64_t sim_now(struct pp_sim *sim);
/* Applies the timed faults that are due (fault.c); cheap when none is. */
void sim_fire_faults(struct pp_sim *sim, uint64_t now);
static inline void sim_poll_faults(struct pp_sim *sim)
{
    if (sim->next_fault_ns != UINT64_MAX) {
        uint64_t now = sim_now(sim);

        if (now >= sim->next_fault_ns)
            sim_fire_faults(sim, now);
    }
}
struct sim_core *sim_core_by_cpu(struct pp_sim *sim, unsigned cpu);

/* ids.c: CIDR/PIDR at 0xFD0-0xFFC; false if off is not one of them. */
bool sim_id_read(uint16_t part, uint8_t cls, uint32_t off, uint32_t *val);
int sim_cti_read(struct pp_sim *sim, const struct sim_core *c, uint32_t off, uint32_t *val);

/* romtable.c */
int sim_rom_read(struct pp_sim *sim, const struct sim_block *b, uint32_t off, uint32_t *val);

/* core.c */
void sim_core_init(struct sim_core *c, const struct pp_core_desc *d);
void sim_core_tick(struct sim_core *c, uint64_t now);
uint64_t sim_core_tau(const struct sim_core *c, uint64_t now);
void sim_core_set_power(struct sim_core *c, bool on, uint64_t now);
void sim_core_set_halted(struct sim_core *c, bool halted, uint64_t now);
bool sim_core_dlk(const struct sim_core *c);
bool sim_core_allow_pmu(const struct sim_core *c);
uint64_t sim_core_devaff(const struct sim_core *c);
uint32_t sim_core_authstatus(const struct sim_core *c);
uint32_t sim_core_edprsr(struct sim_core *c);

/* debug.c */
int sim_debug_read(struct pp_sim *sim, struct sim_core *c, uint32_t off, uint32_t *val);
int sim_debug_write(struct pp_sim *sim, struct sim_core *c, uint32_t off, uint32_t val);

/* pmu.c */
void sim_pmu_reset(struct sim_core *c, uint64_t tau);
int sim_pmu_read(struct pp_sim *sim, struct sim_core *c, uint32_t off, uint32_t *val);
int sim_pmu_write(struct pp_sim *sim, struct sim_core *c, uint32_t off, uint32_t val);

/* workload.c */
void sim_wl_init(struct sim_wl *wl, const struct pp_workload *w, unsigned cpu);
uint64_t sim_wl_signal(struct sim_wl *wl, unsigned sig, uint64_t tau);
struct sim_evfn sim_event_fn(const struct sim_core *c, uint16_t code);
void sim_counter_rebase(struct sim_core *c, unsigned i, uint64_t tau);
void sim_pmu_sync(struct sim_core *c, uint64_t tau);
void sim_pmu_sync_one(struct sim_core *c, unsigned i, uint64_t tau);
void sim_counter_add(struct sim_core *c, unsigned i, uint64_t d);
uint64_t sim_pc_sample(struct sim_core *c, uint64_t tau, uint32_t *cid);

#endif

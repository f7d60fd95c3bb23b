/*
 * target.h - a parsed target description (targets/NAME.target, documented in
 * man/pmuprobe-target.5).  The same description tells the tool what to
 * expect on a real board and builds the simulated SoC.
 */
#ifndef PP_TARGET_H
#define PP_TARGET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pmuprobe.h"
#include "link/jtagchain.h"
#include "pmu/coretype.h"

#define PP_MAX_CORES    64
#define PP_MAX_CLUSTERS 16

enum pp_time_mode {
    PP_TIME_DETERMINISTIC,   /* target time advances with bus activity */
    PP_TIME_REALTIME,        /* target time follows CLOCK_MONOTONIC */
};

/* Authentication signals (DBGAUTHSTATUS encoding follows from them). */
#define PP_AUTH_DBGEN   (1u << 0)
#define PP_AUTH_NIDEN   (1u << 1)
#define PP_AUTH_SPIDEN  (1u << 2)
#define PP_AUTH_SPNIDEN (1u << 3)
#define PP_AUTH_ALL     (PP_AUTH_DBGEN | PP_AUTH_NIDEN | PP_AUTH_SPIDEN | PP_AUTH_SPNIDEN)

/* State of a core when the simulated SoC starts (and what a real board is
 * expected to show). */
struct pp_core_init {
    bool     powered;        /* core power domain on */
    bool     oslock;         /* OS lock set (Cold reset value is locked) */
    bool     doublelock;     /* OS double lock set */
    bool     halted;         /* in Debug state */
    unsigned auth;           /* PP_AUTH_* signals that are high */
    bool     epmad;          /* MDCR_EL3.EPMAD: external PMU access disabled */
    int32_t  os_unlock_us;   /* simulated OS clears the OS lock this long
                              * after each power-up; -1 = never */
};

/* Simulated workload of one core.  Rates are per kilo-instruction (pki),
 * misses likewise (mpki); the simulator varies them per phase by up to
 * +-swing (fraction) with a seeded, deterministic sequence. */
struct pp_workload {
    double   clock_mhz;      /* core clock */
    double   ipc;            /* instructions per cycle */
    double   l1d_pki;        /* L1D accesses */
    double   l1d_mpki;       /* L1D refills */
    double   l1i_mpki;       /* L1I refills */
    double   l2d_pki;        /* L2 accesses */
    double   l2d_mpki;       /* L2 refills */
    double   br_pki;         /* branches retired */
    double   br_mpki;        /* branch mispredictions */
    double   tlb_mpki;       /* L1D TLB refills */
    double   stall_fe;       /* fraction of cycles stalled in the front end */
    double   stall_be;       /* fraction of cycles stalled in the back end */
    uint32_t phase_us;       /* length of one phase */
    double   swing;          /* per-phase variation, 0..0.9 */
    uint64_t seed;
};

/*
 * Where the simulated core reports other values than its type's tables
 * give (sim.* keys): a later revision or another part in MIDR, fewer or
 * more counters, an event missing from PMCEID or one no catalog knows.
 * All zero: the simulator follows the tables (a hand-built description
 * needs nothing here).  The tool never reads these: it keeps identifying
 * and checking against its own tables, as it must on a real board, so a
 * description can make the silicon disagree with them.
 */
struct pp_core_sim {
    bool     midr_set;
    uint32_t midr;                    /* debug+0xD00 */
    bool     counters_set;
    unsigned counters;                /* PMCFGR.N (PMUv2: PMCR.N too) */
    uint32_t pmceid_set[4];           /* PMCEID0..3 bits forced to 1 */
    uint32_t pmceid_clear[4];         /* and to 0 */
};

struct pp_core_desc {
    unsigned cpu;                     /* logical number: cpuN */
    unsigned cluster;                 /* index into pp_target.clusters */
    unsigned slot;                    /* position in the cluster ROM table */
    const struct pp_core_type *type;
    bool     type_auto;               /* the file said "type = auto" */
    uint32_t debug_base;
    uint32_t pmu_base;
    uint32_t cti_base;
    uint64_t mpidr;                   /* affinity, as EDDEVAFF/PMDEVAFF */
    bool     devaff_zero;             /* DEVAFF of its blocks reads 0 anyway */
    unsigned counters;                /* PMCFGR.N (default: core type) */
    bool     counter64;               /* 64-bit event counters (PMUv3p5) */
    bool     snapshot;                /* snapshot block present */
    bool     pcsample;                /* PC sampling present */
    struct pp_core_init init;
    struct pp_workload wl;
    struct pp_core_sim sim;           /* for the simulator only */
    unsigned line;                    /* where the section starts */
};

struct pp_cluster_desc {
    unsigned id;
    uint32_t rom_base;                /* this cluster's ROM table */
    uint8_t  rom_class;               /* 0x1 or 0x9 */
    uint16_t rom_part;                /* PIDR part of the ROM table */
    unsigned slots;                   /* core slots in the ROM table; slots
                                       * without a core read as not present */
};

/* dp = jtag | swd | swj (man/pmuprobe-target.5): a JTAG-DP (DPv1, the
 * default), a SW-DP (DPv2) or a SWJ-DP (DPv2) that answers JTAG until the
 * JTAG-to-SWD select sequence switches it (spec/arm-pmu-coresight.md 7.5). */
enum pp_dp_kind { PP_DP_JTAG, PP_DP_SWD, PP_DP_SWJ };

struct pp_target {
    char     name[64];
    char     description[160];
    char     path[256];               /* file it came from */
    uint32_t dp_idcode;               /* JTAG-DP IDCODE */
    enum pp_dp_kind dp_kind;          /* dp: the transports the DAP answers */
    uint32_t dp_targetid;             /* dp.targetid: DPv2 TARGETID (swd, swj) */
    struct pp_jtag_chain jtag;        /* jtag.chain: the TAPs around the DAP;
                                       * n == 0: not described (the simulator
                                       * serves the DAP alone) */
    unsigned ap_index;                /* APSEL of the APB-AP */
    uint32_t ap_idr;                  /* its IDR */
    uint32_t rom_base;                /* top-level ROM table (AP BASE) */
    uint8_t  rom_class;               /* 0x1 or 0x9 */
    uint16_t rom_part;
    enum pp_time_mode time_mode;
    bool     time_asked;              /* time_mode chosen by the caller (--sim-time),
                                       * not by the file: a timed fault is then
                                       * meant on that clock (pp_sim_check_fault_time) */
    uint32_t access_ns;               /* deterministic mode: time per access */
    unsigned nclusters;
    struct pp_cluster_desc clusters[PP_MAX_CLUSTERS];
    unsigned ncores;
    struct pp_core_desc cores[PP_MAX_CORES];   /* sorted by cpu */
};

/*
 * Parses a description.  On failure returns PP_E_PARSE (or PP_E_IO,
 * PP_E_NOMEM) and writes "FILE:LINE: what was found, what was expected"
 * into err.  name is used in messages (a path, or "<string>").
 */
int pp_target_parse(const char *text, const char *name, struct pp_target **out,
                    char *err, size_t errlen);
int pp_target_load(const char *path, struct pp_target **out, char *err, size_t errlen);
/* The same, with the types of the cores whose file says "type = auto":
 * types[cpu], or NULL where the generic PMUv3 core stands in. */
int pp_target_parse_ex(const char *text, const char *name,
                       const struct pp_core_type *const types[PP_MAX_CORES],
                       struct pp_target **out, char *err, size_t errlen);
int pp_target_load_ex(const char *path, const struct pp_core_type *const types[PP_MAX_CORES],
                      struct pp_target **out, char *err, size_t errlen);
/* Finds a target by name or path: an existing path is taken as is, else
 * NAME.target in $PMUPROBE_TARGETS, the source tree's targets/ and the
 * installed pkgdatadir.  Writes the path found into path. */
int pp_target_find(const char *name, char *path, size_t pathlen);
void pp_target_free(struct pp_target *t);
/* The core described as cpuN, or NULL. */
const struct pp_core_desc *pp_target_core(const struct pp_target *t, unsigned cpu);

#endif

/*
 * coretype.h - what pmuprobe knows about each Arm core type (internal).
 *
 * One row per core: MIDR part, architecture, PMU version, counter count,
 * CoreSight part numbers of its debug/PMU/CTI blocks and ROM table, and its
 * optional PMU features.  The simulator builds cores from these rows and the
 * identification code matches what a target reports against them.
 * Part numbers: spec/arm-pmu-coresight.md 5.4.
 */
#ifndef PP_CORETYPE_H
#define PP_CORETYPE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum pp_arch {
    PP_ARCH_V7,          /* Armv7-A: PMUv2 memory-mapped view */
    PP_ARCH_V8_0,        /* Armv8.0 debug, PMUv3 EXT32 */
    PP_ARCH_V8_2,        /* Armv8.2 debug (A55, A76, N1), PMUv3p1 */
};

struct pp_core_type {
    const char *name;        /* "cortex-a76": the key used in target files */
    const char *pretty;      /* "Cortex-A76" */
    uint8_t  implementer;    /* MIDR[31:24], 0x41 = Arm */
    uint16_t midr_part;      /* MIDR[15:4] */
    uint8_t  variant;        /* MIDR[23:20] of the modelled revision */
    uint8_t  revision;       /* MIDR[3:0] */
    enum pp_arch arch;
    uint8_t  pmu_version;    /* 2 = PMUv2 (Armv7), 3 = PMUv3 */
    bool     pmuv3p1;        /* PMCEID2/3 present (events 0x4000+) */
    uint8_t  counters;       /* PMCFGR.N / PMCR.N: event counters */
    uint16_t debug_part;     /* PIDR part numbers, designer Arm (0x23B) */
    uint16_t pmu_part;
    uint16_t cti_part;
    uint16_t rom_part;       /* the cluster's ROM table */
    uint32_t debug_devarch;  /* EDDEVARCH; 0 on Armv7 (no DEVARCH) */
    bool     snapshot;       /* IMP DEF snapshot block, capture at 0x6F0 */
    bool     pcsample;       /* FEAT_PCSRv8p2 PMPCSR at 0x200 */
    bool     double_lock;    /* FEAT_DoubleLock */
    const char *catalog;     /* event catalog key (pp_catalog_find) */
};

/* NULL-terminated by count: pp_core_types()[0..n). */
const struct pp_core_type *pp_core_types(unsigned *n);
/* The names of the known types, ", "-separated, for messages ("known:
 * cortex-a7, cortex-a9, ..."); cut at a whole name when len is short. */
void pp_core_type_names(char *buf, size_t len);
/* By name, case-insensitive, with or without "cortex-" ("a76", "Cortex-A76",
 * "neoverse-n1").  NULL if unknown. */
const struct pp_core_type *pp_core_type_find(const char *name);
/* The generic Armv8 PMUv3 core ("armv8-pmuv3"): what a core whose type
 * is not known yet is taken to be.  Found by pp_core_type_find, never by
 * MIDR or part number, and not in pp_core_types(). */
const struct pp_core_type *pp_core_type_generic(void);
/* By MIDR (implementer and part number fields).  NULL if unknown. */
const struct pp_core_type *pp_core_type_by_midr(uint32_t midr);
/* By the PIDR part number of a debug block.  NULL if unknown. */
const struct pp_core_type *pp_core_type_by_debug_part(uint16_t part);
/* The MIDR value a core of this type reports. */
uint32_t pp_core_type_midr(const struct pp_core_type *ct);
/* PMCFGR as the external view reports it (spec 1.3; PMUv2: SIZE=31).  The
 * counter width is not a parameter: PMUv3 reports SIZE=63 for both. */
uint32_t pp_core_type_pmcfgr(const struct pp_core_type *ct, unsigned counters, bool snapshot);

#endif

/*
 * regs.h - PMU and external debug register maps with field decoders
 * (internal).  Registers are data: name, block, offset, access, fields.
 * Facts: spec/arm-pmu-coresight.md 1 (PMUv3 EXT32), 3 (debug), 4 (PMUv2).
 */
#ifndef PP_REGS_H
#define PP_REGS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pmu/coretype.h"

enum pp_block { PP_BLK_PMU, PP_BLK_DEBUG };

enum pp_access { PP_RO = 1, PP_WO = 2, PP_RW = 3 };

#define PP_REGF_CORE      (1u << 0)  /* core power domain: errors when off/locked */
#define PP_REGF_READCLEAR (1u << 1)  /* read has side effects (EDPRSR, PMPCSR) */
#define PP_REGF_EPMAD     (1u << 2)  /* blocked by AllowExternalPMUAccess() */
#define PP_REGF_OSLK      (1u << 3)  /* blocked by the OS lock */
#define PP_REGF_SNAPSHOT  (1u << 4)  /* needs the snapshot feature */
#define PP_REGF_PCSAMPLE  (1u << 5)  /* needs PC sampling */
#define PP_REGF_V3P1      (1u << 6)  /* needs PMUv3p1 (PMCEID2/3) */
#define PP_REGF_HI64      (1u << 7)  /* high half of a 64-bit counter */

struct pp_field {
    const char *name;        /* "E", "SPD", "evtCount" */
    uint8_t lsb, width;
    const char *desc;        /* short meaning of the field, our words */
};

struct pp_reg {
    const char *name;        /* "PMCR", "PMEVCNTR" (indexed: count > 1) */
    enum pp_block block;
    uint16_t offset;         /* of index 0 */
    uint16_t stride;         /* bytes between indexed instances */
    uint8_t  count;          /* instances (1 = not indexed) */
    uint8_t  access;         /* enum pp_access */
    uint16_t flags;          /* PP_REGF_* */
    const struct pp_field *fields;
    size_t   nfields;
    const char *desc;
};

/* A resolved register: which map entry and which instance. */
struct pp_reg_ref {
    const struct pp_reg *reg;    /* never NULL after PP_OK from resolve; a raw
                                    offset no entry names gets a generic
                                    "pmu+offset"/"debug+offset" word (RW, no fields) */
    unsigned index;          /* instance for indexed names, else 0 */
    enum pp_block block;     /* block of the offset (also when reg is NULL) */
    uint16_t offset;         /* offset within its block */
    char     name[24];       /* "PMEVCNTR3", "PMCR", "pmu+0x600" */
};

/* The maps for a PMU version (2 or 3) / architecture. */
const struct pp_reg *pp_regs_pmu(unsigned pmu_version, size_t *n);
const struct pp_reg *pp_regs_debug(enum pp_arch arch, size_t *n);

/*
 * Resolves an Arm register name, case-insensitive ("pmcr", "PMEVCNTR3",
 * "PMEVTYPER0", "PMCCNTR" (low word), "PMCCNTR_HI", "EDPRSR", "OSLAR"), or
 * an offset written "pmu+0xE04" / "debug+0x314", for a core type.  Names
 * that do not exist on that core (PMCEID2 on PMUv2, PMEVCNTR7 with 6
 * counters) return PP_E_NOTFOUND.  counters: the core's PMCFGR.N (0: the
 * core type's default).  A name may carry a block prefix ("pmu.PMCR",
 * "debug.EDPRSR") and an "_EL0"/"_EL1" suffix.  ct NULL: PMUv3 and Armv8
 * debug maps with every optional feature.  A raw offset no entry names
 * resolves to a generic word (see pp_reg_ref.reg); a malformed one (not
 * word-aligned, >= 0x1000) returns PP_E_INVAL.
 */
int pp_reg_resolve(const struct pp_core_type *ct, unsigned counters,
                   const char *name, struct pp_reg_ref *out);
/* Finds the register at a block offset (for naming raw accesses).
 * PP_E_NOTFOUND leaves reg NULL and the name "pmu+0x600". */
int pp_reg_at(const struct pp_core_type *ct, unsigned counters, enum pp_block blk,
              uint16_t offset, struct pp_reg_ref *out);
/* Closest known names for "did you mean", up to max, best first. */
size_t pp_reg_suggest(const struct pp_core_type *ct, const char *name,
                      const char **out, size_t max);

/* Writes one line per field: "  E      [0]   = 1  enable"; a one-bit field
 * at 0 says what 1 would mean, "(1: enable)", not its meaning as a fact.
 * Returns the
 * length written (excluding the NUL); output is cut at len - 1 and always
 * NUL-terminated when len > 0. */
size_t pp_reg_decode(const struct pp_reg *reg, uint32_t val, char *buf, size_t len);
/* Field value by name; false if the register has no such field. */
bool pp_reg_field(const struct pp_reg *reg, const char *field, uint32_t val, uint32_t *out);
/* What field i of reg means at the value val gives it, where the spec
 * enumerates its values ("PMUv3", "enabled"); NULL when it does not. */
const char *pp_reg_field_meaning(const struct pp_reg *reg, size_t i, uint32_t val);
/*
 * The high word of the 64-bit counter whose low word lo is (the next
 * word, flagged PP_REGF_HI64 in the core's map: PMCCNTR on PMUv3,
 * PMEVCNTRn with FEAT_PMUv3p5), into hi; false when lo is not such a low
 * word (a high word itself, or a 32-bit register).
 */
bool pp_reg_high_word(const struct pp_core_type *ct, unsigned counters,
                      const struct pp_reg_ref *lo, struct pp_reg_ref *hi);

/* Frequently used offsets, spec 1.1 / 3 / 4.1. */
#define PP_PMU_PMEVCNTR_V3(n)   (0x000u + 8u * (n))
#define PP_PMU_PMEVCNTR_V2(n)   (0x000u + 4u * (n))
#define PP_PMU_PMCCNTR_V3       0x0F8u
#define PP_PMU_PMCCNTR_V2       0x07Cu
#define PP_PMU_PMPCSR           0x200u
#define PP_PMU_PMEVTYPER(n)     (0x400u + 4u * (n))
#define PP_PMU_PMCCFILTR        0x47Cu
#define PP_PMU_PMSSCR_IMPDEF    0x6F0u
#define PP_PMU_PMCNTENSET       0xC00u
#define PP_PMU_PMCNTENCLR       0xC20u
#define PP_PMU_PMINTENSET       0xC40u
#define PP_PMU_PMINTENCLR       0xC60u
#define PP_PMU_PMOVSCLR         0xC80u
#define PP_PMU_PMSWINC          0xCA0u
#define PP_PMU_PMOVSSET         0xCC0u
#define PP_PMU_PMCFGR           0xE00u
#define PP_PMU_PMCR             0xE04u
#define PP_PMU_PMCEID(n)        (0xE20u + 4u * (n))
#define PP_PMU_PMMIR            0xE40u
#define PP_PMU_PMDEVAFF0        0xFA8u
#define PP_PMU_PMLSR            0xFB4u
#define PP_PMU_PMAUTHSTATUS     0xFB8u
#define PP_PMU_PMDEVARCH        0xFBCu
#define PP_PMU_PMDEVID          0xFC8u
#define PP_PMU_PMDEVTYPE        0xFCCu

#define PP_DBG_EDSCR            0x088u
#define PP_DBG_OSLAR            0x300u
#define PP_DBG_OSLSR_V7         0x304u
#define PP_DBG_EDPRCR           0x310u
#define PP_DBG_EDPRSR           0x314u
#define PP_DBG_MIDR             0xD00u
#define PP_DBG_CLAIMSET         0xFA0u
#define PP_DBG_CLAIMCLR         0xFA4u
#define PP_DBG_EDDEVAFF0        0xFA8u
#define PP_DBG_AUTHSTATUS       0xFB8u
#define PP_DBG_EDDEVARCH        0xFBCu

/* EDPRSR bits, spec 3.1. */
#define PP_EDPRSR_PU     (1u << 0)
#define PP_EDPRSR_SPD    (1u << 1)
#define PP_EDPRSR_R      (1u << 2)
#define PP_EDPRSR_SR     (1u << 3)
#define PP_EDPRSR_HALTED (1u << 4)
#define PP_EDPRSR_OSLK   (1u << 5)
#define PP_EDPRSR_DLK    (1u << 6)
#define PP_EDPRSR_EDAD   (1u << 7)
#define PP_EDPRSR_SDAD   (1u << 8)
#define PP_EDPRSR_EPMAD  (1u << 9)
#define PP_EDPRSR_SPMAD  (1u << 10)
#define PP_EDPRSR_SDR    (1u << 11)

/* EDPRCR bits, spec 3.2: COREPURQ asks the power controller for core
 * power; the register is in the debug domain, so it takes a write with the
 * core off. */
#define PP_EDPRCR_COREPURQ (1u << 3)

/* PMSSCR (Cortex-A55/A76 snapshot, PP_PMU_PMSSCR_IMPDEF) bits: writing SS
 * captures every counter at once (spec/peers.md, PMU snapshot). */
#define PP_PMSSCR_SS (1u << 0)

/* PMCFGR.SS (spec 1.3): the PMU has a snapshot block, the architectural
 * FEAT_PMUv3_SS or an IMPLEMENTATION DEFINED one (spec 1.4). */
#define PP_PMCFGR_SS (1u << 22)

/* PMCR (external view) bits. */
#define PP_PMCR_E  (1u << 0)
#define PP_PMCR_P  (1u << 1)
#define PP_PMCR_C  (1u << 2)
#define PP_PMCR_LC (1u << 6)

#endif

/*
 * regs_pmu.c - the PMU block register maps as const data.
 *
 * PMUv3 FEAT_PMUv3_EXT32 view: spec/arm-pmu-coresight.md 1.1 (offsets,
 * access, which conditions block a register), 1.3 (fields), 1.4 (the IMP DEF
 * snapshot block of A55/A76).  PMUv2 (Armv7): spec 4.1.  Flags follow the
 * condition columns of 1.1: Domain Core -> PP_REGF_CORE, OSLK Error ->
 * PP_REGF_OSLK, EPMAD Error -> PP_REGF_EPMAD (spec 2.2: PMCEID too; not the
 * PC-sample group, the snapshot block or the 0xF00-0xFFC management regs).
 */
#include <stddef.h>

#include "pmu/regs_fields.h"

/* Registers that every counter-facing access condition blocks (spec 1.1). */
#define PMU_GATED (PP_REGF_CORE | PP_REGF_OSLK | PP_REGF_EPMAD)
/* The PC-sample group ignores EPMAD (spec 2.1, 2.2). */
#define PMU_PCS   (PP_REGF_CORE | PP_REGF_OSLK | PP_REGF_PCSAMPLE)
/* IMP DEF snapshot: errors only when core off or double-locked (spec 1.4). */
#define PMU_SNAP  (PP_REGF_CORE | PP_REGF_SNAPSHOT)

#define REG(...)  REG_IN(PP_BLK_PMU, __VA_ARGS__)
#define REG0(...) REG0_IN(PP_BLK_PMU, __VA_ARGS__)
#define REGN(nm, off, str, cnt, acc, fl, flds, nflds, d) \
    { .name = nm, .block = PP_BLK_PMU, .offset = off, .stride = str, .count = cnt, \
      .access = acc, .flags = fl, .fields = flds, .nfields = nflds, .desc = d }

/* --- fields shared by both PMU versions -------------------------------- */

/* PMCNTENSET/CLR, PMINTENSET/CLR, PMOVSCLR/SET, PMOVSSR: bit 31 is
 * the cycle counter, bit n < 31 event counter n (spec 1.1 notes). */
static const struct pp_field f_cntmask[] = {
    { "C", 31, 1,  "cycle counter PMCCNTR" },
    { "P", 0,  31, "event counters, bit n = PMEVCNTR<n>" },
};

/* PMSWINC has no cycle-counter bit: bit 31 is RES0. */
static const struct pp_field f_swinc[] = {
    { "P", 0, 31, "write 1: increment event counter n" },
};

/* The CoreSight ID block at 0xFD0-0xFFC, identical in both PMU versions. */
#define PMU_ID_REGS CS_ID_REGS(PP_BLK_PMU, "PM")

/* --- PMUv3 EXT32 fields ------------------------------------------------ */

/* spec 1.3 PMEVTYPER<n>_EL0[31:0]; evtCount 16 bits from v8.1. */
static const struct pp_field f_v3_evtyper[] = {
    { "P",        31, 1,  "don't count at EL1" },
    { "U",        30, 1,  "don't count at EL0" },
    { "NSK",      29, 1,  "non-secure EL1 filter (flips P)" },
    { "NSU",      28, 1,  "non-secure EL0 filter (flips U)" },
    { "NSH",      27, 1,  "count at EL2" },
    { "M",        26, 1,  "secure EL3 filter (flips P)" },
    { "MT",       25, 1,  "count events of all threads of the core" },
    { "SH",       24, 1,  "secure EL2 filter (flips NSH)" },
    { "evtCount", 0,  16, "event number" },
};

/* PMCCFILTR: the event-filter bits without MT and evtCount (spec 1.3). */
static const struct pp_field f_v3_ccfiltr[] = {
    { "P",   31, 1, "don't count cycles at EL1" },
    { "U",   30, 1, "don't count cycles at EL0" },
    { "NSK", 29, 1, "non-secure EL1 filter (flips P)" },
    { "NSU", 28, 1, "non-secure EL0 filter (flips U)" },
    { "NSH", 27, 1, "count cycles at EL2" },
    { "M",   26, 1, "secure EL3 filter (flips P)" },
    { "SH",  24, 1, "secure EL2 filter (flips NSH)" },
};

/* PMPCSR[63:32] as seen at 0x204 (spec 1.3: NS[63], EL[62:61], NSE[59]). */
static const struct pp_field f_pcsr_hi[] = {
    { "NS",       31, 1,  "sampled PC was non-secure" },
    { "EL",       29, 2,  "exception level of the sample" },
    { "NSE",      27, 1,  "security state extension (RME)" },
    { "PCSample", 0,  24, "sampled PC [55:32]" },
};

static const struct pp_field f_ssr[] = { { "NC", 0, 1, "no capture since warm reset" } };
static const struct pp_field f_sscr[] = { { "SS", 0, 1, "write 1 to capture a snapshot" } };

/* spec 1.3 PMCFGR. */
static const struct pp_field f_v3_cfgr[] = {
    { "NCG",  28, 4, "counter groups minus one" },
    { "SS",   22, 1, "snapshot supported" },
    { "FZO",  21, 1, "freeze-on-overflow supported" },
    { "UEN",  19, 1, "user enable register visible (RAZ on v8)" },
    { "WT",   18, 1, "wait-for-trigger (RAZ)" },
    { "NA",   17, 1, "no-access (RAZ)" },
    { "EX",   16, 1, "export supported (PMCR.X)" },
    { "CCD",  15, 1, "cycle counter divider supported (PMCR.D)" },
    { "CC",   14, 1, "dedicated cycle counter" },
    { "SIZE", 8,  6, "counter size minus one" },
    { "N",    0,  8, "event counters" },
};

/* spec 1.3 PMCR external view: [31:11] RAZ/WI, unlike the system register. */
static const struct pp_field f_v3_pmcr[] = {
    { "FZO", 9, 1, "freeze counters on overflow" },
    { "LP",  7, 1, "event counters overflow at bit 63" },
    { "LC",  6, 1, "cycle counter overflows at bit 63" },
    { "DP",  5, 1, "cycle counter off where counting is prohibited" },
    { "X",   4, 1, "export events" },
    { "D",   3, 1, "cycle counter counts every 64th cycle" },
    { "C",   2, 1, "write 1: zero the cycle counter (reads 0)" },
    { "P",   1, 1, "write 1: zero the event counters (reads 0)" },
    { "E",   0, 1, "enable all counters" },
};

static const struct pp_field f_iidr[] = {
    { "ProductID",   20, 12, "product part number" },
    { "Variant",     16, 4,  "product variant" },
    { "Revision",    12, 4,  "product revision" },
    { "Implementer", 0,  12, "JEP106 code of the implementer" },
};

static const struct pp_field f_mmir[] = {
    { "SME",     28, 1, "SME events present" },
    { "EDGE",    24, 4, "edge-counting support" },
    { "THWIDTH", 20, 4, "threshold width" },
    { "SLOTS",   0,  8, "operation slots per cycle" },
};

static const struct pp_field f_v3_devid[] = {
    { "EXTPMN",   8, 4, "PMCCR.EPMN support" },
    { "PMSS",     4, 4, "architectural snapshot support" },
    { "PCSample", 0, 4, "PC sampling in this block" },
};

static const struct pp_reg pmu_v3[] = {
    REGN("PMEVCNTR", 0x000, 8, 31, PP_RW, PMU_GATED, NULL, 0,
         "event counter, low word"),
    REGN("PMEVCNTR_HI", 0x004, 8, 31, PP_RW, PMU_GATED | PP_REGF_HI64, NULL, 0,
         "event counter, high word (FEAT_PMUv3p5 64-bit counters)"),
    REG0("PMCCNTR",    0x0F8, PP_RW, PMU_GATED, "cycle counter, low word"),
    REG0("PMCCNTR_HI", 0x0FC, PP_RW, PMU_GATED | PP_REGF_HI64, "cycle counter, high word"),
    REG0("PMPCSR",     0x200, PP_RO, PMU_PCS | PP_REGF_READCLEAR,
         "sampled PC, low word; a read takes a new sample"),
    REG("PMPCSR_HI",   0x204, PP_RO, PMU_PCS, f_pcsr_hi, "sampled PC, high word (no new sample)"),
    REG0("PMCID1SR",   0x208, PP_RO, PMU_PCS, "CONTEXTIDR_EL1 at the last sample"),
    REG0("PMVIDSR",    0x20C, PP_RO, PMU_PCS, "VMID at the last sample"),
    REG0("PMCID2SR",   0x22C, PP_RO, PMU_PCS, "CONTEXTIDR_EL2 at the last sample"),
    REGN("PMEVTYPER", 0x400, 4, 31, PP_RW, PMU_GATED, f_v3_evtyper, NELEM(f_v3_evtyper),
         "event type and filter of a counter"),
    REG("PMCCFILTR",   0x47C, PP_RW, PMU_GATED, f_v3_ccfiltr, "cycle counter filter"),
    /* IMP DEF snapshot block of A55/A76 (spec 1.4, TRM Table D7-1). */
    REG0("PMPCSSR_LO", 0x600, PP_RO, PMU_SNAP, "snapshot of the PC sample, low word"),
    REG0("PMPCSSR_HI", 0x604, PP_RO, PMU_SNAP, "snapshot of the PC sample, high word"),
    REG("PMSSSR",      0x610, PP_RO, PMU_SNAP, f_ssr, "snapshot status"),
    REG("PMOVSSR",     0x614, PP_RO, PMU_SNAP, f_cntmask, "snapshot of the overflow flags"),
    REG0("PMCCNTSR_LO", 0x618, PP_RO, PMU_SNAP, "snapshot of the cycle counter, low word"),
    REG0("PMCCNTSR_HI", 0x61C, PP_RO, PMU_SNAP, "snapshot of the cycle counter, high word"),
    REGN("PMEVCNTSR", 0x620, 4, 6, PP_RO, PMU_SNAP, NULL, 0, "snapshot of an event counter"),
    REG("PMSSCR",      0x6F0, PP_WO, PMU_SNAP, f_sscr, "snapshot capture control"),
    REG("PMCNTENSET",  0xC00, PP_RW, PMU_GATED, f_cntmask, "counter enables (write 1 to set)"),
    REG("PMCNTENCLR",  0xC20, PP_RW, PMU_GATED, f_cntmask, "counter enables (write 1 to clear)"),
    REG("PMINTENSET",  0xC40, PP_RW, PMU_GATED, f_cntmask, "overflow interrupt enables (write 1 to set)"),
    REG("PMINTENCLR",  0xC60, PP_RW, PMU_GATED, f_cntmask, "overflow interrupt enables (write 1 to clear)"),
    REG("PMOVSCLR",    0xC80, PP_RW, PMU_GATED, f_cntmask, "overflow flags (write 1 to clear)"),
    REG("PMSWINC",     0xCA0, PP_WO, PMU_GATED, f_swinc, "software increment (optional in EXT32)"),
    REG("PMOVSSET",    0xCC0, PP_RW, PMU_GATED, f_cntmask, "overflow flags (write 1 to set)"),
    REG("PMCFGR",      0xE00, PP_RO, PMU_GATED, f_v3_cfgr, "PMU configuration"),
    REG("PMCR",        0xE04, PP_RW, PMU_GATED, f_v3_pmcr,
        "PMU control, external view: [31:11] RAZ/WI, read PMCFGR.N for the counter count"),
    REG("PMIIDR",      0xE08, PP_RO, PMU_GATED, f_iidr, "implementation ID (optional; RES0 on v8.0)"),
    REG0("PMCEID0",    0xE20, PP_RO, PMU_GATED, "common events 0x00-0x1F implemented"),
    REG0("PMCEID1",    0xE24, PP_RO, PMU_GATED, "common events 0x20-0x3F implemented"),
    REG0("PMCEID2",    0xE28, PP_RO, PMU_GATED | PP_REGF_V3P1, "common events 0x4000-0x401F implemented"),
    REG0("PMCEID3",    0xE2C, PP_RO, PMU_GATED | PP_REGF_V3P1, "common events 0x4020-0x403F implemented"),
    REG("PMMIR",       0xE40, PP_RO, PMU_GATED, f_mmir, "machine identification (FEAT_PMUv3p4)"),
    REG("PMDEVAFF0",   0xFA8, PP_RO, 0, pp_f_devaff0, "MPIDR_EL1[31:0] of the core"),
    REG("PMDEVAFF1",   0xFAC, PP_RO, 0, pp_f_devaff1, "MPIDR_EL1[63:32] of the core"),
    REG0("PMLAR",      0xFB0, PP_WO, 0, "software lock: write 0xC5ACCE55 to unlock"),
    REG("PMLSR",       0xFB4, PP_RO, 0, pp_f_lsr, "software lock status"),
    REG("PMAUTHSTATUS", 0xFB8, PP_RO, 0, pp_f_authstatus, "authentication status"),
    REG("PMDEVARCH",   0xFBC, PP_RO, 0, pp_f_devarch, "device architecture (0x47702A16)"),
    REG("PMDEVID",     0xFC8, PP_RO, 0, f_v3_devid, "device ID (v8.2 and later)"),
    REG("PMDEVTYPE",   0xFCC, PP_RO, 0, pp_f_devtype, "device type (0x16)"),
    PMU_ID_REGS,
};

/* --- PMUv2 (Armv7) fields ---------------------------------------------- */

/* PMXEVTYPER with the Security/Virtualization filter bits; evtCount is 8 bits
 * in Armv7 (Armv7 ARM C12; not in the spec - UNCONFIRMED per core). */
static const struct pp_field f_v2_evtyper[] = {
    { "P",        31, 1, "don't count in PL1" },
    { "U",        30, 1, "don't count in PL0" },
    { "NSK",      29, 1, "non-secure PL1 filter (flips P)" },
    { "NSU",      28, 1, "non-secure PL0 filter (flips U)" },
    { "NSH",      27, 1, "count in Hyp mode" },
    { "evtCount", 0,  8, "event number" },
};

static const struct pp_field f_v2_ccfiltr[] = {
    { "P",   31, 1, "don't count cycles in PL1" },
    { "U",   30, 1, "don't count cycles in PL0" },
    { "NSK", 29, 1, "non-secure PL1 filter (flips P)" },
    { "NSU", 28, 1, "non-secure PL0 filter (flips U)" },
    { "NSH", 27, 1, "count cycles in Hyp mode" },
};

/* PMCFGR without the v8 additions (NCG, SS, FZO); SIZE = 31 (spec 4.1). */
static const struct pp_field f_v2_cfgr[] = {
    { "UEN",  19, 1, "user enable register visible" },
    { "WT",   18, 1, "wait-for-trigger supported" },
    { "NA",   17, 1, "no-access supported" },
    { "EX",   16, 1, "export supported (PMCR.X)" },
    { "CCD",  15, 1, "cycle counter divider supported (PMCR.D)" },
    { "CC",   14, 1, "dedicated cycle counter" },
    { "SIZE", 8,  6, "counter size minus one" },
    { "N",    0,  8, "event counters" },
};

/* On Armv7 the memory-mapped PMCR is taken to mirror the CP15 register,
 * IMP/IDCODE/N included.  UNCONFIRMED: spec 4.1 gives the offset only;
 * Armv8 made [31:11] RAZ externally (spec 1.3), v7 TRMs do not say. */
static const struct pp_field f_v2_pmcr[] = {
    { "IMP",    24, 8, "implementer code" },
    { "IDCODE", 16, 8, "PMU identification code" },
    { "N",      11, 5, "event counters" },
    { "DP",     5,  1, "cycle counter off where counting is prohibited" },
    { "X",      4,  1, "export events" },
    { "D",      3,  1, "cycle counter counts every 64th cycle" },
    { "C",      2,  1, "write 1: zero the cycle counter" },
    { "P",      1,  1, "write 1: zero the event counters" },
    { "E",      0,  1, "enable all counters" },
};

static const struct pp_field f_v2_userenr[] = {
    { "EN", 0, 1, "user mode may access the PMU" },
};

/* Armv7 PMU: core-domain registers error when the core is off (spec 4.3);
 * whether the OS Lock blocks them is UNCONFIRMED, so no PP_REGF_OSLK, and
 * AllowExternalPMUAccess is an Armv8 notion, so no PP_REGF_EPMAD. */
#define PMU_V2 PP_REGF_CORE

static const struct pp_reg pmu_v2[] = {
    REGN("PMEVCNTR", 0x000, 4, 31, PP_RW, PMU_V2, NULL, 0, "event counter (32-bit)"),
    REG0("PMCCNTR",    0x07C, PP_RW, PMU_V2, "cycle counter (32-bit)"),
    REGN("PMEVTYPER", 0x400, 4, 31, PP_RW, PMU_V2, f_v2_evtyper, NELEM(f_v2_evtyper),
         "event type and filter of a counter (PMXEVTYPER)"),
    REG("PMCCFILTR",   0x47C, PP_RW, PMU_V2, f_v2_ccfiltr, "cycle counter filter (PMXEVTYPER31)"),
    REG("PMCNTENSET",  0xC00, PP_RW, PMU_V2, f_cntmask, "counter enables (write 1 to set)"),
    REG("PMCNTENCLR",  0xC20, PP_RW, PMU_V2, f_cntmask, "counter enables (write 1 to clear)"),
    REG("PMINTENSET",  0xC40, PP_RW, PMU_V2, f_cntmask, "overflow interrupt enables (write 1 to set)"),
    REG("PMINTENCLR",  0xC60, PP_RW, PMU_V2, f_cntmask, "overflow interrupt enables (write 1 to clear)"),
    REG("PMOVSR",      0xC80, PP_RW, PMU_V2, f_cntmask, "overflow flags (write 1 to clear)"),
    REG("PMSWINC",     0xCA0, PP_WO, PMU_V2, f_swinc, "software increment"),
    REG("PMOVSSET",    0xCC0, PP_RW, PMU_V2, f_cntmask, "overflow flags (write 1 to set)"),
    REG("PMCFGR",      0xE00, PP_RO, PMU_V2, f_v2_cfgr, "PMU configuration"),
    REG("PMCR",        0xE04, PP_RW, PMU_V2, f_v2_pmcr, "PMU control"),
    REG("PMUSERENR",   0xE08, PP_RW, PMU_V2, f_v2_userenr, "user enable"),
    REG0("PMCEID0",    0xE20, PP_RO, PMU_V2, "common events 0x00-0x1F implemented"),
    REG0("PMCEID1",    0xE24, PP_RO, PMU_V2, "common events 0x20-0x3F implemented"),
    REG0("PMLAR",      0xFB0, PP_WO, 0, "software lock: write 0xC5ACCE55 to unlock"),
    REG("PMLSR",       0xFB4, PP_RO, 0, pp_f_lsr, "software lock status"),
    REG("PMAUTHSTATUS", 0xFB8, PP_RO, 0, pp_f_authstatus, "authentication status"),
    REG("PMDEVTYPE",   0xFCC, PP_RO, 0, pp_f_devtype, "device type (0x16)"),
    PMU_ID_REGS,
};

const struct pp_reg *pp_regs_pmu(unsigned pmu_version, size_t *n)
{
    if (pmu_version == 3) {
        *n = NELEM(pmu_v3);
        return pmu_v3;
    }
    if (pmu_version == 2) {
        *n = NELEM(pmu_v2);
        return pmu_v2;
    }
    *n = 0;
    return NULL;
}

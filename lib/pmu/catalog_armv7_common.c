/*
 * catalog_armv7_common.c - ARMv7 common PMU event catalog (PMUv2).
 *
 * Source: ARM-software/data commit 6aeb4c89, pmu/common_armv7.json.  Codes,
 * mnemonics, types, flags, components and bus positions are that data's
 * facts; the descriptions are our own words.  Generated once from the data,
 * then kept by hand: this file is the source of truth.  Row layout: see EV()
 * in catalog_tables.h.
 *
 * Only 0x00-0x3F: the data's ARMv7 "recommended" 0x40-0x8F meanings are
 * implementation defined and some cores (Cortex-A9) reuse those numbers
 * for other events, so a per-core table is the only safe source above 0x3F.
 */
#include "pmu/catalog_tables.h"

static const struct pp_event events[] = {
    EV(0x0000, "SW_INCR",                INS,   FL_A,    NONE,    -1, 0,  -1, "Software increment: write of this counter's bit to PMSWINC"),
    EV(0x0001, "L1I_CACHE_REFILL",       UEVT,  FL_NONE, L1I,     -1, 0,  -1, "Instruction fetch that missed the L1 instruction cache"),
    EV(0x0002, "L1I_TLB_REFILL",         UEVT,  FL_NONE, L1ITLB,  -1, 0,  -1, "Instruction fetch that missed the L1 instruction TLB"),
    EV(0x0003, "L1D_CACHE_REFILL",       UEVT,  FL_NONE, L1D,     -1, 0,  -1, "Data access that missed the L1 data cache, line refilled"),
    EV(0x0004, "L1D_CACHE",              UEVT,  FL_NONE, L1D,     -1, 0,  -1, "Data access that looked up the L1 data cache"),
    EV(0x0005, "L1D_TLB_REFILL",         UEVT,  FL_NONE, L1DTLB,  -1, 0,  -1, "Data access that missed the L1 data TLB"),
    EV(0x0006, "LD_RETIRED",             INS,   FL_A,    NONE,    -1, 0,  -1, "Load instruction architecturally executed"),
    EV(0x0007, "ST_RETIRED",             INS,   FL_A,    NONE,    -1, 0,  -1, "Store instruction architecturally executed"),
    EV(0x0008, "INST_RETIRED",           INS,   FL_A,    NONE,    -1, 0,  -1, "Instruction architecturally executed (retired)"),
    EV(0x0009, "EXC_TAKEN",              EXC,   FL_A,    NONE,    -1, 0,  -1, "Exception taken, any kind"),
    EV(0x000A, "EXC_RETURN",             EXC,   FL_A,    NONE,    -1, 0,  -1, "Exception return instruction architecturally executed"),
    EV(0x000B, "CID_WRITE_RETIRED",      INS,   FL_A,    NONE,    -1, 0,  -1, "Write to CONTEXTIDR architecturally executed"),
    EV(0x000C, "PC_WRITE_RETIRED",       INS,   FL_A,    NONE,    -1, 0,  -1, "Software write to the PC architecturally executed"),
    EV(0x000D, "BR_IMMED_RETIRED",       INS,   FL_A,    NONE,    -1, 0,  -1, "Immediate branch architecturally executed, taken or not"),
    EV(0x000E, "BR_RETURN_RETIRED",      INS,   FL_A,    NONE,    -1, 0,  -1, "Procedure return architecturally executed"),
    EV(0x000F, "UNALIGNED_LDST_RETIRED", INS,   FL_A,    NONE,    -1, 0,  -1, "Unaligned load or store architecturally executed"),
    EV(0x0010, "BR_MIS_PRED",            UEVT,  FL_NONE, BPU,     -1, 0,  -1, "Branch mispredicted or not predicted (speculative count)"),
    EV(0x0011, "CPU_CYCLES",             CYCLE, FL_NONE, NONE,    -1, 0,  -1, "Processor clock cycle"),
    EV(0x0012, "BR_PRED",                UEVT,  FL_NONE, BPU,     -1, 0,  -1, "Branch the predictor could handle (speculative count)"),
    EV(0x0013, "MEM_ACCESS",             UEVT,  FL_NONE, NONE,    -1, 0,  -1, "Data memory access by a load or store"),
    EV(0x0014, "L1I_CACHE",              UEVT,  FL_NONE, L1I,     -1, 0,  -1, "Instruction fetch that looked up the L1 instruction cache"),
    EV(0x0015, "L1D_CACHE_WB",           UEVT,  FL_NONE, L1D,     -1, 0,  -1, "Line written back from the L1 data cache"),
    EV(0x0016, "L2D_CACHE",              UEVT,  FL_NONE, L2,      -1, 0,  -1, "Access to the L2 data or unified cache"),
    EV(0x0017, "L2D_CACHE_REFILL",       UEVT,  FL_NONE, L2,      -1, 0,  -1, "L2 data or unified cache refill from beyond L2"),
    EV(0x0018, "L2D_CACHE_WB",           UEVT,  FL_NONE, L2,      -1, 0,  -1, "Line written back from the L2 cache"),
    EV(0x0019, "BUS_ACCESS",             UEVT,  FL_NONE, BUS,     -1, 0,  -1, "Data transfer on the core's external bus interface"),
    EV(0x001A, "MEMORY_ERROR",           UEVT,  FL_NONE, NONE,    -1, 0,  -1, "Correctable or uncorrectable error in a local RAM"),
    EV(0x001B, "INST_SPEC",              UEVT,  FL_NONE, NONE,    -1, 0,  -1, "Operation executed speculatively"),
    EV(0x001C, "TTBR_WRITE_RETIRED",     INS,   FL_A,    NONE,    -1, 0,  -1, "Write to a translation table base register retired"),
    EV(0x001D, "BUS_CYCLES",             UEVT,  FL_NONE, BUS,     -1, 0,  -1, "Clock cycle of the external bus interface"),
};

const struct pp_catalog pp_catalog_armv7_common = {
    .key = "armv7-common",
    .pretty = "ARMv7 common",
    .pmu_version = 2,
    .events = events,
    .n = sizeof(events) / sizeof(events[0]),
    .common = NULL,
};

/*
 * catalog_cortex_a7.c - Cortex-A7 PMU event catalog (PMUv2).
 *
 * Source: ARM-software/data commit 6aeb4c89, pmu/cortex-a7.json.  Codes,
 * mnemonics, types, flags, components and bus positions are that data's
 * facts; the descriptions are our own words.  Generated once from the data,
 * then kept by hand: this file is the source of truth.  Row layout: see EV()
 * in catalog_tables.h.
 *
 * Mnemonics for 0xC0-0xCA are ours (the data has none).  PMUEVENT bit
 * positions checked against seed 001 (Cortex-A7 TRM table 11.5): every row
 * agrees with the data, including "-" (no bus bit) for 0x00, 0x11, 0x16-0x19,
 * 0x1D, 0x60, 0x61, 0xC7, 0xC8 and 0xCA.  0xC6 is listed by both as
 * "reserved" yet has bus bit 28, so it is kept under a neutral mnemonic.
 */
#include "pmu/catalog_tables.h"

static const struct pp_event events[] = {
    EV(0x0000, "SW_INCR",                UEVT,  FL_A,    NONE,    -1, 0,  -1, "Software increment: write of this counter's bit to PMSWINC"),
    EV(0x0001, "L1I_CACHE_REFILL",       UEVT,  FL_NONE, L1I,      0, 1,   0, "Instruction fetch that missed the L1 instruction cache"),
    EV(0x0002, "L1I_TLB_REFILL",         UEVT,  FL_NONE, L1ITLB,   1, 1,   1, "Instruction fetch that missed the L1 instruction TLB"),
    EV(0x0003, "L1D_CACHE_REFILL",       UEVT,  FL_NONE, L1D,      2, 1,   2, "Data access that missed the L1 data cache, line refilled"),
    EV(0x0004, "L1D_CACHE",              UEVT,  FL_NONE, L1D,      3, 1,   3, "Data access that looked up the L1 data cache"),
    EV(0x0005, "L1D_TLB_REFILL",         UEVT,  FL_NONE, L1DTLB,   4, 1,   4, "Data access that missed the L1 data TLB"),
    EV(0x0006, "LD_RETIRED",             INS,   FL_NONE, NONE,     5, 1,   5, "Load instruction architecturally executed"),
    EV(0x0007, "ST_RETIRED",             INS,   FL_NONE, NONE,     6, 1,   6, "Store instruction architecturally executed"),
    EV(0x0008, "INST_RETIRED",           INS,   FL_A,    NONE,     7, 1,   7, "Instruction architecturally executed (retired)"),
    EV(0x0009, "EXC_TAKEN",              EXC,   FL_A,    NONE,     8, 1,   8, "Exception taken, any kind"),
    EV(0x000A, "EXC_RETURN",             EXC,   FL_A,    NONE,     9, 1,   9, "Exception return instruction architecturally executed"),
    EV(0x000B, "CID_WRITE_RETIRED",      INS,   FL_A,    NONE,    10, 1,  10, "Write to CONTEXTIDR architecturally executed"),
    EV(0x000C, "PC_WRITE_RETIRED",       UEVT,  FL_A,    NONE,    11, 1,  11, "Software write to the PC architecturally executed"),
    EV(0x000D, "BR_IMMED_RETIRED",       UEVT,  FL_A,    NONE,    12, 1,  12, "Immediate branch architecturally executed, taken or not"),
    EV(0x000E, "BR_RETURN_RETIRED",      EXC,   FL_A,    NONE,    13, 1,  13, "Procedure return architecturally executed"),
    EV(0x000F, "UNALIGNED_LDST_RETIRED", UEVT,  FL_A,    NONE,    14, 1,  14, "Unaligned load or store architecturally executed"),
    EV(0x0010, "BR_MIS_PRED",            UEVT,  FL_NONE, BPU,     15, 1,  15, "Branch mispredicted or not predicted (speculative count)"),
    EV(0x0011, "CPU_CYCLES",             CYCLE, FL_NONE, NONE,    -1, 0,  -1, "Processor clock cycle"),
    EV(0x0012, "BR_PRED",                UEVT,  FL_NONE, BPU,     16, 1,  16, "Branch the predictor could handle (speculative count)"),
    EV(0x0013, "MEM_ACCESS",             UEVT,  FL_NONE, NONE,    17, 1,  17, "Data memory access by a load or store"),
    EV(0x0014, "L1I_CACHE",              INS,   FL_NONE, L1I,     18, 1,  18, "Instruction fetch that looked up the L1 instruction cache"),
    EV(0x0015, "L1D_CACHE_WB",           UEVT,  FL_NONE, L1D,     19, 1,  19, "Line written back from the L1 data cache"),
    EV(0x0016, "L2D_CACHE",              UEVT,  FL_NONE, L2,      -1, 0,  -1, "Access to the L2 data or unified cache"),
    EV(0x0017, "L2D_CACHE_REFILL",       UEVT,  FL_NONE, L2,      -1, 0,  -1, "L2 data or unified cache refill from beyond L2"),
    EV(0x0018, "L2D_CACHE_WB",           UEVT,  FL_NONE, L2,      -1, 0,  -1, "Line written back from the L2 cache"),
    EV(0x0019, "BUS_ACCESS",             UEVT,  FL_NONE, BUS,     -1, 0,  -1, "Data transfer on the core's external bus interface"),
    EV(0x001D, "BUS_CYCLES",             UEVT,  FL_NONE, BUS,     -1, 0,  -1, "Clock cycle of the external bus interface"),
    EV(0x0060, "BUS_ACCESS_RD",          UEVT,  FL_IR,   BUS,     -1, 0,  -1, "Read transfer on the external bus interface"),
    EV(0x0061, "BUS_ACCESS_WR",          UEVT,  FL_IR,   BUS,     -1, 0,  -1, "Write transfer on the external bus interface"),
    EV(0x0086, "EXC_IRQ",                EXC,   FL_AIR,  NONE,    20, 1,  20, "IRQ interrupt taken"),
    EV(0x0087, "EXC_FIQ",                EXC,   FL_AIR,  NONE,    21, 1,  21, "FIQ interrupt taken"),
    EV(0x00C0, "EXT_MEM_REQ",            UEVT,  FL_I,    NONE,    22, 1,  22, "Request sent to external memory"),
    EV(0x00C1, "EXT_MEM_REQ_NC",         UEVT,  FL_I,    NONE,    23, 1,  23, "Non-cacheable request sent to external memory"),
    EV(0x00C2, "PREFETCH_LINEFILL",      UEVT,  FL_I,    NONE,    24, 1,  24, "Linefill started by the data prefetcher"),
    EV(0x00C3, "PREFETCH_LINEFILL_DROP", UEVT,  FL_I,    NONE,    25, 1,  25, "Prefetch linefill abandoned"),
    EV(0x00C4, "READ_ALLOC_ENTER",       UEVT,  FL_I,    NONE,    26, 1,  26, "Entry into read-allocate (write streaming) mode"),
    EV(0x00C5, "READ_ALLOC",             UEVT,  FL_I,    NONE,    27, 1,  27, "Activity while in read-allocate mode"),
    EV(0x00C6, "RESERVED_C6",            UEVT,  FL_I,    NONE,    28, 1,  28, "Reserved number with a PMUEVENT bit; no defined meaning"),
    EV(0x00C7, "ETM_EXT_OUT0",           ETM,   FL_I,    NONE,    -1, 0,  -1, "Trace unit external output 0"),
    EV(0x00C8, "ETM_EXT_OUT1",           ETM,   FL_I,    NONE,    -1, 0,  -1, "Trace unit external output 1"),
    EV(0x00C9, "STALL_SB_FULL",          UEVT,  FL_I,    NONE,    29, 1,  29, "Pipeline stall on a data write: store buffer full"),
    EV(0x00CA, "EXT_SNOOP",              UEVT,  FL_I,    L2,      -1, 0,  -1, "Read served by another core in the cluster, per transaction"),
};

const struct pp_catalog pp_catalog_cortex_a7 = {
    .key = "cortex-a7",
    .pretty = "Cortex-A7",
    .pmu_version = 2,
    .events = events,
    .n = sizeof(events) / sizeof(events[0]),
    .common = &pp_catalog_armv7_common,
};

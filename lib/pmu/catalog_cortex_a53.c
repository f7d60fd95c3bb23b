/*
 * catalog_cortex_a53.c - Cortex-A53 PMU event catalog (PMUv3).
 *
 * Source: ARM-software/data commit 6aeb4c89, pmu/cortex-a53.json.  Codes,
 * mnemonics, types, flags, components and bus positions are that data's
 * facts; the descriptions are our own words.  Generated once from the data,
 * then kept by hand: this file is the source of truth.  Row layout: see EV()
 * in catalog_tables.h.
 *
 * Mnemonics for 0xC0-0xE8 are ours (TRM names where the TRM has them).
 * Mnemonics are the data's architectural `name`; where the TRM spells one
 * differently (`trm_name`) we keep the architectural spelling.
 */
#include "pmu/catalog_tables.h"

static const struct pp_event events[] = {
    EV(0x0000, "SW_INCR",                  UEVT,  FL_A,    NONE,    -1, 0,  -1, "Software increment: write of this counter's bit to PMSWINC"),
    EV(0x0001, "L1I_CACHE_REFILL",         UEVT,  FL_NONE, L1I,      0, 1,   0, "Instruction fetch that missed the L1 instruction cache"),
    EV(0x0002, "L1I_TLB_REFILL",           UEVT,  FL_NONE, L1ITLB,   1, 1,   1, "Instruction fetch that missed the L1 instruction TLB"),
    EV(0x0003, "L1D_CACHE_REFILL",         UEVT,  FL_NONE, L1D,      2, 1,   2, "Data access that missed the L1 data cache, line refilled"),
    EV(0x0004, "L1D_CACHE",                UEVT,  FL_NONE, L1D,      3, 1,   3, "Data access that looked up the L1 data cache"),
    EV(0x0005, "L1D_TLB_REFILL",           UEVT,  FL_NONE, L1DTLB,   4, 1,   4, "Data access that missed the L1 data TLB"),
    EV(0x0006, "LD_RETIRED",               INS,   FL_A,    NONE,     5, 1,   5, "Load instruction architecturally executed"),
    EV(0x0007, "ST_RETIRED",               INS,   FL_A,    NONE,     6, 1,   6, "Store instruction architecturally executed"),
    EV(0x0008, "INST_RETIRED",             INS,   FL_A,    NONE,     7, 1,   7, "Instruction architecturally executed (retired)"),
    EV(0x0009, "EXC_TAKEN",                EXC,   FL_A,    NONE,     9, 1,   9, "Exception taken, any kind"),
    EV(0x000A, "EXC_RETURN",               EXC,   FL_A,    NONE,    10, 1,  10, "Exception return instruction architecturally executed"),
    EV(0x000B, "CID_WRITE_RETIRED",        UEVT,  FL_A,    NONE,    11, 1,  11, "Write to CONTEXTIDR architecturally executed"),
    EV(0x000C, "PC_WRITE_RETIRED",         INS,   FL_A,    NONE,    12, 1,  12, "Software write to the PC architecturally executed"),
    EV(0x000D, "BR_IMMED_RETIRED",         INS,   FL_A,    NONE,    13, 1,  13, "Immediate branch architecturally executed, taken or not"),
    EV(0x000E, "BR_RETURN_RETIRED",        INS,   FL_A,    NONE,    -1, 0,  -1, "Procedure return architecturally executed"),
    EV(0x000F, "UNALIGNED_LDST_RETIRED",   INS,   FL_A,    NONE,    14, 1,  14, "Unaligned load or store architecturally executed"),
    EV(0x0010, "BR_MIS_PRED",              UEVT,  FL_NONE, BPU,     15, 1,  15, "Branch mispredicted or not predicted (speculative count)"),
    EV(0x0011, "CPU_CYCLES",               CYCLE, FL_NONE, NONE,    -1, 0,  -1, "Processor clock cycle"),
    EV(0x0012, "BR_PRED",                  UEVT,  FL_NONE, BPU,     16, 1,  16, "Branch the predictor could handle (speculative count)"),
    EV(0x0013, "MEM_ACCESS",               UEVT,  FL_NONE, NONE,    17, 1,  17, "Data memory access by a load or store"),
    EV(0x0014, "L1I_CACHE",                UEVT,  FL_NONE, L1I,     18, 1,  18, "Instruction fetch that looked up the L1 instruction cache"),
    EV(0x0015, "L1D_CACHE_WB",             UEVT,  FL_NONE, L1D,     19, 1,  19, "Line written back from the L1 data cache"),
    EV(0x0016, "L2D_CACHE",                UEVT,  FL_NONE, L2,      20, 1,  20, "Access to the L2 data or unified cache"),
    EV(0x0017, "L2D_CACHE_REFILL",         UEVT,  FL_NONE, L2,      21, 1,  21, "L2 data or unified cache refill from beyond L2"),
    EV(0x0018, "L2D_CACHE_WB",             UEVT,  FL_NONE, L2,      22, 1,  22, "Line written back from the L2 cache"),
    EV(0x0019, "BUS_ACCESS",               UEVT,  FL_NONE, BUS,     -1, 0,  -1, "Data transfer on the core's external bus interface"),
    EV(0x001A, "MEMORY_ERROR",             UEVT,  FL_NONE, NONE,    -1, 0,  -1, "Correctable or uncorrectable error in a local RAM"),
    EV(0x001D, "BUS_CYCLES",               UEVT,  FL_NONE, BUS,     -1, 0,  -1, "Clock cycle of the external bus interface"),
    EV(0x001E, "CHAIN",                    UEVT,  FL_A,    NONE,    -1, 0,  -1, "Counter chaining: odd counter counts overflows of the one below"),
    EV(0x0060, "BUS_ACCESS_RD",            UEVT,  FL_IR,   BUS,     -1, 0,  -1, "Read transfer on the external bus interface"),
    EV(0x0061, "BUS_ACCESS_WR",            UEVT,  FL_IR,   BUS,     -1, 0,  -1, "Write transfer on the external bus interface"),
    EV(0x007A, "BR_INDIRECT_SPEC",         UEVT,  FL_IR,   NONE,    -1, 0,  -1, "Indirect branch speculatively executed"),
    EV(0x0086, "EXC_IRQ",                  EXC,   FL_AIR,  NONE,    -1, 0,  -1, "IRQ interrupt taken"),
    EV(0x0087, "EXC_FIQ",                  EXC,   FL_AIR,  NONE,    -1, 0,  -1, "FIQ interrupt taken"),
    EV(0x00C0, "EXT_MEM_REQ",              UEVT,  FL_I,    NONE,    -1, 0,  -1, "Request sent to external memory"),
    EV(0x00C1, "EXT_MEM_REQ_NC",           UEVT,  FL_I,    NONE,    -1, 0,  -1, "Non-cacheable request sent to external memory"),
    EV(0x00C2, "PREFETCH_LINEFILL",        UEVT,  FL_I,    NONE,    -1, 0,  -1, "Linefill started by the data prefetcher"),
    EV(0x00C3, "L1I_CACHE_THROTTLE",       INS,   FL_I,    NONE,    -1, 0,  -1, "Instruction cache fetch throttling occurred"),
    EV(0x00C4, "READ_ALLOC_ENTER",         UEVT,  FL_I,    NONE,    -1, 0,  -1, "Entry into read-allocate (write streaming) mode"),
    EV(0x00C5, "READ_ALLOC",               UEVT,  FL_I,    NONE,    -1, 0,  -1, "Activity while in read-allocate mode"),
    EV(0x00C6, "PRE_DECODE_ERR",           UEVT,  FL_I,    NONE,    -1, 0,  -1, "Instruction pre-decode error"),
    EV(0x00C7, "STALL_SB_FULL",            UEVT,  FL_I,    NONE,    -1, 0,  -1, "Pipeline stall on a data write: store buffer full"),
    EV(0x00C8, "EXT_SNOOP",                UEVT,  FL_I,    NONE,    -1, 0,  -1, "Data for this core supplied by snooping another core (SCU)"),
    EV(0x00C9, "BR_COND",                  UEVT,  FL_I,    NONE,    -1, 0,  -1, "Executed conditional branch, taken or not"),
    EV(0x00CA, "BR_INDIRECT_MISPRED",      UEVT,  FL_I,    BPU,     -1, 0,  -1, "Indirect branch whose prediction was wrong"),
    EV(0x00CB, "BR_INDIRECT_MISPRED_ADDR", UEVT,  FL_I,    BPU,     -1, 0,  -1, "Indirect branch mispredicted: target address mismatch"),
    EV(0x00CC, "BR_COND_MISPRED",          UEVT,  FL_I,    BPU,     -1, 0,  -1, "Conditional branch whose direction was mispredicted"),
    EV(0x00D0, "L1I_CACHE_ERR",            UEVT,  FL_I,    L1I,     23, 1,  23, "Memory error in the L1 instruction cache data or tag RAM"),
    EV(0x00D1, "L1D_CACHE_ERR",            UEVT,  FL_I,    L1D,     24, 1,  24, "Memory error in the L1 data cache data, tag or dirty RAM"),
    EV(0x00D2, "TLB_ERR",                  UEVT,  FL_I,    NONE,    25, 1,  25, "Memory error in a TLB RAM"),
    EV(0x00E0, "OTHER_IQ_DEP_STALL",       INS,   FL_I,    NONE,    -1, 0,  -1, "Cycle with empty issue queue, not from I-cache, uTLB or pre-decode"),
    EV(0x00E1, "IC_DEP_STALL",             INS,   FL_I,    NONE,    -1, 0,  -1, "Cycle with empty issue queue while an I-cache miss is handled"),
    EV(0x00E2, "IUTLB_DEP_STALL",          INS,   FL_I,    NONE,    -1, 0,  -1, "Cycle with empty issue queue while an instruction uTLB miss is handled"),
    EV(0x00E3, "DECODE_DEP_STALL",         CYCLE, FL_I,    NONE,    -1, 0,  -1, "Cycle with empty issue queue while a pre-decode error is handled"),
    EV(0x00E4, "OTHER_INTERLOCK_STALL",    INS,   FL_I,    NONE,    -1, 0,  -1, "Interlock cycle not caused by SIMD/FP or load/store address operands"),
    EV(0x00E5, "AGU_DEP_STALL",            INS,   FL_I,    NONE,    -1, 0,  -1, "Interlock cycle: load/store waits for its address operands"),
    EV(0x00E6, "SIMD_DEP_STALL",           INS,   FL_I,    NONE,    -1, 0,  -1, "Interlock cycle caused by an Advanced SIMD or FP instruction"),
    EV(0x00E7, "LD_DEP_STALL",             CYCLE, FL_I,    NONE,    -1, 0,  -1, "Write-back stage stall cycle caused by a load miss"),
    EV(0x00E8, "ST_DEP_STALL",             CYCLE, FL_I,    NONE,    -1, 0,  -1, "Write-back stage stall cycle caused by a store"),
};

/* Linux perf's cortex-a53 event list names 0xC3 PREFETCH_LINEFILL_DROP,
 * where the TRM (DDI0500) and ARM-software/data describe an instruction
 * cache throttle; a user who counts it with perf should find it here. */
static const struct pp_event_alias aliases[] = {
    { "PREFETCH_LINEFILL_DROP", 0x00C3, "perf" },
};

const struct pp_catalog pp_catalog_cortex_a53 = {
    .key = "cortex-a53",
    .pretty = "Cortex-A53",
    .pmu_version = 3,
    .events = events,
    .n = sizeof(events) / sizeof(events[0]),
    .common = &pp_catalog_armv8_common,
    .aliases = aliases,
    .naliases = sizeof(aliases) / sizeof(aliases[0]),
};

/*
 * catalog_cortex_a9.c - Cortex-A9 PMU event catalog (PMUv2).
 *
 * Source: ARM-software/data commit 6aeb4c89, pmu/cortex-a9.json.  Codes,
 * mnemonics, types, flags, components and bus positions are that data's
 * facts; the descriptions are our own words.  Generated once from the data,
 * then kept by hand: this file is the source of truth.  Row layout: see EV()
 * in catalog_tables.h.
 *
 * Mnemonics for 0x40-0xA5 are ours (the data has none).  The data gives no
 * bus positions and no accuracy.  From seed 003 (Cortex-A9 TRM table 11-6):
 * accuracy of 0x68-0x6B, 0x6E, 0x70, 0x71, and the 2-bit width of 0x68.  The
 * 2-bit width of 0x73/0x74 is stated in the data's own description text.
 * 0x68 counts renamed instructions; the data files it under BPU, which is
 * wrong for it, so its component is left empty.
 *
 * Left out although the data lists them: 0x08 INST_RETIRED and 0x0E
 * BR_RETURN_RETIRED.  The Cortex-A9 does not implement them (the issue text,
 * Linux perf's A9 map and spec/peers.md all count instructions with 0x68
 * and returns with 0x6E instead), so PMCEID0 must not advertise them.
 */
#include "pmu/catalog_tables.h"

static const struct pp_event events[] = {
    EV(0x0000, "SW_INCR",                UEVT,  FL_A,    NONE,    -1, 0,  -1, "Software increment: write of this counter's bit to PMSWINC"),
    EV(0x0001, "L1I_CACHE_REFILL",       INS,   FL_NONE, L1I,     -1, 0,  -1, "Instruction fetch that missed the L1 instruction cache"),
    EV(0x0002, "L1I_TLB_REFILL",         INS,   FL_NONE, L1ITLB,  -1, 0,  -1, "Instruction fetch that missed the L1 instruction TLB"),
    EV(0x0003, "L1D_CACHE_REFILL",       UEVT,  FL_NONE, L1D,     -1, 0,  -1, "Data access that missed the L1 data cache, line refilled"),
    EV(0x0004, "L1D_CACHE",              UEVT,  FL_NONE, L1D,     -1, 0,  -1, "Data access that looked up the L1 data cache"),
    EV(0x0005, "L1D_TLB_REFILL",         UEVT,  FL_NONE, L1DTLB,  -1, 0,  -1, "Data access that missed the L1 data TLB"),
    EV(0x0006, "LD_RETIRED",             UEVT,  FL_A,    NONE,    -1, 0,  -1, "Load instruction architecturally executed"),
    EV(0x0007, "ST_RETIRED",             UEVT,  FL_A,    NONE,    -1, 0,  -1, "Store instruction architecturally executed"),
    EV(0x0009, "EXC_TAKEN",              EXC,   FL_A,    NONE,    -1, 0,  -1, "Exception taken, any kind"),
    EV(0x000A, "EXC_RETURN",             EXC,   FL_A,    NONE,    -1, 0,  -1, "Exception return instruction architecturally executed"),
    EV(0x000B, "CID_WRITE_RETIRED",      UEVT,  FL_A,    NONE,    -1, 0,  -1, "Write to CONTEXTIDR architecturally executed"),
    EV(0x000C, "PC_WRITE_RETIRED",       UEVT,  FL_A,    NONE,    -1, 0,  -1, "Software write to the PC architecturally executed"),
    EV(0x000D, "BR_IMMED_RETIRED",       UEVT,  FL_A,    NONE,    -1, 0,  -1, "Immediate branch architecturally executed, taken or not"),
    EV(0x000F, "UNALIGNED_LDST_RETIRED", UEVT,  FL_A,    NONE,    -1, 0,  -1, "Unaligned load or store architecturally executed"),
    EV(0x0010, "BR_MIS_PRED",            UEVT,  FL_NONE, BPU,     -1, 0,  -1, "Branch mispredicted or not predicted (speculative count)"),
    EV(0x0012, "BR_PRED",                UEVT,  FL_NONE, BPU,     -1, 0,  -1, "Branch the predictor could handle (speculative count)"),
    EV(0x0040, "JAVA_BC_EXEC",           UEVT,  FL_I,    NONE,    -1, 0,  -1, "Java bytecode decoded, speculative ones included"),
    EV(0x0041, "JAVA_SW_BC_EXEC",        UEVT,  FL_I,    NONE,    -1, 0,  -1, "Software-handled Java bytecode decoded, speculative included"),
    EV(0x0042, "JAZELLE_BR_EXEC",        UEVT,  FL_I,    NONE,    -1, 0,  -1, "Taken Jazelle branch executed"),
    EV(0x0050, "COHERENT_LINE_MISS",     UEVT,  FL_I,    NONE,    -1, 0,  -1, "Coherent linefill that missed every other core, sent to memory"),
    EV(0x0051, "COHERENT_LINE_HIT",      UEVT,  FL_I,    NONE,    -1, 0,  -1, "Coherent linefill served from another core's cache"),
    EV(0x0060, "ICACHE_DEP_STALL",       INS,   FL_I,    NONE,    -1, 0,  -1, "Stall cycle: front end starved while I-cache linefills run"),
    EV(0x0061, "DCACHE_DEP_STALL",       INS,   FL_I,    NONE,    -1, 0,  -1, "Stall cycle: cannot issue while a data linefill is pending"),
    EV(0x0062, "MAIN_TLB_MISS_STALL",    INS,   FL_I,    NONE,    -1, 0,  -1, "Stall cycle waiting for a main TLB table walk"),
    EV(0x0063, "STREX_PASS",             INS,   FL_AI,   NONE,    -1, 0,  -1, "Store-exclusive architecturally executed and passed"),
    EV(0x0064, "STREX_FAIL",             INS,   FL_AI,   NONE,    -1, 0,  -1, "Store-exclusive architecturally executed and failed"),
    EV(0x0065, "DATA_EVICTION",          UEVT,  FL_I,    NONE,    -1, 0,  -1, "Data cache eviction caused by a linefill"),
    EV(0x0066, "ISSUE_NO_DISPATCH",      INS,   FL_I,    NONE,    -1, 0,  -1, "Cycle where the issue stage dispatched nothing"),
    EV(0x0067, "ISSUE_EMPTY",            CYCLE, FL_I,    NONE,    -1, 0,  -1, "Cycle where the issue stage was empty"),
    EA(0x0068, "INST_RENAME",            UEVT,  FL_I,    NONE,    -1, 2,  -1, APPROX, "Instruction through register rename, up to 2 per cycle"), /* seed 003: approximate, 2 bits wide */
    EA(0x0069, "DATA_LINEFILL",          UEVT,  FL_I,    BUS,     -1, 0,  -1, PRECISE, "Data linefill on the external AXI bus"), /* seed 003 */
    EA(0x006A, "PREFETCH_LINEFILL",      UEVT,  FL_I,    NONE,    -1, 0,  -1, PRECISE, "Data linefill requested by the prefetcher"), /* seed 003 */
    EA(0x006B, "PREFETCH_HIT",           UEVT,  FL_I,    NONE,    -1, 0,  -1, PRECISE, "Cache hit in a line of a prefetcher-tracked stream"), /* seed 003 */
    EA(0x006E, "PRED_FUNC_RETURN",       EXC,   FL_I,    BPU,     -1, 0,  -1, APPROX, "Predictable procedure return executed, exception returns excluded"), /* seed 003 */
    EA(0x0070, "MAIN_UNIT_INST",         INS,   FL_I,    NONE,    -1, 0,  -1, APPROX, "Instruction in the main (ALU/multiply) pipeline, speculative"), /* seed 003 */
    EA(0x0071, "SECOND_UNIT_INST",       INS,   FL_I,    NONE,    -1, 0,  -1, APPROX, "Instruction in the second ALU pipeline, speculative"), /* seed 003 */
    EV(0x0072, "LDST_UNIT_INST",         INS,   FL_I,    NONE,    -1, 0,  -1, "Instruction in the load/store unit, speculative"),
    EV(0x0073, "FP_RENAME",              INS,   FL_I,    NONE,    -1, 2,  -1, "Floating-point instruction through rename, up to 2 per cycle"), /* 2 bits wide per the data's text */
    EV(0x0074, "NEON_RENAME",            INS,   FL_I,    NONE,    -1, 2,  -1, "NEON instruction through rename, up to 2 per cycle"), /* 2 bits wide per the data's text */
    EV(0x0080, "PLD_STALL",              CYCLE, FL_I,    NONE,    -1, 0,  -1, "Stall cycle: all PLD slots busy"),
    EV(0x0081, "WRITE_STALL",            CYCLE, FL_I,    NONE,    -1, 0,  -1, "Stall cycle: data side full of writes to memory"),
    EV(0x0082, "ITLB_MAIN_MISS_STALL",   INS,   FL_I,    NONE,    -1, 0,  -1, "Stall cycle on an instruction-side main TLB miss"),
    EV(0x0083, "DTLB_MAIN_MISS_STALL",   CYCLE, FL_I,    NONE,    -1, 0,  -1, "Stall cycle on a data-side main TLB miss"),
    EV(0x0084, "ITLB_MICRO_MISS_STALL",  INS,   FL_I,    NONE,    -1, 0,  -1, "Stall cycle on an instruction micro TLB miss only"),
    EV(0x0085, "DTLB_MICRO_MISS_STALL",  CYCLE, FL_I,    NONE,    -1, 0,  -1, "Stall cycle on a data micro TLB miss only"),
    EV(0x0086, "DMB_STALL",              INS,   FL_I,    NONE,    -1, 0,  -1, "Stall cycle caused by a DMB, speculative ones included"),
    EV(0x008A, "INT_CLK_EN",             CYCLE, FL_I,    NONE,    -1, 0,  -1, "Cycle with the integer core clock enabled"),
    EV(0x008B, "DATA_ENGINE_CLK_EN",     CYCLE, FL_I,    NONE,    -1, 0,  -1, "Cycle with the data engine clock enabled"),
    EV(0x008C, "NEON_CLK_EN",            CYCLE, FL_I,    NONE,    -1, 0,  -1, "Cycle with the NEON SIMD clock enabled"),
    EV(0x008D, "ITLB_ALLOC",             INS,   FL_I,    NONE,    -1, 0,  -1, "TLB allocation for an instruction request"),
    EV(0x008E, "DTLB_ALLOC",             UEVT,  FL_I,    NONE,    -1, 0,  -1, "TLB allocation for a data request"),
    EV(0x0090, "ISB_INST",               INS,   FL_AI,   NONE,    -1, 0,  -1, "ISB architecturally executed"),
    EV(0x0091, "DSB_INST",               INS,   FL_AI,   NONE,    -1, 0,  -1, "DSB architecturally executed"),
    EV(0x0092, "DMB_INST",               INS,   FL_I,    NONE,    -1, 0,  -1, "DMB speculatively executed"),
    EV(0x0093, "EXT_IRQ",                UEVT,  FL_I,    NONE,    -1, 0,  -1, "External interrupt taken by the processor"),
    EV(0x00A0, "PLE_LINE_REQ_DONE",      UEVT,  FL_I,    NONE,    -1, 0,  -1, "Preload engine cache line request completed"),
    EV(0x00A1, "PLE_LINE_REQ_SKIP",      UEVT,  FL_I,    NONE,    -1, 0,  -1, "Preload engine cache line request skipped"),
    EV(0x00A2, "PLE_FIFO_FLUSH",         UEVT,  FL_I,    NONE,    -1, 0,  -1, "Preload engine FIFO flushed"),
    EV(0x00A3, "PLE_REQ_DONE",           UEVT,  FL_I,    NONE,    -1, 0,  -1, "Preload engine request completed"),
    EV(0x00A4, "PLE_FIFO_OVERFLOW",      UEVT,  FL_I,    NONE,    -1, 0,  -1, "Preload engine FIFO overflowed"),
    EV(0x00A5, "PLE_REQ_PROG",           UEVT,  FL_I,    NONE,    -1, 0,  -1, "Preload engine request programmed"),
};

const struct pp_catalog pp_catalog_cortex_a9 = {
    .key = "cortex-a9",
    .pretty = "Cortex-A9",
    .pmu_version = 2,
    .events = events,
    .n = sizeof(events) / sizeof(events[0]),
    .common = &pp_catalog_armv7_common,
};

/*
 * coretype.c - the table of known core types.
 *
 * Part numbers and DEVARCH values: spec/arm-pmu-coresight.md 5.4 and 3.5.
 * Where the spec marks a part number UNCONFIRMED (A7/A15 CTI, A32 blocks,
 * A55/A76/N1 shared parts) we use the value it gives and say so here, so a
 * correction lands in one row.  Counter counts: data/arm-pmu "counters".
 * Double lock: the Armv8.0-8.2 cores here implement OSDLR_EL1; on Armv8.2
 * EDPRSR.DLK reads 0 and a double-locked core reports PU=0 (spec 3.1).
 */
#include <ctype.h>
#include <stdio.h>
#include <stddef.h>
#include <string.h>
#include <strings.h>

#include "pmu/coretype.h"
#include "pmu/regs.h"

#define DEVARCH_V80 0x47706A15u
#define DEVARCH_V82 0x47708A15u

static const struct pp_core_type core_types[] = {
    /* name          pretty        impl  part   var rev  arch         pmu v3p1  N  debug  pmu    cti    rom    devarch      snap   pcs    dlk   catalog */
    { "cortex-a7",   "Cortex-A7",   0x41, 0xC07, 0, 5, PP_ARCH_V7,   2, false, 4, 0xC07, 0x9A7, 0x906, 0x4A7, 0,           false, false, true, "cortex-a7" },
    { "cortex-a9",   "Cortex-A9",   0x41, 0xC09, 4, 1, PP_ARCH_V7,   2, false, 6, 0xC09, 0x9A0, 0x906, 0x4A9, 0,           false, false, false,"cortex-a9" },
    { "cortex-a15",  "Cortex-A15",  0x41, 0xC0F, 4, 0, PP_ARCH_V7,   2, false, 6, 0xC0F, 0x9AF, 0x906, 0x4AF, 0,           false, false, true, "cortex-a15" },
    /* A32: CSAL gives 0xD01 for the core; block parts UNCONFIRMED, 0xD01 used. */
    { "cortex-a32",  "Cortex-A32",  0x41, 0xD01, 0, 1, PP_ARCH_V8_0, 3, false, 6, 0xD01, 0xD01, 0xD01, 0x4AA, DEVARCH_V80, false, false, true, "cortex-a32" },
    { "cortex-a35",  "Cortex-A35",  0x41, 0xD04, 1, 0, PP_ARCH_V8_0, 3, false, 6, 0xD04, 0x9DA, 0x9DA, 0x4AA, DEVARCH_V80, false, false, true, "cortex-a35" },
    { "cortex-a53",  "Cortex-A53",  0x41, 0xD03, 0, 4, PP_ARCH_V8_0, 3, false, 6, 0xD03, 0x9D3, 0x9A8, 0x4A1, DEVARCH_V80, false, false, true, "cortex-a53" },
    { "cortex-a55",  "Cortex-A55",  0x41, 0xD05, 2, 0, PP_ARCH_V8_2, 3, true,  6, 0xD05, 0xD05, 0xD05, 0x4E3, DEVARCH_V82, true,  true,  true, "cortex-a55" },
    { "cortex-a57",  "Cortex-A57",  0x41, 0xD07, 1, 3, PP_ARCH_V8_0, 3, false, 6, 0xD07, 0x9D7, 0x9A8, 0x4A2, DEVARCH_V80, false, false, true, "cortex-a57" },
    { "cortex-a72",  "Cortex-A72",  0x41, 0xD08, 0, 3, PP_ARCH_V8_0, 3, false, 6, 0xD08, 0x9D8, 0x9A8, 0x4A4, DEVARCH_V80, false, false, true, "cortex-a72" },
    { "cortex-a76",  "Cortex-A76",  0x41, 0xD0B, 4, 1, PP_ARCH_V8_2, 3, true,  6, 0xD0B, 0xD0B, 0xD0B, 0x4E4, DEVARCH_V82, true,  true,  true, "cortex-a76" },
    { "neoverse-n1", "Neoverse N1", 0x41, 0xD0C, 4, 1, PP_ARCH_V8_2, 3, true,  6, 0xD0C, 0xD0C, 0xD0C, 0x4E4, DEVARCH_V82, false, true,  true, "neoverse-n1" },
};

/*
 * Not a product: what pmuprobe assumes of a core it has not identified yet
 * (a target file's "type = auto"), as perf's generic armv8_pmuv3 PMU does:
 * the architectural PMUv3 registers and the common events only, no part
 * numbers.  Kept out of pp_core_types() so that identification by MIDR or
 * part number can never "find" it.
 */
static const struct pp_core_type generic_v8 = {
    "armv8-pmuv3", "Armv8 PMUv3 (generic)", 0, 0, 0, 0, PP_ARCH_V8_0, 3, false, 6,
    0, 0, 0, 0, DEVARCH_V80, false, false, false, "armv8-common"
};

const struct pp_core_type *pp_core_type_generic(void)
{
    return &generic_v8;
}

const struct pp_core_type *pp_core_types(unsigned *n)
{
    *n = sizeof(core_types) / sizeof(core_types[0]);
    return core_types;
}

/* "Cortex-A76", "a76", "cortex_a76" all name the same row. */
static bool name_matches(const char *want, const char *row)
{
    char norm[32];
    size_t i = 0;

    for (; want[i] && i < sizeof(norm) - 1; i++)
        norm[i] = (want[i] == '_' || want[i] == ' ') ? '-' : (char)tolower((unsigned char)want[i]);
    norm[i] = '\0';
    if (strcmp(norm, row) == 0)
        return true;
    return strncmp(row, "cortex-", 7) == 0 && strcmp(norm, row + 7) == 0;
}

void pp_core_type_names(char *buf, size_t len)
{
    unsigned n;
    const struct pp_core_type *ct = pp_core_types(&n);
    size_t used = 0;

    if (!len)
        return;
    buf[0] = '\0';
    for (unsigned i = 0; i < n; i++) {
        int w = snprintf(buf + used, len - used, "%s%s", i ? ", " : "", ct[i].name);

        if (w < 0 || (size_t)w >= len - used)
            return;             /* truncated: the names that fit are kept */
        used += (size_t)w;
    }
}

const struct pp_core_type *pp_core_type_find(const char *name)
{
    unsigned n;
    const struct pp_core_type *t = pp_core_types(&n);

    if (!name)
        return NULL;
    for (unsigned i = 0; i < n; i++)
        if (name_matches(name, t[i].name))
            return &t[i];
    return name_matches(name, generic_v8.name) ? &generic_v8 : NULL;
}

const struct pp_core_type *pp_core_type_by_midr(uint32_t midr)
{
    unsigned n;
    const struct pp_core_type *t = pp_core_types(&n);
    uint8_t impl = (uint8_t)(midr >> 24);
    uint16_t part = (uint16_t)((midr >> 4) & 0xFFFu);

    for (unsigned i = 0; i < n; i++)
        if (t[i].implementer == impl && t[i].midr_part == part)
            return &t[i];
    return NULL;
}

const struct pp_core_type *pp_core_type_by_debug_part(uint16_t part)
{
    unsigned n;
    const struct pp_core_type *t = pp_core_types(&n);

    for (unsigned i = 0; i < n; i++)
        if (t[i].debug_part == part)
            return &t[i];
    return NULL;
}

/* MIDR: Implementer[31:24] Variant[23:20] Architecture[19:16]=0xF
 * PartNum[15:4] Revision[3:0]. */
uint32_t pp_core_type_midr(const struct pp_core_type *ct)
{
    return (uint32_t)ct->implementer << 24 | (uint32_t)ct->variant << 20 |
           0xFu << 16 | (uint32_t)ct->midr_part << 4 | ct->revision;
}

/* PMCFGR fields, spec 1.3: SS[22], EX[16], CCD[15], CC[14], SIZE[13:8],
 * N[7:0].  PMUv3 SIZE is 63 (64-bit spacing) whatever the counter width,
 * so the width (PMUv3p5 64-bit event counters) does not show here;
 * PMUv2 counters are 32-bit (SIZE=31, value UNCONFIRMED in the spec). */
uint32_t pp_core_type_pmcfgr(const struct pp_core_type *ct, unsigned counters, bool snapshot)
{
    uint32_t size = ct->pmu_version >= 3 ? 0x3Fu : 0x1Fu;
    uint32_t v = (1u << 16) | (1u << 15) | (1u << 14) | size << 8 | (counters & 0xFFu);

    if (snapshot)
        v |= PP_PMCFGR_SS;
    return v;
}

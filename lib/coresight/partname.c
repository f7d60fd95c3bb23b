/*
 * partname.c - names of Arm CoreSight parts (PIDR part number, designer
 * 0x23B).  Facts: spec/arm-pmu-coresight.md 5.4; parts the spec marks
 * UNCONFIRMED are named as the spec gives them.
 *
 * From Armv8.2 cores onward one part number covers several blocks of a
 * core, told apart by DEVTYPE (ARM-M K5.4.4 via spec 5.4), so a row may
 * name a DEVTYPE; rows with ANY_DEVTYPE match whatever the block says.
 */
#include <stdio.h>

#include "coresight/coresight.h"

#define ANY_DEVTYPE 0xFFFFu

#define DT_ETM   0x13u
#define DT_CTI   0x14u
#define DT_DEBUG 0x15u
#define DT_PMU   0x16u

#define CS_DEVARCH_ROM 0x47700AF7u      /* spec 5.3 */

struct part_name {
    uint16_t part;
    uint16_t devtype;           /* ANY_DEVTYPE, or the DEVTYPE it needs */
    const char *name;
};

/* Rows with a DEVTYPE come before the ANY_DEVTYPE row of the same part: the
 * first match wins. */
static const struct part_name part_names[] = {
    /* Armv7-A cores (spec 5.4, 4.2) */
    { 0xC07, ANY_DEVTYPE, "Cortex-A7 debug" },
    { 0x9A7, ANY_DEVTYPE, "Cortex-A7 PMU" },
    { 0x956, ANY_DEVTYPE, "Cortex-A7 ETM" },
    { 0x4A7, ANY_DEVTYPE, "Cortex-A7 ROM table" },
    { 0xC09, ANY_DEVTYPE, "Cortex-A9 debug" },
    { 0x9A0, ANY_DEVTYPE, "Cortex-A9 PMU" },
    { 0x950, ANY_DEVTYPE, "Cortex-A9 PTM" },
    { 0x4A9, ANY_DEVTYPE, "Cortex-A9 ROM table" },
    { 0xC0F, ANY_DEVTYPE, "Cortex-A15 debug" },
    { 0x9AF, ANY_DEVTYPE, "Cortex-A15 PMU" },
    { 0x95F, ANY_DEVTYPE, "Cortex-A15 PTM" },
    { 0x4AF, ANY_DEVTYPE, "Cortex-A15 ROM table" },
    { 0xC0E, ANY_DEVTYPE, "Cortex-A17 debug" },
    { 0x9AE, ANY_DEVTYPE, "Cortex-A17 PMU" },
    { 0x95B, ANY_DEVTYPE, "Cortex-A17 ETM" },

    /* Armv8.0-A cores */
    { 0xD01, DT_DEBUG,    "Cortex-A32 debug" },
    { 0xD01, DT_PMU,      "Cortex-A32 PMU" },
    { 0xD01, DT_CTI,      "Cortex-A32 CTI" },
    { 0xD01, DT_ETM,      "Cortex-A32 ETM" },
    { 0xD01, ANY_DEVTYPE, "Cortex-A32 block" },
    { 0xD04, ANY_DEVTYPE, "Cortex-A35 debug" },
    { 0x9DA, DT_PMU,      "Cortex-A35 PMU" },
    { 0x9DA, DT_CTI,      "Cortex-A35 CTI" },
    { 0x9DA, DT_ETM,      "Cortex-A35 ETM" },
    { 0x9DA, ANY_DEVTYPE, "Cortex-A35 PMU/CTI/ETM" },
    { 0x4AA, ANY_DEVTYPE, "Cortex-A35 ROM table (v8 memory map)" },
    { 0x4E0, ANY_DEVTYPE, "Cortex-A35 ROM table (v7 memory map)" },
    { 0xD03, ANY_DEVTYPE, "Cortex-A53 debug" },
    { 0x9D3, ANY_DEVTYPE, "Cortex-A53 PMU" },
    { 0x9A8, ANY_DEVTYPE, "Cortex-A53 CTI" },
    { 0x95D, ANY_DEVTYPE, "Cortex-A53 ETM" },
    { 0x4A1, ANY_DEVTYPE, "Cortex-A53 ROM table (v8 memory map)" },
    { 0x4A3, ANY_DEVTYPE, "Cortex-A53 ROM table (v7 memory map)" },
    { 0xD07, ANY_DEVTYPE, "Cortex-A57 debug" },
    { 0x9D7, ANY_DEVTYPE, "Cortex-A57 PMU" },
    { 0x95E, ANY_DEVTYPE, "Cortex-A57 ETM" },
    { 0x4A2, ANY_DEVTYPE, "Cortex-A57 ROM table" },
    { 0xD08, ANY_DEVTYPE, "Cortex-A72 debug" },
    { 0x9D8, ANY_DEVTYPE, "Cortex-A72 PMU" },
    { 0x95A, ANY_DEVTYPE, "Cortex-A72 ETM" },
    { 0x4A4, ANY_DEVTYPE, "Cortex-A72 ROM table" },

    /* Armv8.2-A cores: one part per core for all its blocks (spec 5.4). */
    { 0xD05, DT_DEBUG,    "Cortex-A55 debug" },
    { 0xD05, DT_PMU,      "Cortex-A55 PMU" },
    { 0xD05, DT_CTI,      "Cortex-A55 CTI" },
    { 0xD05, DT_ETM,      "Cortex-A55 ETM" },
    { 0xD05, ANY_DEVTYPE, "Cortex-A55 block" },
    { 0xD0B, DT_DEBUG,    "Cortex-A76 debug" },
    { 0xD0B, DT_PMU,      "Cortex-A76 PMU" },
    { 0xD0B, DT_CTI,      "Cortex-A76 CTI" },
    { 0xD0B, DT_ETM,      "Cortex-A76 ETM" },
    { 0xD0B, ANY_DEVTYPE, "Cortex-A76 block" },
    { 0xD0C, DT_DEBUG,    "Neoverse N1 debug" },
    { 0xD0C, DT_PMU,      "Neoverse N1 PMU" },
    { 0xD0C, DT_CTI,      "Neoverse N1 CTI" },
    { 0xD0C, DT_ETM,      "Neoverse N1 ETM" },
    { 0xD0C, ANY_DEVTYPE, "Neoverse N1 block" },
    { 0x4E3, ANY_DEVTYPE, "DSU ROM table" },
    { 0x4E4, ANY_DEVTYPE, "Cortex-A76 ROM table (DSU)" },

    /* SoC-400 and SoC-600 system components */
    { 0x906, ANY_DEVTYPE, "CoreSight CTI (SoC-400)" },
    { 0x9ED, ANY_DEVTYPE, "CoreSight CTI (SoC-600)" },
    { 0x9E2, ANY_DEVTYPE, "CoreSight APB-AP (SoC-600)" },
    { 0x9E3, ANY_DEVTYPE, "CoreSight AHB-AP (SoC-600)" },
    { 0x9E4, ANY_DEVTYPE, "CoreSight AXI-AP (SoC-600)" },
    { 0x9E6, ANY_DEVTYPE, "CoreSight JTAG-AP (SoC-600)" },
};

#define NPART_NAMES (sizeof(part_names) / sizeof(part_names[0]))

static const char *lookup(uint16_t part, uint8_t devtype)
{
    for (size_t i = 0; i < NPART_NAMES; i++) {
        const struct part_name *p = &part_names[i];

        if (p->part == part && (p->devtype == ANY_DEVTYPE || p->devtype == devtype))
            return p->name;
    }
    return NULL;
}

const char *pp_cs_part_name(const struct pp_cs_id *id, char *buf, size_t len)
{
    const char *name = NULL;

    if (id->designer == PP_ARM_DESIGNER)
        name = lookup(id->part, id->devtype);
    if (name)
        return name;
    if (!buf || len == 0)
        return "unknown part";
    /* An unlisted part that says it is a ROM table is still walkable, so
     * say what it is; callers print the part number beside the name. */
    if (id->cls == 0x1 || (id->cls == 0x9 && id->devarch == CS_DEVARCH_ROM))
        snprintf(buf, len, "%s", id->cls == 0x1 ? "ROM table" : "CoreSight ROM table");
    else
        snprintf(buf, len, "unknown part 0x%03X (designer 0x%03X)",
                 (unsigned)id->part, (unsigned)id->designer);
    return buf;
}

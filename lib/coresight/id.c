/*
 * id.c - CoreSight component identification: the Component ID (CIDR),
 * Peripheral ID (PIDR) and, for class 0x9 components, DEVARCH, DEVID,
 * DEVTYPE and DEVAFF.  Facts: spec/arm-pmu-coresight.md 5.1-5.3, 3.5.
 */
#include <stddef.h>
#include <stdint.h>

#include "coresight/coresight.h"
#include "pmu/coretype.h"

/* Register offsets in the 4 KB block (spec 5.1, 5.2, 5.3, 3.5). */
#define CS_DEVAFF0 0xFA8u
#define CS_DEVAFF1 0xFACu
#define CS_DEVARCH 0xFBCu
#define CS_DEVID   0xFC8u
#define CS_DEVTYPE 0xFCCu
#define CS_PIDR4   0xFD0u
#define CS_PIDR0   0xFE0u
#define CS_PIDR1   0xFE4u
#define CS_PIDR2   0xFE8u
#define CS_PIDR3   0xFECu
#define CS_CIDR0   0xFF0u
#define CS_CIDR1   0xFF4u
#define CS_CIDR2   0xFF8u
#define CS_CIDR3   0xFFCu

/* spec 5.1: valid when the CID equals 0xB105000D with CLASS [15:12] ignored. */
#define CS_CID_PREAMBLE  0xB105000Du
#define CS_CID_CLASSMASK 0x0000F000u

#define CS_CLASS_ROM   0x1u
#define CS_CLASS_CS    0x9u
#define CS_DEVARCH_ROM 0x47700AF7u      /* spec 5.3, 6.3 */

/* DEVTYPE values, spec 3.5 and 5.3: SUB[7:4] MAJOR[3:0]. */
#define CS_DEVTYPE_ETM   0x13u
#define CS_DEVTYPE_CTI   0x14u
#define CS_DEVTYPE_DEBUG 0x15u
#define CS_DEVTYPE_PMU   0x16u

/* The batch of one ID read.  The first nine are the ID proper; the rest are
 * meaningful only for class 0x9 components (spec 5.3). */
static const uint16_t id_offsets[] = {
    CS_CIDR0, CS_CIDR1, CS_CIDR2, CS_CIDR3,
    CS_PIDR0, CS_PIDR1, CS_PIDR2, CS_PIDR3, CS_PIDR4,
    CS_DEVARCH, CS_DEVID, CS_DEVTYPE, CS_DEVAFF0, CS_DEVAFF1,
};
#define ID_NOPS   (sizeof(id_offsets) / sizeof(id_offsets[0]))
#define ID_NCORE  9u            /* CIDR0-3, PIDR0-4 */

static uint32_t byte_at(const uint32_t regs[1024], uint32_t off)
{
    return regs[off / 4u] & 0xFFu;
}

void pp_cs_decode_id(const uint32_t regs[1024], struct pp_cs_id *id)
{
    uint64_t pidr;

    *id = (struct pp_cs_id){ 0 };
    id->cidr = byte_at(regs, CS_CIDR0) | byte_at(regs, CS_CIDR1) << 8 |
               byte_at(regs, CS_CIDR2) << 16 | byte_at(regs, CS_CIDR3) << 24;
    id->cls = (uint8_t)((id->cidr >> 12) & 0xFu);
    id->cid_valid = (id->cidr & ~CS_CID_CLASSMASK) == CS_CID_PREAMBLE;

    pidr = (uint64_t)byte_at(regs, CS_PIDR0) | (uint64_t)byte_at(regs, CS_PIDR1) << 8 |
           (uint64_t)byte_at(regs, CS_PIDR2) << 16 | (uint64_t)byte_at(regs, CS_PIDR3) << 24 |
           (uint64_t)byte_at(regs, CS_PIDR4) << 32;
    id->pidr = pidr;
    /* spec 5.2: PART = PIDR1[3:0]:PIDR0; designer = DES_2 (PIDR4[3:0],
     * continuation) : DES_1 (PIDR2[2:0]) : DES_0 (PIDR1[7:4]).  PIDR2[3]
     * (JEDEC) sits between DES_1 and REVISION and is not part of it. */
    id->part = (uint16_t)(pidr & 0xFFFu);
    id->designer = (uint16_t)(((pidr >> 12) & 0x7Fu) | ((pidr >> 32) & 0xFu) << 7);
    id->revision = (uint8_t)((pidr >> 20) & 0xFu);
    id->size4k = (uint8_t)((pidr >> 36) & 0xFu);

    /* DEVARCH/DEVTYPE/DEVAFF exist only in class 0x9 components; at the same
     * offsets a class 0x1 table has MEMTYPE (0xFCC) and reserved words. */
    if (id->cls != CS_CLASS_CS)
        return;
    id->devarch = regs[CS_DEVARCH / 4u];
    id->devid = regs[CS_DEVID / 4u];
    id->devtype = (uint8_t)(regs[CS_DEVTYPE / 4u] & 0xFFu);
    id->devaff = (uint64_t)regs[CS_DEVAFF1 / 4u] << 32 | regs[CS_DEVAFF0 / 4u];
}

/* One batch for the whole ID block (design rule 1: batches, not a round trip
 * per register).  The ID registers are in the Debug power domain (spec 9 item 4),
 * so they answer with the core off; an error here means nothing answers at
 * base (unmapped) or the path failed. */
int pp_cs_read_id(struct pp_bus *bus, uint32_t base, struct pp_cs_id *id)
{
    struct pp_op ops[ID_NOPS];
    uint32_t regs[1024] = { 0 };
    int rc;

    if (!bus || !id || (base & 0xFFFu))
        return PP_E_INVAL;
    for (size_t i = 0; i < ID_NOPS; i++)
        ops[i] = (struct pp_op){ .addr = base + id_offsets[i] };
    rc = pp_bus_run(bus, ops, ID_NOPS);
    if (rc != PP_OK) {
        /* A failed CIDR/PIDR read is the component's error.  A failure on
         * the class-0x9-only words counts only if the component is class
         * 0x9: elsewhere those offsets are reserved and we discard them. */
        for (size_t i = 0; i < ID_NCORE; i++)
            if (ops[i].st != PP_OP_OK)
                return pp_op_status_err(ops[i].st);
        if (((ops[1].rdata >> 4) & 0xFu) == CS_CLASS_CS)
            return rc;
    }
    for (size_t i = 0; i < ID_NOPS; i++)
        if (ops[i].st == PP_OP_OK)
            regs[id_offsets[i] / 4u] = ops[i].rdata;
    pp_cs_decode_id(regs, id);
    return PP_OK;
}

const char *pp_cs_class_name(uint8_t cls)
{
    switch (cls) {
    case 0x0: return "generic verification component";
    case 0x1: return "ROM table";
    case 0x9: return "CoreSight component";
    case 0xB: return "peripheral test block";
    case 0xE: return "generic IP component";
    case 0xF: return "PrimeCell or system component";
    default:  return "reserved class";
    }
}

/* Armv7 blocks have no DEVARCH (spec 4: 0xFBC reads as zero on the A9), so
 * when DEVTYPE says nothing we fall back on the part numbers of the Armv7
 * rows of the core-type table.  Armv8 rows are left out: their parts are
 * shared between blocks (spec 5.4) and they always carry DEVARCH. */
static enum pp_cs_kind kind_by_v7_part(uint16_t part)
{
    unsigned n;
    const struct pp_core_type *t = pp_core_types(&n);

    for (unsigned i = 0; i < n; i++) {
        if (t[i].debug_devarch != 0)
            continue;
        if (t[i].debug_part == part)
            return PP_CS_DEBUG;
        if (t[i].pmu_part == part)
            return PP_CS_PMU;
        if (t[i].cti_part == part)
            return PP_CS_CTI;
    }
    return PP_CS_OTHER;
}

enum pp_cs_kind pp_cs_kind(const struct pp_cs_id *id)
{
    if (id->cls == CS_CLASS_ROM)
        return PP_CS_ROM;
    if (id->cls != CS_CLASS_CS)
        return PP_CS_OTHER;
    if (id->devarch == CS_DEVARCH_ROM)
        return PP_CS_ROM;
    switch (id->devtype) {
    case CS_DEVTYPE_DEBUG: return PP_CS_DEBUG;
    case CS_DEVTYPE_PMU:   return PP_CS_PMU;
    case CS_DEVTYPE_CTI:   return PP_CS_CTI;
    case CS_DEVTYPE_ETM:   return PP_CS_ETM;
    default:               break;
    }
    if (id->devarch == 0 && id->designer == PP_ARM_DESIGNER)
        return kind_by_v7_part(id->part);
    return PP_CS_OTHER;
}

/*
 * ids.c - CoreSight identification registers shared by every simulated
 * block (spec 5.1, 5.2), and the per-core CTI, which is an ID-only stub.
 */
#include "sim/sim_internal.h"

#define ARM_JEP106_ID    0x3Bu  /* JEP106 ID of Arm, continuation code 4 */
#define ARM_JEP106_CONT  0x4u
#define CTI_DEVARCH_V8   0x47701A14u
#define CTI_DEVTYPE      0x14u

/*
 * PIDR0-4 and CIDR0-3 of an Arm part of class cls (0x1 ROM table, 0x9
 * CoreSight component), revision 0, 4 KB (spec 5.2): PIDR0 = part[7:0],
 * PIDR1 = 0xB0 | part[11:8], PIDR2 = 0x0B, PIDR3 = 0, PIDR4 = 0x04;
 * CIDR = 0x0D, cls << 4, 0x05, 0xB1.  PIDR5-7 read 0.
 */
bool sim_id_read(uint16_t part, uint8_t cls, uint32_t off, uint32_t *val)
{
    switch (off) {
    case 0xFD0: *val = ARM_JEP106_CONT; return true;
    case 0xFD4: case 0xFD8: case 0xFDC: *val = 0; return true;
    case 0xFE0: *val = part & 0xFFu; return true;
    case 0xFE4: *val = (ARM_JEP106_ID & 0xFu) << 4 | (part >> 8 & 0xFu); return true;
    case 0xFE8: *val = 1u << 3 | ARM_JEP106_ID >> 4; return true;
    case 0xFEC: *val = 0; return true;
    case 0xFF0: *val = 0x0D; return true;
    case 0xFF4: *val = (uint32_t)(cls & 0xFu) << 4; return true;
    case 0xFF8: *val = 0x05; return true;
    case 0xFFC: *val = 0xB1; return true;
    default:    return false;
    }
}

/* CTI: identification only (DEVARCH and DEVAFF on Armv8 cores; the Armv7
 * cores' CoreSight CTI 0x906 predates DEVARCH).  Debug domain: always
 * answers; everything else reads 0 and ignores writes. */
int sim_cti_read(struct pp_sim *sim, const struct sim_core *c, uint32_t off, uint32_t *val)
{
    bool v8 = c->type->arch != PP_ARCH_V7;

    (void)sim;
    *val = 0;
    if (sim_id_read(c->type->cti_part, 0x9, off, val))
        return PP_OP_OK;
    switch (off) {
    case 0xFA8: *val = (uint32_t)sim_core_devaff(c); break;
    case 0xFAC: *val = (uint32_t)(sim_core_devaff(c) >> 32); break;
    case 0xFBC: *val = v8 ? CTI_DEVARCH_V8 : 0; break;
    case 0xFCC: *val = CTI_DEVTYPE; break;
    default:    break;
    }
    return PP_OP_OK;
}

/*
 * regs_fields.h - what the PMU and debug register maps share (internal to
 * lib/pmu/regs_*.c): the row macros and the fields of the CoreSight
 * management registers, which are the same in every component (spec 5).
 */
#ifndef PP_REGS_FIELDS_H
#define PP_REGS_FIELDS_H

#include <stddef.h>

#include "pmu/regs.h"

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

/* One register of block blk, with or without fields. */
#define REG_IN(blk, nm, off, acc, fl, flds, d) \
    { .name = nm, .block = blk, .offset = off, .stride = 0, .count = 1, \
      .access = acc, .flags = fl, .fields = flds, .nfields = NELEM(flds), .desc = d }
#define REG0_IN(blk, nm, off, acc, fl, d) \
    { .name = nm, .block = blk, .offset = off, .stride = 0, .count = 1, \
      .access = acc, .flags = fl, .fields = NULL, .nfields = 0, .desc = d }

/* Sizes are part of the declarations so NELEM works on them. */
extern const struct pp_field pp_f_lsr[3];         /* PMLSR, EDLSR, DBGLSR */
extern const struct pp_field pp_f_authstatus[4];  /* PMAUTHSTATUS, DBGAUTHSTATUS */
extern const struct pp_field pp_f_devtype[2];
extern const struct pp_field pp_f_devaff0[5];     /* MPIDR copy, spec 3.5 */
extern const struct pp_field pp_f_devaff1[1];
extern const struct pp_field pp_f_devarch[5];
extern const struct pp_field pp_f_pidr0[1];
extern const struct pp_field pp_f_pidr1[2];
extern const struct pp_field pp_f_pidr2[3];
extern const struct pp_field pp_f_pidr3[2];
extern const struct pp_field pp_f_pidr4[2];
extern const struct pp_field pp_f_cidr[1];
extern const struct pp_field pp_f_cidr1[2];

/* The CoreSight ID block at 0xFD0-0xFFC of a component, names prefixed
 * (PMPIDR0, EDCIDR1, DBGPIDR4, ...). */
#define CS_ID_REGS(blk, p) \
    REG_IN(blk, p "PIDR4", 0xFD0, PP_RO, 0, pp_f_pidr4, "peripheral ID 4"), \
    REG_IN(blk, p "PIDR0", 0xFE0, PP_RO, 0, pp_f_pidr0, "peripheral ID 0"), \
    REG_IN(blk, p "PIDR1", 0xFE4, PP_RO, 0, pp_f_pidr1, "peripheral ID 1"), \
    REG_IN(blk, p "PIDR2", 0xFE8, PP_RO, 0, pp_f_pidr2, "peripheral ID 2"), \
    REG_IN(blk, p "PIDR3", 0xFEC, PP_RO, 0, pp_f_pidr3, "peripheral ID 3"), \
    REG_IN(blk, p "CIDR0", 0xFF0, PP_RO, 0, pp_f_cidr,  "component ID 0 (0x0D)"), \
    REG_IN(blk, p "CIDR1", 0xFF4, PP_RO, 0, pp_f_cidr1, "component ID 1 (0x90: CoreSight)"), \
    REG_IN(blk, p "CIDR2", 0xFF8, PP_RO, 0, pp_f_cidr,  "component ID 2 (0x05)"), \
    REG_IN(blk, p "CIDR3", 0xFFC, PP_RO, 0, pp_f_cidr,  "component ID 3 (0xB1)")

#endif

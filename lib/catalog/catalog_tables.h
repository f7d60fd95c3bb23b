/*
 * catalog_tables.h - the row macros of the event catalogs, for the C file
 * that lib/catalog/gen-catalog writes from lib/catalog/data/NAME.ev, and the
 * catalogs' names for lib/pmu/catalog.c (nothing else should include it).
 *
 * A row reads:
 *   EV(code, "MNEMONIC", type, flags, component, bus_lsb, bus_bits, trace_lsb,
 *      "description")
 * and EA() is the same with an accuracy token (PRECISE / APPROX) before the
 * description, for the few events whose source states one.  bus_lsb and
 * trace_lsb are -1 and bus_bits is 0 where the source publishes nothing.
 */
#ifndef PP_CATALOG_TABLES_H
#define PP_CATALOG_TABLES_H

#include <stddef.h>

#include "pmu/catalog.h"

#define FL_NONE 0
#define FL_A    PP_EVF_ARCH
#define FL_I    PP_EVF_IMPDEF
#define FL_AI   (PP_EVF_ARCH | PP_EVF_IMPDEF)
#define FL_IR   (PP_EVF_IMPDEF | PP_EVF_RECOMMENDED)
#define FL_AIR  (PP_EVF_ARCH | PP_EVF_IMPDEF | PP_EVF_RECOMMENDED)

#define COMP_NONE   NULL
#define COMP_L1I    "L1I"
#define COMP_L1D    "L1D"
#define COMP_L2     "L2"
#define COMP_L3     "L3"
#define COMP_BPU    "BPU"
#define COMP_L1ITLB "L1ITLB"
#define COMP_L1DTLB "L1DTLB"
#define COMP_L2TLB  "L2TLB"
#define COMP_BUS    "BUS"

#define EV(code, name, type, flags, comp, lsb, bits, trace, desc) \
    { (code), (name), (desc), PP_EVT_##type, PP_ACC_UNSTATED, (flags), \
      COMP_##comp, (lsb), (bits), (trace) }
#define EA(code, name, type, flags, comp, lsb, bits, trace, acc, desc) \
    { (code), (name), (desc), PP_EVT_##type, PP_ACC_##acc, (flags), \
      COMP_##comp, (lsb), (bits), (trace) }

extern const struct pp_catalog pp_catalog_armv7_common;
extern const struct pp_catalog pp_catalog_armv8_common;
extern const struct pp_catalog pp_catalog_cortex_a7;
extern const struct pp_catalog pp_catalog_cortex_a9;
extern const struct pp_catalog pp_catalog_cortex_a15;
extern const struct pp_catalog pp_catalog_cortex_a32;
extern const struct pp_catalog pp_catalog_cortex_a35;
extern const struct pp_catalog pp_catalog_cortex_a53;
extern const struct pp_catalog pp_catalog_cortex_a55;
extern const struct pp_catalog pp_catalog_cortex_a57;
extern const struct pp_catalog pp_catalog_cortex_a72;
extern const struct pp_catalog pp_catalog_cortex_a76;
extern const struct pp_catalog pp_catalog_neoverse_n1;

#endif

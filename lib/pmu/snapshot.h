/*
 * snapshot.h - counter samples through the IMPLEMENTATION DEFINED snapshot
 * block of Cortex-A55/A76 (internal).
 *
 * One write of PMSSCR.SS (pmu+0x6F0) copies PMOVSR, PMCCNTR and
 * PMEVCNTR0-5 at one instant (spec/arm-pmu-coresight.md 1.4 table 2); the
 * copies are then read at leisure in the same batch:
 *   [PMOVSCLR write of consumed flags]   as in the live plan (extend.h)
 *   PMSSCR  write SS=1                   capture
 *   PMSSSR  read  0x610                  NC[0] = 1: nothing was captured
 *   PMOVSSR read  0x614                  captured overflow flags, when a
 *                                        32-bit counter is sampled
 *   PMCCNTSR_LO/HI 0x618/0x61C           when the cycle counter is sampled
 *   PMEVCNTSR<n>  0x620 + 4n             for n in the mask (n <= 5)
 * The copies feed the same 64-bit extension as live reads (pp_ext_feed),
 * with no read window: flags and counters belong together.
 */
#ifndef PP_SNAPSHOT_H
#define PP_SNAPSHOT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pmu/extend.h"

#define PP_SNAP_PMSSSR     0x610u
#define PP_SNAP_PMOVSSR    0x614u
#define PP_SNAP_PMCCNTSR   0x618u      /* low word; high word at +4 */
#define PP_SNAP_PMEVCNTSR(n) (0x620u + 4u * (n))
#define PP_SNAP_NEVCNT     6u           /* PMEVCNTSR0..5 */
#define PP_SNAP_NC         (1u << 0)    /* PMSSSR.NC */
/* Most ops a snapshot plan takes after the optional clear. */
#define PP_SNAP_PLAN_MAX   (3u + 2u + PP_SNAP_NEVCNT)

/* Whether the core has the IMP DEF snapshot block (target description). */
bool pp_snap_supported(const struct pp_core_desc *core);
/*
 * Whether the silicon agrees with the description: the table (or the
 * target file) only claims the block, PMCFGR.SS (bit 22, spec 1.3) says
 * whether this PMU has it.  Without it the window at 0x600 reads as zeros
 * and PMSSSR.NC as 0, which would pass for captured copies of counters
 * that never move.  PP_E_UNSUPPORTED, with *pmcfgr, when SS is clear;
 * PP_OK when it is set or nothing can be told (the read failed, the core
 * being off, or PMCFGR reads all zero, as program.c takes PMCFGR.N).
 */
struct pp_bus;
int pp_snap_check_silicon(struct pp_bus *bus, const struct pp_core_desc *core, uint32_t *pmcfgr);
/* Whether the block copies every counter of mask (PMEVCNTR0-5, PMCCNTR). */
bool pp_snap_copies(uint32_t mask);

/*
 * pp_ext_init for snapshot sampling: pp_ext_plan/pp_ext_update then use
 * the snapshot plan.  PP_E_UNSUPPORTED with a message on cores without the
 * block; PP_E_INVAL when the mask names event counters above 5 (the block
 * copies PMEVCNTR0-5 only).  Event counters are taken as 32-bit (the copies
 * are 32-bit; with 64-bit event counters keep PMCR.LP = 0).
 */
int pp_snap_init(struct pp_ext *x, const struct pp_core_desc *core, uint32_t mask,
                 char *err, size_t errlen);

/* The snapshot ops after the optional clear: count, and writing them. */
size_t pp_snap_plan_len(const struct pp_ext *x);
size_t pp_snap_plan_ops(const struct pp_ext *x, struct pp_op *ops);
/* Decodes the ops pp_snap_plan_ops wrote, all run successfully, into raw
 * values (ovs, val[], nocapture, coherent). */
void pp_snap_fill(const struct pp_ext *x, const struct pp_op *ops, struct pp_ext_raw *raw);

#endif

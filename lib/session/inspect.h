/*
 * inspect.h - the bus-level side of the public status, register, event and
 * discovery calls (internal): the CLI, which holds a bus and a target
 * rather than a pp_session, calls these so that both print one source.
 */
#ifndef PP_INSPECT_H
#define PP_INSPECT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pmu/diag.h"
#include "pmu/regs.h"
#include "pmuprobe.h"
#include "target/target.h"

/* pp_core_status for core c behind bus: one diagnosis batch.  PP_OK, or
 * the path's error (PP_E_LINK, PP_E_WAIT). */
int pp_status_read(struct pp_bus *bus, const struct pp_core_desc *c, struct pp_core_status *out);
/* The public status of an existing diagnosis (no bus access). */
void pp_status_from_diag(const struct pp_core_desc *c, const struct pp_diag *d,
                         struct pp_core_status *out);

/* "cpu1: no register 'PMRC' on Cortex-A76 (PMUv3, 6 counters); did you
 * mean PMCR?": why name did not resolve on c. */
void pp_reg_unknown_msg(const struct pp_core_desc *c, const char *name, char *buf, size_t len);
/* The lines `read` prints for a register of c at addr: "cpu0 PMCR
 * 0x81030E04 = 0x41013000", then (unless raw) its fields and, for PMCEIDn,
 * the events it advertises.  hi: the high word's reference of a 64-bit
 * value (v is then whole), else NULL.  Returns the length written; the
 * text is cut at len - 1. */
size_t pp_reg_format(const struct pp_core_desc *c, const struct pp_reg_ref *ref, uint32_t addr,
                     const struct pp_reg_ref *hi, uint64_t v, bool raw, char *buf, size_t len);

/* PMCEID0-1 (PMUv3p1: 0-3) of c in one batch into ceid (the rest 0).
 * False when they could not be read: then *diag_ok says whether d holds
 * the core's diagnosis. */
bool pp_pmceid_read(struct pp_bus *bus, const struct pp_core_desc *c, uint32_t ceid[4],
                    struct pp_diag *d, bool *diag_ok);

/* pp_scan over bus for target t.  *out and *n hold what the walk found also
 * when it fails partway (the caller frees *out either way). */
int pp_scan_bus(struct pp_bus *bus, const struct pp_target *t, struct pp_component **out,
                size_t *n, char *err, size_t errlen);

#endif

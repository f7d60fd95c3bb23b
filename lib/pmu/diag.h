/*
 * diag.h - why a core's PMU does or does not answer (internal).
 *
 * After an error response the only reliable witness is EDPRSR, and reading
 * it clears its sticky bits (spec/arm-pmu-coresight.md 3.1), so a diagnosis
 * reads it exactly once, keeps the value, and decodes everything from it.
 */
#ifndef PP_DIAG_H
#define PP_DIAG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pmuprobe.h"
#include "target/target.h"

/* enum pp_cause, pp_cause_name and pp_cause_str are public (pmuprobe.h). */

struct pp_diag {
    unsigned cpu;
    /* What was read, with each read's own status. */
    uint32_t edprsr;       int edprsr_st;    /* debug+0x314, read once */
    uint32_t authstatus;   int authstatus_st;/* DBGAUTHSTATUS debug+0xFB8 */
    uint32_t pmcfgr;       int pmcfgr_st;    /* PMU probe: PMCFGR */
    uint32_t oslsr;        int oslsr_st;     /* Armv7 DBGOSLSR (0x304) */
    /* Decoded. */
    bool powered, oslock, doublelock, halted, in_reset, lost_state;
    bool pmu_ok;
    int  cause;                    /* enum pp_cause */
    char evidence[192];            /* "EDPRSR=0x00000021: PU=1 OSLK=1" */
    const char *remedy;            /* what to do; NULL when nothing is wrong */
};

/*
 * Reads, in one bus batch, a probe of the PMU (PMCFGR) then EDPRSR, the
 * authentication status and (Armv7) DBGOSLSR, and names the first blocking
 * condition in the architecture's order (spec 2.1): core off, double lock,
 * OS lock, PMU access disabled.  Probing first is deliberate: an access
 * refused for EPMAD sets EDPRSR.SPMAD, which the EDPRSR read then shows.
 * Returns PP_OK when a diagnosis was made (even "unknown"), PP_E_LINK etc.
 * when the path itself failed.
 */
int pp_diag_core(struct pp_bus *bus, const struct pp_core_desc *core, struct pp_diag *out);

/* Decodes a diagnosis from already-read values (for tests and for paths
 * that read the registers in their own batch). */
void pp_diag_decode(const struct pp_core_desc *core, struct pp_diag *d);

/* Room for pp_diag_text: the cause, an evidence[] and the longest remedy. */
#define PP_DIAG_TEXT_MAX 512

/* The one layout of a diagnosis in reports: the cause, then evidence and
 * remedy on lines of their own, indented by indent spaces, no final newline:
 *   "OS lock set\n  evidence: EDPRSR=0x00000021: PU=1 OSLK=1\n  remedy:   ..."
 * ("-" when there is no remedy).  Cut at len - 1, always terminated when
 * len > 0; returns buf. */
const char *pp_diag_text(const struct pp_diag *d, unsigned indent, char *buf, size_t len);
/* The same on one line, for a message in err (the Python package splits
 * it at "; evidence: " and "; remedy: "):
 *   "OS lock set; evidence: EDPRSR=0x00000021: PU OSLK; remedy: ..." */
const char *pp_diag_line(const struct pp_diag *d, char *buf, size_t len);
/* When the core's PMU answers (d->pmu_ok) yet an access failed, the
 * location itself refused it: that text, the evidence and the remedy after
 * sep ("\n    " in a report, "; " on one line).  The words are macros so
 * that OpenOCD's pmu.tcl prints the same (src/pmutcl/gen-pmutcl.c). */
#define PP_DIAG_REFUSED_FMT \
    "the core's PMU answers, so this location itself refused the access " \
    "(not implemented on %s, or an address fault)"
#define PP_DIAG_REFUSED_REMEDY \
    "check that this core type implements the register, and the PMU and debug " \
    "base addresses of the target description (pmuprobe scan reads them from the ROM table)"
const char *pp_diag_refused(const struct pp_diag *d, const char *core_type, const char *sep,
                            char *buf, size_t len);
/* The same from the parts (a struct pp_core_status holds them). */
const char *pp_diag_text_of(int cause, const char *evidence, const char *remedy, unsigned indent,
                            char *buf, size_t len);

#endif

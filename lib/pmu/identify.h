/*
 * identify.h - which core type a target's core really is (internal).
 *
 * The target description names each core's type, or says "type = auto".
 * Identification reads what the silicon reports: MIDR (debug+0xD00,
 * readable only with the core powered), the debug and PMU blocks' PIDR
 * part numbers, PMDEVARCH and PMCFGR (spec/arm-pmu-coresight.md 1.3, 3, 5).
 * For "auto" cores it chooses the type, hence the register map and the
 * catalog; for named types the description overrides: identification
 * checks and informs, it does not silently switch maps.
 */
#ifndef PP_IDENTIFY_H
#define PP_IDENTIFY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pmuprobe.h"
#include "target/target.h"

struct pp_ident {
    uint32_t midr;      int midr_st;
    uint32_t pmcfgr;    int pmcfgr_st;
    uint32_t pmdevarch; int pmdevarch_st;
    uint16_t debug_part, pmu_part;   /* 0 when unreadable */
    const struct pp_core_type *type; /* identified; NULL if nothing matched */
    const char *source;              /* "MIDR", "debug PIDR", "" */
    unsigned pmu_version;            /* 3 by PMDEVARCH 0x2A16, 2 by PMCFGR.SIZE=31; 0 unknown */
    unsigned counters;               /* PMCFGR.N; 0 unknown */
    bool     agrees;                 /* type, PMU version and counters match the description */
    char     detail[192];            /* what disagrees, or what was used */
};

/* One bus batch per core.  Returns PP_OK (even when nothing could be
 * identified) or the path's error (PP_E_LINK, PP_E_WAIT). */
int pp_identify_core(struct pp_bus *bus, const struct pp_core_desc *core, struct pp_ident *out);

/*
 * For the cores whose description says "type = auto": identifies each
 * (pp_identify_core) and, when any was identified, loads the description
 * again from t->path with those types into *out (the caller frees both;
 * *out stays NULL when nothing changed).  Cores nothing identifies keep
 * the generic PMUv3 type, and note says so.  PP_OK, a path error, or the
 * reload's error (message in note).
 */
int pp_identify_target(struct pp_bus *bus, const struct pp_target *t, struct pp_target **out,
                       char *note, size_t notelen);

/* Decodes already-read values (for tests and batched callers). */
void pp_identify_decode(const struct pp_core_desc *core, struct pp_ident *id);

#endif

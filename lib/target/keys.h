/*
 * keys.h - the keys of a target description and the state the parser
 * gathers before the description is resolved into a struct pp_target
 * (internal to lib/target/).  The format is documented in
 * man/pmuprobe-target.5.
 *
 * Parsing and resolving are two steps because several sections may name
 * the same core ([core 0-3], then [core 2]): a value is only final once
 * the whole file has been read.
 */
#ifndef PP_TARGET_KEYS_H
#define PP_TARGET_KEYS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "target/target.h"

enum tk_section { TS_SOC, TS_CLUSTER, TS_CORE };

/* How a value is written. */
enum tk_kind {
    TK_STRING,      /* free text (name, description) */
    TK_TYPE,        /* a core type name, pp_core_type_find */
    TK_INT,         /* integer in [min, max]; A +S in core sections */
    TK_FLOAT,       /* real in [fmin, fmax]; A +S in core sections */
    TK_BOOL,        /* yes/no, on/off, true/false, 1/0 */
    TK_OSLOCK,      /* locked/unlocked (or a boolean) */
    TK_TIME,        /* deterministic/realtime */
    TK_AUTH,        /* comma list of dbgen,niden,spiden,spniden; all; none */
    TK_CLASS,       /* ROM table class: 1 or 9 */
    TK_CHAIN,       /* a JTAG chain (link/jtagchain.h), stored in t->jtag */
    TK_EVLIST,      /* common event numbers or mnemonics, comma or space separated */
    TK_DPKIND,      /* jtag, swd or swj: the debug port's transports */
};

enum tk_id {
    /* [soc] */
    K_NAME, K_DESCRIPTION, K_DP, K_DP_IDCODE, K_DP_TARGETID, K_AP_INDEX, K_AP_IDR, K_ROM_BASE,
    K_ROM_CLASS, K_ROM_PART, K_TIME, K_TIME_ACCESS_NS,
    K_JTAG_CHAIN,
    /* [cluster N] (rom.* are shared with [soc]) */
    K_SLOTS,
    /* [core ...] */
    K_CLUSTER, K_SLOT, K_TYPE, K_DEBUG, K_PMU, K_CTI, K_MPIDR, K_DEVAFF_ZERO, K_COUNTERS,
    K_COUNTER64, K_SNAPSHOT, K_PCSAMPLE, K_POWER, K_OSLOCK, K_DOUBLELOCK,
    K_HALTED, K_AUTH, K_EPMAD, K_OS_UNLOCK_US,
    K_SIM_MIDR, K_SIM_COUNTERS, K_SIM_PMCEID_SET, K_SIM_PMCEID_CLEAR,
    K_WL_CLOCK_MHZ, K_WL_IPC, K_WL_L1D_PKI, K_WL_L1D_MPKI, K_WL_L1I_MPKI,
    K_WL_L2D_PKI, K_WL_L2D_MPKI, K_WL_BR_PKI, K_WL_BR_MPKI, K_WL_TLB_MPKI,
    K_WL_STALL_FE, K_WL_STALL_BE, K_WL_PHASE_US, K_WL_SWING, K_WL_SEED,
    K_COUNT
};

struct tk_def {
    const char *name;
    enum tk_id id;
    unsigned sections;       /* 1u << TS_* where the key may appear */
    enum tk_kind kind;
    int64_t min, max;        /* TK_INT */
    double fmin, fmax;       /* TK_FLOAT */
    const char *expect;      /* what a good value looks like, for messages */
};

/* One key as set in one section: the value, or base and step of an
 * "A +S" value, with the first cpu of the section the step counts from. */
struct tk_val {
    bool     set;
    unsigned line;
    unsigned first;          /* first cpu of the section (core keys) */
    int64_t  i, istep;
    double   f, fstep;
    const struct pp_core_type *type;
    uint32_t ev[4];          /* TK_EVLIST: bit b of ev[r] = PMCEIDr bit b */
};

struct tk_entity {
    unsigned id;             /* cluster id or cpu number */
    unsigned line;           /* first section that named it */
    struct tk_val v[K_COUNT];
};

/* Everything read from the file, before defaults and checks. */
struct tk_state {
    const char *name;        /* file name for messages */
    char *err;
    size_t errlen;
    struct pp_target *t;     /* strings of [soc] are stored here directly */
    const struct pp_core_type *const *types; /* by cpu: types for "auto" cores, or NULL */
    bool have_soc;
    unsigned soc_line;
    struct tk_val soc[K_COUNT];
    unsigned ncl;
    struct tk_entity cl[PP_MAX_CLUSTERS];
    unsigned nco;
    struct tk_entity co[PP_MAX_CORES];
    unsigned last_line;
};

/* Key table lookups (value.c). */
const struct tk_def *tk_key_find(const char *name);
const struct tk_def *tk_key_by_id(enum tk_id id);
/* The known key of this section closest to name, or NULL. */
const char *tk_key_suggest(const char *name, enum tk_section sec);
const char *tk_section_name(enum tk_section sec);

/*
 * Parses value text for def into out (value.c).  step_ok allows "A +S".
 * On failure returns PP_E_PARSE and writes the problem (without the
 * "FILE:LINE: where: " prefix) into msg.
 */
int tk_value_parse(const struct tk_def *def, const char *text, bool step_ok,
                   struct tk_val *out, char *msg, size_t msglen);
/* The value of a core key for one cpu: base + step * (cpu - first). */
bool tk_int_at(const struct tk_val *v, unsigned cpu, int64_t *out);
double tk_float_at(const struct tk_val *v, unsigned cpu);

/* Applies defaults and checks; fills st->t (resolve.c). */
int tk_resolve(struct tk_state *st);

/* "NAME:LINE: " + message into st->err; returns PP_E_PARSE (parse.c). */
int tk_fail(struct tk_state *st, unsigned line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#endif

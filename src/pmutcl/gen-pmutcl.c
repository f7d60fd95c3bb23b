/*
 * gen-pmutcl.c - writes targets/openocd/pmu-tables.tcl, the data that
 * targets/openocd/pmu.tcl uses inside OpenOCD, from the library's own
 * tables: core types, register maps with their fields, event catalogs,
 * perf-style aliases per core type, the blocking causes with their
 * remedies, and the sticky-overrun guard procs (lib/bus/ocd_overrun.h).
 * One source for both, so the TCL cannot drift from the C.
 *
 * Run at build time (targets/openocd/pmu.mk); output on stdout.  Every
 * string goes out as one quoted TCL word (pp_tcl_word).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bus/ocd_overrun.h"
#include "bus/ocd_tcl.h"
#include "pmu/catalog.h"
#include "pmu/coretype.h"
#include "pmu/diag.h"
#include "pmu/evname.h"
#include "pmu/regs.h"
#include "target/target.h"

/* The perf names pp_event_resolve knows (lib/pmu/evname.h). */
static const char *const aliases[] = {
    "cycles", "cpu-cycles", "instructions", "branches", "branch-misses",
    "cache-references", "cache-misses", "bus-cycles", "stalled-cycles-frontend",
    "stalled-cycles-backend", "L1-dcache-loads", "L1-dcache-load-misses",
    "L1-dcache-stores", "L1-icache-load-misses", "LLC-loads", "LLC-load-misses",
    "dTLB-load-misses", "iTLB-load-misses",
};

static const char *const arch_names[] = { "v7", "v8.0", "v8.2" };

static void emit(struct pp_tcl_buf *b)
{
    const char *s = pp_tcl_str(b);

    if (!s) {
        fprintf(stderr, "gen-pmutcl: out of memory\n");
        exit(1);
    }
    fputs(s, stdout);
    b->len = 0;
    b->s[0] = '\0';
}

static void hex_word(struct pp_tcl_buf *b, unsigned v, int digits)
{
    char num[16];

    snprintf(num, sizeof(num), " 0x%0*X", digits, v);
    pp_tcl_raw(b, num);
}

/* {KEY PRETTY MIDR_PART ARCH PMU_VERSION V3P1 COUNTERS DEBUG_PART
 *  PMU_PART CATALOG DOUBLE_LOCK} */
static void core_types(struct pp_tcl_buf *b)
{
    unsigned n;
    const struct pp_core_type *ct = pp_core_types(&n);

    pp_tcl_raw(b, "set ::pmu_coretypes {\n");
    for (unsigned i = 0; i < n; i++) {
        pp_tcl_raw(b, "  {");
        pp_tcl_word(b, ct[i].name);
        pp_tcl_word(b, ct[i].pretty);
        hex_word(b, ct[i].midr_part, 3);
        pp_tcl_word(b, arch_names[ct[i].arch]);
        pp_tcl_uint(b, ct[i].pmu_version);
        pp_tcl_uint(b, ct[i].pmuv3p1);
        pp_tcl_uint(b, ct[i].counters);
        hex_word(b, ct[i].debug_part, 3);
        hex_word(b, ct[i].pmu_part, 3);
        pp_tcl_word(b, ct[i].catalog ? ct[i].catalog : "");
        pp_tcl_uint(b, ct[i].double_lock);
        pp_tcl_raw(b, "}\n");
    }
    pp_tcl_raw(b, "}\n");
    emit(b);
}

static const char *access_name(unsigned a)
{
    return a == PP_RO ? "RO" : a == PP_WO ? "WO" : "RW";
}

/* {NAME OFFSET STRIDE COUNT ACCESS FLAGS DESC {{FIELD LSB WIDTH DESC}...}} */
static void reg_map(struct pp_tcl_buf *b, const char *key, const struct pp_reg *r, size_t n)
{
    pp_tcl_raw(b, "set ::pmu_regs(");
    pp_tcl_raw(b, key);
    pp_tcl_raw(b, ") {\n");
    for (size_t i = 0; i < n; i++) {
        pp_tcl_raw(b, "  {");
        pp_tcl_word(b, r[i].name);
        hex_word(b, r[i].offset, 3);
        pp_tcl_uint(b, r[i].stride);
        pp_tcl_uint(b, r[i].count);
        pp_tcl_word(b, access_name(r[i].access));
        pp_tcl_uint(b, r[i].flags);
        pp_tcl_word(b, r[i].desc ? r[i].desc : "");
        pp_tcl_raw(b, " {");
        for (size_t f = 0; f < r[i].nfields; f++) {
            pp_tcl_raw(b, f ? " {" : "{");
            pp_tcl_word(b, r[i].fields[f].name);
            pp_tcl_uint(b, r[i].fields[f].lsb);
            pp_tcl_uint(b, r[i].fields[f].width);
            pp_tcl_word(b, r[i].fields[f].desc ? r[i].fields[f].desc : "");
            pp_tcl_raw(b, "}");
        }
        pp_tcl_raw(b, "}}\n");
    }
    pp_tcl_raw(b, "}\n");
    emit(b);
}

static void reg_maps(struct pp_tcl_buf *b)
{
    size_t n;
    const struct pp_reg *r;

    r = pp_regs_pmu(3, &n);
    reg_map(b, "pmu3", r, n);
    r = pp_regs_pmu(2, &n);
    reg_map(b, "pmu2", r, n);
    for (unsigned a = PP_ARCH_V7; a <= PP_ARCH_V8_2; a++) {
        char key[32];

        snprintf(key, sizeof(key), "debug-%s", arch_names[a]);
        r = pp_regs_debug((enum pp_arch)a, &n);
        reg_map(b, key, r, n);
    }
}

/* ::pmu_events(KEY) {{CODE NAME DESC}...}, ::pmu_common(KEY) COMMON_KEY */
static void catalogs(struct pp_tcl_buf *b)
{
    size_t n;
    const struct pp_catalog *const *cats = pp_catalog_all(&n);

    for (size_t c = 0; c < n; c++) {
        pp_tcl_raw(b, "set ::pmu_events(");
        pp_tcl_raw(b, cats[c]->key);
        pp_tcl_raw(b, ") {\n");
        for (size_t i = 0; i < cats[c]->n; i++) {
            pp_tcl_raw(b, "  {");
            hex_word(b, cats[c]->events[i].code, 4);
            pp_tcl_word(b, cats[c]->events[i].name);
            pp_tcl_word(b, cats[c]->events[i].desc ? cats[c]->events[i].desc : "");
            pp_tcl_raw(b, "}\n");
        }
        pp_tcl_raw(b, "}\nset ::pmu_common(");
        pp_tcl_raw(b, cats[c]->key);
        pp_tcl_raw(b, ")");
        pp_tcl_word(b, cats[c]->common ? cats[c]->common->key : "");
        pp_tcl_raw(b, "\n");
        emit(b);
    }
}

/* ::pmu_aliases(CORETYPE) {ALIAS CODE ...}; CODE "cycle" = PMCCNTR. */
static void alias_tables(struct pp_tcl_buf *b)
{
    unsigned n;
    const struct pp_core_type *ct = pp_core_types(&n);

    for (unsigned i = 0; i < n; i++) {
        pp_tcl_raw(b, "set ::pmu_aliases(");
        pp_tcl_raw(b, ct[i].name);
        pp_tcl_raw(b, ") {");
        for (size_t a = 0; a < sizeof(aliases) / sizeof(aliases[0]); a++) {
            struct pp_evsel ev;
            char err[256];

            if (pp_event_resolve(&ct[i], aliases[a], &ev, err, sizeof(err)) != PP_OK)
                continue;
            pp_tcl_word(b, aliases[a]);
            if (ev.cycle_counter)
                pp_tcl_raw(b, " cycle");
            else
                hex_word(b, ev.code, 4);
        }
        pp_tcl_raw(b, "}\n");
        emit(b);
    }
}

/* The remedy pp_diag_decode gives for a cause, found by decoding the
 * EDPRSR value that shows it (spec/arm-pmu-coresight.md 3.1), so the
 * words are the library's. */
static const char *remedy_for(uint32_t edprsr, int edprsr_st)
{
    struct pp_core_desc core = { .cpu = 0 };
    struct pp_diag d;

    core.type = pp_core_type_find("cortex-a53");
    memset(&d, 0, sizeof(d));
    d.edprsr = edprsr;
    d.edprsr_st = edprsr_st;
    d.pmcfgr_st = PP_OP_SLVERR;
    d.authstatus_st = PP_OP_PENDING;
    d.oslsr_st = PP_OP_PENDING;
    pp_diag_decode(&core, &d);
    return d.remedy ? d.remedy : "";
}

/* {NAME TEXT REMEDY} in the order the architecture checks them (spec 2.1). */
static void causes(struct pp_tcl_buf *b)
{
    static const struct { int cause; uint32_t edprsr; int st; } ex[] = {
        { PP_CAUSE_DEBUG_OFF, 0, PP_OP_SLVERR },
        { PP_CAUSE_CORE_OFF, 0, PP_OP_OK },
        { PP_CAUSE_DOUBLE_LOCK, PP_EDPRSR_PU | PP_EDPRSR_DLK, PP_OP_OK },
        { PP_CAUSE_OS_LOCK, PP_EDPRSR_PU | PP_EDPRSR_OSLK, PP_OP_OK },
        { PP_CAUSE_PMU_DISABLED, PP_EDPRSR_PU | PP_EDPRSR_EPMAD | PP_EDPRSR_SPMAD, PP_OP_OK },
        { PP_CAUSE_UNKNOWN, PP_EDPRSR_PU, PP_OP_OK },
    };

    pp_tcl_raw(b, "set ::pmu_causes {\n");
    for (size_t i = 0; i < sizeof(ex) / sizeof(ex[0]); i++) {
        pp_tcl_raw(b, "  {");
        pp_tcl_word(b, pp_cause_name(ex[i].cause));
        pp_tcl_word(b, pp_cause_str(ex[i].cause));
        pp_tcl_word(b, remedy_for(ex[i].edprsr, ex[i].st));
        pp_tcl_raw(b, "}\n");
    }
    pp_tcl_raw(b, "}\n");
    emit(b);
}

/* What a refusing location is told, in read's words (pp_diag_refused):
 * ::pmu_refused is a format taking the core type's name. */
static void refused(struct pp_tcl_buf *b)
{
    pp_tcl_raw(b, "set ::pmu_refused");
    pp_tcl_word(b, PP_DIAG_REFUSED_FMT);
    pp_tcl_raw(b, "\nset ::pmu_refused_remedy");
    pp_tcl_word(b, PP_DIAG_REFUSED_REMEDY);
    pp_tcl_raw(b, "\n");
    emit(b);
}

int main(void)
{
    struct pp_tcl_buf b;

    pp_tcl_init(&b);
    pp_tcl_raw(&b, "# pmu-tables.tcl - GENERATED by src/gen-pmutcl.c from libpmuprobe's\n"
                   "# tables at build time; do not edit.  Sourced by pmu.tcl.\n"
                   "set ::pmu_tables_version 1\n");
    emit(&b);
    core_types(&b);
    reg_maps(&b);
    catalogs(&b);
    alias_tables(&b);
    causes(&b);
    refused(&b);
    /* The same overrun check as pmuprobe's openocd path. */
    fputs(pp_ocd_overrun_tcl, stdout);
    pp_tcl_free(&b);
    return fflush(stdout) == 0 ? 0 : 1;
}

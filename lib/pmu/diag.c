/*
 * diag.c - naming the condition that blocks external PMU access.
 *
 * Order and meaning: spec/arm-pmu-coresight.md 2.1 (Off, DLK, OSLK, EPMAD),
 * 2.7 (symptom -> cause), 3.1 (EDPRSR), 3.5 (DBGAUTHSTATUS), 4.3 (Armv7).
 */
#include <stdio.h>
#include <string.h>

#include "bus/bus.h"
#include "pmu/diag.h"
#include "pmu/regs.h"

const char *pp_cause_name(int cause)
{
    switch (cause) {
#define PP_CAUSE_SHORT(name, value, shortname, msg) case name: return shortname;
    PP_CAUSES(PP_CAUSE_SHORT)
#undef PP_CAUSE_SHORT
    }
    return "unknown";
}

const char *pp_diag_text_of(int cause, const char *evidence, const char *remedy, unsigned indent,
                            char *buf, size_t len)
{
    if (len)
        snprintf(buf, len, "%s\n%*sevidence: %s\n%*sremedy:   %s", pp_cause_str(cause),
                 (int)indent, "", evidence, (int)indent, "", remedy ? remedy : "-");
    return buf;
}

const char *pp_diag_refused(const struct pp_diag *d, const char *core_type, const char *sep,
                            char *buf, size_t len)
{
    char what[160];

    if (len) {
        snprintf(what, sizeof(what), PP_DIAG_REFUSED_FMT, core_type);
        snprintf(buf, len, "%s%sevidence: %s%sremedy: %s", what, sep, d->evidence, sep,
                 PP_DIAG_REFUSED_REMEDY);
    }
    return buf;
}

const char *pp_diag_line(const struct pp_diag *d, char *buf, size_t len)
{
    if (len)
        snprintf(buf, len, "%s; evidence: %s; remedy: %s", pp_cause_str(d->cause), d->evidence,
                 d->remedy ? d->remedy : "-");
    return buf;
}

const char *pp_diag_text(const struct pp_diag *d, unsigned indent, char *buf, size_t len)
{
    return pp_diag_text_of(d->cause, d->evidence, d->remedy, indent, buf, len);
}

const char *pp_cause_str(int cause)
{
    switch (cause) {
#define PP_CAUSE_MSG(name, value, shortname, msg) case name: return msg;
    PP_CAUSES(PP_CAUSE_MSG)
#undef PP_CAUSE_MSG
    }
    return "cause not identified";
}

/* EDPRSR bit names, spec 3.1 (DBGPRSR uses the same low bits, spec 4.3). */
static const char *const edprsr_bits[] = {
    "PU", "SPD", "R", "SR", "HALTED", "OSLK", "DLK", "EDAD",
    "SDAD", "EPMAD", "SPMAD", "SDR",
};

static size_t format_edprsr(uint32_t v, char *buf, size_t len)
{
    size_t n = (size_t)snprintf(buf, len, "EDPRSR=0x%08X:", v);

    for (unsigned b = 0; b < sizeof(edprsr_bits) / sizeof(edprsr_bits[0]) && n < len; b++)
        if (v & (1u << b))
            n += (size_t)snprintf(buf + n, len - n, " %s", edprsr_bits[b]);
    if (!(v & PP_EDPRSR_PU) && n < len)
        n += (size_t)snprintf(buf + n, len - n, " (PU=0)");
    return n < len ? n : len - 1;
}

/* DBGAUTHSTATUS NSNID [3:2] / SNID [7:6]: 0b10 = implemented and disabled. */
static bool auth_noninvasive_disabled(uint32_t auth)
{
    return ((auth >> 2) & 3u) == 2u;
}

/* Appends to the evidence; fmt has at most one %X/%u conversion for v. */
static void append(struct pp_diag *d, const char *fmt, uint32_t v)
{
    size_t n = strlen(d->evidence);

    if (n < sizeof(d->evidence))
        snprintf(d->evidence + n, sizeof(d->evidence) - n, fmt, v);
}

static void decode_state(const struct pp_core_desc *core, struct pp_diag *d)
{
    uint32_t v = d->edprsr;
    bool v71 = core->type->pmu_version >= 3 || core->type->double_lock;

    d->powered = v & PP_EDPRSR_PU;
    d->lost_state = v & PP_EDPRSR_SPD;
    d->in_reset = v & PP_EDPRSR_R;
    d->halted = v71 && (v & PP_EDPRSR_HALTED);
    d->doublelock = v71 && (v & PP_EDPRSR_DLK);
    d->oslock = v71 && (v & PP_EDPRSR_OSLK);
    /* Armv7.0 (Cortex-A9) DBGPRSR has no OSLK bit: DBGOSLSR.OSLK is bit 1. */
    if (core->type->pmu_version == 2 && d->oslsr_st == PP_OP_OK)
        d->oslock = d->oslsr & 2u;
}

static void blame(struct pp_diag *d, const struct pp_core_desc *core)
{
    uint32_t v = d->edprsr;

    if (!d->powered) {
        d->cause = PP_CAUSE_CORE_OFF;
        if (core->type->arch == PP_ARCH_V8_2)
            append(d, "; on Armv8.2 a double-locked core also reads PU=0", 0);
        d->remedy = "wake the core from software, or request power-up with "
                    "'pmuprobe power cpuN on' (sets EDPRCR.COREPURQ)";
    } else if (d->doublelock) {
        d->cause = PP_CAUSE_DOUBLE_LOCK;
        d->remedy = "the OS set the double lock before powering the core down; it clears "
                    "at the next power-up or reset, or when software clears OSDLR_EL1.DLK";
    } else if (d->oslock) {
        d->cause = PP_CAUSE_OS_LOCK;
        d->remedy = "the OS lock is set at cold reset and by the OS around power-down; let the "
                    "OS boot, or clear it with 'pmuprobe unlock cpuN' (writes 0 to OSLAR, "
                    "debug+0x300) if no OS manages it";
    } else if ((v & (PP_EDPRSR_EPMAD | PP_EDPRSR_SPMAD)) ||
               (d->authstatus_st == PP_OP_OK && auth_noninvasive_disabled(d->authstatus))) {
        d->cause = PP_CAUSE_PMU_DISABLED;
        if (d->authstatus_st == PP_OP_OK)
            append(d, "; DBGAUTHSTATUS=0x%08X", d->authstatus);
        d->remedy = "drive DBGEN or NIDEN (and SPNIDEN for Secure) high, or have EL3 "
                    "firmware clear MDCR_EL3.EPMAD";
    } else {
        d->cause = PP_CAUSE_UNKNOWN;
        d->remedy = "check the PMU base address in the target description; the block may "
                    "be absent or behind another power domain";
    }
}

void pp_diag_decode(const struct pp_core_desc *core, struct pp_diag *d)
{
    d->cpu = core->cpu;
    d->evidence[0] = '\0';
    d->remedy = NULL;
    d->pmu_ok = d->pmcfgr_st == PP_OP_OK;
    if (d->edprsr_st != PP_OP_OK) {
        /* EDPRSR is in the Debug power domain (spec 3): if it errors, the
         * debug domain is off or nothing is at that address. */
        snprintf(d->evidence, sizeof(d->evidence), "EDPRSR read at 0x%08X: %s",
                 core->debug_base + PP_DBG_EDPRSR, pp_op_status_str(d->edprsr_st));
        d->cause = d->pmu_ok ? PP_CAUSE_NONE : PP_CAUSE_DEBUG_OFF;
        if (!d->pmu_ok)
            d->remedy = "check the debug power request (DP CTRL/STAT.CDBGPWRUPREQ) "
                        "and the debug base address in the target description";
        return;
    }
    format_edprsr(d->edprsr, d->evidence, sizeof(d->evidence));
    if (core->type->pmu_version == 2 && d->oslsr_st == PP_OP_OK)
        append(d, "; DBGOSLSR=0x%08X", d->oslsr);
    decode_state(core, d);
    if (d->pmu_ok) {
        d->cause = PP_CAUSE_NONE;
        return;
    }
    blame(d, core);
}

int pp_diag_core(struct pp_bus *bus, const struct pp_core_desc *core, struct pp_diag *out)
{
    struct pp_op ops[4] = {
        { .addr = core->pmu_base + PP_PMU_PMCFGR },
        { .addr = core->debug_base + PP_DBG_EDPRSR },
        { .addr = core->debug_base + PP_DBG_AUTHSTATUS },
        { .addr = core->debug_base + PP_DBG_OSLSR_V7 },
    };
    size_t n = core->type->pmu_version == 2 ? 4 : 3;

    /* The batch's result is not needed: every op carries its own status,
     * and failures are what is being diagnosed. */
    pp_bus_run(bus, ops, n);
    memset(out, 0, sizeof(*out));
    for (size_t i = 0; i < n; i++)
        if (ops[i].st == PP_OP_LINK || ops[i].st == PP_OP_WAIT)
            return pp_op_status_err(ops[i].st);
    out->pmcfgr = ops[0].rdata;     out->pmcfgr_st = ops[0].st;
    out->edprsr = ops[1].rdata;     out->edprsr_st = ops[1].st;
    out->authstatus = ops[2].rdata; out->authstatus_st = ops[2].st;
    out->oslsr = ops[3].rdata;      out->oslsr_st = n > 3 ? ops[3].st : PP_OP_PENDING;
    pp_diag_decode(core, out);
    return PP_OK;
}

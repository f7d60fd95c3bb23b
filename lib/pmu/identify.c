/*
 * identify.c - core type from MIDR, part numbers, PMDEVARCH and PMCFGR.
 */
#include <stdio.h>
#include <string.h>

#include "bus/bus.h"
#include "pmu/identify.h"
#include "pmu/regs.h"

#define PIDR0 0xFE0u
#define PIDR1 0xFE4u
#define PMDEVARCH_PMUV3_ARCHID 0x2A16u

/* PIDR0[7:0] = part[7:0], PIDR1[3:0] = part[11:8] (spec 5.2). */
static uint16_t part_of(uint32_t pidr0, uint32_t pidr1)
{
    return (uint16_t)((pidr0 & 0xFFu) | (pidr1 & 0xFu) << 8);
}

static void find_type(struct pp_ident *id)
{
    if (id->midr_st == PP_OP_OK && id->midr) {
        id->type = pp_core_type_by_midr(id->midr);
        id->source = "MIDR";
        if (id->type)
            return;
    }
    id->type = id->debug_part ? pp_core_type_by_debug_part(id->debug_part) : NULL;
    id->source = id->type ? "debug PIDR" : "";
}

/* PMUv3 has PMDEVARCH ARCHID 0x2A16; Armv7 PMUs have no DEVARCH (RAZ) and
 * 32-bit counters, PMCFGR.SIZE = 31 (spec 1.3, 4.1). */
static void find_pmu(struct pp_ident *id)
{
    if (id->pmdevarch_st == PP_OP_OK && (id->pmdevarch & 0xFFFFu) == PMDEVARCH_PMUV3_ARCHID)
        id->pmu_version = 3;
    else if (id->pmcfgr_st == PP_OP_OK && ((id->pmcfgr >> 8) & 0x3Fu) == 31u)
        id->pmu_version = 2;
    if (id->pmcfgr_st == PP_OP_OK)
        id->counters = id->pmcfgr & 0xFFu;
}

/* A readable MIDR that names no known core, where the description names
 * one: whatever the part numbers say, the core is not that type. */
static bool midr_unknown(const struct pp_core_desc *core, const struct pp_ident *id)
{
    return !core->type_auto && id->midr_st == PP_OP_OK && id->midr &&
           !pp_core_type_by_midr(id->midr);
}

/* "matches (by MIDR)", with the revision when it is not the one the
 * tables describe: same part, so the same map and catalog, but errata and
 * event lists can differ between revisions (MIDR Variant [23:20] and
 * Revision [3:0] give rNpM). */
static void describe_match(const struct pp_core_desc *core, struct pp_ident *id)
{
    const struct pp_core_type *ct = core->type;
    unsigned var = id->midr >> 20 & 0xFu, rev = id->midr & 0xFu;
    size_t len = sizeof(id->detail);

    if (!id->type) {
        snprintf(id->detail, len, "nothing readable to check");
        return;
    }
    if (strcmp(id->source, "MIDR") != 0 || (var == ct->variant && rev == ct->revision)) {
        snprintf(id->detail, len, "matches (by %s)", id->source);
        return;
    }
    snprintf(id->detail, len, "matches (by MIDR), revision r%up%u (the tables describe r%up%u)",
             var, rev, (unsigned)ct->variant, (unsigned)ct->revision);
}

static void compare(const struct pp_core_desc *core, struct pp_ident *id)
{
    size_t n = 0, len = sizeof(id->detail);

    id->agrees = true;
    id->detail[0] = '\0';
    if (midr_unknown(core, id)) {
        n += (size_t)snprintf(id->detail + n, len - n, "MIDR 0x%08X (part 0x%03X) names no "
                              "known core, target says %s; ", (unsigned)id->midr,
                              (unsigned)(id->midr >> 4 & 0xFFFu), core->type->pretty);
        id->agrees = false;
    }
    if (id->type && id->type != core->type) {
        n += (size_t)snprintf(id->detail + n, len - n, "%s reads %s, target says %s; ",
                              id->source, id->type->pretty, core->type->pretty);
        id->agrees = false;
    }
    if (id->pmu_version && id->pmu_version != core->type->pmu_version && n < len) {
        n += (size_t)snprintf(id->detail + n, len - n, "PMU is PMUv%u, target's type has PMUv%u; ",
                              id->pmu_version, core->type->pmu_version);
        id->agrees = false;
    }
    if (id->counters && id->counters != core->counters && n < len) {
        n += (size_t)snprintf(id->detail + n, len - n, "PMCFGR.N = %u, target says %u; ",
                              id->counters, core->counters);
        id->agrees = false;
    }
    if (id->agrees)
        describe_match(core, id);
    else if (n >= 2 && n < len)
        id->detail[n - 2] = '\0';
}

void pp_identify_decode(const struct pp_core_desc *core, struct pp_ident *id)
{
    find_type(id);
    find_pmu(id);
    compare(core, id);
}

int pp_identify_core(struct pp_bus *bus, const struct pp_core_desc *core, struct pp_ident *out)
{
    struct pp_op ops[7] = {
        { .addr = core->debug_base + PP_DBG_MIDR },
        { .addr = core->debug_base + PIDR0 },
        { .addr = core->debug_base + PIDR1 },
        { .addr = core->pmu_base + PIDR0 },
        { .addr = core->pmu_base + PIDR1 },
        { .addr = core->pmu_base + PP_PMU_PMCFGR },
        { .addr = core->pmu_base + PP_PMU_PMDEVARCH },
    };

    memset(out, 0, sizeof(*out));
    pp_bus_run(bus, ops, 7);
    for (size_t i = 0; i < 7; i++)
        if (ops[i].st == PP_OP_LINK || ops[i].st == PP_OP_WAIT)
            return pp_op_status_err(ops[i].st);
    out->midr = ops[0].rdata;      out->midr_st = ops[0].st;
    if (ops[1].st == PP_OP_OK && ops[2].st == PP_OP_OK)
        out->debug_part = part_of(ops[1].rdata, ops[2].rdata);
    if (ops[3].st == PP_OP_OK && ops[4].st == PP_OP_OK)
        out->pmu_part = part_of(ops[3].rdata, ops[4].rdata);
    out->pmcfgr = ops[5].rdata;    out->pmcfgr_st = ops[5].st;
    out->pmdevarch = ops[6].rdata; out->pmdevarch_st = ops[6].st;
    pp_identify_decode(core, out);
    return PP_OK;
}

/*
 * A target file may leave a core's type to the silicon ("type = auto").
 * Each such core is identified with one batch, and the description is
 * then resolved again with the types found, so every default that hangs
 * on the type (PMU offset, counters, register map, catalog) comes out as
 * if the file had named it.  Re-resolving the file rather than patching
 * the parsed cores keeps one place that turns a type into defaults.
 */
int pp_identify_target(struct pp_bus *bus, const struct pp_target *t, struct pp_target **out,
                       char *note, size_t notelen)
{
    const struct pp_core_type *types[PP_MAX_CORES] = { 0 };
    bool any = false;
    size_t n = 0;
    int rc;

    *out = NULL;
    if (note && notelen)
        note[0] = '\0';
    for (unsigned i = 0; i < t->ncores; i++) {
        const struct pp_core_desc *c = &t->cores[i];
        struct pp_ident id;

        if (!c->type_auto)
            continue;
        rc = pp_identify_core(bus, c, &id);
        if (rc != PP_OK)
            return rc;
        if (id.type) {
            types[c->cpu] = id.type;
            any = true;
        } else if (note && n < notelen) {
            n += (size_t)snprintf(note + n, notelen - n, "%scpu%u: 'type = auto' but neither "
                                  "MIDR nor the debug block's part number names a known core; "
                                  "using the generic Armv8 PMUv3 map",
                                  n ? "\n" : "", c->cpu);
        }
    }
    if (!any)
        return PP_OK;
    rc = pp_target_load_ex(t->path, types, out, note, notelen);
    return rc;
}

/*
 * discover.c - a target description from the live SoC, for boards that come
 * without one.  The APB-AP's BASE register gives the top-level ROM table
 * (spec/arm-pmu-coresight.md 6.1), the walk and the pairing give the cores
 * and their debug, PMU and CTI blocks (lib/coresight/topology.c), MIDR or
 * the debug block's part number gives each core's type, PMCFGR.N its
 * counters (spec 1.3).
 *
 * The result is the text of a target file, parsed by the one parser: what
 * discovery finds, what `scan --save` writes and what the user edits and
 * passes back with --target are the same thing, so they cannot drift.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bus/bus.h"
#include "coresight/coresight.h"
#include "errmsg.h"
#include "pmu/coretype.h"
#include "pmu/regs.h"
#include "session/session.h"

/* PMCFGR.N, spec/arm-pmu-coresight.md 1.3. */
#define PMCFGR_N(v) ((v) & 0xFFu)

struct discovery {
    struct pp_topology topo;
    uint32_t rom;
    uint32_t pmcfgr[PP_MAX_CORES];
    bool     pmcfgr_ok[PP_MAX_CORES];
    unsigned cluster_of[PP_MAX_CORES];   /* index into clusters[] */
    uint32_t clusters[PP_MAX_CLUSTERS];  /* ROM table of each cluster */
    unsigned nclusters;
};

/* Counts components whose IDs did not read, as evidence for a walk that
 * found no core (a powered-down debug domain reads as errors). */
static int count_unreadable(void *ctx, const struct pp_cs_component *c)
{
    unsigned *n = ctx;

    if (c->status != PP_OK)
        (*n)++;
    return 0;
}

static int no_core(struct pp_bus *bus, const struct discovery *d, char *err, size_t errlen)
{
    unsigned bad = 0;

    (void)pp_cs_walk(bus, d->rom, count_unreadable, &bad);
    if (bad)
        pp_errmsg(err, errlen, "discovery found no core: %u component%s listed by the ROM "
                  "table at 0x%08" PRIX32 " did not answer (a powered-down debug domain "
                  "does that): power the cores up (reset or boot the board) or describe the "
                  "SoC with --target", bad, bad == 1 ? "" : "s", d->rom);
    else
        /* Discovery takes the first APB-AP; a SoC with several may keep
         * the cores behind another one. */
        pp_errmsg(err, errlen, "discovery found no core: the ROM table at 0x%08" PRIX32
                  " (BASE of the APB-AP at APSEL %u, the first of APSEL 0-15) lists no debug "
                  "block; if the cores sit behind another APB-AP, give --target with its "
                  "ap.index and rom.base", d->rom, bus->ap.apsel);
    return PP_E_NOTFOUND;
}

static int walk(struct pp_bus *bus, struct discovery *d, char *err, size_t errlen)
{
    int rc;

    if (pp_bus_rom_base(bus, &d->rom) != PP_OK) {
        pp_errmsg(err, errlen, "discovery needs the ROM table, but the APB-AP (AP %u, IDR "
                  "0x%08" PRIX32 ") %s: describe the SoC with --target (rom.base)",
                  bus->ap.apsel, bus->ap.idr, bus->ap.known ? "says it has no debug entries "
                  "(BASE register)" : "BASE register could not be read");
        return PP_E_NOTFOUND;
    }
    rc = pp_topology_discover(bus, d->rom, &d->topo);
    if (rc == PP_E_NOTFOUND)
        return no_core(bus, d, err, errlen);
    if (rc != PP_OK)
        pp_errmsg(err, errlen, "discovery: walking the ROM table at 0x%08" PRIX32 " (the "
                  "APB-AP's BASE): %s", d->rom, pp_strerror(rc));
    return rc;
}

/* All PMCFGRs in one batch; a core that is off answers with an error and
 * keeps its type's counter count. */
static void read_pmcfgrs(struct pp_bus *bus, struct discovery *d)
{
    struct pp_op ops[PP_MAX_CORES];
    unsigned n = d->topo.ncores;

    for (unsigned i = 0; i < n; i++)
        ops[i] = (struct pp_op){ .addr = d->topo.cores[i].pmu_base + PP_PMU_PMCFGR };
    (void)pp_bus_run(bus, ops, n);
    for (unsigned i = 0; i < n; i++) {
        d->pmcfgr_ok[i] = d->topo.cores[i].pmu_base && ops[i].st == PP_OP_OK &&
                          PMCFGR_N(ops[i].rdata) >= 1 && PMCFGR_N(ops[i].rdata) <= 31;
        d->pmcfgr[i] = ops[i].rdata;
    }
}

/* A cluster per ROM table that lists debug blocks, in walk order. */
static int group_clusters(struct discovery *d, char *err, size_t errlen)
{
    for (unsigned i = 0; i < d->topo.ncores; i++) {
        uint32_t rom = d->topo.cores[i].rom;
        unsigned k = 0;

        while (k < d->nclusters && d->clusters[k] != rom)
            k++;
        if (k == d->nclusters) {
            if (d->nclusters == PP_MAX_CLUSTERS) {
                pp_errmsg(err, errlen, "discovery: more than %u ROM tables list cores; "
                          "describe the SoC with --target", PP_MAX_CLUSTERS);
                return PP_E_UNSUPPORTED;
            }
            d->clusters[d->nclusters++] = rom;
        }
        d->cluster_of[i] = k;
    }
    return PP_OK;
}

static const struct pp_cs_rom *rom_of(const struct discovery *d, uint32_t base)
{
    for (unsigned i = 0; i < d->topo.nroms; i++)
        if (d->topo.roms[i].base == base)
            return &d->topo.roms[i];
    return NULL;
}

/* Keys padded to width w, as the shipped target files align them. */
static void put_rom(FILE *f, const struct discovery *d, uint32_t base, int w)
{
    const struct pp_cs_rom *r = rom_of(d, base);

    fprintf(f, "%-*s = 0x%08" PRIX32 "\n", w, "rom.base", base);
    if (r)
        fprintf(f, "%-*s = %u\n%-*s = 0x%03X\n", w, "rom.class", r->cls, w, "rom.part",
                r->part);
}

/* "4x Cortex-A53", "2x Cortex-A55 + 2x Cortex-A76": runs of equal types. */
static void put_cores_summary(FILE *f, const struct pp_topology *t)
{
    for (unsigned i = 0; i < t->ncores;) {
        const struct pp_core_type *ty = t->cores[i].type;
        unsigned n = 0;

        while (i + n < t->ncores && t->cores[i + n].type == ty)
            n++;
        fprintf(f, "%s%ux %s", i ? " + " : "", n, ty ? ty->pretty : "unknown core");
        i += n;
    }
}

static void put_soc(FILE *f, const struct pp_bus *bus, const struct discovery *d, const char *via)
{
    fprintf(f, "# Discovered via %s from the live SoC by pmuprobe: the APB-AP's BASE\n"
            "# register, the ROM tables, each core's MIDR (or its debug block's part\n"
            "# number when the core is off) and PMCFGR.  Edit it and pass it back with\n"
            "# --target; see pmuprobe-target(5).\n\n[soc]\nname        = discovered\n"
            "description = \"", via);
    put_cores_summary(f, &d->topo);
    fprintf(f, "\"\nap.index    = %u\nap.idr      = 0x%08" PRIX32 "\n", bus->ap.apsel,
            bus->ap.idr);
    put_rom(f, d, d->rom, 11);
}

static void put_core(FILE *f, const struct discovery *d, unsigned i)
{
    const struct pp_cs_core *c = &d->topo.cores[i];

    fprintf(f, "\n[core %u]\n", c->cpu);
    /* An unknown core gets the generic PMUv3 description, as perf's
     * armv8_pmuv3 PMU does; the comment keeps what was seen. */
    if (c->type)
        fprintf(f, "type     = %s\n", c->type->name);
    else
        fprintf(f, "type     = %s   # debug part 0x%03X, MIDR 0x%08" PRIX32 ": no known "
                "core type\n", pp_core_type_generic()->name, c->debug_part, c->midr);
    fprintf(f, "cluster  = %u\ndebug    = 0x%08" PRIX32 "\n", d->cluster_of[i], c->debug_base);
    /* No PMU found: the type's default offset from the debug block stands. */
    if (c->pmu_base)
        fprintf(f, "pmu      = 0x%08" PRIX32 "\n", c->pmu_base);
    if (c->cti_base)
        fprintf(f, "cti      = 0x%08" PRIX32 "\n", c->cti_base);
    if (c->affinity)
        fprintf(f, "mpidr    = 0x%" PRIX64 "\n", c->affinity);
    if (d->pmcfgr_ok[i])
        fprintf(f, "counters = %u\n", PMCFGR_N(d->pmcfgr[i]));
}

static int put_text(const struct pp_bus *bus, const struct discovery *d, const char *via,
                    char **text, char *err, size_t errlen)
{
    size_t len = 0;
    FILE *f = open_memstream(text, &len);

    if (!f) {
        pp_errmsg(err, errlen, "discovery: out of memory");
        return PP_E_NOMEM;
    }
    put_soc(f, bus, d, via);
    for (unsigned k = 0; k < d->nclusters; k++) {
        fprintf(f, "\n[cluster %u]\n", k);
        put_rom(f, d, d->clusters[k], 9);
    }
    for (unsigned i = 0; i < d->topo.ncores; i++)
        put_core(f, d, i);
    if (fclose(f) != 0) {
        free(*text);
        *text = NULL;
        pp_errmsg(err, errlen, "discovery: out of memory");
        return PP_E_NOMEM;
    }
    return PP_OK;
}

/* What the user should know about cores discovery had to guess. */
static void put_notes(const struct discovery *d, char *note, size_t notelen)
{
    size_t n = 0;

    note[0] = '\0';
    for (unsigned i = 0; i < d->topo.ncores && n < notelen; i++) {
        const struct pp_cs_core *c = &d->topo.cores[i];

        if (!c->type)
            n += (size_t)snprintf(note + n, notelen - n, "cpu%u: debug part 0x%03X, MIDR "
                                  "0x%08" PRIX32 ": no known core type, described as the "
                                  "generic %s (give --target with its type)\n", c->cpu,
                                  c->debug_part, c->midr, pp_core_type_generic()->pretty);
        else if (!c->midr)
            n += (size_t)snprintf(note + n, notelen - n, "cpu%u: powered off, so typed %s by "
                                  "its debug block's part number; counters as that type "
                                  "has\n", c->cpu, c->type->pretty);
    }
}

int pp_discover_text(struct pp_bus *bus, const char *via, char **text, char *note,
                     size_t notelen, char *err, size_t errlen)
{
    struct discovery *d = calloc(1, sizeof(*d));
    int rc;

    *text = NULL;
    if (!d) {
        pp_errmsg(err, errlen, "discovery: out of memory");
        return PP_E_NOMEM;
    }
    rc = walk(bus, d, err, errlen);
    if (rc == PP_OK) {
        read_pmcfgrs(bus, d);
        rc = group_clusters(d, err, errlen);
    }
    if (rc == PP_OK)
        rc = put_text(bus, d, via, text, err, errlen);
    if (rc == PP_OK && note && notelen)
        put_notes(d, note, notelen);
    free(d);
    return rc;
}

int pp_session_use_text(struct pp_session *s, const char *via, const char *text, char *err,
                        size_t errlen)
{
    struct pp_target *t = NULL;
    char name[64];
    int rc;

    snprintf(name, sizeof(name), "<discovered via %s>", via);
    rc = pp_target_parse(text, name, &t, err, errlen);
    if (rc == PP_OK)
        pp_session_adopt(s, t);
    return rc;
}

/* The path was opened with the stand-in; the cores are on t. */
void pp_session_adopt(struct pp_session *s, struct pp_target *t)
{
    pp_target_free(s->target);
    s->target = t;
    s->discovering = false;
    pp_session_trace_target(s);
    pp_path_openocd_target(s);
}

int pp_session_discover(struct pp_session *s, const char *via, char *note, size_t notelen,
                        char *err, size_t errlen)
{
    char *text;
    int rc = pp_discover_text(s->bus, via, &text, note, notelen, err, errlen);

    if (rc != PP_OK)
        return rc;
    rc = pp_session_use_text(s, via, text, err, errlen);
    free(text);
    return rc;
}

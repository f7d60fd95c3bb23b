/*
 * cmd_regs.c - `pmuprobe read` and `pmuprobe write`: registers by Arm name
 * or block offset, all of one command in one bus batch, decoded on read.
 * A failed access is explained (pp_diag) and the others still complete.
 */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cli.h"
#include "json.h"
#include "pmu/catalog.h"
#include "pmu/diag.h"
#include "pmu/extend.h"
#include "pmu/regs.h"
#include "pmu/snapshot.h"
#include "session/inspect.h"

#define MAX_READS 256

void help_read(FILE *out)
{
    fprintf(out,
        "Usage: pmuprobe [OPTIONS] read [-r] [-s] [--json] CPUS REG [REG...]\n"
        "Read PMU or external debug registers of one or more cores in one batch and\n"
        "print each value with its fields decoded.  REG is an Arm name (PMCR,\n"
        "PMCNTENSET, PMEVCNTR3, PMEVTYPER0, PMCCNTR, PMCEID1, EDPRSR, EDSCR, MIDR, ...;\n"
        "case-insensitive) or a block offset (pmu+0xE04, debug+0x314).  PMCEIDn reads\n"
        "also list the events the core advertises.  A 64-bit counter (PMCCNTR on\n"
        "PMUv3) is read whole: high word, low word, high word again, so a carry\n"
        "between the reads is seen; PMCCNTR_HI alone reads the high word.\n"
        "CPUS: cpu2, 0-3, 0,2 or all.\n"
        "A register that answers with an error response is explained: the condition\n"
        "(core off, double lock, OS lock, PMU access disabled), the EDPRSR bits that\n"
        "prove it, and a remedy.  The other reads still complete.\n"
        "  -r, --raw       print values only, no field decoding\n"
        "  -s, --snapshot  capture each core's counters at one instant (PMSSCR, the\n"
        "                  Cortex-A55/A76 snapshot block) and read the copies:\n"
        "                  PMEVCNTR0-5 -> PMEVCNTSR0-5, PMCCNTR -> PMCCNTSR_LO/HI,\n"
        "                  PMOVSSET/PMOVSCLR -> PMOVSSR; PMSSSR.NC = 1 means nothing\n"
        "                  was captured.  Other registers are read live.\n"
        "  -j, --json      one JSON document instead: per core and register the name,\n"
        "                  address, value and fields, or the error with its cause\n"
        "Exit status: 0 all reads succeeded, 1 some access failed, 2 bad arguments.\n");
}

void help_write(FILE *out)
{
    fprintf(out,
        "Usage: pmuprobe [OPTIONS] write CPUS REG VALUE\n"
        "       pmuprobe [OPTIONS] write -A CPUS pmu+0xOFF|debug+0xOFF VALUE\n"
        "       pmuprobe [OPTIONS] write -A ADDRESS VALUE\n"
        "Write VALUE (decimal or 0x hex, 0 to 0xFFFFFFFF: no sign, so all ones is\n"
        "0xFFFFFFFF) to a PMU or debug register of each core in CPUS, by its Arm\n"
        "name as for 'read' (PMCNTENSET, PMCR, ...).  The name is\n"
        "checked against the core's register map: read-only registers are refused.\n"
        "A write that gets an error response is explained as for 'read'.\n"
        "  -A, --raw-address  also allow what the register map cannot check: a block\n"
        "                     offset (pmu+0xE04, debug+0x314) or a bare bus address\n"
        "                     (written once, whatever the cores)\n"
        "Exit status: 0 written, 1 some access failed, 2 bad arguments.\n");
}

/* A 64-bit counter (PMCCNTR on PMUv3, PMEVCNTR with FEAT_PMUv3p5) is read
 * as three accesses, high, low, high, and shown as one value: the high
 * word read on each side tells a carry between the reads (pp_ext_join64,
 * spec/arm-pmu-coresight.md 2.8). */
enum part { PART_WHOLE, PART_HI_BEFORE, PART_LO, PART_HI_AFTER };

struct access {
    const struct pp_core_desc *core;
    struct pp_reg_ref ref;
    uint32_t addr;
    bool capture;                 /* the snapshot capture write (read -s) */
    enum part part;
};

static uint32_t block_base(const struct pp_core_desc *c, const struct pp_reg_ref *r)
{
    return r->reg->block == PP_BLK_PMU ? c->pmu_base : c->debug_base;
}

static bool resolve(const struct pp_core_desc *c, const char *name, struct access *a)
{
    char msg[256];

    if (pp_reg_resolve(c->type, c->counters, name, &a->ref) == PP_OK) {
        a->core = c;
        a->addr = block_base(c, &a->ref) + a->ref.offset;
        return true;
    }
    pp_reg_unknown_msg(c, name, msg, sizeof(msg));
    cli_error("%s", msg);
    return false;
}

/* Diagnoses of the cores with failed accesses, one per core: EDPRSR clears
 * its sticky bits when read, so a second diagnosis would see less. */
struct diag_cache {
    struct pp_diag d[PP_MAX_CORES];
    bool have[PP_MAX_CORES];
};

static const struct pp_diag *diagnose_once(struct session *s, struct diag_cache *dc,
                                           const struct pp_core_desc *c)
{
    if (!dc->have[c->cpu]) {
        if (pp_diag_core(s->bus, c, &dc->d[c->cpu]) != PP_OK)
            return NULL;
        dc->have[c->cpu] = true;
    }
    return &dc->d[c->cpu];
}

/* Explains a failed access with the diagnosis of its core. */
static void explain(struct session *s, struct diag_cache *dc, const struct access *a, int st)
{
    const struct pp_diag *d;
    char text[PP_DIAG_TEXT_MAX];

    printf("cpu%u %-12s 0x%08" PRIX32 " : %s", a->core->cpu, a->ref.name, a->addr,
           pp_op_status_str(st));
    d = st == PP_OP_SLVERR ? diagnose_once(s, dc, a->core) : NULL;
    if (!d) {
        printf("\n");
        return;
    }
    if (d->pmu_ok) {
        /* The core answers, so it is this location that refused. */
        printf(": %s\n", pp_diag_refused(d, a->core->type->pretty, "\n    ", text,
                                          sizeof(text)));
        return;
    }
    printf(": %s\n", pp_diag_text(d, 4, text, sizeof(text)));
}

/* The 64-bit value of the three accesses around acc[i] (PART_LO). */
static uint64_t value64(const struct pp_op *ops, size_t i)
{
    return pp_ext_join64(ops[i - 1].rdata, ops[i].rdata, ops[i + 1].rdata);
}

/* The first failed access of the three of a 64-bit read, or -1. */
static int failed64(const struct pp_op *ops, size_t i)
{
    for (size_t k = i - 1; k <= i + 1; k++)
        if (ops[k].st != PP_OP_OK)
            return (int)k;
    return -1;
}

/* The text is the library's (pp_reg_format), as pp_reg_read gives it. */
static void print_value64(const struct access *a, const struct access *hi, uint64_t v, bool raw)
{
    char buf[2048];

    pp_reg_format(a->core, &a->ref, a->addr, &hi->ref, v, raw, buf, sizeof(buf));
    fputs(buf, stdout);
}

static void print_value(const struct access *a, uint32_t v, bool raw)
{
    char buf[2048];

    pp_reg_format(a->core, &a->ref, a->addr, NULL, v, raw, buf, sizeof(buf));
    fputs(buf, stdout);
}

/* Runs the batch, prints every result; returns the exit code. */
static int run_accesses(struct session *s, struct access *acc, struct pp_op *ops, size_t n,
                        bool raw)
{
    int rc = pp_bus_run(s->bus, ops, n), exit_code = EXIT_OK;
    struct diag_cache *dc;

    if (rc == PP_E_LINK) {
        cli_error("access path failed: %s %s; check the probe and its connection, then retry",
                  pp_strerror(rc), pp_bus_errmsg(s->bus));
        return EXIT_PATH;
    }
    dc = calloc(1, sizeof(*dc));
    if (!dc) {
        cli_error("out of memory");
        return EXIT_PATH;
    }
    for (size_t i = 0; i < n; i++) {
        int bad = acc[i].part == PART_LO ? failed64(ops, i) : -1;

        if (acc[i].part == PART_HI_BEFORE || acc[i].part == PART_HI_AFTER)
            continue;                       /* shown with their low word */
        if (bad >= 0) {
            explain(s, dc, &acc[i], ops[bad].st);   /* named as asked */
            exit_code = EXIT_TARGET;
        } else if (acc[i].part == PART_LO) {
            print_value64(&acc[i], &acc[i - 1], value64(ops, i), raw);
        } else if (ops[i].st != PP_OP_OK) {
            explain(s, dc, &acc[i], ops[i].st);
            exit_code = EXIT_TARGET;
        } else if (ops[i].write) {
            printf("cpu%u %-12s 0x%08" PRIX32 " <- 0x%08" PRIX32 "\n", acc[i].core->cpu,
                   acc[i].ref.name, acc[i].addr, ops[i].wdata);
        } else {
            print_value(&acc[i], ops[i].rdata, raw);
        }
    }
    free(dc);
    return exit_code;
}

/* Live registers and their snapshot copies (spec/arm-pmu-coresight.md 1.4:
 * the block copies PMOVSR, PMCCNTR and PMEVCNTR0-5); an indexed entry's copy
 * keeps the instance number, up to count. */
static const struct snap_copy {
    const char *live, *copy;
    unsigned count;          /* instances copied; 0: not indexed */
} snap_copies[] = {
    { "PMEVCNTR",   "PMEVCNTSR",   6 },
    { "PMCCNTR",    "PMCCNTSR_LO", 0 },
    { "PMCCNTR_HI", "PMCCNTSR_HI", 0 },
    { "PMOVSSET",   "PMOVSSR",     0 },
    { "PMOVSCLR",   "PMOVSSR",     0 },
};

/* The snapshot copy of a live counter register, or NULL when it has none. */
static const char *snapshot_copy(const struct pp_reg_ref *r, char *buf, size_t len)
{
    for (size_t i = 0; r->reg && i < sizeof(snap_copies) / sizeof(snap_copies[0]); i++) {
        const struct snap_copy *sc = &snap_copies[i];

        if (r->reg->block != PP_BLK_PMU || strcmp(r->reg->name, sc->live) != 0)
            continue;
        if (!sc->count)
            return sc->copy;
        if (r->index >= sc->count)
            return NULL;
        snprintf(buf, len, "%s%u", sc->copy, r->index);
        return buf;
    }
    return NULL;
}

/* The high word of a live 64-bit counter whose low word a is (the next
 * word, flagged PP_REGF_HI64 in the core's map), into hi. */
static bool high_word(const struct access *a, struct access *hi)
{
    const struct pp_core_desc *c = a->core;

    if (!pp_reg_high_word(c->type, c->counters, &a->ref, &hi->ref))
        return false;
    hi->core = c;
    hi->addr = a->addr + 4;
    hi->capture = false;
    return true;
}

/* One register for a core; wide: a 64-bit counter becomes its three
 * accesses (read, without -s: the snapshot copies are read once). */
static bool add_access(const struct pp_core_desc *c, const char *name, bool snapshot, bool wide,
                       struct access *acc, size_t *n)
{
    char copy[24];
    const char *name2;
    struct access lo = { .capture = false, .part = PART_WHOLE }, hi;

    if (!resolve(c, name, &lo))
        return false;
    name2 = snapshot ? snapshot_copy(&lo.ref, copy, sizeof(copy)) : NULL;
    if (name2 && !resolve(c, name2, &lo))
        return false;
    wide = wide && !snapshot && high_word(&lo, &hi);
    if (*n + (wide ? 3 : 1) > MAX_READS) {
        cli_error("too many registers in one command (at most %d reads)", MAX_READS);
        return false;
    }
    if (wide) {
        acc[(*n)++] = (struct access){ hi.core, hi.ref, hi.addr, false, PART_HI_BEFORE };
        lo.part = PART_LO;
    }
    acc[(*n)++] = lo;
    if (wide)
        acc[(*n)++] = (struct access){ hi.core, hi.ref, hi.addr, false, PART_HI_AFTER };
    return true;
}

/* With a snapshot, each core's reads are preceded by the capture (PMSSCR
 * write) and its status (PMSSSR) in the same batch, so every copy comes
 * from that one instant. */
static bool add_capture(const struct pp_core_desc *c, struct access *acc, size_t *n)
{
    if (!pp_snap_supported(c)) {
        cli_error("--snapshot: cpu%u (%s) has no snapshot block (Cortex-A55 and Cortex-A76 "
                  "have one); read the live registers instead", c->cpu, c->type->pretty);
        return false;
    }
    if (!add_access(c, "PMSSCR", false, false, acc, n))
        return false;
    acc[*n - 1].capture = true;
    return add_access(c, "PMSSSR", false, false, acc, n);
}

/* The description claims the block; before the capture write, each core's
 * PMCFGR.SS says whether the silicon has it (pp_snap_check_silicon):
 * without it the copies would read as zeros that look captured. */
static bool silicon_has_snapshot(const struct session *s, uint64_t set)
{
    for (unsigned i = 0; i < s->target->ncores; i++) {
        const struct pp_core_desc *c = &s->target->cores[i];
        uint32_t pmcfgr;

        if (!(set & (1ull << c->cpu)) ||
            pp_snap_check_silicon(s->bus, c, &pmcfgr) == PP_OK)
            continue;
        cli_error("read --snapshot: cpu%u: PMCFGR = 0x%08X has SS (bit 22) clear: this %s has "
                  "no snapshot block (spec 1.3); nothing written, read the live registers "
                  "instead", c->cpu, pmcfgr, c->type->pretty);
        return false;
    }
    return true;
}

/* Builds one access per (cpu in set, name), three for a 64-bit counter
 * when wide (read); false on an unknown name. */
static bool plan(const struct pp_target *t, uint64_t set, char **names, int nnames,
                 bool snapshot, bool wide, struct access *acc, size_t *n)
{
    *n = 0;
    for (unsigned i = 0; i < t->ncores; i++) {
        if (!(set & (1ull << t->cores[i].cpu)))
            continue;
        if (snapshot && !add_capture(&t->cores[i], acc, n))
            return false;
        for (int j = 0; j < nnames; j++)
            if (!add_access(&t->cores[i], names[j], snapshot, wide, acc, n))
                return false;
    }
    return true;
}

/* A capture access writes PMSSCR.SS, which starts the snapshot. */
static struct pp_op read_op(const struct access *a)
{
    if (a->capture)
        return (struct pp_op){ .addr = a->addr, .wdata = PP_PMSSCR_SS, .write = 1 };
    return (struct pp_op){ .addr = a->addr };
}

/* ---- read --json --------------------------------------------------------------------------- */

static void json_fields(struct json *j, const struct pp_reg *reg, uint32_t v)
{
    json_key(j, "fields");
    json_object(j);
    for (size_t i = 0; i < reg->nfields; i++) {
        const struct pp_field *f = &reg->fields[i];
        uint32_t mask = f->width >= 32 ? ~0u : (1u << f->width) - 1u;

        json_kuint(j, f->name, (v >> f->lsb) & mask);
    }
    json_object_end(j);
}

/* An advertised event's name: its mnemonic, else its number. */
static const char *advertised_name(uint16_t code, const struct pp_event *ev, char hex[8])
{
    if (ev)
        return ev->name;
    snprintf(hex, 8, "0x%04X", code);
    return hex;
}

/* Which PMCEID a register is, 0..3; false for any other register. */
static bool pmceid_index(const struct access *a, unsigned *idx)
{
    return sscanf(a->ref.name, "PMCEID%u", idx) == 1 && *idx <= 3;
}

static void json_advertised(void *ctx, uint16_t code, const struct pp_event *ev)
{
    char hex[8];

    json_string(ctx, advertised_name(code, ev, hex));
}

static void json_pmceid(struct json *j, const struct access *a, uint32_t v)
{
    unsigned idx;

    if (!pmceid_index(a, &idx))
        return;
    json_key(j, "advertised_events");
    json_array(j);
    pp_catalog_pmceid_each(pp_catalog_find(a->core->type->catalog), idx, v,
                           json_advertised, j);
    json_array_end(j);
}

/* The error of one access: its status, and for an error response the
 * cause from its core's diagnosis, as explain() prints it. */
static void json_error(struct json *j, struct session *s, struct diag_cache *dc,
                       const struct access *a, int st)
{
    const struct pp_diag *d = st == PP_OP_SLVERR ? diagnose_once(s, dc, a->core) : NULL;

    json_kstring(j, "error", pp_op_status_str(st));
    if (!d)
        return;
    if (d->pmu_ok) {
        json_kstring(j, "cause", "location");
        json_kstring(j, "cause_text", "the core's PMU answers, so this location itself "
                     "refused the access (not implemented, or an address fault)");
    } else {
        json_kstring(j, "cause", pp_cause_name(d->cause));
        json_kstring(j, "cause_text", pp_cause_str(d->cause));
    }
    json_kstring(j, "evidence", d->evidence);
    json_kstring(j, "remedy", d->pmu_ok ? NULL : d->remedy);
}

static void json_access(struct json *j, struct session *s, struct diag_cache *dc,
                        const struct access *a, const struct pp_op *op, bool raw)
{
    json_object(j);
    json_kuint(j, "cpu", a->core->cpu);
    json_kstring(j, "register", a->ref.name);
    json_kuint(j, "address", a->addr);
    if (op->st != PP_OP_OK) {
        json_error(j, s, dc, a, op->st);
    } else if (op->write) {
        json_kuint(j, "written", op->wdata);
    } else {
        json_kuint(j, "value", op->rdata);
        if (!raw)
            json_fields(j, a->ref.reg, op->rdata);
        if (!raw && strncmp(a->ref.name, "PMCEID", 6) == 0)
            json_pmceid(j, a, op->rdata);
    }
    json_object_end(j);
}

/* A 64-bit counter: the whole value, its width and where its high word is. */
static void json_access64(struct json *j, const struct access *a, const struct access *hi,
                          uint64_t v)
{
    json_object(j);
    json_kuint(j, "cpu", a->core->cpu);
    json_kstring(j, "register", a->ref.name);
    json_kuint(j, "address", a->addr);
    json_kuint(j, "value", v);
    json_kuint(j, "bits", 64);
    json_kstring(j, "high_word", hi->ref.name);
    json_kuint(j, "high_word_address", hi->addr);
    json_object_end(j);
}

/* run_accesses for --json: one document, a read error is an object in it. */
static int run_accesses_json(struct session *s, struct access *acc, struct pp_op *ops,
                             size_t n, bool raw)
{
    int rc = pp_bus_run(s->bus, ops, n), exit_code = EXIT_OK;
    struct diag_cache *dc = NULL;
    struct json j;

    if (rc == PP_E_LINK) {
        cli_error("access path failed: %s %s; check the probe and its connection, then retry",
                  pp_strerror(rc), pp_bus_errmsg(s->bus));
        exit_code = EXIT_PATH;
    } else if ((dc = calloc(1, sizeof(*dc))) == NULL) {
        cli_error("out of memory");
        return EXIT_PATH;
    }
    json_begin(&j, stdout);
    json_object(&j);
    json_kstring(&j, "target", s->target->name);
    json_key(&j, "results");
    json_array(&j);
    for (size_t i = 0; dc && i < n; i++) {
        int bad = acc[i].part == PART_LO ? failed64(ops, i) : -1;

        if (acc[i].part == PART_HI_BEFORE || acc[i].part == PART_HI_AFTER)
            continue;                       /* in their low word's object */
        if (bad >= 0)
            json_access(&j, s, dc, &acc[i], &ops[bad], raw);
        else if (acc[i].part == PART_LO)
            json_access64(&j, &acc[i], &acc[i - 1], value64(ops, i));
        else
            json_access(&j, s, dc, &acc[i], &ops[i], raw);
        if (bad >= 0 || (acc[i].part == PART_WHOLE && ops[i].st != PP_OP_OK))
            exit_code = EXIT_TARGET;
    }
    json_array_end(&j);
    if (!dc)
        json_kstring(&j, "error", "access path failed");
    json_object_end(&j);
    free(dc);
    if (!json_end(&j)) {
        cli_error("read: writing the output failed");
        return EXIT_OUTPUT;
    }
    return exit_code;
}

int cmd_read(const struct cli_opts *o, int argc, char **argv)
{
    static const struct option longopts[] = {
        { "raw", no_argument, NULL, 'r' }, { "snapshot", no_argument, NULL, 's' },
        { "json", no_argument, NULL, 'j' },
        { "help", no_argument, NULL, 'h' }, { NULL, 0, NULL, 0 },
    };
    struct access acc[MAX_READS];
    struct pp_op ops[MAX_READS];
    struct session s;
    uint64_t set;
    size_t n;
    bool raw = false, snapshot = false, json = false;
    int ch, rc;

    while ((ch = cli_getopt(argc, argv, "rsjh", longopts, "read")) != -1) {
        if (ch == 'r')
            raw = true;
        else if (ch == 'j')
            json = true;
        else if (ch == 's')
            snapshot = true;
        else {
            if (ch == 'h')
                help_read(stdout);
            return ch == 'h' ? EXIT_OK : EXIT_USAGE;
        }
    }
    if (argc - optind < 2) {
        cli_error("read: expected CPUS and at least one register (e.g. read cpu0 PMCR)");
        return EXIT_USAGE;
    }
    rc = session_open(o, &s);
    if (rc != EXIT_OK)
        return rc;
    if (!parse_cpus(s.target, argv[optind], &set) ||
        !plan(s.target, set, argv + optind + 1, argc - optind - 1, snapshot, true, acc, &n)) {
        session_close(&s);
        return EXIT_USAGE;
    }
    if (snapshot && !silicon_has_snapshot(&s, set)) {
        session_close(&s);
        return EXIT_TARGET;
    }
    for (size_t i = 0; i < n; i++) {
        if (acc[i].ref.reg->access == PP_WO && !acc[i].capture) {
            cli_error("%s is write-only; it cannot be read", acc[i].ref.name);
            session_close(&s);
            return EXIT_USAGE;
        }
        ops[i] = read_op(&acc[i]);
    }
    rc = json ? run_accesses_json(&s, acc, ops, n, raw) : run_accesses(&s, acc, ops, n, raw);
    session_close(&s);
    return rc;
}

/* "pmu+0xE04", "debug+0x314", "dbg+...": an offset the register map does
 * not vouch for, even when it lands on a named register. */
static bool is_raw_offset(const char *reg)
{
    return strncasecmp(reg, "pmu+", 4) == 0 || strncasecmp(reg, "debug+", 6) == 0 ||
           strncasecmp(reg, "dbg+", 4) == 0;
}

static bool is_bare_address(const char *reg)
{
    return reg[0] >= '0' && reg[0] <= '9';
}

/* A bus address: one write, no core to diagnose (only with -A: nothing checks the address). */
static int write_address(const struct cli_opts *o, const char *addr_arg, const char *val_arg)
{
    struct session s;
    struct pp_op op;
    uint32_t addr, value;
    int rc;

    if (!parse_u32(addr_arg, &addr) || (addr & 3u)) {
        cli_error("write -A: '%s' is not a word-aligned 32-bit bus address", addr_arg);
        return EXIT_USAGE;
    }
    if (!parse_u32(val_arg, &value)) {
        cli_error("write: value '%s' is not a 32-bit number (decimal or 0x hex)", val_arg);
        return EXIT_USAGE;
    }
    rc = session_open(o, &s);
    if (rc != EXIT_OK)
        return rc;
    op = (struct pp_op){ .addr = addr, .wdata = value, .write = 1 };
    rc = pp_bus_run(s.bus, &op, 1);
    if (rc == PP_E_LINK) {
        cli_error("access path failed: %s %s; check the probe and its connection, then retry",
                  pp_strerror(rc), pp_bus_errmsg(s.bus));
        rc = EXIT_PATH;
    } else if (op.st != PP_OP_OK) {
        printf("0x%08" PRIX32 " : %s\n", addr, pp_op_status_str(op.st));
        rc = EXIT_TARGET;
    } else {
        printf("0x%08" PRIX32 " <- 0x%08" PRIX32 "\n", addr, value);
        rc = EXIT_OK;
    }
    session_close(&s);
    return rc;
}

/* Without -A only names are written: a raw offset or address is refused
 * with the option that allows it (and the name, when it has one). */
static bool write_allowed(const struct access *a, const char *reg, bool raw_address)
{
    bool named = strchr(a->ref.name, '+') == NULL && a->ref.reg->access != PP_RO;

    if (is_raw_offset(reg) && !raw_address) {
        cli_error("write: %s is a raw block offset, not checked against the register map; "
                  "%s%s%spass --raw-address (-A) to write it anyway", reg,
                  named ? "write it by name (" : "", named ? a->ref.name : "",
                  named ? "), or " : "");
        return false;
    }
    if (a->ref.reg->access != PP_RO)
        return true;
    if (!raw_address || !is_raw_offset(reg)) {
        cli_error("%s is read-only; it cannot be written", a->ref.name);
        return false;
    }
    fprintf(stderr, "pmuprobe: warning: --raw-address: %s is %s, read-only in the register "
            "map; writing anyway\n", reg, a->ref.name);
    return true;
}

static int write_usage(void)
{
    cli_error("write: expected CPUS REG VALUE (e.g. write cpu0 PMCNTENSET 0x80000001), "
              "or -A ADDRESS VALUE");
    return EXIT_USAGE;
}

int cmd_write(const struct cli_opts *o, int argc, char **argv)
{
    static const struct option longopts[] = {
        { "raw-address", no_argument, NULL, 'A' }, { "help", no_argument, NULL, 'h' },
        { NULL, 0, NULL, 0 },
    };
    struct access acc[MAX_READS];
    struct pp_op ops[MAX_READS];
    struct session s;
    bool raw_address = false;
    uint64_t set;
    uint32_t value;
    size_t n;
    int ch, rc;

    while ((ch = cli_getopt(argc, argv, "Ah", longopts, "write")) != -1) {
        if (ch == 'A') {
            raw_address = true;
            continue;
        }
        if (ch == 'h')
            help_write(stdout);
        return ch == 'h' ? EXIT_OK : EXIT_USAGE;
    }
    argc -= optind;
    argv += optind;
    if (argc == 2 && is_bare_address(argv[0])) {
        if (raw_address)
            return write_address(o, argv[0], argv[1]);
        cli_error("write: '%s' is a bare bus address, not a register of a core; pass "
                  "--raw-address (-A) to write it (write -A ADDRESS VALUE)", argv[0]);
        return EXIT_USAGE;
    }
    if (argc != 3)
        return write_usage();
    if (is_bare_address(argv[1])) {
        cli_error("write: '%s' is a bus address, which names no core: write -A ADDRESS VALUE "
                  "writes it once, or give a register name or pmu+0xOFF", argv[1]);
        return EXIT_USAGE;
    }
    if (!parse_u32(argv[2], &value)) {
        cli_error("write: value '%s' is not a 32-bit number (decimal or 0x hex)", argv[2]);
        return EXIT_USAGE;
    }
    rc = session_open(o, &s);
    if (rc != EXIT_OK)
        return rc;
    if (!parse_cpus(s.target, argv[0], &set) ||
        !plan(s.target, set, argv + 1, 1, false, false, acc, &n)
        || !write_allowed(&acc[0], argv[1], raw_address)) {
        session_close(&s);
        return EXIT_USAGE;
    }
    for (size_t i = 0; i < n; i++)
        ops[i] = (struct pp_op){ .addr = acc[i].addr, .wdata = value, .write = 1 };
    rc = run_accesses(&s, acc, ops, n, true);
    session_close(&s);
    return rc;
}

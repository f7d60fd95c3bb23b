/*
 * romwalk.c - ROM table walk: class 0x1 tables and class 0x9 CoreSight ROM
 * tables (spec/arm-pmu-coresight.md 6.2, 6.3).  Walking is kept apart from
 * what is done with each component: the caller's pp_cs_visit_fn sees every
 * component in walk order (style.md "Avoid 1").
 */
#include <stdbool.h>
#include <stdint.h>

#include "coresight/coresight.h"

#define CS_DEVARCH_ROM  0x47700AF7u     /* spec 6.3 */

/* spec 6.2: class 0x1 entries at 0x000..0xEFC. */
#define ROM1_MAX_ENTRIES 960u
/* spec 6.3: 512 x 32-bit entries at 0x000..0x7FC. */
#define ROM9_MAX_ENTRIES 512u
/* ROM entries read per bus batch: a cluster table (4 cores x 4 blocks plus
 * end marker) fits in two batches, a sparse table rarely needs more. */
#define ROM_BATCH 32u
/* Tables nest at most this deep below the root; components of a table at
 * depth 7 sit at depth 8. */
#define WALK_MAX_DEPTH 8u
/* Distinct ROM tables remembered for loop detection. */
#define WALK_MAX_TABLES 128u

#define ROM_OFFSET_MASK 0xFFFFF000u     /* [31:12] signed 4 KB offset */
#define ROM1_PRESENT    (1u << 0)
#define ROM1_FORMAT32   (1u << 1)
#define ROM9_PRESENT    0x3u            /* PRESENT[1:0] */
#define ROM9_END        0x0u
#define ROM9_IS_PRESENT 0x3u
#define DEVID_FORMAT    0xFu            /* class 0x9 DEVID[3:0]: 0 = 32-bit */

struct walk {
    struct pp_bus *bus;
    pp_cs_visit_fn fn;
    void *ctx;
    unsigned ntables;
    uint32_t tables[WALK_MAX_TABLES];   /* bases of tables walked so far */
};

/* What one ROM entry says. */
enum entry_kind { ENTRY_END, ENTRY_ABSENT, ENTRY_PRESENT };

static bool is_rom_table(const struct pp_cs_id *id)
{
    return id->cls == 0x1 || (id->cls == 0x9 && id->devarch == CS_DEVARCH_ROM);
}

static enum entry_kind decode_entry(uint8_t cls, uint32_t e)
{
    if (cls == 0x1) {
        /* spec 6.2: 0 ends the table; a non-zero word with Present=0 (e.g.
         * 0x00000002, an absent core in the v7 map) does not.  Format=0 is
         * the legacy 8-bit format, which we do not walk. */
        if (e == 0)
            return ENTRY_END;
        if (!(e & ROM1_PRESENT) || !(e & ROM1_FORMAT32))
            return ENTRY_ABSENT;
        return ENTRY_PRESENT;
    }
    switch (e & ROM9_PRESENT) {
    case ROM9_END:        return ENTRY_END;
    case ROM9_IS_PRESENT: return ENTRY_PRESENT;
    default:              return ENTRY_ABSENT;  /* 0b10; 0b01 is reserved */
    }
}

static bool table_seen(const struct walk *w, uint32_t base)
{
    for (unsigned i = 0; i < w->ntables; i++)
        if (w->tables[i] == base)
            return true;
    return false;
}

/* Why a table found at depth cannot be walked: a loop, too deep, too many,
 * or a format we do not read.  PP_OK when it can. */
static int table_refusal(const struct walk *w, const struct pp_cs_component *c)
{
    if (table_seen(w, c->base) || c->depth >= WALK_MAX_DEPTH ||
        w->ntables >= WALK_MAX_TABLES)
        return PP_E_PARSE;
    /* spec 6.3 DEVID.FORMAT 1 = 64-bit entries.  Not read yet: refused
     * rather than misread as twice as many 32-bit entries. */
    if (c->id.cls == 0x9 && (c->id.devid & DEVID_FORMAT) != 0)
        return PP_E_UNSUPPORTED;
    return PP_OK;
}

static int walk_table(struct walk *w, const struct pp_cs_component *table);

/* Reads the IDs at base, shows the component to the visitor and descends
 * into it if it is a walkable ROM table.  A component whose IDs cannot be
 * read is visited with its status and the walk goes on. */
static int visit(struct walk *w, uint32_t base, uint32_t rom, unsigned depth, unsigned entry,
                 int *status)
{
    struct pp_cs_component c = {
        .base = base, .rom = rom, .depth = depth, .entry = entry,
    };
    bool table;
    int rc;

    c.status = pp_cs_read_id(w->bus, base, &c.id);
    table = c.status == PP_OK && is_rom_table(&c.id);
    if (table)
        c.status = table_refusal(w, &c);
    *status = c.status;
    rc = w->fn(w->ctx, &c);
    if (rc != 0)
        return rc;
    /* A loop or runaway nesting means the tables are broken: stop rather
     * than report a topology built from garbage.  An unsupported format
     * only hides that table's children. */
    if (table && c.status == PP_E_PARSE)
        return PP_E_PARSE;
    if (!table || c.status != PP_OK)
        return PP_OK;
    return walk_table(w, &c);
}

/* Reads entries [first, first+n) of the table in one batch. */
static int read_entries(struct walk *w, uint32_t base, unsigned first, unsigned n,
                        struct pp_op *ops)
{
    for (unsigned i = 0; i < n; i++)
        ops[i] = (struct pp_op){ .addr = base + 4u * (first + i) };
    return pp_bus_run(w->bus, ops, n);
}

static int walk_table(struct walk *w, const struct pp_cs_component *table)
{
    unsigned max = table->id.cls == 0x1 ? ROM1_MAX_ENTRIES : ROM9_MAX_ENTRIES;
    struct pp_op ops[ROM_BATCH];

    w->tables[w->ntables++] = table->base;
    for (unsigned first = 0; first < max; first += ROM_BATCH) {
        unsigned n = max - first < ROM_BATCH ? max - first : ROM_BATCH;

        /* Statuses are checked per entry below: words after the end marker
         * may fail without harm. */
        (void)read_entries(w, table->base, first, n, ops);
        for (unsigned i = 0; i < n; i++) {
            enum entry_kind k;
            int rc, st;

            if (ops[i].st != PP_OP_OK)
                return pp_op_status_err(ops[i].st);
            k = decode_entry(table->id.cls, ops[i].rdata);
            if (k == ENTRY_END)
                return PP_OK;
            if (k == ENTRY_ABSENT)
                continue;
            /* spec 6.2: signed offset in 4 KB units, 32-bit wrapping add. */
            rc = visit(w, table->base + (ops[i].rdata & ROM_OFFSET_MASK), table->base,
                       table->depth + 1, first + i, &st);
            if (rc != 0)
                return rc;
        }
    }
    return PP_OK;
}

int pp_cs_walk(struct pp_bus *bus, uint32_t rom_base, pp_cs_visit_fn fn, void *ctx)
{
    struct walk w = { .bus = bus, .fn = fn, .ctx = ctx };
    int rc, st = PP_OK;

    if (!bus || !fn || (rom_base & 0xFFFu))
        return PP_E_INVAL;
    /* The root is visited like any component (depth 0, rom 0); if it cannot
     * be read the walk has nothing to stand on, so its error is returned. */
    rc = visit(&w, rom_base, 0, 0, 0, &st);
    return rc != 0 ? rc : st;
}

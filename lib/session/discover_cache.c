/*
 * discover_cache.c - discovery kept between commands.  Through OpenOCD a
 * discovery is 19 RPCs more than a described target's command (measured
 * on pmuprobe-sim's rpi3-a53, 14 components: 27 against 8 for a one-
 * register read; a batch per ROM table component, then the
 * MIDRs and PMCFGRs): measured on pmuprobe-sim's rpi3-a53 it made a
 * one-register `read` 4x slower (about 170 ms against 45 ms), and on a
 * real adapter each RPC costs more.  Over the own stack it is a few ms.
 *
 * The cache holds the discovered description as a target file (the same
 * text `scan --save` writes) under a key read in one batch: the APB-AP's
 * IDR and BASE, and the top ROM table's ID registers and first entries,
 * which are fixed in silicon for a SoC design.  A hit is then checked in
 * one more batch: each core's debug block must still report its type's
 * part number.  Anything else (a miss, a check that fails, a file that no
 * longer parses) discovers again and rewrites the entry.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bus/bus.h"
#include "pmu/coretype.h"
#include "session/session.h"

#define ROM_ENTRIES 16u               /* first entries of the top ROM table */
#define ID_REGS     9u                /* PIDR4, PIDR0-3, CIDR0-3 */

static const uint32_t id_offsets[ID_REGS] = {
    0xFD0, 0xFE0, 0xFE4, 0xFE8, 0xFEC, 0xFF0, 0xFF4, 0xFF8, 0xFFC,   /* spec 5.2 */
};

/* FNV-1a, 64-bit: a file name, not a security boundary. */
static uint64_t fnv(uint64_t h, uint32_t v)
{
    for (int i = 0; i < 4; i++) {
        h ^= (v >> (8 * i)) & 0xFFu;
        h *= 0x100000001B3ull;
    }
    return h;
}

static int soc_key(struct pp_bus *bus, uint64_t *key)
{
    struct pp_op ops[ID_REGS + ROM_ENTRIES];
    uint32_t rom;
    uint64_t h = 0xCBF29CE484222325ull;

    if (pp_bus_rom_base(bus, &rom) != PP_OK)
        return PP_E_NOTFOUND;
    for (unsigned i = 0; i < ID_REGS; i++)
        ops[i] = (struct pp_op){ .addr = rom + id_offsets[i] };
    for (unsigned i = 0; i < ROM_ENTRIES; i++)
        ops[ID_REGS + i] = (struct pp_op){ .addr = rom + 4 * i };
    (void)pp_bus_run(bus, ops, ID_REGS + ROM_ENTRIES);
    h = fnv(fnv(h, bus->ap.idr), bus->ap.base);
    for (unsigned i = 0; i < ID_REGS + ROM_ENTRIES; i++) {
        if (ops[i].st != PP_OP_OK)
            return pp_op_status_err(ops[i].st);
        h = fnv(h, ops[i].rdata);
    }
    *key = h;
    return PP_OK;
}

/* One batch: every core whose type is known still shows that type's debug
 * part (PIDR1[3:0]:PIDR0, spec 5.2) at its debug base. */
static bool still_matches(struct pp_bus *bus, const struct pp_target *t)
{
    struct pp_op ops[2 * PP_MAX_CORES];

    for (unsigned i = 0; i < t->ncores; i++) {
        ops[2 * i] = (struct pp_op){ .addr = t->cores[i].debug_base + 0xFE0 };
        ops[2 * i + 1] = (struct pp_op){ .addr = t->cores[i].debug_base + 0xFE4 };
    }
    if (pp_bus_run(bus, ops, 2 * t->ncores) != PP_OK)
        return false;
    for (unsigned i = 0; i < t->ncores; i++) {
        uint16_t part = (uint16_t)((ops[2 * i].rdata & 0xFFu) |
                                   (ops[2 * i + 1].rdata & 0xFu) << 8);
        uint16_t want = t->cores[i].type->debug_part;

        if (want && part != want)
            return false;
    }
    return true;
}

/* "DIR/soc-KEY.target", creating DIR (and its parent) if needed. */
static bool entry_path(const char *dir, uint64_t key, char *path, size_t len)
{
    char parent[512];
    char *slash;

    snprintf(parent, sizeof(parent), "%s", dir);
    slash = strrchr(parent, '/');
    if (slash && slash != parent) {
        *slash = '\0';
        (void)mkdir(parent, 0700);
    }
    if (mkdir(dir, 0700) != 0 && access(dir, W_OK) != 0)
        return false;
    return snprintf(path, len, "%s/soc-%016" PRIx64 ".target", dir, key) < (int)len;
}

static bool load_hit(struct pp_session *s, const char *path)
{
    struct pp_target *t = NULL;
    char err[256];

    if (access(path, R_OK) != 0 || pp_target_load(path, &t, err, sizeof(err)) != PP_OK)
        return false;
    if (!still_matches(s->bus, t)) {
        pp_target_free(t);
        return false;
    }
    pp_session_adopt(s, t);
    return true;
}

/* Written beside and renamed, so a reader never sees half a file. */
static void store(const char *path, const char *text)
{
    char tmp[600];
    FILE *f;

    snprintf(tmp, sizeof(tmp), "%s.%ld.tmp", path, (long)getpid());
    f = fopen(tmp, "w");
    if (!f)
        return;
    fputs(text, f);
    if (fclose(f) != 0 || rename(tmp, path) != 0)
        (void)unlink(tmp);
}

int pp_session_discover_cached(struct pp_session *s, const char *via, const char *dir,
                               char *cached, size_t cachedlen, char *note, size_t notelen,
                               char *err, size_t errlen)
{
    char path[512], *text = NULL;
    uint64_t key = 0;
    int rc;

    if (cached && cachedlen)
        cached[0] = '\0';
    if (!dir || soc_key(s->bus, &key) != PP_OK || !entry_path(dir, key, path, sizeof(path)))
        return pp_session_discover(s, via, note, notelen, err, errlen);
    if (load_hit(s, path)) {
        if (note && notelen)
            note[0] = '\0';
        if (cached && cachedlen)
            snprintf(cached, cachedlen, "%s", path);
        return PP_OK;
    }
    rc = pp_discover_text(s->bus, via, &text, note, notelen, err, errlen);
    if (rc != PP_OK)
        return rc;
    rc = pp_session_use_text(s, via, text, err, errlen);
    if (rc == PP_OK)
        store(path, text);
    free(text);
    return rc;
}

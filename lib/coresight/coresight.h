/*
 * coresight.h - CoreSight component identification and ROM table walks
 * (internal).  Facts: spec/arm-pmu-coresight.md sections 5 and 6.
 * Every read goes through struct pp_bus in batches: one component's ID
 * block is one batch.
 */
#ifndef PP_CORESIGHT_H
#define PP_CORESIGHT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pmuprobe.h"
#include "pmu/coretype.h"
#include "target/target.h"

#define PP_ARM_DESIGNER 0x23Bu      /* JEP106 continuation 4, ID 0x3B */

struct pp_cs_id {
    uint32_t cidr;          /* CIDR0-3 assembled, e.g. 0xB105900D */
    uint8_t  cls;           /* CIDR1[7:4]: 0x1 ROM table, 0x9 CoreSight */
    bool     cid_valid;     /* preamble matches 0xB105000D (class ignored) */
    uint64_t pidr;          /* PIDR0-4 assembled: PIDR4 in bits [39:32] */
    uint16_t part;          /* PIDR part number */
    uint16_t designer;      /* 11-bit JEP106 code, 0x23B = Arm */
    uint8_t  revision;
    uint8_t  size4k;        /* PIDR4.SIZE */
    uint32_t devarch;       /* class 0x9 only; 0 otherwise */
    uint8_t  devtype;       /* class 0x9 only */
    uint32_t devid;         /* class 0x9 only (ROM table FORMAT etc.) */
    uint64_t devaff;        /* DEVAFF0/1, class 0x9 only */
};

/* Reads and decodes the ID registers of the 4 KB component at base in one
 * bus batch.  Returns the bus result; id is valid on PP_OK. */
int pp_cs_read_id(struct pp_bus *bus, uint32_t base, struct pp_cs_id *id);
/* Decodes from raw register values (offset 0xFxx -> value), for tests. */
void pp_cs_decode_id(const uint32_t regs[1024], struct pp_cs_id *id);
/* "Cortex-A76 PMU", "CoreSight ROM table", ... from designer, part,
 * devtype and devarch; "unknown part 0x123" style when unknown (buf). */
const char *pp_cs_part_name(const struct pp_cs_id *id, char *buf, size_t len);
/* "ROM table", "CoreSight component", ... */
const char *pp_cs_class_name(uint8_t cls);
/* What the component is, for topology: */
enum pp_cs_kind { PP_CS_OTHER, PP_CS_ROM, PP_CS_DEBUG, PP_CS_PMU, PP_CS_CTI, PP_CS_ETM };
enum pp_cs_kind pp_cs_kind(const struct pp_cs_id *id);

/* A component found by the walk. */
struct pp_cs_component {
    uint32_t base;
    uint32_t rom;           /* ROM table that listed it (0 for the root) */
    unsigned depth;         /* 0 = root ROM table */
    unsigned entry;         /* index of its entry in that ROM table */
    int      status;        /* PP_OK, or the bus error reading its IDs */
    struct pp_cs_id id;
};

/* Called for every component in walk order (depth first, entry order).
 * A non-zero return stops the walk and is returned by pp_cs_walk. */
typedef int (*pp_cs_visit_fn)(void *ctx, const struct pp_cs_component *c);

/*
 * Walks the ROM table at rom_base and its nested tables (class 0x1 and
 * class 0x9 with DEVARCH 0x47700AF7), honouring end markers and skipping
 * not-present entries.  A component whose IDs cannot be read is still
 * visited with its status.  Loops and depth > 8 are refused.
 */
int pp_cs_walk(struct pp_bus *bus, uint32_t rom_base, pp_cs_visit_fn fn, void *ctx);

/* How a core's PMU was paired with its debug block. */
enum pp_cs_pairing {
    PP_PAIR_NONE,            /* no PMU found for it */
    PP_PAIR_AFFINITY,        /* equal non-zero EDDEVAFF and PMDEVAFF */
    PP_PAIR_ADDRESS,         /* by the address conventions (DEVAFF 0 or absent) */
};
/* "none", "affinity", "address". */
const char *pp_cs_pairing_name(enum pp_cs_pairing p);

/* One core as discovered. */
struct pp_cs_core {
    unsigned cpu;                    /* order of its debug block in the walk */
    uint32_t debug_base, pmu_base, cti_base;   /* 0 if not found */
    enum pp_cs_pairing paired;       /* how pmu_base was found */
    uint64_t affinity;               /* EDDEVAFF, 0 if unknown (Armv7) */
    uint32_t midr;                   /* 0 if unreadable (core off) */
    uint16_t debug_part;
    uint32_t rom;                    /* the ROM table that lists its debug block */
    const struct pp_core_type *type; /* by MIDR, else by debug part; may be NULL */
};

/* A ROM table the walk read (discovery describes clusters by them). */
struct pp_cs_rom {
    uint32_t base;
    uint8_t  cls;                    /* 0x1 or 0x9 */
    uint16_t part;
};

#define PP_TOPO_MAX_ROMS 32

struct pp_topology {
    unsigned ncores;
    struct pp_cs_core cores[PP_MAX_CORES];
    unsigned nroms;                  /* in walk order, the root first; tables
                                      * past PP_TOPO_MAX_ROMS are not kept */
    struct pp_cs_rom roms[PP_TOPO_MAX_ROMS];
};

/* Walks from rom_base and pairs each debug block with its PMU and CTI: by
 * DEVAFF where it is non-zero and equal; else the PMU by address (the
 * nearest one above the debug block and below the next debug block, within
 * 1 MB) and the CTI by walk order.  Reads MIDR at debug+0xD00 where the
 * core answers. */
int pp_topology_discover(struct pp_bus *bus, uint32_t rom_base, struct pp_topology *topo);

#endif

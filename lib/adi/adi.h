/*
 * adi.h - ADIv5 over JTAG (internal API): the JTAG-DP transaction engine
 * (dp.c), the MEM-AP planner for the APB-AP (memap.c) and the struct
 * pp_bus built on them (adi_bus.c).  Facts: spec/arm-pmu-coresight.md 7,
 * spec/ftdi-mpsse-jtag.md 4 (cited as "spec 7.x" and "mpsse 4.x").
 *
 * How a bus batch travels (one flush, one round trip, when all goes well):
 *
 *   ops -> memap plan: TAR writes only where TAR does not already point at
 *          the word, DRW with auto-increment or BD0-BD3 inside one 16-byte
 *          block, chosen by cost -> DP/AP transfers
 *       -> dp: SELECT written only when the bank or AP changes, IR switched
 *          only between DPACC and APACC runs, posted reads chained (the
 *          result of a read arrives in the next scan), a CTRL/STAT read at
 *          the end to see sticky errors, RDBUFF to collect the last read
 *       -> jtag/link: one queue, one flush.
 *
 * Repeat mode (bus.h run_repeat) puts every repetition of a batch into
 * one such run: no CTRL/STAT tail between repetitions, Run-Test/Idle
 * spacing them when the link knows its TCK (link.h tck_hz), one CTRL/STAT
 * read at the end (adi_bus.c).
 */
#ifndef PP_ADI_H
#define PP_ADI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "link/jtag.h"
#include "link/link.h"
#include "target/target.h"

struct pp_trace;

/* ---- facts (spec 7.1-7.3) ------------------------------------------------- */

#define PP_JTAGDP_IR_ABORT  0x8u
#define PP_JTAGDP_IR_DPACC  0xAu
#define PP_JTAGDP_IR_APACC  0xBu
#define PP_JTAGDP_IR_IDCODE 0xEu
#define PP_JTAGDP_IR_BYPASS 0xFu
#define PP_JTAGDP_IRLEN     4u
#define PP_JTAGDP_DRLEN     35u
#define PP_JTAGDP_ACK_OK    0x2u      /* OK/FAULT: ADIv5 JTAG-DP has one code */
#define PP_JTAGDP_ACK_WAIT  0x1u

#define PP_DP_DPIDR    0x0u
#define PP_DP_CTRLSTAT 0x4u
#define PP_DP_SELECT   0x8u
#define PP_DP_RDBUFF   0xCu

#define PP_CS_ORUNDETECT   (1u << 0)
#define PP_CS_STICKYORUN   (1u << 1)
#define PP_CS_STICKYCMP    (1u << 4)
#define PP_CS_STICKYERR    (1u << 5)
#define PP_CS_CDBGPWRUPREQ (1u << 28)
#define PP_CS_CDBGPWRUPACK (1u << 29)
#define PP_CS_CSYSPWRUPREQ (1u << 30)
#define PP_CS_CSYSPWRUPACK (1u << 31)
#define PP_CS_STICKY       (PP_CS_STICKYORUN | PP_CS_STICKYCMP | PP_CS_STICKYERR)

#define PP_AP_CSW  0x00u
#define PP_AP_TAR  0x04u
#define PP_AP_DRW  0x0Cu
#define PP_AP_BD0  0x10u
#define PP_AP_CFG  0xF4u
#define PP_AP_BASE 0xF8u
#define PP_AP_IDR  0xFCu

#define PP_CSW_SIZE_MASK  0x7u
#define PP_CSW_SIZE_WORD  0x2u
#define PP_CSW_INC_MASK   (3u << 4)
#define PP_CSW_INC_SINGLE (1u << 4)

/* IDR: CLASS[16:13] = 0b1000 MEM-AP, TYPE[3:0] 2 = APB2/3, 6 = APB4/5. */
#define PP_IDR_CLASS(idr) (((idr) >> 13) & 0xFu)
#define PP_IDR_TYPE(idr)  ((idr) & 0xFu)
#define PP_IDR_CLASS_MEMAP 0x8u

/* TAR auto-increment is only guaranteed inside 1 KB (spec 7.3). */
#define PP_TAR_INC_BLOCK 0x400u

/* ---- the JTAG-DP transaction engine (dp.c) -------------------------------- */

/* One DPACC or APACC transaction. */
struct pp_dp_xfer {
    uint8_t  ap;          /* 1 = APACC, 0 = DPACC */
    uint8_t  rnw;         /* 1 = read */
    uint8_t  addr;        /* DP: A (0x0-0xC); AP: register address 0x00-0xFC */
    uint8_t  apsel;       /* AP transfers */
    uint32_t wdata;
    uint32_t rdata;       /* read result once done */
    uint8_t  done;        /* accepted, and for a read its result collected */
    int32_t  tag;         /* free for the caller (the bus: op index, or -1) */
    uint8_t  role;        /* free for the caller */
    /* Repeat mode: the TCK position, counted from the start of the run's
     * queue, before which this transfer's first scan must not start;
     * Run-Test/Idle clocks fill the gap.  0: as soon as possible. */
    uint64_t not_before;
    /* Set by pp_dp_exec: the position, from the start of the run's queue,
     * where this transfer's scan (and the idle after it) ends.  On a link
     * with date_hz (link.h) it is measured, in those units, for the
     * transfers the caller marked dated (and not set for the others). */
    uint64_t tck_at;
    uint8_t  dated;       /* the caller wants tck_at measured (date_hz links) */
};

struct pp_dp_stats {
    uint64_t runs;            /* pp_dp_exec calls */
    uint64_t scans;           /* DPACC/APACC scans queued */
    uint64_t select_writes;   /* SELECT writes the cache did not save */
    uint64_t waits;           /* scans answered WAIT */
    uint64_t wait_rounds;     /* recoveries after a WAIT */
    uint64_t lost_reads;      /* posted reads whose result a WAIT made unrecoverable */
};

struct pp_dp;

/* A DP over jtag (not owned), whose chain is already set.  NULL on OOM. */
struct pp_dp *pp_dp_new(struct pp_jtag *jtag);
/* The same through a CMSIS-DAP probe's DAP_Transfer (dp_cmsisdap.c): jtag's
 * link must be a cmsis-dap link (lib/link/cmsisdap.h), whose chain the
 * probe is told at the first run.  NULL on OOM or another link. */
struct pp_dp *pp_dp_cmsisdap_new(struct pp_jtag *jtag);
/* The same over SWD (dp_swd.c): link (not owned) carries SWDIO on TDI
 * (through a resistor) and TDO (lib/link/swd_link.c).  pp_dp_power_up
 * switches the DP from JTAG to SWD and connects first.  NULL on OOM. */
struct pp_dp *pp_dp_swd_new(struct pp_link *link);
void pp_dp_free(struct pp_dp *dp);
/* Whether dp is a SW-DP, through pmuprobe's SWD engine or a CMSIS-DAP
 * probe connected in SWD: then there is no JTAG chain (false for NULL). */
bool pp_dp_is_swd(const struct pp_dp *dp);

/*
 * Debug and system power-up handshake (spec 7.2): writes CTRL/STAT with
 * CSYSPWRUPREQ, CDBGPWRUPREQ and ORUNDETECT (clearing every sticky flag
 * the JTAG-DP way, W1C) and polls for both ACKs.  One round trip when the
 * DP acknowledges at once.  PP_E_TIMEOUT with a message when it does not.
 */
int pp_dp_power_up(struct pp_dp *dp, char *err, size_t errlen);

/*
 * Runs x[0..n) in order in one flush.  SELECT is written where the AP or
 * bank changes (cached across calls), the IR is switched between DPACC
 * and APACC runs, reads are posted (an RDBUFF read collects the last
 * one), and APACC scans get the idle TCKs the AP needs.
 *
 * Returns PP_OK when every transfer was done.  On a WAIT it recovers the
 * JTAG-DP way (spec 7.2 / mpsse 4.5): transfers before the WAITed scan
 * are kept, the pending posted read is collected unless a later DP read
 * overwrote the read buffer, STICKYORUN is cleared (write-1-to-clear,
 * power requests kept), SELECT forgotten, CTRL/STAT read into *ctrl, and
 * PP_E_WAIT returned: the caller re-issues what is not done, in order
 * (the overrun flag made the DP discard every later APACC, so nothing
 * ran out of order).  The idle count grows for the next call.
 * PP_E_LINK/PP_E_TIMEOUT/PP_E_PROTO when the link failed (message in
 * pp_dp_errmsg); then nothing can be trusted.
 */
int pp_dp_exec(struct pp_dp *dp, struct pp_dp_xfer *x, size_t n, uint32_t *ctrl);

/* The CTRL/STAT value to write: power requests and ORUNDETECT, plus the
 * sticky flags to clear (W1C). */
uint32_t pp_dp_ctrl_word(const struct pp_dp *dp, uint32_t clear);
/* Makes the next pp_dp_exec start by clearing every sticky flag. */
void pp_dp_clear_sticky_next(struct pp_dp *dp);
/* What SELECT holds, when known. */
bool pp_dp_select_cached(const struct pp_dp *dp, uint32_t *select);
/* ABORT with DAPABORT: ends an AP transaction that keeps answering WAIT. */
int pp_dp_abort(struct pp_dp *dp);

unsigned pp_dp_idle(const struct pp_dp *dp);
/* Called by the bus after a batch: the idle count returns to its base
 * unless WAITs keep coming, in which case the base creeps up by one. */
void pp_dp_batch_done(struct pp_dp *dp, bool had_wait);

void pp_dp_get_stats(const struct pp_dp *dp, struct pp_dp_stats *out);
/* TCKs the last pp_dp_exec queued for its main flush (recovery flushes
 * after a WAIT not counted): with tck_at, where each transfer fell. */
uint64_t pp_dp_run_tck(const struct pp_dp *dp);
const char *pp_dp_errmsg(const struct pp_dp *dp);
/* Reports every scan to tr (not owned; NULL stops): trace.h. */
void pp_dp_set_trace(struct pp_dp *dp, struct pp_trace *tr);

/* ---- MEM-AP planning (memap.c) -------------------------------------------- */

struct pp_memap {
    uint8_t  apsel;
    uint32_t idr;
    uint32_t csw;             /* as written at setup */
    bool     base_known;
    uint32_t base;            /* BASE as read at setup */
    bool     tar_known;
    uint32_t tar;             /* what TAR holds (auto-increment followed) */
    uint8_t  bank_end;        /* the AP bank (0, 1; 2 unknown) the last plan
                               * leaves SELECT at, for pp_memap_plan_next */
    void    *scratch;         /* the planner's working set, kept and reused
                               * from batch to batch (pp_memap_free) */
    size_t   scratch_len;
};

/*
 * Finds the APB-AP: the AP at target->ap_index when it is an APB MEM-AP,
 * else the first APB MEM-AP among APSEL 0-15 (IDRs read in one flush).
 * Then reads CSW and, when needed, writes it once with 32-bit size and
 * single auto-increment, keeping every other bit (spec 7.3).
 * PP_E_NOTFOUND with a message listing the IDRs seen.  m starts zeroed
 * (the caller's struct) or from an earlier setup, whose planner working
 * set it keeps.
 */
int pp_memap_setup(struct pp_memap *m, struct pp_dp *dp, const struct pp_target *t,
                   char *err, size_t errlen);

/* What to plan: the ops and where their transfers go. */
struct pp_op;
struct pp_memap_req {
    const struct pp_op *ops;  /* ops[0..n) (struct pp_op, pmuprobe.h) */
    size_t n;
    int32_t first_tag;        /* op i's data transfer gets tag first_tag + i */
    bool per_op_check;        /* a CTRL/STAT check after each op (pp_memap_plan only) */
    struct pp_dp_xfer *x;     /* transfers appended at x[*nx], up to x[cap] */
    size_t *nx, cap;
};

/*
 * Appends to x[*nx..cap) the AP transfers for ops[0..n) (struct pp_op,
 * pmuprobe.h), choosing for each op DRW after a TAR write only where TAR
 * does not already hold the address, or BD0-BD3 when TAR already points
 * into the op's 16-byte block, so that the batch costs the fewest TCKs
 * (a dynamic programme over bank and TAR).  Each op's data transfer gets
 * tag = first_tag + i and role PP_MEMAP_ROLE_DATA, TAR writes role
 * PP_MEMAP_ROLE_TAR.  When per_op_check is set, every op is followed by a
 * CTRL/STAT read (role PP_MEMAP_ROLE_CHECK) and a write clearing
 * STICKYERR (role PP_MEMAP_ROLE_CLEAR), and TAR is assumed unknown after
 * each op (an error leaves it IMPLEMENTATION DEFINED).  Ops whose st is
 * not PP_OP_PENDING are skipped.  Updates m's TAR to what it will be
 * after the transfers run.  PP_E_NOMEM when cap is too small.
 */
#define PP_MEMAP_ROLE_DATA  1
#define PP_MEMAP_ROLE_TAR   2
#define PP_MEMAP_ROLE_CHECK 3
#define PP_MEMAP_ROLE_CLEAR 4
#define PP_MEMAP_ROLE_TAIL  5
int pp_memap_plan(struct pp_memap *m, const struct pp_dp *dp, const struct pp_memap_req *r);
/*
 * As pp_memap_plan, for transfers that go into the same pp_dp_exec right
 * after the ones the last plan emitted (the repetitions of a repeat run):
 * starts from the bank and TAR that plan leaves, not from the DP's SELECT
 * cache, and without the CTRL/STAT tail in between (the IR stays APACC).
 */
int pp_memap_plan_next(struct pp_memap *m, const struct pp_dp *dp,
                       const struct pp_memap_req *r);
/* Transfers pp_memap_plan may emit per op, for sizing x. */
#define PP_MEMAP_XFERS_PER_OP 4
/* Forgets TAR (after a WAIT or an error). */
void pp_memap_forget(struct pp_memap *m);
/* Frees the planner's working set (the plans grow it as batches need). */
void pp_memap_free(struct pp_memap *m);

/* ---- the bus (adi_bus.c) ---------------------------------------------------- */

struct pp_bus;

/*
 * The ADIv5 access path over a link: detects the JTAG chain and picks the
 * JTAG-DP on it (the target's dp_idcode, else any Arm JTAG-DP), powers
 * the debug domain up, finds the APB-AP and sets CSW.  Takes ownership of
 * link: closes it on failure and in pp_bus_close.  The bus name is the
 * link's name ("rbb", "ftdi", "simpins").  NULL with the reason in err.
 */
struct pp_bus *pp_bus_adi_new(struct pp_link *link, const struct pp_target *t, char *err,
                              size_t errlen);
/* The same with the wire trace on from the first scan: the bus owns tr
 * (NULL: no trace), also on failure. */
struct pp_bus *pp_bus_adi_new_traced(struct pp_link *link, const struct pp_target *t,
                                     struct pp_trace *tr, char *err, size_t errlen);

/* The same over SWD with SWDIO on TDI/TDO (pp_dp_swd_new): no JTAG chain
 * is looked at; the DP is switched from JTAG to SWD at bring-up. */
struct pp_bus *pp_bus_adi_swd_new_traced(struct pp_link *link, const struct pp_target *t,
                                         struct pp_trace *tr, char *err, size_t errlen);

/* The DP under an adi bus, for tests and statistics; NULL for other buses. */
struct pp_dp *pp_bus_adi_dp(struct pp_bus *bus);
/* The link under an adi bus (still owned by the bus), so that the CLI can
 * say what clock it runs at; NULL for other buses. */
struct pp_link *pp_bus_adi_link(struct pp_bus *bus);

#endif

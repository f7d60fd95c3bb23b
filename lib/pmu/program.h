/*
 * program.h - programming a core's counters (internal): allocation,
 * ownership checks, claim tags, and the start/stop/reset controls.
 *
 * Each step on a core is one bus batch: one batch of reads that tells who
 * owns the PMU (pp_pmu_read_state), then one batch of writes
 * (pp_pmu_program_ex or pp_pmu_control).
 */
#ifndef PP_PROGRAM_H
#define PP_PROGRAM_H

#include <stdbool.h>
#include <stdint.h>

#include "pmuprobe.h"
#include "pmu/evname.h"
#include "target/target.h"

#define PP_MAX_COUNTERS 31
#define PP_CYCLE_SLOT   31      /* slot number of the cycle counter */
#define PP_CCNT_BIT     (1u << PP_CYCLE_SLOT)   /* its PMCNTENSET bit */

/*
 * Claim tags, DBGCLAIMSET/DBGCLAIMCLR at debug+0xFA0/0xFA4 (spec 3).  The
 * architecture gives the tags no meaning; these two bits are a convention
 * (CoreSight debuggers and the Linux CoreSight drivers follow it), not an
 * architectural rule: bit 0 = claimed by an external debugger, bit 1 =
 * claimed by self-hosted software.
 */
#define PP_CLAIM_EXTERNAL (1u << 0)
#define PP_CLAIM_SELF     (1u << 1)
/*
 * pmuprobe's own use of two more tags (the convention leaves bits 2-7
 * free; Linux's CoreSight drivers mask the tags to bits 1:0): a running
 * capture holds tag 0 and one of these, so a second client tells a live
 * capture (refused unless --steal) from counters an earlier `config` left
 * under tag 0 (taken over, with a note).  A new holder takes the tag the
 * old one does not hold and clears the other in the same write batch, so
 * a steal is always a change the old holder can see in DBGCLAIMCLR, even
 * when the new programming is identical.  Cores without tags 2 and 3
 * keep tag 0 only.
 */
#define PP_CLAIM_LIVE0    (1u << 2)
#define PP_CLAIM_LIVE1    (1u << 3)
#define PP_CLAIM_LIVE     (PP_CLAIM_LIVE0 | PP_CLAIM_LIVE1)

/* Which event goes on which counter of one core. */
struct pp_pmu_prog {
    unsigned nev;                        /* event counters used: 0..nev-1 */
    struct pp_evsel ev[PP_MAX_COUNTERS]; /* ev[i] is counted by PMEVCNTR<i> */
    bool     cycles;                     /* the cycle counter is used */
    uint32_t cycles_filter;              /* PMCCFILTR filter bits */
    unsigned nreq;                       /* events asked for */
    uint8_t  slot[PP_MAX_COUNTERS + 1];  /* slot[i]: counter of asked event i,
                                          * PP_CYCLE_SLOT for the cycle counter */
};

/*
 * Allocates events to counters: "cycles" to the cycle counter, the rest to
 * event counters in order.  PP_E_BUSY with a message when there are more
 * events than the core has counters.
 */
int pp_pmu_allocate(const struct pp_core_desc *core, const struct pp_evsel *ev, unsigned n,
                    struct pp_pmu_prog *out, char *err, size_t errlen);

/*
 * Programs and starts the counters in one bus batch: disable all, write
 * PMEVTYPER<n> and PMCCFILTR, clear overflow flags, reset and enable via
 * PMCR (E|P|C, and LC on PMUv3 so the cycle counter overflows at 64 bits),
 * then enable the used counters in PMCNTENSET.  Same as
 * pp_pmu_program_ex(bus, core, p, 0).
 */
int pp_pmu_program(struct pp_bus *bus, const struct pp_core_desc *core,
                   const struct pp_pmu_prog *p);

#define PP_PROG_CLAIM   (1u << 0)   /* first set PP_CLAIM_EXTERNAL (DBGCLAIMSET) */
#define PP_PROG_NOSTART (1u << 1)   /* leave PMCR.E clear: programmed, zeroed, stopped */

/* pp_pmu_program with PP_PROG_* flags, still one batch. */
int pp_pmu_program_ex(struct pp_bus *bus, const struct pp_core_desc *core,
                      const struct pp_pmu_prog *p, unsigned flags);

/* Offsets of counter n and the cycle counter for the core's PMU view. */
uint32_t pp_pmu_evcntr_off(const struct pp_core_desc *core, unsigned n);
uint32_t pp_pmu_ccntr_off(const struct pp_core_desc *core);

/* ---- ownership (owner.c) ------------------------------------------------- */

/* A core's PMU as one batch of reads found it. */
struct pp_pmu_state {
    unsigned ncnt;                       /* event counters read: core->counters */
    uint32_t pmcr, cntenset, ccfiltr;
    uint32_t pmcfgr;                     /* N [7:0]: the event counters the PMU has */
    uint32_t pmceid[4];                  /* events it implements; 2, 3: 0 without PMUv3p1 */
    uint32_t evtyper[PP_MAX_COUNTERS];
    uint64_t value[PP_MAX_COUNTERS + 1]; /* [PP_CYCLE_SLOT]: PMCCNTR */
    bool     claim_ok;                   /* claim tags 0 and 1 exist and answered */
    bool     live_ok;                    /* and tags 2 and 3 (PP_CLAIM_LIVE) exist */
    uint32_t claim_impl;                 /* DBGCLAIMSET read: tags implemented */
    uint32_t claim;                      /* DBGCLAIMCLR read: tags set */
    int      claim_st;                   /* PP_OP_* of the claim reads */
    int      st;                         /* PP_OP_OK, or the first failed PMU read's */
    uint32_t bad_addr;                   /* and its address */
};

/*
 * Reads in one batch PMCR, PMCNTENSET, PMEVTYPER0..N-1, PMCCFILTR, the
 * counter values, PMCFGR, PMCEID0-1 (0-3 with PMUv3p1) and both claim
 * registers: DBGCLAIMSET reads which tags
 * exist, DBGCLAIMCLR reads which are set (spec 3).  No writes.  Returns
 * PP_OK when every PMU read answered (claim tags that do not answer only
 * clear claim_ok), the error of the first failed PMU read otherwise
 * (st/bad_addr say which), or the path's error (PP_E_LINK...).
 */
int pp_pmu_read_state(struct pp_bus *bus, const struct pp_core_desc *core,
                      struct pp_pmu_state *out);

/* Whether PMCR.E is set and counter slot n (PP_CYCLE_SLOT: PMCCNTR) is
 * enabled, i.e. counting. */
bool pp_pmu_counting(const struct pp_pmu_state *st, unsigned n);

/* Event number field of PMEVTYPER for the core (8, 10 or 16 bits). */
uint16_t pp_pmu_evtyper_code(const struct pp_core_desc *core, uint32_t evtyper);

/* Catalog mnemonic of an event number on the core, NULL if unknown. */
const char *pp_pmu_event_name(const struct pp_core_desc *core, uint16_t code);

/*
 * Counters someone is using: enabled in PMCNTENSET and either PMCR.E set
 * or an event type (PMCCFILTR for the cycle counter) programmed.  Bit n:
 * PMEVCNTR<n>; PP_CCNT_BIT: PMCCNTR.
 */
uint32_t pp_pmu_busy(const struct pp_pmu_state *st);

/*
 * Decides whether pmuprobe may take the PMU.  PP_OK: nobody else uses it,
 * or an external debugger (claim tag 0 alone, most likely an earlier
 * pmuprobe config) holds the counters in use; msg says so in that case,
 * else is empty.  PP_E_BUSY: self-hosted software holds claim tag 1, a
 * running capture holds a live tag (PP_CLAIM_LIVE), or counters are in
 * use with no external claim; msg names the core, the counters with their
 * events, and the register values that show it.
 */
int pp_pmu_check_owner(const struct pp_core_desc *core, const struct pp_pmu_state *st,
                       char *msg, size_t len);

#define PP_PROG_FORCE   (1u << 2)   /* pp_pmu_configure: program over counters in use */
#define PP_PROG_LIVE    (1u << 3)   /* pp_pmu_configure: also hold a live-capture tag */

/*
 * The whole "config -e" step on one core: pp_pmu_read_state (one batch of
 * reads), pp_pmu_check_owner, then pp_pmu_program_ex (one batch of writes)
 * with PP_PROG_CLAIM added when the core has claim tags.  Refused: PP_E_BUSY
 * with the reason in msg and nothing written; with PP_PROG_FORCE msg keeps
 * the reason and the counters are taken.  PP_E_UNSUPPORTED, whatever the
 * flags, with nothing written: p needs more event counters than the PMU's
 * PMCFGR.N says it has (the silicon decides, not the description).  PP_OK
 * may leave a note in msg, such as events the core does not advertise in
 * PMCEID (they may count nothing).
 * A failed read returns its error with st->st set; a failed write returns
 * its error with st->st PP_OP_OK.  st receives what was read.
 */
int pp_pmu_configure(struct pp_bus *bus, const struct pp_core_desc *core,
                     const struct pp_pmu_prog *p, unsigned flags, struct pp_pmu_state *st,
                     char *msg, size_t len);

/*
 * pp_pmu_configure for a capture: with PP_PROG_LIVE the claim write sets
 * tag 0 and the live tag (PP_CLAIM_LIVE) the core does not hold, and
 * clears the other; every claim write clears the live tags a holder is
 * no longer entitled to.  own: the live tag the caller already holds (a
 * capture programming a core again after a power cycle), not taken as
 * another capture's.
 */
int pp_pmu_configure_ex(struct pp_bus *bus, const struct pp_core_desc *core,
                        const struct pp_pmu_prog *p, unsigned flags, uint32_t own,
                        struct pp_pmu_state *st, char *msg, size_t len);

/* ---- controls ----------------------------------------------------------- */

#define PP_CTL_START   (1u << 0)   /* PMCR.E = 1: enabled counters count */
#define PP_CTL_STOP    (1u << 1)   /* PMCR.E = 0, then PMCNTENCLR every counter */
#define PP_CTL_RESET   (1u << 2)   /* PMCR.P|C and PMOVSCLR: counters to zero */
#define PP_CTL_CLAIM   (1u << 3)   /* DBGCLAIMCLR = PP_CLAIM_LIVE, then
                                    * DBGCLAIMSET = PP_CLAIM_EXTERNAL (first) */
#define PP_CTL_RELEASE (1u << 4)   /* DBGCLAIMCLR = EXTERNAL | LIVE (last) */

/*
 * Applies PP_CTL_* to a core in one batch.  PMCR is written once, from the
 * value in st with E set (START) or cleared (STOP) and P|C added (RESET),
 * so a start with a reset zeroes and starts at one instant.  START and
 * STOP together: PP_E_INVAL.
 */
int pp_pmu_control(struct pp_bus *bus, const struct pp_core_desc *core,
                   const struct pp_pmu_state *st, unsigned ctl);

#endif

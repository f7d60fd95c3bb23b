/*
 * jtagchain.h - a JTAG chain as a user describes it (internal API): the
 * TAPs in order, each with its IR length, the IDCODEs it may answer and
 * its IR capture pattern, one of them the Arm DAP.  The same text serves
 * the target description's jtag.chain key (what the simulator builds and
 * a real board is expected to show) and the CLI's --jtag-chain (what the
 * user says the board has).  Grammar (man/pmuprobe-target.5, pmuprobe(1)):
 *
 *   tdi TAP TAP ... tdo      or      tdo TAP TAP ... tdi
 *   TAP = NAME[:irlen=N][:idcode=ID[|ID...]|:idcode=none][:ircapture=N]
 *
 * The end words make the order explicit: OpenOCD configs declare the TAP
 * nearest TDO first (spec/jtag-chains.md 1.0), data sheets often draw
 * TDI first; either reads unambiguously here.  Separators are blanks or
 * commas (commas spare the shell quoting).  NAME "dap" marks the DAP.
 *
 * Matching a found chain against a description, and picking the DAP when
 * nothing is described, is pp_jtag_chain_apply.
 */
#ifndef PP_LINK_JTAGCHAIN_H
#define PP_LINK_JTAGCHAIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "link/jtag.h"

#define PP_JTAG_CHAIN_IDS 8        /* IDCODEs one TAP may answer */

struct pp_jtag_chain_tap {
    char     name[24];
    bool     dap;                   /* the Arm DAP's TAP */
    unsigned irlen;                 /* 0: not given */
    bool     no_idcode;             /* idcode=none: BYPASS after reset */
    unsigned nids;                  /* IDCODEs accepted; 0 (and !no_idcode): any */
    uint32_t ids[PP_JTAG_CHAIN_IDS];
    bool     ircapture_set;
    uint32_t ircapture;             /* Capture-IR value (default ...01) */
};

struct pp_jtag_chain {
    unsigned n;                     /* 0: nothing described (auto-detect) */
    struct pp_jtag_chain_tap tap[PP_JTAG_MAX_TAPS];   /* tap[0] nearest TDO */
};

/* Parses text into out.  PP_E_PARSE with the reason in err (no prefix)
 * for a malformed chain, one without exactly one "dap", or too many TAPs. */
int pp_jtag_chain_parse(const char *text, struct pp_jtag_chain *out, char *err, size_t errlen);
/* Index of the DAP in c (c->n when none). */
unsigned pp_jtag_chain_dap(const struct pp_jtag_chain *c);

/* Known IDCODEs and their IR lengths (spec/jtag-chains.md 2.5): 0 and
 * *name NULL when the IDCODE is not in the table. */
unsigned pp_jtag_known_irlen(uint32_t idcode, const char **name);
/* An Arm JTAG-DP IDCODE, 0xnBA0n477 (spec/jtag-chains.md 3, 4.1). */
bool pp_jtag_is_arm_dp(uint32_t idcode);

/*
 * Finds the chain on the wire (pp_jtag_scan), checks it against want
 * (NULL or n == 0: nothing described), works out every IR length (from
 * want, else the table of known IDCODEs, else the capture pattern),
 * picks the DAP (want's "dap", else the one Arm JTAG-DP, or the TAP with
 * IDCODE dap_idcode when that is nonzero) and sets the chain with the DAP
 * active.  One flush.  On failure err names the IDCODEs found, nearest
 * TDO first: PP_E_NOTFOUND (no TAP, or no DAP), PP_E_PARSE (the chain
 * does not match want, or IR lengths cannot be told), link errors.
 */
int pp_jtag_chain_apply(struct pp_jtag *j, const struct pp_jtag_chain *want, uint32_t dap_idcode,
                        char *err, size_t errlen);

#endif

/*
 * swd_simpins.h - the SWD engine's wire over the simulated SoC's SW-DP
 * pins in process (sim/swdp.h), as simpins.c is for JTAG: every queued
 * clock is clocked into the sim at once, seq_in buffers fill at once, and
 * the flush only counts the round trip a real adapter would make.
 */
#ifndef PP_LINK_SWD_SIMPINS_H
#define PP_LINK_SWD_SIMPINS_H

#include "link/swd.h"
#include "sim/jtag.h"

/* A wire over j, which the caller keeps (and frees after the wire).
 * Free it with its ops->free.  NULL on OOM. */
struct pp_swd_wire *pp_swd_simpins_new(struct pp_simjtag *j);

/* Test hook: the wire is lost at the nflushes-th flush from now (1 = the
 * next one) and stays lost (PP_E_LINK); 0 cancels. */
void pp_swd_simpins_fail_after(struct pp_swd_wire *w, unsigned nflushes);

#endif

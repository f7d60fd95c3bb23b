/*
 * simpins.h - the in-process link driver: its pins drive the simulated
 * SoC's TAP (sim/jtag.h) directly, one pp_simjtag_cycle per TCK, so the
 * whole JTAG/ADIv5 stack can be tested and measured without a socket.
 */
#ifndef PP_LINK_SIMPINS_H
#define PP_LINK_SIMPINS_H

#include <stddef.h>

#include "link/link.h"
#include "sim/jtag.h"

/*
 * A link over j, which the caller keeps (and frees after the link).  Extra
 * TAPs that only know BYPASS (no IDCODE; Capture-IR loads 0b...01) can be
 * put on the chain around the JTAG-DP: read from TDO, the chain is
 * tdo_side[0..ntdo), the JTAG-DP, tdi_side[0..ntdi), each given by its IR
 * length (2..32).  Counts every flush that samples TDO as a round trip,
 * as a pipelined link would.  NULL with a message in err on bad lengths
 * (or more than 8 extra TAPs a side) or out of memory.
 */
struct pp_link *pp_link_simpins_new(struct pp_simjtag *j, const unsigned *tdo_side,
                                    unsigned ntdo, const unsigned *tdi_side, unsigned ntdi,
                                    char *err, size_t errlen);

/* Test hook: the link is lost at the nflushes-th flush from now (1 = the
 * next one) and stays lost; 0 cancels. */
void pp_link_simpins_fail_after(struct pp_link *l, unsigned nflushes);

#endif

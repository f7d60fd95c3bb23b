/*
 * swd_link.h - the SWD engine's wire over a JTAG link (link.h) whose TDI
 * and TDO both reach SWDIO, TDI through a series resistor: the wiring of
 * OpenOCD's swd-resistor-hack.cfg (spec/cmsis-dap-swd.md 5.3), which needs
 * no output-enable pin, so any link that can shift TDI and sample TDO
 * (FTDI MPSSE, remote_bitbang, the in-process sim pins) carries SWD.
 * SWCLK is TCK; TMS stays low.
 *
 * While the host listens it drives TDI high through the resistor: the
 * target overrides it when it drives, and the line reads 1 when nobody
 * does, as the pull-up would make it (swd 4.2).  Layouts with a SWDIO_OE
 * pin or a direction bit (ft232h-module-swd, minimodule-swd) are not
 * served here: they need the FTDI driver to switch the pin between the
 * request and the ACK.
 */
#ifndef PP_LINK_SWD_LINK_H
#define PP_LINK_SWD_LINK_H

#include "link/link.h"
#include "link/swd.h"

/* A wire over l (which the caller keeps, and closes after the wire).
 * Free it with its ops->free.  NULL on OOM. */
struct pp_swd_wire *pp_swd_link_wire_new(struct pp_link *l);

#endif

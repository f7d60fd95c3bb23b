/*
 * swd_link.h - the SWD engine's wire over a JTAG link (link.h) whose TDI
 * and TDO both reach SWDIO.  With TDI through a series resistor (the
 * wiring of OpenOCD's swd-resistor-hack.cfg, spec/cmsis-dap-swd.md 5.3)
 * no output-enable pin is needed, so any link that can shift TDI and
 * sample TDO (FTDI MPSSE, remote_bitbang, the in-process sim pins) carries
 * SWD.  SWCLK is TCK; TMS stays low unless it is the layout's SWDIO_OE.
 *
 * While the host listens it drives TDI high through the resistor: the
 * target overrides it when it drives, and the line reads 1 when nobody
 * does, as the pull-up would make it (swd 4.2).  On an FTDI link whose
 * layout switches SWDIO (a SWDIO_OE buffer, or DO tied to SWDIO and let go
 * through its direction bit: ft232h-module-swd, minimodule-swd,
 * olimex-arm-usb-ocd-h-swd; lib/link/ftdi.h), the wire also sets SWD_EN
 * and releases SWDIO before every listening phase and takes it back
 * after, in the same queue (spec/cmsis-dap-swd.md 5.1, 5.2).
 */
#ifndef PP_LINK_SWD_LINK_H
#define PP_LINK_SWD_LINK_H

#include "link/link.h"
#include "link/swd.h"

/* A wire over l (which the caller keeps, and closes after the wire).
 * Free it with its ops->free.  NULL on OOM. */
struct pp_swd_wire *pp_swd_link_wire_new(struct pp_link *l);

#endif

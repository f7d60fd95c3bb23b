/*
 * swdp.h - the simulated SoC's SW-DP at pin level (internal API).
 *
 * The debug port of a pp_simjtag (sim/jtag.h) is what the target's dp key
 * says (man/pmuprobe-target.5): a JTAG-DP (dp = jtag, the default), a
 * SW-DP (dp = swd) or a SWJ-DP (dp = swj) that answers JTAG until the
 * JTAG-to-SWD select sequence switches it and SWD until SWD-to-JTAG.  All
 * of them reach the one DP/AP model (dap.h), so a SWJ-DP's CTRL/STAT, AP
 * and sticky flags are the same on both wires.
 *
 * Pins, as on an SWJ-DP: SWCLK is TCK, SWDIO is TMS.  The target samples
 * SWDIO on the rising edge of SWCLK and changes what it drives after a
 * rising edge, so a host reads SWDIO while SWCLK is low (swd 4.2).  The
 * JTAG calls of jtag.h work in SWD mode too (TMS is SWDIO, host-driven;
 * TDO reads 0); pp_simswd_cycle also lets the host release the line.
 *
 * What the SW-DP does (spec/cmsis-dap-swd.md 4, "swd 4.x";
 * spec/arm-pmu-coresight.md 7.5):
 *  - line reset: 50 or more host clocks with SWDIO high -> Reset state,
 *    DPBANKSEL 0; only a DPIDR read (-> Active) or a TARGETSEL write is
 *    then accepted, anything else locks the link out (swd 4.5);
 *  - request: Start, APnDP, RnW, A[3:2], even parity, Stop 0, Park 1; a
 *    bad parity, Stop or Park is a protocol error: no ACK (the host reads
 *    the pulled-up line, 0b111) and Lockout until a line reset;
 *  - one turnaround, ACK OK 0b001 / WAIT 0b010 / FAULT 0b100, 32 data
 *    bits and even parity, turnaround (46 clocks a packet); without
 *    ORUNDETECT a WAIT or FAULT ends after the second turnaround, with it
 *    33 more clocks are ignored (swd 4.2, 4.8);
 *  - WAIT while the AP is busy or a WAIT is injected (pp_simjtag_set_wait,
 *    fault dp:wait:N); FAULT while a sticky flag is set, except a DPIDR
 *    read, an ABORT write and a CTRL/STAT read (swd 4.7); ABORT clears
 *    them (STKERRCLR, ORUNERRCLR, WDERRCLR, STKCMPCLR); a write-data
 *    parity error drops the write and sets WDATAERR;
 *  - AP reads are posted: the data is the previous AP read's result, and
 *    RDBUFF the last one, without a new AP access; RESEND repeats the last
 *    AP/RDBUFF data;
 *  - DPv2: DPIDR version 2 (dap.c), TARGETID in bank 2, DLPIDR in bank 3,
 *    TARGETSEL accepted in Reset when it names TARGETID with instance 0.
 * Not modelled: dormant state and its selection alert (a SWJ-DP here
 * powers up in JTAG mode and switches with the ADIv5.2 sequences only),
 * turnaround lengths other than 1, STICKYORUN on leaving Lockout.
 */
#ifndef PP_SIM_SWDP_H
#define PP_SIM_SWDP_H

#include <stdbool.h>

#include "sim/jtag.h"

/*
 * One SWCLK cycle: SWCLK low, SWDIO driven to swdio by the host when
 * drive (else released), the line sampled, SWCLK high.  Returns the level
 * the host sees in the low phase: the target's bit when it drives, else
 * the host's when it drives, else 1 (the pull-up).  On a JTAG-only DP
 * the cycle clocks the TAP with TMS at that level and nothing drives back.
 */
bool pp_simswd_cycle(struct pp_simjtag *j, bool drive, bool swdio);

/*
 * Which JTAG pin carries SWDIO when the port is driven through the JTAG
 * pin calls (pp_simjtag_pins/cycle, as the remote_bitbang server and the
 * FTDI emulator do): TMS, as on an SWJ-DP's own SWDIOTMS pin (the
 * default), or TDI and TDO both, as on FTDI SWD adapters that tie DO and
 * DI to SWDIO (spec/cmsis-dap-swd.md 5.1, 5.3: ft232h-module-swd,
 * minimodule-swd, swd-resistor-hack).  With PP_SWDIO_ON_TDI the line is
 * the target's bit while it drives and TDI otherwise (a resistor or a
 * released pin the board pulls up), and TDO reads the line.
 */
enum pp_swdio_pin { PP_SWDIO_ON_TMS, PP_SWDIO_ON_TDI };
void pp_simswd_set_swdio_pin(struct pp_simjtag *j, enum pp_swdio_pin pin);

/* True while the port answers SWD (a SW-DP always, a SWJ-DP after the
 * JTAG-to-SWD sequence). */
bool pp_simswd_active(const struct pp_simjtag *j);

#endif

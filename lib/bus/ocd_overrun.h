/*
 * ocd_overrun.h - the sticky-overrun guard, as TCL procs run inside
 * OpenOCD: sent by the openocd access path (ocd_attach.c) and written into
 * pmu-tables.tcl for pmu.tcl (src/pmutcl/gen-pmutcl.c), so both check the same
 * way.
 *
 * Why: OpenOCD 0.12's end-of-run check acts on STICKYERR only, and its
 * WAIT recovery clears STICKYORUN with a DPACC write that can itself be
 * answered WAIT, which sets the flag again.  While STICKYORUN is set the
 * DP discards every AP access and answers OK with stale data
 * (spec/openocd.md 4, ADIv5 overrun detection).
 *
 *   pmuprobe_rpc_orun DAP       1 when DAP's CTRL/STAT (dpreg 4) shows no
 *                               overrun; else 0, after clearing the flag
 *                               (W1C, keeping the power-up requests and
 *                               ORUNDETECT).  An empty DAP name (a target
 *                               without one) cannot be checked: 1.
 *   pmuprobe_rpc_stall_logged LOG
 *                               1 when OpenOCD's log text tells of a WAIT
 *                               stall, whose recovery may have left stale
 *                               data even though the access succeeded.
 */
#ifndef PP_OCD_OVERRUN_H
#define PP_OCD_OVERRUN_H

extern const char pp_ocd_overrun_tcl[];

#endif

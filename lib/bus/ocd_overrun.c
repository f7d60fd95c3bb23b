/*
 * ocd_overrun.c - the sticky-overrun guard procs (ocd_overrun.h).
 */
#include "bus/ocd_overrun.h"

const char pp_ocd_overrun_tcl[] =
    "proc pmuprobe_rpc_orun {d} {\n"
    "  if {$d eq {}} {return 1}\n"
    "  if {[catch {set cs [string trim [$d dpreg 4]]}] || ![string is integer -strict $cs]} {return 0}\n"
    "  if {!($cs & 2)} {return 1}\n"
    "  catch {$d dpreg 4 [expr {($cs & 0x50000001) | 2}]}\n"
    "  return 0\n"
    "}\n"
    "proc pmuprobe_rpc_stall_logged {log} {string match {*stalled (WAIT)*} $log}\n";

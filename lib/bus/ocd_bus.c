/*
 * ocd_bus.c - the openocd access path: struct pp_bus over OpenOCD's TCL
 * RPC server, attached (ocd_attach.c) to whatever session the user
 * already runs.
 *
 * Facts: spec/openocd.md 3 (RPC, status by catch/capture), 4 (an APB error response is a STICKYERR that OpenOCD
 * clears itself, so OpenOCD stays usable after one).
 *
 * Round trips are what costs (spec 5.2), so every batch is one request:
 * a small TCL program - "r ADDR COUNT" for a run of ascending reads, "w
 * ADDR VALUE" for a write - run by procs we define once per connection.
 * A failing read block is bisected inside OpenOCD, which gives each word
 * its own status without further round trips.  Repeat mode runs the same
 * program COUNT times in one request with OpenOCD's own clock for timing.
 * Without a mem_ap target (apreg mode, ocd_attach.c) the same procs reach
 * the AP's TAR and DRW through `<dap> apreg` instead of read_memory.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "clock.h"
#include "bus/ocd_bus_internal.h"
#include "errmsg.h"
#include "trace.h"

#define MAX_BLOCK        256u    /* words per read_memory (OpenOCD allows 65536) */
#define RECONNECT_MS     10000u
#define RECONNECT_STEP_MS 200u
#define NS_PER_US        1000ull
/* Kept short: a capture's gap shows it in a diagnosis's 192-byte evidence. */
#define OTHER_PROCS      ": another client redefined pmuprobe's procs? Defined again; if " \
                         "this recurs, use one pmuprobe version per OpenOCD"
#define PROCS_FAILED     "; sending pmuprobe's procs again failed: "

/* Procs sent once per connection.  pmuprobe_rpc_rd reads n words at a
 * and returns one element per word: the value, or a letter for why it
 * failed (E error response, W wait timeout, F anything else), found by
 * bisecting the block (spec 4: a STICKYERR read leaves OpenOCD usable).
 * The failing call's log is kept for the error message.
 *
 * Every batch ends with a read of the DP's CTRL/STAT (pmuprobe_rpc_orun,
 * ocd_overrun.h says why).  A batch is trusted only if that read shows no
 * overrun and no call logged a stall; otherwise the flag is cleared and
 * the batch runs once more, after which every element is W: a gap
 * (dp-wait), never a stale count.  A repeat set's samples share their
 * reads of CTRL/STAT (pmuprobe_rpc_settle says how), one OpenOCD command
 * a sample fewer.  A storm that outlasts OpenOCD's 1 s WAIT recovery
 * gives up at once: a run stops at its first stall, a WAIT failure is
 * not bisected, a call OpenOCD gave up on is not run again (the next
 * check clears what it left), and a set takes no further sample after
 * one OpenOCD gave up on; a failed read_memory costs OpenOCD 2 s (1 s of
 * recovery for the read, 1 s more for locating the failure), which the
 * request's deadline allows for (BATCH_WAIT_MS).  The CTRL/STAT read
 * costs 4 DR scans, 2 flushes through a USB adapter.  Sent after
 * pp_ocd_overrun_tcl, whose procs they use. */
const char ocd_procs_tcl[] =
    /* A dead adapter (L) is told from a slow target by what OpenOCD logs
     * when its driver loses the probe: a socket error (remote_bitbang,
     * seen: "Error on socket 'remote_bitbang_putc': errno==32"), libusb's
     * or the USB drivers' transfer failures.  A WAIT storm logs none of
     * them, and a dead adapter answers everything after it the same way,
     * so it is a lost link (docs/reliability.md), not a dp-wait gap. */
    "proc pmuprobe_rpc_dead_logged {log} {\n"
    "  foreach p {{*Error on socket*} {*LIBUSB_ERROR_NO_DEVICE*} {*No such device*}\n"
    "             {*USB is disconnected*} {*usb bulk * failed*} {*libusb_bulk_* failed*}\n"
    "             {*CMSIS-DAP command failed*}} {\n"
    "    if {[string match $p $log]} {return 1}\n"
    "  }\n"
    "  return 0\n"
    "}\n"
    "set ::pmuprobe_rpc_dead 0\n"
    "proc pmuprobe_rpc_why {log} {\n"
    "  if {[pmuprobe_rpc_dead_logged $log]} {return L}\n"
    "  if {[string match {*STICKY ERROR*} $log]} {return E}\n"
    "  if {[string match {*Timeout during WAIT*} $log]} {return W}\n"
    "  return F\n"
    "}\n"
    "proc pmuprobe_rpc_stalled {log} {\n"
    "  if {[pmuprobe_rpc_stall_logged $log]} {set ::pmuprobe_rpc_stall 1}\n"
    "}\n"
    /* OpenOCD gave a call up after its 1 s of WAIT recovery. */
    "proc pmuprobe_rpc_gaveup {why} {\n"
    "  if {$why eq {W}} {set ::pmuprobe_rpc_stall 1; set ::pmuprobe_rpc_timedout 1}\n"
    "  if {$why eq {L} && !$::pmuprobe_rpc_dead} {\n"
    "    set ::pmuprobe_rpc_dead 1\n"
    "    set first [lindex [split [string trim $::pmuprobe_rpc_log] \\n] 0]\n"
    "    set ::pmuprobe_rpc_deadmsg \"the adapter behind OpenOCD stopped answering ($first): \"\n"
    "    append ::pmuprobe_rpc_deadmsg {check the probe's USB connection and power, then restart OpenOCD}\n"
    "  }\n"
    "}\n"
    /* The IDRs of DAP d's APs (0 where none answers), after clearing a
     * sticky overrun another client may have left (ocd_attach.c). */
    "proc pmuprobe_rpc_apids {d aps} {\n"
    "  pmuprobe_rpc_orun $d\n"
    "  set o {}\n"
    "  foreach a $aps {set id 0; catch {set id [$d apid $a]}; lappend o [string trim $id]}\n"
    "  return $o\n"
    "}\n"
    /* apreg mode (no mem_ap target, ocd_attach.c): t is "DAP AP CSW" and
     * each word is AP register accesses of its own (spec/openocd.md 2.3:
     * a DRW read is a bus access at TAR).  ::pmuprobe_rpc_tar is where
     * TAR points, -1 when unknown: TAR is written once per run and again
     * at each 1 KB boundary, where auto-increment stops being defined
     * (spec/arm-pmu-coresight.md 7.3), and after any failure, which leaves
     * it unknown.  A failing access gets its letter as in read_memory. */
    "proc pmuprobe_rpc_ap {t reg args} {\n"
    "  lassign $t d ap\n"
    "  set bad [catch {capture {set ::pmuprobe_rpc_v [$d apreg $ap $reg {*}$args]; list}} log]\n"
    "  pmuprobe_rpc_stalled $log\n"
    "  if {!$bad} {return {}}\n"
    "  set ::pmuprobe_rpc_log $log\n"
    "  set ::pmuprobe_rpc_tar -1\n"
    "  set why [pmuprobe_rpc_why $log]\n"
    "  pmuprobe_rpc_gaveup $why\n"
    "  return $why\n"
    "}\n"
    /* One word at a through DRW (v: {} to read, {VALUE} to write);
     * {} when it worked, else its letter. */
    "proc pmuprobe_rpc_aword {t a v} {\n"
    "  if {$::pmuprobe_rpc_tar != $a} {\n"
    "    set why [pmuprobe_rpc_ap $t 4 [format 0x%x $a]]\n"
    "    if {$why ne {}} {return $why}\n"
    "  }\n"
    "  set why [pmuprobe_rpc_ap $t 0xc {*}$v]\n"
    "  if {$why ne {}} {return $why}\n"
    "  set n [expr {$a + 4}]\n"
    "  set ::pmuprobe_rpc_tar [expr {($n & 0x3FF) ? $n : -1}]\n"
    "  return {}\n"
    "}\n"
    "proc pmuprobe_rpc_ard {t a n} {\n"
    "  set out {}\n"
    "  for {set i 0} {$i < $n} {incr i} {\n"
    "    if {$::pmuprobe_rpc_stall} {lappend out W; continue}\n"
    "    set why [pmuprobe_rpc_aword $t [expr {$a + 4 * $i}] {}]\n"
    "    if {$why eq {}} {set why [string trim $::pmuprobe_rpc_v]}\n"
    "    lappend out $why\n"
    "  }\n"
    "  return $out\n"
    "}\n"
    /* The reply elements of one op: a read's words, or one for a write. */
    "proc pmuprobe_rpc_n {op x} {\n"
    "  if {$op eq {r}} {return $x}\n"
    "  if {$op eq {g}} {return [lindex $x 0]}\n"
    "  return 1\n"
    "}\n"
    "proc pmuprobe_rpc_words {prog} {\n"
    "  set k 0\n"
    "  foreach {op a x} $prog {incr k [pmuprobe_rpc_n $op $x]}\n"
    "  return $k\n"
    "}\n"
    "proc pmuprobe_rpc_rd {t a n} {\n"
    "  if {[llength $t] > 1} {return [pmuprobe_rpc_ard $t $a $n]}\n"
    "  set bad [catch {capture {set ::pmuprobe_rpc_v [$t read_memory $a 32 $n]; list}} log]\n"
    "  pmuprobe_rpc_stalled $log\n"
    "  if {!$bad} {return $::pmuprobe_rpc_v}\n"
    "  set ::pmuprobe_rpc_log $log\n"
    "  set why [pmuprobe_rpc_why $log]\n"
    "  pmuprobe_rpc_gaveup $why\n"
    "  if {$n == 1 || $why eq {W} || $why eq {L}} {return [lrepeat $n $why]}\n"
    "  set h [expr {$n / 2}]\n"
    "  concat [pmuprobe_rpc_rd $t $a $h] [pmuprobe_rpc_rd $t [expr {$a + 4 * $h}] [expr {$n - $h}]]\n"
    "}\n"
    /* A block that covers unrequested words: spec is "COUNT OFF LEN ...",
     * the runs of requested words by word offset.  When the whole block
     * fails, the runs are read again (and bisected), so a core that is
     * off costs what it cost without the cover, and the other words say
     * "-" (not read).  Only when every requested word then reads fine are
     * the words between bisected too, once, to name the word that failed
     * (ocd_bus.c learns it and covers it no more).  A WAIT or dead
     * adapter answers all as in rd. */
    "proc pmuprobe_rpc_rg {t a spec} {\n"
    "  set runs [lassign $spec n]\n"
    "  if {[llength $t] > 1} {return [pmuprobe_rpc_ard $t $a $n]}\n"
    "  set bad [catch {capture {set ::pmuprobe_rpc_v [$t read_memory $a 32 $n]; list}} log]\n"
    "  pmuprobe_rpc_stalled $log\n"
    "  if {!$bad} {return $::pmuprobe_rpc_v}\n"
    "  set ::pmuprobe_rpc_log $log\n"
    "  set why [pmuprobe_rpc_why $log]\n"
    "  pmuprobe_rpc_gaveup $why\n"
    "  if {$why eq {W} || $why eq {L}} {return [lrepeat $n $why]}\n"
    "  set out [lrepeat $n -]\n"
    "  set ok 1\n"
    "  set at 0\n"
    "  set gaps {}\n"
    "  foreach {o k} $runs {\n"
    "    set v [pmuprobe_rpc_rd $t [expr {$a + 4 * $o}] $k]\n"
    "    foreach w $v {if {$w in {E W F L}} {set ok 0}}\n"
    "    set out [lreplace $out $o [expr {$o + $k - 1}] {*}$v]\n"
    "    if {$o > $at} {lappend gaps $at [expr {$o - $at}]}\n"
    "    set at [expr {$o + $k}]\n"
    "  }\n"
    "  if {!$ok} {return $out}\n"
    "  foreach {o k} $gaps {\n"
    "    set out [lreplace $out $o [expr {$o + $k - 1}] {*}[pmuprobe_rpc_rd $t [expr {$a + 4 * $o}] $k]]\n"
    "  }\n"
    "  return $out\n"
    "}\n"
    "proc pmuprobe_rpc_wr {t a v} {\n"
    "  if {[llength $t] > 1} {\n"
    "    set why [pmuprobe_rpc_aword $t $a [list $v]]\n"
    "    if {$why eq {}} {return K}\n"
    "    return $why\n"
    "  }\n"
    "  set bad [catch {capture {$t write_memory $a 32 [list $v]; list}} log]\n"
    "  pmuprobe_rpc_stalled $log\n"
    "  if {!$bad} {return K}\n"
    "  set ::pmuprobe_rpc_log $log\n"
    "  set why [pmuprobe_rpc_why $log]\n"
    "  pmuprobe_rpc_gaveup $why\n"
    "  return $why\n"
    "}\n"
    /* After a stall the run is not trusted, so the rest of it is not
     * made: in a WAIT storm each call can take OpenOCD's 1 s recovery. */
    /* apreg mode: OpenOCD's own targets on the AP (cortex_a background
     * polling) rewrite CSW and TAR between requests [verified: CSW found
     * at OpenOCD's 0xA2000052 again], so each run writes our CSW first (on
     * failure no word is read with an unknown Size or AddrInc).  Afterwards TAR is written
     * once more: OpenOCD caches TAR as last written by apreg and does not
     * see DRW's auto-increment, so its next banked access by its cached
     * TAR would land elsewhere [from source: dap_apreg_command]. */
    "proc pmuprobe_rpc_once {t prog} {\n"
    "  set ::pmuprobe_rpc_stall 0\n"
    "  set ::pmuprobe_rpc_timedout 0\n"
    "  set ::pmuprobe_rpc_tar -1\n"
    "  if {[llength $t] > 1} {\n"
    "    set why [pmuprobe_rpc_ap $t 0 [lindex $t 2]]\n"
    "    if {$why ne {}} {return [lrepeat [pmuprobe_rpc_words $prog] $why]}\n"
    "    set out [pmuprobe_rpc_ops $t $prog]\n"
    "    catch {[lindex $t 0] apreg [lindex $t 1] 4 0}\n"
    "    return $out\n"
    "  }\n"
    "  pmuprobe_rpc_ops $t $prog\n"
    "}\n"
    "proc pmuprobe_rpc_ops {t prog} {\n"
    "  set out {}\n"
    "  foreach {op a x} $prog {\n"
    "    if {$::pmuprobe_rpc_dead} {\n"
    "      lappend out {*}[lrepeat [pmuprobe_rpc_n $op $x] L]\n"
    "    } elseif {$::pmuprobe_rpc_stall} {\n"
    "      lappend out {*}[lrepeat [pmuprobe_rpc_n $op $x] W]\n"
    "    } elseif {$op eq {r}} {\n"
    "      lappend out {*}[pmuprobe_rpc_rd $t $a $x]\n"
    "    } elseif {$op eq {g}} {\n"
    "      lappend out {*}[pmuprobe_rpc_rg $t $a $x]\n"
    "    } else {\n"
    "      lappend out [pmuprobe_rpc_wr $t $a $x]\n"
    "    }\n"
    "  }\n"
    "  return $out\n"
    "}\n"
    /* The DAP whose CTRL/STAT pmuprobe_rpc_orun reads: apreg mode's
     * first element, else the mem_ap target's ({} when it has none). */
    "proc pmuprobe_rpc_dap {t} {\n"
    "  if {[llength $t] > 1} {return [lindex $t 0]}\n"
    "  set d {}\n"
    "  catch {set d [$t cget -dap]}\n"
    "  return $d\n"
    "}\n"
    "set ::pmuprobe_rpc_overrun {the DP reported a sticky overrun or a WAIT stall in two runs of the batch, so its values were discarded; if this persists, lower OpenOCD's adapter speed}\n"
    "proc pmuprobe_rpc_batch {t prog} {\n"
    "  set d [pmuprobe_rpc_dap $t]\n"
    "  for {set try 0} {$try < 2} {incr try} {\n"
    "    set out [pmuprobe_rpc_once $t $prog]\n"
    "    if {$::pmuprobe_rpc_dead} {\n"
    "      set ::pmuprobe_rpc_log $::pmuprobe_rpc_deadmsg\n"
    "      return [lrepeat [llength $out] L]\n"
    "    }\n"
    "    if {$::pmuprobe_rpc_timedout} {return [lrepeat [llength $out] W]}\n"
    "    if {[pmuprobe_rpc_orun $d] && !$::pmuprobe_rpc_stall} {return $out}\n"
    "  }\n"
    "  set ::pmuprobe_rpc_log $::pmuprobe_rpc_overrun\n"
    "  lrepeat [llength $out] W\n"
    "}\n"
    /* A repeat set shares its CTRL/STAT checks.  Its first repetition is
     * checked at once, as a single batch is: a flag someone else left
     * between requests costs a second run of it, not a sample.  After
     * that a repetition that logged no stall is "open" (its row's first
     * index in ::pmuprobe_rpc_out is in ::pmuprobe_rpc_open) until the
     * next check, made when a stall calls for one and once at the end of
     * the set.  The flag is sticky until cleared, and with ORUNDETECT it
     * is set only by a WAIT, which OpenOCD logs (a stall: checked at once)
     * and recovers from by clearing it; so a check that finds none vouches
     * for every open row before it, and one that finds one makes them all
     * W, never stale values (ocd_overrun.h).  n: the elements of a row. */
    "proc pmuprobe_rpc_settle {d n} {\n"
    "  set ok [expr {!$::pmuprobe_rpc_dead && [pmuprobe_rpc_orun $d]}]\n"
    "  if {!$ok} {\n"
    "    foreach i $::pmuprobe_rpc_open {\n"
    "      set ::pmuprobe_rpc_out [lreplace $::pmuprobe_rpc_out $i [expr {$i + $n - 1}] {*}[lrepeat $n W]]\n"
    "    }\n"
    "    if {[llength $::pmuprobe_rpc_open] && !$::pmuprobe_rpc_dead} {\n"
    "      set ::pmuprobe_rpc_log $::pmuprobe_rpc_overrun\n"
    "    }\n"
    "  }\n"
    "  set ::pmuprobe_rpc_open {}\n"
    "  return $ok\n"
    "}\n"
    /* One repetition, run again once after a stall or (checked at once:
     * now) an overrun, as in pmuprobe_rpc_batch: {ROW OPEN GAVEUP}, OPEN
     * when the row waits for the set's check, GAVEUP when OpenOCD gave the
     * DP up (its WAIT recovery timed out, two runs failed, or the adapter
     * died). */
    "proc pmuprobe_rpc_rep {t d prog now} {\n"
    "  for {set try 0} {$try < 2} {incr try} {\n"
    "    set out [pmuprobe_rpc_once $t $prog]\n"
    "    if {$::pmuprobe_rpc_dead} {\n"
    "      set ::pmuprobe_rpc_log $::pmuprobe_rpc_deadmsg\n"
    "      return [list [lrepeat [llength $out] L] 0 1]\n"
    "    }\n"
    "    if {$::pmuprobe_rpc_timedout} {return [list [lrepeat [llength $out] W] 0 1]}\n"
    "    if {!$::pmuprobe_rpc_stall && !$now} {return [list $out 1 0]}\n"
    "    if {[pmuprobe_rpc_settle $d [llength $out]] && !$::pmuprobe_rpc_stall} {\n"
    "      return [list $out 0 0]\n"
    "    }\n"
    "  }\n"
    "  set ::pmuprobe_rpc_log $::pmuprobe_rpc_overrun\n"
    "  list [lrepeat [llength $out] W] 0 1\n"
    "}\n"
    "proc pmuprobe_rpc_run {t prog} {\n"
    "  set ::pmuprobe_rpc_log {}\n"
    "  set ::pmuprobe_rpc_dead 0\n"
    "  set out [pmuprobe_rpc_batch $t $prog]\n"
    "  linsert $out 0 $::pmuprobe_rpc_log\n"
    "}\n"
    /* Sleeps in whole milliseconds (OpenOCD's `sleep`), then spins on the
     * microsecond clock for the rest: `after` would also run the event
     * loop, which OpenOCD's Jim does not drive. */
    "proc pmuprobe_rpc_until {deadline} {\n"
    "  set left [expr {$deadline - [clock microseconds]}]\n"
    "  if {$left > 2000} {sleep [expr {($left - 1000) / 1000}]}\n"
    "  while {[clock microseconds] < $deadline} {}\n"
    "}\n"
    /* count repetitions, the k-th due at start + k * interval (us).
     * Once OpenOCD has given the DP up (a WAIT storm outlasting its 1 s
     * recovery: each further repetition would cost it about 2 s more,
     * spec/openocd.md 4), no further repetition is started: the rest of
     * the set answers W at once, stamped when they were given up, so the
     * request ends within one stalled repetition of its plan, which is
     * what the client's deadline allows for (repeat_timeout_ms).  The
     * first repetition runs prog, the others rest (prog without the ops
     * needed in the first only, pp_op.once): rows after the first have
     * rest's words, and only they are ever open.  rest comes last and may
     * be left out (then every repetition runs prog): the procs are global
     * in OpenOCD, so an older pmuprobe that shares this OpenOCD and still
     * calls the four-argument form keeps working. */
    "proc pmuprobe_rpc_repeat {t prog count interval {rest {}}} {\n"
    "  set ::pmuprobe_rpc_log {}\n"
    "  set ::pmuprobe_rpc_dead 0\n"
    "  set ::pmuprobe_rpc_open {}\n"
    "  set d [pmuprobe_rpc_dap $t]\n"
    "  set n [pmuprobe_rpc_words $prog]\n"
    "  set start [clock microseconds]\n"
    "  set ::pmuprobe_rpc_out [list $start]\n"
    "  set gaveup 0\n"
    "  for {set k 0} {$k < $count} {incr k} {\n"
    "    if {$k == 1 && $rest ne {}} {\n"
    "      set prog $rest\n"
    "      set n [pmuprobe_rpc_words $rest]\n"
    "    }\n"
    "    if {$gaveup} {\n"
    "      set now [clock microseconds]\n"
    "      lappend ::pmuprobe_rpc_out $now $now {*}[lrepeat $n [expr {$::pmuprobe_rpc_dead ? {L} : {W}}]]\n"
    "      continue\n"
    "    }\n"
    "    if {$k} {pmuprobe_rpc_until [expr {$start + $k * $interval}]}\n"
    "    set t0 [clock microseconds]\n"
    "    lassign [pmuprobe_rpc_rep $t $d $prog [expr {$k == 0}]] v open gaveup\n"
    "    if {$open} {lappend ::pmuprobe_rpc_open [expr {[llength $::pmuprobe_rpc_out] + 2}]}\n"
    "    lappend ::pmuprobe_rpc_out $t0 [clock microseconds] {*}$v\n"
    "  }\n"
    "  if {[llength $::pmuprobe_rpc_open]} {pmuprobe_rpc_settle $d $n}\n"
    "  lappend ::pmuprobe_rpc_out [clock microseconds] $::pmuprobe_rpc_log\n"
    "  set out $::pmuprobe_rpc_out\n"
    "  set ::pmuprobe_rpc_out {}\n"
    "  return $out\n"
    "}\n"
    "list";

/* --- batches -------------------------------------------------------- */

/* The procs' first argument: the mem_ap target, or in apreg mode the
 * list "DAP AP CSW" (the names were checked plain at attach). */
static void append_access(const struct ocd_bus *ob, struct pp_tcl_buf *b)
{
    if (!ob->at.apreg) {
        pp_tcl_name(b, ob->at.target);
        return;
    }
    pp_tcl_raw(b, " {");
    pp_tcl_name(b, ob->at.dap);
    pp_tcl_uint(b, ob->at.ap);
    pp_tcl_u32(b, ob->at.csw_after);
    pp_tcl_raw(b, "}");
}

/*
 * Side-effect-free windows of a PMUv3 external block (FEAT_PMUv3_EXT32,
 * spec/arm-pmu-coresight.md 1.1), where a read block may cover words
 * nobody asked for.  Every register in them reads without side effects;
 * their reserved words read RES0 unless the block's own registers would
 * error anyway (2.3), and an unimplemented counter's upper half is
 * CONSTRAINED UNPREDICTABLE, so it may error: that block's requested
 * runs are then read again (each word keeps its own status), the failing
 * word is found once and never covered again (nocover).  Left out on
 * purpose: 0x100-0x3FC (PMPCSR at
 * 0x200 takes a PC sample when read, 2.8), 0x480-0xBFC (the IMP DEF
 * snapshot window 0x600-0x7FC and 0xA00-0xBFC), 0xD00-0xDFC (IMP DEF
 * from 0xD80), 0xE30 on (PMSSCR or IMP DEF, integration registers), and
 * every debug block (DBGDTRTX, EDPCSR: reads with side effects, 3).
 */
static const struct {
    uint16_t lo, hi;                  /* offsets of the first and last word */
} pmu_safe[] = {
    { 0x000, 0x0FC },                 /* PMEVCNTR<n> halves, PMCCNTR */
    { 0x400, 0x47C },                 /* PMEVTYPER<n>, PMCCFILTR */
    { 0xC00, 0xCFC },                 /* PMCNTENSET/CLR, PMINTENSET/CLR, PMOVSCLR,
                                       * PMSWINC (WO: reads UNKNOWN), PMOVSSET */
    { 0xE00, 0xE2C },                 /* PMCFGR, PMCR, PMIIDR, PMCEID0-3 */
};

static bool pmu_block(const struct ocd_bus *ob, uint32_t addr)
{
    for (size_t i = 0; i < ob->npmu; i++)
        if (ob->pmu_blocks[i] == (addr & ~0xFFFu))
            return true;
    return false;
}

/* Whether a word in first..last failed as a covered word before. */
static bool nocover(const struct ocd_bus *ob, uint32_t first, uint32_t last)
{
    for (size_t i = 0; i < ob->nnocover; i++)
        if (ob->nocover[i] >= first && ob->nocover[i] <= last)
            return true;
    return false;
}

/* Whether the words first..last (inclusive, one 4 KB block) lie in one
 * side-effect-free window of a known PMUv3 block. */
static bool gap_safe(const struct ocd_bus *ob, uint32_t first, uint32_t last)
{
    uint32_t lo = first & 0xFFFu, hi = last & 0xFFFu;

    if (!pmu_block(ob, first))
        return false;
    for (size_t i = 0; i < sizeof(pmu_safe) / sizeof(pmu_safe[0]); i++)
        if (lo >= pmu_safe[i].lo && hi <= pmu_safe[i].hi)
            return true;
    return false;
}

/* Whether read next can join the block that ends with read at last.
 * Program order is kept (the plan relies on it: hi/lo/hi, flags before
 * counters, lib/pmu/extend.h), so only an ascending next qualifies, inside
 * last's 1 KB TAR window (OpenOCD rewrites TAR at the boundary, spec/
 * openocd.md 2.4, but no window above spans one).  The words in between,
 * when any, must cost less than the command they save (gap_words_max,
 * ocd_attach.c) and be safe to read: the upper half of a PMUv3 counter
 * slot (offset 4 mod 8 below 0x100 in its 4 KB block: RES0 or
 * UNPREDICTABLE without 64-bit counters, no read side effects), or words
 * of one pmu_safe window of a known PMU block.  The slot rule holds in any
 * block only while no PMU block is known (discovery): with the target's
 * PMU blocks given, a debug block's 0x08C (DBGDTRTX, a read pops it) or
 * 0x0A4 is never covered by it. */
static bool joins(const struct ocd_bus *ob, uint32_t last, const struct pp_op *next)
{
    uint32_t gap = last + 4, words;

    if (next->write || next->addr <= last || (next->addr & ~0x3FFu) != (last & ~0x3FFu))
        return false;
    if (next->addr == gap)
        return true;
    words = (next->addr - gap) / 4;
    if (words > ob->at.gap_words_max || nocover(ob, gap, next->addr - 4))
        return false;
    if (words == 1 && (gap & 0xFFFu) < 0x100u && (gap & 7u) == 4u
        && (!ob->npmu || pmu_block(ob, gap)))
        return true;
    return gap_safe(ob, gap, next->addr - 4);
}

/* A read block of a program: its first word's address, its words, where
 * they start in the reply row, and the ops [op, op_end) it carries. */
struct ocd_block {
    uint32_t addr;
    size_t words, at, op, op_end;
};

/* A program over n ops: where op i's element lands in a row (where[i]),
 * its read blocks, and the row's length. */
struct ocd_prog {
    size_t *where, elems;
    struct ocd_block *blk;
    size_t nblk;
};

static bool prog_alloc(struct ocd_prog *p, size_t n)
{
    p->where = malloc((n ? n : 1) * sizeof(*p->where));
    p->blk = malloc((n ? n : 1) * sizeof(*p->blk));
    return p->where && p->blk;
}

static void prog_free(struct ocd_prog *p)
{
    free(p->where);
    free(p->blk);
}

/* A block ops[i..j) with unrequested words: " g ADDR {COUNT OFF LEN ...}"
 * with the runs of requested words (ascending, joins() made sure). */
static void append_covered(struct pp_tcl_buf *b, const struct pp_op *ops, size_t i, size_t j)
{
    uint32_t base = ops[i].addr;

    pp_tcl_raw(b, " g");
    pp_tcl_u32(b, base);
    pp_tcl_raw(b, " {");
    pp_tcl_uint(b, (ops[j - 1].addr - base) / 4 + 1);
    for (size_t k = i; k < j;) {
        size_t e = k + 1;

        while (e < j && ops[e].addr == ops[e - 1].addr + 4)
            e++;
        pp_tcl_uint(b, (ops[k].addr - base) / 4);
        pp_tcl_uint(b, e - k);
        k = e;
    }
    pp_tcl_raw(b, "}");
}

/*
 * The batch as a TCL program: triples "r ADDR COUNT" / "w ADDR VALUE" /
 * "g ADDR {COUNT OFF LEN ...}" (a block with unrequested words).
 * Fills p (allocated for n ops): where each op's element lands, the read
 * blocks, and the row's length (words read plus writes).
 */
static void build_program(const struct ocd_bus *ob, struct pp_tcl_buf *b,
                          const struct pp_op *ops, size_t n, struct ocd_prog *p)
{
    size_t elems = 0, *where = p->where, *nblk = &p->nblk;
    struct ocd_block *blk = p->blk;

    *nblk = 0;
    pp_tcl_raw(b, " {");
    for (size_t i = 0; i < n;) {
        size_t j = i + 1;
        uint32_t last = ops[i].addr;

        if (ops[i].write) {
            pp_tcl_raw(b, " w");
            pp_tcl_u32(b, ops[i].addr);
            pp_tcl_u32(b, ops[i].wdata);
            where[i++] = elems++;
            continue;
        }
        while (j < n && (ops[j].addr - ops[i].addr) / 4 < MAX_BLOCK && joins(ob, last, &ops[j]))
            last = ops[j++].addr;
        if ((size_t)((last - ops[i].addr) / 4 + 1) == j - i) {
            pp_tcl_raw(b, " r");
            pp_tcl_u32(b, ops[i].addr);
            pp_tcl_uint(b, (last - ops[i].addr) / 4 + 1);
        } else {
            append_covered(b, ops, i, j);
        }
        for (size_t k = i; k < j; k++)
            where[k] = elems + (ops[k].addr - ops[i].addr) / 4;
        blk[(*nblk)++] = (struct ocd_block){ ops[i].addr, (last - ops[i].addr) / 4 + 1, elems,
                                             i, j };
        elems += (last - ops[i].addr) / 4 + 1;
        i = j;
    }
    pp_tcl_raw(b, "}");
    p->elems = elems;
}

static uint8_t status_of(const char *word, const struct pp_op *op, uint32_t *val)
{
    if (!op->write && pp_tcl_parse_u32(word, val))
        return PP_OP_OK;
    if (op->write && strcmp(word, "K") == 0)
        return PP_OP_OK;
    if (strcmp(word, "E") == 0)
        return PP_OP_SLVERR;
    if (strcmp(word, "W") == 0)
        return PP_OP_WAIT;
    if (strcmp(word, "L") == 0)
        return PP_OP_LINK;             /* the adapter behind OpenOCD is gone */
    return PP_OP_FAULT;
}

/* Fills ops[0..n) from the reply elements v (op i's at v[where[i]]);
 * returns the first failure's pp_err. */
static int decode_ops(struct pp_op *ops, size_t n, char **v, const size_t *where)
{
    int first = PP_OK;

    for (size_t i = 0; i < n; i++) {
        uint32_t val = 0;

        ops[i].st = status_of(v[where[i]], &ops[i], &val);
        if (!ops[i].write && ops[i].st == PP_OP_OK)
            ops[i].rdata = val;
        if (ops[i].st != PP_OP_OK && first == PP_OK)
            first = pp_op_status_err(ops[i].st);
    }
    return first;
}

static void mark_all(struct pp_op *ops, size_t n, uint8_t st)
{
    for (size_t i = 0; i < n; i++)
        ops[i].st = st;
}

/* Reconnects until it works or the time is up, then attaches again, as
 * OpenOCD may have been restarted and lost our procs and target.  On
 * failure err says why. */
static bool try_reconnect(struct ocd_bus *ob, char *err, size_t errlen)
{
    unsigned limit = ob->opts.reconnect_ms ? ob->opts.reconnect_ms : RECONNECT_MS;

    for (unsigned waited = 0; waited <= limit; waited += RECONNECT_STEP_MS) {
        struct timespec step = { 0, RECONNECT_STEP_MS * 1000000L };

        if (pp_ocd_reconnect(ob->rpc, err, errlen) == PP_OK && ocd_attach(ob, err, errlen) == PP_OK)
            return true;
        nanosleep(&step, NULL);
    }
    return false;
}

static bool lost(int rc)
{
    /* ocd_rpc drops the connection on all three. */
    return rc == PP_E_LINK || rc == PP_E_TIMEOUT || rc == PP_E_PROTO;
}

/* Sends script, retrying once after a reconnect.  On success *v/nv hold
 * the reply's list (free *v).  Returns PP_OK, PP_E_LINK (connection
 * gone), PP_E_FAULT (the script failed inside OpenOCD), PP_E_NOMEM. */
static int request(struct pp_bus *bus, const char *script, unsigned timeout_ms,
                   char ***v, size_t *nv)
{
    struct ocd_bus *ob = bus->priv;
    uint64_t before = pp_ocd_round_trips(ob->rpc);
    struct pp_ocd_reply rep;
    char err[256] = "";
    int rc = pp_ocd_eval(ob->rpc, script, timeout_ms, &rep, err, sizeof(err));

    if (lost(rc) && ob->opts.reconnect) {
        char why[256];

        if (try_reconnect(ob, why, sizeof(why)))
            rc = pp_ocd_eval(ob->rpc, script, timeout_ms, &rep, err, sizeof(err));
        else
            snprintf(err + strlen(err), sizeof(err) - strlen(err), "; reconnecting failed "
                     "for %u ms: %.120s", ob->opts.reconnect_ms ? ob->opts.reconnect_ms
                                                                : RECONNECT_MS, why);
    }
    bus->stats.round_trips += pp_ocd_round_trips(ob->rpc) - before;
    if (rc != PP_OK) {
        pp_bus_set_errmsg(bus, "%s", err);
        return lost(rc) ? PP_E_LINK : rc;
    }
    if (rep.code != 0) {
        ocd_flatten(rep.log);
        pp_bus_set_errmsg(bus, "OpenOCD: %s", *rep.log ? rep.log : rep.result);
        pp_ocd_reply_free(&rep);
        return PP_E_FAULT;
    }
    rc = pp_tcl_split(rep.result, v, nv) == 0 ? PP_OK : PP_E_FAULT;
    if (rc != PP_OK)
        pp_bus_set_errmsg(bus, "reply from OpenOCD does not parse");
    pp_ocd_reply_free(&rep);
    return rc;
}

static uint8_t op_status_for(int rc)
{
    return rc == PP_E_LINK ? PP_OP_LINK : PP_OP_FAULT;
}

/* The failing call's log (first reply element) as the error detail. */
static void note_log(struct pp_bus *bus, char *log)
{
    if (!*log)
        return;
    ocd_flatten(log);
    pp_bus_set_errmsg(bus, "OpenOCD: %s", log);
}

/* Sends the procs again (rpc_call says when) and gives the bus the
 * failure's message, what, followed by what was done about it. */
static void redefine_procs(struct pp_bus *bus, const char *what)
{
    char err[256];

    if (ocd_define_procs(bus->priv, err, sizeof(err)) == PP_OK)
        pp_bus_set_errmsg(bus, "%.100s%s", what, OTHER_PROCS);
    else
        pp_bus_set_errmsg(bus, "%.100s%s%.100s", what, PROCS_FAILED, err);
}

/* One pmuprobe_rpc_run (count 0) or pmuprobe_rpc_repeat call over ops:
 * the programs, where each op's value lands in a row, and the reply. */
struct rpc_call {
    struct pp_op *ops;
    size_t n;                /* ops per repetition */
    unsigned count;          /* repetitions; 0 for a single run */
    uint64_t interval_ns;
    struct ocd_prog all;     /* every op: a run, a set's first repetition */
    struct ocd_prog rest;    /* a set's later repetitions: the ops in kept */
    size_t *kept, nkept;     /* indexes of the ops those carry, ascending */
    struct pp_op *row_ops;   /* one later repetition's kept ops, gathered */
    char **v;                /* the reply's elements */
    size_t nv;
    uint64_t sent, got;      /* CLOCK_MONOTONIC around the request */
};

/* The reply's length: the log then a row for a run; START, per repetition
 * T0 T1 and a row, END and the log for a repeat. */
static size_t reply_len(const struct rpc_call *c)
{
    if (!c->count)
        return c->all.elems + 1;
    return 3 + (2 + c->all.elems) + (size_t)(c->count - 1) * (2 + c->rest.elems);
}

/*
 * The ops a set's later repetitions carry: those not marked once
 * (pp_op.once, bus.h), as the adi bus does (adi_bus.c skip_once).  When
 * none or all are marked, every repetition carries all of them: a
 * repetition keeps at least one op.
 */
static void keep_ops(struct rpc_call *c)
{
    c->nkept = 0;
    for (size_t i = 0; i < c->n; i++)
        if (!c->ops[i].once)
            c->kept[c->nkept++] = i;
    if (c->nkept == 0 || c->nkept == c->n)
        for (c->nkept = 0; c->nkept < c->n; c->nkept++)
            c->kept[c->nkept] = c->nkept;
    for (size_t i = 0; i < c->nkept; i++)
        c->row_ops[i] = c->ops[c->kept[i]];
}

/* A repeat call's second program, over the kept ops (row_ops). */
static int build_rest(const struct ocd_bus *ob, struct pp_tcl_buf *b, struct rpc_call *c)
{
    c->kept = malloc(c->n * sizeof(*c->kept));
    c->row_ops = malloc(c->n * sizeof(*c->row_ops));
    if (!c->kept || !c->row_ops || !prog_alloc(&c->rest, c->n))
        return PP_E_NOMEM;
    keep_ops(c);
    build_program(ob, b, c->row_ops, c->nkept, &c->rest);
    return PP_OK;
}

/* Builds the call, sends it and checks the reply's length.  On failure
 * every op is marked and the op status's error returned (PP_E_NOMEM
 * as itself); free with rpc_done either way. */
static int rpc_call(struct pp_bus *bus, struct rpc_call *c, unsigned timeout_ms)
{
    struct ocd_bus *ob = bus->priv;
    struct pp_tcl_buf b;
    char what[256];
    int rc = PP_OK;

    if (!prog_alloc(&c->all, c->n))
        return PP_E_NOMEM;
    pp_tcl_init(&b);
    pp_tcl_raw(&b, c->count ? "pmuprobe_rpc_repeat" : "pmuprobe_rpc_run");
    append_access(ob, &b);
    build_program(ob, &b, c->ops, c->n, &c->all);
    if (c->count) {
        pp_tcl_uint(&b, c->count);
        pp_tcl_uint(&b, c->interval_ns / NS_PER_US);
        rc = build_rest(ob, &b, c);
    }
    c->sent = pp_mono_ns();
    if (rc == PP_OK)
        rc = pp_tcl_str(&b) ? request(bus, pp_tcl_str(&b), timeout_ms, &c->v, &c->nv)
                            : PP_E_NOMEM;
    c->got = pp_mono_ns();
    pp_tcl_free(&b);
    /* The procs are global in OpenOCD and defined by whichever client
     * connected last: a reply of another shape, or a call that failed as a
     * whole (the procs catch every failure of their own), means another
     * client (an older or newer pmuprobe) redefined them.  They are sent
     * again for the next batch, but this one is not run again: it may
     * have read EDPRSR, whose read clears the sticky power-down bit
     * (spec/arm-pmu-coresight.md 3.1), so its words are a gap and the
     * cores a fresh baseline, never values a lost SPD could not vouch
     * for. */
    if (rc == PP_OK && c->nv != reply_len(c)) {
        if (c->count)
            snprintf(what, sizeof(what), "OpenOCD answered %zu values for %u repetitions of "
                     "%zu words (%zu after the first)", c->nv, c->count, c->all.elems,
                     c->rest.elems);
        else
            snprintf(what, sizeof(what), "OpenOCD answered %zu values for %zu words",
                     c->nv - 1, c->all.elems);
        rc = PP_E_FAULT;
    } else if (rc == PP_E_FAULT) {
        snprintf(what, sizeof(what), "%s", pp_bus_errmsg(bus));    /* request's */
    }
    if (rc == PP_E_FAULT)
        redefine_procs(bus, what);
    if (rc == PP_OK)
        return PP_OK;
    mark_all(c->ops, c->n * (c->count ? c->count : 1), op_status_for(rc));
    return rc == PP_E_NOMEM ? rc : pp_op_status_err(op_status_for(rc));
}

static void rpc_done(struct rpc_call *c)
{
    free(c->v);
    prog_free(&c->all);
    prog_free(&c->rest);
    free(c->kept);
    free(c->row_ops);
}

/* After a row is decoded (ops, the row's elements, its program p): in a
 * block whose every requested word read fine, a word that did not is a
 * covered word that fails.  It is never covered again, so the bisection
 * that found it is not paid each sample. */
static void learn_gaps(struct ocd_bus *ob, const struct ocd_prog *p, const struct pp_op *ops,
                       char **row)
{
    for (size_t i = 0; i < p->nblk; i++) {
        const struct ocd_block *k = &p->blk[i];
        bool req_ok = true, all_ok = true;
        uint32_t v;

        for (size_t j = k->op; j < k->op_end; j++)
            req_ok = req_ok && ops[j].st == PP_OP_OK;
        for (size_t w = 0; w < k->words; w++)
            all_ok = all_ok && pp_tcl_parse_u32(row[k->at + w], &v);
        if (!req_ok || all_ok)
            continue;
        for (size_t w = 0; w < k->words; w++) {
            uint32_t a = k->addr + 4u * (uint32_t)w;

            if (pp_tcl_parse_u32(row[k->at + w], &v) || nocover(ob, a, a)
                || ob->nnocover == sizeof(ob->nocover) / sizeof(ob->nocover[0]))
                continue;
            ob->nocover[ob->nnocover++] = a;
        }
    }
}

/*
 * What one batch (or repetition) may take OpenOCD in a WAIT storm, on top
 * of its ordinary time: OpenOCD 0.12 gives a stalled DAP run up after 1 s
 * of WAIT recovery ("Timeout during WAIT recovery"), and a failed
 * read_memory costs it a second run to locate the failure (2 s, docs/
 * reliability.md); a batch runs at most twice (a stall that recovered
 * ends the run at once, one given up ends the batch) with a CTRL/STAT
 * check after each, and a repeat set ends with one more check: 2 x (2 + 1)
 * + 1 runs of 1 s.  The procs stop a set at its first repetition OpenOCD
 * gave up on (pmuprobe_rpc_repeat), so one such allowance per request is
 * enough: a live OpenOCD working through a storm is not taken for a lost
 * one.
 */
#define WAIT_GIVEUP_MS  1000u
#define BATCH_WAIT_MS   (7u * WAIT_GIVEUP_MS)

static unsigned base_timeout_ms(const struct ocd_bus *ob)
{
    return ob->opts.timeout_ms ? ob->opts.timeout_ms : PP_OCD_TIMEOUT_MS;
}

static int ocd_run(struct pp_bus *bus, struct pp_op *ops, size_t n)
{
    struct rpc_call c = { .ops = ops, .n = n };
    int rc;

    if (!n)
        return PP_OK;
    rc = rpc_call(bus, &c, base_timeout_ms(bus->priv) + BATCH_WAIT_MS);
    if (rc == PP_OK) {
        note_log(bus, c.v[0]);
        rc = decode_ops(ops, n, c.v + 1, c.all.where);
        learn_gaps(bus->priv, &c.all, ops, c.v + 1);
    }
    rpc_done(&c);
    return rc;
}

/* Repetition k's window (bus.h) from OpenOCD's clock: START was read
 * between sent and got - (END - START), so OpenOCD's t maps into
 * [sent + (t - START), got - (END - t)], a microsecond wider each side
 * for the truncation of `clock microseconds`, and never outside
 * [sent, got], which bounds everything the request did whatever the two
 * clocks do. */
static struct pp_bus_window ocd_window(uint64_t sent, uint64_t got, uint64_t start,
                                       uint64_t end, uint64_t t0, uint64_t t1)
{
    struct pp_bus_window w = { sent, got };
    uint64_t after = (t0 - start) * NS_PER_US, before = end > t1 ? (end - t1) * NS_PER_US : 0;

    after = after > NS_PER_US ? after - NS_PER_US : 0;
    before = before > NS_PER_US ? before - NS_PER_US : 0;
    if (after + before <= got - sent) {
        w.lo = sent + after;
        w.hi = got - before;
    }
    return w;
}

/* A later repetition's row: its kept ops decoded where the rest program
 * put them, the others skipped (final, nothing read). */
static int decode_later(struct ocd_bus *ob, const struct rpc_call *c, struct pp_op *ops,
                        char **row)
{
    struct pp_op *kept = c->row_ops;
    int rc = decode_ops(kept, c->nkept, row, c->rest.where);

    learn_gaps(ob, &c->rest, kept, row);
    if (c->nkept < c->n)
        mark_all(ops, c->n, PP_OP_SKIPPED);
    for (size_t i = 0; i < c->nkept; i++) {
        ops[c->kept[i]].st = kept[i].st;
        if (kept[i].st == PP_OP_OK)
            ops[c->kept[i]].rdata = kept[i].rdata;
    }
    return rc;
}

/* Reply: START, then per repetition T0 T1 and its row (the first
 * repetition's all.elems values, the others' rest.elems), then END and
 * the last failure's log.  OpenOCD's clock (`clock microseconds`, wall
 * time on OpenOCD's host) is mapped onto ours: its START is taken to be
 * half the network time after we sent. */
static int decode_repeat(struct pp_bus *bus, const struct rpc_call *c, uint64_t *t_ns,
                         struct pp_bus_window *win)
{
    char **v = c->v, **row = v + 1, **tail = v + reply_len(c) - 2;
    uint64_t sent = c->sent, got = c->got;
    uint64_t start, end, t0, t1, oneway = 0;
    int first = PP_OK;

    if (!pp_tcl_parse_u64(v[0], &start) || !pp_tcl_parse_u64(tail[0], &end) || end < start) {
        pp_bus_set_errmsg(bus, "OpenOCD's sample times do not parse");
        return PP_E_FAULT;
    }
    if (got - sent > (end - start) * NS_PER_US)
        oneway = (got - sent - (end - start) * NS_PER_US) / 2;
    for (unsigned k = 0; k < c->count; k++) {
        struct pp_op *ops = c->ops + (size_t)k * c->n;
        int rc;

        if (!pp_tcl_parse_u64(row[0], &t0) || !pp_tcl_parse_u64(row[1], &t1) || t0 < start
            || t1 < t0) {
            pp_bus_set_errmsg(bus, "OpenOCD's sample times do not parse");
            return PP_E_FAULT;
        }
        t_ns[k] = sent + oneway + ((t0 + t1) / 2 - start) * NS_PER_US;
        if (win) {
            win[k] = ocd_window(sent, got, start, end, t0, t1);
            if (k && win[k].lo < win[k - 1].lo)
                win[k].lo = win[k - 1].lo;   /* OpenOCD's wall clock stepped back */
            if (k && win[k].hi < win[k - 1].hi)
                win[k].hi = win[k - 1].hi;
            t_ns[k] = t_ns[k] < win[k].lo ? win[k].lo : t_ns[k] > win[k].hi ? win[k].hi : t_ns[k];
        }
        if (k == 0) {
            rc = decode_ops(ops, c->n, row + 2, c->all.where);
            learn_gaps(bus->priv, &c->all, ops, row + 2);
            row += 2 + c->all.elems;
        } else {
            rc = decode_later(bus->priv, c, ops, row + 2);
            row += 2 + c->rest.elems;
        }
        first = first == PP_OK ? rc : first;
    }
    note_log(bus, tail[1]);
    return first;
}

static int ocd_run_repeat(struct pp_bus *bus, struct pp_op *ops, size_t n, unsigned count,
                          uint64_t interval_ns, uint64_t *t_ns, struct pp_bus_window *win)
{
    uint64_t timeout = base_timeout_ms(bus->priv) + BATCH_WAIT_MS
                       + count * (interval_ns / 1000000 + 100);
    struct rpc_call c = { .ops = ops, .n = n, .count = count, .interval_ns = interval_ns };
    int rc = rpc_call(bus, &c, timeout > 0x7fffffff ? 0x7fffffff : (unsigned)timeout);

    if (rc == PP_OK)
        rc = decode_repeat(bus, &c, t_ns, win);
    rpc_done(&c);
    return rc;
}

static void ocd_close(struct pp_bus *bus)
{
    struct ocd_bus *ob = bus->priv;

    pp_ocd_close(ob->rpc);
    free(ob->pmu_blocks);
    free(ob);
}

static void ocd_set_trace(struct pp_bus *bus, struct pp_trace *tr)
{
    pp_ocd_set_trace(((struct ocd_bus *)bus->priv)->rpc, tr);
}

static const struct pp_bus_ops ocd_bus_ops = {
    .name = "openocd",
    .run = ocd_run,
    .run_repeat = ocd_run_repeat,
    .close = ocd_close,
    .set_trace = ocd_set_trace,
};

struct pp_bus *pp_bus_ocd_new(const struct pp_ocd_opts *o, char *err, size_t errlen)
{
    struct ocd_bus *ob = calloc(1, sizeof(*ob));
    struct pp_bus *bus;
    int rc;

    if (!ob) {
        pp_errmsg(err, errlen, "out of memory");
        pp_trace_free(o->trace);
        return NULL;
    }
    ob->opts = *o;
    ob->opts.trace = NULL;
    snprintf(ob->host, sizeof(ob->host), "%s", o->host ? o->host : "localhost");
    ob->opts.host = ob->host;
    ob->opts.port = o->port ? o->port : PP_OCD_DEFAULT_PORT;
    if (o->mem_ap) {
        if (!pp_tcl_name_ok(o->mem_ap)) {
            pp_errmsg(err, errlen, "'%s' is not a plain OpenOCD target name", o->mem_ap);
            pp_trace_free(o->trace);
            free(ob);
            return NULL;
        }
        snprintf(ob->mem_ap, sizeof(ob->mem_ap), "%s", o->mem_ap);
    }
    ob->opts.mem_ap = NULL;
    ob->opts.pmu_blocks = NULL;
    if (o->npmu_blocks) {
        ob->pmu_blocks = malloc(o->npmu_blocks * sizeof(*ob->pmu_blocks));
        if (!ob->pmu_blocks) {
            pp_errmsg(err, errlen, "out of memory");
            pp_trace_free(o->trace);
            free(ob);
            return NULL;
        }
        memcpy(ob->pmu_blocks, o->pmu_blocks, o->npmu_blocks * sizeof(*ob->pmu_blocks));
        ob->npmu = o->npmu_blocks;
    }
    rc = pp_ocd_connect(ob->opts.host, ob->opts.port, o->timeout_ms, &ob->rpc, err, errlen);
    if (rc == PP_OK) {
        /* Traced from the attach on: a session that fails there is the one
         * to look at. */
        pp_ocd_set_trace(ob->rpc, o->trace);
        rc = ocd_attach(ob, err, errlen);
    }
    bus = rc == PP_OK ? pp_bus_new(&ocd_bus_ops, ob) : NULL;
    if (bus)
        bus->ap = (struct pp_bus_ap){ .known = ob->at.base_known, .apsel = ob->at.ap,
                                      .idr = ob->at.idr, .base = ob->at.base };
    if (!bus) {
        if (rc == PP_OK)
            pp_errmsg(err, errlen, "out of memory");
        pp_ocd_close(ob->rpc);
        pp_trace_free(o->trace);
        free(ob->pmu_blocks);
        free(ob);
        return NULL;
    }
    pp_bus_set_trace(bus, o->trace);
    return bus;
}

int pp_bus_ocd_set_pmu_blocks(struct pp_bus *bus, const uint32_t *blocks, size_t n)
{
    struct ocd_bus *ob;
    uint32_t *copy = NULL;

    if (!bus || bus->ops != &ocd_bus_ops)
        return PP_OK;
    ob = bus->priv;
    if (n) {
        copy = malloc(n * sizeof(*copy));
        if (!copy)
            return PP_E_NOMEM;
        memcpy(copy, blocks, n * sizeof(*copy));
    }
    free(ob->pmu_blocks);
    ob->pmu_blocks = copy;
    ob->npmu = n;
    return PP_OK;
}

const struct pp_ocd_attach *pp_bus_ocd_attach_info(const struct pp_bus *bus)
{
    if (!bus || bus->ops != &ocd_bus_ops)
        return NULL;
    return &((const struct ocd_bus *)bus->priv)->at;
}

# pmu.tcl - Arm PMU commands inside OpenOCD (0.12.0), from pmuprobe.
#
#   source [find pmuprobe/pmu.tcl]        ;# or the installed path
#   pmu cpus                              ;# cores found behind the APB-AP
#   pmu status                            ;# per core: power, locks, PMU access
#   pmu read cpu1 PMCR                    ;# decoded; errors explained
#   pmu get cpu1 PMCCNTR                  ;# just the value, for scripts
#   pmu write cpu1 PMCNTENSET 0x80000001
#   pmu events cpu0                       ;# the core's events, checked against PMCEID
#   pmu start cpu0 cycles,instructions,L1D_CACHE_REFILL
#   pmu sample cpu0 10 100                ;# 10 samples, 100 ms apart: deltas
#   pmu stop cpu0                         ;# counts, then counters off
#   pmu setup ?TARGET? ?ROMBASE?          ;# pick the mem_ap target and ROM table
#
# Registers, fields, events, perf-style names and the causes with their
# remedies come from pmu-tables.tcl, generated from libpmuprobe's own tables
# at build time (src/pmutcl/gen-pmutcl.c), so this file holds only logic.
#
# Facts: ../shared/spec/arm-pmu-coresight.md (register maps 1 and 4, why an
# access errors 2.1, EDPRSR 3.1, ROM tables 6) and spec/openocd.md (mem_ap,
# read_memory, catch/capture: 2-4).  Everything goes through a mem_ap
# target's read_memory/write_memory, 32-bit only (APB, spec/openocd.md 2.4),
# never through the top-level `dap info` (it crashes 0.12.0 on a mem_ap).

if {![info exists ::pmu_tables_version]} {
    source [file join [file dirname [info script]] pmu-tables.tcl]
}

set ::pmu_target {}
set ::pmu_cpus {}
set ::pmu_rom {}
set ::pmu_lasterr {}
set ::pmu_edprsr_bits {PU SPD R SR HALTED OSLK DLK EDAD SDAD EPMAD SPMAD SDR}

# --- access ------------------------------------------------------------------

# 1 when the access just made on target t cannot be trusted: the DP's
# CTRL/STAT shows a sticky overrun (pmuprobe_rpc_orun, from pmu-tables.tcl:
# the same check as pmuprobe's openocd path, lib/bus/ocd_overrun.h, which
# says why) or OpenOCD logged a WAIT stall.
proc pmu_overrun {t log} {
    set d {}
    catch {set d [$t cget -dap]}
    expr {![pmuprobe_rpc_orun $d] || [pmuprobe_rpc_stall_logged $log]}
}

# script is "TARGET command ...".  A failed access leaves its log text in
# ::pmu_lasterr; an untrusted one is made again, three tries in all.
proc pmu_access {script} {
    for {set try 0} {$try < 3} {incr try} {
        set ::pmu_v {}
        if {[catch {capture "set ::pmu_v \[$script\]; list"} log]} {
            set ::pmu_lasterr [string trim [string map {"\n" "; "} $log] "; "]
            return 0
        }
        if {![pmu_overrun [lindex $script 0] $log]} {return 1}
    }
    set ::pmu_lasterr "the DP kept reporting a sticky overrun or a WAIT stall (3 tries), so the value would be stale; if this persists, lower the adapter speed"
    return 0
}

# Reads n words at addr: the list, or {} after an error.
proc pmu_rd {addr {n 1}} {
    set t [pmu_target]
    if {![pmu_access [list $t read_memory $addr 32 $n]]} {return {}}
    return $::pmu_v
}

proc pmu_wr {addr value} {
    set t [pmu_target]
    pmu_access [list $t write_memory $addr 32 [list $value]]
}

proc pmu_hex {v} {format 0x%08X $v}

# --- finding the mem_ap target and the cores ------------------------------------

proc pmu_is_apb {idr} {
    set type [expr {$idr & 0xF}]
    expr {(($idr >> 13) & 0xF) == 8 && ($type == 2 || $type == 6)}
}

proc pmu_apid {dap ap} {
    if {[catch {$dap apid $ap} id]} {return 0}
    return [string trim $id]
}

# The first mem_ap target on an APB-AP.  None can be created here: OpenOCD
# 0.12 refuses 'target create' after init, so the error names the config
# line for the first APB-AP found.
proc pmu_find_target {} {
    foreach t [target names] {
        if {[$t cget -type] ne "mem_ap"} continue
        if {[catch {list [$t cget -dap] [$t cget -ap-num]} da]} continue
        if {[pmu_is_apb [pmu_apid [lindex $da 0] [lindex $da 1]]]} {return $t}
    }
    foreach dap [dap names] {
        for {set ap 0} {$ap < 16} {incr ap} {
            if {![pmu_is_apb [pmu_apid $dap $ap]]} continue
            error "pmu: no mem_ap target on the APB-AP ($dap, AP $ap), and OpenOCD 0.12 refuses 'target create' after init: add this line to the config, before init: target create pmuprobe.apb mem_ap -dap $dap -ap-num $ap"
        }
    }
    error "pmu: no mem_ap target on an APB-AP and no APB-AP on any DAP (is 'dap create' in the config?)"
}

# Examined, with an APB CSW: DbgSwEnable set, the AHB-only Prot bits clear,
# the rest as others left it (spec/openocd.md 2.4).
proc pmu_prepare_target {t} {
    if {![$t was_examined]} {$t arp_examine}
    set dap [$t cget -dap]
    set ap [$t cget -ap-num]
    set mask [expr {([pmu_apid $dap $ap] & 0xF) == 6 ? 0xCF000000 : 0xFF000000}]
    set sel [string trim [$dap apsel]]
    $dap apsel $ap
    set r [catch {$dap apcsw 0x80000000 $mask} msg]
    $dap apsel $sel
    if {$r} {error $msg}
}

proc pmu_target {} {
    if {$::pmu_target eq {}} {
        set t [pmu_find_target]
        pmu_prepare_target $t
        set ::pmu_target $t
    }
    return $::pmu_target
}

proc pmu_coretype_by {field value} {
    set i [dict get {midr 2 debug 7} $field]
    foreach ct $::pmu_coretypes {
        if {[lindex $ct $i] == $value} {return $ct}
    }
    return {}
}

# The ID block 0xFA8-0xFFC of a component as a dict, {} when unreadable.
# 0xF00-0xFFC reads RES0 where nothing is defined (spec 2.3), so one block.
proc pmu_component {base} {
    set w [pmu_rd [expr {$base + 0xFA8}] 22]
    if {[llength $w] != 22} {return {}}
    set cidr1 [lindex $w 19]
    set pidr [expr {[lindex $w 14] | ([lindex $w 15] << 8) | ([lindex $w 16] << 16)}]
    dict create base $base class [expr {($cidr1 >> 4) & 0xF}] \
        devaff [lindex $w 0] devarch [lindex $w 5] devtype [expr {[lindex $w 9] & 0xFF}] \
        part [expr {$pidr & 0xFFF}]
}

# Walks a ROM table (class 0x1, or class 0x9 with DEVARCH 0x47700AF7) and
# appends {kind base devaff part} for debug (DEVTYPE 0x15) and PMU (0x16)
# blocks to the list named by found (spec 6.2, 6.3).
proc pmu_walk {rom depth found} {
    upvar $found comps
    if {$depth > 8} return
    set c [pmu_component $rom]
    if {$c eq {}} return
    set cls [dict get $c class]
    if {$cls != 1 && !($cls == 9 && [dict get $c devarch] == 0x47700AF7)} return
    set entries {}
    for {set off 0} {$off < 0x800} {incr off 64} {
        set chunk [pmu_rd [expr {$rom + $off}] 16]
        lappend entries {*}$chunk
        if {[llength $chunk] != 16 || [lsearch -exact $chunk 0x0] >= 0} break
    }
    foreach e $entries {
        if {$e == 0} break
        set present [expr {$cls == 1 ? ($e & 1) : (($e & 3) == 3)}]
        if {!$present} continue
        set base [expr {($rom + ($e & 0xFFFFF000)) & 0xFFFFFFFF}]
        set sub [pmu_component $base]
        if {$sub eq {}} continue
        set scls [dict get $sub class]
        if {$scls == 1 || ($scls == 9 && [dict get $sub devarch] == 0x47700AF7)} {
            pmu_walk $base [expr {$depth + 1}] comps
        } elseif {$scls == 9 && [dict get $sub devtype] == 0x15} {
            lappend comps [list debug $base [dict get $sub devaff] [dict get $sub part]]
        } elseif {$scls == 9 && [dict get $sub devtype] == 0x16} {
            lappend comps [list pmu $base [dict get $sub devaff] [dict get $sub part]]
        }
    }
}

# Pairs each debug block with its PMU: same non-zero affinity (DEVAFF,
# spec 3.5), else the Armv7 convention debug + 0x1000, else walk order.
proc pmu_pair {comps} {
    set debugs {}
    set pmus {}
    foreach c $comps {
        if {[lindex $c 0] eq "debug"} {lappend debugs $c} else {lappend pmus $c}
    }
    set cpus {}
    set n 0
    foreach d $debugs {
        set pick -1
        for {set i 0} {$i < [llength $pmus]} {incr i} {
            set p [lindex $pmus $i]
            if {[lindex $d 2] != 0 && [lindex $p 2] == [lindex $d 2]} {set pick $i; break}
        }
        if {$pick < 0} {
            for {set i 0} {$i < [llength $pmus]} {incr i} {
                if {[lindex $pmus $i 1] == [lindex $d 1] + 0x1000} {set pick $i; break}
            }
        }
        if {$pick < 0 && [llength $pmus]} {set pick 0}
        if {$pick < 0} continue
        set p [lindex $pmus $pick]
        set pmus [lreplace $pmus $pick $pick]
        lappend cpus [pmu_identify $n [lindex $d 1] [lindex $p 1] [lindex $d 3]]
        incr n
    }
    return $cpus
}

# A core's type from MIDR (debug+0xD00), else from its debug block's part.
proc pmu_identify {n debug pmu debugpart} {
    set ct {}
    set midr [pmu_rd [expr {$debug + 0xD00}]]
    if {$midr ne {} && (($midr >> 24) & 0xFF) == 0x41} {
        set ct [pmu_coretype_by midr [expr {($midr >> 4) & 0xFFF}]]
    }
    if {$ct eq {}} {set ct [pmu_coretype_by debug $debugpart]}
    if {$ct eq {}} {
        error "pmu: cpu$n at [pmu_hex $debug]: unknown core (debug part [format 0x%03X $debugpart])"
    }
    dict create cpu $n debug $debug pmu $pmu type $ct
}

proc pmu_discover {} {
    set t [pmu_target]
    if {$::pmu_rom eq {}} {
        set base [string trim [[$t cget -dap] baseaddr [$t cget -ap-num]]]
        set ::pmu_rom [expr {$base & 0xFFFFF000}]
    }
    set comps {}
    pmu_walk $::pmu_rom 0 comps
    set ::pmu_cpus [pmu_pair $comps]
    if {![llength $::pmu_cpus]} {
        error "pmu: no core debug block with a PMU in the ROM table at [pmu_hex $::pmu_rom]"
    }
}

proc pmu_all_cpus {} {
    if {![llength $::pmu_cpus]} pmu_discover
    return $::pmu_cpus
}

# "cpu2" or "2" -> that core's dict.
proc pmu_cpu {arg} {
    set cpus [pmu_all_cpus]
    if {![regexp {^(?:cpu)?([0-9]+)$} $arg -> n] || $n >= [llength $cpus]} {
        error "pmu: '$arg' is not a core: expected cpu0..cpu[expr {[llength $cpus] - 1}]"
    }
    lindex $cpus $n
}

proc pmu_ct {c field} {
    set i [dict get {key 0 pretty 1 midr 2 arch 3 pmuver 4 v3p1 5 counters 6 debugpart 7
                     pmupart 8 catalog 9 dlock 10} $field]
    lindex [dict get $c type] $i
}

# --- registers ------------------------------------------------------------------

proc pmu_maps {c} {
    list pmu [set ::pmu_regs(pmu[pmu_ct $c pmuver])] debug [set ::pmu_regs(debug-[pmu_ct $c arch])]
}

# Resolves NAME, NAMEn for indexed registers, pmu.NAME / debug.NAME, or
# pmu+0xOFF / debug+0xOFF, to {name address entry}.  entry is {} for a raw
# offset no map names.
proc pmu_resolve {c name} {
    set up [string toupper $name]
    if {[regexp {^(PMU|DEBUG)\+(0X[0-9A-F]+|[0-9]+)$} $up -> blk off]} {
        set blk [string tolower $blk]
        set off [expr {[string tolower $off]}]
        if {$off >= 0x1000 || $off % 4} {error "pmu: $name: offset must be word aligned, below 0x1000"}
        set base [dict get $c $blk]
        foreach r [dict get [pmu_maps $c] $blk] {
            lassign $r rn roff stride count
            for {set i 0} {$i < $count} {incr i} {
                if {$roff + $i * $stride == $off} {
                    set n [expr {$count > 1 ? "$rn$i" : $rn}]
                    return [list $n [expr {$base + $off}] $r]
                }
            }
        }
        return [list $name [expr {$base + $off}] {}]
    }
    set blocks {pmu debug}
    if {[regexp {^(PMU|DEBUG)\.(.*)$} $up -> blk up]} {set blocks [string tolower $blk]}
    regsub {_EL[0-3]$} $up {} up
    foreach blk $blocks {
        foreach r [dict get [pmu_maps $c] $blk] {
            lassign $r rn roff stride count
            if {$count == 1 && $rn eq $up} {
                return [list $rn [expr {[dict get $c $blk] + $roff}] $r]
            }
            if {$count > 1 && [regexp "^${rn}(\[0-9\]+)\$" $up -> i] && $i < $count} {
                if {[string match PMEV* $rn] && $i >= [pmu_ct $c counters]} {
                    error "pmu: $name: cpu[dict get $c cpu] has [pmu_ct $c counters] event counters"
                }
                return [list $rn$i [expr {[dict get $c $blk] + $roff + $i * $stride}] $r]
            }
        }
    }
    error "pmu: no register '$name' on [pmu_ct $c pretty] (try PMCR, PMCCNTR, PMEVCNTR0, EDPRSR, pmu+0xE04)"
}

# Value meanings the spec enumerates, for the simple cases (pmuprobe's
# decoder knows more: MIDR, DEVARCH, EDSCR.STATUS).
proc pmu_meaning {reg field width v} {
    if {[string match *AUTHSTATUS $reg] && $width == 2} {
        return [lindex {{not implemented} reserved disabled enabled} $v]
    }
    if {$reg eq "PMCFGR" && $field eq "SIZE"} {
        return [dict get {63 {64-bit counters} 31 {32-bit counters}} $v]
    }
    return {}
}

# The field lines of pmuprobe's decoder (lib/pmu/regs.c), same layout:
# "  E        [0]     = 1        enable all counters".
proc pmu_decode {entry value} {
    lassign $entry rname off stride count access flags desc fields
    set w 8
    foreach f $fields {
        if {[string length [lindex $f 0]] > $w} {set w [string length [lindex $f 0]]}
    }
    set out {}
    if {![llength $fields]} {
        lappend out [format "  %-${w}s %-7s = 0x%08X %s" value {[31:0]} $value $desc]
    }
    set mask 0
    foreach f $fields {
        lassign $f fname lsb width fdesc
        set v [expr {($value >> $lsb) & ((1 << $width) - 1)}]
        set bits [expr {$width == 1 ? "\[$lsb\]" : "\[[expr {$lsb + $width - 1}]:$lsb\]"}]
        set num [expr {$width > 4 ? [format 0x%X $v] : $v}]
        set m {}
        catch {set m [pmu_meaning $rname $fname $width $v]}
        set line [format "  %-${w}s %-7s = %-8s %s" $fname $bits $num $fdesc]
        if {$m ne {}} {
            append line ": $m"
        } elseif {$width == 1 && $v == 0 && ![string match "write 1*" $fdesc]} {
            # A set flag's meaning, shown as what 1 would mean (regs.c).
            set line [format "  %-${w}s %-7s = %-8s (1: %s)" $fname $bits $num $fdesc]
        }
        lappend out $line
        if {$fname eq "P" && $lsb == 0 && $width == 31} {set mask 1}
    }
    if {$mask} {
        set line [format "  %-${w}s %-7s =" counters {}]
        set any 0
        if {$value & 0x80000000} {append line " C"; set any 1}
        for {set n 0} {$n < 31} {incr n} {
            if {$value & (1 << $n)} {append line " P$n"; set any 1}
        }
        lappend out [expr {$any ? $line : "$line none"}]
    }
    join $out "\n"
}

# --- why an access failed (spec/arm-pmu-coresight.md 2.1, 3.1) -----------------

proc pmu_cause {name} {
    foreach c $::pmu_causes {
        if {[lindex $c 0] eq $name} {return $c}
    }
}

proc pmu_edprsr_text {v} {
    set s [format "EDPRSR=0x%08X:" $v]
    for {set b 0} {$b < [llength $::pmu_edprsr_bits]} {incr b} {
        if {$v & (1 << $b)} {append s " [lindex $::pmu_edprsr_bits $b]"}
    }
    if {!($v & 1)} {append s " (PU=0)"}
    return $s
}

# Reads the PMU probe (PMCFGR) first, then EDPRSR once (a read clears its
# sticky bits), DBGAUTHSTATUS and, on Armv7, DBGOSLSR; names the first
# blocking condition in the architecture's order.  -> {cause evidence remedy}
proc pmu_diagnose {c} {
    set pmcfgr [pmu_rd [expr {[dict get $c pmu] + 0xE00}]]
    set edprsr [pmu_rd [expr {[dict get $c debug] + 0x314}]]
    set auth [pmu_rd [expr {[dict get $c debug] + 0xFB8}]]
    set v2 [expr {[pmu_ct $c pmuver] == 2}]
    set oslsr [expr {$v2 ? [pmu_rd [expr {[dict get $c debug] + 0x304}]] : {}}]
    if {$edprsr eq {}} {
        set ev "EDPRSR read at [pmu_hex [expr {[dict get $c debug] + 0x314}]] failed"
        if {$pmcfgr ne {}} {return [list none $ev {}]}
        set k debug-off
    } else {
        set ev [pmu_edprsr_text $edprsr]
        if {$oslsr ne {}} {append ev [format "; DBGOSLSR=0x%08X" $oslsr]}
        set v71 [expr {!$v2 || [pmu_ct $c dlock]}]
        set oslock [expr {$v71 ? ($edprsr >> 5) & 1 : ($oslsr ne {} && ($oslsr & 2))}]
        if {$pmcfgr ne {}} {
            return [list none $ev {}]
        } elseif {!($edprsr & 1)} {
            set k core-off
        } elseif {$v71 && ($edprsr & 0x40)} {
            set k double-lock
        } elseif {$oslock} {
            set k os-lock
        } elseif {($edprsr & 0x600) || ($auth ne {} && (($auth >> 2) & 3) == 2)} {
            set k pmu-disabled
            if {$auth ne {}} {append ev [format "; DBGAUTHSTATUS=0x%08X" $auth]}
        } else {
            set k unknown
        }
    }
    set cause [pmu_cause $k]
    list [lindex $cause 1] $ev [lindex $cause 2]
}

proc pmu_explain {c what} {
    lassign [pmu_diagnose $c] cause ev remedy
    if {$remedy eq {}} {
        set why [format $::pmu_refused [pmu_ct $c pretty]]
        return "$what: $::pmu_lasterr: $why\n  evidence: $ev\n  remedy:   $::pmu_refused_remedy"
    }
    return "$what: error response: $cause\n  evidence: $ev\n  remedy:   $remedy"
}

# --- events -----------------------------------------------------------------------

proc pmu_catalog_events {c} {
    set key [pmu_ct $c catalog]
    set evs {}
    if {[info exists ::pmu_events($key)]} {set evs $::pmu_events($key)}
    set have {}
    foreach e $evs {dict set have [expr {[lindex $e 0] + 0}] 1}
    set common $::pmu_common($key)
    if {$common ne {}} {
        foreach e $::pmu_events($common) {
            if {![dict exists $have [expr {[lindex $e 0] + 0}]]} {lappend evs $e}
        }
    }
    lsort -command pmu_by_code $evs
}

proc pmu_by_code {a b} {expr {[lindex $a 0] - [lindex $b 0]}}

# An event as typed -> {name code} with code "cycle" for the cycle counter:
# perf names (per core type), Arm mnemonics, r0x42 / 0x42.
proc pmu_event {c spec} {
    set aliases $::pmu_aliases([pmu_ct $c key])
    foreach {a code} $aliases {
        if {[string equal -nocase $a $spec]} {return [list $spec $code]}
    }
    if {[regexp -nocase {^r?(0x)?([0-9a-f]+)$} $spec -> x hex] && ($x ne {} || [string index $spec 0] eq "r")} {
        return [list $spec [expr {"0x$hex" & 0xFFFF}]]
    }
    foreach e [pmu_catalog_events $c] {
        if {[string equal -nocase [lindex $e 1] $spec]} {return [list [lindex $e 1] [lindex $e 0]]}
    }
    error "pmu: no event '$spec' on [pmu_ct $c pretty] (see 'pmu events cpu[dict get $c cpu]')"
}

# --- commands -------------------------------------------------------------------

proc pmu_cmd_cpus {} {
    set out [list [format "%-5s %-12s %-10s %-10s" cpu type debug pmu]]
    foreach c [pmu_all_cpus] {
        lappend out [format "cpu%-2d %-12s %-10s %-10s" [dict get $c cpu] [pmu_ct $c pretty] \
                         [pmu_hex [dict get $c debug]] [pmu_hex [dict get $c pmu]]]
    }
    join $out "\n"
}

proc pmu_cmd_status {} {
    set out {}
    foreach c [pmu_all_cpus] {
        lassign [pmu_diagnose $c] cause ev remedy
        if {$remedy eq {}} {
            lappend out [format "cpu%-2d %-12s ok        %s" [dict get $c cpu] [pmu_ct $c pretty] $ev]
        } else {
            lappend out [format "cpu%-2d %-12s %s" [dict get $c cpu] [pmu_ct $c pretty] $cause]
            lappend out "  evidence: $ev" "  remedy:   $remedy"
        }
    }
    join $out "\n"
}

proc pmu_cmd_get {cpu reg} {
    set c [pmu_cpu $cpu]
    lassign [pmu_resolve $c $reg] name addr entry
    set v [pmu_rd $addr]
    if {$v eq {}} {error [pmu_explain $c "cpu[dict get $c cpu] $name [pmu_hex $addr]"]}
    pmu_hex $v
}

# The high word of a 64-bit counter whose low word is at addr: {name
# address}, or {} when the next word is not one (a map entry flagged
# PP_REGF_HI64, 0x80, as pmuprobe read decides).
proc pmu_high_word {c addr entry} {
    if {$entry eq {} || [lindex $entry 5] & 0x80} {return {}}
    foreach {blk regs} [pmu_maps $c] {
        set off [expr {$addr + 4 - [dict get $c $blk]}]
        if {$off < 4 || $off >= 0x1000} {continue}
        foreach r $regs {
            lassign $r rn roff stride count access flags
            if {!($flags & 0x80)} {continue}
            for {set i 0} {$i < $count} {incr i} {
                if {$roff + $i * $stride != $off} {continue}
                # "PMEVCNTR_HI" instance 3 is "PMEVCNTR3_HI" (regs.c).
                set n $rn
                if {$count > 1} {set n "[regsub {_HI$} $rn {}]${i}_HI"}
                return [list $n [expr {$addr + 4}]]
            }
        }
    }
    return {}
}

# A live 64-bit counter: high, low, high (spec 2.8), the low word taken
# with the high word it was read under (pp_ext_join64).
proc pmu_read64 {c name addr hi} {
    lassign $hi hname haddr
    set head [format "cpu%d %-12s %s" [dict get $c cpu] $name [pmu_hex $addr]]
    set h1 [pmu_rd $haddr]
    set lo [expr {$h1 eq {} ? {} : [pmu_rd $addr]}]
    set h2 [expr {$lo eq {} ? {} : [pmu_rd $haddr]}]
    if {$h2 eq {}} {error [pmu_explain $c $head]}
    set h [expr {$h1 != $h2 && $lo < 0x80000000 ? $h2 : $h1}]
    set v [format 0x%016lX [expr {($h << 32) | $lo}]]
    return "$head = $v\n[format "  %-8s %-7s = %s 64 bits: %s (high word, %s) and %s" \
        value {[63:0]} $v $hname [pmu_hex $haddr] $name]"
}

proc pmu_cmd_read {cpu args} {
    set c [pmu_cpu $cpu]
    set out {}
    foreach reg $args {
        lassign [pmu_resolve $c $reg] name addr entry
        set hi [pmu_high_word $c $addr $entry]
        if {$hi ne {}} {
            lappend out [pmu_read64 $c $name $addr $hi]
            continue
        }
        set v [pmu_rd $addr]
        set head [format "cpu%d %-12s %s" [dict get $c cpu] $name [pmu_hex $addr]]
        if {$v eq {}} {error [pmu_explain $c $head]}
        lappend out "$head = [pmu_hex $v]"
        if {$entry ne {}} {lappend out [pmu_decode $entry $v]}
    }
    join $out "\n"
}

proc pmu_cmd_write {cpu reg value} {
    set c [pmu_cpu $cpu]
    lassign [pmu_resolve $c $reg] name addr entry
    if {![string is integer -strict $value] || $value < 0 || $value > 0xFFFFFFFF} {
        error "pmu: '$value' is not a 32-bit value"
    }
    if {$entry ne {} && [lindex $entry 4] eq "RO"} {error "pmu: $name is read-only"}
    if {![pmu_wr $addr $value]} {
        error [pmu_explain $c [format "cpu%d %s %s" [dict get $c cpu] $name [pmu_hex $addr]]]
    }
    format "cpu%d %-12s %s <- %s" [dict get $c cpu] $name [pmu_hex $addr] [pmu_hex $value]
}

# The core's PMCEID bits: a dict code -> 1 for advertised common events.
proc pmu_advertised {c} {
    set base [expr {[dict get $c pmu] + 0xE20}]
    set ids [pmu_rd $base [expr {[pmu_ct $c v3p1] ? 4 : 2}]]
    if {$ids eq {}} {error [pmu_explain $c "cpu[dict get $c cpu] PMCEID [pmu_hex $base]"]}
    set adv {}
    set starts {0x0000 0x0020 0x4000 0x4020}
    for {set r 0} {$r < [llength $ids]} {incr r} {
        for {set b 0} {$b < 32} {incr b} {
            if {[lindex $ids $r] & (1 << $b)} {dict set adv [expr {[lindex $starts $r] + $b}] 1}
        }
    }
    return $adv
}

# The core's own catalog, plus common events it advertises that only the
# architecture's catalog names.  here: yes/no from PMCEID, imp for
# IMPLEMENTATION DEFINED numbers (PMCEID cannot tell).
proc pmu_cmd_events {{cpu cpu0}} {
    set c [pmu_cpu $cpu]
    set adv [pmu_advertised $c]
    set key [pmu_ct $c catalog]
    set own {}
    if {[info exists ::pmu_events($key)]} {set own $::pmu_events($key)}
    set out [list [format "%-6s %-4s %-28s %s" code here name description]]
    foreach e [pmu_catalog_events $c] {
        lassign $e code name desc
        set common [expr {$code < 0x40 || ($code >= 0x4000 && $code < 0x4040)}]
        set is_own [expr {[lsearch -exact $own $e] >= 0}]
        set here [expr {!$common ? "imp" : [dict exists $adv [expr {$code + 0}]] ? "yes" : "no"}]
        if {!$is_own && $here ne "yes"} continue
        lappend out [format "0x%04X %-4s %-28s %s" $code $here $name $desc]
    }
    join $out "\n"
}

# Programs the events (cycles to PMCCNTR, the rest to PMEVCNTR0, 1, ...),
# zeroes and starts them: PMCNTENCLR all, PMEVTYPERn, PMCCFILTR, PMCR with
# E|P|C (and LC on PMUv3), PMCNTENSET (spec 1.3).
proc pmu_cmd_start {cpu events} {
    set c [pmu_cpu $cpu]
    set pmu [dict get $c pmu]
    set evs {}
    set n 0
    set mask 0
    foreach spec [split [join $events ,] ,] {
        if {$spec eq {}} continue
        lassign [pmu_event $c $spec] name code
        if {$code eq "cycle"} {
            if {$mask & 0x80000000} {error "pmu: the cycle counter is asked for twice"}
            lappend evs [list $name cycle PMCCNTR]
            set mask [expr {$mask | 0x80000000}]
        } else {
            if {$n >= [pmu_ct $c counters]} {
                error "pmu: cpu[dict get $c cpu] has [pmu_ct $c counters] event counters"
            }
            lappend evs [list $name $code PMEVCNTR$n]
            set mask [expr {$mask | (1 << $n)}]
            incr n
        }
    }
    set v3 [expr {[pmu_ct $c pmuver] >= 3}]
    set ok [pmu_wr [expr {$pmu + 0xC20}] 0xFFFFFFFF]
    foreach e $evs {
        lassign $e name code slot
        if {$code eq "cycle"} {
            set ok [expr {$ok && [pmu_wr [expr {$pmu + 0x47C}] 0]}]
        } else {
            set i [string range $slot 8 end]
            set ok [expr {$ok && [pmu_wr [expr {$pmu + 0x400 + 4 * $i}] $code]}]
        }
    }
    set pmcr [expr {$v3 ? 0x47 : 0x7}]
    set ok [expr {$ok && [pmu_wr [expr {$pmu + 0xE04}] $pmcr]}]
    set ok [expr {$ok && [pmu_wr [expr {$pmu + 0xC00}] $mask]}]
    if {!$ok} {error [pmu_explain $c "cpu[dict get $c cpu]: programming the PMU"]}
    set ::pmu_prog([dict get $c cpu]) $evs
    set out {}
    foreach e $evs {
        lassign $e name code slot
        lappend out [format "cpu%d %-10s %s" [dict get $c cpu] $slot \
                         [expr {$code eq "cycle" ? $name : [format "%s (0x%04X)" $name $code]}]]
    }
    join $out "\n"
}

# Current counts of the programmed counters, in programming order.
proc pmu_counts {c} {
    set cpu [dict get $c cpu]
    if {![info exists ::pmu_prog($cpu)]} {error "pmu: nothing started on cpu$cpu (pmu start cpu$cpu EVENTS)"}
    set v3 [expr {[pmu_ct $c pmuver] >= 3}]
    set counts {}
    foreach e $::pmu_prog($cpu) {
        set slot [lindex $e 2]
        if {$slot eq "PMCCNTR"} {
            set off [expr {$v3 ? 0xF8 : 0x7C}]
        } else {
            set off [expr {([string range $slot 8 end]) * ($v3 ? 8 : 4)}]
        }
        set v [pmu_rd [expr {[dict get $c pmu] + $off}]]
        if {$v eq {}} {error [pmu_explain $c "cpu$cpu $slot"]}
        lappend counts $v
    }
    return $counts
}

proc pmu_cmd_stop {cpu {events {}}} {
    set c [pmu_cpu $cpu]
    set counts [pmu_counts $c]
    set out {}
    set mask 0
    foreach e $::pmu_prog([dict get $c cpu]) v $counts {
        lassign $e name code slot
        if {[llength $events] && [lsearch -nocase [split [join $events ,] ,] $name] < 0} continue
        set mask [expr {$mask | ($slot eq "PMCCNTR" ? 0x80000000 : 1 << [string range $slot 8 end])}]
        lappend out [format "cpu%d %-24s %12u" [dict get $c cpu] $name $v]
    }
    if {![pmu_wr [expr {[dict get $c pmu] + 0xC20}] $mask]} {
        error [pmu_explain $c "cpu[dict get $c cpu] PMCNTENCLR"]
    }
    join $out "\n"
}

# count samples, interval ms apart (OpenOCD's sleep): the deltas of each
# interval, 32-bit wrap taken into account.
proc pmu_cmd_sample {cpu {count 1} {interval 100}} {
    set c [pmu_cpu $cpu]
    if {![string is integer -strict $count] || $count < 1} {error "pmu: count must be a positive number"}
    if {![string is integer -strict $interval] || $interval < 0} {error "pmu: interval is in ms"}
    set prev [pmu_counts $c]
    set names {}
    foreach e $::pmu_prog([dict get $c cpu]) {lappend names [lindex $e 0]}
    set out [list [format "%8s %-5s %s" ms cpu [join [lmap n $names {format %16s $n}] " "]]]
    set t0 [clock milliseconds]
    for {set k 1} {$k <= $count} {incr k} {
        sleep $interval
        set now [pmu_counts $c]
        set row {}
        foreach p $prev v $now {lappend row [format %16u [expr {($v - $p) & 0xFFFFFFFF}]]}
        lappend out [format "%8d cpu%-2d %s" [expr {[clock milliseconds] - $t0}] [dict get $c cpu] [join $row " "]]
        set prev $now
    }
    join $out "\n"
}

# A ROM table base: a 32-bit number, 4 KiB aligned (spec 6.1); {} = the
# AP's BASE register.  Checked before anything is changed, so a typo
# neither leaves a value every later pmu command would trip over.
proc pmu_check_rom {rom} {
    if {$rom eq {}} return
    if {![string is integer -strict $rom] || $rom < 0 || $rom > 0xFFFFFFFF} {
        error "pmu: ROM base '$rom' is not a 32-bit address, e.g. 0x80000000"
    }
    if {$rom & 0xFFF} {
        error "pmu: ROM base [pmu_hex $rom] is not 4 KiB aligned: a ROM table starts on a 4 KiB boundary"
    }
}

# Either the new target and ROM table with their cores, or, on any error,
# the state as it was.
proc pmu_cmd_setup {{target {}} {rom {}}} {
    pmu_check_rom $rom
    if {$target ne {} && [lsearch -exact [target names] $target] < 0} {
        error "pmu: no target '$target'"
    }
    set was [list $::pmu_target $::pmu_rom $::pmu_cpus]
    set ::pmu_cpus {}
    set ::pmu_target {}
    set ::pmu_rom $rom
    if {[catch {
        if {$target ne {}} {
            pmu_prepare_target $target
            set ::pmu_target $target
        }
        pmu_discover
    } msg]} {
        lassign $was ::pmu_target ::pmu_rom ::pmu_cpus
        error $msg
    }
    format "pmu: %s, ROM table %s, %d cores" [pmu_target] [pmu_hex $::pmu_rom] [llength $::pmu_cpus]
}

proc pmu {{cmd help} args} {
    set usage {
pmu cpus                         cores found in the ROM table
pmu status                       per core: PMU accessible, or why not
pmu read CPU REG...              registers, decoded (PMCR, PMEVCNTR2, EDPRSR, pmu+0xE04)
pmu get CPU REG                  one register's value
pmu write CPU REG VALUE          write a register
pmu events [CPU]                 events, checked against PMCEID
pmu start CPU EVENTS             program, zero and start (cycles,instructions,L1D_CACHE_REFILL)
pmu stop CPU [EVENTS]            counts, then stop those counters
pmu sample CPU [COUNT] [MS]      deltas of the started counters, MS apart
pmu setup [TARGET] [ROMBASE]     use this mem_ap target / ROM table}
    switch -exact -- $cmd {
        cpus - status { if {[llength $args]} {error "usage: pmu $cmd"} }
        read { if {[llength $args] < 2} {error "usage: pmu read CPU REG..."} }
        get { if {[llength $args] != 2} {error "usage: pmu get CPU REG"} }
        write { if {[llength $args] != 3} {error "usage: pmu write CPU REG VALUE"} }
        events { if {[llength $args] > 1} {error "usage: pmu events [CPU]"} }
        start { if {[llength $args] < 2} {error "usage: pmu start CPU EVENTS"} }
        stop { if {[llength $args] < 1} {error "usage: pmu stop CPU [EVENTS]"} }
        sample { if {[llength $args] < 1 || [llength $args] > 3} {error "usage: pmu sample CPU [COUNT] [MS]"} }
        setup { if {[llength $args] > 2} {error "usage: pmu setup [TARGET] [ROMBASE]"} }
        help { return [string trim $usage] }
        default { error "pmu: unknown command '$cmd'\n[string trim $usage]" }
    }
    if {$cmd in {start stop}} {
        return [pmu_cmd_$cmd [lindex $args 0] [lrange $args 1 end]]
    }
    pmu_cmd_$cmd {*}$args
}

# pmuprobe-sim.tcl - the part every targets/openocd/<target>.cfg shares:
# OpenOCD 0.12.0's remote_bitbang adapter pointed at pmuprobe-sim(1), the
# JTAG-DP TAP, the DAP and a mem_ap target on the APB-AP (spec/openocd.md 2).
# There is no CPU target: the simulated SoC has debug and PMU registers but
# no core that could halt.
#
# The <target>.cfg that sources this sets _PMUPROBE_NAME, _PMUPROBE_IDCODE
# and _PMUPROBE_AP.  Set any of these before the config to override:
#   PMUPROBE_SIM_UNIX       UNIX socket path of pmuprobe-sim --unix (wins)
#   PMUPROBE_SIM_HOST       TCP host (default 127.0.0.1)
#   PMUPROBE_SIM_PORT       TCP port (default 9999, pmuprobe-sim's default)
#   PMUPROBE_SIM_MEMACCESS  idle TCKs after each AP access (default 0: the
#                           simulated APB is done by the next Capture-DR;
#                           OpenOCD's own default is 255)
#   CHIPNAME                prefix of the TAP, DAP and target names (default:
#                           the target name with '-' as '_', e.g. rpi3_a53)
# e.g.  openocd -c 'set PMUPROBE_SIM_PORT 4444' -f rpi3-a53.cfg
# Names made: $CHIPNAME.cpu (TAP), $CHIPNAME.dap, $CHIPNAME.apb (mem_ap).
# Use '$CHIPNAME.dap info <ap>', never the top-level 'dap info', which
# crashes OpenOCD 0.12.0 when the current target is a mem_ap.

if { ![info exists PMUPROBE_SIM_MEMACCESS] } { set PMUPROBE_SIM_MEMACCESS 0 }
if { [info exists CHIPNAME] } {
    set _CHIPNAME $CHIPNAME
} else {
    set _CHIPNAME [string map {- _} $_PMUPROBE_NAME]
}

source [file join [file dirname [info script]] pmuprobe-sim-adapter.tcl]

jtag newtap $_CHIPNAME cpu -irlen 4 -expected-id $_PMUPROBE_IDCODE
dap create $_CHIPNAME.dap -chain-position $_CHIPNAME.cpu
target create $_CHIPNAME.apb mem_ap -dap $_CHIPNAME.dap -ap-num $_PMUPROBE_AP

# After examine (inside 'init'): make the APB-AP the DAP's current AP, give
# it an APB CSW (the default is AHB-flavoured 0xA2000000, spec 2.4) and
# fewer idle TCKs per access.  These are EXEC-only commands, so they
# cannot simply follow 'target create'.  Each command is built with
# 'list' so that a CHIPNAME with brackets or dollars stays a word and is
# never evaluated when the event runs.
$_CHIPNAME.apb configure -event examine-end [join [list \
    [list $_CHIPNAME.dap apsel $_PMUPROBE_AP] \
    [list $_CHIPNAME.dap apcsw 0x80000000] \
    [list $_CHIPNAME.dap memaccess $PMUPROBE_SIM_MEMACCESS]] "; "]

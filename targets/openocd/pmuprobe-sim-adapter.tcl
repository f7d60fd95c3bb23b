# pmuprobe-sim-adapter.tcl - OpenOCD 0.12.0's remote_bitbang adapter pointed
# at pmuprobe-sim(1); nothing else.  pmuprobe-sim.tcl adds the TAP, DAP and
# mem_ap; the *-stock.cfg configs add a board config shipped with OpenOCD.
# Set before sourcing, to override:
#   PMUPROBE_SIM_UNIX   UNIX socket path of pmuprobe-sim --unix (wins)
#   PMUPROBE_SIM_HOST   TCP host (default 127.0.0.1)
#   PMUPROBE_SIM_PORT   TCP port (default 9999, pmuprobe-sim's default)
# Keep pmuprobe-sim running until OpenOCD has exited: OpenOCD 0.12.0
# aborts when the remote_bitbang peer closes mid-queue (spec/openocd.md 1.4).

if { ![info exists PMUPROBE_SIM_HOST] } { set PMUPROBE_SIM_HOST 127.0.0.1 }
if { ![info exists PMUPROBE_SIM_PORT] } { set PMUPROBE_SIM_PORT 9999 }

# remote_bitbang in 0.12.0 is JTAG only (spec/openocd.md 1.1); port 0 with
# a host means a UNIX socket path (1.3).
adapter driver remote_bitbang
if { [info exists PMUPROBE_SIM_UNIX] } {
    remote_bitbang port 0
    remote_bitbang host $PMUPROBE_SIM_UNIX
} else {
    remote_bitbang host $PMUPROBE_SIM_HOST
    remote_bitbang port $PMUPROBE_SIM_PORT
}
# Ignored by remote_bitbang, but saying it saves two warnings.
adapter speed 10000

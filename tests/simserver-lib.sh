# simserver-lib.sh - starting and stopping pmuprobe-sim (and OpenOCD) for
# the shell tests; sourced after testlib.sh.  Everything lives in one
# mktemp -d directory; every background process is killed on exit.
SIM="${top_builddir:-.}/src/pmuprobe-sim"
RBB="${PYTHON3:-python3} ${top_srcdir:-.}/tests/rbbclient.py"
OCDRPC="${PYTHON3:-python3} ${top_srcdir:-.}/tests/ocdrpc.py"
OCDCFG="${top_srcdir:-.}/targets/openocd"
simdir=$(mktemp -d "${TMPDIR:-/tmp}/simserver.XXXXXX")
sim_pid=""
ocd_pid=""

cleanup_sim() {
    # OpenOCD first: it aborts if the server goes away under it.
    [ -n "$ocd_pid" ] && kill "$ocd_pid" 2>/dev/null && wait "$ocd_pid" 2>/dev/null
    [ -n "$sim_pid" ] && kill "$sim_pid" 2>/dev/null && wait "$sim_pid" 2>/dev/null
    rm -rf "$simdir"
}
trap cleanup_sim EXIT
trap 'exit 1' INT TERM

# start_sim OPTIONS...: pmuprobe-sim on an ephemeral port with its control
# channel on $simdir/ctl; sets $sim_port.  Waits for the port file.
# $SIM_WRAP (e.g. "valgrind --error-exitcode=99") runs the server under a
# tool when checking it by hand.
start_sim() {
    rm -f "$simdir/port"
    ${SIM_WRAP:-} "$SIM" --port 0 --port-file "$simdir/port" --control "$simdir/ctl" "$@" \
        </dev/null >"$simdir/sim.out" 2>"$simdir/sim.err" &
    sim_pid=$!
    for _ in $(seq 300); do
        [ -s "$simdir/port" ] && break
        kill -0 "$sim_pid" 2>/dev/null || break
        sleep 0.1
    done
    sim_port=$(head -n 1 "$simdir/port" 2>/dev/null)
    if [ -z "$sim_port" ]; then
        echo "pmuprobe-sim did not start:"
        cat "$simdir/sim.err"
        exit 1
    fi
}

# stop_sim: SIGTERM and wait; the status is in $sim_rc.
stop_sim() {
    kill "$sim_pid" 2>/dev/null
    wait "$sim_pid"
    sim_rc=$?
    sim_pid=""
}

# ctl COMMAND...: one control command; reply in $out, status in $rc.
ctl() {
    out=$("$SIM" ctl "$simdir/ctl" "$@" </dev/null 2>&1)
    rc=$?
}

# stat KEY: one value of the last 'ctl stats' reply in $out.
stat() {
    printf '%s\n' "$out" | tr ' ' '\n' | sed -n "s/^$1=//p"
}

# hexval TEXT: the first 0x... of a reply (ctl read, read_memory), as a
# decimal number.
hexval() {
    printf '%d' "$(printf '%s\n' "$1" | grep -Eo '0x[0-9a-fA-F]+' | head -n 1)"
}

# expect_stream_ok FILE NCORES NEVENTS: the jsonl capture FILE has at
# least two samples, each with NCORES cores of NEVENTS events, every core
# "ok" (or "discont" in the first sample, which has no delta).
expect_stream_ok() {
    out=$("${PYTHON3:-python3}" - "$@" <<'EOF'
import json, sys
n, nev = int(sys.argv[2]), int(sys.argv[3])
samples = 0
for line in open(sys.argv[1]):
    r = json.loads(line)
    if r.get("type") != "sample":
        continue
    samples += 1
    cores = r["cores"]
    if len(cores) != n:
        print("sample %d has %d cores, expected %d" % (r["seq"], len(cores), n))
    for c in cores:
        if c["status"] != "ok" and not (r["seq"] == 0 and c["status"] == "discont"):
            print("sample %d cpu%d: %s" % (r["seq"], c["cpu"], c["status"]))
        elif len(c["events"]) != nev:
            print("sample %d cpu%d: %d events, expected %d"
                  % (r["seq"], c["cpu"], len(c["events"]), nev))
if samples < 2:
    print("%d samples, expected at least 2" % samples)
EOF
)
    [ -z "$out" ] || fail "$1 is not all ok"
}

# free_port: a loopback TCP port nobody listens on right now.
free_port() {
    ${PYTHON3:-python3} -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# start_openocd CFG [OPENOCD ARGS...]: OpenOCD with targets/openocd/CFG
# pointed at the running server ($sim_unix if set, else $sim_port); waits
# until its TCL port answers (it listens only after init).  Sets
# $tcl_port; the log is $simdir/ocd.log.
start_openocd() {
    cfg=$1
    shift
    tcl_port=$(free_port)
    if [ -n "${sim_unix:-}" ]; then
        where="set PMUPROBE_SIM_UNIX $sim_unix"
    else
        where="set PMUPROBE_SIM_PORT $sim_port"
    fi
    "${OPENOCD:-openocd}" -c "$where" -f "$OCDCFG/$cfg" \
        -c "tcl_port $tcl_port; telnet_port disabled; gdb_port disabled" "$@" \
        </dev/null >"$simdir/ocd.log" 2>&1 &
    ocd_pid=$!
    if ! $OCDRPC --wait 30 "$tcl_port" "version" </dev/null >/dev/null; then
        echo "OpenOCD did not come up:"
        cat "$simdir/ocd.log"
        exit 1
    fi
}

# rpc SCRIPT...: replies in $out, status in $rc.
rpc() {
    out=$($OCDRPC "$tcl_port" "$@" </dev/null 2>&1)
    rc=$?
}

# rpc_check SCRIPT: run inside catch/capture; $out holds rc=, result=, log=.
rpc_check() {
    out=$($OCDRPC --check "$tcl_port" "$1" </dev/null 2>&1)
    rc=$?
}

# stop_openocd: 'shutdown' over RPC, then wait for the process.
stop_openocd() {
    $OCDRPC "$tcl_port" shutdown </dev/null >/dev/null 2>&1
    wait "$ocd_pid"
    ocd_rc=$?
    ocd_pid=""
}

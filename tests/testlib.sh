# testlib.sh - shared by the shell integration tests (*.test).  They run the
# real pmuprobe binary from the build tree against the shipped targets.
set -u

PMUPROBE="${top_builddir:-.}/src/pmuprobe"
export PMUPROBE_TARGETS="${top_srcdir:-.}/targets"
failures=0
current=""

# Every pmuprobe a shell test starts runs under valgrind when configure
# found it (configure.ac, README): a memory error exits 99, which no test
# expects.  VG_OPTS is that valgrind's command line (top.test hands it to
# script(1) as a string).
VG_OPTS="-q --leak-check=full --errors-for-leak-kinds=definite,indirect --error-exitcode=99"

# pp_cmd ARGS...: pmuprobe ARGS, under valgrind when set, for a pipeline or a
# redirection of its own; for a background job use pp_bg.
pp_cmd() {
    if [ -n "${VALGRIND:-}" ]; then
        # shellcheck disable=SC2086
        "$VALGRIND" $VG_OPTS "$PMUPROBE" "$@"
    else
        "$PMUPROBE" "$@"
    fi
}

# pp_bg ARGS...: pp_cmd in the background, its pid in $bg_pid (valgrind runs
# the program in its own process, so signals sent to $bg_pid reach
# pmuprobe).  Redirections written on the call apply to the job.
pp_bg() {
    if [ -n "${VALGRIND:-}" ]; then
        # shellcheck disable=SC2086
        "$VALGRIND" $VG_OPTS "$PMUPROBE" "$@" &
    else
        "$PMUPROBE" "$@" &
    fi
    bg_pid=$!
}

# run ARGS...: pp_cmd, keeping stdout+stderr in $out and status in $rc.
run() {
    out=$(pp_cmd "$@" 2>&1)
    rc=$?
}

# wait_for WHAT LOG CMD...: polls CMD until it succeeds: the tests wait for
# the event they need (a first sample, a line in a log), never for a time.
# The bound, $PMUPROBE_TEST_WAIT_S seconds (default 60), only stops a hang:
# then the test case fails with "no WHAT" and LOG's contents ("-": none),
# and wait_for returns 1.
wait_for() {
    wf_what=$1
    wf_log=$2
    shift 2
    wf_end=$(($(date +%s) + ${PMUPROBE_TEST_WAIT_S:-60}))
    until "$@"; do
        if [ "$(date +%s)" -ge "$wf_end" ]; then
            out=$([ "$wf_log" = - ] || cat "$wf_log" 2>&1)
            fail "no $wf_what within ${PMUPROBE_TEST_WAIT_S:-60} s"
            return 1
        fi
        sleep 0.1
    done
}

# has_line FILE REGEX: FILE has a line matching REGEX (grep -E).
has_line() {
    grep -Eq -- "$2" "$1" 2>/dev/null
}

# jsonl_count FILE FILTER: how many values jq's FILTER gives over the
# complete lines of FILE (a line still being written does not parse and
# is skipped), e.g. jsonl_count f 'select(.type == "sample")'.
jsonl_count() {
    # -c: one output line per value (jq pretty-prints an object over many
    # lines, which made one sample count as several).
    "${JQ:-jq}" -c -R "fromjson? | $2" "$1" 2>/dev/null | wc -l
}

# jsonl_has FILE FILTER N: FILTER gives at least N values over FILE.
jsonl_has() {
    [ "$(jsonl_count "$1" "$2")" -ge "$3" ]
}

# emu_stat KEY: one counter the USB emulator (tests/ftdi-emu) wrote at exit
# to $tmp/stats (its PMUPROBE_EMU_STATS); "" if there is none.
emu_stat() {
    sed -n "s/^$1=//p" "$tmp/stats" 2>/dev/null
}

fail() {
    echo "FAIL [$current]: $*"
    echo "  command output was:"
    printf '%s\n' "$out" | sed 's/^/    /'
    failures=$((failures + 1))
}

test_case() {
    current=$1
}

expect_rc() {
    [ "$rc" -eq "$1" ] || fail "exit status $rc, expected $1"
}

expect_out() {
    printf '%s\n' "$out" | grep -Eq -- "$1" || fail "output lacks /$1/"
}

expect_no_out() {
    if printf '%s\n' "$out" | grep -Eq -- "$1"; then fail "output has /$1/"; fi
}

finish() {
    if [ "$failures" -ne 0 ]; then
        echo "$failures check(s) failed"
        exit 1
    fi
    echo "all checks passed"
    exit 0
}

# testlib.sh - shared by the shell integration tests (*.test).  They run the
# real pmuprobe binary from the build tree against the shipped targets.
set -u

PMUPROBE="${top_builddir:-.}/src/pmuprobe"
export PMUPROBE_TARGETS="${top_srcdir:-.}/targets"
failures=0
current=""

# run CMD...: runs pmuprobe, keeping stdout+stderr in $out and status in $rc.
# Under valgrind when configure found it: a memory error exits 99, which no
# test expects.
run() {
    if [ -n "${VALGRIND:-}" ]; then
        out=$("$VALGRIND" -q --leak-check=full --errors-for-leak-kinds=definite,indirect \
              --error-exitcode=99 "$PMUPROBE" "$@" 2>&1)
    else
        out=$("$PMUPROBE" "$@" 2>&1)
    fi
    rc=$?
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

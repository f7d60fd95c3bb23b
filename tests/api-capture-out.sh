#!/bin/sh
# api-capture-out.sh FILE: checks what examples/capture printed (used by
# tests/api-capture.test and by make installcheck on the installed copy):
# per-sample lines of cpu0 and cpu1 for the same samples, a baseline
# first, counts that grow, and statistics that add up (samples = lines per
# core + dropped, no gaps).  Prints what is wrong and exits 1.
awk '
$4 ~ /^cpu[01]$/ && $5 == "cycles" {
    c = $4; n[c]++; seqs[c] = seqs[c] " " $1
    if (n[c] == 1 && ($1 != 0 || $11 != "baseline")) { print "first " c " line is no baseline: " $0; bad = 1 }
    if (n[c] > 1 && ($6 <= cyc[c] || $9 <= ins[c])) { print "counts did not grow: " $0; bad = 1 }
    if (n[c] > 1 && $7 != "(+" $6 - cyc[c] ")") { print "delta is not the difference: " $0; bad = 1 }
    cyc[c] = $6; ins[c] = $9; next
}
$1 == "samples" { stats++; samples = $2; written = $4; dropped = $8; gaps = $10; next }
{ print "unexpected line: " $0; bad = 1 }
END {
    if (stats != 1) { print "no statistics line"; exit 1 }
    if (n["cpu0"] < 2) { print "fewer than 2 samples of cpu0"; exit 1 }
    if (seqs["cpu0"] != seqs["cpu1"]) { print "cpu0 and cpu1 differ in samples"; exit 1 }
    if (written != n["cpu0"]) { print "written " written " but " n["cpu0"] " samples printed"; exit 1 }
    if (samples != written + dropped) { print "samples " samples " != written + dropped"; exit 1 }
    if (gaps != 0) { print gaps " gaps"; exit 1 }
    exit bad
}' "$1"

#!/bin/bash
# t6502-flamegraph-large: a large profile (bench/gen-perfdata: 200k samples, chains
# 24 deep on average, 20000 distinct) opens in Chromium from the branches wide
# enough to draw, then reads the rest without changing what is drawn; a branch the
# first picture skipped can be zoomed on, opened by permalink and searched.
. "$(dirname "$0")/lib.sh"

need_browser
gen=$SAMPO_BUILDDIR/bench/gen-perfdata
[ -x "$gen" ] || die "no $gen"
"$gen" -q -o "$tmpdir/large.data" -n 200k -g 24 --stacks 20000 || die "gen-perfdata failed"
run_sampo flamegraph -i "$tmpdir/large.data" -o "$tmpdir/large.html" 2>/dev/null
run_sampo report --stdio --no-children -n --sort comm -g none -i "$tmpdir/large.data" >"$tmpdir/report" 2>/dev/null
samples=$(awk '/^ +[0-9.]+% +[0-9]+ /{n += $2} END {print n}' "$tmpdir/report")
[ "$samples" -gt 0 ] || die "no samples in report: $(head -20 "$tmpdir/report")"
run_browser flamegraph-large.js "$tmpdir/large.html" "$samples"
pass

#!/bin/bash
# t2004-report-progress: a progress bar on stderr when stderr is a terminal and reading
# takes longer than the delay (1 s; SAMPO_PROGRESS_DELAY_MS=0 here), none otherwise,
# and it never gets into the report on stdout
. "$(dirname "$0")/lib.sh"
need_cmd script

gen=$SAMPO_BUILDDIR/bench/gen-perfdata
[ -x "$gen" ] || skip "no $gen"
"$gen" -q -o "$tmpdir/p.data" --samples 20000 || die "gen-perfdata failed"

# stderr on a terminal (script gives the command a pty), stdout to a file
SAMPO_PROGRESS_DELAY_MS=0 script -qec \
	"'$SAMPO' report --stdio -i '$tmpdir/p.data' >'$tmpdir/out' 2>/dev/tty" \
	"$tmpdir/tty.log" >/dev/null </dev/null || die "sampo report under a pty failed"
grep -q 'Processing samples \[#*' "$tmpdir/tty.log" ||
	die "no progress bar on the terminal: $(head -c 300 "$tmpdir/tty.log")"
grep -q 'Processing samples' "$tmpdir/out" && die "the progress bar went into the report"

# stderr not a terminal: no bar at all
SAMPO_PROGRESS_DELAY_MS=0 "$SAMPO" report --stdio -i "$tmpdir/p.data" >"$tmpdir/out2" \
	2>"$tmpdir/err" || die "sampo report failed"
grep -q 'Processing samples' "$tmpdir/err" && die "a progress bar without a terminal"
cmp -s "$tmpdir/out" "$tmpdir/out2" || die "the report differs with a terminal"
pass

#!/bin/bash
# t7501-script-fixed-period: events sampled with a fixed period and no PERIOD in
# their sample_type (perf 3.x files): script prints the period column, the event's
# sample_period, as perf does (sampo used to drop the column)
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-wild.sh"

# two events (cycles, instructions), sample_type IP|TID|TIME|ID|CPU, period 10000
f=$(wild_file pdc__perf.data.throttle-3.8)
sampo_wild script -i "$f" >"$tmpdir/out" 2>/dev/null
n=$(wc -l <"$tmpdir/out")
[ "$n" -gt 1000 ] || die "only $n lines"
# first principles: comm tid [cpu] time: PERIOD event: ... with PERIOD the attr's 10000
bad=$(grep -v -E '\] +[0-9]+\.[0-9]{6}: +10000 +(cycles|instructions): ' "$tmpdir/out" | head -3 || true)
[ -z "$bad" ] || die "lines without the fixed period 10000: $bad"

# a user -F period is printed too (not an error: every sample has a period)
sampo_wild script -F comm,period -i "$f" >"$tmpdir/f" 2>/dev/null
[ "$(awk '$NF == 10000' "$tmpdir/f" | wc -l)" -eq "$n" ] || die "-F comm,period lacks the period"

if [ -n "${PERF:-}" ] && [ -x "$PERF" ]; then
	perf_foreign script -i "$f" >"$tmpdir/want"
	compare_files "$tmpdir/want" "$tmpdir/out"
	perf_foreign script -F comm,period -i "$f" >"$tmpdir/want.f"
	compare_files "$tmpdir/want.f" "$tmpdir/f"
fi
pass

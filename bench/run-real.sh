#!/bin/bash
# run-real.sh - sampo against perf 6.1 on the real recordings of
# bench/record-real.sh (issue 16): every ratio of the issue's targets side by
# side, wall and CPU time, peak memory.
#
# usage: bench/run-real.sh [-n RUNS] [--quick] [--only REGEX]
#
#   -n RUNS       runs of each command, alternating sampo/perf (default 3; the
#                 tables give medians)
#   --quick       the small files of record-real.sh --quick, one run: a smoke
#                 test, not a measurement
#   --only REGEX  only the rows whose "work file" label matches REGEX (grep -E)
#
# Targets (issue 16): report without callchains at least 10x faster than perf
# and within 3x of a plain walk of the file (bench/walk -m mmap, MAP_POPULATE);
# report -g at least 20x in children mode, 10x with --no-children; script at
# least 5x, default fields and -F with callchains; dump at least 20x faster than
# perf report -D on every file; a report of a tiny file in under 20 ms; peak
# memory at most half of perf's. A row is "met" on the ratio of CPU times (user
# + system: what the shared machine cannot take away); the wall ratio is
# beside it. Both tools print to /dev/null.
#
# Environment: BUILDDIR (default: build) holds tools/sampo/sampo and
# bench/walk; SAMPO_BENCH_DIR (default: $BUILDDIR/bench-data); PERF (default:
# perf). Records the files first if they are missing (record-real.sh). Prints
# a markdown table on stdout, progress on stderr.
set -euo pipefail

srcdir=$(cd "$(dirname "$0")/.." && pwd)
cd "$srcdir"
builddir=${BUILDDIR:-build}
sampo=$(cd "$builddir" && pwd)/tools/sampo/sampo
walk=$builddir/bench/walk
perf=${PERF:-perf}
prog=run-real.sh
# shellcheck disable=SC2034 # lib.sh's gen(), unused here
gen=/dev/null
# shellcheck source=bench/lib.sh
. bench/lib.sh

runs=3 quick="" only=""
while [ $# -gt 0 ]; do
	case $1 in
	-n) runs=$2; shift 2 ;;
	--quick) quick=1 runs=1; shift ;;
	--only) only=$2; shift 2 ;;
	-h|--help) sed -n '2,/^set /{/^set /d;s/^# \{0,1\}//;p}' "$0"; exit 0 ;;
	*) echo "$prog: unknown option '$1'" >&2; exit 129 ;;
	esac
done
for f in "$sampo" "$walk"; do
	[ -x "$f" ] || { echo "$prog: $f is missing: build first (ninja -C $builddir)" >&2; exit 1; }
done
command -v "$perf" >/dev/null || { echo "$prog: no '$perf' to compare with" >&2; exit 1; }

bench/record-real.sh ${quick:+--quick} >&2
base=${SAMPO_BENCH_DIR:-$builddir/bench-data}
dir=$(cd "$base/real${quick:+-quick}" && pwd)
base=$(cd "$base" && pwd)

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# measure3 OUT CMD...: append "wall_s rss_kib cpu_s" (cpu: user + system) to OUT
measure3() {
	local out=$1 t0 t1 st=0
	shift
	t0=$EPOCHREALTIME
	/usr/bin/time -f "%M %U %S" -o "$out.rss" "$@" >/dev/null 2>"$out.err" || st=$?
	t1=$EPOCHREALTIME
	tail -n 1 "$out.rss" | awk -v a="$t0" -v b="$t1" '{ printf "%.3f %d %.2f\n", b - a, $1, $2 + $3 }' >>"$out"
	return $st
}

samples() {
	"$perf" report -i "$1" --stats 2>/dev/null | awk '/SAMPLE events:/ { n = $3 } END { print n }' || true
}

# the cases: label | file | sampo's command | perf's command | target (x perf's CPU time)
cases=(
	"report, no callchains|nog|report --stdio|report --stdio|10"
	"report -g, children|g|report --stdio|report --stdio|20"
	"report -g, --no-children|g|report --stdio --no-children|report --stdio --no-children|10"
	"script, default fields|nog|script|script|5"
	"script, default fields (callchains)|g|script|script|5"
	"script -F with callchains|g|script -F comm,tid,time,ip,sym,dso|script -F comm,tid,time,ip,sym,dso|5"
	"dump|nog|dump|report -D|20"
	"dump|g|dump|report -D|20"
	"report -g, children|sys|report --stdio|report --stdio|20"
	"report -g, --no-children|sys|report --stdio --no-children|report --stdio --no-children|10"
	"script, default fields (callchains)|sys|script|script|5"
	"dump|sys|dump|report -D|20"
	"report, DWARF callchains|dwarf|report --stdio|report --stdio|20"
	"script, DWARF callchains|dwarf|script|script|5"
	"dump|dwarf|dump|report -D|20"
	"report, tiny file|tiny|report --stdio|report --stdio|20ms"
)

echo "### sampo vs perf 6.1 on real recordings"
echo
echo "Files of bench/record-real.sh${quick:+ --quick}; median of $runs runs each, alternating sampo"
echo "and perf, output to /dev/null. CPU = user + system seconds. Ratios are perf / sampo"
echo "(memory: sampo / perf). Status on the CPU ratio."
echo
echo "| work | file | samples | perf wall s | perf CPU s | sampo wall s | sampo CPU s | wall ratio | CPU ratio | perf MiB | sampo MiB | memory | target | status |"
echo "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---|"
n=0 report_nog=""
declare -A nsamples
for c in "${cases[@]}"; do
	IFS='|' read -r label name sargs pargs target <<<"$c"
	if [ -n "$only" ] && ! grep -qE "$only" <<<"$label $name"; then
		continue
	fi
	f=$dir/$name.data
	home=$dir/home
	[ "$name" = dwarf ] && home=$base # run-dwarf.sh's build-id cache
	[ -n "${nsamples[$name]:-}" ] || nsamples[$name]=$(HOME=$home samples "$f")
	n=$((n + 1))
	cat "$f" >/dev/null
	for ((i = 1; i <= runs; i++)); do
		echo "$prog: $label, $name.data: run $i/$runs: sampo" >&2
		# shellcheck disable=SC2086
		HOME=$home measure3 "$tmp/$n.sampo" "$sampo" $sargs -i "$f" ||
			{ echo "$prog: sampo failed:" >&2; head -n 3 "$tmp/$n.sampo.err" >&2; }
		echo "$prog: $label, $name.data: run $i/$runs: perf" >&2
		# shellcheck disable=SC2086
		HOME=$home measure3 "$tmp/$n.perf" "$perf" $pargs -i "$f" ||
			{ echo "$prog: perf failed:" >&2; head -n 3 "$tmp/$n.perf.err" >&2; }
	done
	col() { cut -d' ' -f"$2" "$tmp/$n.$1" | median; }
	st=$(col sampo 1) sm=$(col sampo 2) sc=$(col sampo 3)
	pt=$(col perf 1) pm=$(col perf 2) pc=$(col perf 3)
	rw=$(awk -v p="$pt" -v s="$st" 'BEGIN { printf "%.1fx", p / s }')
	rc=$(awk -v p="$pc" -v s="$sc" 'BEGIN { if (s > 0) printf "%.1fx", p / s; else print "-" }')
	mem=$(awk -v p="$pm" -v s="$sm" 'BEGIN { printf "%.2f", s / p }')
	case $target in
	*ms)
		status=$(awk -v s="$st" -v t="${target%ms}" 'BEGIN { print (s * 1000 <= t ? "met" : "MISSED") }')
		target="< $target"
		;;
	*)
		status=$(awk -v p="$pc" -v s="$sc" -v t="$target" 'BEGIN { print (p >= t * s ? "met" : "MISSED") }')
		target=">= ${target}x"
		;;
	esac
	[ "$label $name" = "report, no callchains nog" ] && report_nog=$st
	printf '| %s | %s | %s | %s | %s | %s | %s | %s | %s | %.0f | %.0f | %s | %s | %s |\n' \
		"$label" "$name.data" "${nsamples[$name]:-?}" "$pt" "$pc" "$st" "$sc" "$rw" "$rc" \
		"$(awk -v k="$pm" 'BEGIN { print k / 1024 }')" "$(awk -v k="$sm" 'BEGIN { print k / 1024 }')" \
		"$mem" "$target" "$status"
done

# the floor of report without callchains: a plain walk over the file
walk_nog="" walk_g=""
if [ -z "$only" ] || grep -qE "$only" <<<"walk nog"; then
	for name in nog g; do
		w=$("$walk" -r "$((runs < 3 ? 3 : runs))" -m mmap "$dir/$name.data" |
			sed -n 's/.*median_s=\([0-9.]*\).*/\1/p')
		echo "$prog: plain walk of $name.data: $w s" >&2
		printf -v "walk_$name" '%s' "$w"
	done
	echo
	echo "Plain walk (bench/walk -m mmap, median): nog.data ${walk_nog} s, g.data ${walk_g} s."
	if [ -n "${report_nog:-}" ]; then
		awk -v r="$report_nog" -v w="$walk_nog" 'BEGIN { printf "report without callchains / walk of nog.data: %.1fx (target: within 3x: %s)\n", r / w, r <= 3 * w ? "met" : "MISSED" }'
	fi
fi
echo
echo "sampo: $sampo ($(git describe --always --dirty 2>/dev/null || echo unknown));" \
	"perf: $("$perf" --version); load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"

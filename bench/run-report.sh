#!/bin/bash
# run-report.sh - time `sampo report --stdio` against `perf report --stdio` on the same
# generated files (see bench/README.md), and check that both print the same report.
# Targets (issue 3): without callchains at least 10x faster; with callchains at least 10x
# faster in children mode and 5x with --no-children; peak memory at most half of perf's.
#
# usage: bench/run-report.sh [-n RUNS] [--samples N] [--depth D] [--quick]
#
#   -n RUNS       runs of each command, alternating sampo/perf (default 3)
#   --samples N   samples per file (default 1000000)
#   --depth D     mean callchain depth of the callchain file (default 32)
#   --quick       100k samples, 1 run: a smoke test, not a measurement
#
# The files are made with --kernel-build-id host, so that perf and sampo both take the
# kernel's symbols from this machine's /proc/kallsyms; their user DSOs do not exist, so
# user samples stay addresses in both. perf report in children mode on the 1M-sample
# callchain file takes about a minute a run.
#
# Environment: BUILDDIR (default: build) holds tools/sampo/sampo and bench/gen-perfdata;
# SAMPO_BENCH_DIR (default: $BUILDDIR/bench-data) keeps the generated files; PERF
# (default: perf). Prints a markdown table on stdout, progress on stderr.
set -euo pipefail

srcdir=$(cd "$(dirname "$0")/.." && pwd)
cd "$srcdir"
builddir=${BUILDDIR:-build}
datadir=${SAMPO_BENCH_DIR:-$builddir/bench-data}
sampo=$builddir/tools/sampo/sampo
gen=$builddir/bench/gen-perfdata
perf=${PERF:-perf}

runs=3 samples=1000000 depth=32
while [ $# -gt 0 ]; do
	case $1 in
	-n) runs=$2; shift 2 ;;
	--samples) samples=$2; shift 2 ;;
	--depth) depth=$2; shift 2 ;;
	--quick) samples=100000 runs=1; shift ;;
	-h|--help) sed -n '2,/^set /{/^set /d;s/^# \{0,1\}//;p}' "$0"; exit 0 ;;
	*) echo "run-report.sh: unknown option '$1'" >&2; exit 129 ;;
	esac
done
for f in "$sampo" "$gen"; do
	if [ ! -x "$f" ]; then
		echo "run-report.sh: $f is missing: build first (ninja -C $builddir)" >&2
		exit 1
	fi
done
command -v "$perf" >/dev/null || { echo "run-report.sh: no '$perf' to compare with" >&2; exit 1; }
mkdir -p "$datadir"

prog=run-report.sh
# shellcheck source=bench/lib.sh
. "$srcdir/bench/lib.sh"

plain=$(gen "perf-$(count "$samples")-khost" --samples "$samples" --kernel-build-id host)
cg=$(gen "perf-$(count "$samples")-g$depth-khost" --samples "$samples" --callchain-depth "$depth" \
	--kernel-build-id host)

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

echo "### sampo report vs perf report --stdio"
echo
echo "Median wall time (s) and peak RSS (MiB) of $runs runs each, alternating, output to a"
echo "file, page cache warm. speedup = perf / sampo; memory = sampo RSS / perf RSS."
echo "same = the two reports are identical (perf's closing tip left out)."
echo
echo "| file | mode | sampo | sampo RSS | perf | perf RSS | speedup | target | memory | same |"
echo "|---|---|---:|---:|---:|---:|---:|---|---:|---|"
case_no=0
for c in "$plain|default|10" "$cg|children|10" "$cg|--no-children|5"; do
	IFS='|' read -r f mode target <<<"$c"
	opts=(--stdio -i "$f")
	[ "$mode" = --no-children ] && opts+=(--no-children)
	name=$(basename "$f" .data)
	case_no=$((case_no + 1))
	: >"$tmp/$case_no.sampo"
	: >"$tmp/$case_no.perf"
	cat "$f" >/dev/null
	for ((i = 1; i <= runs; i++)); do
		echo "run-report.sh: $name $mode: run $i/$runs: sampo report" >&2
		measure "$tmp/$case_no.sampo" "$sampo" report "${opts[@]}" ||
			{ echo "run-report.sh: sampo report failed:" >&2; head -n 5 "$tmp/$case_no.sampo.err" >&2; }
		echo "run-report.sh: $name $mode: run $i/$runs: perf report" >&2
		measure "$tmp/$case_no.perf" "$perf" report "${opts[@]}" ||
			echo "run-report.sh: perf report failed on $f" >&2
	done
	"$sampo" report "${opts[@]}" >"$tmp/out.sampo" 2>/dev/null || true
	"$perf" report "${opts[@]}" 2>/dev/null | head -n -3 >"$tmp/out.perf" || true
	same=no
	cmp -s "$tmp/out.sampo" "$tmp/out.perf" && same=yes
	st=$(cut -d' ' -f1 "$tmp/$case_no.sampo" | median)
	sr=$(cut -d' ' -f2 "$tmp/$case_no.sampo" | median)
	pt=$(cut -d' ' -f1 "$tmp/$case_no.perf" | median)
	pr=$(cut -d' ' -f2 "$tmp/$case_no.perf" | median)
	speedup=$(awk -v p="$pt" -v s="$st" 'BEGIN { printf "%.1fx", p / s }')
	met=$(awk -v p="$pt" -v s="$st" -v t="$target" \
		'BEGIN { print (p >= t * s ? ">= " t "x met" : ">= " t "x MISSED") }')
	mem=$(awk -v p="$pr" -v s="$sr" 'BEGIN { printf "%.2f%s", s / p, (s * 2 <= p ? "" : " (> 0.5)") }')
	printf '| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n' "$name.data" "$mode" \
		"$st" "$(awk -v k="$sr" 'BEGIN { printf "%.0f", k / 1024 }')" \
		"$pt" "$(awk -v k="$pr" 'BEGIN { printf "%.0f", k / 1024 }')" "$speedup" "$met" \
		"$mem" "$same"
done
echo
echo "commands: $sampo report --stdio [--no-children] -i FILE; $perf report --stdio [--no-children] -i FILE"

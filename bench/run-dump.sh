#!/bin/bash
# run-dump.sh - time `sampo dump` against `perf report -D` on the same generated
# files (see bench/README.md). Target: sampo dump at least 5x faster.
#
# usage: bench/run-dump.sh [-n RUNS] [--samples N] [--depth D] [--no-callchain]
#                          [--callchain-only] [--quick]
#
#   -n RUNS           runs of each command, alternating sampo/perf (default 3)
#   --samples N       samples per file (default 1000000)
#   --depth D         mean callchain depth of the callchain file (default 32)
#   --no-callchain    only the file without callchains
#   --callchain-only  only the file with callchains
#   --quick           100k samples, 1 run: a smoke test, not a measurement
#
# perf report -D on the 1M-sample callchain file takes minutes (perf builds its
# whole children-mode report, with callchains, under -D); expect ~8 min for
# the default 3 runs (~2.5 min a run on a 2-vCPU EPYC VM).
#
# Environment: BUILDDIR (default: build) holds tools/sampo/sampo and
# bench/gen-perfdata; SAMPO_BENCH_DIR (default: $BUILDDIR/bench-data) keeps the
# generated files; PERF (default: perf) is the perf to compare with.
# Prints a markdown table on stdout, progress on stderr.
set -euo pipefail

srcdir=$(cd "$(dirname "$0")/.." && pwd)
cd "$srcdir"
builddir=${BUILDDIR:-build}
datadir=${SAMPO_BENCH_DIR:-$builddir/bench-data}
sampo=$builddir/tools/sampo/sampo
gen=$builddir/bench/gen-perfdata
perf=${PERF:-perf}

runs=3 samples=1000000 depth=32 plain=1 cg=1
while [ $# -gt 0 ]; do
	case $1 in
	-n) runs=$2; shift 2 ;;
	--samples) samples=$2; shift 2 ;;
	--depth) depth=$2; shift 2 ;;
	--no-callchain) cg=; shift ;;
	--callchain-only) plain=; shift ;;
	--quick) samples=100000 runs=1; shift ;;
	-h|--help) sed -n '2,/^set /{/^set /d;s/^# \{0,1\}//;p}' "$0"; exit 0 ;;
	*) echo "run-dump.sh: unknown option '$1'" >&2; exit 129 ;;
	esac
done
for f in "$sampo" "$gen"; do
	if [ ! -x "$f" ]; then
		echo "run-dump.sh: $f is missing: build first (ninja -C $builddir)" >&2
		exit 1
	fi
done
if ! command -v "$perf" >/dev/null; then
	echo "run-dump.sh: no '$perf' to compare with" >&2
	exit 1
fi
mkdir -p "$datadir"

prog=run-dump.sh
# shellcheck source=bench/lib.sh
. "$srcdir/bench/lib.sh"

files=()
[ -z "$plain" ] || files+=("$(gen "perf-$(count "$samples")" --samples "$samples")")
[ -z "$cg" ] || files+=("$(gen "perf-$(count "$samples")-g$depth" --samples "$samples" \
	--callchain-depth "$depth")")

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

echo "### sampo dump vs perf report -D"
echo
echo "Median wall time (s) and peak RSS (MiB) of $runs runs each, alternating, output to"
echo "/dev/null, page cache warm. speedup = perf / sampo (target: >= 5x)."
echo
echo "| file | size | samples | sampo dump | sampo RSS | perf report -D | perf RSS | speedup | >= 5x |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---|"
for f in "${files[@]}"; do
	name=$(basename "$f" .data)
	: >"$tmp/$name.sampo"
	: >"$tmp/$name.perf"
	cat "$f" >/dev/null # page cache
	sampo_ok=1
	for ((i = 1; i <= runs; i++)); do
		echo "run-dump.sh: $name: run $i/$runs: sampo dump" >&2
		if ! measure "$tmp/$name.sampo" "$sampo" dump -i "$f"; then
			echo "run-dump.sh: sampo dump failed on $f:" >&2
			head -n 5 "$tmp/$name.sampo.err" >&2
			sampo_ok=
		fi
		echo "run-dump.sh: $name: run $i/$runs: perf report -D" >&2
		measure "$tmp/$name.perf" "$perf" report -D -i "$f" ||
			echo "run-dump.sh: perf report -D failed on $f" >&2
		if [ -s "$tmp/$name.perf.err" ]; then
			echo "run-dump.sh: perf report -D printed on stderr:" >&2
			head -n 5 "$tmp/$name.perf.err" >&2
		fi
	done
	st=$(cut -d' ' -f1 "$tmp/$name.sampo" | median)
	sr=$(cut -d' ' -f2 "$tmp/$name.sampo" | median)
	pt=$(cut -d' ' -f1 "$tmp/$name.perf" | median)
	pr=$(cut -d' ' -f2 "$tmp/$name.perf" | median)
	if [ -n "$sampo_ok" ]; then
		speedup=$(awk -v p="$pt" -v s="$st" 'BEGIN { printf "%.1fx", p / s }')
		met=$(awk -v p="$pt" -v s="$st" 'BEGIN { print (p >= 5 * s ? "met" : "MISSED") }')
	else
		st="failed" speedup=- met=-
	fi
	samples_in=$(grep -o -- '--samples [0-9]*' "$f.stamp" | cut -d' ' -f2)
	printf '| %s | %s | %s | %s | %s | %s | %s | %s | %s |\n' "$name.data" \
		"$(awk -v b="$(stat -c %s "$f")" 'BEGIN { printf "%.1f MB", b / 1e6 }')" \
		"$samples_in" "$st" "$(awk -v k="$sr" 'BEGIN { printf "%.0f", k / 1024 }')" \
		"$pt" "$(awk -v k="$pr" 'BEGIN { printf "%.0f", k / 1024 }')" "$speedup" "$met"
done
echo
echo "commands: $sampo dump -i FILE > /dev/null; $perf report -D -i FILE > /dev/null"

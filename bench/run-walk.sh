#!/bin/bash
# run-walk.sh - time the reader's bare walk against a plain mmap walk, and show
# that its memory does not grow with the file (see bench/README.md).
#
# usage: bench/run-walk.sh [-n RUNS] [--samples N] [--big N] [--depth D] [--no-rss]
#
#   -n RUNS      measured runs per mode, after one warm-up run (default 5)
#   --samples N  samples in the timed files (default 1000000)
#   --big N      samples in the large file of the memory table (default 5000000)
#   --depth D    mean callchain depth of the callchain variant (default 32)
#   --no-rss     skip the memory table (and the large files)
#
# Environment: BUILDDIR (default: build) holds bench/walk and bench/gen-perfdata;
# SAMPO_BENCH_DIR (default: $BUILDDIR/bench-data) keeps the generated files,
# which are made once and remade when the generator or its options change.
# Prints markdown tables on stdout, progress on stderr.
set -euo pipefail

srcdir=$(cd "$(dirname "$0")/.." && pwd)
cd "$srcdir"
builddir=${BUILDDIR:-build}
datadir=${SAMPO_BENCH_DIR:-$builddir/bench-data}
walk=$builddir/bench/walk
gen=$builddir/bench/gen-perfdata

runs=5 samples=1000000 big=5000000 depth=32 rss=1
while [ $# -gt 0 ]; do
	case $1 in
	-n) runs=$2; shift 2 ;;
	--samples) samples=$2; shift 2 ;;
	--big) big=$2; shift 2 ;;
	--depth) depth=$2; shift 2 ;;
	--no-rss) rss=; shift ;;
	-h|--help) sed -n '2,/^set /{/^set /d;s/^# \{0,1\}//;p}' "$0"; exit 0 ;;
	*) echo "run-walk.sh: unknown option '$1'" >&2; exit 129 ;;
	esac
done
for f in "$walk" "$gen"; do
	if [ ! -x "$f" ]; then
		echo "run-walk.sh: $f is missing: build first (ninja -C $builddir)" >&2
		exit 1
	fi
done
mkdir -p "$datadir"

prog=run-walk.sh
# shellcheck source=bench/lib.sh
. "$srcdir/bench/lib.sh"

# field KEY LINE: the value of KEY=value in a walk output line
field() {
	local kv
	for kv in $2; do
		case $kv in "$1="*) echo "${kv#*=}"; return ;; esac
	done
}

human() { # bytes -> "56.8 MB"
	awk -v b="$1" 'BEGIN { printf "%.1f MB", b / 1e6 }'
}

ratio() {
	awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "-" }'
}

files=("$(gen "perf-$(count "$samples")" --samples "$samples")"
       "$(gen "perf-$(count "$samples")-g$depth" --samples "$samples" --callchain-depth "$depth")")

echo "### Bare walk: reader vs plain mmap walk"
echo
echo "Median of $runs runs after one warm-up run (page cache warm), seconds."
echo "floor = the faster plain mmap walk (mmap, or mmap with a software prefetch);"
echo "ratio = reader / floor (target: raw <= 2x)."
echo
echo "| file | size | records | mmap | mmap-prefetch | raw | full | ordered | raw/floor | full/floor | ordered/floor | raw <= 2x |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|"
for f in "${files[@]}"; do
	declare -A t=()
	records=
	echo "run-walk.sh: walking $f" >&2
	while read -r line; do
		t[$(field mode "$line")]=$(field median_s "$line")
		records=$(field records "$line")
	done < <("$walk" -r "$runs" -m mmap -m mmap-prefetch -m raw -m full -m ordered "$f")
	floor=$(awk -v a="${t[mmap]}" -v b="${t[mmap-prefetch]}" 'BEGIN { print (a < b ? a : b) }')
	met=$(awk -v r="${t[raw]}" -v f="$floor" 'BEGIN { print (r <= 2 * f ? "met" : "MISSED") }')
	printf '| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n' \
		"$(basename "$f")" "$(human "$(stat -c %s "$f")")" "$records" \
		"${t[mmap]}" "${t[mmap-prefetch]}" "${t[raw]}" "${t[full]}" "${t[ordered]}" \
		"$(ratio "${t[raw]}" "$floor")" "$(ratio "${t[full]}" "$floor")" \
		"$(ratio "${t[ordered]}" "$floor")" "$met"
	unset t
done
echo
echo "command: $walk -r $runs -m mmap -m mmap-prefetch -m raw -m full -m ordered FILE"

[ -n "$rss" ] || exit 0

files+=("$(gen "perf-$(count "$big")" --samples "$big")"
	"$(gen "perf-$(count "$big")-g$depth" --samples "$big" --callchain-depth "$depth")")

echo
echo "### Reader memory against file size"
echo
echo "Peak RSS (/usr/bin/time, KiB) of one walk process per cell (one warm-up walk + one"
echo "measured walk). The reader maps a 64 MiB window at a time; mmap maps the whole file."
echo
echo "| file | size | mmap | raw | full | ordered |"
echo "|---|---:|---:|---:|---:|---:|"
for f in "${files[@]}"; do
	row="| $(basename "$f") | $(human "$(stat -c %s "$f")") |"
	for m in mmap raw full ordered; do
		echo "run-walk.sh: rss of $m on $f" >&2
		kb=$(/usr/bin/time -f %M "$walk" -r 1 -m "$m" "$f" 2>&1 >/dev/null | tail -n 1)
		row="$row $kb |"
	done
	echo "$row"
done
echo
echo "command: /usr/bin/time -f %M $walk -r 1 -m MODE FILE"

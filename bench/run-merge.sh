#!/bin/bash
# run-merge.sh - time `sampo merge` of many hosts' files against reading the same files
# one by one with `sampo report`, and its peak memory for 10 and for N files (issue 14.5:
# both cores, a time close to reading the files once, memory flat in the number of files).
#
# usage: bench/run-merge.sh [--files N] [--distinct D] [--hosts H] [--samples S] [--depth G]
#                           [--sizes "10 50 100"] [--no-hosts-report]
#
#   --files N     inputs of the big merge (default 100)
#   --distinct D  distinct files generated (default 20): input i is file i mod D, so N
#                 inputs cost D files of disk; each is read in full by every run
#   --hosts H     host names (HOSTNAME feature) among the distinct files (default 4);
#                 each distinct file has its own KASLR slide and seed
#   --samples S   samples per file (default 1000000)
#   --depth G     mean callchain depth (default 8)
#   --sizes LIST  the numbers of inputs measured (default: 10, D and N)
#   --no-hosts-report  leave out the `sampo report -i ... -i ...` rows
#
# Rows: "report, one file at a time" (sampo report -i F for every input, one after the
# other: what reading them once costs; each distinct file is read once and counted as
# often as it is an input), then sampo merge with 1 and 2 threads and
# sampo report -i ... -i ..., for each size. Columns: wall seconds, CPU seconds
# (user + sys), CPU / wall (the cores used on average) and the peak RSS (the largest of
# the per-file runs for the report row). The load average before each run goes to stderr.
#
# Environment: BUILDDIR (default: build), SAMPO_BENCH_DIR (default: $BUILDDIR/bench-data).
# Prints a markdown table on stdout, progress on stderr.
set -euo pipefail

srcdir=$(cd "$(dirname "$0")/.." && pwd)
cd "$srcdir"
builddir=${BUILDDIR:-build}
datadir=${SAMPO_BENCH_DIR:-$builddir/bench-data}
sampo=$builddir/tools/sampo/sampo
gen=$builddir/bench/gen-perfdata
prog=run-merge.sh

files=100 distinct=20 hosts=4 samples=1000000 depth=8 sizes="" hosts_report=1
while [ $# -gt 0 ]; do
	case $1 in
	--files) files=$2; shift 2 ;;
	--distinct) distinct=$2; shift 2 ;;
	--hosts) hosts=$2; shift 2 ;;
	--samples) samples=$2; shift 2 ;;
	--depth) depth=$2; shift 2 ;;
	--sizes) sizes=$2; shift 2 ;;
	--no-hosts-report) hosts_report=; shift ;;
	-h|--help) sed -n '2,/^set /{/^set /d;s/^# \{0,1\}//;p}' "$0"; exit 0 ;;
	*) echo "$prog: unknown option '$1'" >&2; exit 129 ;;
	esac
done
. bench/lib.sh
[ -x "$sampo" ] && [ -x "$gen" ] || { echo "$prog: build $builddir first" >&2; exit 1; }
mkdir -p "$datadir"

inputs=()
distinct_files=()
for ((d = 0; d < distinct; d++)); do
	distinct_files+=("$(gen "merge-$(count "$samples")-g$depth-$d" -n "$samples" -g "$depth" \
		--seed $((d + 1)) --hostname "host$((d % hosts))" \
		--kaslr-slide $(((d * 37 % 400 + 1) * 2097152)) --kernel-build-id host)")
done
for ((i = 0; i < files; i++)); do
	inputs+=("${distinct_files[i % distinct]}")
done
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

# run NAME CMD...: "wall cpu rss" of one run
run() {
	local name=$1
	shift
	echo "$prog: $name, load $(cut -d' ' -f1-3 /proc/loadavg)" >&2
	/usr/bin/time -f '%e %U %S %M' -o "$out/$name.t" "$@" >/dev/null 2>"$out/$name.err" ||
		{ echo "$prog: '$*' failed: $(tail -n 3 "$out/$name.err")" >&2; exit 1; }
	awk '{ printf "%.2f %.2f %d\n", $1, $2 + $3, $4 }' "$out/$name.t"
}

row() { # inputs what wall cpu rss_kib
	printf '| %d | %s | %.1f | %.1f | %.2f | %d |\n' "$1" "$2" "$3" "$4" \
		"$(awk -v w="$3" -v c="$4" 'BEGIN { print (w > 0 ? c / w : 0) }')" $(($5 / 1024))
}

echo "$prog: $files inputs ($distinct distinct files, $hosts hosts), $(count "$samples") samples," \
	"depth $depth" >&2
# each distinct file read once by sampo report
declare -a d_wall d_cpu d_rss
for ((d = 0; d < distinct && d < files; d++)); do
	read -r "d_wall[d]" "d_cpu[d]" "d_rss[d]" < <(run "report$d" "$sampo" report --no-children \
		-i "${distinct_files[d]}")
done
echo "| inputs | what | wall s | CPU s | CPU/wall | peak RSS MiB |"
echo "|---:|---|---:|---:|---:|---:|"
[ -n "$sizes" ] || sizes="10 $distinct $files"
# shellcheck disable=SC2086 # one size a word
for n in $(printf '%s\n' $sizes | awk -v max="$files" '$1 <= max && !seen[$1]++'); do
	wall=0 cpu=0 rss=0
	for ((i = 0; i < n; i++)); do
		d=$((i % distinct))
		wall=$(awk -v a="$wall" -v b="${d_wall[d]}" 'BEGIN { print a + b }')
		cpu=$(awk -v a="$cpu" -v b="${d_cpu[d]}" 'BEGIN { print a + b }')
		[ "${d_rss[d]}" -gt "$rss" ] && rss=${d_rss[d]}
	done
	row "$n" "sampo report, one file at a time" "$wall" "$cpu" "$rss"
	for t in 1 2; do
		read -r w c r < <(run "merge$n-$t" "$sampo" merge --jobs "$t" -o "$out/m.data" \
			"${inputs[@]:0:n}")
		row "$n" "sampo merge --jobs $t" "$w" "$c" "$r"
	done
	[ -n "$hosts_report" ] || continue
	read -r w c r < <(run "hosts$n" "$sampo" report -i "${inputs[0]}" \
		$(printf -- '-i %s ' "${inputs[@]:1:n-1}"))
	row "$n" "sampo report -i ... ($n inputs, 2 threads)" "$w" "$c" "$r"
done

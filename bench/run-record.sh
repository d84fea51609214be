#!/bin/bash
# run-record.sh - `sampo record` against `perf record` on the demo workload
# (demo/burn): slowdown of the workload, samples, lost samples, the time the
# recorder runs after the workload has ended, and peak memory.
#
# usage: bench/run-record.sh [-n RUNS] [--rounds N] [--quick]
#
#   -n RUNS      runs of each configuration, alternating sampo/perf (default 3);
#                the table shows medians
#   --rounds N   burn rounds (default 3000, about 1.3 s)
#   --quick      1 run, 600 rounds: a smoke test, not a measurement
#
# Configurations: -e cpu-clock at -F 1000 and -F 10000, without and with -g.
# The workload runs inside `sh -c` that stamps the time when burn starts and
# ends (CLOCK_REALTIME, ns), so that:
#
#   workload   = burn's own run time under the recorder (wall clock)
#   CPU        = burn's user + system time: the sampling interrupts are
#                charged to it, and unlike the wall clock it does not move
#                with other load on the machine
#   slowdown   = CPU / the same without any recorder (median of RUNS)
#   after end  = recorder exit - burn end (perf: its build-id pass and cache
#                copy; sampo: final drain, build-ids of the hit DSOs, cache)
#   peak RSS   = "Maximum resident set size" of /usr/bin/time -v (the largest
#                of the recorder and the workload)
#   lost       = "Total Lost Samples" of perf report on the file
#
# Both recorders write into a fresh HOME (so both copy into an empty
# ~/.debug, the expensive case for the cache step). Needs root or
# perf_event_paranoid <= 1, and /usr/bin/time.
# Environment: BUILDDIR (default: build), PERF (default: perf).
# Prints a markdown table on stdout, progress on stderr.
set -euo pipefail

srcdir=$(cd "$(dirname "$0")/.." && pwd)
cd "$srcdir"
builddir=${BUILDDIR:-build}
sampo=$(cd "$builddir" && pwd)/tools/sampo/sampo
burn=$(cd "$builddir" && pwd)/demo/burn
perf=${PERF:-perf}

runs=3 rounds=3000
while [ $# -gt 0 ]; do
	case $1 in
	-n) runs=$2; shift 2 ;;
	--rounds) rounds=$2; shift 2 ;;
	--quick) runs=1 rounds=600; shift ;;
	-h|--help) sed -n '2,/^set /{/^set /d;s/^# \{0,1\}//;p}' "$0"; exit 0 ;;
	*) echo "run-record.sh: unknown option '$1'" >&2; exit 129 ;;
	esac
done
for f in "$sampo" "$burn" /usr/bin/time; do
	if [ ! -x "$f" ]; then
		echo "run-record.sh: $f is missing (build first: ninja -C $builddir)" >&2
		exit 1
	fi
done
command -v "$perf" >/dev/null || { echo "run-record.sh: no '$perf'" >&2; exit 1; }

work=$(mktemp -d "${TMPDIR:-/tmp}/sampo-bench-record.XXXXXX")
trap 'rm -rf "$work"' EXIT

# the workload with its start and end stamps in $work/stamps
# and its CPU time (user + system, s) in $work/stamps.cpu
workload=(sh -c 'date +%s%N >"$0"; /usr/bin/time -f "%U %S" -o "$0.cpu" "$1" "$2" >/dev/null; date +%s%N >>"$0"'
	"$work/stamps" "$burn" "$rounds")

median() {
	sort -g | awk '{ v[NR] = $1 } END { if (NR == 0) print "nan"; else if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# run_one TOOL FREQ CG: one recording; appends "workload_s after_s rss_kb samples lost" to $work/TOOL-FREQ-CG
run_one() {
	local tool=$1 freq=$2 cg=$3 out=$work/out.data t0 t2 start end samples lost rss cpu
	local -a cmd

	rm -rf "$work/home" "$out" "$out.old"
	mkdir -p "$work/home"
	if [ "$tool" = sampo ]; then
		cmd=("$sampo" record -e cpu-clock -F "$freq" $cg -o "$out" --)
	else
		cmd=("$perf" record -e cpu-clock -F "$freq" $cg -o "$out" --)
	fi
	t0=$(date +%s%N)
	HOME=$work/home /usr/bin/time -v "${cmd[@]}" "${workload[@]}" >"$work/log" 2>&1
	t2=$(date +%s%N)
	start=$(sed -n 1p "$work/stamps")
	end=$(sed -n 2p "$work/stamps")
	rss=$(awk -F': ' '/Maximum resident set size/ { print $2 }' "$work/log")
	samples=$(sed -n 's/.*(\([0-9]*\) samples.*/\1/p' "$work/log" | tail -1)
	lost=$(HOME=$work/home "$perf" report --stdio -i "$out" 2>/dev/null |
		awk '/Total Lost Samples/ && !n++ { print $NF }')
	cpu=$(awk '{ print $1 + $2 }' "$work/stamps.cpu")
	echo "$(((end - start) / 1000))e-6 $(((t2 - end) / 1000))e-6 $rss ${samples:-0} ${lost:-0} $cpu" \
		>>"$work/$tool-$freq-${cg:-nocg}"
	: "$t0"
}

echo "# run-record: $runs runs, burn $rounds rounds" >&2
for i in $(seq "$runs"); do
	"${workload[@]}"
	start=$(sed -n 1p "$work/stamps")
	end=$(sed -n 2p "$work/stamps")
	echo "$(((end - start) / 1000))e-6" >>"$work/base"
	awk '{ print $1 + $2 }' "$work/stamps.cpu" >>"$work/base.cpu"
done
base=$(median <"$work/base")
base_cpu=$(median <"$work/base.cpu")

printf '| recorder | -F | -g | workload s | CPU s | slowdown | samples | lost | after end s | peak RSS MB |\n'
printf '|---|---:|---|---:|---:|---:|---:|---:|---:|---:|\n'
for freq in 1000 10000; do
	for cg in "" -g; do
		for i in $(seq "$runs"); do
			for tool in sampo perf; do
				echo "# $tool -F $freq $cg run $i" >&2
				run_one "$tool" "$freq" "$cg"
			done
		done
		for tool in sampo perf; do
			f=$work/$tool-$freq-${cg:-nocg}
			wl=$(awk '{ print $1 }' "$f" | median)
			after=$(awk '{ print $2 }' "$f" | median)
			rss=$(awk '{ print $3 }' "$f" | median)
			samples=$(awk '{ print $4 }' "$f" | median)
			lost=$(awk '{ print $5 }' "$f" | median)
			cpu=$(awk '{ print $6 }' "$f" | median)
			printf '| %s | %s | %s | %.3f | %.2f | %.3f | %.0f | %.0f | %.3f | %.1f |\n' \
				"$tool" "$freq" "${cg:+yes}" "$wl" "$cpu" "$(echo "$cpu $base_cpu" | awk '{ print $1 / $2 }')" \
				"$samples" "$lost" "$after" "$(echo "$rss" | awk '{ print $1 / 1024 }')"
		done
	done
done
printf '\nworkload without a recorder: %.3f s, %.2f s CPU (median of %s)\n' "$base" "$base_cpu" "$runs"

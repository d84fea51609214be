#!/bin/bash
# cores.sh - what the second core buys (issue 16): the wall time of sampo report and
# script on the real recordings pinned to one core (taskset -c 0) and free on both,
# alternating, median of 7. Run it on an idle machine (stop anything else first).
#	bench/cores.sh   (after bench/record-real.sh; BUILDDIR, SAMPO_BENCH_DIR as there)
set -u
B=${BUILDDIR:-build}
S=$B/tools/sampo/sampo
D=${SAMPO_BENCH_DIR:-$B/bench-data}/real
if [ ! -x "$S" ] || [ ! -r "$D/g.data" ]; then
	echo "cores.sh: needs $S and $D/g.data (bench/record-real.sh)" >&2
	exit 1
fi
# run CMD...: its wall time in seconds
run() {
	local t0 t1
	t0=$(date +%s.%N)
	"$@" >/dev/null 2>&1
	t1=$(date +%s.%N)
	awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f\n", b - a }'
}
for f in "g.data report --stdio" "g.data report --stdio --no-children" "nog.data report --stdio" "g.data script"; do
	# shellcheck disable=SC2086
	set -- $f
	file=$1
	shift
	one=() two=()
	for _ in 1 2 3 4 5 6 7; do
		one+=("$(run taskset -c 0 "$S" "$@" -i "$D/$file")")
		two+=("$(run "$S" "$@" -i "$D/$file")")
	done
	m1=$(printf '%s\n' "${one[@]}" | sort -n | sed -n 4p)
	m2=$(printf '%s\n' "${two[@]}" | sort -n | sed -n 4p)
	echo "$* -i $file: one core ${m1}s, two cores ${m2}s, speed-up $(awk -v a="$m1" -v b="$m2" 'BEGIN { printf "%.2f", a / b }')x"
done

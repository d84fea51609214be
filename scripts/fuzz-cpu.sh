#!/bin/bash
# fuzz-cpu.sh [-n NICE] [--until EPOCH] CPU_SECONDS TARGET... - run each libFuzzer
# target in turn until it has had CPU_SECONDS of CPU time (user + system, the fuzzer
# process's own and that of the children it waited for: fuzz-trace-data parses each
# input in a forked child), not of wall time: on a shared machine a wall-clock hour
# can be a few CPU minutes. Issue 17.10 asks one CPU-hour a target:
# `scripts/fuzz-cpu.sh 3600 build-fuzz/fuzz/fuzz-reader ...` (make fuzz-hours runs
# every target).
#
# Each target starts from its committed seeds (fuzz/corpus/NAME, read only) and a kept
# corpus (fuzz/corpus-out/NAME, ignored by git), with fuzz/dict/NAME.dict when there is
# one, under the limits of make check's smoke runs (25 s an input, 2 GiB). A crash, leak,
# sanitizer report or timeout stops that target: the input is kept in
# build-fuzz/fuzz/findings/. --until EPOCH stops everything at that time (a session's
# end), whatever is left. One line per target goes to stdout:
#
#	fuzz-reader cpu=3600s wall=4410s execs=6512345 cov=2461 ft=9120 corpus=812 result=clean
#
# with result clean, finding (exit status 1 at the end) or stopped (the deadline came
# first; its CPU seconds are those it had). The full libFuzzer log is
# build-fuzz/fuzz/logs/NAME.log. Needs `make fuzz` first.
set -u -o pipefail

nice_level=10 until=0
while [ $# -gt 0 ]; do
	case $1 in
	-n) nice_level=$2; shift 2 ;;
	--until) until=$2; shift 2 ;;
	-h | --help) sed -n '2,/^set /{/^set /d;s/^# \{0,1\}//;p}' "$0"; exit 0 ;;
	*) break ;;
	esac
done
[ $# -ge 2 ] || { echo "usage: fuzz-cpu.sh [-n NICE] [--until EPOCH] CPU_SECONDS TARGET..." >&2; exit 129; }
budget=$1
shift
srcdir=$(cd "$(dirname "$0")/.." && pwd)
hz=$(getconf CLK_TCK)
status=0

# cpu_seconds PID: user + system seconds of that process and of its children that
# ended so far
cpu_seconds() {
	local stat
	stat=$(cat "/proc/$1/stat" 2>/dev/null) || { echo 0; return; }
	stat=${stat##*) }
	# fields after "(comm) ": state is 1, utime 12, stime 13, cutime 14, cstime 15
	awk -v hz="$hz" '{ printf "%d\n", ($12 + $13 + $14 + $15) / hz }' <<<"$stat"
}

for target in "$@"; do
	name=$(basename "$target")
	name=${name#fuzz-}
	dir=$(dirname "$target")
	mkdir -p "$dir/findings" "$dir/logs" "$srcdir/fuzz/corpus-out/$name"
	log=$dir/logs/$name.log
	args=(-timeout=25 -rss_limit_mb=2048 -print_final_stats=1 -error_exitcode=1
		-timeout_exitcode=1 "-artifact_prefix=$dir/findings/fuzz-$name-")
	[ -f "$srcdir/fuzz/dict/$name.dict" ] && args+=("-dict=$srcdir/fuzz/dict/$name.dict")
	corpora=("$srcdir/fuzz/corpus-out/$name")
	[ -d "$srcdir/fuzz/corpus/$name" ] && corpora+=("$srcdir/fuzz/corpus/$name")
	start=$(date +%s)
	nice -n "$nice_level" "$target" "${args[@]}" "${corpora[@]}" >"$log" 2>&1 &
	pid=$!
	result=clean used=0
	while kill -0 "$pid" 2>/dev/null; do
		used=$(cpu_seconds "$pid")
		if [ "$used" -ge "$budget" ]; then
			kill -INT "$pid"
			break
		fi
		if [ "$until" -gt 0 ] && [ "$(date +%s)" -ge "$until" ]; then
			result=stopped
			kill -INT "$pid"
			break
		fi
		sleep 5
	done
	wait "$pid"
	rc=$?
	# SIGINT makes libFuzzer print its stats and exit 72 (or 130 when the signal
	# came before its handler): only a finding exits 1
	if [ "$rc" = 1 ]; then
		result=finding
		status=1
	fi
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
	last=$(grep -E '^#[0-9]+' "$log" | tail -1)
	cov=$(sed -n 's/.* cov: \([0-9]*\).*/\1/p' <<<"$last")
	ft=$(sed -n 's/.* ft: \([0-9]*\).*/\1/p' <<<"$last")
	corp=$(sed -n 's/.* corp: \([0-9]*\).*/\1/p' <<<"$last")
	echo "fuzz-$name cpu=${used}s wall=$(($(date +%s) - start))s execs=${execs:-?} cov=${cov:-?} ft=${ft:-?} corpus=${corp:-?} result=$result"
	[ "$result" = stopped ] && break
done
exit "$status"

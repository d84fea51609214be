#!/bin/bash
# thread-times.sh - the CPU seconds of each thread of one run of a command: what the
# run would take on as many idle cores as it has busy threads, whatever the load of
# the machine it is measured on (issue 14.5: `sampo merge` "runs on both cores").
#
# usage: bench/thread-times.sh CMD [ARG...]
#	e.g. bench/thread-times.sh build/tools/sampo/sampo merge --jobs 2 -o m.data *.data
#
# Runs CMD (stdout and stderr to /dev/null) and samples the user + system time of each
# of its threads from /proc/PID/task/*/stat every 0.1 s until it exits.
# Prints one line per thread that ran for at least 0.1 s, busiest first ("tid cpu_s";
# a session's read-ahead thread lives as long as its file, so one worker reading N
# files shows N of them), then "total CPU_S busiest BUSIEST_S": on an idle machine with
# one core per busy thread the wall time is about the busiest thread's, when the
# threads seldom wait for each other (sampo merge's workers share only the merged
# table's lock). Threads that end between two samples lose up to 0.1 s each.
set -euo pipefail

[ $# -ge 1 ] || { sed -n '2,/^set /{/^set /d;s/^# \{0,1\}//;p}' "$0" >&2; exit 129; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

"$@" >/dev/null 2>"$out/err" &
pid=$!
declare -A ticks
while kill -0 "$pid" 2>/dev/null; do
	for f in /proc/"$pid"/task/*/stat; do
		tid=${f#/proc/"$pid"/task/}
		tid=${tid%/stat}
		# fields 14 and 15: utime and stime, in clock ticks (the comm in field 2 has no blank)
		v=$(awk '{ print $14 + $15 }' "$f" 2>/dev/null || true)
		[ -n "$v" ] && ticks[$tid]=$v
	done
	sleep 0.1
done
wait "$pid" || { echo "thread-times.sh: '$*' failed: $(tail -n 3 "$out/err")" >&2; exit 1; }
hz=$(getconf CLK_TCK)
for tid in "${!ticks[@]}"; do
	echo "$tid ${ticks[$tid]}"
done | awk -v hz="$hz" '{ s = $2 / hz; total += s; if (s > max) max = s;
		if (s >= 0.1) printf "%s %.1f\n", $1, s }
	END { printf "total %.1f busiest %.1f\n", total, max }' | sort -k2 -g -r

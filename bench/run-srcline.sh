#!/bin/bash
# run-srcline.sh - source lines: cached lookups a second in process (bench/srcline), and
# `sampo report --stdio --sort srcline` against `perf report --stdio --sort srcline` on
# the same recording, and a check that both print the same table.
# Targets (issue 11): at least 10 million cached lookups a second; report at least 20x
# faster than perf's.
#
# usage: bench/run-srcline.sh [-n RUNS] [--seconds S] [--keep]
#
#   -n RUNS       runs of each report, alternating sampo/perf (default 3)
#   --seconds S   how long the workload runs under perf record (default 4)
#   --keep        time the recording made last time (no new recording)
#
# The recording: perf record -g of `sampo report` reading a fixture again and again, so
# that the samples spread over many addresses of libsampo and sampo (built -O2 -g: every
# one has a line) and of libc; perf and sampo find the binaries in the build-id cache
# perf record fills (HOME is a scratch directory).
#
# Environment: BUILDDIR (default: build) holds tools/sampo/sampo and bench/srcline;
# SAMPO_BENCH_DIR (default: $BUILDDIR/bench-data) keeps the recording; PERF (default:
# perf). Prints a markdown table on stdout, progress on stderr.
set -euo pipefail

srcdir=$(cd "$(dirname "$0")/.." && pwd)
cd "$srcdir"
builddir=${BUILDDIR:-build}
datadir=${SAMPO_BENCH_DIR:-$builddir/bench-data}
sampo=$(realpath "$builddir/tools/sampo/sampo")
bench=$builddir/bench/srcline
perf=${PERF:-perf}
fixture=${SAMPO_SHARED:-$srcdir/../shared}/fixtures/perf-6.1/b-callchain-fp/perf.data

runs=3 seconds=4 keep=
while [ $# -gt 0 ]; do
	case $1 in
	-n) runs=$2; shift 2 ;;
	--seconds) seconds=$2; shift 2 ;;
	--keep) keep=1; shift ;;
	-h|--help) sed -n '2,/^set /{/^set /d;s/^# \{0,1\}//;p}' "$0"; exit 0 ;;
	*) echo "run-srcline.sh: unknown option '$1'" >&2; exit 129 ;;
	esac
done
[ -f "$fixture" ] || fixture=/work/shared/fixtures/perf-6.1/b-callchain-fp/perf.data

mkdir -p "$datadir"
export HOME=$datadir/srcline-home
mkdir -p "$HOME"
unset PERF_BUILDID_DIR
data=$datadir/srcline.data
[ -n "$keep" ] && [ -f "$data" ] || echo "recording $seconds s of sampo report..." >&2
[ -n "$keep" ] && [ -f "$data" ] || "$perf" record -q -g -e cpu-clock -F 2000 -o "$data" -- sh -c \
	"end=\$((\$(date +%s) + $seconds)); while [ \$(date +%s) -lt \$end ]; do \
	 '$sampo' report --stdio -i '$fixture' >/dev/null 2>&1; done" >/dev/null 2>&1

echo "cached lookups..." >&2
line=$("$bench" "$data" 50000000)
echo "$line" >&2
per_s=$(sed -n 's/.* per_s=\([0-9]*\).*/\1/p' <<<"$line")
pairs=$(sed -n 's/.* pairs=\([0-9]*\).*/\1/p' <<<"$line")
resolved=$(sed -n 's/.* resolved=\([0-9]*\).*/\1/p' <<<"$line")

median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
tsec() { # run "$@", print the wall time in seconds
	local t0 t1
	t0=$(date +%s.%N)
	"$@" >/dev/null 2>&1
	t1=$(date +%s.%N)
	echo "$t1 - $t0" | bc -l
}
: >"$datadir/srcline.sampo.t"
: >"$datadir/srcline.perf.t"
for _ in $(seq "$runs"); do
	tsec "$sampo" report --stdio --sort srcline -i "$data" >>"$datadir/srcline.sampo.t"
	tsec "$perf" report -f --stdio --sort srcline -i "$data" >>"$datadir/srcline.perf.t"
done
s=$(median <"$datadir/srcline.sampo.t")
p=$(median <"$datadir/srcline.perf.t")
strip() { grep -v -e '^# (Tip' -e '^$' -e '^#$'; }
# the table without graphs, in self mode: rows of equal weight from different processes can
# come in another order in children mode (docs/report-differences.md); the libc and ld.so
# lines where perf's addr2line names another file of the line differ too
same=no
if cmp -s <("$perf" report -f --stdio --sort srcline --no-children -g none -i "$data" 2>/dev/null | strip) \
	<("$sampo" report --stdio --sort srcline --no-children -g none -i "$data" 2>/dev/null | strip); then
	same=yes
fi
rows=$("$perf" report -f --stdio --sort srcline --no-children -g none -i "$data" 2>/dev/null | grep -c '%')
differ=$(diff <("$perf" report -f --stdio --sort srcline --no-children -g none -i "$data" 2>/dev/null | strip) \
	<("$sampo" report --stdio --sort srcline --no-children -g none -i "$data" 2>/dev/null | strip) | grep -c '^<' || true)
samples=$("$sampo" script -F ip -G -i "$data" 2>/dev/null | wc -l)

speedup=$(echo "$p / $s" | bc -l)
verdict() { if [ "$(echo "$1 >= $2" | bc -l)" = 1 ]; then echo met; else echo MISSED; fi; }
echo "| measure | sampo | perf 6.1 | ratio | target |"
echo "|---|---|---|---|---|"
printf '| cached srcline lookups / s (%s addresses, %s with a line) | %s | | | >= 10M: %s |\n' \
	"$pairs" "$resolved" "$per_s" "$(verdict "$per_s" 10000000)"
printf '| report --stdio --sort srcline, %s samples (s, median of %s) | %.3f | %.3f | %.1fx | >= 20x: %s |\n' \
	"$samples" "$runs" "$s" "$p" "$speedup" "$(verdict "$speedup" 20)"
echo "| same table as perf (--no-children -g none) | $same ($differ of $rows rows differ) | | | |"

#!/bin/bash
# run-all.sh - run every benchmark and keep the report (what `make bench` runs).
#
# usage: bench/run-all.sh [--quick]
#
#   --quick  small files and single runs: checks that everything works in a
#            minute or two; the numbers mean little
#
# Builds $BUILDDIR (default: build) if needed, runs bench/run-walk.sh,
# bench/run-dump.sh, bench/run-report.sh, bench/run-record.sh and
# bench/run-real.sh (real recordings, bench/record-real.sh), and writes their markdown tables, preceded by the machine
# facts, to stdout and to bench/results/run-all-<date>.md (git-ignored).
# Generated perf.data files stay in $SAMPO_BENCH_DIR (default:
# $BUILDDIR/bench-data). The full run takes about 25 minutes: perf report -D
# on the generated callchain file, and perf on the real recordings
# (run-real.sh: the system-wide one's children report takes perf minutes).
set -euo pipefail

srcdir=$(cd "$(dirname "$0")/.." && pwd)
cd "$srcdir"
export BUILDDIR=${BUILDDIR:-build}

quick=
case ${1:-} in
--quick) quick=1 ;;
"") ;;
*) echo "usage: bench/run-all.sh [--quick]" >&2; exit 129 ;;
esac

if [ ! -f "$BUILDDIR/build.ninja" ]; then
	meson setup "$BUILDDIR" >&2
fi
ninja -C "$BUILDDIR" >&2

mkdir -p bench/results
out=bench/results/run-all-$(date +%Y%m%d-%H%M%S).md

buildtype=$(python3 -c 'import json, sys
for o in json.load(open(sys.argv[1])):
    if o["name"] == "buildtype": print(o["value"])' \
	"$BUILDDIR/meson-info/intro-buildoptions.json" 2>/dev/null || echo unknown)

{
	echo "## sampo benchmarks, $(date -u '+%Y-%m-%d %H:%M UTC')"
	echo
	echo "- machine: $(nproc) CPUs ($(sed -n 's/^model name\s*: //p' /proc/cpuinfo | head -n 1)),"\
		"$(awk '/MemTotal/ { printf "%.0f GiB", $2 / 1048576 }' /proc/meminfo),"\
		"Linux $(uname -r)"
	echo "- perf: $(perf --version 2>/dev/null || echo none)"
	echo "- sampo: $(git describe --always --dirty 2>/dev/null || echo unknown)," \
		"build dir $BUILDDIR ($buildtype)"
	echo "- load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
	echo
	if [ -n "$quick" ]; then
		bench/run-walk.sh -n 1 --samples 100000 --big 500000
		echo
		bench/run-dump.sh --quick
		echo
		bench/run-report.sh --quick
		echo
		bench/run-record.sh --quick
		echo
		bench/run-real.sh --quick
	else
		bench/run-walk.sh
		echo
		bench/run-dump.sh
		echo
		bench/run-report.sh
		echo
		bench/run-record.sh
		echo
		bench/run-real.sh
	fi
} | tee "$out"
echo "run-all.sh: report written to $out" >&2

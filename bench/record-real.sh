#!/bin/bash
# record-real.sh - record the real-workload benchmark files with the real perf
# (issue 16): what bench/run-real.sh measures sampo against perf on.
#
# usage: bench/record-real.sh [--quick] [--force]
#
#   --quick   smaller files (a tenth of the samples, a 5 s system-wide
#             recording): a smoke test, kept apart in $SAMPO_BENCH_DIR/real-quick
#   --force   record again even where a file exists
#
# Files, in $SAMPO_BENCH_DIR/real (default: $BUILDDIR/bench-data/real; git-ignored
# as every build directory), each made once and kept until the workload's source
# changes:
#
#   nog.data    perf record -F max of bench/real-work.c (4 threads; the
#               program, two shared libraries built beside it, libm, libc, the
#               kernel), 11 s of CPU: about 1.1M samples at 100 kHz
#   g.data      the same with -g (frame pointers: the program and its
#               libraries are built with -fno-omit-frame-pointer), 13 s of CPU
#   sys.data    perf record -a -g -F 10000 for 30 s while the machine builds
#               sampo (a copy of this tree's HEAD, in a scratch directory):
#               ninja, cc1, as, ld and whatever else runs on the machine
#   tiny.data   perf record -F 1000 of 20 ms of the workload: the fixed costs
#   dwarf.data  the --call-graph dwarf recording of bench/run-dwarf.sh (its
#               workload, 28k samples with 8 KiB stacks; made by run-dwarf.sh
#               --record-only and linked here; its build-id cache is in
#               $SAMPO_BENCH_DIR/.debug, run-dwarf.sh's HOME)
#
# The "max" of -F max is /proc/sys/kernel/perf_event_max_sample_rate (100000
# here). On a VM without a hardware PMU perf falls back to cpu-clock. The
# workload's length is CPU time (CLOCK_PROCESS_CPUTIME_ID), so the number of
# samples does not depend on the load of the machine. perf's build-id cache
# goes to $SAMPO_BENCH_DIR/real/home/.debug (HOME is set there, for perf record
# and for the reports of run-real.sh).
#
# Environment: BUILDDIR (default: build), SAMPO_BENCH_DIR, PERF (default:
# perf), CC (default: gcc). Prints the files and their sample counts.
set -euo pipefail

srcdir=$(cd "$(dirname "$0")/.." && pwd)
cd "$srcdir"
builddir=${BUILDDIR:-build}
perf=${PERF:-perf}
cc=${CC:-gcc}
prog=record-real.sh

quick="" force=""
while [ $# -gt 0 ]; do
	case $1 in
	--quick) quick=1; shift ;;
	--force) force=1; shift ;;
	-h|--help) sed -n '2,/^set /{/^set /d;s/^# \{0,1\}//;p}' "$0"; exit 0 ;;
	*) echo "$prog: unknown option '$1'" >&2; exit 129 ;;
	esac
done
base=${SAMPO_BENCH_DIR:-$builddir/bench-data}
dir=$base/real${quick:+-quick}
mkdir -p "$base"
base=$(cd "$base" && pwd)
mkdir -p "$dir/bin" "$dir/home"
dir=$(cd "$dir" && pwd)
export HOME=$dir/home
command -v "$perf" >/dev/null || { echo "$prog: no '$perf' to record with" >&2; exit 1; }

if [ -n "$quick" ]; then
	nog_ms=1100 g_ms=1300 sys_s=5
else
	nog_ms=11000 g_ms=13000 sys_s=30
fi

# ---- the workload, built when its source changed (the files recorded with an
# older build are recorded again: their build-ids would not match) ----------
stamp=$(cksum <bench/real-work.c)
if [ ! -x "$dir/bin/real-work" ] || [ "$(cat "$dir/bin/stamp" 2>/dev/null)" != "$stamp" ]; then
	echo "$prog: building the workload in $dir/bin" >&2
	cflags="-O2 -g -fno-omit-frame-pointer"
	# shellcheck disable=SC2086,SC2016 # $cflags split; $ORIGIN for the linker
	(cd "$dir/bin" &&
		$cc $cflags -DREAL_HASH -fPIC -shared -o libreal-hash.so "$srcdir/bench/real-work.c" &&
		$cc $cflags -DREAL_SORT -fPIC -shared -o libreal-sort.so "$srcdir/bench/real-work.c" &&
		$cc $cflags -o real-work "$srcdir/bench/real-work.c" -L. -lreal-hash -lreal-sort \
			-Wl,-rpath,'$ORIGIN' -lm -lpthread)
	echo "$stamp" >"$dir/bin/stamp"
	force=1
fi

# rec NAME PERF-RECORD-OPTIONS... -- CMD...: record NAME.data unless it exists
rec() {
	local name=$1 f
	shift
	f=$dir/$name.data
	if [ -n "$force" ] || [ ! -s "$f" ]; then
		echo "$prog: recording $f" >&2
		"$perf" record -q -o "$f.tmp" "$@" >/dev/null
		mv "$f.tmp" "$f"
	fi
}

rec nog -F max -- "$dir/bin/real-work" 4 "$nog_ms"
rec g -F max -g -- "$dir/bin/real-work" 4 "$g_ms"
rec tiny -F 1000 -- "$dir/bin/real-work" 1 20

# system-wide during a build of sampo, in a scratch copy of HEAD
if [ -n "$force" ] || [ ! -s "$dir/sys.data" ]; then
	scratch=$(mktemp -d)
	trap 'rm -rf "$scratch"' EXIT
	git -C "$srcdir" archive HEAD | tar -x -C "$scratch"
	meson setup "$scratch/b" "$scratch" -Dtests=false -Dman=disabled >/dev/null
	ninja -C "$scratch/b" -j 2 >/dev/null 2>&1 &
	build=$!
	sleep 1
	rec sys -a -g -F 10000 -- sleep "$sys_s"
	kill "$build" 2>/dev/null || true
	wait "$build" 2>/dev/null || true
fi

# the DWARF recording of run-dwarf.sh
SAMPO_BENCH_DIR=$base bench/run-dwarf.sh --record-only >/dev/null
ln -sf "$base/dwarf-base.data" "$dir/dwarf.data"

for f in nog g sys tiny dwarf; do
	n=$(HOME=$HOME "$perf" report -i "$dir/$f.data" --stats 2>/dev/null | awk '/SAMPLE events:/ { n = $3 } END { print n }' || true)
	printf '%s\t%s samples\t%s\n' "$dir/$f.data" "${n:-?}" "$(du -hL "$dir/$f.data" | cut -f1)"
done

#!/bin/bash
# run-dwarf.sh - time `sampo report --stdio` against `perf report --stdio` on a
# --call-graph dwarf recording (issue 11): 1M samples with 8 KiB stacks each.
# Target: at least 10x faster than perf report --stdio, peak memory at most half
# of perf's, both cores used.
#
# usage: bench/run-dwarf.sh [-n RUNS] [--samples N] [--quick] [--record-only]
#
#   -n RUNS       runs of each command (default 1: perf takes minutes a run)
#   --samples N   samples in the report's file (default 1000000)
#   --quick       50k samples: a smoke test, not a measurement
#   --record-only make the recording ($SAMPO_BENCH_DIR/dwarf-base.data, 28k
#                 samples) and stop: what bench/record-real.sh reuses
#
# The file: perf record --call-graph dwarf (8 KiB stacks) of three programs gcc
# builds here without frame pointers, run together (a 30-deep recursion, C++
# templates throwing exceptions, a dlopen loop and a late dlopen'ed library:
# frames in the programs, libc, libstdc++, libgcc_s, ld.so and the vdso), made
# into N samples by bench/dwarf-inflate.py (each sample repeated in place; both
# tools unwind every copy). Columns: perf report --stdio as is (perf 6.1 adds
# inlined frames through addr2line: its default) and with --no-inline (what
# sampo prints today; the two reports are checked equal).
#
# Environment: BUILDDIR (default: build) holds tools/sampo/sampo;
# SAMPO_BENCH_DIR (default: $BUILDDIR/bench-data) keeps the files (about 8.5 GB
# for 1M samples); PERF (default: perf). Prints a markdown table on stdout,
# progress on stderr.
set -euo pipefail

srcdir=$(cd "$(dirname "$0")/.." && pwd)
cd "$srcdir"
builddir=${BUILDDIR:-build}
datadir=${SAMPO_BENCH_DIR:-$builddir/bench-data}
sampo=$builddir/tools/sampo/sampo
perf=${PERF:-perf}
prog=run-dwarf.sh
gen=/dev/null
. bench/lib.sh

runs=1 samples=1000000 record_only=
while [ $# -gt 0 ]; do
	case $1 in
	-n) runs=$2; shift 2 ;;
	--samples) samples=$2; shift 2 ;;
	--quick) samples=50000; shift ;;
	--record-only) record_only=1; shift ;;
	-h|--help) sed -n '2,/^set /{/^set /d;s/^# \{0,1\}//;p}' "$0"; exit 0 ;;
	*) echo "$prog: unknown option '$1'" >&2; exit 129 ;;
	esac
done
[ -n "$record_only" ] || [ -x "$sampo" ] || { echo "$prog: no $sampo (build first)" >&2; exit 1; }
bin=$datadir/dwarf-bin
mkdir -p "$bin"

# ---- the workload ---------------------------------------------------------
# the programs of t7100/t7101 (tests/cli/progs/dwarf), dl with longer loops
cp "$srcdir"/tests/cli/progs/dwarf/* "$bin/"
cflags="-O2 -g -fomit-frame-pointer"
(cd "$bin" && gcc $cflags -o rec rec.c && g++ $cflags -o cxx cxx.cc &&
	gcc $cflags -fPIC -shared -o libplug.so plug.c && gcc $cflags -o dl dl.c -ldl)

base=$datadir/dwarf-base.data
if [ ! -s "$base" ]; then
	echo "$prog: recording $base" >&2
	HOME=$datadir "$perf" record -q -m 2048 -e cpu-clock -F 4000 --call-graph dwarf -o "$base" -- \
		sh -c "cd '$bin' && ./rec 30 80000 >/dev/null & cd '$bin' && ./cxx 200000 >/dev/null &
			cd '$bin' && ./dl '$bin/libplug.so' 6000000 6000 8000 >/dev/null & wait" 2>/dev/null
fi
[ -z "$record_only" ] || { echo "$base"; exit 0; }
f=$datadir/dwarf-$(count "$samples").data
if [ ! -s "$f" ] || [ "$f" -ot "$base" ]; then
	python3 bench/dwarf-inflate.py "$base" "$f.tmp" "$samples"
	mv "$f.tmp" "$f"
fi

# measure3 OUT CMD...: append "wall_s rss_kib cpu_s" (cpu: user + system) to OUT
measure3() {
	local out=$1 t0 t1
	shift
	t0=$EPOCHREALTIME
	/usr/bin/time -f "%M %U %S" -o "$out.rss" "$@" >/dev/null 2>"$out.err"
	t1=$EPOCHREALTIME
	tail -n 1 "$out.rss" | awk -v a="$t0" -v b="$t1" '{ printf "%.3f %d %.2f\n", b - a, $1, $2 + $3 }' >>"$out"
}

# ---- the runs -------------------------------------------------------------
export HOME=$datadir # both read the build-id cache perf record filled
rm -f "$datadir"/dw.{sampo,perf,perfni}{,.rss,.err}
for _ in $(seq "$runs"); do
	echo "$prog: sampo report" >&2
	measure3 "$datadir/dw.sampo" "$sampo" report --stdio -i "$f"
	echo "$prog: perf report --no-inline" >&2
	measure3 "$datadir/dw.perfni" "$perf" report --stdio --no-inline -i "$f"
	echo "$prog: perf report" >&2
	measure3 "$datadir/dw.perf" "$perf" report --stdio -i "$f"
done
# the same graphs as perf, on the processes perf's libunwind unwinds (it stops
# early in the first child the shell forks, see docs/performance.md)
"$sampo" report --stdio --comms cxx,dl -i "$f" 2>/dev/null | grep -v "^# Total Lost" \
	>"$datadir/dw.sampo.txt"
"$perf" report --stdio --no-inline --comms cxx,dl -i "$f" 2>/dev/null | head -n -3 |
	grep -v "^# Total Lost" >"$datadir/dw.perf.txt"
same=no
cmp -s "$datadir/dw.sampo.txt" "$datadir/dw.perf.txt" && same=yes

col() { cut -d' ' -f"$2" "$datadir/$1" | median; }
s_t=$(col dw.sampo 1) s_m=$(col dw.sampo 2) s_c=$(col dw.sampo 3)
p_t=$(col dw.perf 1) p_m=$(col dw.perf 2) p_c=$(col dw.perf 3)
n_t=$(col dw.perfni 1) n_m=$(col dw.perfni 2) n_c=$(col dw.perfni 3)
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", a / b }'; }
mib() { awk -v k="$1" 'BEGIN { printf "%.0f", k / 1024 }'; }
echo
echo "| $(count "$samples") samples, $(du -h "$f" | cut -f1) | wall s | CPU s | peak RSS MiB | perf / sampo wall | perf / sampo CPU | sampo / perf memory |"
echo "|---|---|---|---|---|---|---|"
echo "| sampo report --stdio | $s_t | $s_c | $(mib "$s_m") | | | |"
echo "| perf report --stdio | $p_t | $p_c | $(mib "$p_m") | $(ratio "$p_t" "$s_t")x | $(ratio "$p_c" "$s_c")x | $(ratio "$s_m" "$p_m") |"
echo "| perf report --stdio --no-inline | $n_t | $n_c | $(mib "$n_m") | $(ratio "$n_t" "$s_t")x | $(ratio "$n_c" "$s_c")x | $(ratio "$s_m" "$n_m") |"
echo
echo "same graphs as perf --no-inline (comms cxx,dl): $same; runs: $runs (median); load: $(cut -d' ' -f1-3 /proc/loadavg)"

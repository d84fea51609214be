#!/bin/bash
# t5002-record-stop: SIGINT, SIGTERM, the end of the attached process and `-- sleep` each end sampo record with a complete file that perf reads without a warning
. "$(dirname "$0")/lib.sh"

# grep_all ARGS: grep that reads all its input (grep -q would SIGPIPE the writer under pipefail)
grep_all() { grep "$@" >/dev/null; }

need_perf
burn=$SAMPO_BUILDDIR/demo/burn
[ -x "$burn" ] || skip "no demo/burn in the build"
export HOME=$tmpdir/home
mkdir -p "$HOME"
cd "$tmpdir"
"$SAMPO" record -q -e cpu-clock -o probe.data -- true >/dev/null 2>&1 || skip "sampo cannot record here"

# check FILE WHAT: perf reads every record of FILE and finds samples
check() {
	"$PERF" report -D -i "$1" >"$1.D" 2>"$1.err" || die "$2: perf report -D failed"
	[ ! -s "$1.err" ] || die "$2: perf report -D warned: $(head -3 "$1.err")"
	grep -q "PERF_RECORD_SAMPLE" "$1.D" || die "$2: no samples"
	run_sampo dump -i "$1" >/dev/null
}

# system-wide until SIGINT
# (the sleeps leave sampo time to set up, also under ASan on a busy machine)
"$SAMPO" record -q -a -e cpu-clock -F 1000 -o a.data 2>a.log & pid=$!
sleep 1
kill -INT $pid
rc=0; wait $pid || rc=$?
[ "$rc" = 0 ] || die "-a: exit $rc after SIGINT: $(cat a.log)"
check a.data "-a SIGINT"
grep -q "PERF_RECORD_COMM: " a.data.D || die "-a: no synthesized COMM of existing threads"

# attached to a process until SIGTERM, then until the process ends
"$burn" 100000 >/dev/null & victim=$!
"$SAMPO" record -q -e cpu-clock -F 1000 -p $victim -o p.data 2>p.log & pid=$!
sleep 1
kill -TERM $pid
rc=0; wait $pid || rc=$?
[ "$rc" = 0 ] || die "-p: exit $rc after SIGTERM: $(cat p.log)"
check p.data "-p SIGTERM"
grep -q "PERF_RECORD_MMAP2 $victim/$victim: .* r-xp .*demo/burn" p.data.D ||
	die "-p: no synthesized map of the attached process"
"$PERF" report --stdio -i p.data --sort sym 2>/dev/null | grep_all burn_leaf_alpha ||
	die "-p: samples do not resolve"

"$SAMPO" record -q -e cpu-clock -F 1000 -t $victim -o t.data 2>t.log & pid=$!
sleep 1
kill -KILL $victim
rc=0; wait $pid || rc=$?
wait $victim 2>/dev/null || true
[ "$rc" = 0 ] || die "-t: exit $rc when the thread ended: $(cat t.log)"
check t.data "-t, target gone"

# a command ended by sampo's SIGINT: the command gets SIGTERM, the file is complete
"$SAMPO" record -q -e cpu-clock -F 1000 -o c.data -- "$burn" 100000 >/dev/null 2>c.log & pid=$!
sleep 1
kill -INT $pid
rc=0; wait $pid || rc=$?
[ "$rc" = 143 ] || die "command: exit $rc after SIGINT, expected 143 (SIGTERM of the command)"
check c.data "command SIGINT"

# -- sleep: ends with the command
start=$(date +%s%N)
run_sampo record -q -a -e cpu-clock -F 1000 -o s.data -- sleep 0.3
ms=$((($(date +%s%N) - start) / 1000000))
[ "$ms" -lt 3000 ] || die "-- sleep 0.3 took $ms ms"
check s.data "-- sleep"
pass

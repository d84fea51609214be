#!/bin/bash
# t3009-switch-on-off: script --switch-on EVENT shows the samples after
# the first sample of EVENT, --switch-off EVENT stops at the next sample of
# EVENT until the next switch-on, and the switching samples are shown only
# with --show-on-off-events: as perf 6.1 (its evswitch) on the two-event
# fixture and on wild files (hardware groups, tracepoints, pipes); report
# --switch-on/--switch-off count the same samples, as perf's. An event
# the file lacks is an error naming the file's events. --switch-off alone
# stops for good (perf's drops only the one switching sample: see
# docs/sampo-script.md).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-wild.sh"
need_perf

dir=$(fixtures_dir)
export HOME=$tmpdir
fixture_cache "$HOME/.debug"
unset PERF_BUILDID_DIR
input=$dir/c-multi-event/perf.data

fails=0
check() {
	"$PERF" script -i "$input" "$@" >"$tmpdir/want" 2>/dev/null
	run_sampo script -i "$input" "$@" >"$tmpdir/got"
	[ -s "$tmpdir/want" ] || die "$*: perf printed nothing"
	compare_report "$tmpdir/want" "$tmpdir/got" "$*"
}
check --switch-on task-clock
check --switch-on task-clock --show-on-off-events
check --switch-on cpu-clock -F comm,tid,time,event,ip,sym
check --switch-on task-clock --switch-off cpu-clock
check --switch-on task-clock --switch-off cpu-clock --show-on-off-events
check --switch-on cpu-clock --switch-off task-clock -F event,time

wild_check() {
	local f
	f=$(wild_file "$1")
	shift
	perf_foreign script -i "$f" "$@" >"$tmpdir/want"
	sampo_wild script -i "$f" "$@" >"$tmpdir/got" 2>/dev/null
	[ -s "$tmpdir/want" ] || die "$(basename "$f") $*: perf printed nothing"
	compare_report "$tmpdir/want" "$tmpdir/got" "$(basename "$f") $*"
}
wild_check pdc__perf.data.hw_and_sw-3.4 --switch-on cpu-clock --switch-off cycles
wild_check pdc__perf.data.hw_and_sw-3.4 --switch-on cpu-clock --switch-off cycles --show-on-off-events
wild_check pdc__perf.data.busy.1-3.8 --switch-on cycles --switch-off branches
wild_check pp__parallel_static_gcc_perf.data.zstd --switch-on cycles --switch-off sched:sched_switch
wild_check pp__parallel_static_gcc_perf.data.zstd --switch-on sched:sched_switch --switch-off cycles \
	--show-on-off-events
[ "$fails" -eq 0 ] || die "$fails outputs differ from perf's"

# report: the same samples counted (perf drops them after the --time windows)
strip() { grep -v -e '^# (Tip' -e '^$' -e '^#$'; }
check_report() {
	"$PERF" report --stdio -i "$input" "$@" 2>/dev/null | strip >"$tmpdir/want"
	run_sampo report --stdio -i "$input" "$@" | strip >"$tmpdir/got"
	grep -q '%' "$tmpdir/want" || die "report $*: perf printed no row"
	compare_report "$tmpdir/want" "$tmpdir/got" "report $*"
}
check_report --switch-on task-clock
check_report --switch-on task-clock --switch-off cpu-clock
check_report --switch-on cpu-clock --switch-off task-clock --show-on-off-events -n
check_report --switch-on task-clock --group
check_report --switch-on task-clock --sort dso,sym --time 10%/2
f=$(wild_file pp__parallel_static_gcc_perf.data.zstd)
perf_foreign report --stdio -i "$f" --switch-on cycles --switch-off sched:sched_switch |
	strip >"$tmpdir/want"
sampo_wild report --stdio -i "$f" --switch-on cycles --switch-off sched:sched_switch 2>/dev/null |
	strip >"$tmpdir/got"
compare_report "$tmpdir/want" "$tmpdir/got" "report $(basename "$f")"
[ "$fails" -eq 0 ] || die "$fails reports differ from perf's"
expect_status 1 report -i "$input" --switch-off cycles
grep -q "^sampo report: --switch-off: '.*' has no event 'cycles' (its events: cpu-clock, task-clock)$" \
	"$tmpdir/stderr" || die "$(cat "$tmpdir/stderr")"
expect_status 129 report -i "$input" --switch-on task-clock --format pprof
# a pipe's events are known at its first sample: the same one line
rc=0
"$SAMPO" report -i - --switch-off cycles <"$dir/d-pipe-mode/perf.data" >/dev/null 2>"$tmpdir/err" || rc=$?
[ "$rc" -eq 1 ] || die "a pipe without the event: exit $rc"
[ "$(cat "$tmpdir/err")" = "sampo report: --switch-off: '-' has no event 'cycles' (its events: cpu-clock)" ] ||
	die "a pipe without the event: $(cat "$tmpdir/err")"

# a pipe, whose events come with its records (perf looks for them before it
# reads any and says "switch-on event not found"): the rule applied to every sample
f=$(wild_file pdc__perf.data.piped.hw_and_sw-3.4)
sampo_wild script -i - -F event,time <"$f" >"$tmpdir/all" 2>/dev/null
awk -v on=cpu-clock -v off=cycles '{ ev = $2; sub(/:$/, "", ev) }
	discarding { if (ev == on) discarding = 0; next }
	ev == off { discarding = 1; next }
	{ print }' discarding=1 "$tmpdir/all" >"$tmpdir/want"
sampo_wild script -i - -F event,time --switch-on cpu-clock --switch-off cycles <"$f" \
	>"$tmpdir/got" 2>/dev/null
[ -s "$tmpdir/want" ] && [ "$(wc -l <"$tmpdir/want")" -lt "$(wc -l <"$tmpdir/all")" ] ||
	die "the pipe's samples do not switch"
compare_files "$tmpdir/want" "$tmpdir/got"

# --switch-off alone: the samples before the first task-clock sample, then none
run_sampo script -i "$input" -F event --switch-off task-clock >"$tmpdir/got"
run_sampo script -i "$input" -F event >"$tmpdir/all"
awk '/task-clock/ { exit } { print }' "$tmpdir/all" >"$tmpdir/want"
[ -s "$tmpdir/want" ] || die "the fixture starts with task-clock"
compare_files "$tmpdir/want" "$tmpdir/got"

# an event the file lacks
expect_status 1 script -i "$input" --switch-on cycles
grep -q "^sampo script: --switch-on: '.*' has no event 'cycles' (its events: cpu-clock, task-clock)$" \
	"$tmpdir/stderr" || die "$(cat "$tmpdir/stderr")"
pass

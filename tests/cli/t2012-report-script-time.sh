#!/bin/bash
# t2012-report-script-time: --time keeps the samples in its windows, in report
# and script, as perf 6.1 keeps them: times in seconds (open at either end,
# several windows), shares of the recording from its first to its last
# sample (10%/2, 0%-10%,30%-40%, 50%), the table's header naming them
# ("(time slices: ...)"); script's times to the nanosecond (--ns), since the
# first sample (--reltime, its windows too) or the previous one (--deltatime).
# Compared with perf on the fixtures, with windows cut
# at their own samples' times; then the strings perf refuses, and shares of a
# pipe, which has no first and last times when the windows are set.
. "$(dirname "$0")/lib.sh"
need_perf

dir=$(fixtures_dir)
# perf and sampo share the build-id cache that `perf archive` made for the fixtures
export HOME=$tmpdir
fixture_cache "$HOME/.debug"
unset PERF_BUILDID_DIR

fails=0
compare() {
	local what=$1
	shift
	"$PERF" "$@" 2>/dev/null | perf_untip >"$tmpdir/want"
	run_sampo "$@" >"$tmpdir/got" 2>/dev/null
	compare_report "$tmpdir/want" "$tmpdir/got" "$what"
}
for f in a-syswide-cpuclock b-callchain-fp c-multi-event h-switch-ns-cgroup-syswide; do
	data=$dir/$f/perf.data
	# the times of the 10th, 20th, 30th and 40th samples, as perf prints them
	times=$("$PERF" script -i "$data" -F time 2>/dev/null | tr -d ' :' |
		sed -n '10p;20p;30p;40p' | tr '\n' ' ')
	read -r t10 t20 t30 t40 <<<"$times"
	[ -n "$t40" ] || die "$f: fewer than 40 samples"
	for w in "10%/2" "10%/1,10%/3" "0%-10%,30%-40%" "50%" "100%/1" "25%/4" "$t10,$t20" \
		",$t20" "$t30," "$t10,$t20 $t30,$t40"; do
		compare "$f --time '$w'" report --stdio -i "$data" --no-children --time "$w"
		compare "$f script --time '$w'" script -i "$data" --time "$w"
	done
done
# script's time column: to the nanosecond, since the first sample shown, since
# the previous one; --reltime's windows count from the first sample
for f in b-callchain-fp c-multi-event; do
	data=$dir/$f/perf.data
	for opts in "--ns" "--reltime" "--deltatime" "--reltime --ns" "--deltatime --ns" \
		"--reltime --time 0.1,0.2" "-F time,comm --ns" "--deltatime --time 10%/3"; do
		# shellcheck disable=SC2086 # word splitting of the options is wanted
		compare "$f script $opts" script -i "$data" $opts
	done
	compare "$f script --reltime two windows" script -i "$data" --reltime --time "0.1,0.2 0.3,0.35"
done
expect_status 129 script -i "$dir/b-callchain-fp/perf.data" --reltime --deltatime
grep -q -- "--reltime and --deltatime conflict" "$tmpdir/stderr" || die "$(cat "$tmpdir/stderr")"

# the header names the windows; the samples outside count nowhere
run_sampo report --stdio -i "$dir/b-callchain-fp/perf.data" --time 10%/2 >"$tmpdir/got" 2>/dev/null
grep -q "^# Samples: [0-9]*  of event 'cpu-clock' (time slices: 10%/2)$" "$tmpdir/got" ||
	die "no time slices in the header: $(grep '^# Samples' "$tmpdir/got")"
all=$(run_sampo script -i "$dir/b-callchain-fp/perf.data" -F time | wc -l)
part=$(run_sampo script -i "$dir/b-callchain-fp/perf.data" -F time --time 0%-50% | wc -l)
rest=$(run_sampo script -i "$dir/b-callchain-fp/perf.data" -F time --time 50%-100% | wc -l)
[ "$part" -gt 0 ] && [ "$rest" -gt 0 ] && [ $((part + rest)) -eq "$all" ] ||
	die "two halves keep $part and $rest samples of $all"
[ "$fails" -eq 0 ] || die "$fails outputs differ from perf's"

# refused: one line that says what a window is, exit 1
for w in 1.5 2,1 "1,3 2,4" 10%/11 0%/1 x% "10%,20%"; do
	expect_status 1 report --stdio -i "$dir/b-callchain-fp/perf.data" --time "$w"
	[ "$(wc -l <"$tmpdir/stderr")" -eq 1 ] && grep -q "invalid time '$w' (START,STOP" "$tmpdir/stderr" ||
		die "--time '$w': $(cat "$tmpdir/stderr")"
	expect_status 1 script -i "$dir/b-callchain-fp/perf.data" --time "$w"
	grep -q "invalid time '$w'" "$tmpdir/stderr" || die "script --time '$w': $(cat "$tmpdir/stderr")"
done
# a pipe's first and last times come after the windows are set: shares are refused, times work
"$PERF" inject -i "$dir/b-callchain-fp/perf.data" -o - >"$tmpdir/pipe" 2>/dev/null ||
	die "perf inject cannot make a pipe of the fixture"
expect_status 1 report --stdio -i - --time 10%/2 <"$tmpdir/pipe"
grep -q "no times of its first and last samples" "$tmpdir/stderr" ||
	die "a pipe's shares: $(cat "$tmpdir/stderr")"
times=$("$PERF" script -i "$dir/b-callchain-fp/perf.data" -F time 2>/dev/null | tr -d ' :' |
	sed -n '10p;20p' | tr '\n' ' ')
read -r t10 t20 <<<"$times"
"$PERF" report --stdio -i - --time "$t10,$t20" <"$tmpdir/pipe" 2>/dev/null | perf_untip \
	>"$tmpdir/want"
run_sampo report --stdio -i - --time "$t10,$t20" <"$tmpdir/pipe" >"$tmpdir/got" 2>/dev/null
grep -q '%' "$tmpdir/got" || die "a pipe's window keeps no sample"
compare_report "$tmpdir/want" "$tmpdir/got" "pipe --time '$t10,$t20'"
[ "$fails" -eq 0 ] || die "the pipe's report differs from perf's"
expect_status 1 report --stdio -i "$dir/b-callchain-fp/perf.data" -i "$dir/c-multi-event/perf.data" \
	--time 1,2
grep -q -- "--time cannot be used with several inputs" "$tmpdir/stderr" || die "$(cat "$tmpdir/stderr")"
pass

#!/bin/bash
# t7518-report-trace-fields: report's tracepoint fields as sort keys (perf's
# dynamic sort keys) and --raw-trace. A key is FIELD (that field of each
# tracepoint event that has one), EVENT.FIELD, EVENT.* or trace_fields (every
# field of every tracepoint event), with /raw for the value libtraceevent
# prints alone; EVENT is a full name, a part of one name, or %N. Each event's
# table has the columns of its own fields only, right-aligned, as wide as perf
# makes them (the name, the field's size in hex digits, the values, and a
# dynamic string's lengths where perf's comparisons reached the key). With
# --raw-trace the trace key prints every field raw, and a file whose events
# are all tracepoints is sorted by trace_fields by default. Compared with perf
# 6.1 on the corpus's uprobe and sched_switch files and on tracepoint
# recordings made here (file, with and without call chains); a pipe's fields
# are unknown when perf chooses its keys, so both refuse them there.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-wild.sh"

f=$(wild_file pp__probe.data.file)
g=$(wild_file pp__probe.data.stream)
p=$(wild_file pp__parallel_static_gcc_perf.data.zstd)

# the uprobe recording, by hand: one field, a u64 shown in hex ("0x" and 16
# digits wide), the same raw
want_probe() {
	cat <<'EOF'
# Overhead          __probe_ip
# ........  ..................
#
   100.00%      0x55d1db028560
EOF
}
for opts in "-s trace_fields" "--raw-trace" "-s __probe_ip/raw" "-s probe_untitled1:main.*"; do
	# shellcheck disable=SC2086 # word splitting of the options is wanted
	sampo_wild report --stdio $opts -i "$f" >"$tmpdir/got" 2>/dev/null
	grep -A3 '^# Overhead' "$tmpdir/got" >"$tmpdir/got.rows"
	want_probe >"$tmpdir/want.rows"
	compare_files "$tmpdir/want.rows" "$tmpdir/got.rows"
done
# the JSON rows carry the fields by name, and the keys as -s could name them
sampo_wild report --format json -s untitled1.__probe_ip -i "$f" >"$tmpdir/json" 2>/dev/null
grep -q '"sort": \["probe_untitled1:main.__probe_ip"\]' "$tmpdir/json" ||
	die "JSON sort: $(grep '"sort"' "$tmpdir/json")"
grep -q '"trace_fields": {"__probe_ip": "0x55d1db028560"}' "$tmpdir/json" ||
	die "JSON rows have no trace fields: $(grep overhead "$tmpdir/json")"

# wrong keys: one line that says what is wrong, exit 1
check_refused() {
	local key=$1 input=$2 want=$3
	expect_status 1 report --stdio -s "$key" -i "$input"
	[ "$(wc -l <"$tmpdir/stderr")" -eq 1 ] && grep -q -- "$want" "$tmpdir/stderr" ||
		die "-s $key: $(cat "$tmpdir/stderr")"
}
check_refused nosuch "$f" "unknown sort key 'nosuch'.*nor a field of a tracepoint event"
check_refused main.nosuch "$f" "probe_untitled1:main has no field 'nosuch'"
check_refused other.__probe_ip "$f" "no event 'other'"
check_refused __probe_ip/wide "$f" "unknown field option 'wide'"
check_refused cycles.prev_pid "$p" "cycles is not a tracepoint event"
check_refused %3.prev_pid "$p" "no event '%3'"
expect_status 1 report --stdio -s __probe_ip -i - <"$g"
grep -q "a pipe's tracepoint fields are not known" "$tmpdir/stderr" ||
	die "a pipe: $(cat "$tmpdir/stderr")"

need_perf
fails=0
# the corpus: the uprobe file, and sched_switch beside cycles (whose table
# has none of its columns; graphs left out with -g none: not this key's)
for opts in "-s trace_fields" "--raw-trace" "-s trace --raw-trace" "-s comm,__probe_ip" \
	"-s main.__probe_ip/raw,pid -n" "-s common_pid"; do
	# shellcheck disable=SC2086
	perf_foreign report --stdio $opts -i "$f" | perf_untip >"$tmpdir/want"
	# shellcheck disable=SC2086
	sampo_wild report --stdio $opts -i "$f" >"$tmpdir/got" 2>/dev/null
	compare_report "$tmpdir/want" "$tmpdir/got" "probe.data.file $opts"
done
for opts in "-s trace_fields" "-s prev_comm,comm" "-s sched:sched_switch.*" \
	"-s %2.prev_state/raw,next_pid" "-s next_comm,prev_state -n" "-s trace --raw-trace"; do
	# shellcheck disable=SC2086
	perf_foreign report --stdio -g none $opts -i "$p" | perf_untip >"$tmpdir/want"
	# shellcheck disable=SC2086
	sampo_wild report --stdio -g none $opts -i "$p" >"$tmpdir/got" 2>/dev/null
	compare_report "$tmpdir/want" "$tmpdir/got" "parallel_static -g none $opts"
done
[ "$fails" -eq 0 ] || die "$fails reports of the corpus differ from perf's"

# recordings made here: several tracepoints with numbers, strings, a
# dynamic string (exec's filename), a function pointer (hrtimer_start's,
# %ps in its print format, hex when raw), samples of equal weight (rows in
# perf's order: greater bytes first), with and without call chains
need_perf_record
"$PERF" record -q -e sched:sched_switch -o "$tmpdir/.tp" -- true >/dev/null 2>&1 ||
	skip "perf cannot record tracepoints here (no tracefs?)"
export HOME=$tmpdir/rec-home
mkdir -p "$HOME"
work='for i in 1 2 3 4 5; do sleep 0.01; done'
for name in plain chain; do
	rec=(-e sched:sched_switch -e sched:sched_process_exec -e sched:sched_process_fork
		-e timer:hrtimer_start)
	[ "$name" = plain ] || rec+=(-g)
	env -u MALLOC_PERTURB_ "$PERF" record -q "${rec[@]}" -o "$tmpdir/$name.data" \
		-- sh -c "$work" >/dev/null 2>&1
	for opts in "--raw-trace" "-s trace --raw-trace" "-s trace_fields" "-s trace_fields/raw" \
		"-s sched:sched_switch.prev_state/raw,next_comm" "-s %2.*,comm" "-s exec.*" \
		"-s common_pid,prev_pid/raw" "-n --raw-trace -s hrtimer_start.function" \
		"-s function,expires/raw" "-s child_comm,parent_pid" "--no-children -s prev_comm,sym" \
		"-s filename,pid" "-s pid,filename/raw" "-s comm,filename"; do
		# shellcheck disable=SC2086
		env -u MALLOC_PERTURB_ "$PERF" report --stdio $opts -i "$tmpdir/$name.data" \
			2>/dev/null | perf_untip >"$tmpdir/want"
		# shellcheck disable=SC2086
		run_sampo report --stdio $opts -i "$tmpdir/$name.data" >"$tmpdir/got" 2>/dev/null
		compare_report "$tmpdir/want" "$tmpdir/got" "$name $opts"
	done
	# the columns are there, with more than one row
	run_sampo report --stdio -s trace_fields -i "$tmpdir/$name.data" >"$tmpdir/got" 2>/dev/null
	grep -Eq '^# (Overhead|.*Self) +prev_comm +prev_pid +prev_prio +prev_state +next_comm' \
		"$tmpdir/got" || die "$name: no sched_switch columns: $(grep '^# [OC]' "$tmpdir/got")"
	[ "$(grep -c '%  *sh  ' "$tmpdir/got")" -ge 1 ] || die "$name: no rows of sh"
done
[ "$fails" -eq 0 ] || die "$fails reports differ from perf's"
pass

#!/bin/bash
# t7517-report-trace-sort: report's `trace` sort key (issue 12.6): a file whose
# events are all tracepoints is sorted by the samples' trace output by
# default, one row per distinct output under "Trace output", the column as
# wide as perf makes it (the header's width while perf has formatted no row:
# one sample); `--sort trace` anywhere, "N/A" for events that are not
# tracepoints; a pipe keeps comm,dso,sym (perf chooses before its events
# come). Compared with perf 6.1 on the corpus's uprobe file and pipe, on
# tracepoint recordings made here (file and pipe, with and without call
# chains), and on the fixtures' cpu-clock files.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-wild.sh"

# perf 6.1's own lines for the corpus's uprobe recording: one sample, so perf
# never formatted it while sorting and cuts it to the header's 12 columns
f=$(wild_file pp__probe.data.file)
g=$(wild_file pp__probe.data.stream)
sampo_wild report --stdio -i "$f" >"$tmpdir/probe" 2>/dev/null
cat >"$tmpdir/want.probe" <<'EOF'
# Overhead  Trace output
# ........  ............
#
   100.00%  (55d1db02856
EOF
grep -A3 '^# Overhead' "$tmpdir/probe" >"$tmpdir/got.probe"
compare_files "$tmpdir/want.probe" "$tmpdir/got.probe"
# the pipe: comm,dso,sym by default, the trace when asked
sampo_wild report --stdio -i - <"$g" >"$tmpdir/pipe" 2>/dev/null
grep -q '^# Overhead  Command    Shared Object     Symbol *$' "$tmpdir/pipe" ||
	die "a pipe's default is not comm,dso,sym: $(grep '^# Overhead' "$tmpdir/pipe")"
sampo_wild report --stdio -s trace -i - <"$g" >"$tmpdir/pipe" 2>/dev/null
grep -q '^   100.00%  (55cc51d1656$' "$tmpdir/pipe" || die "pipe -s trace: $(grep '%' "$tmpdir/pipe")"
# the JSON rows carry the whole text
sampo_wild report --format json -i "$f" >"$tmpdir/json" 2>/dev/null
grep -q '"sort": \["trace"\]' "$tmpdir/json" || die "JSON sort: $(grep '"sort"' "$tmpdir/json")"
grep -q '"trace": "(55d1db028560)"' "$tmpdir/json" || die "JSON rows have no trace"
# sampo diff has no trace key
expect_status 1 diff -s trace "$f" "$f"
grep -q "sort key 'trace'" "$tmpdir/stderr" || die "diff -s trace: $(cat "$tmpdir/stderr")"

need_perf
fails=0
# the corpus: the uprobe file and pipe, and the sched_switch file beside
# cycles (not all tracepoints: comm,dso,sym; the graphs left out with -g
# none, as they do not depend on this key)
p=$(wild_file pp__parallel_static_gcc_perf.data.zstd)
for opts in "" "-s trace" "-s comm,trace" "-s trace,pid -n"; do
	# shellcheck disable=SC2086 # word splitting of the options is wanted
	perf_foreign report --stdio $opts -i "$f" | perf_untip >"$tmpdir/want"
	# shellcheck disable=SC2086
	sampo_wild report --stdio $opts -i "$f" >"$tmpdir/got" 2>/dev/null
	compare_report "$tmpdir/want" "$tmpdir/got" "probe.data.file $opts"
	# shellcheck disable=SC2086
	perf_foreign report --stdio $opts -i - <"$g" | perf_untip >"$tmpdir/want"
	# shellcheck disable=SC2086
	sampo_wild report --stdio $opts -i - <"$g" >"$tmpdir/got" 2>/dev/null
	compare_report "$tmpdir/want" "$tmpdir/got" "probe.data.stream $opts"
	# shellcheck disable=SC2086
	perf_foreign report --stdio -g none $opts -i "$p" | perf_untip >"$tmpdir/want"
	# shellcheck disable=SC2086
	sampo_wild report --stdio -g none $opts -i "$p" >"$tmpdir/got" 2>/dev/null
	compare_report "$tmpdir/want" "$tmpdir/got" "parallel_static -g none $opts"
done

# --sort trace on files without tracepoints: one "N/A" row per key value of
# the other keys (the fixtures, recorded here with perf 6.1; their build-id
# cache names the call graphs' symbols)
dir=$(fixtures_dir)
mkdir -p "$tmpdir/home/.debug"
tar xjf "$dir/b-callchain-fp/perf.data.tar.bz2" -C "$tmpdir/home/.debug"
for x in a-syswide-cpuclock b-callchain-fp c-multi-event; do
	for opts in "-s trace" "-s comm,trace" "-s trace,sym" "-s trace -n --no-children"; do
		# shellcheck disable=SC2086
		HOME=$tmpdir/home "$PERF" report --stdio $opts -i "$dir/$x/perf.data" 2>/dev/null |
			perf_untip >"$tmpdir/want"
		# shellcheck disable=SC2086
		HOME=$tmpdir/home run_sampo report --stdio $opts -i "$dir/$x/perf.data" \
			>"$tmpdir/got" 2>/dev/null
		compare_report "$tmpdir/want" "$tmpdir/got" "$x $opts"
	done
done
run_sampo report --stdio -s trace -i "$dir/c-multi-event/perf.data" >"$tmpdir/got" 2>/dev/null
[ "$(grep -c '^   100.00%  N/A$' "$tmpdir/got")" -eq 2 ] ||
	die "not one N/A row per event of a file without tracepoints: $(grep '%' "$tmpdir/got")"

# recordings made here: tracepoints only, several samples of each event
# (rows of distinct outputs, columns as wide as the widest), %ps fields
# (hrtimer_start's function, named from this machine's kernel in file mode
# only, as perf), with and without call chains, in a file and a pipe
need_perf_record
"$PERF" record -q -e sched:sched_switch -o "$tmpdir/.tp" -- true >/dev/null 2>&1 ||
	skip "perf cannot record tracepoints here (no tracefs?)"
export HOME=$tmpdir/rec-home
mkdir -p "$HOME"
work='for i in 1 2 3 4 5; do sleep 0.01; done'
for name in plain chain pipe; do
	rec=(-e sched:sched_switch -e sched:sched_process_exec -e sched:sched_process_fork
		-e timer:hrtimer_start)
	[ "$name" = plain ] || rec+=(-g)
	if [ "$name" = pipe ]; then
		env -u MALLOC_PERTURB_ "$PERF" record -q "${rec[@]}" -o - -- sh -c "$work" \
			>"$tmpdir/$name.data" 2>/dev/null
	else
		env -u MALLOC_PERTURB_ "$PERF" record -q "${rec[@]}" -o "$tmpdir/$name.data" \
			-- sh -c "$work" >/dev/null 2>&1
	fi
	in=$tmpdir/$name.data
	[ "$name" = pipe ] && in=-
	for opts in "" "-s trace" "-s comm,trace" "-s trace,comm" "-s trace,dso" "-s trace,sym -n" \
		"--no-children" "--kallsyms /dev/null"; do
		# shellcheck disable=SC2086
		env -u MALLOC_PERTURB_ "$PERF" report --stdio $opts -i "$in" <"$tmpdir/$name.data" \
			2>/dev/null | perf_untip >"$tmpdir/want"
		# shellcheck disable=SC2086
		run_sampo report --stdio $opts -i "$in" <"$tmpdir/$name.data" >"$tmpdir/got" \
			2>/dev/null
		compare_report "$tmpdir/want" "$tmpdir/got" "$name $opts"
	done
	# the file's default table is perf's trace view, with more than one row
	if [ "$name" != pipe ]; then
		run_sampo report --stdio -i "$in" >"$tmpdir/got" 2>/dev/null
		grep -q 'Trace output' "$tmpdir/got" || die "$name: no trace view by default"
		[ "$(grep -c '%  prev_comm=' "$tmpdir/got")" -ge 2 ] ||
			die "$name: fewer than two sched_switch rows"
	fi
done
[ "$fails" -eq 0 ] || die "$fails reports differ from perf's"
pass

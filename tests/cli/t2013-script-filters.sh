#!/bin/bash
# t2013-script-filters: script's --comms (-c), --pid, --tid, --dsos, --symbols
# (-S) and --cpu (-C) print only the samples they keep, as perf 6.1's script:
# by the thread's command, process and thread, by the object of the sample's
# map (short or long name), by the sample's symbol (or exact address, for the
# entries that read as hex), by the CPU. Compared with perf on the fixtures, system-wide and
# per-task, with call chains and without, with folded stacks too; --header and
# --header-only print the file's header first, or alone, and --max-stack cuts
# the call chains, as perf does; --cpu on a
# file whose samples have no CPU is refused, as perf refuses it.
. "$(dirname "$0")/lib.sh"
need_perf

dir=$(fixtures_dir)
# perf and sampo share the build-id cache that `perf archive` made for the fixtures
export HOME=$tmpdir
fixture_cache "$HOME/.debug"
unset PERF_BUILDID_DIR

fails=0
check() {
	local f=$1
	shift
	"$PERF" script -i "$dir/$f/perf.data" "$@" >"$tmpdir/want" 2>/dev/null
	run_sampo script -i "$dir/$f/perf.data" "$@" >"$tmpdir/got" 2>/dev/null
	compare_report "$tmpdir/want" "$tmpdir/got" "$f $*"
}
for f in a-syswide-cpuclock b-callchain-fp c-multi-event g-switch-namespaces-task \
	h-switch-ns-cgroup-syswide; do
	for opts in "--comms swapper" "-c burn,sh" "--pid 0" "--tid 0" "--pid 1000,11049" \
		"--dsos [kernel.kallsyms]" "--dsos burn" "--dsos libc.so.6" \
		"--comms burn --dsos burn" "--comms burn -F comm,tid,ip,sym" \
		"-S burn_leaf_alpha,rcu_do_batch" "-S 0xffffffff821f4dab,burn_leaf_beta -G" \
		"--symbols 561531602169"; do
		# shellcheck disable=SC2086 # word splitting of the options is wanted
		check "$f" $opts
	done
done
for f in a-syswide-cpuclock h-switch-ns-cgroup-syswide; do
	check "$f" -C 1
	check "$f" --cpu 0-1 --comms swapper
done
# call chains cut at --max-stack entries
for n in 0 1 3; do
	check b-callchain-fp --max-stack "$n"
done
check b-callchain-fp --max-stack 2 -F comm,tid,ip,sym
# the file's header first, or alone (-I: the topologies too)
for f in a-syswide-cpuclock b-callchain-fp c-multi-event; do
	check "$f" --header
	check "$f" --header-only
	check "$f" --header -I -F comm,tid,ip,sym
done
expect_status 1 script --header -i - <"$dir/d-pipe-mode/perf.data"
grep -q -- "--header: '-' is a pipe, which is read once" "$tmpdir/stderr" ||
	die "script --header of a pipe: $(cat "$tmpdir/stderr")"
# what the filters keep is what folded stacks count
run_sampo script -i "$dir/b-callchain-fp/perf.data" --folded --dsos burn >"$tmpdir/folded"
kept=$(awk '{ n += $NF } END { print n }' "$tmpdir/folded")
all=$(run_sampo script -i "$dir/b-callchain-fp/perf.data" --folded | awk '{ n += $NF } END { print n }')
[ "$kept" -gt 0 ] && [ "$kept" -lt "$all" ] || die "--dsos burn folds $kept of $all samples"
[ "$fails" -eq 0 ] || die "$fails outputs differ from perf's"

# refused: --cpu of samples without CPUs, a bad id or CPU list
expect_status 1 script -i "$dir/b-callchain-fp/perf.data" -C 1
grep -q "has no CPU in its samples: remove --cpu" "$tmpdir/stderr" || die "$(cat "$tmpdir/stderr")"
"$PERF" script -i "$dir/b-callchain-fp/perf.data" -C 1 >"$tmpdir/perf.out" 2>&1 || true
grep -q "does not contain CPU" "$tmpdir/perf.out" || die "perf takes -C on a file without CPUs"
expect_status 1 script -i "$dir/a-syswide-cpuclock/perf.data" --pid x1
grep -q "invalid pid 'x1'" "$tmpdir/stderr" || die "$(cat "$tmpdir/stderr")"
expect_status 1 script -i "$dir/a-syswide-cpuclock/perf.data" -C 3-1
grep -q "cpu list" "$tmpdir/stderr" || die "$(cat "$tmpdir/stderr")"
pass

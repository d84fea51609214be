#!/bin/bash
# t6204-script-folded-flamegraph: sampo script --folded=flamegraph prints, byte for byte, what FlameGraph's stackcollapse-perf.pl makes of perf script's text, with each of its options, on the perf 6.1 fixtures and wild files with call chains (goldens made once by the Perl script: scripts/flamegraph-goldens.sh)
. "$(dirname "$0")/lib.sh"

fixtures=$(fixtures_dir)
need_cmd tar bzip2 gzip
golden_dir=$expected_dir/$test_name
archive=$(fixture b-callchain-fp/perf.data.tar.bz2)
[ -s "$golden_dir/FLAMEGRAPH-COMMIT" ] || die "no FLAMEGRAPH-COMMIT in '$golden_dir'"

# the fixtures' kernel and burn come from a build-id cache made by perf archive
export HOME=$tmpdir/home
unset PERF_BUILDID_DIR
mkdir -p "$HOME/.debug" "$tmpdir/empty"
tar -xjf "$archive" -C "$HOME/.debug"
kallsyms="$HOME/.debug/[kernel.kallsyms]/4a5a9b0affb66c437abcd455d2738af879985fa9/kallsyms"
[ -f "$kallsyms" ] || die "no kallsyms snapshot in '$archive'"

mapfile -t sets < <(grep -v '^#' "$golden_dir/sets.tsv")
[ "${#sets[@]}" -ge 10 ] || die "too few option sets in sets.tsv"

# check NAME FILE HOME SAMPO_ARGS...: each option set against its golden
checked=0
check() {
	local name=$1 file=$2 home=$3 line set so golden
	shift 3
	for line in "${sets[@]}"; do
		IFS=$'\t' read -r set _ so <<<"$line"
		[ "$so" = - ] && so=
		golden=$golden_dir/$name.$set.folded.gz
		[ -f "$golden" ] || die "missing golden '$golden' (scripts/flamegraph-goldens.sh makes it)"
		# shellcheck disable=SC2086 # the options are words
		HOME=$home run_sampo script -i "$file" "$@" --folded=flamegraph $so \
			>"$tmpdir/out" 2>"$tmpdir/err"
		gzip -dc "$golden" >"$tmpdir/want"
		compare_files "$tmpdir/want" "$tmpdir/out"
		checked=$((checked + 1))
	done
}

for name in b-callchain-fp d-pipe-mode e-compressed-zstd c-multi-event; do
	extra=()
	# no build-id table: the snapshot is named, as it was for perf
	case $name in d-pipe-mode | e-compressed-zstd) extra=(--kallsyms "$kallsyms") ;; esac
	check "$name" "$(fixture "$name/perf.data")" "$HOME" "${extra[@]}"
done

# wild files (perf 3.8 to 4.18) in an empty HOME: no symbols from this machine
wild=${SAMPO_SHARED:+$SAMPO_SHARED/fixtures/wild/files}
nwild=0
if [ -d "$wild" ]; then
	for name in pdc__perf.data.callgraph-3.8 pdc__perf.data.callgraph_and_branch-3.8 \
		pdc__with-callchain.perf.data pp__vector_static_gcc_perf.data; do
		[ -f "$wild/$name" ] || die "no wild file '$name'"
		check "$name" "$wild/$name" "$tmpdir/empty"
		nwild=$((nwild + 1))
	done
fi

# what the goldens hold is there: stacks with periods, _[k] with --kernel,
# comm-PID/TID with --tid, unresolved frames named after their object
d=$(fixture b-callchain-fp/perf.data)
run_sampo script -i "$d" --folded=flamegraph --kernel >"$tmpdir/b"
grep -q '^burn;__libc_start_call_main;main;burn_outer_delta;burn_leaf_alpha 200000000$' \
	"$tmpdir/b" || die "no user stack counted by period in b-callchain-fp"
grep -q ';asm_sysvec_apic_timer_interrupt_\[k\];' "$tmpdir/b" || die "no kernel frame marked _[k]"
run_sampo script -i "$d" --folded=flamegraph --include-tid >"$tmpdir/b"
grep -q '^burn-10988/10988;' "$tmpdir/b" || die "no comm-PID/TID with --include-tid"
gzip -dc "$golden_dir/d-pipe-mode.default.folded.gz" | grep -q ';\[burn\]' ||
	die "no unresolved frame named [burn] in d-pipe-mode's golden"
gzip -dc "$golden_dir/b-callchain-fp.event-task-clock.folded.gz" | cmp -s - /dev/null ||
	die "b-callchain-fp has no task-clock samples, yet its golden has stacks"

# a pipe, read as a stream
cat "$(fixture d-pipe-mode/perf.data)" |
	"$SAMPO" script --folded=flamegraph --kallsyms "$kallsyms" >"$tmpdir/pipe" ||
	die "'cat | sampo script --folded=flamegraph' failed"
gzip -dc "$golden_dir/d-pipe-mode.default.folded.gz" >"$tmpdir/want"
compare_files "$tmpdir/want" "$tmpdir/pipe"

# -F gives the text read: without period, each sample counts 1
run_sampo script -i "$d" -F comm,tid,time,event,ip,sym,dso --folded=flamegraph >"$tmpdir/F"
n=$(awk '{ s += $NF } END { print s }' "$tmpdir/F")
[ "$n" = 351 ] || die "-F without period: $n samples folded, perf report says 351"

# options of the other script, or without --folded
expect_status 129 script -i "$d" --jit
grep -q "go with --folded" "$tmpdir/stderr" || die "no clear message for --jit alone"
expect_status 129 script -i "$d" --folded --addrs
grep -q "use --folded=flamegraph" "$tmpdir/stderr" || die "no clear message for --folded --addrs"
expect_status 129 script -i "$d" --folded=flamegraph --no-comm
expect_status 129 script -i "$d" --folded=flamegraph --tidy-java
expect_status 129 script -i "$d" --folded=pl
grep -q "perf or flamegraph" "$tmpdir/stderr" || die "no list of styles for --folded=pl"
# --folded=perf is --folded
run_sampo script -i "$d" --folded=perf >"$tmpdir/p1"
run_sampo script -i "$d" --folded >"$tmpdir/p2"
compare_files "$tmpdir/p2" "$tmpdir/p1"

say "$checked outputs ($nwild wild files), FlameGraph $(cat "$golden_dir/FLAMEGRAPH-COMMIT")"
pass

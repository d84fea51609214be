#!/bin/bash
# t6200-script-folded: sampo script --folded prints, byte for byte, what perf 6.1's stackcollapse script makes of the same file (perf script -s stackcollapse.py), with its options, on every fixture and on the wild files perf and sampo script alike
. "$(dirname "$0")/lib.sh"

fixtures=$(fixtures_dir)
need_cmd tar bzip2 gzip
archive=$(fixture b-callchain-fp/perf.data.tar.bz2)

# the fixtures' kernel and burn come from a build-id cache made by perf archive
export HOME=$tmpdir/home
unset PERF_BUILDID_DIR
mkdir -p "$HOME/.debug"
tar -xjf "$archive" -C "$HOME/.debug"
kallsyms="$HOME/.debug/[kernel.kallsyms]/4a5a9b0affb66c437abcd455d2738af879985fa9/kallsyms"
[ -f "$kallsyms" ] || die "no kallsyms snapshot in '$archive'"

# perf's own script, where Debian's linux-perf puts it (perf script -l lists it)
stackcollapse=
if [ -n "${PERF:-}" ] && [ -x "$PERF" ]; then
	for s in /usr/lib/perf-core/scripts/python/stackcollapse.py \
		/usr/libexec/perf-core/scripts/python/stackcollapse.py; do
		[ -f "$s" ] && stackcollapse=$s && break
	done
	[ -n "$stackcollapse" ] || die "perf is installed without its stackcollapse.py"
fi

golden_dir=$expected_dir/$test_name
sets=("" "--kernel" "--include-pid --include-tid" "--include-tid" "--no-comm" "--tidy-java"
	"--kernel --include-pid")
set_name() { local n=${1//--/}; n=${n// /+}; echo "${n:-default}"; }

# check FILE NAME OPTIONS...: sampo against perf's script (live) and the golden
# file perf made; extra sampo/perf arguments in the array extra
checked=0
check() {
	local f=$1 name=$2 golden
	shift 2
	run_sampo script -i "$f" "${extra[@]}" --folded "$@" >"$tmpdir/out" 2>"$tmpdir/err"
	golden=$golden_dir/$name.$(set_name "$*").folded.gz
	if [ -n "$SAMPO_UPDATE_GOLDEN" ] && [ -n "$stackcollapse" ]; then
		# goldens come from perf's stackcollapse.py, never from sampo
		mkdir -p "$golden_dir"
		env -u MALLOC_PERTURB_ "$PERF" script -i "$f" "${extra[@]}" -s "$stackcollapse" \
			-- "$@" 2>/dev/null | gzip -n -9 >"$golden"
	fi
	if [ -f "$golden" ]; then
		gzip -dc "$golden" >"$tmpdir/want"
		compare_files "$tmpdir/want" "$tmpdir/out"
	elif [ -z "$stackcollapse" ]; then
		die "missing golden '$golden' (SAMPO_UPDATE_GOLDEN=1 makes it with perf)"
	fi
	if [ -n "$stackcollapse" ]; then
		env -u MALLOC_PERTURB_ "$PERF" script -f -i "$f" "${extra[@]}" -s "$stackcollapse" \
			-- "$@" >"$tmpdir/want" 2>/dev/null || die "$name: perf's stackcollapse failed"
		compare_files "$tmpdir/want" "$tmpdir/out"
	fi
	checked=$((checked + 1))
}

for dir in "$fixtures"/*/; do
	name=$(basename "$dir")
	[ -f "$dir/perf.data" ] || continue
	extra=()
	# no build-id table: the snapshot has to be named (sampo never guesses a kernel)
	case $name in d-pipe-mode | e-compressed-zstd) extra=(--kallsyms "$kallsyms") ;; esac
	for s in "${sets[@]}"; do
		# shellcheck disable=SC2086 # the options are words
		check "$dir/perf.data" "$name" $s
	done
done
[ "$checked" -gt 0 ] || skip "no fixtures"

# what the test checks is really there: kernel frames with _[k], callchains,
# the samples of both events of c-multi-event counted together
d=$fixtures/b-callchain-fp/perf.data
extra=()
run_sampo script -i "$d" --folded --kernel >"$tmpdir/b.k"
grep -q '^burn;__libc_start_call_main;main;burn_outer_delta;burn_leaf_alpha [0-9]' "$tmpdir/b.k" ||
	die "no user call chain in b-callchain-fp's folded stacks"
grep -q ';asm_sysvec_apic_timer_interrupt_\[k\];' "$tmpdir/b.k" ||
	die "no kernel frame marked _[k]"
n=$(awk '{ s += $NF } END { print s }' "$tmpdir/b.k")
[ "$n" = 351 ] || die "b-callchain-fp: $n samples in the folded stacks, perf report says 351"
run_sampo script -i "$fixtures/c-multi-event/perf.data" --folded >"$tmpdir/c"
[ "$(cat "$tmpdir/c")" = "burn 420" ] || die "c-multi-event: $(cat "$tmpdir/c")"

# a pipe
cat "$fixtures/d-pipe-mode/perf.data" |
	"$SAMPO" script --folded --kallsyms "$kallsyms" >"$tmpdir/pipe" || die "'cat | sampo script --folded' failed"
gzip -dc "$golden_dir/d-pipe-mode.default.folded.gz" >"$tmpdir/want"
compare_files "$tmpdir/want" "$tmpdir/pipe"

# options that need --folded, or do not go together
expect_status 129 script -i "$d" --kernel
grep -q "go with --folded" "$tmpdir/stderr" || die "no clear message for --kernel alone"
expect_status 129 script -i "$d" --folded --no-comm --include-tid
expect_status 129 script -i "$d" --folded -F ip,sym

# The wild files (other machines, perf 3.2 to 6.12) where perf 6.1 reads the
# file and prints the same samples as sampo script: the same folded stacks,
# kernel frames marked. A private empty HOME: no symbols from this machine.
wild=${SAMPO_SHARED:+$SAMPO_SHARED/fixtures/wild/files}
if [ -n "$stackcollapse" ] && [ -d "$wild" ]; then
	export HOME=$tmpdir/empty
	mkdir -p "$HOME"
	extra=()
	nwild=0
	for n in hs__perf.data.true.v2 lpd__sleep.compressed.pipe.data \
		pdc__multi-event-single-process.perf.data pdc__perf.data.armv7-3.4 \
		pdc__perf.data.branch-4.14 pdc__perf.data.busy.0-3.8 pdc__perf.data.callgraph-3.8 \
		pdc__perf.data.callgraph_and_branch-3.8 pdc__perf.data.ctx_switch_namespaces-4.14 \
		pdc__perf.data.group_desc-4.14 pdc__perf.data.hybrid_topology pdc__perf.data.i686-3.4 \
		pdc__perf.data.piped.header_features_aligned-6.12 pdc__perf.data.systemwide.5-3.8 \
		pdc__perf.data.throttle-3.8 pdc__single-event-multi-process.perf.data \
		pdc__with-callchain.perf.data pp__vector_static_clang_perf.data \
		pp__vector_static_gcc_perf.data; do
		[ -f "$wild/$n" ] || die "no wild file '$n'"
		run_sampo script -i "$wild/$n" --folded --kernel --include-pid --include-tid \
			>"$tmpdir/out" 2>"$tmpdir/err"
		env -u MALLOC_PERTURB_ "$PERF" script -f -i "$wild/$n" -s "$stackcollapse" -- \
			--kernel --include-pid --include-tid >"$tmpdir/want" 2>/dev/null ||
			die "$n: perf's stackcollapse failed"
		compare_files "$tmpdir/want" "$tmpdir/out"
		nwild=$((nwild + 1))
	done
	say "$nwild wild files"
fi
say "$checked fixture outputs"
pass

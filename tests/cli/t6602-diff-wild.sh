#!/bin/bash
# t6602-diff-wild: sampo diff on pairs of the wild files (other machines, perf 3.4 to
# 6.12): the same table as perf diff where perf 6.1 reads both files and neither
# has a [vdso] perf symbolizes from this machine (docs/sampo-diff.md); files perf
# refuses are read without a crash; the v1 format (PERFFILE) too
. "$(dirname "$0")/lib.sh"
need_perf

wild=${SAMPO_SHARED:+$SAMPO_SHARED/fixtures/wild/files}
[ -n "$wild" ] && [ -d "$wild" ] || skip "no wild files"
# an empty HOME: neither tool finds symbols on this machine by accident
export HOME=$tmpdir/home
mkdir -p "$HOME"
unset PERF_BUILDID_DIR

fails=0
checked=0
pairs=("pdc__perf.data.busy.0-3.4 pdc__perf.data.busy.1-3.4"
	"pdc__perf.data.busy.0-3.8 pdc__perf.data.busy.1-3.8"
	"pdc__perf.data.systemwide.0-3.8 pdc__perf.data.systemwide.1-3.8"
	"pp__vector_static_gcc_perf.data pp__vector_static_clang_perf.data"
	"pdc__perf.data.hw_and_sw-3.4 pdc__perf.data.i686-3.4"
	"pdc__multi-event-single-process.perf.data pdc__single-event-single-process.perf.data"
	"pdc__perf.data.armv7-3.4 pdc__perf.data.group_desc-4.14"
	"pdc__with-callchain.perf.data pdc__single-event-multi-process.perf.data")
for pair in "${pairs[@]}"; do
	read -r a b <<<"$pair"
	[ -e "$wild/$a" ] && [ -e "$wild/$b" ] || skip "no wild file '$a' or '$b'"
	for opts in "" "-c ratio -p -F"; do
		# perf's -f: the files are not the user's (sampo does not ask)
		# shellcheck disable=SC2086 # word splitting of the options is wanted
		"$PERF" diff -f $opts "$wild/$a" "$wild/$b" >"$tmpdir/want" 2>/dev/null ||
			die "perf diff $opts $a $b failed"
		# shellcheck disable=SC2086
		run_sampo diff $opts "$wild/$a" "$wild/$b" >"$tmpdir/out" 2>/dev/null
		checked=$((checked + 1))
		if ! cmp -s "$tmpdir/want" "$tmpdir/out"; then
			echo "# diff $opts $a $b: sampo differs from perf" >&2
			diff -u "$tmpdir/want" "$tmpdir/out" | head -20 >&2
			fails=$((fails + 1))
		fi
	done
done
say "$checked comparisons with perf diff"
[ "$fails" -eq 0 ] || die "$fails of $checked tables differ from perf diff's"

# files perf 6.1 refuses (newer ABI) or cannot pair: compressed, pipe mode, perf 6.x
for pair in "lpd__sleep.data lpd__sleep.compressed.data" \
	"lpd__sleep.compressed.pipe.data lpd__sleep.compressed2.data" \
	"pp__cpp-inlining.perf.data pp__fork_static_gcc_perf.data.zstd" \
	"pdc__perf.data.intel_pt-4.14 pdc__perf.data.branch-4.14"; do
	read -r a b <<<"$pair"
	[ -e "$wild/$a" ] && [ -e "$wild/$b" ] || continue
	run_sampo diff "$wild/$a" "$wild/$b" >"$tmpdir/out" 2>"$tmpdir/err"
	grep -q "^# Event '" "$tmpdir/out" || die "no table for $a $b: $(head -3 "$tmpdir/err")"
done

# the v1 format (magic PERFFILE) is read: perf diff's table
"$PERF" diff -f "$wild/hs__perf.data.true.v1" "$wild/hs__perf.data.true.v2" >"$tmpdir/want" 2>/dev/null ||
	die "perf diff v1 v2 failed"
run_sampo diff "$wild/hs__perf.data.true.v1" "$wild/hs__perf.data.true.v2" >"$tmpdir/out" 2>/dev/null
compare_files "$tmpdir/want" "$tmpdir/out"
pass

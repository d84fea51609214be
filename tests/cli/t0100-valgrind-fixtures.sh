#!/bin/bash
# t0100-valgrind-fixtures: every reading command runs valgrind-clean (no invalid
# read or write, no use of uninitialised memory, no definite or indirect leak) on
# every perf 6.1 fixture and on one real file of each class in the wild corpus
# (old pipe mode, the v1 PERFFILE format, armv7 and i686, branch stacks, Intel PT,
# COMPRESSED and COMPRESSED2, a truncated pipe, hybrid topology).
#
# valgrind cannot run a sanitizer build: there the test skips, and the sanitizers
# check the same runs in their own way.
. "$(dirname "$0")/lib.sh"

need_cmd valgrind
# (grep without -q reads all of ldd: -q would end the pipe early, and pipefail takes
# ldd's SIGPIPE for a failure, so a sanitizer build was sometimes not skipped)
if ldd "$SAMPO" 2>/dev/null | grep -e libasan -e libubsan >/dev/null; then
	skip "sanitizer build: valgrind cannot run it (ASan checks these runs instead)"
fi
d=$(fixtures_dir)
wild=$SAMPO_SHARED/fixtures/wild/files

files=$(ls "$d"/*/perf.data)
for w in pdc__perf.data.piped.target-3.4 hs__perf.data.true.v1 pdc__perf.data.armv7-3.4 \
	pdc__perf.data.i686-3.4 pdc__perf.data.branch_stack_hw_index pdc__perf.data.intel_pt-4.14 \
	lpd__fibo.compressed2.pipe.data lpd__sleep.compressed.data \
	pdc__perf.data.piped.corrupted.zero_size_sample-3.2 pdc__perf.data.hybrid_topology; do
	[ -e "$wild/$w" ] || die "wild file $w is missing from $wild"
	files="$files $wild/$w"
done

# 99: valgrind found an error; sampo's own exit status (a damaged file may
# rightly fail) is not what this test checks.
vg() {
	local rc=0
	valgrind --quiet --error-exitcode=99 --leak-check=full \
		--errors-for-leak-kinds=definite,indirect --show-leak-kinds=definite,indirect \
		--log-file="$tmpdir/vg.log" "$SAMPO" "$@" >/dev/null 2>"$tmpdir/stderr" || rc=$?
	if [ "$rc" -eq 99 ] || [ "$rc" -ge 128 ]; then
		cat "$tmpdir/vg.log" >&2
		die "valgrind: 'sampo $*' (exit $rc)"
	fi
	runs=$((runs + 1))
}

runs=0
for f in $files; do
	vg report --stdio -i "$f"
	vg script -i "$f"
	vg dump -i "$f"
	vg header -I -i "$f"
	vg buildid-list -i "$f"
done
vg report --stdio -g -i "$d/b-callchain-fp/perf.data"
vg report --stdio --children -g caller -i "$d/b-callchain-fp/perf.data"
say "$runs runs valgrind-clean"
pass

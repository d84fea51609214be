#!/bin/bash
# t2002-report-perf-record: on files that perf records here and now (the demo workload, with
# and without callchains, and the whole system), sampo report prints what perf report prints
. "$(dirname "$0")/lib.sh"
need_perf_record
need_cmd python3

burn=$SAMPO_BUILDDIR/demo/burn
[ -x "$burn" ] || skip "no demo workload at $burn"
export HOME=$tmpdir # a fresh build-id cache, filled by perf record
unset PERF_BUILDID_DIR

fails=0
# check FILE [REPORT OPTIONS...]; rows_ok=--rows before it forgives the order
# of rows of equal weight too (whole-system recordings only, see graph-canon.py)
rows_ok=
check() {
	local f=$1
	shift
	"$PERF" report --stdio -i "$f" "$@" 2>/dev/null | head -n -3 >"$tmpdir/want"
	"$SAMPO" report --stdio -i "$f" "$@" >"$tmpdir/out" 2>"$tmpdir/err" ||
		die "sampo report -i $f $* failed: $(cat "$tmpdir/err")"
	if ! diff -u "$tmpdir/want" "$tmpdir/out" >"$tmpdir/diff"; then
		# perf orders call graph branches of equal weight by the heap
		# address of their DSOs: another order of such ties is no difference
		if graph_ties_only "$tmpdir/want" "$tmpdir/out"; then
			echo "# $(basename "$f") $*: tied branches in another order than perf's" >&2
			return
		fi
		if [ -n "$rows_ok" ] && graph_ties_only "$tmpdir/want" "$tmpdir/out" --rows; then
			echo "# $(basename "$f") $*: rows of equal weight in another order than perf's" >&2
			return
		fi
		# perf 6.1 names a PLT stub NAME@plt or _init, depending on the binary;
		# sampo always NAME@plt (docs/report-differences.md)
		if python3 "$SAMPO_SRCDIR/tests/cli/plt-canon.py" report "$tmpdir/want" "$tmpdir/out" \
			>"$tmpdir/plt"; then
			echo "# $(basename "$f") $*: differs from perf's only by PLT stub names" >&2
			return
		fi
		echo "# $(basename "$f") $*: sampo differs from perf" >&2
		head -40 "$tmpdir/diff" >&2
		fails=$((fails + 1))
	fi
}

"$PERF" record -q -e cpu-clock -F 2000 -o "$tmpdir/plain.data" -- "$burn" 300 >/dev/null 2>&1 ||
	die "perf record failed"
"$PERF" record -q -e cpu-clock -F 2000 -g -o "$tmpdir/g.data" -- "$burn" 300 >/dev/null 2>&1 ||
	die "perf record -g failed"
"$PERF" record -q -e cpu-clock -F 1000 -a -g -o "$tmpdir/a.data" -- "$burn" 200 >/dev/null 2>&1 ||
	die "perf record -a failed"

check "$tmpdir/plain.data"
check "$tmpdir/plain.data" --sort dso,sym -n
check "$tmpdir/g.data"
check "$tmpdir/g.data" --no-children
check "$tmpdir/g.data" -g caller --no-children
# the whole system: other processes' rows of equal weight may come in
# another order than perf's (docs/report-differences.md)
rows_ok=--rows
check "$tmpdir/a.data"
check "$tmpdir/a.data" --no-children
check "$tmpdir/a.data" --sort pid,dso

[ "$fails" -eq 0 ] || die "$fails reports differ from perf's"
pass

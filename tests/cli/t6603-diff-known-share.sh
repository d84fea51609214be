#!/bin/bash
# t6603-diff-known-share: sampo diff on synthetic files whose difference is known
# (mkperfdata --alpha N: N of every 4 samples in burn_leaf_alpha, the others in
# burn_leaf_beta, 1 ms of cpu-clock and 0.1 ms of task-clock each): the tables
# worked out by hand, and perf diff's where perf is installed
. "$(dirname "$0")/lib.sh"

mk=$SAMPO_BUILDDIR/tests/tools/mkperfdata
[ -x "$mk" ] || die "no mkperfdata at '$mk'"
dir=$(fixtures_dir)
# burn's symbols come from the build-id cache that `perf archive` made for the fixtures
export HOME=$tmpdir
mkdir -p "$HOME/.debug"
tar xjf "$dir/b-callchain-fp/perf.data.tar.bz2" -C "$HOME/.debug"
unset PERF_BUILDID_DIR
for n in 0 1 2 3; do
	"$mk" --alpha "$n" --samples 400 -o "$tmpdir/a$n.data" >/dev/null || die "mkperfdata failed"
done

# alpha from 25% to 75% of 200 samples an event: +50 points, 3 times the period;
# beta the opposite
cat >"$tmpdir/want-ratio" <<'T'
# Event 'cpu-clock'
#
# Baseline     Base period           Ratio          Period  Shared Object  Symbol             
# ........  ..............  ..............  ..............  .............  ...................
#
    25.00%        50000000        3.000000       150000000  burn           [.] burn_leaf_alpha
    75.00%       150000000        0.333333        50000000  burn           [.] burn_leaf_beta

# Event 'task-clock'
#
# Baseline     Base period           Ratio          Period  Shared Object  Symbol             
# ........  ..............  ..............  ..............  .............  ...................
#
    25.00%         5000000        3.000000        15000000  burn           [.] burn_leaf_alpha
    75.00%        15000000        0.333333         5000000  burn           [.] burn_leaf_beta
T
run_sampo diff -c ratio -p "$tmpdir/a1.data" "$tmpdir/a3.data" >"$tmpdir/out"
compare_files "$tmpdir/want-ratio" "$tmpdir/out"

# three files: alpha absent from the baseline (a row of the new files only, its
# ratio N/A), then at 25% and 50%; beta from 100% to 75% and 50%. -o 2 sorts by
# the last file's delta: alpha +50 before beta -50.
# the columns: Baseline/0 (10 wide), Delta/1 (7), Formula/1 (70), Delta/2, Formula/2,
# Shared Object (13), Symbol, two spaces before each
row() {
	printf '  %10s  %7s  %70s  %7s  %70s  %-13s  %s\n' "$@"
}
{
	row "" +25.00% "(50000000 * 100 / 200000000) - (0 * 100 / 200000000)" \
		+50.00% "(100000000 * 100 / 200000000) - (0 * 100 / 200000000)" \
		burn "[.] burn_leaf_alpha"
	row 100.00% -25.00% "(150000000 * 100 / 200000000) - (200000000 * 100 / 200000000)" \
		-50.00% "(100000000 * 100 / 200000000) - (200000000 * 100 / 200000000)" \
		burn "[.] burn_leaf_beta"
} >"$tmpdir/want-three"
run_sampo diff -q -c delta -F -o 2 "$tmpdir/a0.data" "$tmpdir/a1.data" "$tmpdir/a2.data" \
	>"$tmpdir/out3"
head -2 "$tmpdir/out3" >"$tmpdir/out3-cpu"
compare_files "$tmpdir/want-three" "$tmpdir/out3-cpu"

if [ -n "${PERF:-}" ] && [ -x "$PERF" ]; then
	"$PERF" diff -c ratio -p "$tmpdir/a1.data" "$tmpdir/a3.data" >"$tmpdir/perf" 2>/dev/null
	compare_files "$tmpdir/perf" "$tmpdir/out"
	"$PERF" diff -q -c delta -F -o 2 "$tmpdir/a0.data" "$tmpdir/a1.data" "$tmpdir/a2.data" \
		>"$tmpdir/perf3" 2>/dev/null
	compare_files "$tmpdir/perf3" "$tmpdir/out3"
fi
pass

#!/bin/bash
# t1004-report-stats: `sampo report --stats` (and `sampo dump --stats`) prints
# the counts of the records by type and of the samples by event, as perf 6.1's
# `perf report --stats`, LOST_SAMPLES records per event included (which
# `perf report -D` leaves out). Compared with perf on the fixtures and on wild
# files of perf 3.2 to 6.x: pipes, compressed, other architectures, groups,
# branch stacks, lost samples.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-wild.sh"
need_perf

dir=$(fixtures_dir)
fails=0
for f in "$dir"/*/perf.data; do
	"$PERF" report -i "$f" --stats >"$tmpdir/want" 2>/dev/null
	run_sampo report -i "$f" --stats >"$tmpdir/got"
	grep -q '^Aggregated stats:$' "$tmpdir/want" || die "$f: perf printed no stats"
	compare_report "$tmpdir/want" "$tmpdir/got" "$(basename "$(dirname "$f")") --stats"
done
for name in hs__perf.data.true.v2 pdc__multi-event-single-process.perf.data \
	pdc__perf.data.armv7-3.4 pdc__perf.data.branch_stack_hw_index pdc__perf.data.busy.1-3.8 \
	pdc__perf.data.callgraph-3.4 pdc__perf.data.group_desc-4.14 pdc__perf.data.hybrid_topology \
	pdc__perf.data.i686-3.4 pdc__perf.data.lost_samples-4.4 \
	pdc__perf.data.piped.lost_samples-4.4 pdc__perf.data.piped.target-3.8 \
	pdc__perf.data.numatopology-3.2 pdc__perf.data.weight_struct \
	pp__parallel_static_gcc_perf.data.zstd pp__probe.data.file; do
	f=$(wild_file "$name")
	perf_foreign report -i "$f" --stats >"$tmpdir/want"
	sampo_wild report -i "$f" --stats >"$tmpdir/got"
	grep -q '^Aggregated stats:$' "$tmpdir/want" || die "$name: perf printed no stats"
	compare_report "$tmpdir/want" "$tmpdir/got" "$name --stats"
done
[ "$fails" -eq 0 ] || die "$fails outputs differ from perf's"

# the per-event LOST_SAMPLES lines are --stats' own: the dump's end has none
f=$(wild_file pdc__perf.data.lost_samples-4.4)
sampo_wild report -i "$f" --stats >"$tmpdir/stats"
[ "$(grep -c '^    LOST_SAMPLES events:          1$' "$tmpdir/stats")" = 2 ] ||
	die "not one lost sample record under each of two events: $(cat "$tmpdir/stats")"
sampo_wild dump -i "$f" | sed -n '/^Aggregated stats:$/,$p' >"$tmpdir/dump-stats"
grep -q LOST_SAMPLES "$tmpdir/dump-stats" || die "the dump's stats lost their LOST_SAMPLES total"
[ "$(grep -c LOST_SAMPLES "$tmpdir/dump-stats")" = 1 ] || die "the dump counts lost samples by event"
# the alias and dump's own option print the same
sampo_wild dump --stats -i "$f" | cmp -s - "$tmpdir/stats" || die "dump --stats differs from report --stats"
pass

#!/bin/bash
# t2011-report-graph-modes: report's -g fractal and -g flat give perf 6.1's
# text. Fractal: each share is of the parent's callees (the first level of the
# entry), the threshold too, and what it hides is one "[...]" line with its
# share; every entry has its graph, however small. Flat: one chain per node
# with samples of its own, by those samples, its share of the total counting
# its callees, then a frame a line, root first. Compared on the fixture with
# frame-pointer chains (its build-id cache names the frames) in children and
# self mode, both orders, several thresholds and keys, and on the corpus's
# chains from perf 3.4 to 6.x, unsymbolized.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-wild.sh"
need_perf

dir=$(fixtures_dir)
# perf and sampo share the build-id cache that `perf archive` made for the fixtures
export HOME=$tmpdir
fixture_cache "$HOME/.debug"
unset PERF_BUILDID_DIR
f=$dir/b-callchain-fp/perf.data

# perf 6.1's "[...]" line names a symbol perf never initializes (its
# init_rem_hits() mallocs it), so it reads " (inlined)" after it whenever that
# memory's flag is set (always under MALLOC_PERTURB_): sampo prints "[...]"
perf_rem() {
	sed 's/\[\.\.\.\] (inlined)$/[...]/'
}

# by hand first: fractal shares of the callees, the "[...]" line; a flat chain
# is a percentage then frames, each on a line of its own, 16 columns in
run_sampo report --stdio -i "$f" -g fractal,5 --no-children >"$tmpdir/got" 2>/dev/null
grep -q -- '--66.67%--asm_sysvec_apic_timer_interrupt' "$tmpdir/got" ||
	die "no fractal share: $(grep -m3 -- '--' "$tmpdir/got")"
run_sampo report --stdio -i "$f" -g fractal,5 >"$tmpdir/got" 2>/dev/null
grep -q -- '--[0-9.]*%--\[\.\.\.\]$' "$tmpdir/got" || die "no [...] line under the threshold"
run_sampo report --stdio -i "$f" -g flat --no-children >"$tmpdir/got" 2>/dev/null
grep -A2 '^           [0-9.]*%$' "$tmpdir/got" | grep -q '^                burn_leaf_alpha$' ||
	die "flat chain: $(sed -n 10,16p "$tmpdir/got")"

fails=0
for opts in "-g fractal" "-g fractal --no-children" "-g fractal,0.1" "-g fractal,5" \
	"-g fractal,30 --no-children" "-g fractal,0" "-g fractal,caller --no-children" \
	"-g fractal -G" "-g fractal --sort sym" "-g fractal --sort dso --no-children" \
	"-g fractal,5 --percent-limit 1" "-g flat" "-g flat --no-children" "-g flat,10" \
	"-g flat,period" "-g flat,caller" "-g flat --sort dso,sym -n" \
	"-g fractal --dsos [kernel.kallsyms] --percentage relative"; do
	# shellcheck disable=SC2086 # word splitting of the options is wanted
	"$PERF" report --stdio -i "$f" $opts 2>/dev/null | perf_untip | perf_rem >"$tmpdir/want"
	# shellcheck disable=SC2086
	run_sampo report --stdio -i "$f" $opts >"$tmpdir/got" 2>/dev/null
	compare_report "$tmpdir/want" "$tmpdir/got" "b-callchain-fp $opts"
done
# the corpus: chains of perf 3.4, 3.8 and later recorders, no symbols
for name in pdc__perf.data.callgraph-3.4 pdc__perf.data.callgraph-3.8 \
	pdc__with-callchain.perf.data pp__parallel_static_gcc_perf.data.zstd; do
	w=$(wild_file "$name")
	for opts in "-g fractal,1" "-g flat,1 --no-children"; do
		# shellcheck disable=SC2086
		perf_foreign report --stdio -i "$w" $opts | perf_untip | perf_rem >"$tmpdir/want"
		# shellcheck disable=SC2086
		sampo_wild report --stdio -i "$w" $opts >"$tmpdir/got" 2>/dev/null
		compare_report "$tmpdir/want" "$tmpdir/got" "$name $opts"
	done
done
[ "$fails" -eq 0 ] || die "$fails reports differ from perf's"
pass

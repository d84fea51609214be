#!/bin/bash
# t6520-flamegraph-diff: sampo flamegraph --diff BASELINE NEW on two files with a
# known difference (mkperfdata --alpha: burn_leaf_alpha has 1 in 4 samples in the
# baseline, 3 in 4 in the new file, which has three times as many samples):
# in Chromium, alpha is red, beta blue, their caller grey, widths are NEW's and
# the tooltips give both files' figures as sampo report counts them; the SVG's
# titles say the same.
. "$(dirname "$0")/lib.sh"

need_browser
burn=$(fixture burn)
mk=$SAMPO_BUILDDIR/tests/tools/mkperfdata
mkdir -p "$tmpdir/symfs/tmp/pfx"
cp "$burn" "$tmpdir/symfs/tmp/pfx/burn"
"$mk" --samples 400 --alpha 1 -o "$tmpdir/base.data" >/dev/null || die "mkperfdata failed"
"$mk" --samples 1200 --alpha 3 -o "$tmpdir/new.data" >/dev/null || die "mkperfdata failed"

for f in base new; do
	run_sampo report --stdio --children -n --sort sym -g none --symfs "$tmpdir/symfs" \
		-i "$tmpdir/$f.data" >"$tmpdir/$f.report" 2>/dev/null
	python3 "$SAMPO_SRCDIR/tests/browser/report-figures.py" "$tmpdir/$f.report" >"$tmpdir/$f.json"
done
# the difference the files were made with, as report sees it
grep -q '25.00%    25.00%  *[0-9]*  \[\.\] burn_leaf_alpha' "$tmpdir/base.report" || die "baseline: $(cat "$tmpdir/base.report")"
grep -q '75.00%    75.00%  *[0-9]*  \[\.\] burn_leaf_alpha' "$tmpdir/new.report" || die "new: $(cat "$tmpdir/new.report")"

run_sampo flamegraph --diff --symfs "$tmpdir/symfs" "$tmpdir/base.data" "$tmpdir/new.data" \
	-o "$tmpdir/diff.html" 2>/dev/null
run_browser flamegraph-diff.js "$tmpdir/diff.html" "$tmpdir/base.json" "$tmpdir/new.json" \
	burn_leaf_alpha burn_leaf_beta burn_outer_delta

run_sampo flamegraph --diff --symfs "$tmpdir/symfs" "$tmpdir/base.data" "$tmpdir/new.data" \
	-o "$tmpdir/diff.svg" 2>/dev/null
grep -q '<title>burn_leaf_alpha (new: 450 samples, 75.00%; baseline: 50 samples, 25.00%; change: +50.00 points)</title><rect [^>]*fill="#ff2828"' "$tmpdir/diff.svg" ||
	die "the SVG's alpha: $(grep -o '<title>burn_leaf_alpha[^/]*' "$tmpdir/diff.svg")"
grep -q '<title>burn_leaf_beta (new: 150 samples, 25.00%; baseline: 150 samples, 75.00%; change: -50.00 points)</title><rect [^>]*fill="#2828ff"' "$tmpdir/diff.svg" ||
	die "the SVG's beta: $(grep -o '<title>burn_leaf_beta[^/]*' "$tmpdir/diff.svg")"
pass

#!/bin/bash
# t6500-flamegraph-browser: sampo flamegraph's page in headless Chromium shows
# what sampo report counts (each symbol's self samples, self and children
# percentages, in the tooltip), colours kernel and user frames apart, and its
# search, click to zoom, permalink and icicle mode work, a file of two events
# gets a graph per event; nothing is fetched from the network. The SVG has a <title> per frame with the same figures.
. "$(dirname "$0")/lib.sh"

need_browser
dir=$(fixtures_dir)
f=$dir/b-callchain-fp/perf.data
cache=$tmpdir/cache
mkdir -p "$cache"
tar xjf "$dir/b-callchain-fp/perf.data.tar.bz2" -C "$cache"
export PERF_BUILDID_DIR=$cache

run_sampo report --stdio --children -n --sort sym -g none -i "$f" >"$tmpdir/report" 2>/dev/null
python3 "$SAMPO_SRCDIR/tests/browser/report-figures.py" "$tmpdir/report" \
	search=alpha matched=burn_leaf_alpha zoom=burn_leaf_beta other=burn_leaf_alpha \
	>"$tmpdir/expect.json"
grep -q '"irqentry_exit_to_user_mode"' "$tmpdir/expect.json" || die "report has no kernel symbol to check"

run_sampo flamegraph -i "$f" -o "$tmpdir/fg.html" 2>"$tmpdir/err"
grep -q "wrote '$tmpdir/fg.html'" "$tmpdir/err" || die "no 'wrote' line: $(cat "$tmpdir/err")"
run_browser flamegraph.js "$tmpdir/fg.html" "$tmpdir/expect.json" ${SAMPO_FLAME_SHOT:+"$SAMPO_FLAME_SHOT"}

# a file of two events: a graph (and a tab) per event, named as report names them
m=$dir/c-multi-event/perf.data
run_sampo report --stdio -n --sort sym -g none -i "$m" >"$tmpdir/report2" 2>/dev/null
python3 "$SAMPO_SRCDIR/tests/browser/report-figures.py" "$tmpdir/report2" >"$tmpdir/expect2.json"
grep -q '"task-clock"' "$tmpdir/expect2.json" || die "report names no second event: $(cat "$tmpdir/expect2.json")"
run_sampo flamegraph -i "$m" -o "$tmpdir/multi.html" 2>/dev/null
run_browser flamegraph.js "$tmpdir/multi.html" "$tmpdir/expect2.json"

# an event named with markup (mkperfdata --rename: an EVENT_UPDATE) is a name, in
# the page (its tab) and in the SVG (still well-formed XML)
hostile='</script><script>window.pwned=1</script>&amp;"x'
"$SAMPO_BUILDDIR/tests/tools/mkperfdata" --rename "$hostile" -o "$tmpdir/hostile.data" >/dev/null ||
	die "mkperfdata failed"
run_sampo report --stdio -n --sort sym -g none -i "$tmpdir/hostile.data" >"$tmpdir/report3" 2>/dev/null
python3 "$SAMPO_SRCDIR/tests/browser/report-figures.py" "$tmpdir/report3" >"$tmpdir/expect3.json"
grep -qF 'window.pwned' "$tmpdir/expect3.json" || die "report does not name the event: $(cat "$tmpdir/expect3.json")"
run_sampo flamegraph -i "$tmpdir/hostile.data" -o "$tmpdir/hostile.html" 2>/dev/null
run_browser flamegraph.js "$tmpdir/hostile.html" "$tmpdir/expect3.json"
run_sampo flamegraph -i "$tmpdir/hostile.data" -o "$tmpdir/hostile.svg" 2>/dev/null
python3 -c 'import sys, xml.etree.ElementTree as E; E.parse(sys.argv[1])' "$tmpdir/hostile.svg" ||
	die "the SVG of a file with markup in a name is not XML"
grep -qF '&lt;/script&gt;&lt;script&gt;window.pwned=1&lt;/script&gt;&amp;amp;&quot;x: 10 samples' "$tmpdir/hostile.svg" ||
	die "the SVG does not name the event: $(grep -o 'class="e">[^<]*' "$tmpdir/hostile.svg")"

# the SVG: FlameGraph's <title> tooltips, report's figures
run_sampo flamegraph -i "$f" -o "$tmpdir/fg.svg" 2>/dev/null
python3 - "$tmpdir/fg.svg" "$tmpdir/expect.json" <<'PY' || die "the SVG does not match report"
import json, sys, xml.etree.ElementTree as ET
ns = {'s': 'http://www.w3.org/2000/svg'}
root = ET.parse(sys.argv[1]).getroot()
want = json.load(open(sys.argv[2]))
titles = [g.find('s:title', ns).text for g in root.iter('{http://www.w3.org/2000/svg}g')]
assert titles[0] == 'all (%d samples, 100.00%%)' % want['total'], titles[0]
for name, s in want['symbols'].items():
    mine = [t for t in titles if t.startswith(name + ' (')]
    assert mine, name + ' not drawn'
    if len(mine) == 1:
        assert mine[0].endswith(', %s%%)' % s['childrenPercent']), (mine, s)
print('svg: %d frames' % len(titles), file=sys.stderr)
PY
pass

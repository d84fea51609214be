#!/bin/bash
# t6510-script-speedscope: sampo script --format speedscope writes a file that is
# valid against the schema the speedscope npm package ships and that speedscope
# itself imports (in headless Chromium) as its own format, showing every symbol
# with the self and total shares sampo report gives it; one profile per event.
. "$(dirname "$0")/lib.sh"

need_browser
dir=$(fixtures_dir)
cache=$tmpdir/cache
mkdir -p "$cache"
tar xjf "$dir/b-callchain-fp/perf.data.tar.bz2" -C "$cache"
export PERF_BUILDID_DIR=$cache

for name in b-callchain-fp c-multi-event; do
	f=$dir/$name/perf.data
	run_sampo report --stdio --children -n --sort sym -g none -i "$f" >"$tmpdir/report" 2>/dev/null
	python3 "$SAMPO_SRCDIR/tests/browser/report-figures.py" "$tmpdir/report" >"$tmpdir/expect.json"
	run_sampo script --format speedscope -i "$f" >"$tmpdir/$name.json" 2>/dev/null
	run_browser speedscope.js "$tmpdir/$name.json" "$tmpdir/expect.json"
done
grep -q '"unit": "nanoseconds"' "$tmpdir/b-callchain-fp.json" || die "cpu-clock's weights are not nanoseconds"

expect_status 129 script --format chrome -i "$f"
grep -q "unknown --format 'chrome'" "$tmpdir/stderr" || die "$(cat "$tmpdir/stderr")"
pass

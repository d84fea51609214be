#!/bin/bash
# t2000-report-fixtures: sampo report --stdio prints what perf 6.1 printed on every fixture,
# in children and --no-children mode, with the build-id cache that `perf archive` made
. "$(dirname "$0")/lib.sh"

dir=$(fixtures_dir)
cache=$tmpdir/cache
fixture_cache "$cache"

fails=0
for f in "$dir"/*/perf.data; do
	d=$(dirname "$f")
	name=$(basename "$d")
	fixture_extra "$name"
	for mode in "" -no-children; do
		args=(report --stdio --sort comm,dso,sym -i "$f" "${extra[@]}")
		[ -n "$mode" ] && args+=(--no-children)
		PERF_BUILDID_DIR=$cache "$SAMPO" "${args[@]}" >"$tmpdir/out" 2>"$tmpdir/err" ||
			die "sampo ${args[*]} failed: $(cat "$tmpdir/err")"
		# perf ends with a random tip: drop its last three lines
		head -n -3 "$d/report-stdio$mode.txt" >"$tmpdir/want"
		if ! diff -u "$tmpdir/want" "$tmpdir/out" >"$tmpdir/diff"; then
			echo "# $name$mode differs from perf:" >&2
			head -40 "$tmpdir/diff" >&2
			fails=$((fails + 1))
		fi
	done
done
[ "$fails" -eq 0 ] || die "$fails reports differ from perf's"
pass

#!/bin/bash
# t2000-report-fixtures: sampo report --stdio prints what perf 6.1 printed on every fixture,
# in children and --no-children mode, with the build-id cache that `perf archive` made
. "$(dirname "$0")/lib.sh"

dir=$(fixtures_dir)
cache=$tmpdir/cache
mkdir -p "$cache"
tar xjf "$dir/b-callchain-fp/perf.data.tar.bz2" -C "$cache"
kallsyms="$cache/[kernel.kallsyms]/4a5a9b0affb66c437abcd455d2738af879985fa9/kallsyms"
# d and e have no build-id table: perf used the recorded path and the live kernel
mkdir -p "$tmpdir/symfs/tmp/pfx"
cp "$dir/burn" "$tmpdir/symfs/tmp/pfx/burn"

fails=0
for f in "$dir"/*/perf.data; do
	d=$(dirname "$f")
	name=$(basename "$d")
	extra=()
	case $name in
	d-* | e-*) extra=(--symfs "$tmpdir/symfs" --kallsyms "$kallsyms") ;;
	esac
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

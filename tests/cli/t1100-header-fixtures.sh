#!/bin/bash
# t1100-header-fixtures: sampo header [-I] prints exactly what perf 6.1 report --header-only [-I] printed for every fixture
. "$(dirname "$0")/lib.sh"

fixtures=$(fixtures_dir)

# perf prints "captured on" with ctime(3) of the file's mtime in local time;
# the fixtures' texts were made with TZ=UTC (see their README), so give each
# copy the mtime its text shows and run in UTC.
export TZ=UTC

checked=0
for dir in "$fixtures"/*/; do
	name=$(basename "$dir")
	[ -f "$dir/perf.data" ] && [ -f "$dir/header-only.txt" ] || continue
	when=$(sed -n 's/^# captured on    : //p' "$dir/header-only.txt")
	[ -n "$when" ] || die "$name: no 'captured on' line in header-only.txt"

	mkdir -p "$tmpdir/$name"
	copy=$tmpdir/$name/perf.data
	cp "$dir/perf.data" "$copy"
	chmod u+w "$copy"
	touch -d "$when" "$copy"

	for full in "" "-I"; do
		expected=$dir/header-only${full:+-I}.txt
		out=$tmpdir/$name/header${full}.out
		run_sampo header $full -i "$copy" >"$out"
		compare_files "$expected" "$out"

		# the perf spelling of the command goes through the same code
		run_sampo report --header-only $full -i "$copy" >"$out.alias"
		compare_files "$expected" "$out.alias"

		# and perf itself, on this very copy, when it is installed
		if [ -n "${PERF:-}" ] && [ -x "$PERF" ]; then
			"$PERF" report --header-only $full -i "$copy" >"$out.perf" 2>/dev/null ||
				die "$name: perf report --header-only $full failed"
			compare_files "$out.perf" "$out"
		fi
	done

	# default input: ./perf.data
	(cd "$tmpdir/$name" && "$SAMPO" header) >"$tmpdir/$name/default.out" ||
		die "$name: 'sampo header' in the fixture's directory failed"
	compare_files "$dir/header-only.txt" "$tmpdir/$name/default.out"

	# standard input redirected from the file: fstat() gives the same mtime
	run_sampo header -i - <"$copy" >"$tmpdir/$name/stdin.out"
	compare_files "$dir/header-only.txt" "$tmpdir/$name/stdin.out"

	checked=$((checked + 1))
done
[ "$checked" -gt 0 ] || skip "no fixture with a header-only.txt"

# A real pipe: the stream is read once, in pipe mode; only "captured on"
# (the pipe's own time) differs from the file.
pipe_fixture=$fixtures/d-pipe-mode
if [ -f "$pipe_fixture/perf.data" ]; then
	for full in "" "-I"; do
		cat "$pipe_fixture/perf.data" | "$SAMPO" header $full -i - >"$tmpdir/pipe.out" ||
			die "'cat | sampo header $full -i -' failed"
		sed -i '2d' "$tmpdir/pipe.out"
		sed '2d' "$pipe_fixture/header-only${full:+-I}.txt" >"$tmpdir/pipe.expected"
		compare_files "$tmpdir/pipe.expected" "$tmpdir/pipe.out"
	done
fi
say "$checked fixtures"
pass

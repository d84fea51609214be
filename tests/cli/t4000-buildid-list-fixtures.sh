#!/bin/bash
# t4000-buildid-list-fixtures: sampo buildid-list [-H] prints what perf 6.1 buildid-list [-H] printed for every fixture
. "$(dirname "$0")/lib.sh"

fixtures=$(fixtures_dir)

checked=0
for dir in "$fixtures"/*/; do
	name=$(basename "$dir")
	[ -f "$dir/perf.data" ] && [ -f "$dir/buildid-list.txt" ] || continue
	mkdir -p "$tmpdir/$name"
	for hits in "" "-H" "--with-hits"; do
		expected=$dir/buildid-list${hits:+-H}.txt
		out=$tmpdir/$name/out$hits
		run_sampo buildid-list $hits -i "$dir/perf.data" >"$out"
		compare_files "$expected" "$out"
	done

	# the same bytes through a pipe: perf.data files become a stream too
	if [ "$name" = d-pipe-mode ]; then
		cat "$dir/perf.data" | "$SAMPO" buildid-list >"$tmpdir/$name/pipe" ||
			die "$name: 'cat | sampo buildid-list' failed"
		compare_files "$dir/buildid-list.txt" "$tmpdir/$name/pipe"
	fi

	# default input: ./perf.data
	(cd "$dir" && "$SAMPO" buildid-list) >"$tmpdir/$name/default" ||
		die "$name: 'sampo buildid-list' in the fixture's directory failed"
	compare_files "$dir/buildid-list.txt" "$tmpdir/$name/default"
	checked=$((checked + 1))
done
[ "$checked" -gt 0 ] || skip "no fixture with a buildid-list.txt"

# -i on an ELF file prints its build-id (perf does the same)
burn=$fixtures/burn
if [ -f "$burn" ]; then
	run_sampo buildid-list -i "$burn" >"$tmpdir/burn.out"
	echo 690cfd666a0fa1f2e4b67ddad86ea1a75405b61c >"$tmpdir/burn.expected"
	compare_files "$tmpdir/burn.expected" "$tmpdir/burn.out"
fi
say "$checked fixtures"
pass

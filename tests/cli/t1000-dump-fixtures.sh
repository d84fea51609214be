#!/bin/bash
# t1000-dump-fixtures: sampo dump prints exactly what perf report -D prints, on every perf 6.1 fixture
#
# For each fixture directory (system-wide, callchains, multi-event, pipe mode,
# zstd, build-id MMAP2, switch/namespaces, cgroups), run inside the directory
# because the -i path appears in the output:
#   - `sampo dump -i perf.data` and `sampo report -D -i perf.data` must equal
#     report-D.txt byte for byte;
#   - when perf is installed, they must also equal `perf report -D` run now on
#     the same file (so the test keeps holding if the fixtures are remade).
# Then the pipe-mode fixture read from a pipe: `-i -`, and no -i at all (perf
# reads stdin when it is a FIFO); the path then prints as "pipe".
. "$(dirname "$0")/lib.sh"

dir=$(fixtures_dir)
n=0
for fx in "$dir"/*/; do
	[ -f "$fx/perf.data" ] && [ -f "$fx/report-D.txt" ] || continue
	name=$(basename "$fx")
	(cd "$fx" && "$SAMPO" dump -i perf.data) >"$tmpdir/$name.dump" ||
		die "$name: sampo dump failed"
	compare_files "$fx/report-D.txt" "$tmpdir/$name.dump"
	(cd "$fx" && "$SAMPO" report -D -i perf.data) >"$tmpdir/$name.report-D" ||
		die "$name: sampo report -D failed"
	compare_files "$fx/report-D.txt" "$tmpdir/$name.report-D"
	if [ -n "${PERF:-}" ] && [ -x "$PERF" ]; then
		(cd "$fx" && "$PERF" report -D -i perf.data 2>/dev/null) >"$tmpdir/$name.perf" ||
			die "$name: perf report -D failed"
		compare_files "$tmpdir/$name.perf" "$tmpdir/$name.dump"
	fi
	say "$name: identical"
	n=$((n + 1))
done
[ "$n" -gt 0 ] || skip "no fixture with report-D.txt in $dir"

# pipe mode from a pipe
pipe=$dir/d-pipe-mode
if [ -f "$pipe/perf.data" ]; then
	if [ -n "${PERF:-}" ] && [ -x "$PERF" ]; then
		cat "$pipe/perf.data" | "$PERF" report -D -i - 2>/dev/null >"$tmpdir/pipe.perf" ||
			die "perf report -D -i - failed"
	else
		cp "$pipe/report-D.txt" "$tmpdir/pipe.perf"
	fi
	cat "$pipe/perf.data" | "$SAMPO" dump -i - >"$tmpdir/pipe.dump" || die "sampo dump -i - failed"
	compare_files "$tmpdir/pipe.perf" "$tmpdir/pipe.dump"
	cat "$pipe/perf.data" | "$SAMPO" dump >"$tmpdir/pipe-default.dump" ||
		die "sampo dump reading a pipe on stdin failed"
	compare_files "$tmpdir/pipe.perf" "$tmpdir/pipe-default.dump"
fi
pass

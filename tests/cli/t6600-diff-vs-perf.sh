#!/bin/bash
# t6600-diff-vs-perf: sampo diff prints what perf diff prints, run here on pairs (and
# triples) of the fixtures, for every computation, column and filter option
. "$(dirname "$0")/lib.sh"
need_perf

dir=$(fixtures_dir)
# perf and sampo share the build-id cache that `perf archive` made for the fixtures
export HOME=$tmpdir
mkdir -p "$HOME/.debug"
tar xjf "$dir/b-callchain-fp/perf.data.tar.bz2" -C "$HOME/.debug"
unset PERF_BUILDID_DIR

fails=0
checked=0
# check OPTIONS... -- FILES...: perf diff and sampo diff, byte for byte
check() {
	local opts=() files=()
	while [ "$1" != -- ]; do
		opts+=("$1")
		shift
	done
	shift
	for f in "$@"; do
		files+=("$dir/$f/perf.data")
	done
	"$PERF" diff "${opts[@]}" "${files[@]}" >"$tmpdir/want" 2>/dev/null ||
		die "perf diff ${opts[*]} $* failed"
	"$SAMPO" diff "${opts[@]}" "${files[@]}" >"$tmpdir/out" 2>"$tmpdir/err" ||
		die "sampo diff ${opts[*]} $* failed: $(cat "$tmpdir/err")"
	checked=$((checked + 1))
	if ! cmp -s "$tmpdir/want" "$tmpdir/out"; then
		echo "# diff ${opts[*]} $*: sampo differs from perf" >&2
		diff -u "$tmpdir/want" "$tmpdir/out" | head -20 >&2
		fails=$((fails + 1))
	fi
}

# same workload (burn, symbols from the build-id cache), two events against one
# (perf pairs events by type and config: task-clock has no match), system-wide
# files with kernel symbols and other processes, a file against itself
pairs=("c-multi-event f-buildid-mmap" "f-buildid-mmap c-multi-event"
	"a-syswide-cpuclock h-switch-ns-cgroup-syswide" "g-switch-namespaces-task b-callchain-fp"
	"b-callchain-fp c-multi-event" "h-switch-ns-cgroup-syswide g-switch-namespaces-task"
	"a-syswide-cpuclock a-syswide-cpuclock")
for pair in "${pairs[@]}"; do
	# shellcheck disable=SC2086 # word splitting of the pairs is wanted
	check -- $pair
done
# every option on three of them (perf takes a second a run on a busy machine)
pairs=("c-multi-event f-buildid-mmap" "a-syswide-cpuclock h-switch-ns-cgroup-syswide"
	"g-switch-namespaces-task b-callchain-fp")
for opts in "-c delta" "-c delta-abs" "-c ratio" "-c wdiff:1,2" "-c wdiff:3,-2" "-p" "-F" \
	"-F -c ratio" "-F -c wdiff:2,1" "-F -p -c delta" "-o 0" "-o 0 -c ratio" "-b" "-b -F -p" \
	"-q" "-t ;" "-t : -p -F" "-t , -c ratio" "--percentage relative -C burn" \
	"--percentage absolute -C burn" "--percentage relative -d burn,libc.so.6 -F" \
	"-d [kernel.kallsyms]" "-S burn_leaf_alpha" "-S burn_leaf_alpha,burn_leaf_beta -p" \
	"-C burn,sleep" "-s sym" "-s dso" "-s comm" "-s pid" "-s comm,dso" "-s pid,sym" \
	"-s cpu,sym" "-s sym,dso -c ratio" "--sort symbol,comm"; do
	for pair in "${pairs[@]}"; do
		# shellcheck disable=SC2086 # word splitting of the options and pairs is wanted
		check $opts -- $pair
	done
done

# more than two files: "Data files" lines, "Delta Abs/N" columns, -o picks the file
triples=("c-multi-event f-buildid-mmap g-switch-namespaces-task"
	"a-syswide-cpuclock h-switch-ns-cgroup-syswide g-switch-namespaces-task b-callchain-fp")
for opts in "" "-o 2" "-o 0" "-c ratio -o 2" "-c wdiff:2,1 -p -F" "-c delta -F" "-b" "-q" \
	"-t |" "--percentage relative -d burn"; do
	for files in "${triples[@]}"; do
		# shellcheck disable=SC2086
		check $opts -- $files
	done
done

# one file given: it is the new one, perf.data.old the baseline
cd "$tmpdir"
cp "$dir/c-multi-event/perf.data" perf.data.old
"$PERF" diff "$dir/f-buildid-mmap/perf.data" >"$tmpdir/want" 2>/dev/null
run_sampo diff "$dir/f-buildid-mmap/perf.data" >"$tmpdir/out"
compare_files "$tmpdir/want" "$tmpdir/out"
# none: perf.data.old and perf.data
cp "$dir/f-buildid-mmap/perf.data" perf.data
run_sampo diff >"$tmpdir/out2"
compare_files "$tmpdir/want" "$tmpdir/out2"

say "$checked comparisons with perf diff"
[ "$fails" -eq 0 ] || die "$fails of $checked comparisons differ from perf diff"
pass

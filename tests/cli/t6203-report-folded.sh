#!/bin/bash
# t6203-report-folded: sampo report -g folded prints perf report -g folded's output (perf 6.1, run here) on the fixtures with call chains, with the options perf combines it with (children or not, caller or callee, threshold, period values, sort keys, -n, limits), and on the wild files whose graphs perf and sampo print alike
. "$(dirname "$0")/lib.sh"
need_perf
need_cmd python3 tar bzip2

dir=$(fixtures_dir)
# perf and sampo share the build-id cache that `perf archive` made for the fixtures
export HOME=$tmpdir/home
mkdir -p "$HOME/.debug"
tar xjf "$dir/b-callchain-fp/perf.data.tar.bz2" -C "$HOME/.debug"
unset PERF_BUILDID_DIR
kallsyms="$HOME/.debug/[kernel.kallsyms]/4a5a9b0affb66c437abcd455d2738af879985fa9/kallsyms"

# folded lines of equal value may come in another order than perf's when
# perf orders them by heap addresses (as graph branches, see graph-canon.py):
# sort each run of lines of one value by their text, keeping the runs in place
canon() {
	python3 -c '
import re, sys
out, run = [], []
def flush():
    out.extend(sorted(run)); run.clear()
for line in sys.stdin:
    m = re.match(r"^([0-9.]+%?) ", line)
    if not (m and run and run[0].split(" ", 1)[0] == m.group(1)):
        flush()
    (run if m else out).append(line)
flush()
sys.stdout.write("".join(out))'
}

fails=0
checked=0
# check FILE OPTIONS...: sampo against perf, folded lines present when perf has some
check() {
	local f=$1
	shift
	"$PERF" report -f --stdio -i "$f" "$@" 2>/dev/null | head -n -3 >"$tmpdir/want"
	"$SAMPO" report --stdio -i "$f" "$@" >"$tmpdir/out" 2>"$tmpdir/err" ||
		die "sampo report -i $f $* failed: $(cat "$tmpdir/err")"
	checked=$((checked + 1))
	cmp -s "$tmpdir/want" "$tmpdir/out" && return
	if canon <"$tmpdir/want" | cmp -s - <(canon <"$tmpdir/out"); then
		say "$(basename "$(dirname "$f")") $*: equal folded lines in another order than perf's"
		return
	fi
	say "$f $*: sampo differs from perf"
	diff -u "$tmpdir/want" "$tmpdir/out" | head -20 >&2
	fails=$((fails + 1))
}

for f in b-callchain-fp d-pipe-mode e-compressed-zstd; do
	extra=()
	case $f in d-* | e-*) extra=(--kallsyms "$kallsyms") ;; esac
	for opts in "-g folded" "--no-children -g folded" "-g folded,period" \
		"--no-children -g folded,period" "-g folded,0.1,callee" \
		"--no-children -g folded,0,caller" "--call-graph=folded,0" "-g folded --sort sym" \
		"-g folded --sort dso,sym" "-g folded,0 -n" "-g folded --percent-limit 5" \
		"-g folded --max-stack 3" "-G -g folded" "--no-children -g folded --comms burn" \
		"--no-children -g folded --sort pid,sym"; do
		# shellcheck disable=SC2086 # the options are words
		check "$dir/$f/perf.data" "${extra[@]}" $opts
	done
done

# what a user checks: each row's folded lines, root first, values adding up
"$SAMPO" report --stdio --no-children -g folded,0,period -i "$dir/b-callchain-fp/perf.data" >"$tmpdir/b"
grep -qx '200000000 burn_leaf_alpha;burn_outer_delta;main;__libc_start_call_main' "$tmpdir/b" ||
	die "no leaf-first folded line for burn_leaf_alpha: $(head -20 "$tmpdir/b")"
sum=$(awk '/^[0-9]+ / { s += $1 } END { print s }' "$tmpdir/b")
[ "$sum" = 351000000 ] || die "folded periods add up to $sum, the event count is 351000000"

# bad values are refused with a line that names them
expect_status 1 report -i "$dir/b-callchain-fp/perf.data" -g graph,period
grep -q "folded" "$tmpdir/stderr" || die "no clear message for -g graph,period: $(cat "$tmpdir/stderr")"

# the wild files with call chains whose graphs perf and sampo print alike
wild=${SAMPO_SHARED:+$SAMPO_SHARED/fixtures/wild/files}
if [ -d "$wild" ]; then
	export HOME=$tmpdir/empty
	mkdir -p "$HOME"
	for n in hs__perf.data.true.v2 pdc__perf.data.piped.header_features_aligned-6.12 \
		pdc__with-callchain.perf.data pp__vector_static_clang_perf.data \
		pp__vector_static_gcc_perf.data; do
		[ -f "$wild/$n" ] || die "no wild file '$n'"
		check "$wild/$n" -g folded
		check "$wild/$n" --no-children -g folded,0.1,callee
	done
	check "$wild/pdc__perf.data.callgraph-3.8" --no-children -g folded,0.1,callee
fi

[ "$fails" -eq 0 ] || die "$fails of $checked reports differ from perf's"
say "$checked reports"
pass

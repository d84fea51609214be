#!/bin/bash
# t7101-dwarf-unwind: on --call-graph dwarf recordings made here by perf and by sampo of programs gcc builds now (deep recursion past 127 frames, C++ templates and exceptions, a library dlopen'ed late and dlopen loops in ld.so, the vdso, non-PIE, stripped to .eh_frame), sampo report (children and not) and sampo script print perf's call graphs, and report prints the same from a pipe as from the file
. "$(dirname "$0")/lib.sh"

need_perf_record
need_cmd gcc g++ strip python3
export HOME=$tmpdir/home # fresh build-id caches, filled by both recorders
unset PERF_BUILDID_DIR
mkdir -p "$HOME"
cd "$tmpdir"
cp "$SAMPO_SRCDIR"/tests/cli/progs/dwarf/* . || die "no tests/cli/progs/dwarf"
# no frame pointers anywhere: only the CFI can unwind these
cflags="-O2 -g -fomit-frame-pointer"
gcc $cflags -o rec rec.c && gcc $cflags -no-pie -fno-pie -o rec-nopie rec.c &&
	gcc -O2 -fomit-frame-pointer -o rec-strip rec.c && strip rec-strip &&
	g++ $cflags -o cxx cxx.cc && gcc $cflags -fPIC -shared -o libplug.so plug.c &&
	gcc $cflags -o dl dl.c -ldl || die "cannot build the test programs"
readelf -S rec-strip >sections.txt
grep -q "\.eh_frame " sections.txt || die "strip removed .eh_frame"
grep -q "\.symtab\|\.debug_" sections.txt && die "rec-strip still has symbols"

# perf's report and script without inlined frames, when sampo adds them too
report_opts=() script_opts=()
"$SAMPO" report -h 2>&1 | grep -q -- "--no-inline" && report_opts=(--no-inline)
"$SAMPO" script -h 2>&1 | grep -q -- "--no-inline" && script_opts=(--no-inline)

fails=0
canon=$SAMPO_SRCDIR/tests/cli/plt-canon.py
# same_as_perf report|script: out.txt is perf's want.txt, but for what this test
# forgives: graph branches of equal weight in another order (report); PLT stubs that
# perf 6.1 names _init or NAME@plt depending on the binary, where sampo always says
# NAME@plt (docs/report-differences.md); and the frame 0xffffffffffffffff, no address,
# with which perf's libunwind now and then ends a chain (docs/performance.md, "DWARF
# call graphs"): sampo never makes one up, so perf's lines of it (its report row and
# graph entries, its script frame) are left out of want.txt
same_as_perf() {
	local want=want.txt
	diff -q want.txt out.txt >/dev/null && return 0
	if grep -q 'ffffffffffffffff' want.txt; then
		grep -v -E '(\[\.\] |---|--|^\s+)0xffffffffffffffff$|^\s+ffffffffffffffff \[unknown\] \(\[unknown\]\)$' \
			want.txt >want-nobogus.txt
		want=want-nobogus.txt
		diff -q "$want" out.txt >/dev/null && return 0
	fi
	[ "$1" = report ] && graph_ties_only "$want" out.txt && return 0
	python3 "$canon" "$1" "$want" out.txt >/dev/null
}
check() { # FILE
	local f=$1 mode
	for mode in --children --no-children; do
		# (lost samples: a busy machine loses some; sampo counts LOST
		# records there too, which is not this test's business)
		"$PERF" report --stdio --no-inline -i "$f" $mode 2>/dev/null | head -n -3 |
			grep -v "^# Total Lost Samples" >want.txt
		"$SAMPO" report --stdio "${report_opts[@]}" -i "$f" $mode >out.txt 2>err.txt ||
			die "sampo report -i $f $mode failed: $(cat err.txt)"
		grep -v "^# Total Lost Samples" out.txt >out2.txt && mv out2.txt out.txt
		grep -q "were not unwound" err.txt && die "$f: sampo could not unwind: $(cat err.txt)"
		if ! same_as_perf report; then
			diff -u want.txt out.txt >diff.txt
			echo "# $f report $mode differs from perf's:" >&2
			head -30 diff.txt >&2
			fails=$((fails + 1))
		fi
	done
	"$PERF" script --no-inline -i "$f" >want.txt 2>/dev/null
	"$SAMPO" script "${script_opts[@]}" -i "$f" >out.txt 2>err.txt ||
		die "sampo script -i $f failed: $(cat err.txt)"
	if ! same_as_perf script; then
		diff -u want.txt out.txt >diff.txt
		echo "# $f script differs from perf's:" >&2
		head -30 diff.txt >&2
		fails=$((fails + 1))
	fi
	# the cached-rule fast path gives what libdw alone gives
	SAMPO_UNWIND_SLOW=1 "$SAMPO" script "${script_opts[@]}" -i "$f" >slow.txt 2>/dev/null
	cmp -s out.txt slow.txt || die "$f: the fast unwinder differs from libdw's: $(diff out.txt slow.txt | head -5)"
	# the chains are unwound, not just the IP: most samples have a caller
	[ "$(grep -c "^	" want.txt)" -gt "$((2 * $(grep -c "cpu-clock" want.txt)))" ] ||
		die "$f: perf itself did not unwind (test set-up)"
}

run() { # NAME CMD...
	local name=$1
	shift
	# 8 KiB a sample: bigger rings than the default lose fewer on a busy machine
	"$PERF" record -q -m 512 -e cpu-clock -F 1000 --call-graph dwarf -o "$name.perf.data" -- "$@" \
		>/dev/null 2>&1 || die "perf record $* failed"
	expect_status 0 record -q -m 512 -e cpu-clock -F 1000 --call-graph dwarf \
		-o "$name.sampo.data" -- "$@"
	check "$name.perf.data"
	check "$name.sampo.data"
}

run deep ./rec 200 300 # 200 frames deep: perf keeps 127 user frames
run nopie ./rec-nopie 12 1000
run strip ./rec-strip 12 1000
run cxx ./cxx 30000
run dl ./dl "$tmpdir/libplug.so"

# a file mapped whole is unwound in place, a pipe's records are copied into the
# unwind pool: the same graphs either way (the cxx process has no vdso frames, which
# a pipe without build-ids cannot name)
"$PERF" inject -i cxx.perf.data -o - 2>/dev/null |
	"$SAMPO" report --stdio "${report_opts[@]}" --no-children -i - >pipe.txt 2>err.txt ||
	die "sampo report of a pipe failed: $(cat err.txt)"
"$SAMPO" report --stdio "${report_opts[@]}" --no-children -i cxx.perf.data >file.txt 2>/dev/null
grep -q "Rec<6>::run" file.txt || die "the cxx report has no unwound callers"
cmp -s file.txt pipe.txt || die "a pipe's DWARF report differs from the file's: $(diff file.txt pipe.txt | head -5)"

# the program's file gone (and no build-id cache): no CFI to step out of its frames, so
# the chain ends with the sampled frame, as perf's does; libdw's frame-pointer fallback
# would read words of the stack (a stack address, environment strings) as callers of
# code built without them
mv cxx cxx.away
home=$HOME
export HOME=$tmpdir/gone-home
mkdir -p "$HOME"
"$PERF" report --stdio --no-inline --no-children -i cxx.perf.data 2>/dev/null | head -n -3 |
	grep -v "^# Total Lost Samples" >want.txt
"$SAMPO" report --stdio "${report_opts[@]}" --no-children -i cxx.perf.data 2>/dev/null |
	grep -v "^# Total Lost Samples" >out.txt
grep -q -- '---0x' out.txt || die "no unresolved cxx frames without the program's file"
# (all unresolved: same_as_perf would set their graphs aside as PLT stubs')
diff -q want.txt out.txt >/dev/null || graph_ties_only want.txt out.txt ||
	{ diff -u want.txt out.txt | head -30 >&2; die "without the program's file, sampo's chains differ from perf's"; }
"$SAMPO" script -F ip,dso -i cxx.perf.data 2>/dev/null >gone-script.txt
python3 - gone-script.txt <<'PY' || die "a chain goes on past a frame of the missing file"
import sys
# a sample is a block of lines "ip (dso)"; a frame in the missing program ends its chain
chains = open(sys.argv[1]).read().strip().split("\n\n")
bad = [c for c in chains for i, l in enumerate(c.split("\n")[:-1]) if l.rstrip().endswith("/cxx)")]
sys.exit(1 if bad else 0)
PY
mv cxx.away cxx
export HOME=$home

# the deep one reaches 127 user frames, the dlopen'ed library and ld.so show up
"$SAMPO" script -i deep.sampo.data -F ip,sym 2>/dev/null >deep-script.txt
awk '/^$/ { if (n > m) m = n; n = 0; next } { n++ } END { print m + 0 }' deep-script.txt >maxdepth
[ "$(cat maxdepth)" -ge 127 ] || die "the deepest chain has $(cat maxdepth) entries, not 127"
"$SAMPO" report --stdio --no-children -i dl.sampo.data >dl.txt 2>/dev/null
grep -q "plug_leaf" dl.txt || die "no samples in the late dlopen'ed library"
grep -q "ld-linux" dl.txt || die "no samples in ld.so"
"$SAMPO" script -i dl.sampo.data -F ip,sym >dl-script.txt 2>/dev/null
grep -A1 "__vdso_clock_gettime" dl-script.txt | grep "clock_gettime@" >/dev/null ||
	die "no chain goes from the vdso to its caller"

# the other readers of call chains unwind too: the flame graph and pprof have the callers
"$SAMPO" flamegraph -i cxx.sampo.data -o fg.svg 2>/dev/null || die "sampo flamegraph failed"
grep "Rec&lt;6&gt;::run" fg.svg >/dev/null || die "the flame graph has no unwound callers"
if command -v go >/dev/null; then
	"$SAMPO" pprof -i cxx.sampo.data -o cxx.pb.gz 2>/dev/null || die "sampo pprof failed"
	go tool pprof -top -cum -symbolize=none cxx.pb.gz 2>/dev/null >pprof.txt
	grep -E "^ +[0-9]+ .* (9[0-9]|100)(\.[0-9]+)?% +Rec<6>::run$" pprof.txt >/dev/null ||
		die "pprof has no unwound callers: $(grep "Rec<6>" pprof.txt)"
fi

[ "$fails" -eq 0 ] || die "$fails outputs differ from perf's"
pass

#!/bin/bash
# t7100-record-call-graph: sampo record --call-graph fp|dwarf[,SIZE]|lbr and -F max set the attrs perf record sets (perf evlist -v of both recordings), refuse what perf refuses with perf's words, and perf unwinds sampo's DWARF recording of a compiler-built recursion as it unwinds its own
. "$(dirname "$0")/lib.sh"

need_perf_record
need_cmd gcc
export HOME=$tmpdir/home
mkdir -p "$HOME"
cd "$tmpdir"

cp "$SAMPO_SRCDIR/tests/cli/progs/dwarf/rec.c" . || die "no tests/cli/progs/dwarf/rec.c"
# no frame pointers: only the DWARF unwinder can see the callers
gcc -O2 -g -fomit-frame-pointer -o rec rec.c || die "gcc failed"

# the attrs, as `perf evlist -v` prints them, minus what differs by design:
# sampo asks for build-ids in MMAP2 records per task (see sampo-record.md)
attrs() {
	"$PERF" evlist -v -i "$1" 2>/dev/null | sed -e 's/, build_id: 1//' -e 's/^[^:]*: //'
}
for cg in fp fp,5 dwarf dwarf,100 dwarf,0x100 dwarf,65528 dwarf,,4096 dwarf,8192,3; do
	"$PERF" record -q -e cpu-clock --call-graph "$cg" -o perf.data -- true >/dev/null 2>&1 ||
		die "perf record --call-graph $cg failed"
	expect_status 0 record -q -e cpu-clock --call-graph "$cg" -o sampo.data -- true
	diff <(attrs perf.data) <(attrs sampo.data) >attrs.diff ||
		die "--call-graph $cg: attrs differ from perf's: $(cat attrs.diff)"
done
"$PERF" record -q -e cpu-clock -g -o perf.data -- true >/dev/null 2>&1
expect_status 0 record -q -e cpu-clock -g -o sampo.data -- true
diff <(attrs perf.data) <(attrs sampo.data) >attrs.diff || die "-g: attrs differ: $(cat attrs.diff)"
attrs sampo.data | grep -q "REGS_USER" && die "-g asked for user registers: it must stay frame pointers"
attrs sampo.data | grep -q "CALLCHAIN" || die "-g recorded no call chains"
attrs sampo.data | grep -q "sample_max_stack" && die "-g set a max stack"

# the default size and the register mask of this architecture
expect_status 0 record -q -e cpu-clock --call-graph dwarf -o sampo.data -- true
attrs sampo.data | grep -q "sample_stack_user: 8192" || die "the default stack size is not 8192"
attrs sampo.data | grep -q "exclude_callchain_user: 1" || die "no exclude_callchain_user"
[ "$(uname -m)" != x86_64 ] || attrs sampo.data | grep -q "sample_regs_user: 0xff0fff" ||
	die "not perf's x86_64 register mask"

# what perf refuses, sampo refuses with perf's message
for bad in dwarf,0 dwarf,65529 dwarf,1k dwarf,-8; do
	expect_status 129 record -q -e cpu-clock --call-graph "$bad" -o bad.data -- true
	grep -q "^sampo record: callchain: Incorrect stack dump size (max 65528): ${bad#dwarf,}$" \
		"$tmpdir/stderr" || die "--call-graph $bad: $(cat "$tmpdir/stderr")"
done
expect_status 129 record -q --call-graph foo -o bad.data -- true
grep -q "callchain: Unknown --call-graph option value: foo" "$tmpdir/stderr" ||
	die "unknown mode: $(cat "$tmpdir/stderr")"
expect_status 129 record -q --call-graph lbr,1 -o bad.data -- true
grep -q "callchain: No more arguments needed for --call-graph lbr" "$tmpdir/stderr" ||
	die "lbr,1: $(cat "$tmpdir/stderr")"
[ ! -e bad.data ] || die "a refused option still wrote a file"

# lbr where the hardware has none (no PMU here, or a software event): one clear line
if ! "$PERF" record -q --call-graph lbr -o perf.data -- true >/dev/null 2>&1; then
	expect_status 1 record -q --call-graph lbr -o lbr.data -- true
	grep -q "doesn't support branch stack sampling: --call-graph lbr needs" "$tmpdir/stderr" ||
		die "lbr refused unclearly: $(cat "$tmpdir/stderr")"
fi

# -F max: the kernel's limit, said as perf says it
max=$(cat /proc/sys/kernel/perf_event_max_sample_rate)
expect_status 0 record -q -e cpu-clock -F max -o max.data -- true
grep -q "^info: Using a maximum frequency rate of $max Hz$" "$tmpdir/stderr" ||
	die "-F max: $(cat "$tmpdir/stderr")"
attrs max.data | grep -q "sample_freq }: $max," || die "-F max did not sample at $max Hz"
expect_status 129 record -q -F max -c 1000 -o bad.data -- true

# perf unwinds sampo's DWARF recording: leaf under a dozen rec under main (rec(0) tail-calls leaf)
expect_status 0 record -q -e cpu-clock -F 2000 --call-graph dwarf -o dw.data -- ./rec 12 1500
"$PERF" script -i dw.data -F ip,sym --no-inline 2>/dev/null >script.txt || die "perf script failed"
awk '
	/^$/ { if (n) { if (s[1] == "leaf") { total++; d = 0; for (i = 2; i <= n && s[i] == "rec"; i++) d++; if (d >= 11 && s[i] == "main") good++ } } n = 0; next }
	{ s[++n] = $2 }
	END { if (n && s[1] == "leaf") total++; printf "%d %d\n", good, total }
' script.txt >counts
read -r good total <counts
[ "$total" -gt 20 ] || die "too few samples in leaf ($total)"
# a sample may land where the leaf has no frame yet: let a few go
[ $((good * 100)) -ge $((total * 95)) ] || die "perf unwound only $good of $total leaf samples to main"
pass

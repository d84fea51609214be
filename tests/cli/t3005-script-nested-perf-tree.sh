#!/bin/bash
# t3005-script-nested-perf-tree: labels nested in functions are named as perf 6.1 names them (the first symbol covering the address on the way down its rb-tree), in report --sort sym and script -F ip,sym
#
# Sixteen local functions f0..f15, each with two labels inside (fN_a before
# its hot loop, fN_b after it): an address in the loop is covered by fN and
# by fN_a (a label ends where the next symbol starts). perf 6.1 answers with
# whichever of the two its red-black tree meets first, which depends on the
# tree's shape: f0, f1_a, f2, f3_a, ... here; the innermost symbol (fN_a
# every time) is not its answer. The same shape as V8's builtins in node
# and a vmlinux's entry code.
. "$(dirname "$0")/lib.sh"

need_perf_record
need_cmd cc
export HOME=$tmpdir/home
unset PERF_BUILDID_DIR
mkdir -p "$HOME"

cd "$tmpdir"
{
	echo '	.text'
	for i in $(seq 0 15); do
		cat <<ASM
	.type	f$i, @function
f$i:
	mov	\$2000000, %rcx
f${i}_a:
1:	dec	%rcx
	jnz	1b
f${i}_b:
	ret
	.size	f$i, .-f$i
ASM
	done
	echo '	.globl	callall'
	echo '	.type	callall, @function'
	echo 'callall:'
	for i in $(seq 0 15); do
		echo "	call	f$i"
	done
	echo '	ret'
	echo '	.size	callall, .-callall'
	echo '	.section	.note.GNU-stack,"",@progbits'
} >n.s
cat >m.c <<'C'
void callall(void);
int main(void)
{
	for (int r = 0; r < 20; r++)
		callall();
	return 0;
}
C
[ "$(uname -m)" = x86_64 ] || skip "the test program is x86-64 assembly"
cc -O1 -o nest m.c n.s 2>cc.err || skip "cannot build the test program: $(head -1 cc.err)"

env -u MALLOC_PERTURB_ "$PERF" record -q -e cpu-clock:u -F 4000 -o n.data ./nest \
	>/dev/null 2>record.err || skip "perf record failed: $(head -1 record.err)"

"$PERF" report --stdio -i n.data --sort sym 2>/dev/null | perf_untip >report.perf
run_sampo report --stdio -i n.data --sort sym >report.sampo
compare_report report.perf report.sampo "report --sort sym"

"$PERF" script -F ip,sym -i n.data >script.perf 2>/dev/null
run_sampo script -F ip,sym -i n.data >script.sampo
if ! cmp -s script.perf script.sampo; then
	say "script -F ip,sym: sampo differs from perf"
	diff -u script.perf script.sampo >script.diff || true
	head -30 script.diff >&2
	fails=$((${fails:-0} + 1))
fi

# the file shows what the test is about: perf named some loops by the function
grep -Eq '\] f[0-9]+$' report.perf || say "perf named every loop by its label this time"
grep -Eq '\] f[0-9]+_a$' report.perf || say "perf named every loop by its function this time"
[ "${fails:-0}" -eq 0 ] || die "$fails output(s) differ from perf's"
pass

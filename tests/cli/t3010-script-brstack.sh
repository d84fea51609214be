#!/bin/bash
# t3010-script-brstack: script -F brstack and brstacksym print each sample's
# branch stack as perf 6.1 does: FROM/TO as addresses or sym+off (in the
# sample's mode, else the other: branches into and out of the kernel), the
# dso of each side with the dso field, then the flags "/P/X/A/cycles/type "
# (predicted, mispredicted or neither; in a transaction; an abort; the
# cycles; the saved type, EXTEND_ABI's new types too). A file written here
# has branches in a test program (resolved through --symfs) and in a kernel
# (through --kallsyms), a null entry and an unmapped one; wild files bring
# perf 3.4 to 6.x branch stacks with call chains, hardware indexes and LBR
# call stacks (-G: perf stitches their call chains, sampo does not; see
# docs/wild-corpus.md).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-wild.sh"
need_perf
need_cmd python3

dir=$(fixtures_dir)
cd "$tmpdir"
mkdir -p symfs/tmp/pfx home
cp "$dir/burn" symfs/tmp/pfx/burn
printf 'ffffffff81000000 T _text\nffffffff81000100 T kfn\nffffffff81000200 T kfn2\nffffffff81100000 T _etext\n' >kallsyms
cat >gen.py <<'PYEOF'
import os, struct, sys
sys.path.insert(0, os.environ["SAMPO_SRCDIR"] + "/tests/cli")
from perfdata_gen import cstr, rec, write_file

IP, TID, TIME, PERIOD, BRANCH = 1, 2, 4, 0x100, 0x800
ST = IP | TID | TIME | PERIOD | BRANCH
U, K = 2, 1  # PERF_RECORD_MISC_USER, _KERNEL
base = 0x555555554000  # burn's load address: file address A is base + A

def sid(t):
    return struct.pack('<IIQ', 100, 100, t)

R = []
R.append(rec(1, K, struct.pack('<IIQQQ', 0xffffffff, 0, 0xffffffff81000000, 0x100000,
                               0xffffffff81000000) + cstr('[kernel.kallsyms]_text') + sid(1)))
R.append(rec(3, 0, struct.pack('<II', 100, 100) + cstr('burn') + sid(2)))
R.append(rec(1, U, struct.pack('<IIQQQ', 100, 100, base + 0x1000, 0x1000, 0x1000) +
             cstr('/tmp/pfx/burn') + sid(3)))

def flags(mispred=0, predicted=0, in_tx=0, abort=0, cycles=0, type=0, new_type=0):
    return (mispred | predicted << 1 | in_tx << 2 | abort << 3 | cycles << 4 | type << 20 |
            new_type << 26)

stacks = [
    (U, base + 0x1169, [
        (base + 0x11f0, base + 0x11aa, flags(predicted=1, cycles=5, type=4)),      # CALL
        (base + 0x11b4, base + 0x1149, flags(mispred=1, in_tx=1)),
        (base + 0x1170, base + 0x1165, flags(abort=1, cycles=65535, type=1)),    # COND
        (0xffffffff81000180, base + 0x1229, flags(predicted=1, type=8)),         # SYSRET
    ]),
    (K, 0xffffffff81000110, [
        (base + 0x1224, 0xffffffff81000100, flags(predicted=1, cycles=12, type=7)),  # SYSCALL
        (0xffffffff81000104, 0xffffffff81000200, flags(mispred=1, predicted=1, type=15, new_type=1)),
        (0, 0, 0),
        (0x7f0000001000, 0x7f0000002000, flags(type=14)),                       # NO_TX
    ]),
    (U, base + 0x11a0, []),
]
t = 10
for misc, ip, br in stacks:
    body = struct.pack('<QIIQQ', ip, 100, 100, t, 1000) + struct.pack('<Q', len(br))
    for f, to, fl in br:
        body += struct.pack('<QQQ', f, to, fl)
    R.append(rec(9, misc, body))
    t += 1
# attr: cycles-like hardware event, sample_id_all | mmap | comm, branch_sample_type ANY
attr = struct.pack('<IIQQQQQIIQQQQIiQIHHIIQ', 0, 128, 0, 1000, ST, 0,
                   (1 << 18) | (1 << 8) | (1 << 9), 0, 0, 0, 0, 8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
write_file(sys.argv[1], attr, R, {}, 'cycles')
PYEOF
python3 gen.py b.data

fails=0
check() {
	HOME=$tmpdir/home "$PERF" script -f -i b.data --kallsyms kallsyms --symfs symfs "$@" \
		>want 2>/dev/null
	HOME=$tmpdir/home run_sampo script -i b.data --kallsyms kallsyms --symfs symfs "$@" >got 2>err
	compare_report want got "$*"
}
for fields in ip,sym,brstack ip,sym,dso,brstack ip,brstacksym ip,dso,brstacksym \
	comm,ip,sym,symoff,brstacksym ip,brstack,brstacksym +brstack; do
	check -F "$fields"
done
[ "$fails" -eq 0 ] || die "$fails outputs differ from perf's"

# first principles: the first sample's first branch, burn_outer_delta's call of
# burn_middle_gamma (at file address 0x11f0, to 0x11aa), predicted, 5 cycles
HOME=$tmpdir/home run_sampo script -i b.data --kallsyms kallsyms --symfs symfs -F ip,dso,brstacksym |
	head -1 >got
grep -q '^     555555555169 (/tmp/pfx/burn)burn_outer_delta+0x23(/tmp/pfx/burn)/burn_middle_gamma+0x0(/tmp/pfx/burn)/P/-/-/5/CALL ' got ||
	die "first branch: $(cat got)"

wild() {
	local f
	f=$(wild_file "$1")
	shift
	perf_foreign script -i "$f" "$@" >want
	sampo_wild script -i "$f" "$@" >got 2>/dev/null
	[ -s want ] || die "$(basename "$f") $*: perf printed nothing"
	compare_report want got "$(basename "$f") $*"
}
for f in pdc__perf.data.branch-4.14 pdc__perf.data.branch_stack_spec \
	pdc__perf.data.branch_stack_hw_index pdc__perf.data.callgraph_and_branch-3.4 \
	pdc__perf.data.raw_callgraph_branch-3.4; do
	for fields in ip,brstack ip,dso,brstack ip,sym,brstacksym ip,dso,brstacksym +brstack; do
		wild "$f" -F "$fields"
	done
done
wild pp__vector_static_gcc_perf.lbr.data -F ip,brstack -G
wild pp__vector_static_gcc_perf.lbr.data -F ip,dso,brstacksym -G
[ "$fails" -eq 0 ] || die "$fails outputs differ from perf's"

# a file without branch stacks: perf's message
expect_status 1 script -i "$dir/b-callchain-fp/perf.data" -F ip,brstack
grep -q "have no BRANCH_STACK: cannot print field .brstack.$" "$tmpdir/stderr" || die "$(cat "$tmpdir/stderr")"
pass

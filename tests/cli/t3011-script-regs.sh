#!/bin/bash
# t3011-script-regs: script -F iregs and uregs print the sampled registers as
# perf 6.1 does (" ABI:2 ", then "%5s:0x%x " for each register of the mask,
# named by the recording machine's architecture from the file's ARCH
# feature), and dump names them the same; nothing for a sample without
# registers (ABI 0). Files written here for thirteen architectures, with a
# few registers and with all 64 mask bits (names perf does not have are
# "unknown"); wild x86_64 DWARF recordings of perf 5.x to 6.x.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-wild.sh"
need_perf
need_cmd python3

cd "$tmpdir"
mkdir -p home
cat >gen.py <<'PYEOF'
import os, struct, sys
sys.path.insert(0, os.environ["SAMPO_SRCDIR"] + "/tests/cli")
from perfdata_gen import cstr, perf_string, rec, write_file

out, arch = sys.argv[1], sys.argv[2]
IP, TID, TIME, PERIOD, REGS_USER, REGS_INTR = 1, 2, 4, 0x100, 0x1000, 0x40000
umask0 = (1 << 0) | (1 << 3) | (1 << 7) | (1 << 8) | (1 << 17) | (1 << 31) | (1 << 32) | (1 << 40)
imask0 = (1 << 1) | (1 << 2) | (1 << 30) | (1 << 33) | (1 << 63)
ST = IP | TID | TIME | PERIOD | REGS_USER | REGS_INTR
umask = (1 << 64) - 1 if len(sys.argv) > 3 else umask0
imask = (1 << 64) - 1 if len(sys.argv) > 3 else imask0

def regs(abi, mask, base):
    if not abi:
        return struct.pack('<Q', 0)
    n = bin(mask).count('1')
    return struct.pack('<Q', abi) + b''.join(struct.pack('<Q', base + i * 0x111) for i in range(n))

R = [rec(3, 0, struct.pack('<II', 100, 100) + cstr('prog') + struct.pack('<IIQ', 100, 100, 1))]
t = 10
for abi_u, abi_i in ((2, 2), (1, 0), (0, 2), (0, 0)):
    body = struct.pack('<QIIQQ', 0x400100 + t, 100, 100, t, 1000)
    body += regs(abi_u, umask, 0x7ffd0000 + t) + regs(abi_i, imask, 0xffff000000000000 + t)
    R.append(rec(9, 2, body))
    t += 1
attr = struct.pack('<IIQQQQQIIQQQQIiQIHHIIQ', 1, 128, 0, 1000, ST, 0, (1 << 18) | (1 << 9),
                   0, 0, 0, 0, 0, umask, 0, 0, imask, 0, 0, 0, 0, 0, 0)
write_file(out, attr, R, {6: perf_string(arch)}, 'cpu-clock')
PYEOF

fails=0
for arch in x86_64 i686 aarch64 armv7l ppc64le s390x riscv64 mips sparc64 csky loongarch64 sh4 \
	parisc; do
	for full in "" full; do
		python3 gen.py r.data "$arch" $full
		HOME=$tmpdir/home "$PERF" script -f -i r.data -F ip,iregs,uregs >want 2>/dev/null
		HOME=$tmpdir/home run_sampo script -i r.data -F ip,iregs,uregs >got 2>/dev/null
		compare_report want got "$arch $full script"
		HOME=$tmpdir/home "$PERF" report -D -f -i r.data 2>/dev/null | grep '^\.\.\.\. ' >want
		HOME=$tmpdir/home run_sampo dump -i r.data 2>/dev/null | grep '^\.\.\.\. ' >got
		compare_report want got "$arch $full dump"
	done
done
[ "$fails" -eq 0 ] || die "$fails outputs differ from perf's"

# first principles: the first sample's user registers on arm64 are x0, x3, x7,
# x8, x17, sp (31), pc (32) and bit 40, which arm64 does not name
python3 gen.py r.data aarch64
HOME=$tmpdir/home run_sampo script -i r.data -F ip,uregs | head -1 >got
grep -q '^ *40010a ABI:2    x0:0x7ffd000a    x3:0x7ffd011b    x7:0x7ffd022c    x8:0x7ffd033d   x17:0x7ffd044e    sp:0x7ffd055f    pc:0x7ffd0670 unknown:0x7ffd0781 $' got ||
	die "arm64 registers: $(cat got)"

wild() {
	local f
	f=$(wild_file "$1")
	shift
	perf_foreign script -i "$f" "$@" >want
	sampo_wild script -i "$f" "$@" >got 2>/dev/null
	[ -s want ] || die "$(basename "$f") $*: perf printed nothing"
	compare_report want got "$(basename "$f") $*"
}
for f in hs__perf.data.true.v2 pp__fork_static_gcc_perf.data.zstd \
	pp__parallel_static_gcc_perf.data.zstd pp__vector_static_clang_perf.data \
	pp__vector_static_gcc_perf.data; do
	wild "$f" -F ip,sym,uregs
	wild "$f" -F +uregs
done
wild pp__contentsize.data -F ip,uregs -G # its user frames differ (docs/wild-corpus.md)
[ "$fails" -eq 0 ] || die "$fails outputs differ from perf's"

expect_status 1 script -i r.data -F ip,iregs,brstack
grep -q "have no BRANCH_STACK: cannot print field 'brstack'$" "$tmpdir/stderr" || die "$(cat "$tmpdir/stderr")"
pass

#!/bin/bash
# t3003-script-symoff-nested: sym+off is always the distance from the start of the symbol printed, also with nested symbols
#
# outer covers [outer, outer+0x40) and inner [outer+0x10, outer+0x18) lies
# inside it. script used to search the addresses before the sample for the
# start of outer as if they were one range, and printed outer+0x8 for a
# sample at outer+0x20 (outer starts a page, where the map starts). Samples
# past inner's end are named as perf 6.1 names them: its rb-tree of this
# file's symbols (in .symtab order: _start, inner, __bss_start, outer,
# _edata, _end) has inner at the root, and the descent turns right at inner
# and away from outer: [unknown], as `perf script -F ip,sym,symoff` prints
# for this file. The file is built here (an ELF from assembly, a perf.data
# from Python); no perf needed.
. "$(dirname "$0")/lib.sh"
need_cmd cc
need_cmd python3
need_cmd nm

cd "$tmpdir"
cat >nested.s <<'ASM'
	.text
	.globl	_start
	.type	_start, @function
_start:
	ret
	.size	_start, 1
	.balign	4096
	.globl	outer
	.type	outer, @function
outer:
	.skip	16, 0x90
	.globl	inner
	.type	inner, @function
inner:
	.skip	8, 0x90
	.size	inner, 8
	.skip	39, 0x90
	ret
	.size	outer, 64
ASM
cc -nostdlib -static -no-pie -Wl,--build-id=none -o nested nested.s 2>/dev/null ||
	skip "cannot link a static test program"
outer=$(nm nested | awk '$3 == "outer" { print $1 }')
[ -n "$outer" ] || die "no outer in the test program"

python3 - "$tmpdir/nested" "$outer" <<'PYEOF'
import struct, sys
path, outer = sys.argv[1], int(sys.argv[2], 16)

def rec(type, misc, body):
    return struct.pack('<IHH', type, misc, 8 + len(body)) + body

def cstr(s):
    b = s.encode() + b'\0'
    return b + bytes((-len(b)) % 8)

# one attr: cpu-clock, sample_type IP | TID
attr = struct.pack('<IIQQQQQIIQQQQIiQIHHIIQ', 1, 128, 0, 1, 0x3, 0, 0, 0, 0, 0, 0, 0, 0,
                   0, 0, 0, 0, 0, 0, 0, 0, 0)
pid = 4242
page = outer & ~0xfff
# the page of outer mapped where the static binary runs it: pgoff = vaddr - 0x400000
data = rec(3, 0, struct.pack('<II', pid, pid) + cstr('nested'))
data += rec(1, 2, struct.pack('<IIQQQ', pid, pid, page, 0x1000, page - 0x400000) + cstr(path))
for off in (0x0, 0x11, 0x20, 0x3f):
    data += rec(9, 2, struct.pack('<QII', outer + off, pid, pid))
attrs_off = 104
attrs_blob = attr + struct.pack('<QQ', 0, 0)
data_off = attrs_off + len(attrs_blob)
h = struct.pack('<9Q', 0x32454c4946524550, 104, 144, attrs_off, len(attrs_blob), data_off,
                len(data), 0, 0) + struct.pack('<4Q', 0, 0, 0, 0)
open('nested.data', 'wb').write(h + attrs_blob + data)
PYEOF

expect_status 0 script -F ip,sym,symoff -i nested.data
cat >want <<EOF
$(printf ' %16x' $((0x$outer))) outer+0x0
$(printf ' %16x' $((0x$outer + 0x11))) inner+0x1
$(printf ' %16x' $((0x$outer + 0x20))) [unknown]
$(printf ' %16x' $((0x$outer + 0x3f))) [unknown]
EOF
compare_files want "$tmpdir/stdout"
pass

#!/bin/bash
# t7513-kallsyms-no-stretch: a kallsyms symbol never names code past its
# module's end or after a variable (issue 12.1, never a wrong name)
#
# kallsyms gives no sizes: perf stretches each symbol to the next one, over
# memory the snapshot does not describe (a module loaded after it, an init
# section freed before it), and names such code after whatever comes before,
# a variable of another module included. The file is written here: a kernel
# map, a map of module moda only, kernel samples, and a snapshot where moda
# ends in a function, modb (no map) in a variable, modc (no map) in a
# function:
#   moda_fn    in moda's map                        -> moda_fn [moda]
#   after moda_var, in moda's map                   -> unresolved (a variable)
#   past moda's map, after moda's last function     -> unresolved (moda ends there)
#   after modb_var, no map                          -> unresolved (a variable)
#   after modc_fn, no map                           -> modc_fn (nothing says where modc ends)
# (perf 6.1 names none of the module samples of this file: it does not take
# module symbols from a kallsyms snapshot without the modules' files.)
. "$(dirname "$0")/lib.sh"
need_cmd python3
cd "$tmpdir"

K=0xffffffff81000000
cat >gen.py <<'PYEOF'
import struct, sys

def rec(type, misc, body):
    return struct.pack('<IHH', type, misc, 8 + len(body)) + body

def cstr(s):
    b = s.encode() + b'\0'
    return b + bytes((-len(b)) % 8)

def perf_string(s):
    b = s.encode() + b'\0'
    b += bytes((-len(b)) % 64)
    return struct.pack('<I', len(b)) + b

ST = 0x107  # IP | TID | TIME | PERIOD
sid = struct.pack('<IIQ', 0, 0, 0)
R = []
def mmap(start, length, pgoff, name):
    R.append(rec(1, 1, struct.pack('<IIQQQ', 0xffffffff, 0, start, length, pgoff) + cstr(name) + sid))
mmap(0xffffffff81000000, 0x100000, 0xffffffff81000000, '[kernel.kallsyms]_text')
mmap(0xffffffffc0000000, 0x3000, 0, '/lib/modules/6.1.0/kernel/drivers/moda.ko')
R.append(rec(3, 0, struct.pack('<II', 100, 100) + cstr('insmod') + sid))
t = 10
for ip in (0xffffffffc0000010, 0xffffffffc0002100, 0xffffffffc0004000, 0xffffffffc0101000,
           0xffffffffc0200100, 0xffffffff81000110):
    R.append(rec(9, 1, struct.pack('<QIIQQ', ip, 100, 100, t, 1000)))
    t += 1
attr = struct.pack('<IIQQQQQIIQQQQIiQIHHIIQ', 1, 128, 0, 1000, ST, 0, (1 << 18) | (1 << 8),
                   0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
attrs_off = 104
data_off = attrs_off + 128 + 16
data = b''.join(R)
ed = struct.pack('<II', 1, 128) + attr + struct.pack('<I', 0) + perf_string('cpu-clock')
feat_off = data_off + len(data) + 16
h = struct.pack('<9Q', 0x32454c4946524550, 104, 144, attrs_off, 128 + 16, data_off, len(data),
                0, 0) + struct.pack('<4Q', 1 << 12, 0, 0, 0)
open(sys.argv[1], 'wb').write(h + attr + struct.pack('<QQ', 0, 0) + data +
                              struct.pack('<QQ', feat_off, len(ed)) + ed)
PYEOF
python3 gen.py k.data
cat >kallsyms <<'KEOF'
ffffffff81000000 T _text
ffffffff81000100 T kernel_fn
ffffffff81100000 T _etext
ffffffffc0000000 t moda_fn	[moda]
ffffffffc0002000 d moda_var	[moda]
ffffffffc0002800 t moda_last	[moda]
ffffffffc0100000 d modb_var	[modb]
ffffffffc0200000 t modc_fn	[modc]
KEOF

run_sampo script -i k.data --kallsyms kallsyms -F ip,sym,dso >got 2>err
cat >want <<'WEOF'
 ffffffffc0000010 moda_fn ([moda])
 ffffffffc0002100 [unknown] ([moda])
 ffffffffc0004000 [unknown] ([unknown])
 ffffffffc0101000 [unknown] ([unknown])
 ffffffffc0200100 modc_fn ([modc])
 ffffffff81000110 kernel_fn ([kernel.kallsyms])
WEOF
compare_files want got

pass

#!/usr/bin/env python3
# mkseed-unwind.py PERF_DATA ELF OUT_PREFIX [N [FLAGS]] - seeds for fuzz-unwind
#
# Takes the first N (default 2) samples with user registers and a stack copy
# from a file-mode perf.data recorded with --call-graph dwarf on ELF (a
# static non-PIE program, mapped whole at 0x400000), as `perf report -D`
# prints them, and writes OUT_PREFIX-K: fuzz-unwind's header (elf size,
# flags, abi, mask, map start 0x400000, pgoff 0, 34 registers), the ELF,
# then the stack copy (read from the record, after its size word).
#
#   perf record -e cpu-clock:u --call-graph dwarf,1024 -o p.data ./tiny
#   fuzz/mkseed-unwind.py p.data tiny fuzz/corpus/unwind/tiny 2
import re
import struct
import subprocess
import sys

data_path, elf_path, prefix = sys.argv[1:4]
want = int(sys.argv[4]) if len(sys.argv) > 4 else 2
flags = int(sys.argv[5], 0) if len(sys.argv) > 5 else 0

dump = subprocess.run(['perf', 'report', '-D', '-i', data_path], capture_output=True,
                      text=True, check=True).stdout
elf = open(elf_path, 'rb').read()
raw = open(data_path, 'rb').read()

made = 0
rec_off = None
regs, abi, mask = [], 0, 0
for line in dump.splitlines():
    m = re.match(r'\S+ (0x[0-9a-f]+) \[0x[0-9a-f]+\]: PERF_RECORD_SAMPLE', line)
    if m:
        rec_off, regs, abi, mask = int(m.group(1), 16), [], 0, 0
        continue
    m = re.match(r'\.\.\. user regs: mask (0x[0-9a-f]+) ABI (\d+)-bit', line)
    if m and rec_off is not None:
        mask, abi = int(m.group(1), 16), 2 if m.group(2) == '64' else 1
        continue
    m = re.match(r'\.\.\.\. \w+\s+(0x[0-9a-f]+)$', line)
    if m and rec_off is not None:
        regs.append(int(m.group(1), 16))
        continue
    m = re.match(r'\.\.\. ustack: size (\d+), offset (0x[0-9a-f]+)', line)
    if m and rec_off is not None and regs:
        size, off = int(m.group(1)), int(m.group(2), 16)
        start = rec_off + off + 8
        stack = raw[start:start + size]
        hdr = struct.pack('<IIQQQQ', len(elf), flags, abi, mask, 0x400000, 0)
        hdr += struct.pack('<34Q', *(regs + [0] * 34)[:34])
        with open('%s-%d' % (prefix, made + 1), 'wb') as f:
            f.write(hdr + elf + stack)
        made += 1
        rec_off = None
        if made == want:
            break
print('%d seeds' % made)

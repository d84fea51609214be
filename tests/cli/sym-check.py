#!/usr/bin/env python3
"""sym-check.py - check every sample's symbol from first principles.

usage: sym-check.py MAPS SCRIPT DSO=REFERENCE [DSO=REFERENCE...]

MAPS is the workload's own /proc/self/maps (written by the program before it
exits); SCRIPT is `script -F ip,sym,dso` output (sampo's or perf's); each
DSO=REFERENCE pair names a recorded path and the unstripped ELF file built
from the same link (the reference for its symbols).

For each sample in one of the DSOs: the file offset is ip - map start + map
offset (from MAPS), the link-time address comes from the reference's own
PT_LOAD headers (read here with struct, not through any tool of the
project), and the expected name is the reference's function (nm -S) or
PLT entry (objdump's NAME@plt labels, 16 bytes) that holds it. A sample
whose address is in no such symbol (padding, the PLT header) is counted
as unchecked. Prints one line "checked N unchecked M wrong K" and the
first wrong samples; exit 1 when any is wrong or none was checked.
"""
import re
import struct
import subprocess
import sys


def load_segments(path):
    with open(path, "rb") as f:
        data = f.read()
    if data[:4] != b"\x7fELF" or data[4] != 2:
        sys.exit(f"{path}: not a 64-bit ELF file")
    end = "<" if data[5] == 1 else ">"
    phoff, = struct.unpack_from(end + "Q", data, 0x20)
    phentsize, phnum = struct.unpack_from(end + "HH", data, 0x36)
    segs = []
    for i in range(phnum):
        p_type, _flags, p_offset, p_vaddr, _paddr, p_filesz = struct.unpack_from(
            end + "IIQQQQ", data, phoff + i * phentsize)
        if p_type == 1:  # PT_LOAD
            segs.append((p_offset, p_vaddr, p_filesz))
    return segs


def load_symbols(path):
    syms = []
    out = subprocess.run(["nm", "-S", "--defined-only", path], capture_output=True,
                         text=True, check=True).stdout
    for line in out.splitlines():
        parts = line.split()
        if len(parts) != 4 or parts[2] not in "TtWwi":
            continue
        start, size = int(parts[0], 16), int(parts[1], 16)
        if size:
            syms.append((start, start + size, parts[3]))
    out = subprocess.run(["objdump", "-d", path], capture_output=True, text=True,
                         check=True).stdout
    for m in re.finditer(r"^([0-9a-f]+) <([^>]+@plt)>:", out, re.M):
        start = int(m.group(1), 16)
        syms.append((start, start + 16, m.group(2)))
    return syms


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    maps = []
    with open(sys.argv[1]) as f:
        for line in f:
            parts = line.split()
            if len(parts) < 6:
                continue
            lo, hi = (int(x, 16) for x in parts[0].split("-"))
            maps.append((lo, hi, int(parts[2], 16), parts[5]))
    refs = {}
    for arg in sys.argv[3:]:
        dso, ref = arg.split("=", 1)
        refs[dso] = (load_segments(ref), load_symbols(ref))
    line_re = re.compile(r"^\s*([0-9a-f]+)\s+(.*?)\s+\((.*)\)$")
    checked = unchecked = 0
    wrong = []
    with open(sys.argv[2]) as f:
        for line in f:
            m = line_re.match(line.rstrip("\n"))
            if not m or m.group(3) not in refs:
                continue
            ip, sym, dso = int(m.group(1), 16), m.group(2), m.group(3)
            segs, syms = refs[dso]
            mp = [x for x in maps if x[0] <= ip < x[1] and x[3] == dso]
            if not mp:
                wrong.append(f"{ip:x} {sym} ({dso}): in no map of {dso} in the maps file")
                continue
            off = ip - mp[0][0] + mp[0][2]
            seg = [s for s in segs if s[0] <= off < s[0] + s[2]]
            if not seg:
                wrong.append(f"{ip:x} {sym}: file offset {off:#x} is in no PT_LOAD")
                continue
            vaddr = off - seg[0][0] + seg[0][1]
            want = [s[2] for s in syms if s[0] <= vaddr < s[1]]
            if not want:
                unchecked += 1
                continue
            checked += 1
            if sym not in want:
                wrong.append(f"{ip:x} (vaddr {vaddr:#x}): got '{sym}', want '{want[0]}'")
    print(f"checked {checked} unchecked {unchecked} wrong {len(wrong)}")
    for w in wrong[:10]:
        print("  " + w)
    sys.exit(1 if wrong or not checked else 0)


main()

#!/usr/bin/env python3
# mkvmlinux.py KALLSYMS BUILD-ID OUT - a stand-in vmlinux for the debuginfod tests: an ELF64
# x86-64 executable whose symbol table holds the text symbols of a kallsyms snapshot (t, T, w, W)
# at their addresses, in a NOBITS .text that spans them, with a GNU build-id note of BUILD-ID:
# what a kernel's debuginfo gives the symbolizer, without its megabytes of code and DWARF.
# Written by hand (struct): an assembler cannot give two static functions the same name.
import struct
import sys

ks, bid_hex, out = sys.argv[1:4]
syms = []
for line in open(ks):
    f = line.split()
    if len(f) != 3 or f[1] not in "tTwW":
        continue
    syms.append((int(f[0], 16), f[2], f[1] in "TW"))
syms.sort(key=lambda s: s[0])
base, end = syms[0][0], syms[-1][0] + 4096

strtab = bytearray(b"\0")
local, glob = [], []
for addr, name, is_global in syms:
    off = len(strtab)
    strtab += name.encode() + b"\0"
    # st_name, st_info (binding << 4 | STT_FUNC), st_other, st_shndx (.text = 1), value, size
    (glob if is_global else local).append(struct.pack("<IBBHQQ", off, (1 if is_global else 0) << 4 | 2, 0, 1, addr, 0))
symtab = struct.pack("<IBBHQQ", 0, 0, 0, 0, 0, 0) + b"".join(local) + b"".join(glob)
bid = bytes.fromhex(bid_hex)
note = struct.pack("<III", 4, len(bid), 3) + b"GNU\0" + bid
note += b"\0" * (-len(note) % 4)
shstrtab = b"\0.text\0.note.gnu.build-id\0.symtab\0.strtab\0.shstrtab\0"
names = {n: shstrtab.index(n.encode() + b"\0") for n in
         (".text", ".note.gnu.build-id", ".symtab", ".strtab", ".shstrtab")}

ehsize, phentsize, shentsize = 64, 56, 64
phoff = ehsize
data_off = phoff + 2 * phentsize
note_off = data_off
sym_off = note_off + len(note)
sym_off += -sym_off % 8
str_off = sym_off + len(symtab)
shs_off = str_off + len(strtab)
shoff = shs_off + len(shstrtab)
shoff += -shoff % 8

body = bytearray(shoff)
body[note_off:note_off + len(note)] = note
body[sym_off:sym_off + len(symtab)] = symtab
body[str_off:str_off + len(strtab)] = strtab
body[shs_off:shs_off + len(shstrtab)] = shstrtab
ident = b"\x7fELF" + bytes([2, 1, 1, 0]) + b"\0" * 8
body[0:64] = ident + struct.pack("<HHIQQQIHHHHHH", 2, 62, 1, base, phoff, shoff, 0, ehsize,
                                 phentsize, 2, shentsize, 6, 5)
# PT_LOAD for the text (no bytes in the file), PT_NOTE for the build-id
body[phoff:phoff + 56] = struct.pack("<IIQQQQQQ", 1, 5, 0, base, base, 0, end - base, 4096)
body[phoff + 56:phoff + 112] = struct.pack("<IIQQQQQQ", 4, 4, note_off, 0, 0, len(note), len(note), 4)
nlocal = 1 + len(local)
shdrs = [
    struct.pack("<IIQQQQIIQQ", 0, 0, 0, 0, 0, 0, 0, 0, 0, 0),
    struct.pack("<IIQQQQIIQQ", names[".text"], 8, 6, base, 0x1000, end - base, 0, 0, 16, 0),
    struct.pack("<IIQQQQIIQQ", names[".note.gnu.build-id"], 7, 2, 0, note_off, len(note), 0, 0, 4, 0),
    struct.pack("<IIQQQQIIQQ", names[".symtab"], 2, 0, 0, sym_off, len(symtab), 4, nlocal, 8, 24),
    struct.pack("<IIQQQQIIQQ", names[".strtab"], 3, 0, 0, str_off, len(strtab), 0, 0, 1, 0),
    struct.pack("<IIQQQQIIQQ", names[".shstrtab"], 3, 0, 0, shs_off, len(shstrtab), 0, 0, 1, 0),
]
with open(out, "wb") as o:
    o.write(bytes(body) + b"".join(shdrs))

#!/usr/bin/env python3
# simpleperf-names.py - an independent reader of Android simpleperf's
# perf.data files, the truth the simpleperf tests compare sampo with.
#
#   simpleperf-names.py counts FILE     "TYPE COUNT" per record type, simpleperf's sizing
#   simpleperf-names.py table FILE      "PATH TYPE MIN_VADDR FOFF NSYMS" per FILE/FILE2 entry
#   simpleperf-names.py names FILE      "TID IP SYMBOL DSO" per sample whose DSO has a table entry
#   simpleperf-names.py demangled FILE  the same, C++ names demangled by c++filt (binutils), in full
#                                       as simpleperf's report prints them
#
# Written from simpleperf's sources (AOSP system/extras/simpleperf: record.h,
# record_file_format.h, record_file_reader.cpp, record_file.proto, dso.cpp,
# thread_tree.cpp), not from sampo's: it shares no code with sampo.
#
# Naming, as simpleperf's report does with no local files: a sample's map is
# the newest map of its process (kernel maps for kernel samples) holding the
# address; the address in the DSO (vaddr) is
#   kernel:  the address itself (no vmlinux: no KASLR fix)
#   ELF:     ip - start + pgoff - file_offset_of_min_vaddr + min_vaddr, or
#            ip - start + min_vaddr when the table has no file offset
#   module:  ip - start - memory_offset_of_min_vaddr + min_vaddr
# and its symbol the table's last one starting at or below vaddr, if vaddr is
# below its start + len; else "[unknown]". Names are printed as stored
# (mangled); samples in a DSO with no table entry are left out.
import struct
import subprocess
import sys

DSO_KERNEL, DSO_KERNEL_MODULE, DSO_ELF_FILE, DSO_DEX_FILE = 0, 1, 2, 3
NO_OFFSET = (1 << 64) - 1


def u(fmt, b, off):
    return struct.unpack_from('<' + fmt, b, off)


class File:
    def __init__(self, path):
        self.b = b = open(path, 'rb').read()
        if b[:8] != b'PERFILE2':
            raise SystemExit('%s: not a PERFILE2 file' % path)
        (_, self.attr_size, attr_off, attrs_size, self.data_off, self.data_size,
         _, _) = u('8Q', b, 8)
        self.sample_type = u('Q', b, attr_off + 24)[0]
        bits = b[72:104]
        feats = [i for i in range(256) if bits[i // 8] >> (i % 8) & 1]
        base = self.data_off + self.data_size
        self.feats = {}
        for i, f in enumerate(feats):
            self.feats[f] = u('QQ', b, base + 16 * i)

    def feature(self, f):
        off, size = self.feats[f]
        return self.b[off:off + size]

    def records(self):
        b, p, end = self.b, self.data_off, self.data_off + self.data_size
        while p + 8 <= end:
            rtype, misc, size = u('IHH', b, p)
            if rtype >= 32768:
                size |= misc << 16
                misc = 0
            if size < 8:
                raise SystemExit('bad record size at %#x' % p)
            yield p, rtype, misc, b[p + 8:p + size]
            p += size

    def table(self):
        """the FILE (v1, preferred as simpleperf does) or FILE2 entries"""
        if 128 in self.feats:
            return parse_file_v1(self.feature(128))
        if 132 in self.feats:
            return parse_file_v2(self.feature(132))
        return []


def cstring(b, off):
    end = b.index(b'\0', off)
    return b[off:end].decode('utf-8', 'replace'), end + 1


def parse_file_v1(b):
    out, p = [], 0
    while p < len(b):
        size = u('I', b, p)[0]
        e, p = b[p + 4:p + 4 + size], p + 4 + size
        path, q = cstring(e, 0)
        dtype, min_vaddr, nsyms = u('IQI', e, q)
        q += 16
        syms = []
        for _ in range(nsyms):
            vaddr, length = u('QI', e, q)
            name, q = cstring(e, q + 12)
            syms.append((vaddr, length, name))
        if dtype == DSO_DEX_FILE:
            n = u('I', e, q)[0]
            q += 4 + 8 * n
        foff = NO_OFFSET
        if dtype in (DSO_ELF_FILE, DSO_KERNEL_MODULE) and q < len(e):
            foff = u('Q', e, q)[0]
        out.append((path, dtype, min_vaddr, foff, syms))
    return out


def varint(b, p):
    v = shift = 0
    while True:
        c = b[p]
        p += 1
        v |= (c & 0x7f) << shift
        shift += 7
        if not c & 0x80:
            return v, p


def fields(b):
    """protobuf wire format: (field number, value) pairs; bytes for length-delimited"""
    p = 0
    while p < len(b):
        key, p = varint(b, p)
        num, wire = key >> 3, key & 7
        if wire == 0:
            v, p = varint(b, p)
        elif wire == 2:
            n, p = varint(b, p)
            v, p = b[p:p + n], p + n
        elif wire == 1:
            v, p = u('Q', b, p)[0], p + 8
        elif wire == 5:
            v, p = u('I', b, p)[0], p + 4
        else:
            raise SystemExit('bad wire type %d' % wire)
        yield num, v


def parse_file_v2(b):
    out, p = [], 0
    while p < len(b):
        size = u('I', b, p)[0]
        msg, p = b[p + 4:p + 4 + size], p + 4 + size
        path, dtype, min_vaddr, foff, syms = '', 0, 0, NO_OFFSET, []
        for num, v in fields(msg):
            if num == 1:
                path = v.decode('utf-8', 'replace')
            elif num == 2:
                dtype = v
            elif num == 3:
                min_vaddr = v
            elif num == 4:
                s = dict(fields(v))
                syms.append((s.get(1, 0), s.get(2, 0), s.get(3, b'').decode('utf-8', 'replace')))
            elif num in (6, 7):
                foff = dict(fields(v)).get(1, 0)
        out.append((path, dtype, min_vaddr, foff, syms))
    return out


def sample_fields(st, body):
    """ip, pid, tid of a SAMPLE body"""
    p = 0
    ip = pid = tid = None
    if st & 0x10000:  # IDENTIFIER
        p += 8
    if st & 1:
        ip = u('Q', body, p)[0]
        p += 8
    if st & 2:
        pid, tid = u('II', body, p)
    return ip, pid, tid


def names(f):
    table = {e[0]: e for e in f.table()}
    kmaps, umaps = [], {}
    out = []
    for _, rtype, misc, body in f.records():
        cpumode = misc & 7
        if rtype in (1, 10):  # MMAP, MMAP2
            pid, tid, start, length, pgoff = u('IIQQQ', body, 0)
            name_off = 32 if rtype == 1 else 32 + 24 + 8
            path, _ = cstring(body, name_off)
            m = (start, length, pgoff, path)
            if cpumode == 1:
                kmaps.insert(0, m)
            else:
                umaps.setdefault(pid, []).insert(0, m)
        elif rtype == 9:
            ip, pid, tid = sample_fields(f.sample_type, body)
            maps = kmaps if cpumode == 1 else umaps.get(pid, [])
            m = next((m for m in maps if m[0] <= ip < m[0] + m[1]), None)
            if not m or m[3] not in table:
                continue
            start, _, pgoff, path = m
            _, dtype, min_vaddr, foff, syms = table[path]
            if dtype == DSO_KERNEL:
                vaddr = ip
            elif dtype == DSO_KERNEL_MODULE:
                vaddr = ip - start - (0 if foff == NO_OFFSET else foff) + min_vaddr
            elif foff == NO_OFFSET:
                vaddr = ip - start + min_vaddr
            else:
                vaddr = ip - start + pgoff - foff + min_vaddr
            vaddr &= (1 << 64) - 1
            name = '[unknown]'
            cand = [s for s in sorted(syms, key=lambda s: s[0]) if s[0] <= vaddr]
            if cand and vaddr < cand[-1][0] + cand[-1][1]:
                name = cand[-1][2]
            out.append('%d %x %s %s' % (tid, ip, name, path))
    return out


def main():
    cmd, path = sys.argv[1], sys.argv[2]
    f = File(path)
    if cmd == 'counts':
        counts = {}
        for _, rtype, _, _ in f.records():
            counts[rtype] = counts.get(rtype, 0) + 1
        for t in sorted(counts):
            print(t, counts[t])
    elif cmd == 'table':
        for path, dtype, min_vaddr, foff, syms in f.table():
            print(path, dtype, '%#x' % min_vaddr, '%#x' % foff, len(syms))
    elif cmd == 'names':
        for line in names(f):
            print(line)
    elif cmd == 'demangled':
        # simpleperf's Dso::Demangle(): the dynamic linker's "__dl_NAME" is "[linker]NAME"
        rows = [line.split(' ', 3) for line in names(f)]
        linker = {r[2]: r[2][5:] for r in rows if r[2].startswith('__dl_')}
        mangled = sorted({linker.get(r[2], r[2]) for r in rows} - {'[unknown]'})
        out = subprocess.run(['c++filt'], input='\n'.join(mangled) + '\n', capture_output=True,
                             text=True, check=True).stdout.split('\n')
        full = dict(zip(mangled, out))
        for tid, ip, name, path in rows:
            if name in linker:
                name = '[linker]' + full[linker[name]]
            print(tid, ip, full.get(name, name), path)
    else:
        raise SystemExit('usage: simpleperf-names.py counts|table|names FILE')


if __name__ == '__main__':
    main()

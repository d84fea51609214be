#!/usr/bin/env python3
# mksimpleperf.py - write a small perf.data in the layout Android's simpleperf
# writes (record_file_format.h, record.h, record_file.proto of AOSP
# system/extras/simpleperf), for tests of sampo's reading of such files.
#
#   mksimpleperf.py --file-version 1|2 [--no-file-table] OUT
#
# What it holds, all little-endian as simpleperf writes:
#   - one cpu-clock attr (sample_type IP|TID|TIME|PERIOD), no sample_id_all;
#   - MMAP records: the kernel ([kernel.kallsyms], 0 to ~0, as simpleperf
#     records it), /system/lib64/libfoo.so (mapped at file offset 0x1000, its
#     table giving min_vaddr 0x2000 at file offset 0x1000: vaddr = address -
#     start + pgoff - 0x1000 + 0x2000), /data/app/libbar.so (MMAP2, its data
#     segment mapped later from another device number, as Android apps' libraries
#     often are), and /usr/bin/true,
#     a path this machine has, for another architecture (the file says aarch64);
#   - simpleperf's own records: EVENT_ID, DEBUG, CALLCHAIN, a KERNEL_SYMBOL
#     of more than 64 KiB (its size's high half where perf has misc, as older
#     simpleperf wrote them) and a TRACING_DATA of more than 64 KiB cut in
#     SPLIT records and a SPLIT_END (as today's simpleperf writes them);
#   - a module map ([foo_mod], its table entry with min_vaddr 0x100 at memory
#     offset 0x80: vaddr = address - start - 0x80 + 0x100);
#   - samples in named symbols, in a gap between symbols, in the kernel and the
#     module;
#   - features: BUILD_ID, OSRELEASE, ARCH, META_INFO and the DSOs' symbol
#     tables as FILE (v1, feature 128) or FILE2 (protobuf, feature 132).
#
# With --expect it prints, instead of writing nothing else, what each sample
# must be named ("tid ip symbol dso" lines, "[unknown]" for no symbol): the
# truth the tests compare `sampo script` with, from the tables this writes.
import argparse
import struct

PERF_RECORD_MMAP = 1
PERF_RECORD_MMAP2 = 10
PERF_RECORD_COMM = 3
PERF_RECORD_SAMPLE = 9
SP_KERNEL_SYMBOL = 32769
SP_SPLIT = 32772
SP_SPLIT_END = 32773
SP_TRACING_DATA = 32777
SP_EVENT_ID = 32774
SP_CALLCHAIN = 32775
SP_DEBUG = 32778

SAMPLE_IP, SAMPLE_TID, SAMPLE_TIME, SAMPLE_PERIOD = 1, 2, 4, 0x100
MISC_KERNEL, MISC_USER = 1, 2

DSO_KERNEL, DSO_KERNEL_MODULE, DSO_ELF_FILE = 0, 1, 2
PID = 4242

# path -> (build-id, type, min_vaddr, file_offset_of_min_vaddr, symbols[(vaddr, len, name)])
DSOS = {
    '[kernel.kallsyms]': (bytes(range(1, 21)), DSO_KERNEL, 0, None, [
        (0xffffffc010080000, 0x100, 'el0_sync'),
        (0xffffffc010200000, 0x80, 'do_page_fault'),
    ]),
    # a module: vaddr = address - map start - 0x80 (memory offset of min_vaddr) + 0x100
    '[foo_mod]': (None, DSO_KERNEL_MODULE, 0x100, 0x80, [
        (0x200, 0x40, 'foo_mod_func'),
    ]),
    '/system/lib64/libfoo.so': (bytes(range(0x21, 0x35)), DSO_ELF_FILE, 0x2000, 0x1000, [
        (0x2100, 0x40, '_ZN3foo5alphaEv'),
        (0x2200, 0x80, 'foo_beta'),
        # 0x2280..0x2400: no symbol
        (0x2400, 0x20, 'foo_gamma'),
    ]),
    '/data/app/libbar.so': (bytes(range(0x41, 0x55)), DSO_ELF_FILE, 0, 0, [
        (0x500, 0x100, 'bar_main'),
    ]),
    '/usr/bin/true': (bytes(range(0x61, 0x75)), DSO_ELF_FILE, 0, 0, [
        (0x1000, 0x10, 'true_from_the_table'),
    ]),
}

# pid, start, len, pgoff, path, kernel?
MAPS = [
    (0xffffffff, 0, 0xffffffffffffffff, 0, '[kernel.kallsyms]', True),
    (0xffffffff, 0xffffffc011000000, 0x10000, 0, '[foo_mod]', True),
    (PID, 0x7000000000, 0x3000, 0x1000, '/system/lib64/libfoo.so', False),
    (PID, 0x7100000000, 0x1000, 0, '/data/app/libbar.so', False),
    (PID, 0x7200000000, 0x2000, 0, '/usr/bin/true', False),
]

# ip, kernel?
SAMPLES = [
    (0x7000000000 + 0x2110 - 0x2000, False),  # _ZN3foo5alphaEv
    (0x7000000000 + 0x2210 - 0x2000, False),  # foo_beta
    (0x7000000000 + 0x227f - 0x2000, False),  # foo_beta, last byte
    (0x7000000000 + 0x2300 - 0x2000, False),  # the gap: no symbol
    (0x7000000000 + 0x2405 - 0x2000, False),  # foo_gamma
    (0x7100000000 + 0x5ff, False),            # bar_main
    (0x7200000000 + 0x1004, False),           # true_from_the_table, never this machine's /usr/bin/true
    (0x7200000000 + 0x1800, False),           # /usr/bin/true outside its table: no symbol
    (0xffffffc010080010, True),               # el0_sync
    (0xffffffc010200040, True),               # do_page_fault
    (0xffffffc011000000 + 0x80 + 0x210 - 0x100, True),  # foo_mod_func
]


def align(n, a):
    return (n + a - 1) // a * a


def rec(rtype, body, misc=0):
    size = 8 + len(body)
    if rtype >= 32768:
        # simpleperf_record_header: u32 type, u16 size >> 16, u16 size & 0xffff
        return struct.pack('<IHH', rtype, size >> 16, size & 0xffff) + body
    assert size < 65536
    return struct.pack('<IHH', rtype, misc, size) + body


def cstr(s, a=8):
    b = s.encode() + b'\0'
    return b + b'\0' * (align(len(b), a) - len(b))


def perf_string(s):
    b = cstr(s, 64)
    return struct.pack('<I', len(b)) + b


def varint(v):
    out = b''
    while True:
        byte = v & 0x7f
        v >>= 7
        if v:
            out += bytes([byte | 0x80])
        else:
            return out + bytes([byte])


def pb_field(num, wire, payload):
    key = varint(num << 3 | wire)
    if wire == 0:
        return key + varint(payload)
    return key + varint(len(payload)) + payload


def file_v1_entry(path, dtype, min_vaddr, foff, syms):
    body = path.encode() + b'\0' + struct.pack('<IQI', dtype, min_vaddr, len(syms))
    for vaddr, length, name in syms:
        body += struct.pack('<QI', vaddr, length) + name.encode() + b'\0'
    if dtype in (DSO_ELF_FILE, DSO_KERNEL_MODULE):
        body += struct.pack('<Q', foff)
    return struct.pack('<I', len(body)) + body


def file_v2_entry(path, dtype, min_vaddr, foff, syms):
    msg = pb_field(1, 2, path.encode()) + pb_field(2, 0, dtype) + pb_field(3, 0, min_vaddr)
    for vaddr, length, name in syms:
        msg += pb_field(4, 2, pb_field(1, 0, vaddr) + pb_field(2, 0, length) +
                        pb_field(3, 2, name.encode()))
    if dtype == DSO_ELF_FILE:
        msg += pb_field(6, 2, pb_field(1, 0, foff))
    elif dtype == DSO_KERNEL_MODULE:
        msg += pb_field(7, 2, pb_field(1, 0, foff))
    return struct.pack('<I', len(msg)) + msg


def build(version, with_table):
    attr = struct.pack('<IIQQQQQIIQQQQIiQIHH', 1, 112, 0, 4000, SAMPLE_IP | SAMPLE_TID |
                       SAMPLE_TIME | SAMPLE_PERIOD, 0, 1 << 10, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
                       0, 0)  # flags: freq
    assert len(attr) == 112
    data = b''
    data += rec(SP_EVENT_ID, struct.pack('<QQQ', 1, 0, 42))
    for pid, start, length, pgoff, path, kernel in MAPS:
        tid = 0 if kernel else pid
        if path == '/data/app/libbar.so':
            # MMAP2: major 0x1e, minor 0x6e, inode 77
            data += rec(PERF_RECORD_MMAP2, struct.pack('<IIQQQIIQQII', pid, tid, start, length,
                                                       pgoff, 0x1e, 0x6e, 77, 1, 5, 2) +
                        cstr(path), MISC_USER)
            continue
        data += rec(PERF_RECORD_MMAP, struct.pack('<IIQQQ', pid, tid, start, length, pgoff) +
                    cstr(path), MISC_KERNEL if kernel else MISC_USER)
    # libbar.so's data segment from another device number, as an Android app's
    # libraries are often mapped (the file looks replaced while recording)
    data += rec(PERF_RECORD_MMAP2, struct.pack('<IIQQQIIQQII', PID, PID, 0x7100010000, 0x1000,
                                               0x1000, 1, 0, 77, 1, 3, 2) +
                cstr('/data/app/libbar.so'), MISC_USER)
    data += rec(PERF_RECORD_COMM, struct.pack('<II', PID, PID) + cstr('app'))
    kallsyms = ''.join('ffffffc0100%05x t sym_%d\n' % (i * 16, i) for i in range(3000))
    assert len(kallsyms) > 65536
    ks = kallsyms.encode()
    data += rec(SP_KERNEL_SYMBOL, struct.pack('<I', len(ks)) + ks + b'\0' * (align(len(ks), 8) - len(ks)))
    data += rec(SP_DEBUG, struct.pack('<Q', 5) + cstr('crafted by mksimpleperf.py'))
    # today's simpleperf writes a record over 64 KiB as SPLIT pieces and a SPLIT_END
    big = rec(SP_TRACING_DATA, struct.pack('<I', 70000) + b'\x5a' * 70016)
    for i in range(0, len(big), 65527):
        data += rec(SP_SPLIT, big[i:i + 65527])
    data += rec(SP_SPLIT_END, b'')
    time = 1000
    for ip, kernel in SAMPLES:
        data += rec(PERF_RECORD_SAMPLE, struct.pack('<QIIQQ', ip, PID, PID, time, 250000),
                    MISC_KERNEL if kernel else MISC_USER)
        time += 1000
    data += rec(SP_CALLCHAIN, struct.pack('<IIQQQ', PID, PID, 0, time, 1) +
                struct.pack('<QQ', SAMPLES[0][0], 0x7ffff000))

    feats = {}
    bid = b''
    for path, (build_id, dtype, _, _, _) in DSOS.items():
        if build_id is None:
            continue
        name = cstr(path, 64)
        misc = MISC_KERNEL if dtype == DSO_KERNEL else MISC_USER
        body = struct.pack('<i', -1 if dtype == DSO_KERNEL else PID) + build_id + b'\0' * 4 + name
        bid += struct.pack('<IHH', 0, misc, 8 + len(body)) + body
    feats[2] = bid
    feats[4] = perf_string('5.10.0-android')
    feats[6] = perf_string('aarch64')
    if with_table:
        table = b''
        for path, (_, dtype, min_vaddr, foff, syms) in DSOS.items():
            entry = file_v1_entry if version == 1 else file_v2_entry
            table += entry(path, dtype, min_vaddr, foff, syms)
        feats[128 if version == 1 else 132] = table
    feats[129] = b'simpleperf_version\0crafted\0clockid\0monotonic\0'

    header_size = 104
    attr_off = header_size
    attr_size = len(attr) + 16
    ids_off = attr_off + attr_size
    ids = struct.pack('<Q', 41)
    data_off = align(ids_off + len(ids), 8)
    attrs = attr + struct.pack('<QQ', ids_off, len(ids))
    feat_off = data_off + len(data)
    order = sorted(feats)
    table_off = feat_off
    payload_off = table_off + 16 * len(order)
    descs = b''
    payloads = b''
    for f in order:
        descs += struct.pack('<QQ', payload_off + len(payloads), len(feats[f]))
        payloads += feats[f]
    bits = bytearray(32)
    for f in order:
        bits[f // 8] |= 1 << (f % 8)
    header = b'PERFILE2' + struct.pack('<QQQQQQQQ', header_size, attr_size, attr_off, attr_size,
                                       data_off, len(data), 0, 0) + bytes(bits)
    out = header + attrs + ids
    out += b'\0' * (data_off - len(out))
    return out + data + descs + payloads


def expect():
    """What simpleperf names each sample: its own rules on the tables above."""
    lines = []
    for ip, kernel in SAMPLES:
        for pid, start, length, pgoff, path, k in reversed(MAPS):
            if k == kernel and start <= ip < start + length:
                break
        _, dtype, min_vaddr, foff, syms = DSOS[path]
        if dtype == DSO_KERNEL:
            vaddr = ip
        elif dtype == DSO_KERNEL_MODULE:
            vaddr = ip - start - foff + min_vaddr
        else:
            vaddr = ip - start + pgoff - foff + min_vaddr
        name = '[unknown]'
        for svaddr, slen, sname in syms:
            if svaddr <= vaddr < svaddr + slen:
                name = sname
        lines.append('%d %x %s %s' % (PID, ip, name, path))
    return '\n'.join(lines) + '\n'


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--file-version', type=int, choices=(1, 2), default=2)
    ap.add_argument('--no-file-table', action='store_true')
    ap.add_argument('--expect', action='store_true')
    ap.add_argument('out', nargs='?')
    a = ap.parse_args()
    if a.expect:
        print(expect(), end='')
        return
    with open(a.out, 'wb') as f:
        f.write(build(a.file_version, not a.no_file_table))


if __name__ == '__main__':
    main()

#!/bin/bash
# t1102-header-synthetic: sampo header prints every feature as perf 6.1 does, on generated files (both byte orders, file and pipe format)
. "$(dirname "$0")/lib.sh"

need_cmd python3

# The generator writes small perf.data files whose features exercise each of
# perf's print functions and their corner cases (all attr fields, cpu lists in
# odd forms, empty memory nodes, long bitmaps, quoted arguments, groups without
# EVENT_DESC names, BPF programs with BTF names, DIR_FORMAT on a plain file,
# ...). Their output is checked against tests/cli/expected/ and, when perf is
# installed, against perf itself.
cat >"$tmpdir/gen.py" <<'EOF'
import os, struct, sys

MAGIC = 0x32454c4946524550


class G:
    def __init__(self, endian):
        self.e = endian

    def u16(self, v): return struct.pack(self.e + 'H', v & 0xffff)
    def u32(self, v): return struct.pack(self.e + 'I', v & 0xffffffff)
    def u64(self, v): return struct.pack(self.e + 'Q', v & 0xffffffffffffffff)

    def string(self, s):
        b = s.encode()
        n = (len(b) + 1 + 63) // 64 * 64
        return self.u32(n) + b + b'\0' * (n - len(b))

    def strlist(self, lst):
        return self.u32(len(lst)) + b''.join(self.string(s) for s in lst)

    def flags(self, bits):
        v = 0
        for b in bits:
            v |= 1 << b
        if self.e == '<':
            return struct.pack('<Q', v)
        out = bytearray(8)  # big-endian bitfields fill each byte from its top bit
        for bit in range(64):
            if v >> bit & 1:
                out[bit // 8] |= 0x80 >> (bit % 8)
        return bytes(out)

    def attr(self, type=1, config=0, period=1000, sample_type=0x147, read_format=0x14,
             flags=(0, 1, 10, 18), wakeup=0, bp_type=0, config1=0, config2=0, branch=0,
             regs_user=0, stack_user=0, clockid=0, regs_intr=0, aux_wm=0, max_stack=0,
             aux_size=0, sig_data=0):
        return (self.u32(type) + self.u32(128) + self.u64(config) + self.u64(period) +
                self.u64(sample_type) + self.u64(read_format) + self.flags(flags) +
                self.u32(wakeup) + self.u32(bp_type) + self.u64(config1) + self.u64(config2) +
                self.u64(branch) + self.u64(regs_user) + self.u32(stack_user) +
                self.u32(clockid) + self.u64(regs_intr) + self.u32(aux_wm) +
                self.u16(max_stack) + self.u16(0) + self.u32(aux_size) + self.u32(0) +
                self.u64(sig_data))

    def event_desc(self, events):
        out = self.u32(len(events)) + self.u32(128)
        for a, name, ids in events:
            out += a + self.u32(len(ids)) + self.string(name) + b''.join(self.u64(i) for i in ids)
        return out

    def cpu_topology(self, pkgs, cores, cpus=None, dies=None, die_ids=()):
        out = self.strlist(pkgs) + self.strlist(cores)
        if cpus is not None:
            out += b''.join(self.u32(c) + self.u32(s) for c, s in cpus)
            if dies is not None:
                out += self.strlist(dies) + b''.join(self.u32(d) for d in die_ids)
        return out

    def numa(self, nodes):
        return self.u32(len(nodes)) + b''.join(
            self.u32(n) + self.u64(t) + self.u64(f) + self.string(c) for n, t, f, c in nodes)

    def pmu_mappings(self, maps):
        return self.u32(len(maps)) + b''.join(self.u32(t) + self.string(n) for t, n in maps)

    def group_desc(self, groups):
        return self.u32(len(groups)) + b''.join(
            self.string(n) + self.u32(l) + self.u32(m) for n, l, m in groups)

    def cache(self, caches):
        out = self.u32(1) + self.u32(len(caches))
        for lvl, line, sets, ways, typ, size, mp in caches:
            out += (self.u32(lvl) + self.u32(line) + self.u32(sets) + self.u32(ways) +
                    self.string(typ) + self.string(size) + self.string(mp))
        return out

    def mem_topology(self, bsize, nodes):
        out = self.u64(1) + self.u64(bsize) + self.u64(len(nodes))
        for node, nbits, bits in nodes:
            words = [0] * ((nbits + 63) // 64)
            for b in bits:
                words[b // 64] |= 1 << (b % 64)
            out += self.u64(node) + self.u64(nbits) + self.u64(nbits)
            out += b''.join(self.u64(w) for w in words)
        return out

    def caps(self, caps):
        return self.u32(len(caps)) + b''.join(self.string(n) + self.string(v) for n, v in caps)

    def build_ids(self, ents):
        out = b''
        for misc, pid, bid, name in ents:
            fn = name.encode()
            fn += b'\0' * ((len(fn) + 1 + 63) // 64 * 64 - len(fn))
            idb = (bid + b'\0' * 20)[:20] + bytes([len(bid)]) + b'\0\0\0'
            out += self.u32(0) + self.u16(misc) + self.u16(36 + len(fn)) + self.u32(pid) + idb + fn
        return out

    def file(self, features, attrs):
        data = self.u32(68) + self.u16(0) + self.u16(8)
        ids_blob, entries, offs = b'', b'', []
        for a, ids in attrs:
            offs.append((104 + len(ids_blob), 8 * len(ids)))
            ids_blob += b''.join(self.u64(i) for i in ids)
        for (a, ids), (o, s) in zip(attrs, offs):
            entries += a + self.u64(o) + self.u64(s)
        attrs_off = 104 + len(ids_blob)
        data_off = attrs_off + len(entries)
        bits = sorted(features)
        payload_off = data_off + len(data) + 16 * len(bits)
        table, payloads = b'', b''
        for b in bits:
            table += self.u64(payload_off + len(payloads)) + self.u64(len(features[b]))
            payloads += features[b]
        fbits = [0, 0, 0, 0]
        for b in bits:
            fbits[b // 64] |= 1 << (b % 64)
        hdr = (self.u64(MAGIC) + self.u64(104) + self.u64(144) + self.u64(attrs_off) +
               self.u64(len(entries)) + self.u64(data_off) + self.u64(len(data)) +
               self.u64(0) + self.u64(0) + b''.join(self.u64(w) for w in fbits))
        return hdr + ids_blob + entries + data + table + payloads

    def pipe(self, features, attrs, terminator=True):
        out = self.u64(MAGIC) + self.u64(16)
        for a, ids in attrs:
            body = a + b''.join(self.u64(i) for i in ids)
            out += self.u32(64) + self.u16(0) + self.u16(8 + len(body)) + body
        for fid in sorted(features):
            body = self.u64(fid) + features[fid]
            out += self.u32(80) + self.u16(0) + self.u16(8 + len(body)) + body
        if terminator:
            out += self.u32(80) + self.u16(0) + self.u16(16) + self.u64(32)
        # a few records after the features, as perf record writes them
        out += self.u32(68) + self.u16(0) + self.u16(8)
        return out


def base(g, nr_cpus=2):
    return {
        3: g.string('host'), 4: g.string('6.1.0-test'), 5: g.string('6.1.187'),
        6: g.string('x86_64'), 7: g.u32(nr_cpus) + g.u32(nr_cpus), 8: g.string('Test CPU'),
        9: g.string('GenuineIntel,6,85,4'), 10: g.u64(16384000),
        11: g.strlist(['/usr/bin/perf', 'record', '-e', 'cpu-clock']),
        12: g.event_desc([(g.attr(), 'cpu-clock', [7, 8])]),
        13: g.cpu_topology(['0-1'], ['0', '1'], [(0, 0), (1, 0)], ['0-1'], [0, 0]),
        14: g.numa([(0, 1000, 500, '0-1')]),
        16: g.pmu_mappings([(1, 'software'), (2, 'tracepoint')]),
        20: g.cache([(1, 64, 64, 8, 'Data', '32K', '0'),
                     (2, 64, 1024, 16, 'Unified', '1024K', '0-1')]),
        21: g.u64(1000123456789) + g.u64(1002123456789),
        22: g.mem_topology(0x8000000, [(0, 64, list(range(8)))]),
        31: g.u32(0),
    }


def bpf_prog(g):
    """One program with two sub-programs named through BTF (as recorded by perf)."""
    info = bytearray(232)
    def put(off, fmt, v): struct.pack_into('<' + fmt, info, off, v)
    put(0, 'I', 1); put(4, 'I', 99); info[8:16] = bytes.fromhex('692df2a51115ed24')
    put(16, 'I', 48); put(20, 'I', 40); info[64:73] = b'sampo_btf'
    put(104, 'I', 2); put(108, 'I', 2); put(112, 'Q', 0x30); put(120, 'Q', 0x40)
    put(128, 'I', 14); put(132, 'I', 8); put(136, 'Q', 0x48); put(144, 'I', 2)
    put(180, 'I', 2); put(184, 'Q', 0x58)
    data = bytes(0x30) + struct.pack('<QQ', 0xffffffffc0022060, 0xffffffffc00220a4)
    data += struct.pack('<II', 25, 23) + struct.pack('<IIII', 0, 2, 3, 3)
    data += bytes.fromhex('c3d697c98f3b60eeb11459a0e11ca14c')
    prog = struct.pack('<IIQ', 232, len(data), 0x1f9) + bytes(info) + data
    single = bytearray(info)
    struct.pack_into('<I', single, 4, 100)
    struct.pack_into('<I', single, 104, 1); struct.pack_into('<I', single, 108, 1)
    struct.pack_into('<I', single, 180, 1); struct.pack_into('<I', single, 128, 0)
    sdata = bytes(0x30) + struct.pack('<Q', 0xffffffffc00220d8) + struct.pack('<I', 20)
    sdata += bytes(12) + bytes.fromhex('59f4a931744dcdc6')
    struct.pack_into('<Q', single, 112, 0x30); struct.pack_into('<Q', single, 120, 0x38)
    struct.pack_into('<Q', single, 184, 0x48); struct.pack_into('<I', single, 144, 0)
    prog2 = struct.pack('<IIQ', 232, len(sdata), 0x1f9) + bytes(single) + sdata
    strs = b'\0my_func\0other_fn\0'
    types = b''.join(struct.pack('<III', n, k << 24, t) for n, k, t in ((0, 13, 0), (1, 12, 1), (9, 12, 1)))
    btf = struct.pack('<HBBIIIII', 0xeB9F, 1, 0, 24, 0, len(types), len(types), len(strs)) + types + strs
    return (g.u32(2) + prog2 + prog, g.u32(1) + g.u32(14) + g.u32(len(btf)) + btf)


def cases():
    for e, tag in (('<', 'le'), ('>', 'be')):
        g = G(e)
        f = base(g)
        a = g.attr(sample_type=0x107)
        yield f'std-{tag}.data', g.file(f, [(a, [7, 8])])
        if tag == 'le':  # perf 6.1 cannot read opposite-endian pipes
            yield f'std-{tag}.pipe', g.pipe(f, [(a, [7, 8])])

        every = tuple(range(38))
        a2 = g.attr(type=4, config=0x1234, period=4000, sample_type=(1 << 25) - 1,
                    read_format=0x1f, flags=every, wakeup=3, bp_type=2, config1=0xabc,
                    config2=0xdef, branch=(1 << 19) - 1, regs_user=0xff, stack_user=8192,
                    clockid=5, regs_intr=0x7, aux_wm=5, max_stack=127, aux_size=4096,
                    sig_data=77)
        ff = dict(f)
        ff[12] = g.event_desc([(a2, 'raw-ev', [1, 2, 3]),
                               (g.attr(type=0, sample_type=1 << 17), 'tx', []),
                               (g.attr(flags=(15,)), 'p1', [4]), (g.attr(flags=(16,)), 'p2', [5])])
        yield f'attrs-{tag}.data', g.file(ff, [(g.attr(), [1, 2, 3]), (g.attr(), [4])])

        ff = dict(f)
        ff[12] = g.event_desc([(g.attr(read_format=1 << 6), "bad", [1])])
        yield f'attrcheck-{tag}.data', g.file(ff, [(g.attr(), [1])])

        four = [(g.attr(), [i]) for i in range(1, 5)]
        ff = dict(f)
        ff[15] = b''
        ff[18] = g.u64(2) + g.u64(100) + g.u64(200) + g.u64(300) + g.u64(400)
        ff[19] = b''
        ff[23] = g.u64(3)
        ff[27] = g.u32(0) + g.u32(1) + g.u32(3) + g.u32(7) + g.u32(4096)
        ff[28] = g.caps([('branches', '32'), ('max_precise', '3')])
        ff[29] = g.u32(1) + g.u32(4) + g.u64(1700000000123456789) + g.u64(5123456789)
        ff[30] = g.u32(2) + g.string('cpu_core') + g.string('0-7') + g.string('cpu_atom') + g.string('8-15')
        ff[31] = (g.u32(2) + g.caps([('branches', '32')]) + g.string('cpu_core') +
                  g.caps([]) + g.string('cpu_atom'))
        ff[12] = g.event_desc([(g.attr(), n, [i]) for i, n in
                               enumerate(['cycles', 'instructions', 'cache-misses', 'branches'], 1)])
        ff[17] = g.group_desc([('{anon_group}', 0, 2), ('mygrp', 2, 2)])
        yield f'misc-{tag}.data', g.file(ff, four)
        if tag == 'le':
            yield f'misc-{tag}.pipe', g.pipe(ff, four)
            p, btf = bpf_prog(g)
            fb = dict(f)
            fb[25], fb[26] = p, btf
            yield 'bpf-le.data', g.file(fb, [(a, [1])])
            fb[26] = g.u32(2) + g.u32(9) + g.u32(4) + b'\0\0\0\0' + g.u32(2) + g.u32(0)
            yield 'bpf-nobtf-le.data', g.file(fb, [(a, [1])])

        ff = dict(f)
        ff[24] = g.u64(1)
        ff[27] = g.u32(0) + g.u32(1) + g.u32(3) + g.u32(7) + g.u32(4096)
        ff[28] = g.caps([('branches', '32')])
        ff[29] = g.u32(1) + g.u32(1) + g.u64(1700000000123456789) + g.u64(5123456789)
        yield f'dirfmt-{tag}.data', g.file(ff, [(a, [1])])

        ff = dict(f)
        del ff[12]
        ff[17] = g.group_desc([('g1', 1, 3)])
        st = 0x147
        yield f'names-{tag}.data', g.file(ff, [
            (g.attr(type=0, sample_type=st, flags=(5, 18, 20)), [1]),
            (g.attr(type=0, config=1, sample_type=st, flags=(15, 16, 18)), [2]),
            (g.attr(type=1, config=9, sample_type=st, flags=(4, 18)), [3]),
            (g.attr(type=4, config=0x1c2, sample_type=st, flags=(18,)), [4])])

        for i, t in enumerate([
                g.cpu_topology(['0-3'], ['0-1', '2-3']),
                g.cpu_topology(['0-3'], ['0-1', '2-3'], [(0, 0), (0, 0), (1, 0), (1, 0)]),
                g.cpu_topology(['0-1', '2-3'], ['0', '1', '2', '3'],
                               [(0, 0), (1, 0), (0, 1), (1, 1)], ['0-1', '2-3'], [0, 0, 1, 1])]):
            ff = dict(f)
            ff[7] = g.u32(4) + g.u32(4)
            ff[13] = t
            yield f'topo{i}-{tag}.data', g.file(ff, [(a, [1])])

        # perf 6.1 refuses a socket id above the CPU count: the per-CPU ids
        # are dropped and the features after CPU_TOPOLOGY stay unprocessed
        ff = dict(f)
        ff[13] = g.cpu_topology(['0-1'], ['0', '1'], [(0, 0), (1, 5)], ['0-1'], [0, 0])
        ff[29] = g.u32(1) + g.u32(1) + g.u64(1700000000123456789) + g.u64(5123456789)
        yield f'socket-{tag}.data', g.file(ff, [(a, [1])])
        # a group description that does not match the events: same story
        ff = dict(f)
        ff[17] = g.group_desc([('g', 0, 3)])
        yield f'badgroup-{tag}.data', g.file(ff, [(g.attr(), [1]), (g.attr(), [2])])

        ff = dict(f)
        ff[2] = g.build_ids([(0x8001, -1, bytes(range(20)), '[kernel.kallsyms]'),
                             (0x8002, -1, bytes(range(16)), '/usr/lib/libc.so.6')])
        ff[14] = g.numa([(0, 1, 2, '0-3,8,10-11'), (1, 3, 4, ''), (2, 5, 6, '7,5,6'),
                         (3, 0, 0, '0x10,011'), (4, 0, 0, '1,,3')])
        ff[22] = g.mem_topology(0x8000000, [(0, 200, list(range(0, 200, 2))),
                                            (1, 3000, list(range(100, 2900))), (5, 64, [])])
        ff[20] = g.cache([(3, 64, 1, 1, 'Unified', '32768K', '0-1'),
                          (1, 64, 64, 8, 'Instruction', '32K', '0')])
        ff[11] = g.strlist(['/usr/bin/perf', 'record', '-e', "it's", "a 'b' c", ''])
        ff[16] = g.pmu_mappings([])
        ff[21] = g.u64(5000) + g.u64(1000)
        yield f'numa-{tag}.data', g.file(ff, [(a, [1])])
        if tag == 'le':
            # perf on an AMD host fills an empty PMU_MAPPINGS of a pipe with
            # the host's own PMUs: keep the mappings out of that corner
            ff[16] = f[16]
            yield 'numa-le.pipe', g.pipe(ff, [(a, [1])])
            yield 'noterm-le.pipe', g.pipe(f, [(a, [1])], terminator=False)


os.makedirs(sys.argv[1], exist_ok=True)
for name, blob in cases():
    with open(os.path.join(sys.argv[1], name), 'wb') as fp:
        fp.write(blob)
    print(name)
EOF

export TZ=UTC
python3 "$tmpdir/gen.py" "$tmpdir/files" >"$tmpdir/names" || die "generator failed"

out=$tmpdir/all.out
: >"$out"
while read -r name; do
	f=$tmpdir/files/$name
	touch -d "2026-01-02 03:04:05 UTC" "$f"
	for full in "" "-I"; do
		echo "=== $name ${full:-(default)}" >>"$out"
		rc=0
		"$SAMPO" header $full -i "$f" </dev/null >"$tmpdir/one.out" 2>"$tmpdir/one.err" || rc=$?
		cat "$tmpdir/one.out" >>"$out"
		sed "s|$tmpdir/files/||" "$tmpdir/one.err" >>"$out"
		[ "$rc" -eq 0 ] || echo "exit status $rc" >>"$out"

		if [ -n "${PERF:-}" ] && [ -x "$PERF" ]; then
			"$PERF" report --header-only $full -i "$f" </dev/null >"$tmpdir/perf.out" 2>/dev/null || true
			if ! cmp -s "$tmpdir/perf.out" "$tmpdir/one.out"; then
				diff -u "$tmpdir/perf.out" "$tmpdir/one.out" | head -20
				die "$name $full: sampo differs from perf"
			fi
		fi
	done
done <"$tmpdir/names"

compare_golden "$out"
pass

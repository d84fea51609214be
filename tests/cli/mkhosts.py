#!/usr/bin/env python3
# mkhosts.py - the perf.data of one of two synthetic machines, for the tests
# of reports and merges of several hosts (tests/cli/t64xx-*.sh).
#
#	mkhosts.py VARIANT OUT SLIDE LIBFOO LIBBAR CACHE [HOSTNAME]
#
# VARIANT is "alpha" or "beta": two machines with other kernels (kallsyms
# layouts, build-ids), KASLR slides (SLIDE bytes) and versions of
# /usr/lib/libfoo.so (LIBFOO: an ELF whose build-id differs per variant),
# and the same /usr/lib/libbar.so (LIBBAR) mapped at other addresses. The
# file has a HOSTNAME feature (the variant's name, or HOSTNAME: two hosts
# of one kernel) unless VARIANT ends in "-nohost". The kernel's kallsyms snapshot and both ELFs go into the
# build-id cache CACHE (perf's layout). Samples carry their period and,
# when VARIANT has "-g", a user callchain of the sampled ip and one caller.
#
# Prints what every sample must resolve to, one line per distinct
# (comm, dso, symbol): "comm dso symbol samples period" (dso and symbol as
# perf report prints them, kernel symbols with [k], user ones with [.]).
# With "-unres" in VARIANT, the file also has kernel samples past the last
# symbol of its kallsyms (_etext + 0x10040: no symbol covers them), listed
# as "[k] 0x<address>", the address as this file's slide puts it.
import os
import struct
import subprocess
import sys

MAGIC = 0x32454c4946524550
KERNEL_BASE = 0xffffffff81000000

variant, out, slide, libfoo, libbar, cache = sys.argv[1:7]
slide = int(slide)
host = variant.split('-')[0]
with_host = not variant.endswith('-nohost')
hostname = sys.argv[7] if len(sys.argv) > 7 else host
chains = '-g' in variant
unres = '-unres' in variant

KBID = {'alpha': bytes([0xaa] * 20), 'beta': bytes([0xbb] * 20)}[host]
# kernel layout: symbol -> offset from _text, per machine (two kernels)
KSYMS = {
    'alpha': [('_text', 0), ('k_sched', 0x100), ('k_alpha_only', 0x1000), ('_etext', 0x20000)],
    'beta': [('_text', 0), ('k_beta_only', 0x200), ('k_sched', 0x3000), ('_etext', 0x20000)],
}[host]
text = KERNEL_BASE + slide


def u16(v): return struct.pack('<H', v & 0xffff)
def u32(v): return struct.pack('<I', v & 0xffffffff)
def u64(v): return struct.pack('<Q', v & 0xffffffffffffffff)


def cstr(s):
    b = s.encode() + b'\0'
    return b + bytes((-len(b)) % 8)


def perf_string(s):
    b = s.encode()
    n = (len(b) + 1 + 63) // 64 * 64
    return u32(n) + b + b'\0' * (n - len(b))


def rec(type, misc, body):
    return struct.pack('<IHH', type, misc, 8 + len(body)) + body


def elf_build_id(path):
    note = subprocess.run(['readelf', '-n', path], capture_output=True, text=True).stdout
    for line in note.splitlines():
        if 'Build ID:' in line:
            return bytes.fromhex(line.split('Build ID:')[1].strip())
    raise SystemExit('no build-id in ' + path)


def elf_syms(path):
    syms = {}
    for line in subprocess.run(['nm', path], capture_output=True, text=True).stdout.splitlines():
        f = line.split()
        if len(f) == 3 and f[1] in 'Tt':
            syms[f[2]] = int(f[0], 16)
    return syms


def cache_add(name, bid, kind, src_bytes):
    hexid = bid.hex()
    d = os.path.join(cache, name.lstrip('/'), hexid)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, kind), 'wb') as f:
        f.write(src_bytes)
    ld = os.path.join(cache, '.build-id', hexid[:2])
    os.makedirs(ld, exist_ok=True)
    link = os.path.join(ld, hexid[2:])
    if not os.path.lexists(link):
        os.symlink(os.path.join('..', '..', name.lstrip('/'), hexid), link)


kallsyms = ''.join('%016x %s %s\n' % (text + off, 't' if n.startswith('k_') else 'T', n)
                   for n, off in KSYMS)
cache_add('[kernel.kallsyms]', KBID, 'kallsyms', kallsyms.encode())
foo_bid, bar_bid = elf_build_id(libfoo), elf_build_id(libbar)
cache_add('/usr/lib/libfoo.so', foo_bid, 'elf', open(libfoo, 'rb').read())
cache_add('/usr/lib/libbar.so', bar_bid, 'elf', open(libbar, 'rb').read())
foo_syms, bar_syms = elf_syms(libfoo), elf_syms(libbar)

FOO = {'alpha': 0x7f1100000000, 'beta': 0x7f2200000000}[host]
BAR = {'alpha': 0x7f1300000000, 'beta': 0x7f4400000000}[host]
PID = 100
ST = 0x107 | (0x20 if chains else 0)  # IP | TID | TIME | PERIOD [| CALLCHAIN]

R = []
expect = {}
t = 1000


def sid(pid=0, tid=0):
    return u32(pid) + u32(tid) + u64(t)


def mmap(misc, pid, start, length, pgoff, name):
    R.append(rec(1, misc, u32(pid) + u32(pid) + u64(start) + u64(length) + u64(pgoff) +
                 cstr(name) + sid(pid, pid)))


def comm(pid, name):
    R.append(rec(3, 0, u32(pid) + u32(pid) + cstr(name) + sid(pid, pid)))


def sample(misc, ip, pid, period, comm_, dso, sym, n=1, caller=None):
    global t
    for i in range(n):
        body = u64(ip) + u32(pid) + u32(pid) + u64(t) + u64(period + i)
        if chains:
            ips = [2**64 - 128 if misc == 1 else 2**64 - 512, ip]
            if caller is not None:
                ips.append(caller)
            body += u64(len(ips)) + b''.join(u64(x) for x in ips)
        R.append(rec(9, misc, body))
        t += 1
        key = (comm_, dso, sym)
        c, p = expect.get(key, (0, 0))
        expect[key] = (c + 1, p + period + i)


mmap(1, 0xffffffff, text, 0x1000000, text, '[kernel.kallsyms]_text')
comm(PID, 'app')
mmap(2, PID, FOO, 0x10000, 0, '/usr/lib/libfoo.so')
mmap(2, PID, BAR, 0x10000, 0, '/usr/lib/libbar.so')
comm(200, 'worker')
mmap(2, 200, BAR + 0x100000, 0x10000, 0, '/usr/lib/libbar.so')

k = dict(KSYMS)
KD = '[kernel.kallsyms]'
ks = lambda name: '[k] ' + name
us = lambda name: '[.] ' + name
bar_main = BAR + bar_syms['bar_main']
if host == 'alpha':
    # libfoo v1: offset 0x10 past the text start is foo_one
    sample(2, FOO + foo_syms['foo_one'] + 0x10, PID, 1000, 'app', 'libfoo.so', us('foo_one'), 7,
           caller=bar_main + 4)
    sample(2, FOO + foo_syms['foo_two'] + 0x8, PID, 3000, 'app', 'libfoo.so', us('foo_two'), 2,
           caller=bar_main + 4)
    sample(1, text + k['k_sched'] + 0x20, PID, 500, 'app', KD, ks('k_sched'), 3)
    sample(1, text + k['k_alpha_only'] + 0x4, 200, 700, 'worker', KD, ks('k_alpha_only'), 2)
    sample(2, BAR + 0x100000 + bar_syms['bar_main'] + 2, 200, 900, 'worker', 'libbar.so',
           us('bar_main'), 4)
else:
    # libfoo v2 has foo_zero first: v1's foo_one offset lands in foo_zero here
    sample(2, FOO + foo_syms['foo_zero'] + 0x10, PID, 1100, 'app', 'libfoo.so', us('foo_zero'), 5,
           caller=bar_main + 4)
    sample(2, FOO + foo_syms['foo_one'] + 0x10, PID, 1300, 'app', 'libfoo.so', us('foo_one'), 3,
           caller=bar_main + 4)
    sample(1, text + k['k_sched'] + 0x20, PID, 600, 'app', KD, ks('k_sched'), 4)
    sample(1, text + k['k_beta_only'] + 0x4, PID, 800, 'app', KD, ks('k_beta_only'), 1)
    sample(2, BAR + bar_syms['bar_main'] + 2, PID, 400, 'app', 'libbar.so', us('bar_main'), 6)

if unres:
    ip = text + k['_etext'] + 0x10040
    sample(1, ip, PID, 250, 'app', KD, ks('0x%016x' % ip), 4)

flags = (1 << 0) | (1 << 18)  # disabled, sample_id_all
attr = (u32(1) + u32(128) + u64(0) + u64(1000) + u64(ST) + u64(0) + u64(flags) +
        u32(0) * 2 + u64(0) * 4 + u32(0) * 2 + u64(0) + u32(0) + u16(0) + u16(0) + u32(0) +
        u32(0) + u64(0))
assert len(attr) == 128


def build_id_entry(misc, bid, name):
    fn = name.encode()
    fn += b'\0' * ((len(fn) + 1 + 63) // 64 * 64 - len(fn))
    idb = (bid + b'\0' * 20)[:20] + bytes([len(bid)]) + b'\0\0\0'
    return u32(0) + u16(misc | 0x8000) + u16(36 + len(fn)) + struct.pack('<i', -1) + idb + fn


features = {
    2: build_id_entry(1, KBID, '[kernel.kallsyms]') +
       build_id_entry(2, foo_bid, '/usr/lib/libfoo.so') +
       build_id_entry(2, bar_bid, '/usr/lib/libbar.so'),
    12: u32(1) + u32(128) + attr + u32(0) + perf_string('cpu-clock'),
}
if with_host:
    features[3] = perf_string(hostname)

data = b''.join(R)
attrs_off = 104
data_off = attrs_off + 128 + 16
bits = sorted(features)
payload_off = data_off + len(data) + 16 * len(bits)
table, payloads = b'', b''
for b in bits:
    table += u64(payload_off + len(payloads)) + u64(len(features[b]))
    payloads += features[b]
fbits = sum(1 << b for b in bits)
hdr = (u64(MAGIC) + u64(104) + u64(144) + u64(attrs_off) + u64(144) + u64(data_off) +
       u64(len(data)) + u64(0) + u64(0) + u64(fbits) + u64(0) * 3)
with open(out, 'wb') as f:
    f.write(hdr + attr + u64(0) + u64(0) + data + table + payloads)
for (c, d, s), (n, p) in sorted(expect.items()):
    print(c, d, s, n, p)

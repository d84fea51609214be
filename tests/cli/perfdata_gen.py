"""perfdata_gen.py - write small perf.data files for CLI tests (t3010, t3011).

    from perfdata_gen import rec, cstr, write_file
    write_file(path, attr, [rec(9, misc, body), ...], {6: perf_string('x86_64')}, 'cycles')

The layout is perf's: the 104-byte header, one attr of 128 bytes with no ids,
the records, then the feature table and sections in bit order (EVENT_DESC,
bit 12, always, naming the one event).
"""
import struct


def rec(type, misc, body):
    """A record: its 8-byte header, then @body."""
    return struct.pack('<IHH', type, misc, 8 + len(body)) + body


def cstr(s):
    """A record's string: NUL-terminated, padded to 8 bytes."""
    b = s.encode() + b'\0'
    return b + bytes((-len(b)) % 8)


def perf_string(s):
    """A feature's string: u32 length, then the text padded to 64 bytes."""
    b = s.encode() + b'\0'
    b += bytes((-len(b)) % 64)
    return struct.pack('<I', len(b)) + b


def write_file(path, attr, records, features, event_name):
    """@attr: 128 packed bytes; @features: {bit: payload}, EVENT_DESC added."""
    attrs_off = 104
    data_off = attrs_off + 128 + 16
    data = b''.join(records)
    feats = dict(features)
    feats[12] = struct.pack('<II', 1, 128) + attr + struct.pack('<I', 0) + perf_string(event_name)
    bits = sorted(feats)
    feat_off = data_off + len(data) + 16 * len(bits)
    table, payload = b'', b''
    for b in bits:
        table += struct.pack('<QQ', feat_off + len(payload), len(feats[b]))
        payload += feats[b]
    mask = 0
    for b in bits:
        mask |= 1 << b
    h = struct.pack('<9Q', 0x32454c4946524550, 104, 144, attrs_off, 128 + 16, data_off,
                    len(data), 0, 0) + struct.pack('<4Q', mask, 0, 0, 0)
    with open(path, 'wb') as f:
        f.write(h + attr + struct.pack('<QQ', 0, 0) + data + table + payload)

#!/usr/bin/env python3
# dwarf-inflate.py - make a perf.data with N samples out of a smaller real recording
#
# usage: bench/dwarf-inflate.py IN.data OUT.data N
#
# Every SAMPLE record of IN is written several times in a row (the first
# N % M of the M samples once more than the others), so that OUT has exactly
# N samples; every other record, the attrs and the features are kept as they
# are (the feature offsets move with the data section). A --call-graph dwarf
# recording stays one: each copy carries its registers and its stack, and
# perf and sampo unwind every copy (neither caches unwinding across samples).
import struct
import sys


def main():
    if len(sys.argv) != 4:
        sys.exit("usage: dwarf-inflate.py IN.data OUT.data N")
    src, dst, want = sys.argv[1], sys.argv[2], int(sys.argv[3])
    with open(src, "rb") as f:
        buf = f.read()
    if buf[:8] != b"PERFILE2":
        sys.exit(f"{src}: not a perf.data file (magic {buf[:8]!r})")
    (hdr_size,) = struct.unpack_from("<Q", buf, 8)
    data_off, data_size = struct.unpack_from("<QQ", buf, 40)
    flags = struct.unpack_from("<4Q", buf, 72)
    nr_feat = sum(bin(w).count("1") for w in flags)
    recs, nr_samples, off = [], 0, data_off
    while off < data_off + data_size:
        typ, _misc, size = struct.unpack_from("<IHH", buf, off)
        if size < 8:
            sys.exit(f"{src}: record at {off:#x}: size {size}")
        recs.append((off, size, typ == 9))
        nr_samples += typ == 9
        off += size
    if not nr_samples:
        sys.exit(f"{src}: no samples")
    each, extra = divmod(want, nr_samples)
    new_size, seen = 0, 0
    for _o, size, sample in recs:
        if sample:
            new_size += size * (each + (seen < extra))
            seen += 1
        else:
            new_size += size
    delta = new_size - data_size
    table_off = data_off + data_size
    with open(dst, "wb") as out:
        head = bytearray(buf[:data_off])
        struct.pack_into("<Q", head, 48, new_size)
        out.write(head)
        seen = 0
        for o, size, sample in recs:
            rec = buf[o:o + size]
            times = (each + (seen < extra)) if sample else 1
            seen += sample
            for _ in range(times):
                out.write(rec)
        table = bytearray(buf[table_off:table_off + 16 * nr_feat])
        for i in range(nr_feat):
            (foff,) = struct.unpack_from("<Q", table, 16 * i)
            struct.pack_into("<Q", table, 16 * i, foff + delta)
        out.write(table)
        out.write(buf[table_off + 16 * nr_feat:])
    print(f"{dst}: {want} samples from {nr_samples}, {data_off + new_size + len(buf) - table_off} bytes",
          file=sys.stderr)


if __name__ == "__main__":
    main()

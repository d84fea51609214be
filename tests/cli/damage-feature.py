#!/usr/bin/env python3
"""damage-feature.py IN OUT FEATURE_BIT SIZE - copy a perf.data file (file mode,
little-endian) with the size of one feature section set to SIZE, so that the
feature no longer parses: the damaged-feature tests (t7504) make their inputs
from real files this way. Only the section table changes."""
import struct
import sys

src, dst, bit, size = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
data = bytearray(open(src, 'rb').read())
if data[:8] != b'PERFILE2':
    sys.exit('%s: not a little-endian PERFILE2 file' % src)
data_off, data_size = struct.unpack_from('<QQ', data, 40)
features = int.from_bytes(data[72:104], 'little')
if not features >> bit & 1:
    sys.exit('%s: no feature %d' % (src, bit))
# the sections follow the data, one {offset, size} per feature bit set, in order
idx = bin(features & ((1 << bit) - 1)).count('1')
entry = data_off + data_size + 16 * idx
struct.pack_into('<Q', data, entry + 8, size)
open(dst, 'wb').write(data)

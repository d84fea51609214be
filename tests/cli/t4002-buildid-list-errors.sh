#!/bin/bash
# t4002-buildid-list-errors: bad input gives one line naming the file and where, and a non-zero exit, never a crash
. "$(dirname "$0")/lib.sh"

f=$(fixture b-callchain-fp/perf.data)

# no such file
expect_status 1 buildid-list -i "$tmpdir/missing.data"
grep -q "missing.data" "$tmpdir/stderr" || die "the message does not name the file"
[ "$(wc -l <"$tmpdir/stderr")" -eq 1 ] || die "more than one line of error"

# not a perf.data file
echo "hello" >"$tmpdir/text"
expect_status 1 buildid-list -i "$tmpdir/text"
grep -q "text" "$tmpdir/stderr" || die "the message does not name the file"

# a file cut in its data section: -H reads the records
size=$(stat -c %s "$f")
head -c $((size / 3)) "$f" >"$tmpdir/cut.data"
expect_status 1 buildid-list -H -i "$tmpdir/cut.data"
[ "$(wc -l <"$tmpdir/stderr")" -eq 1 ] || { cat "$tmpdir/stderr" >&2; die "more than one line of error"; }
grep -q "cut.data" "$tmpdir/stderr" || die "the message does not name the file"

# a build-id table entry whose size runs past the table
cp "$f" "$tmpdir/badbid.data"
chmod u+w "$tmpdir/badbid.data"
# the BUILD_ID feature section: 3rd entry of the feature table (HEADER_TRACING_DATA=1 comes first when set)
python3 - "$tmpdir/badbid.data" <<'PY' || skip "python3 missing"
import struct, sys
p = sys.argv[1]
b = bytearray(open(p, 'rb').read())
data_off, data_size = struct.unpack_from('<QQ', b, 40)
feats = struct.unpack_from('<4Q', b, 72)
idx = 0
for bit in range(2):          # features before BUILD_ID (bit 2) that are present
    if feats[0] >> bit & 1:
        idx += 1
sec = data_off + data_size + 16 * idx
off, size = struct.unpack_from('<QQ', b, sec)
struct.pack_into('<H', b, off + 6, 0xfff0)   # first entry's header.size
open(p, 'wb').write(b)
PY
expect_status 1 buildid-list -i "$tmpdir/badbid.data"
[ "$(wc -l <"$tmpdir/stderr")" -eq 1 ] || { cat "$tmpdir/stderr" >&2; die "more than one line of error"; }
grep -q "BUILD_ID" "$tmpdir/stderr" || { cat "$tmpdir/stderr" >&2; die "the message does not name the field"; }

# usage errors
expect_status 129 buildid-list --no-such-option
expect_status 129 buildid-list extra-argument
expect_status 0 buildid-list -h
grep -q "^usage: sampo buildid-list" "$tmpdir/stdout" || die "-h prints no usage"
pass

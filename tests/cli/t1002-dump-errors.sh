#!/bin/bash
# t1002-dump-errors: sampo dump on bad input, bad usage and a closed pipe: what is printed, and the exit status
#
# - a file cut inside a record: the records read before the cut are printed
#   (each exactly as in the full dump), then exactly one line
#   "sampo dump: <reader error>" on stderr, exit status 1;
# - a missing file: one line on stderr, exit 1;
# - unknown option or stray argument: usage on stderr, exit 129;
# - `sampo dump | head`: ends quietly (no message) with status 0;
# - a record of a type perf 6.1 does not know: printed raw, counted in TOTAL,
#   one warning line, exit 0 (perf stops at such a record, see
#   docs/dump-differences.md).
. "$(dirname "$0")/lib.sh"

b=$(fixture b-callchain-fp/perf.data)
cd "$tmpdir"
cp "$b" good.data
"$SAMPO" dump -i good.data >good.dump || die "dump of the intact fixture failed"

# cut inside records, at a few places
size=$(stat -c %s good.data)
for cut in 300 1000 5000 20000 $((size - 3000)); do
	head -c "$cut" good.data >cut.data
	expect_status 1 dump -i cut.data
	[ "$(wc -l <"$tmpdir/stderr")" -eq 1 ] || die "cut at $cut: not one line on stderr: $(cat "$tmpdir/stderr")"
	grep -q '^sampo dump: cut.data: ' "$tmpdir/stderr" ||
		die "cut at $cut: unexpected message: $(cat "$tmpdir/stderr")"
	# the path is part of the output; every record printed is printed as in the full dump
	sed 's/@cut\.data /@good.data /' "$tmpdir/stdout" >cut.dump
	{ grep '^0x[0-9a-f]*@\|^0@' cut.dump || true; } | sort >cut.records
	grep '^0x[0-9a-f]*@\|^0@' good.dump | sort >good.records
	[ -z "$(comm -23 cut.records good.records)" ] ||
		die "cut at $cut: records that the full dump does not have"
	awk -v RS= 'NR > 1' cut.dump | sort -u >cut.blocks
	awk -v RS= 'NR > 1' good.dump | sort -u >good.blocks
	[ -z "$(comm -23 cut.blocks good.blocks)" ] ||
		die "cut at $cut: a record printed differently from the full dump"
	grep -q 'Aggregated stats' "$tmpdir/stdout" && die "cut at $cut: stats printed after an error"
done

expect_status 1 dump -i no-such.data
grep -q "^sampo dump: .*no-such.data" "$tmpdir/stderr" || die "missing file: $(cat "$tmpdir/stderr")"
[ "$(wc -l <"$tmpdir/stderr")" -eq 1 ] || die "missing file: not one line on stderr"

expect_status 129 dump --no-such-option
grep -q '^usage: sampo dump' "$tmpdir/stderr" || die "bad option: no usage on stderr"
expect_status 129 dump -i good.data stray
expect_status 0 dump -h
grep -q '^usage: sampo dump \[<options>\]$' "$tmpdir/stdout" || die "-h: no usage line"

# a reader that goes away
rc=0
"$SAMPO" dump -i good.data 2>head.err | head -n 3 >head.out || rc=$?
[ "${PIPESTATUS[0]}" -eq 0 ] || die "sampo dump | head: exit status ${PIPESTATUS[0]}"
[ -s head.err ] && die "sampo dump | head: wrote to stderr: $(cat head.err)"
[ "$(wc -l <head.out)" -eq 3 ] || die "sampo dump | head: wrong output"

# a record type perf 6.1 does not know (30), between two COMMs
python3 - <<'PYEOF' || die "cannot write unknown.data"
import struct
st = 0x107
attr = struct.pack('<IIQQQQQIIQQQQIiQIHHIIQ', 1, 128, 0, 1000, st, 0, 1 << 18, 0, 0, 0, 0, 0, 0,
                   0, 0, 0, 0, 0, 0, 0, 0, 0)
def rec(type, body):
    return struct.pack('<IHH', type, 0, 8 + len(body)) + body
def comm(name, time):
    return rec(3, struct.pack('<II', 1, 1) + name.ljust(8, b'\0') + struct.pack('<IIQ', 1, 1, time))
data = comm(b'a', 10) + rec(30, struct.pack('<QQ', 1, 2) + struct.pack('<IIQ', 1, 1, 11)) + \
       comm(b'b', 12) + rec(68, b'')
ids = struct.pack('<Q', 7)
hdr = struct.pack('<9Q', 0x32454c4946524550, 104, 144, 112, 144, 256, len(data), 0, 0) + bytes(32)
open('unknown.data', 'wb').write(hdr + ids + attr + struct.pack('<QQ', 104, 8) + data)
PYEOF
expect_status 0 dump -i unknown.data
grep -q '^0x128@unknown.data \[0x28\]: event: 30$' "$tmpdir/stdout" || die "unknown type: no record header"
grep -q 'PERF_RECORD_UNKNOWN$' "$tmpdir/stdout" || die "unknown type: no decoded line"
grep -q '^           TOTAL events:          4$' "$tmpdir/stdout" || die "unknown type: not in TOTAL"
grep -q 'warning: 1 records of a type perf 6.1 does not know' "$tmpdir/stderr" ||
	die "unknown type: no warning: $(cat "$tmpdir/stderr")"
pass

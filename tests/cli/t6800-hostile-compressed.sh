#!/bin/bash
# t6800-hostile-compressed: COMPRESSED records inflate to at most the file's recorded buffer size each and to a bounded ratio of the input in all (docs/hardening.md)
#
# tests/tools/mkhostile writes zstd bombs: records of a few dozen bytes that
# inflate to half a MiB or 64 MiB of identical samples. sampo used to inflate
# each record up to 64 MiB whatever the file recorded, and everything in
# total: 1.3 MB asked for 10 GB of samples (minutes; perf 6.1 takes 250 s and
# 22 GB). Now: one line naming the file, the offset and the bound, after the
# records before it, in seconds and within a few hundred MB.
. "$(dirname "$0")/lib.sh"

mk=$SAMPO_BUILDDIR/tests/tools/mkhostile
cd "$tmpdir"

# ---- one record inflating past the recorded buffer size (mmap_len) -----------
"$mk" compressed big.data -n 4 -b 67000000 -m 528384
expect_status 1 script -i big.data
grep -q "big.data: COMPRESSED record at offset 0x[0-9a-f]* inflates to more than 528384 bytes, the buffer size the file records" \
	"$tmpdir/stderr" || die "no bound named: $(cat "$tmpdir/stderr")"
[ "$(wc -l <"$tmpdir/stderr")" -eq 1 ] || die "more than one line of error"

# the same in a pipe: the cap comes from the stream's HEADER_FEATURE
"$mk" compressed big.pipe -n 2 -b 67000000 -m 528384 --pipe
rc=0
"$SAMPO" script -i - <big.pipe >/dev/null 2>err || rc=$?
[ "$rc" -eq 1 ] || die "pipe: exit $rc"
grep -q "inflates to more than 528384 bytes" err || die "pipe: $(cat err)"

# a recorded size the records fit: everything is read
"$mk" compressed fits.data -n 3 -b 400000 -m 528384
expect_status 0 script -i fits.data
[ "$(wc -l <"$tmpdir/stdout")" -eq 30000 ] || die "fits: $(wc -l <"$tmpdir/stdout") samples, expected 3 x 10000"

# ---- many records, each within its size: the ratio bound --------------------
# 20000 records of ~67 bytes, each inflating to 528000 bytes (10 GB in all)
"$mk" compressed bomb.data -n 20000 -b 528000 -m 528384
rc=0
timeout 120 "$SAMPO" script -i bomb.data >out 2>err || rc=$?
[ "$rc" -ne 124 ] || die "still inflating after 120 s"
[ "$rc" -eq 1 ] || die "exit $rc: $(cat err)"
grep -q "bomb.data: COMPRESSED record at offset 0x[0-9a-f]*: the records inflate to more than [0-9]* bytes, 1024 times the [0-9]* compressed bytes read plus 64 MiB" err ||
	die "no ratio named: $(cat err)"
# everything before the bound was read: at least the 64 MiB of slack, in 40-byte samples
n=$(wc -l <out)
[ "$n" -ge $((64 * 1024 * 1024 / 40)) ] || die "only $n samples before the bound"

# report and the dump stop at the same place, in bounded memory
rc=0
(limit_memory 2000000; timeout 120 "$SAMPO" report -i bomb.data --stdio >/dev/null 2>err) || rc=$?
[ "$rc" -eq 1 ] && grep -q "1024 times" err || die "report: exit $rc: $(cat err)"
pass

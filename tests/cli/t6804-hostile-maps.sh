#!/bin/bash
# t6804-hostile-maps: a million MMAPs in descending order, and a file replaced 200k times, load in seconds (docs/hardening.md)
#
# tests/tools/mkhostile writes (1) one process mapping one file 1000000
# times at descending addresses (a sorted array grown by memmove took 167 s;
# maps are chunked since), and (2) 200000 MMAP2s of one path with as many
# inodes, a sample in each: the DSO table chained DSOs by name and every
# lookup walked the versions of the name (over 100 s); now one index probe.
. "$(dirname "$0")/lib.sh"

mk=$SAMPO_BUILDDIR/tests/tools/mkhostile
cd "$tmpdir"

"$mk" maps maps.data -n 1000000
rc=0
timeout 120 "$SAMPO" script -F ip,dso -i maps.data >out 2>err || rc=$?
[ "$rc" -ne 124 ] || die "1M maps: still loading after 120 s"
[ "$rc" -eq 0 ] || die "1M maps: exit $rc: $(head -3 err)"
[ "$(wc -l <out)" -eq 1000 ] || die "1M maps: $(wc -l <out) samples, expected 1000"
grep -q "7effffffe100 (/nonexistent/hostile/libmaps.so)" out || die "1M maps: first sample: $(head -1 out)"
rm -f maps.data

"$mk" maps versions.data -n 200000 --versions --samples
rc=0
timeout 120 "$SAMPO" script -F ip,sym,dso -i versions.data >out 2>err || rc=$?
[ "$rc" -ne 124 ] || die "versions: still loading after 120 s"
[ "$rc" -eq 0 ] || die "versions: exit $rc: $(head -3 err)"
[ "$(wc -l <out)" -eq 200000 ] || die "versions: $(wc -l <out) samples, expected 200000"
# the older versions are stale (replaced while recording): one warning for the name
[ "$(grep -c "was replaced while recording" err)" -eq 1 ] || die "versions: $(grep -c replaced err) warnings"
pass

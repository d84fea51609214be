#!/bin/bash
# t6801-hostile-dsos: 200k DSOs with a build-id table entry each resolve in seconds, not minutes (docs/hardening.md)
#
# tests/tools/mkhostile writes a process with 200000 MMAP2s of distinct
# files (descending addresses), one sample in each and a build-id table of
# 200000 entries. The symbolizer's sources were a linked list searched per
# DSO, the build-id table was walked per DSO and every DSO was compared with
# every other for replaced files: over 100 s. Now hashes: a few seconds.
. "$(dirname "$0")/lib.sh"

mk=$SAMPO_BUILDDIR/tests/tools/mkhostile
cd "$tmpdir"
"$mk" dsos many.data -n 200000 --build-ids --samples

rc=0
timeout 120 "$SAMPO" script -F comm,ip,dso -i many.data >out 2>err || rc=$?
[ "$rc" -ne 124 ] || die "script: still resolving after 120 s"
[ "$rc" -eq 0 ] || die "script: exit $rc: $(head -3 err)"
[ "$(wc -l <out)" -eq 200000 ] || die "script: $(wc -l <out) samples, expected 200000"
# each sample in its own file (none exists here, so no symbols)
grep -q "7efffff00100 (/nonexistent/hostile/lib15.so)" out || die "sample of lib15: $(sed -n 16p out)"

rc=0
timeout 120 "$SAMPO" report --stdio --sort dso -i many.data >out 2>err || rc=$?
[ "$rc" -ne 124 ] || die "report: still resolving after 120 s"
[ "$rc" -eq 0 ] || die "report: exit $rc: $(head -3 err)"
[ "$(grep -c ' lib[0-9]*\.so *$' out)" -eq 200000 ] || die "report: not one row per DSO"
pass

#!/bin/bash
# t6803-hostile-queue: the time-ordering queue stays within its footprint bound, entries included, on a stream without FINISHED_ROUND (docs/hardening.md)
#
# tests/tools/mkhostile writes 1.5 MB of COMPRESSED records (within the
# inflation ratio) that inflate to 16 million 40-byte samples with one
# timestamp and no FINISHED_ROUND: all of them wait in the ordering queue.
# Its bound counted record bytes only (512 MiB of them, and 10 times that in
# entries): 2 GB. Now it counts each record's entries too: about 260 MB.
. "$(dirname "$0")/lib.sh"

mk=$SAMPO_BUILDDIR/tests/tools/mkhostile
cd "$tmpdir"
"$mk" compressed queue.data -n 80000 -b 8000

rc=0
(limit_memory 1000000; timeout 120 "$SAMPO" report --stdio -i queue.data >out 2>err) || rc=$?
[ "$rc" -eq 0 ] || die "report: exit $rc in 1 GB: $(head -3 err)"
grep -q "^# Samples: 16M of event" out || die "report: $(grep Samples out)"
rc=0
(limit_memory 1000000; timeout 120 "$SAMPO" script -F ip -i queue.data 2>err | tail -1 >out) || rc=$?
[ "$rc" -eq 0 ] || die "script: exit $rc in 1 GB: $(head -3 err)"
[ "$(tr -d ' ' <out)" = 400000 ] || die "script: last sample $(cat out)"
pass

#!/bin/bash
# t6802-hostile-ids: attrs naming one ids section share one copy; ids sections that add up to more than the file are refused (docs/hardening.md)
#
# tests/tools/mkhostile writes 8192 attrs whose ids sections are all the same
# 32768 ids: a 1.4 MB file. Each attr used to get its own copy (2.4 GB, and
# 268 million id table inserts; perf 6.1 takes more than 7 GB and 100 s).
# Now one copy, read and hashed once, in a few MB. Sections that differ but
# overlap cannot be shared: their total may not exceed the file.
. "$(dirname "$0")/lib.sh"

mk=$SAMPO_BUILDDIR/tests/tools/mkhostile
cd "$tmpdir"
"$mk" ids same.data -n 8192 -i 32768

for cmd in header dump; do
	rc=0
	(limit_memory 400000; timeout 120 "$SAMPO" $cmd -i same.data >out 2>err) || rc=$?
	[ "$rc" -eq 0 ] || die "$cmd: exit $rc in 400 MB: $(head -3 err)"
done

"$mk" ids shifted.data -n 8192 -i 32768 --shift
expect_status 1 header -i shifted.data
grep -q "shifted.data: the attrs' ids sections add up to 2147483648 bytes, more than the file ([0-9]* bytes): they overlap" \
	"$tmpdir/stderr" || die "overlap: $(cat "$tmpdir/stderr")"
pass

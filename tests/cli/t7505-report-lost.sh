#!/bin/bash
# t7505-report-lost: "Total Lost Samples" counts the LOST_SAMPLES records' samples,
# as perf does; LOST records (chunks of the ring buffer the kernel dropped) get
# perf's warning on stderr instead
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-wild.sh"
need_cmd python3

# two LOST_SAMPLES records of one sample each (perf 4.4)
f=$(wild_file pdc__perf.data.lost_samples-4.4)
sampo_wild report --stdio -i "$f" >"$tmpdir/ls.out" 2>"$tmpdir/ls.err"
grep -q '^# Total Lost Samples: 2$' "$tmpdir/ls.out" || die "not 2 lost samples: $(grep Lost "$tmpdir/ls.out")"

# a pipe with two LOST records (7 events each) appended: lost chunks, no lost samples
p=$(wild_file pdc__perf.data.piped.target-3.4)
python3 - "$p" "$tmpdir/lost.data" <<'PY'
import struct, sys
data = open(sys.argv[1], 'rb').read()
# LOST: header, id, lost; then the sample_id trailer of IP|TID|TIME|CPU|PERIOD: pid/tid, time, cpu
rec = struct.pack('<IHHQQIIQII', 2, 0, 48, 0, 7, 1234, 1234, 1 << 48, 0, 0)
open(sys.argv[2], 'wb').write(data + rec + rec)
PY
sampo_wild report --stdio -i - <"$tmpdir/lost.data" >"$tmpdir/lost.out" 2>"$tmpdir/lost.err"
grep -q '^# Total Lost Samples: 0$' "$tmpdir/lost.out" || die "LOST records counted as lost samples"
grep -q "processed 3018 events and lost 2 chunks" "$tmpdir/lost.err" ||
	die "no lost-chunk warning: $(cat "$tmpdir/lost.err")"
if [ -n "${PERF:-}" ] && [ -x "$PERF" ]; then
	perf_foreign report --stdio -i - <"$tmpdir/lost.data" | head -n -3 >"$tmpdir/want"
	compare_files "$tmpdir/want" "$tmpdir/lost.out"
	HOME=$tmpdir/wild-home "$PERF" report --stdio -f -i - <"$tmpdir/lost.data" 2>&1 >/dev/null |
		grep -q "Processed 3018 events and lost 2 chunks" || die "perf's own warning differs"
	perf_foreign report --stdio -i "$f" | head -n -3 >"$tmpdir/want.ls"
	grep '^# Total Lost' "$tmpdir/want.ls" >"$tmpdir/want.ls.l"
	grep '^# Total Lost' "$tmpdir/ls.out" >"$tmpdir/ls.l"
	compare_files "$tmpdir/want.ls.l" "$tmpdir/ls.l"
fi
pass

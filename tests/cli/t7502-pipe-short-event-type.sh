#!/bin/bash
# t7502-pipe-short-event-type: perf 3.x pipe files carry EVENT_TYPE records cut to
# the name's length rounded up to 8 bytes (24 bytes for "cycles", not perf's 80):
# sampo reads them as perf does instead of refusing the file
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-wild.sh"

f=$(wild_file pdc__perf.data.piped.target-3.8)
# the file's first EVENT_TYPE record is 24 bytes long (0x18)
sampo_wild dump -i "$f" >"$tmpdir/dump"
grep -q '^0 0 0x[0-9a-f]* \[0x18\]: PERF_RECORD_EVENT_TYPE$' "$tmpdir/dump" ||
	die "no 24-byte EVENT_TYPE in the dump"
sampo_wild report --stdio -i "$f" >"$tmpdir/report" 2>/dev/null
grep -q "^# Samples: .* of event 'cycles'" "$tmpdir/report" || die "no cycles samples in the report"
sampo_wild script -i "$f" >"$tmpdir/script" 2>/dev/null
[ "$(wc -l <"$tmpdir/script")" -eq 5218 ] || die "script printed $(wc -l <"$tmpdir/script") samples, not 5218"

if [ -n "${PERF:-}" ] && [ -x "$PERF" ]; then
	perf_foreign report --stdio -i "$f" | head -n -3 >"$tmpdir/want"
	compare_files "$tmpdir/want" "$tmpdir/report"
	perf_foreign script -i "$f" >"$tmpdir/want.s"
	compare_files "$tmpdir/want.s" "$tmpdir/script"
fi
pass

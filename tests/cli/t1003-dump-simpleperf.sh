#!/bin/bash
# t1003-dump-simpleperf: Android simpleperf's perf.data files are read to the end: every
# record, simpleperf's own ones (types from 32768, 32-bit sizes) printed by name, header,
# report and script exit 0; a file cut inside a 64 KiB+ record is one error naming it
. "$(dirname "$0")/lib.sh"

need_cmd python3
count=$SAMPO_SRCDIR/tests/cli/simpleperf-names.py
mk=$SAMPO_SRCDIR/tests/tools/mksimpleperf.py

# real files from simpleperf's own tests (tests/fixtures/simpleperf/README.md), and two
# crafted ones (FILE and FILE2) with a KERNEL_SYMBOL record of more than 64 KiB
python3 "$mk" --file-version 1 "$tmpdir/crafted1.data"
python3 "$mk" --file-version 2 "$tmpdir/crafted2.data"
for f in "$SAMPO_SRCDIR"/tests/fixtures/simpleperf/*.data "$tmpdir"/crafted?.data; do
	b=$(basename "$f")
	"$SAMPO" dump -i "$f" >"$tmpdir/$b.dump" 2>"$tmpdir/$b.err" ||
		die "dump $b: $(cat "$tmpdir/$b.err")"
	# first principles: the records simpleperf's own sizing finds in the data section
	python3 "$count" counts "$f" >"$tmpdir/$b.counts"
	want=$(awk '$1 == 9 { print $2 }' "$tmpdir/$b.counts")
	got=$(grep -c 'PERF_RECORD_SAMPLE(' "$tmpdir/$b.dump" || true)
	[ "${want:-0}" = "$got" ] || die "$b: $got samples dumped, the file has ${want:-0}"
	want=$(awk '$1 > 32768 { n += $2 } END { print n + 0 }' "$tmpdir/$b.counts")
	got=$(grep -c ': SIMPLEPERF_RECORD_' "$tmpdir/$b.dump" || true)
	[ "$want" = "$got" ] || die "$b: $got simpleperf records named, the file has $want"
	for cmd in "header" "header -I" "report --stdio" "script" "buildid-list"; do
		# shellcheck disable=SC2086 # the words of the command
		"$SAMPO" $cmd -i "$f" >/dev/null 2>"$tmpdir/err" || die "$cmd $b: $(cat "$tmpdir/err")"
	done
done

# the 32-bit size: the KERNEL_SYMBOL record at 0x2d8 is 0x143dc bytes, its kallsyms 82890
grep -q '^-1 -1 0x2d8 \[0x143dc\]: SIMPLEPERF_RECORD_KERNEL_SYMBOL size 82890$' \
	"$tmpdir/crafted1.data.dump" || die "the big KERNEL_SYMBOL record is not read whole"
grep -q 'SIMPLEPERF_RECORD_DEBUG time 5 crafted by mksimpleperf.py$' "$tmpdir/crafted1.data.dump" ||
	die "no DEBUG record"
grep -q 'SIMPLEPERF_RECORD_EVENT_ID count 1 (attr 0 id 42)$' "$tmpdir/crafted1.data.dump" ||
	die "no EVENT_ID record"
# simpleperf's TRACING_DATA of type 66 holds its data: the records after it are read
grep -q 'PERF_RECORD_TRACING_DATA' "$tmpdir/perf_with_tracepoint_event.data.dump" ||
	die "no TRACING_DATA record"
grep -q 'simpleperf records were printed by name' "$tmpdir/perf_with_callchain_record.data.err" ||
	die "no note of the simpleperf records: $(cat "$tmpdir/perf_with_callchain_record.data.err")"

# cut inside the big record: one line naming the record's offset, status 1, no crash
head -c 70000 "$tmpdir/crafted1.data" >"$tmpdir/cut.data"
for cmd in dump "report --stdio" script; do
	# shellcheck disable=SC2086
	expect_status 1 $cmd -i "$tmpdir/cut.data"
	[ "$(wc -l <"$tmpdir/stderr")" -eq 1 ] || die "$cmd: not one line: $(cat "$tmpdir/stderr")"
	grep -q 'record at offset 0x2d8 of size 0x143dc runs past the end of the file' "$tmpdir/stderr" ||
		die "$cmd: $(cat "$tmpdir/stderr")"
done
pass

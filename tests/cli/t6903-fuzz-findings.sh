#!/bin/bash
# t6903-fuzz-findings: each input a fuzz target found (tests/fixtures/fuzz/, docs/fuzzing.md) read by the commands it broke, from a file and from a pipe: one error line naming the file and the offset, no crash
. "$(dirname "$0")/lib.sh"

dir=$SAMPO_SRCDIR/tests/fixtures/fuzz
cd "$tmpdir"

# expect_error CMD INPUT PATTERN: sampo CMD on INPUT (a path, or "-" with the file on stdin) exits 1
# (not a signal) with one "sampo CMD:" line matching PATTERN
expect_error() {
	local cmd=$1 f=$2 pattern=$3 rc=0 n
	if [ "$f" = - ]; then
		"$SAMPO" "$cmd" -i - <"$src" >out 2>err || rc=$?
	else
		"$SAMPO" "$cmd" -i "$f" >out 2>err || rc=$?
	fi
	[ "$rc" = 1 ] || die "sampo $cmd -i $f ($(basename "$src")): exit $rc, expected 1: $(tail -3 err)"
	n=$(grep -c "^sampo $cmd: " err || true)
	[ "$n" = 1 ] || die "sampo $cmd -i $f: $n error lines: $(cat err)"
	grep "^sampo $cmd: " err | grep -Eq -- "$pattern" || die "sampo $cmd -i $f: unclear error: $(cat err)"
}

# fuzz-pipe: a HEADER_ATTR remaps the ids of queued SAMPLEs to an attr with more fields
src=$dir/pipe-attr-ids-remapped.data
for cmd in dump report script; do
	expect_error "$cmd" - 'pipe: SAMPLE record at offset 0xf64: sample fields of sample_type 0x1ff run past the end'
	expect_error "$cmd" "$src" 'pipe-attr-ids-remapped.data: SAMPLE record at offset 0xf64: '
done
# fuzz-report: a malformed event format in a pipe's tracing data (libtraceevent leaks on it,
# suppressed in sanitizer runs: tests/lsan.supp), then a record of size 0
src=$dir/report-tracing-data-leak.data
for cmd in dump report script; do
	expect_error "$cmd" - 'pipe: record at offset 0x138c: size 0 is smaller than the 8-byte header'
	expect_error "$cmd" "$src" 'report-tracing-data-leak.data: record at offset 0x138c: size 0 is '
done
pass

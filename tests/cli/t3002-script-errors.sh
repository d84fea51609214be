#!/bin/bash
# t3002-script-errors: bad options and bad input give one line and a non-zero exit, never a crash
. "$(dirname "$0")/lib.sh"

f=$(fixture c-multi-event/perf.data)

expect_status 129 script -F ip,nosuchfield -i "$f"
expect_status 129 script --no-such-option
expect_status 129 script extra-argument
expect_status 0 script -h
grep -q "^usage: sampo script" "$tmpdir/stdout" || die "-h prints no usage"

# a field the samples do not have: perf refuses too
expect_status 1 script -F ip,cpu -i "$f"
[ "$(wc -l <"$tmpdir/stderr")" -eq 1 ] || die "more than one line of error"
grep -q "cpu" "$tmpdir/stderr" || die "the message does not name the field"
[ ! -s "$tmpdir/stdout" ] || die "output before the error"

# symoff without sym
expect_status 1 script -F ip,symoff -i "$f"

# no such file, not a perf.data file
expect_status 1 script -i "$tmpdir/missing.data"
grep -q "missing.data" "$tmpdir/stderr" || die "the message does not name the file"
echo hello >"$tmpdir/text"
expect_status 1 script -i "$tmpdir/text"

# a file cut in its data section: the samples before the cut, then one line
size=$(stat -c %s "$f")
head -c $((size / 3)) "$f" >"$tmpdir/cut.data"
expect_status 1 script -F ip -i "$tmpdir/cut.data"
[ "$(wc -l <"$tmpdir/stderr")" -eq 1 ] || { cat "$tmpdir/stderr" >&2; die "more than one line of error"; }
grep -q "cut.data" "$tmpdir/stderr" || die "the message does not name the file"
[ -s "$tmpdir/stdout" ] || die "no sample printed before the cut"

# output to a closed pipe ends quietly
"$SAMPO" script -i "$f" | head -1 >/dev/null || die "sampo script | head failed"
pass

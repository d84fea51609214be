#!/bin/bash
# t2003-report-errors: sampo report on bad input and bad usage: one clear line on stderr and
# the right exit status; nothing printed on stdout when the file cannot be read to the end
#
# - a file cut inside a record, a file with a bad magic, a missing file: exit 1, one line
#   "sampo report: ..." naming the file;
# - an unknown sort key, a --cpu list that does not parse: exit 1, one line that says what
#   is accepted;
# - unknown option, stray argument, --children with --no-children, a bad --percent-limit:
#   usage on stderr, exit 129.
. "$(dirname "$0")/lib.sh"

b=$(fixture b-callchain-fp/perf.data)
cd "$tmpdir"
cp "$b" good.data
size=$(stat -c %s good.data)

one_line() { # one_line WHAT PATTERN: stderr is exactly one line matching PATTERN
	[ "$(wc -l <"$tmpdir/stderr")" -eq 1 ] || die "$1: not one line on stderr: $(cat "$tmpdir/stderr")"
	grep -q -- "$2" "$tmpdir/stderr" || die "$1: unexpected message: $(cat "$tmpdir/stderr")"
}

for cut in 300 1000 5000 20000 $((size - 3000)); do
	head -c "$cut" good.data >cut.data
	expect_status 1 report -i cut.data
	one_line "cut at $cut" '^sampo report: .*cut.data'
	[ ! -s "$tmpdir/stdout" ] || die "cut at $cut: a report was printed from a partial file"
done

printf 'NOTAPERF' | cat - good.data >bad.data
expect_status 1 report -i bad.data
one_line "bad magic" '^sampo report: .*bad.data'

expect_status 1 report -i no-such.data
one_line "missing file" "^sampo report: .*no-such.data"

expect_status 1 report -i good.data --sort comm,nosuchkey
one_line "bad sort key" "unknown sort key 'nosuchkey'"

a=$(fixture a-syswide-cpuclock/perf.data)
expect_status 1 report -i "$a" --cpu 1-x
one_line "bad cpu list" "invalid cpu list"

expect_status 129 report -i good.data --no-such-option
expect_status 129 report -i good.data stray
expect_status 129 report -i good.data --children --no-children
expect_status 129 report -i good.data --percent-limit abc

# a file perf would read is fine from stdin too (pipe-mode stream)
d=$(fixture d-pipe-mode/perf.data)
"$SAMPO" report -i - <"$d" >stdin.out 2>/dev/null || die "report from stdin failed"
"$SAMPO" report -i "$d" >file.out 2>/dev/null || die "report of the pipe file failed"
cmp -s stdin.out file.out || die "report from stdin differs from the report of the file"
pass

#!/bin/bash
# t6501-flamegraph-errors: sampo flamegraph's usage errors (129) and bad input (1)
# each get one line naming the problem, and nothing is left half written
. "$(dirname "$0")/lib.sh"

f=$(fixture b-callchain-fp/perf.data)
cd "$tmpdir"

expect_status 129 flamegraph --diff "$f"
grep -q "^sampo flamegraph: --diff takes two files: <baseline> <new>" stderr || die "$(cat stderr)"
expect_status 129 flamegraph "$f" "$f"
grep -q "unexpected argument .*compare two files with --diff" stderr || die "$(cat stderr)"
expect_status 129 flamegraph --format png -i "$f"
grep -q "unknown --format 'png' (html or svg)" stderr || die "$(cat stderr)"
expect_status 129 flamegraph --diff -i "$f" "$f" "$f"
grep -q -- "-i does not go with it" stderr || die "$(cat stderr)"

expect_status 1 flamegraph -i missing.data
grep -q "^sampo flamegraph: .*missing.data" stderr || die "$(cat stderr)"
[ ! -e flamegraph.html ] || die "a page was written for a missing file"

# an output that cannot be created
expect_status 1 flamegraph -i "$SAMPO_SHARED/fixtures/perf-6.1/b-callchain-fp/perf.data" -o /nonexistent/dir/x.html
grep -q "^sampo flamegraph: cannot create '/nonexistent/dir/x.html'" stderr || die "$(cat stderr)"

# the default output name, and stdout
expect_status 0 flamegraph -i "$f"
[ -s flamegraph.html ] || die "no flamegraph.html"
expect_status 0 flamegraph -i "$f" -o - --format svg
head -1 stdout | grep -q '^<?xml' || die "no SVG on stdout"
pass

#!/bin/bash
# t7503-report-branch-view: a file whose header has the BRANCH_STACK feature gets
# perf's branch view by default (one row per command, source object, source
# symbol, target symbol and cycles; each branch counts one), -b asks for it,
# --no-branch-stack gives the plain report; as perf prints them
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-wild.sh"

f=$(wild_file pdc__perf.data.branch-4.14)
sampo_wild report --stdio -i "$f" >"$tmpdir/out" 2>"$tmpdir/err"
# first principles: "Samples" and "Event count" are the branches of every stack
nr=$(sampo_wild dump -i "$f" | sed -n 's/^\.\.\. branch stack: nr:\([0-9]*\)$/\1/p' |
	awk '{ n += $1 } END { print n }')
[ "$nr" = 416 ] || die "the dump has $nr branches, not 416"
grep -q "^# Samples: $nr  of event 'cycles:ppp'$" "$tmpdir/out" || die "no 'Samples: $nr' line"
grep -q "^# Event count (approx.): $nr$" "$tmpdir/out" || die "no 'Event count: $nr' line"
grep -q '^# Overhead  Command  Source Shared Object  Source Symbol  *Target Symbol  *Basic Block Cycles$' \
	"$tmpdir/out" || die "no branch view header"
# the rows' counts add up to the branches (shares rounded: within 1%)
awk '/^ +[0-9.]+%/ { s += $1 } END { exit !(s > 99 && s < 101) }' "$tmpdir/out" ||
	die "the rows do not add up to 100%"
# -b is the default here
sampo_wild report --stdio -b -i "$f" >"$tmpdir/b" 2>/dev/null
compare_files "$tmpdir/out" "$tmpdir/b"
sampo_wild report --stdio --no-branch-stack -i "$f" >"$tmpdir/plain" 2>/dev/null
grep -q '^# Overhead  Command  Shared Object  *Symbol' "$tmpdir/plain" || die "--no-branch-stack: no plain report"
grep -q "^# Samples: 13  of event" "$tmpdir/plain" || die "--no-branch-stack: not 13 samples"

# options the branch view does not take: one warning, then the plain report
sampo_wild report --stdio -s comm,dso -i "$f" >"$tmpdir/s" 2>"$tmpdir/s.err"
grep -q "branch stacks" "$tmpdir/s.err" || die "-s: no warning about the branch view"
grep -q '^# Overhead  Command  Shared Object *$' "$tmpdir/s" || die "-s comm,dso: no plain report"
# -b on a file without branch stacks is an error naming the file
g=$(wild_file pdc__perf.data.busy.0-3.8)
HOME=$tmpdir/wild-home expect_status 1 report --stdio -b -i "$g"
grep -q "pdc__perf.data.busy.0-3.8.*no branch stacks" "$tmpdir/stderr" || die "-b: $(cat "$tmpdir/stderr")"

if [ -n "${PERF:-}" ] && [ -x "$PERF" ]; then
	for w in pdc__perf.data.branch-4.14 pdc__perf.data.callgraph_and_branch-3.8 \
		pdc__perf.data.branch_stack_spec pdc__perf.data.branch_stack_hw_index; do
		w=$(wild_file "$w")
		perf_foreign report --stdio -i "$w" | head -n -3 >"$tmpdir/want"
		sampo_wild report --stdio -i "$w" >"$tmpdir/got" 2>/dev/null
		compare_files "$tmpdir/want" "$tmpdir/got"
	done
	perf_foreign report --stdio --no-branch-stack -i "$f" | head -n -3 >"$tmpdir/want"
	compare_files "$tmpdir/want" "$tmpdir/plain"
fi
pass

#!/bin/bash
# t7514-mixed-sample-types: files whose events sample different fields (issue
# 12.5): each event is decoded by its own sample_type, report prints a section
# per event with samples, script each sample with its event's fields
#
# branch_stack_hw_index: cs_etm and dummy (IP|TID|TIME|CPU|IDENTIFIER) and
# instructions:uH (also PERIOD and BRANCH_STACK), only the last with samples:
# its branch view (116 branches) and its 5 samples with their periods.
# parallel_static: cycles and sched:sched_switch (also RAW): two sections,
# of 233 and 9 samples (perf 6.1's counts).
# perf 6.1, when there, must print the same (the tracepoint's trace field
# aside, which sampo does not format: docs/wild-corpus.md).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-wild.sh"
cd "$tmpdir"

b=$(wild_file pdc__perf.data.branch_stack_hw_index)
sampo_wild report --stdio -i "$b" >b.report 2>/dev/null
[ "$(grep -c '^# Samples:' b.report)" = 1 ] && grep -qx "# Samples: 116  of event 'instructions:uH'" b.report ||
	die "branch_stack_hw_index sections: $(grep '^# Samples' b.report)"
sampo_wild script -i "$b" >b.script 2>/dev/null
[ "$(wc -l <b.script)" = 5 ] && [ "$(grep -c ' instructions:uH: ' b.script)" = 5 ] ||
	die "branch_stack_hw_index script: $(cat b.script)"
awk '{ s += $5 } END { exit s != 1000 + 149 + 161 + 349 + 404 }' b.script ||
	die "the periods are not the samples' own: $(awk '{ print $5 }' b.script | tr '\n' ' ')"

p=$(wild_file pp__parallel_static_gcc_perf.data.zstd)
sampo_wild report --stdio -i "$p" >p.report 2>/dev/null
grep '^# Samples:' p.report >p.sections
printf '%s\n' "# Samples: 233  of event 'cycles'" "# Samples: 9  of event 'sched:sched_switch'" >want.sections
compare_files want.sections p.sections

if [ -n "${PERF:-}" ] && [ -x "$PERF" ]; then
	perf_foreign report --stdio -i "$b" | head -n -3 >want
	compare_files want b.report
	perf_foreign script -i "$b" >want
	compare_files want b.script
	perf_foreign report --stdio -i "$p" | head -n -3 >want
	compare_files want p.report
fi
pass

#!/bin/bash
# t7512-pipe-report-script-kernel: in pipe mode, report and script name the
# kernel samples alike (issue 12.9). A pipe carries no kernel build-id; its
# OS release comes as a HEADER_FEATURE record before the samples, and both
# commands take the running kernel when that release is its own. report used
# to make its symbolizer before the features came, and left every kernel
# sample unresolved while script named them.
#
# A pipe recorded here with perf: every kernel address that script names
# must be in report's table under the same name, and there must be some.
. "$(dirname "$0")/lib.sh"

need_perf_record
export HOME=$tmpdir/home
unset PERF_BUILDID_DIR
mkdir -p "$HOME"
cd "$tmpdir"

env -u MALLOC_PERTURB_ "$PERF" record -q -e cpu-clock -F 4000 -o - -- \
	dd if=/dev/zero of=/dev/null bs=512 count=60000 >pipe.data 2>rec.err ||
	die "perf record -o - failed: $(tail -2 rec.err)"
run_sampo script -F ip,sym,dso -G -i - <pipe.data >script.out 2>script.err
run_sampo report --stdio --no-children -g none --sort sym -i - <pipe.data >report.out 2>report.err
# script: "ADDR SYM+OFF ([kernel.kallsyms])" without -F symoff: "ADDR SYM (DSO)"
awk '$NF == "([kernel.kallsyms])" && $2 != "[unknown]" { print $2 }' script.out | sort -u >script.syms
[ -s script.syms ] || skip "script names no kernel sample here (no kernel symbols to read?)"
awk '$2 == "[k]" { print $3 }' report.out | sort -u >report.syms
grep -q '^0x' report.syms && die "report leaves kernel samples unresolved: $(grep -m3 '^0x' report.syms | tr '\n' ' ')"
missing=$(comm -23 script.syms report.syms)
[ -z "$missing" ] || die "kernel symbols of script missing in report: $(echo "$missing" | head -5 | tr '\n' ' ')"
pass

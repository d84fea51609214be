#!/bin/bash
# t5000-record-basic: sampo record runs a command into a perf.data that perf and sampo read without a warning, exits with the command's status, renames the old file, writes pipe format to stdout, and rejects bad usage
. "$(dirname "$0")/lib.sh"

# grep_all ARGS: grep that reads all its input (grep -q would SIGPIPE the writer under pipefail)
grep_all() { grep "$@" >/dev/null; }

need_perf
burn=$SAMPO_BUILDDIR/demo/burn
[ -x "$burn" ] || skip "no demo/burn in the build"
export HOME=$tmpdir/home
mkdir -p "$HOME"
cd "$tmpdir"

# skip where perf_event_open is not permitted (containers, paranoid > 2)
"$SAMPO" record -q -e cpu-clock -o probe.data -- true >/dev/null 2>&1 || skip "sampo cannot record here"

# a command: the default event falls back to cpu-clock with a one-line notice
expect_status 0 record -F 1000 -- "$burn" 200
grep -q "^burn: " "$tmpdir/stdout" || die "the command's output is missing"
[ -e /sys/bus/event_source/devices/cpu ] || grep -q "falling back to 'cpu-clock'" "$tmpdir/stderr" ||
	die "no notice of the fallback to cpu-clock"
grep -Eq '^\[ sampo record: Captured and wrote [0-9.]+ MB perf.data \([0-9]+ samples\) \]$' "$tmpdir/stderr" ||
	die "no summary line: $(cat "$tmpdir/stderr")"
[ -s perf.data ] || die "no perf.data"

# perf reads every record without a word on stderr; sampo dump agrees on the counts
"$PERF" report -D -i perf.data >perf-D.txt 2>perf-D.err || die "perf report -D failed"
[ ! -s perf-D.err ] || die "perf report -D warned: $(head -3 perf-D.err)"
grep -q "PERF_RECORD_SAMPLE" perf-D.txt || die "no samples in perf's dump"
grep -q "PERF_RECORD_MMAP .*\[kernel.kallsyms\]_text" perf-D.txt || die "no kernel map"
grep -q "PERF_RECORD_COMM exec: burn" perf-D.txt || die "no exec COMM of the command"
grep -q "PERF_RECORD_FINISHED_ROUND" perf-D.txt || die "no FINISHED_ROUND"
run_sampo dump -i perf.data >sampo-D.txt
diff <(sed -n '/^Aggregated stats:/,$p' perf-D.txt) <(sed -n '/^Aggregated stats:/,$p' sampo-D.txt) ||
	die "sampo dump and perf report -D count different records"

# the samples are the command's
"$PERF" report --stdio -i perf.data --sort comm 2>/dev/null | grep_all -E '^ +[0-9.]+% +burn' ||
	die "perf report shows no samples of burn"

# the header carries the host features
"$PERF" report --header-only -i perf.data >hdr.txt 2>&1
for k in hostname "os release" arch "nrcpus online" cpudesc cpuid "total memory" cmdline \
	"event : name = cpu-clock" "pmu mappings" "time of first sample"; do
	grep -q "^# $k" hdr.txt || die "header has no '$k' line"
done

# the old file is kept as perf.data.old
cp perf.data first.data
expect_status 0 record -q -e task-clock -F 500 -- "$burn" 50
cmp -s perf.data.old first.data || die "perf.data.old is not the previous perf.data"
[ ! -s "$tmpdir/stderr" ] || die "-q still printed: $(cat "$tmpdir/stderr")"
"$PERF" report --header-only -i perf.data 2>/dev/null | grep_all "name = task-clock" || die "-e task-clock ignored"

# two events: ids in the samples, both read back by perf; explicit cycles falls back too
expect_status 0 record -e cycles:u,task-clock -F 1000 -o multi.data -- "$burn" 200
"$PERF" report -D -i multi.data >multi.D 2>multi.err || die "perf cannot read two events"
[ ! -s multi.err ] || die "perf report -D warned on two events: $(head -3 multi.err)"
"$PERF" report --header-only -i multi.data >multi.hdr 2>&1
grep -q "sample_type = IP|TID|TIME|ID|PERIOD" multi.hdr || die "no PERF_SAMPLE_ID with two events"
grep -q "name = task-clock" multi.hdr || die "task-clock missing"
grep -Eq "name = (cycles|cpu-clock):u" multi.hdr || die "cycles:u missing"
grep -q "task-clock stats:" multi.D || die "no samples of task-clock"

# the command's exit status is sampo's
expect_status 3 record -q -e cpu-clock -o st.data -- sh -c 'exit 3'
[ -s st.data ] || die "no file for a failing command"
expect_status 1 record -q -e cpu-clock -o nx.data -- /nonexistent/command
grep -q "cannot run '/nonexistent/command'" "$tmpdir/stderr" || die "no message for a failed exec"

# pipe format on stdout
"$SAMPO" record -q -e cpu-clock -F 1000 -o - -- "$burn" 100 >pipe.data 2>pipe.err ||
	die "pipe mode failed: $(cat pipe.err)"
"$PERF" report -D -i pipe.data >/dev/null 2>pipe-D.err || die "perf cannot read the pipe file"
[ ! -s pipe-D.err ] || die "perf warned on the pipe file: $(head -3 pipe-D.err)"
"$PERF" buildid-list -i pipe.data | grep_all "demo/burn" || die "no build-id of burn in pipe mode"

# usage errors
expect_status 129 record -q
grep -q "nothing to record" "$tmpdir/stderr" || die "no message without a target"
expect_status 129 record -F 100 -c 1000 -- true
expect_status 129 record -m 3 -- true
expect_status 1 record -e no-such-event -- true
grep -q "unknown event 'no-such-event'" "$tmpdir/stderr" || die "unknown event not reported"

# -F above the kernel's limit is capped with a notice
max=$(cat /proc/sys/kernel/perf_event_max_sample_rate)
expect_status 0 record -e cpu-clock -F $((max + 1)) -o cap.data -- true
grep -q "above the kernel's limit" "$tmpdir/stderr" || die "no notice for -F above the limit"
pass

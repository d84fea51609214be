#!/bin/bash
# t5007-record-perf-options: record's options that shape the events set the
# attributes perf 6.1's do (compared with perf evlist -v on a recording of
# perf's own with the same options): every -e counts (perf records the
# events of each), the modifiers u, k and p (exclude_hv, and exclude_guest
# unless k alone), --all-user, --all-kernel (over the modifiers),
# -i/--no-inherit, --switch-events, --namespaces, -d/--data, --sample-cpu,
# -I/--intr-regs and --user-regs (with dwarf call graphs: SP and IP added),
# -T and -P (always on). And each does what it says: --all-user leaves no
# kernel sample and --all-kernel no user one in a workload of system calls,
# --no-inherit no sample of a child, --switch-events SWITCH records,
# --namespaces NAMESPACES records, -d sample addresses; --max-size stops a
# long command once the file has that size (perf 6.1 checks it at each write
# and may never stop) and leaves a file perf reads; -D drops the samples of
# the first milliseconds after the command's exec. -W, --phys-data,
# --sample-identifier, --kernel-callchains, --user-callchains, -k, --no-bpf-event,
# -n, -R, --running-time, --data-page-size, --code-page-size and --no-buffering set perf's
# attributes too; -B writes no build-id table and copies nothing into the cache,
# --buildid-all lists every object mapped as perf's does,
# --timestamp-filename renames the file as perf does, and --strict-freq refuses a
# frequency above the kernel's limit where perf does; -r runs the recorder
# SCHED_FIFO, --dry-run records nothing, --buildid-mmap is the default.
. "$(dirname "$0")/lib.sh"

export HOME=$tmpdir/home
mkdir -p "$HOME"
need_perf_record
cd "$tmpdir"
"$SAMPO" record -q -e cpu-clock -o probe.data -- true >/dev/null 2>&1 || skip "sampo cannot record here"

# attrs OPTIONS...: perf's and sampo's attributes for the same options (precise_ip
# left out: sampo takes the p modifier but asks for no precision; build_id: sampo's
# build-ids in MMAP2 records, on purpose)
fails=0
attrs() {
	"$PERF" record -q -N "$@" -o perf.data -- true >/dev/null 2>&1 || die "perf record $* failed"
	run_sampo record -q -N "$@" -o sampo.data -- true >/dev/null 2>&1
	"$PERF" evlist -v -i perf.data 2>/dev/null | sed 's/precise_ip: [0-9], //' >want
	"$PERF" evlist -v -i sampo.data 2>/dev/null | sed 's/, build_id: 1//' >got
	[ -s want ] || die "perf evlist printed nothing for $*"
	compare_report want got "$*"
}
attrs -e cpu-clock
attrs -e cpu-clock -e task-clock
attrs -e cpu-clock,task-clock:k -e page-faults:u
for m in u k uk ku up kp p; do
	attrs -e "cpu-clock:$m"
done
attrs -e cpu-clock --all-user
attrs -e cpu-clock --all-kernel
attrs -e cpu-clock:u --all-kernel
attrs -e cpu-clock:k --all-user
attrs -e cpu-clock --no-inherit
attrs -e cpu-clock -i
attrs -e cpu-clock --switch-events
attrs -e cpu-clock --namespaces
attrs -e cpu-clock -d
attrs -e cpu-clock --sample-cpu
attrs -e cpu-clock -T -P
attrs -e cpu-clock -d --switch-events --namespaces --sample-cpu --no-inherit
attrs -e cpu-clock -W
attrs -e cpu-clock --phys-data
attrs -e cpu-clock --sample-identifier
attrs -e cpu-clock -e task-clock --sample-identifier
attrs -e cpu-clock -g --kernel-callchains
attrs -e cpu-clock -g --user-callchains
attrs -e cpu-clock -g --kernel-callchains --user-callchains
attrs -e cpu-clock --kernel-callchains # without -g: nothing
attrs -e cpu-clock -k mono
attrs -e cpu-clock --no-bpf-event
attrs -e cpu-clock -n
attrs -e cpu-clock -R
attrs -e cpu-clock --running-time
attrs -e cpu-clock --data-page-size --code-page-size
attrs -e cpu-clock --timestamp-boundary
attrs -e cpu-clock --no-buffering
attrs -e cpu-clock -k CLOCK_BOOTTIME
if [ "$(uname -m)" = x86_64 ]; then
	attrs -e cpu-clock -I
	attrs -e cpu-clock -Iax,bx
	attrs -e cpu-clock --intr-regs=AX,sp,ip
	attrs -e cpu-clock --user-regs=ax,bx
	attrs -e cpu-clock --user-regs
	attrs -e cpu-clock --call-graph=dwarf --user-regs=ax # ax, and SP and IP for the unwinding
fi
[ "$fails" -eq 0 ] || die "$fails sets of attributes differ from perf's"

# what they do. A workload of system calls: dd copying a byte at a time
work() { dd if=/dev/zero of=/dev/null bs=1 count=300000 2>/dev/null; }
export -f work
kernel_ips() { awk '$1 ~ /^ffff/ { k++ } $1 !~ /^ffff/ { u++ } END { print k + 0, u + 0 }'; }
run_sampo record -q -N -e cpu-clock -F 2000 -o all.data -- bash -c work
read -r k u < <("$SAMPO" script -i all.data -F ip 2>/dev/null | kernel_ips)
[ "$k" -gt 0 ] && [ "$u" -gt 0 ] || skip "the workload needs kernel and user samples ($k, $u)"
run_sampo record -q -N -e cpu-clock -F 2000 --all-user -o user.data -- bash -c work
read -r k u < <("$SAMPO" script -i user.data -F ip 2>/dev/null | kernel_ips)
[ "$k" -eq 0 ] && [ "$u" -gt 0 ] || die "--all-user: $k kernel and $u user samples"
run_sampo record -q -N -e cpu-clock -F 2000 --all-kernel -o kernel.data -- bash -c work
read -r k u < <("$SAMPO" script -i kernel.data -F ip 2>/dev/null | kernel_ips)
[ "$k" -gt 0 ] && [ "$u" -eq 0 ] || die "--all-kernel: $k kernel and $u user samples"

# --no-inherit: bash's child dd is not counted, bash's own loop is
spin='work; i=0; while [ $i -lt 30000 ]; do i=$((i + 1)); done'
run_sampo record -q -N -e cpu-clock -F 2000 -o inherit.data -- bash -c "$spin"
"$SAMPO" script -i inherit.data -F comm >comms 2>/dev/null
grep -qx ' *dd *' comms || die "no dd sample with inherit"
run_sampo record -q -N -e cpu-clock -F 2000 --no-inherit -o noinherit.data -- bash -c "$spin"
"$SAMPO" script -i noinherit.data -F comm >comms 2>/dev/null
grep -qx ' *bash *' comms || die "--no-inherit: bash's loop was not sampled"
! grep -qx ' *dd *' comms || die "--no-inherit: dd was sampled"

# --switch-events and --namespaces: their records, which perf reads too
run_sampo record -q -N -e cpu-clock --switch-events --namespaces -o sw.data -- sleep 0.05
"$PERF" script -i sw.data --show-switch-events >sw.txt 2>/dev/null
grep -q 'PERF_RECORD_SWITCH' sw.txt || die "--switch-events: no SWITCH record"
# the command's namespaces, synthesized as perf does: the links of /proc/PID/ns
"$PERF" script -i sw.data --show-namespace-events >ns.all 2>/dev/null
grep -m1 -A2 'PERF_RECORD_NAMESPACES' ns.all >ns.txt || true
grep -q 'sampo-exec .* PERF_RECORD_NAMESPACES [0-9]*/[0-9]* - nr_namespaces: 7$' ns.txt ||
	die "--namespaces: no NAMESPACES record of the command: $(cat ns.txt)"
net=$(printf '%s/0x%x' "$(stat -L -c %d /proc/self/ns/net)" "$(stat -L -c %i /proc/self/ns/net)")
grep -q "0/net: $net," ns.txt || die "--namespaces: not this net namespace ($net): $(cat ns.txt)"

# -d: samples with an address field
run_sampo record -q -N -e cpu-clock -d -o d.data -- bash -c work
"$PERF" script -i d.data -F ip,addr >addr.txt 2>&1
grep -Eq '^ +[0-9a-f]+ +[0-9a-f]+$' addr.txt || die "-d: perf script -F ip,addr: $(head -2 addr.txt)"
# --max-size: a command of a minute or more, stopped at 64 KiB (the rest of the
# pass over the rings on top: at most a ring a CPU)
burn=$SAMPO_BUILDDIR/demo/burn
if [ -x "$burn" ]; then
	rc=0
	timeout 50 "$SAMPO" record -N -e cpu-clock -F 4000 --max-size=64K -o max.data -- "$burn" 100000 \
		>/dev/null 2>max.err || rc=$?
	[ "$rc" -ne 124 ] || die "--max-size: still recording after 50 s"
	[ "$rc" -eq 143 ] || die "--max-size: exit $rc, expected 143 (the command stopped by SIGTERM): $(cat max.err)"
	grep -q '^\[ sampo record: size limit reached ([0-9]* KB), stopping session \]$' max.err ||
		die "--max-size: no message: $(cat max.err)"
	size=$(stat -c %s max.data)
	rings=$(($(nproc) * 128 * 4096))
	[ "$size" -ge 65536 ] && [ "$size" -lt $((65536 + rings + 65536)) ] || die "--max-size: $size bytes"
	"$PERF" report -i max.data --stdio >max.report 2>&1 || die "perf cannot read it: $(tail -2 max.report)"
	grep -q 'burn_leaf' max.report || die "perf finds no sample of burn"
fi
# -D 300: the first sample comes 300 ms or more after the command's exec (its COMM
# record), by the file's own clock; the startup's maps and comms are all there
if [ -x "$burn" ]; then
	run_sampo record -N -D 300 -e cpu-clock -F 1000 -o delay.data -- "$burn" 1500 >/dev/null 2>delay.err
	grep -qx 'Events disabled' delay.err || die "-D: no 'Events disabled': $(cat delay.err)"
	"$SAMPO" script -i delay.data --show-task-events -F comm,time >delay.txt 2>/dev/null
	exec_t=$(awk '/PERF_RECORD_COMM exec: burn/ { sub(":", "", $2); print $2; exit }' delay.txt)
	first_t=$(awk '!/PERF_RECORD/ { sub(":", "", $2); print $2; exit }' delay.txt)
	[ -n "$exec_t" ] && [ -n "$first_t" ] || die "-D: no exec or no sample: $(head -5 delay.txt)"
	awk -v e="$exec_t" -v f="$first_t" 'BEGIN { exit !(f - e >= 0.3) }' ||
		die "-D 300: the first sample at $first_t, $exec_t the exec"
	"$PERF" report -i delay.data --stdio 2>/dev/null | grep -q 'burn_leaf' || die "-D: perf names no sample"
fi
# -I: the registers at each sample, which perf prints as sampo does
if [ "$(uname -m)" = x86_64 ] && [ -x "$burn" ]; then
	run_sampo record -q -N -I -e cpu-clock -o regs.data -- "$burn" 100 >/dev/null
	"$PERF" script -i regs.data -F ip,sym,iregs >want 2>/dev/null
	"$SAMPO" script -i regs.data -F ip,sym,iregs >got 2>/dev/null
	grep -q ' ABI:2 .* R15:0x' want || die "-I: perf prints no registers: $(head -2 want)"
	# a sample in a PLT stub: perf 6.1 may call it _init (docs/report-differences.md)
	cmp -s want got || python3 "$SAMPO_SRCDIR/tests/cli/plt-canon.py" script want got >/dev/null ||
		compare_files want got
	expect_status 129 record -Ifoo -o x.data -- true
	grep -q "unknown register 'foo' ('sampo record -I?' lists them)" "$tmpdir/stderr" ||
		die "$(cat "$tmpdir/stderr")"
fi
# -B: no BUILD_ID feature, nothing in ~/.debug; a recording without it has both
rm -rf "$HOME/.debug"
run_sampo record -q -B -e cpu-clock -o nob.data -- "$burn" 50 >/dev/null
"$PERF" report --header-only -i nob.data 2>/dev/null | grep -q '^# missing features:.* BUILD_ID ' ||
	die "-B: a build-id table"
[ ! -e "$HOME/.debug" ] || die "-B: copies in the cache: $(find "$HOME/.debug" | head -3)"
run_sampo record -q -e cpu-clock -o b.data -- "$burn" 50 >/dev/null
"$PERF" report --header-only -i b.data 2>/dev/null | grep -q '^# missing features:.* BUILD_ID ' &&
	die "no build-id table without -B"
# --buildid-all: the build-ids of every object mapped, as perf's --buildid-all lists them
"$PERF" record -q -N --buildid-all -F 97 -e cpu-clock -o pall.data -- sleep 0.2 >/dev/null 2>&1 ||
	die "perf record --buildid-all failed"
run_sampo record -q -N --buildid-all -F 97 -e cpu-clock -o sall.data -- sleep 0.2 >/dev/null
"$PERF" buildid-list -i pall.data >want 2>/dev/null
"$PERF" buildid-list -i sall.data >got 2>/dev/null
grep -q ' /usr/bin/sleep$' want || die "perf's --buildid-all has no sleep: $(cat want)"
compare_files want got
expect_status 129 record -B --buildid-all -o x.data -- true
# -r: the recorder runs SCHED_FIFO at that priority, the command as it would
if command -v chrt >/dev/null; then
	run_sampo record -q -N -r 3 -e cpu-clock -o rt.data -- sh -c 'chrt -p $PPID; chrt -p $$' >rt.out
	grep -q "^pid [0-9]*'s current scheduling policy: SCHED_FIFO$" rt.out &&
		grep -q "^pid [0-9]*'s current scheduling priority: 3$" rt.out &&
		grep -q "^pid [0-9]*'s current scheduling policy: SCHED_OTHER$" rt.out ||
		die "-r 3: $(cat rt.out)"
fi
# --dry-run: the options and events checked, nothing recorded
run_sampo record --dry-run -e cpu-clock -o dry.data -- true
[ ! -e dry.data ] || die "--dry-run wrote a file"
expect_status 1 record --dry-run -e no-such-event -o dry.data -- true
grep -q "unknown event .no-such-event." "$tmpdir/stderr" || die "--dry-run: $(cat "$tmpdir/stderr")"
# --buildid-mmap: the default, which --no-buildid-mmap turns off
run_sampo record -q -N --buildid-mmap -e cpu-clock -o bm.data -- true >/dev/null
"$PERF" evlist -v -i bm.data 2>/dev/null | grep -q 'build_id: 1' || die "--buildid-mmap: no build_id attr"
expect_status 129 record --buildid-mmap --no-buildid-mmap -o x.data -- true
# --timestamp-filename: OUTPUT.<16 digits>, said, and named by the summary
run_sampo record -e cpu-clock --timestamp-filename -o ts.data -- "$burn" 50 >/dev/null 2>ts.err
name=$(ls ts.data.*)
[[ $name =~ ^ts\.data\.[0-9]{16}$ ]] && [ ! -e ts.data ] || die "--timestamp-filename: $name"
grep -q "^\[ sampo record: Dump $name \]\$" ts.err && grep -q "MB $name (" ts.err ||
	die "--timestamp-filename: $(cat ts.err)"
# --strict-freq: above perf_event_max_sample_rate, an error (perf's too); without it, lowered
max=$(cat /proc/sys/kernel/perf_event_max_sample_rate)
"$PERF" record -q -F $((max + 1)) --strict-freq -e cpu-clock -o p.data -- true >/dev/null 2>&1 &&
	die "perf takes -F above the limit with --strict-freq"
expect_status 1 record -q -F $((max + 1)) --strict-freq -e cpu-clock -o x.data -- true
grep -q "above the kernel's limit of $max Hz" "$tmpdir/stderr" || die "--strict-freq: $(cat "$tmpdir/stderr")"
run_sampo record -q -F $((max + 1)) -e cpu-clock -o x.data -- true >/dev/null

expect_status 129 record --max-size=100 -o x.data -- true
grep -q "invalid size '100' (a number with its unit: B, K, M or G" "$tmpdir/stderr" || die "$(cat "$tmpdir/stderr")"
pass

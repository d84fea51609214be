#!/bin/bash
# t3006-script-side-band: script's --show-task-events, --show-mmap-events,
# --show-switch-events, --show-namespace-events, --show-cgroup-events,
# --show-lost-events, --show-bpf-events and --show-round-events print the
# side-band records among the samples as perf 6.1's script does: the columns
# of the record's event (its pid/tid, CPU and time from its sample_id, the
# comm of the thread it is about), then PERF_RECORD_<NAME> and its details.
# Compared line for line with perf on the fixtures (with -F, -C, --reltime,
# --deltatime, --ns, file order) and on wild files: perf 3.2 to 6.12 files,
# pipes, a hybrid machine's dummy event (its records lack CPU: "[-01]"),
# KSYMBOL and BPF_EVENT, CGROUP, SWITCH and SWITCH_CPU_WIDE, NAMESPACES, and
# LOST records appended to a pipe.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-wild.sh"
need_perf
need_cmd python3

dir=$(fixtures_dir)
# perf and sampo share the build-id cache that `perf archive` made for the fixtures
export HOME=$tmpdir
fixture_cache "$HOME/.debug"
unset PERF_BUILDID_DIR

all="--show-task-events --show-mmap-events --show-switch-events --show-namespace-events
	--show-cgroup-events --show-lost-events --show-bpf-events"
fails=0
check() {
	local f=$1
	shift
	"$PERF" script -i "$dir/$f/perf.data" "$@" >"$tmpdir/want" 2>/dev/null
	run_sampo script -i "$dir/$f/perf.data" "$@" >"$tmpdir/got" 2>/dev/null
	grep -q PERF_RECORD_ "$tmpdir/want" || die "$f $*: perf printed no side-band record"
	case $f in
	d-pipe-mode | e-compressed-zstd)
		# no build-id table: perf names two kernel samples from a kallsyms it
		# finds, sampo never guesses a kernel (t3000): the side-band lines alone
		grep PERF_RECORD_ "$tmpdir/want" >"$tmpdir/want.rec"
		grep PERF_RECORD_ "$tmpdir/got" >"$tmpdir/got.rec" || true
		compare_report "$tmpdir/want.rec" "$tmpdir/got.rec" "$f $*" ;;
	*) compare_report "$tmpdir/want" "$tmpdir/got" "$f $*" ;;
	esac
}
for f in a-syswide-cpuclock b-callchain-fp c-multi-event d-pipe-mode e-compressed-zstd \
	f-buildid-mmap g-switch-namespaces-task h-switch-ns-cgroup-syswide; do
	for opts in "$all" "--show-task-events" "--show-mmap-events -F comm,tid,time,ip,sym" \
		"$all -F pid,event" "$all --reltime" "$all --deltatime --ns" \
		"$all --show-round-events" "$all -G"; do
		# shellcheck disable=SC2086 # word splitting of the options is wanted
		check "$f" $opts
	done
done
for f in g-switch-namespaces-task h-switch-ns-cgroup-syswide; do
	# shellcheck disable=SC2086
	check "$f" --show-switch-events --show-namespace-events --show-cgroup-events
done
# shellcheck disable=SC2086
check a-syswide-cpuclock $all -C 1
# shellcheck disable=SC2086
check h-switch-ns-cgroup-syswide $all --cpu 0 --comms sleep

# other perf versions and machines, with perf reading them as lib-wild.sh does
wild_check() {
	local f
	f=$(wild_file "$1")
	shift
	perf_foreign script -i "$f" "$@" >"$tmpdir/want"
	sampo_wild script -i "$f" "$@" >"$tmpdir/got" 2>/dev/null
	grep -q PERF_RECORD_ "$tmpdir/want" || die "$f $*: perf printed no side-band record"
	compare_report "$tmpdir/want" "$tmpdir/got" "$(basename "$f") $*"
}
for f in pdc__perf.data.hybrid_topology pdc__perf.data.ctx_switch_namespaces-4.14 \
	pdc__perf.data.piped.ctx_switch_namespaces-4.14 pdc__perf.data.branch_stack_spec \
	pp__parallel_static_gcc_perf.data.zstd pp__fork_static_gcc_perf.data.zstd \
	lpd__sleep.compressed.pipe.data pdc__perf.data.weight_struct pdc__perf.data.busy.1-3.8 \
	pdc__perf.data.armv7-3.4 pdc__perf.data.i686-3.4 pdc__perf.data.remmap-3.2 \
	hs__perf.data.true.v1; do
	# shellcheck disable=SC2086
	wild_check "$f" $all
done
grep -q '\[-01\] .*PERF_RECORD_MMAP2' <(sampo_wild script -i \
	"$(wild_file pdc__perf.data.hybrid_topology)" --show-mmap-events) ||
	die "the hybrid file's dummy records do not show CPU -1 as perf does"

# LOST records (a ring buffer's dropped chunk), appended to a perf 3.4 pipe; the thread
# 1234 is unknown: perf names it ":1234"
python3 - "$(wild_file pdc__perf.data.piped.target-3.4)" "$tmpdir/lost.data" <<'PY'
import struct, sys
data = open(sys.argv[1], 'rb').read()
# LOST: header, id, lost; then the sample_id trailer of IP|TID|TIME|CPU|PERIOD: pid/tid, time, cpu
rec = struct.pack('<IHHQQIIQII', 2, 0, 48, 0, 7, 1234, 1234, 1 << 48, 0, 0)
open(sys.argv[2], 'wb').write(data + rec + rec)
PY
perf_foreign script -i - --show-lost-events <"$tmpdir/lost.data" >"$tmpdir/want"
sampo_wild script -i - --show-lost-events <"$tmpdir/lost.data" >"$tmpdir/got"
[ "$(grep -c ':1234  1234 \[000\] 281474.976710: PERF_RECORD_LOST lost 7$' "$tmpdir/want")" = 2 ] ||
	die "perf no longer prints the LOST records so: $(grep LOST "$tmpdir/want")"
compare_report "$tmpdir/want" "$tmpdir/got" "LOST records"

[ "$fails" -eq 0 ] || die "$fails outputs differ from perf's"

# -F +f names f alone: a default field the samples lack goes, as in perf (no CPU here)
"$PERF" script -i "$dir/b-callchain-fp/perf.data" -F +pid >"$tmpdir/want" 2>/dev/null
run_sampo script -i "$dir/b-callchain-fp/perf.data" -F +pid >"$tmpdir/got"
compare_files "$tmpdir/want" "$tmpdir/got"
expect_status 1 script -i "$dir/b-callchain-fp/perf.data" -F +cpu
grep -q "have no CPU: cannot print field 'cpu'" "$tmpdir/stderr" || die "$(cat "$tmpdir/stderr")"

# text lines among the samples: not in folded stacks or JSON
expect_status 129 script -i "$dir/b-callchain-fp/perf.data" --show-mmap-events --folded
grep -q -- "--show-\*-events print text lines among the samples" "$tmpdir/stderr" ||
	die "$(cat "$tmpdir/stderr")"
expect_status 129 script -i "$dir/b-callchain-fp/perf.data" --show-task-events --format json
pass

#!/bin/bash
# t5008-record-compressed: record -z writes the ring records as perf record -z
# does: zstd COMPRESSED records and the COMPRESSED feature (zstd, the level,
# the ratio, and the most one record inflates to, perf's mmap_len), which
# perf 6.1 and sampo read alike (the same report and script output), with
# call chains, system-wide, in a pipe, at every level, with small rings
# (each record bounded by them: readers allocate that much for one), and
# killed with SIGKILL (readable to its last round). -z23 is an error.
. "$(dirname "$0")/lib.sh"

export HOME=$tmpdir/home
mkdir -p "$HOME"
need_perf
burn=$SAMPO_BUILDDIR/demo/burn
[ -x "$burn" ] || skip "no demo/burn in the build"
cd "$tmpdir"
"$SAMPO" record -q -e cpu-clock -o probe.data -- true >/dev/null 2>&1 || skip "sampo cannot record here"

# same FILE [OPTIONS]: perf and sampo print the same script output and report
same() {
	local f=$1
	shift
	"$PERF" script -i "$f" "$@" >want 2>/dev/null
	"$SAMPO" script -i "$f" "$@" >got 2>/dev/null
	[ -s want ] || die "$f: perf reads nothing"
	compare_files want got
	"$PERF" report --stdio -i "$f" "$@" 2>/dev/null | perf_untip | grep '%' >want
	"$SAMPO" report --stdio -i "$f" "$@" 2>/dev/null | grep '%' >got
	compare_files want got
}

run_sampo record -N -z -e cpu-clock -F 4000 -o z.data -- "$burn" 400 >/dev/null 2>z.err
grep -Eq '^\[ sampo record: Captured and wrote [0-9.]+ MB z.data \([0-9]+ samples\), compressed \(original [0-9.]+ MB, ratio is [0-9.]+\) \]$' z.err ||
	die "no summary: $(cat z.err)"
ratio=$(sed -n 's/.*ratio is \([0-9]*\)\..*/\1/p' z.err)
[ "$ratio" -ge 2 ] || die "ratio $ratio: the records were not compressed"
"$PERF" report --header-only -i z.data 2>/dev/null | grep -q "^# compressed : Zstd, level = 1, ratio = [0-9]*$" ||
	die "perf sees no COMPRESSED feature"
"$SAMPO" dump -i z.data 2>/dev/null | grep -q '^ *COMPRESSED events: *[1-9]' || die "no COMPRESSED record"
same z.data
grep -q 'burn_leaf_alpha' got || die "no burn_leaf_alpha in the report"

# call chains; level 9; small rings (64 KiB: the records inflate to at most 68 KiB)
run_sampo record -q -N -z9 -g -m 16 -e cpu-clock -F 10000 -o zg.data -- "$burn" 400 >/dev/null
"$PERF" report --header-only -i zg.data 2>/dev/null | grep -q "^# compressed : Zstd, level = 9, ratio = [0-9]*$" ||
	die "perf sees no level 9"
same zg.data
# system-wide, level 0 (zstd's default) and 22; burn's samples compared (what else runs
# on the machine may go through a [vdso] that sampo names and perf does not)
run_sampo record -q -N -z0 -a -e cpu-clock -F 1000 -o za.data -- "$burn" 200 >/dev/null
same za.data --comms burn
run_sampo record -q -N --compression-level=22 -e cpu-clock -o z22.data -- "$burn" 100 >/dev/null
same z22.data

# a pipe: the feature comes before the first COMPRESSED record
# (burn's own output must not go into the stream)
run_sampo record -q -N -z -g -e cpu-clock -o - -- sh -c "exec '$burn' 300 >/dev/null" >zp.data
"$PERF" report --stdio -i - <zp.data 2>/dev/null | perf_untip | grep '%' >want
"$SAMPO" report --stdio -i - <zp.data 2>/dev/null | grep '%' >got
[ -s want ] || die "perf reads nothing from the pipe"
compare_files want got

# SIGKILL: readable up to its last round, by both
"$SAMPO" record -q -N -z -e cpu-clock -F 4000 -o zk.data -- "$burn" 100000 >/dev/null 2>&1 &
pid=$!
# (wait for samples of burn in the file: its header is rewritten at each round)
for _ in $(seq 100); do
	"$SAMPO" script -i zk.data -F sym >zk.txt 2>/dev/null || true
	grep -q burn_leaf zk.txt && break
	sleep 0.2
done
kill -9 "$pid"
wait "$pid" 2>/dev/null || true
pkill -f "$burn 100000" || true
"$PERF" report --stdio -i zk.data 2>/dev/null | grep -q 'burn_leaf' || die "perf cannot read the killed recording"
"$SAMPO" report --stdio -i zk.data 2>/dev/null | grep -q 'burn_leaf' || die "sampo cannot read the killed recording"

expect_status 129 record -z23 -o x.data -- true
grep -q "invalid compression level '23' (0 to 22" "$tmpdir/stderr" || die "$(cat "$tmpdir/stderr")"
pass

#!/bin/bash
# t5010-record-clockid: record -k/--clockid takes the sample times from the clock
# named (monotonic, monotonic_raw, realtime, boottime, tai, their short names, with
# CLOCK_ or as a number), as perf record -k does, and writes CLOCKID and CLOCK_DATA,
# which tie that clock to the time of day: script -F tod prints each sample's time
# of day as perf's script does, on sampo's recordings and on perf's. With realtime
# the time of day is the sample time itself (first principles); a file without
# CLOCK_DATA is an error for tod, as in perf.
. "$(dirname "$0")/lib.sh"

export HOME=$tmpdir/home TZ=UTC
mkdir -p "$HOME"
need_perf
burn=$SAMPO_BUILDDIR/demo/burn
[ -x "$burn" ] || skip "no demo/burn in the build"
cd "$tmpdir"
"$SAMPO" record -q -e cpu-clock -o probe.data -- true >/dev/null 2>&1 || skip "sampo cannot record here"

# the header perf reads: the attr's clock, and the two features
before=$(date +%s)
run_sampo record -q -N -k mono -e cpu-clock -F 1000 -o m.data -- "$burn" 300 >/dev/null
after=$(date +%s)
"$PERF" report --header-only -i m.data 2>/dev/null >m.header
grep -q 'use_clockid = 1.*clockid = 1$' m.header || die "no use_clockid, clockid 1: $(grep event m.header)"
grep -q '^# clockid: monotonic (1)$' m.header || die "no CLOCK_DATA: $(cat m.header)"
grep -q '^# clockid frequency: [0-9]* MHz$' m.header || die "no CLOCKID: $(cat m.header)"

# -F tod as perf prints it, and within the recording's wall-clock seconds
for f in tod,time comm,tid,tod,time,ip,sym; do
	"$PERF" script -i m.data -F $f >want 2>/dev/null
	run_sampo script -i m.data -F $f >got
	[ -s want ] || die "perf prints no -F $f"
	compare_files want got
done
run_sampo script -i m.data -F tod,time --ns >got
"$PERF" script -i m.data -F tod,time --ns >want 2>/dev/null
compare_files want got
first=$(head -1 got | cut -c1-19)
t=$(date -d "$first" +%s)
[ "$t" -ge "$before" ] && [ "$t" -le "$after" ] ||
	die "first sample at $first, not between $(date -d @"$before") and $(date -d @"$after")"

# realtime: the time of day is the sample time
run_sampo record -q -N -k CLOCK_REALTIME -e cpu-clock -F 1000 -o r.data -- "$burn" 100 >/dev/null
run_sampo script -i r.data -F tod,time >got
read -r day clock stamp <got
want_tod=$(date -d "@${stamp%:}" '+%Y-%m-%d %H:%M:%S').${stamp#*.}
[ "$day $clock" = "${want_tod%:}" ] || die "realtime: tod '$day $clock' for time $stamp"

# perf's -k recording reads the same
if "$PERF" record -q -k monotonic_raw -e cpu-clock -F 1000 -o p.data -- "$burn" 200 >/dev/null 2>&1; then
	"$PERF" script -i p.data -F comm,tod,time,ip >want 2>/dev/null
	run_sampo script -i p.data -F comm,tod,time,ip >got
	compare_files want got
fi

# the names perf takes, and a number
run_sampo record -q -N -k 7 -e cpu-clock -o b.data -- true >/dev/null
"$PERF" report --header-only -i b.data 2>/dev/null | grep -q '^# clockid: boottime (7)$' ||
	die "-k 7 is not boottime"
run_sampo record -q -N -k raw -e cpu-clock -o w.data -- true >/dev/null
"$PERF" report --header-only -i w.data 2>/dev/null | grep -q '^# clockid: monotonic_raw (4)$' ||
	die "-k raw is not monotonic_raw"

# errors: an unknown clock; tod of a file without clock data
expect_status 129 record -k nope -o x.data -- true
grep -q "^sampo record: -k: unknown clock 'nope'" "$tmpdir/stderr" || die "-k nope: $(cat "$tmpdir/stderr")"
run_sampo record -q -N -e cpu-clock -o n.data -- "$burn" 50 >/dev/null
expect_status 1 script -i n.data -F tod,time
grep -q "has no clock data (CLOCK_DATA) for field 'tod': record with -k/--clockid" "$tmpdir/stderr" ||
	die "no error for tod: $(cat "$tmpdir/stderr")"
pass

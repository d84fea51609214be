#!/bin/bash
# t7509-report-group-view: files with event groups get perf's group view in
# report (one column per member, --group/--no-group), and samples that read a
# group's counters (PERF_SAMPLE_READ, read_format GROUP) become one sample per
# member, of the counter's increase, in report and script (issue 12.6)
#
# The crafted file (mkperfdata --group) is `perf record -e
# '{cpu-clock,task-clock}:S'` of 20 leader samples: cpu-clock rises by 1000000
# except on every 7th sample (i % 7 == 5, at 0x11a9: a row only task-clock
# has), task-clock by 50000 * (1 + i % 3) except on every 4th (i % 4 == 3).
# So, from first principles: cpu-clock 17 samples and 17000000, task-clock
# 15 samples and 1500000, and at 0x11a9 task-clock's 150000 + 50000 (i = 5,
# 12; i = 19 did not rise), 13.33%. perf 6.1, when there, must print the
# same bytes for this file in each form and option, and for the corpus files
# with groups.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-wild.sh"
mk=$SAMPO_BUILDDIR/tests/tools/mkperfdata
[ -x "$mk" ] || skip "no $mk"
cd "$tmpdir"
"$mk" --group -o grp.data
"$mk" --group --big-endian -o grp-be.data
"$mk" --group --pipe -o grp.pipe
"$mk" -o plain.data

# ---- first principles ------------------------------------------------------
sampo_wild report --stdio --no-children -g none -i grp.data >rep.out 2>rep.err
grep -qx "# Samples: 32  of events 'anon group { cpu-clock, task-clock }'" rep.out ||
	die "no group header: $(grep Samples rep.out)"
grep -qx '# Event count (approx.): 18500000' rep.out || die "event count: $(grep count rep.out)"
grep -qx '#         Overhead  Command  Shared Object     Symbol                ' rep.out ||
	die "the Overhead column is not two members wide: $(sed -n 9p rep.out)"
grep -qx '     0.00%  13.33%  burn     burn              \[\.\] 0x00000000000011a9' rep.out ||
	die "no task-clock-only row at 0x11a9: $(grep 11a9 rep.out)"
[ "$(grep -c '^    [ 0-9][0-9]\.[0-9][0-9]%  [ 0-9][0-9]\.[0-9][0-9]%  burn' rep.out)" -eq 5 ] ||
	die "not 5 rows of two columns"

sampo_wild report --stdio --no-children --no-group -g none -i grp.data >nogroup.out 2>/dev/null
grep -qx "# Samples: 17  of events 'cpu-clock'" nogroup.out || die "--no-group leader: $(grep Samples nogroup.out)"
grep -qx "# Samples: 15  of event 'task-clock'" nogroup.out || die "--no-group member: $(grep Samples nogroup.out)"
grep -qx '# Event count (approx.): 1500000' nogroup.out || die "task-clock's count"

sampo_wild script -F event,period -i grp.data >script.out 2>/dev/null
[ "$(grep -c 'cpu-clock:' script.out)" -eq 17 ] || die "not 17 cpu-clock samples in script"
[ "$(grep -c 'task-clock:' script.out)" -eq 15 ] || die "not 15 task-clock samples in script"
[ "$(awk '/task-clock:/ { s += $1 } END { print s }' script.out)" -eq 1500000 ] ||
	die "task-clock's periods do not add up to its increase"

# --group and --no-group together
expect_status 129 report --group --no-group -i grp.data

# ---- perf 6.1, byte for byte -------------------------------------------------
if [ -z "${PERF:-}" ] || [ ! -x "$PERF" ]; then
	say "no perf: first principles only"
	pass
fi
# report_vs_perf FILE ARGS...: the report of FILE with ARGS as perf prints it
# (tip dropped); FILE - reads grp.pipe on stdin
report_vs_perf() {
	local f=$1 in=/dev/null
	shift
	[ "$f" = - ] && in=grp.pipe
	perf_foreign report --stdio -i "$f" "$@" <"$in" | head -n -3 >want
	sampo_wild report --stdio -i "$f" "$@" <"$in" >got 2>/dev/null
	compare_files want got || die "report $* -i $f"
}
report_vs_perf grp.data
report_vs_perf grp.data --no-children -n
report_vs_perf grp.data --no-group
report_vs_perf grp.data --sort dso
report_vs_perf grp-be.data
report_vs_perf -
report_vs_perf plain.data --group
report_vs_perf plain.data --group --no-children
for f in pdc__perf.data.group_desc-4.14 pdc__perf.data.lost_samples-4.4; do
	report_vs_perf "$(wild_file "$f")"
	report_vs_perf "$(wild_file "$f")" --no-group
done
perf_foreign script -i grp.data >want
sampo_wild script -i grp.data >got 2>/dev/null
compare_files want got
pass

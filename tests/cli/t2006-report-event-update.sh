#!/bin/bash
# t2006-report-event-update: an EVENT_UPDATE that renames an event renames it in report, script and dump alike, as in perf 6.1
#
# tests/tools/mkperfdata --rename writes an EVENT_UPDATE of type NAME for the
# first event (EVENT_DESC calls it cpu-clock). perf 6.1 applies it in every
# command (perf_event__process_event_update()); sampo report used to keep
# the EVENT_DESC name. The golden file is perf 6.1.187's `perf report
# --stdio` of each (file and pipe stream) without its random tip lines; with
# perf installed the test also compares with perf run now.
. "$(dirname "$0")/lib.sh"

mk=$SAMPO_BUILDDIR/tests/tools/mkperfdata
[ -x "$mk" ] || die "no $mk (tests/meson.build must have subdir('tools'))"

# neither perf nor sampo may find the user's build-id cache
export HOME=$tmpdir/home
mkdir -p "$HOME"
cd "$tmpdir"

"$mk" --rename my-clock -o r.data
"$mk" --rename my-clock --pipe -o rp.data

for f in r rp; do
	"$SAMPO" report --stdio -i $f.data >$f.report 2>$f.err ||
		die "sampo report -i $f.data failed: $(cat $f.err)"
	grep -q "^# Samples: 10  of event 'my-clock'$" $f.report ||
		die "report of $f.data does not use the EVENT_UPDATE name"
	grep -q "^# Samples: 10  of event 'task-clock'$" $f.report ||
		die "report of $f.data renamed the wrong event"
	compare_golden $f.report $test_name-$f.out

	"$SAMPO" script -F event -i $f.data >$f.script 2>/dev/null ||
		die "sampo script -i $f.data failed"
	[ "$(grep -c 'my-clock:' $f.script)" -eq 10 ] ||
		die "script of $f.data does not use the EVENT_UPDATE name"

	"$SAMPO" dump -i $f.data >$f.dump 2>/dev/null || die "sampo dump -i $f.data failed"
	grep -q '^my-clock stats:$' $f.dump || die "dump of $f.data does not use the EVENT_UPDATE name"

	if [ -n "${PERF:-}" ] && [ -x "$PERF" ]; then
		"$PERF" report --stdio -i $f.data >$f.perf 2>/dev/null || die "perf report -i $f.data failed"
		perf_untip <$f.perf >$f.perf.notip
		compare_files $f.perf.notip $f.report
	fi
done
pass

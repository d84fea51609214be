#!/bin/bash
# t6302-report-format-json: sampo report --format json has the totals and rows of sampo report --stdio (which matches perf) on every fixture, in every sort and mode, and is valid versioned JSON
. "$(dirname "$0")/lib.sh"
need_cmd python3

dir=$(fixtures_dir)
cache=$tmpdir/cache
fixture_cache "$cache"
check=$SAMPO_SRCDIR/tests/cli/format-json-check.py

nr=0
for f in "$dir"/*/perf.data; do
	name=$(basename "$(dirname "$f")")
	fixture_extra "$name"
	for opts in "" "--no-children" "-s pid,sym" "-s dso,comm --no-children" \
		"-n --percent-limit 2" "-s sym --children"; do
		# shellcheck disable=SC2086
		PERF_BUILDID_DIR=$cache run_sampo report --stdio -g none -i "$f" "${extra[@]}" \
			$opts >"$tmpdir/text" 2>/dev/null
		# shellcheck disable=SC2086
		PERF_BUILDID_DIR=$cache run_sampo report --format json -g none -i "$f" \
			"${extra[@]}" $opts >"$tmpdir/json" 2>/dev/null
		flags=()
		[[ " $opts " == *" -n "* ]] && flags=(-n)
		python3 "$check" report "$tmpdir/text" "$tmpdir/json" "${flags[@]}" ||
			die "$name, report $opts: the JSON does not say what the text says"
		nr=$((nr + 1))
	done
done

# the call graph mode changes neither rows nor totals
f=$dir/b-callchain-fp/perf.data
PERF_BUILDID_DIR=$cache run_sampo report --format json -i "$f" >"$tmpdir/graph.json" 2>/dev/null
PERF_BUILDID_DIR=$cache run_sampo report --stdio -i "$f" >"$tmpdir/graph.text" 2>/dev/null
grep -E -e '^# (Samples|Event count)' -e '^ +[0-9]+\.[0-9]+% ' "$tmpdir/graph.text" >"$tmpdir/graph.rows"
python3 "$check" report "$tmpdir/graph.rows" "$tmpdir/graph.json" --rows-only ||
	die "with call graphs: the JSON does not say what the text says"

# a file without samples: a valid document with no events
"$SAMPO" report --format json -i "$dir/g-switch-namespaces-task/perf.data" --comms nosuchcomm \
	>"$tmpdir/none.json" 2>/dev/null || die "report --format json with no rows failed"
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["schema"] == "sampo-report" and d["version"] == 1
assert all(e["rows"] == [] for e in d["events"]), d["events"]
' "$tmpdir/none.json" || die "no rows: not the expected document"

expect_status 129 report --format xml -i "$f"
grep -q "unknown --format 'xml'" "$tmpdir/stderr" || die "no message for an unknown format"
say "$nr reports compared"
pass

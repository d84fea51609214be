#!/bin/bash
# t6303-script-format-json: sampo script --format json has the samples of sampo script (which matches perf script), field for field and frame for frame, on every fixture and field set, and is valid versioned JSON
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
	for fields in "" "-G" "comm,tid,pid,time,event,ip,sym,symoff,dso" "ip,sym,dso" \
		"comm,pid,period,sym,dso" "tid,ip,sym" "time,ip,dso"; do
		args=()
		case $fields in
		"" | -*) [ -n "$fields" ] && args=("$fields") ;;
		*) args=(-F "$fields") ;;
		esac
		PERF_BUILDID_DIR=$cache run_sampo script -i "$f" "${extra[@]}" "${args[@]}" \
			>"$tmpdir/text" 2>/dev/null
		PERF_BUILDID_DIR=$cache run_sampo script --format json -i "$f" "${extra[@]}" \
			"${args[@]}" >"$tmpdir/json" 2>/dev/null
		flags=()
		[[ -z "$fields" || "$fields" == -* || ",$fields," == *,sym,* ]] || flags+=(--no-sym)
		[[ -z "$fields" || "$fields" == -* || ",$fields," == *,dso,* ]] || flags+=(--no-dso)
		python3 "$check" script "$tmpdir/text" "$tmpdir/json" "${flags[@]}" ||
			die "$name, script ${args[*]}: the JSON does not say what the text says"
		nr=$((nr + 1))
	done
done

# the system-wide fixture has CPUs; a pipe reads the same
f=$dir/a-syswide-cpuclock/perf.data
run_sampo script --format json -F cpu,ip -i - <"$f" >"$tmpdir/pipe.json" 2>/dev/null
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["schema"] == "sampo-script" and d["version"] == 1
assert len(d["samples"]) > 100 and all(set(s) == {"cpu", "ip"} for s in d["samples"]), d["samples"][0]
assert len({s["cpu"] for s in d["samples"]}) > 1
' "$tmpdir/pipe.json" || die "-F cpu,ip from a pipe: not the expected document"

expect_status 129 script --format yaml -i "$f"
grep -q "unknown --format 'yaml'" "$tmpdir/stderr" || die "no message for an unknown format"
say "$nr scripts compared"
pass

#!/bin/bash
# t6100-pprof-fixtures: sampo pprof on every perf 6.1 fixture, read by Go's pprof: the totals,
# sample counts and per-symbol shares of perf's own report, the build-ids of the recorded DSOs
# in the mappings, the call chains of perf's call graph, and `go tool pprof -proto` merging two
. "$(dirname "$0")/lib.sh"
need_cmd go python3

dir=$(fixtures_dir)
export HOME=$tmpdir GOCACHE=$tmpdir/gocache GOFLAGS=-mod=mod
cache=$tmpdir/cache
fixture_cache "$cache"
check=$SAMPO_SRCDIR/tests/cli/pprof-check.py
gopprof() { go tool pprof -symbolize=none "$@"; }

fails=0
for f in "$dir"/*/perf.data; do
	d=$(dirname "$f")
	name=$(basename "$d")
	fixture_extra "$name"
	PERF_BUILDID_DIR=$cache "$SAMPO" pprof -i "$f" -o "$tmpdir/$name.pb.gz" "${extra[@]}" \
		2>"$tmpdir/err" || die "sampo pprof -i $f failed: $(cat "$tmpdir/err")"
	if ! python3 "$check" "$tmpdir/$name.pb.gz" "$d/report-stdio-no-children.txt" \
		>"$tmpdir/check" 2>&1; then
		echo "# $name: go tool pprof differs from perf report:" >&2
		sed 's/^/#   /' "$tmpdir/check" >&2
		fails=$((fails + 1))
	fi
done
[ "$fails" -eq 0 ] || die "$fails profiles differ from perf's reports"

# report --format pprof writes the same profile
PERF_BUILDID_DIR=$cache run_sampo report --format pprof -i "$dir/c-multi-event/perf.data" \
	-o "$tmpdir/c-report.pb.gz"
cmp <(gzip -dc "$tmpdir/c-report.pb.gz") <(gzip -dc "$tmpdir/c-multi-event.pb.gz") ||
	die "report --format pprof and sampo pprof wrote different profiles"

# perf_data_converter's sample types, two per event, the last "_event" by default
gopprof -raw "$tmpdir/c-multi-event.pb.gz" >"$tmpdir/raw"
grep -qx 'cpu-clock_sample/count cpu-clock_event/count task-clock_sample/count task-clock_event/count\[dflt\]' \
	"$tmpdir/raw" || die "sample types: $(grep -A1 '^Samples:' "$tmpdir/raw")"

# the recorded build-ids (perf buildid-list) in the mappings of their DSOs
gopprof -raw "$tmpdir/b-callchain-fp.pb.gz" >"$tmpdir/raw"
sed -n '/^Mappings/,$p' "$tmpdir/raw" >"$tmpdir/maps"
grep -q ' /tmp/pfx/burn 690cfd666a0fa1f2e4b67ddad86ea1a75405b61c ' "$tmpdir/maps" ||
	die "no build-id in burn's mapping: $(cat "$tmpdir/maps")"
grep -q ' \[kernel.kallsyms\] 4a5a9b0affb66c437abcd455d2738af879985fa9 ' "$tmpdir/maps" ||
	die "no build-id in the kernel's mapping: $(cat "$tmpdir/maps")"
# burn's mapping: its text segment at file offset 0x1000, as in the MMAP2
grep -q '^[0-9]*: 0x[0-9a-f]*/0x[0-9a-f]*/0x1000 /tmp/pfx/burn ' "$tmpdir/maps" ||
	die "burn's mapping has no file offset 0x1000: $(cat "$tmpdir/maps")"
# burn has DWARF: source lines (burn.c:12 is burn_leaf_alpha's loop)
grep -q 'burn_leaf_alpha /tmp/pfx/burn.c:12 ' "$tmpdir/raw" ||
	die "no source line for burn_leaf_alpha: $(grep burn_leaf_alpha "$tmpdir/raw")"

# the call chains perf's graph shows, leaf first: burn_leaf_alpha under burn_outer_delta, main
gopprof -traces "$tmpdir/b-callchain-fp.pb.gz" >"$tmpdir/traces"
awk 'function end() { if (s == "burn_leaf_alpha|burn_outer_delta|main|__libc_start_call_main|") n++; s = "" }
     /^-----------/ { end(); next }
     /^ +[0-9]+[a-z]* +[a-zA-Z_]/ { s = $2 "|"; next }
     /^ +[a-zA-Z_]/ { s = s $1 "|" }
     END { end(); exit n ? 0 : 1 }' "$tmpdir/traces" ||
	die "no trace burn_leaf_alpha <- burn_outer_delta <- main: $(head -30 "$tmpdir/traces")"

# two profiles merged by Go: the totals add up
gopprof -proto "$tmpdir/b-callchain-fp.pb.gz" "$tmpdir/e-compressed-zstd.pb.gz" \
	>"$tmpdir/merged.pb.gz" 2>"$tmpdir/err" || die "go tool pprof -proto failed: $(cat "$tmpdir/err")"
gopprof -top "$tmpdir/merged.pb.gz" >"$tmpdir/top"
grep -q " of 569000000 total" "$tmpdir/top" ||
	die "merged total is not 351000000 + 218000000: $(head -8 "$tmpdir/top")"
pass

#!/bin/bash
# t7401-debuginfod-down: a debuginfod server that is down (a closed port) or silent (accepts and
# never answers) costs one request at most: the first fetch fails (after --debuginfod-timeout for
# the silent one), one warning says so, the other missing files are not asked for, the report is
# the one without a server; a silent server sees exactly one connection
. "$(dirname "$0")/lib.sh"
. "$SAMPO_SRCDIR/tests/cli/debuginfod-lib.sh"
need_perf_record
need_cmd cc python3

unset DEBUGINFOD_TIMEOUT DEBUGINFOD_CACHE_PATH PERF_BUILDID_DIR
bin=$tmpdir/bin
mkdir -p "$bin" "$tmpdir/home"
cc -O1 -fno-omit-frame-pointer -shared -fPIC -Wl,--build-id -o "$bin/libspin.so" "$SAMPO_SRCDIR/tests/cli/progs/spin-lib.c" &&
	cc -O1 -fno-omit-frame-pointer -Wl,--build-id -Wl,-rpath,"$bin" -o "$bin/prog" \
		"$SAMPO_SRCDIR/tests/cli/progs/spin-prog.c" -L"$bin" -lspin || die "cannot build the test programs"
HOME=$tmpdir/home "$PERF" record -q -e cpu-clock -F 2000 -o "$tmpdir/rec.data" -- \
	"$bin/prog" 20000000 >/dev/null 2>&1 || die "perf record failed"
mv "$bin" "$tmpdir/bin.away"
report() { "$SAMPO" report --stdio --sort comm,dso,sym -i "$tmpdir/rec.data" "$@"; }

# the report without any server
mkdir -p "$tmpdir/bare"
HOME=$tmpdir/bare report >"$tmpdir/bare.report" 2>/dev/null || die "bare report failed"
grep -q 'prog  *\[\.\] 0x' "$tmpdir/bare.report" && grep -q 'libspin.so  *\[\.\] 0x' "$tmpdir/bare.report" ||
	die "both objects should be unresolved: $(cat "$tmpdir/bare.report")"

# a closed port: connection refused, once
port=$(free_port)
mkdir -p "$tmpdir/down"
HOME=$tmpdir/down DEBUGINFOD_URLS=http://127.0.0.1:$port report >"$tmpdir/down.report" 2>"$tmpdir/down.err" ||
	die "report with a down server failed: $(cat "$tmpdir/down.err")"
compare_files "$tmpdir/bare.report" "$tmpdir/down.report"
[ "$(grep -c 'debuginfod: .*not asked again in this run' "$tmpdir/down.err")" = 1 ] ||
	die "not one warning for the down server: $(cat "$tmpdir/down.err")"
grep -q 'Connection refused' "$tmpdir/down.err" || die "the warning does not say why: $(cat "$tmpdir/down.err")"
HOME=$tmpdir/down DEBUGINFOD_URLS=http://127.0.0.1:$port report --provenance >"$tmpdir/down.prov" 2>/dev/null ||
	die "report --provenance failed"
# the first object asked failed; the other was not asked at all
[ "$(grep -c 'debuginfod executable (Connection refused)' "$tmpdir/down.prov")" = 1 ] &&
	[ "$(grep -c 'debuginfod executable (not asked: the servers failed earlier)' "$tmpdir/down.prov")" = 1 ] ||
	die "not one object asked and the other not: $(cat "$tmpdir/down.prov")"

# a silent server: one connection, given up after the timeout, the other object not asked
start_silent_server
mkdir -p "$tmpdir/slow"
HOME=$tmpdir/slow DEBUGINFOD_URLS=$silent_url report --debuginfod-timeout 1 \
	>"$tmpdir/slow.report" 2>"$tmpdir/slow.err" || die "report with a silent server failed: $(cat "$tmpdir/slow.err")"
compare_files "$tmpdir/bare.report" "$tmpdir/slow.report"
[ "$(grep -c "debuginfod: no answer from $silent_url within 1 s" "$tmpdir/slow.err")" = 1 ] ||
	die "not one timeout warning: $(cat "$tmpdir/slow.err")"
[ "$(wc -l <"$tmpdir/silent.log")" = 1 ] ||
	die "the silent server was asked $(wc -l <"$tmpdir/silent.log") times, not once"

# the same through --debuginfod=URL and script
: >"$tmpdir/silent.log"
mkdir -p "$tmpdir/slow2"
HOME=$tmpdir/slow2 "$SAMPO" script -i "$tmpdir/rec.data" --debuginfod="$silent_url" --debuginfod-timeout 1 \
	>"$tmpdir/slow.script" 2>"$tmpdir/slow2.err" || die "script with a silent server failed"
HOME=$tmpdir/bare "$SAMPO" script -i "$tmpdir/rec.data" >"$tmpdir/bare.script" 2>/dev/null
compare_files "$tmpdir/bare.script" "$tmpdir/slow.script"
[ "$(wc -l <"$tmpdir/silent.log")" = 1 ] || die "script asked the silent server $(wc -l <"$tmpdir/silent.log") times"
pass

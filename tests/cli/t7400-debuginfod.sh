#!/bin/bash
# t7400-debuginfod: a profile read where its binaries are gone (renamed away, a fresh HOME) gets
# their symbols from a real debuginfod server (Debian's, on a loopback port) by build-id: report
# and script print what they print at home, the files land in the build-id cache where the next
# run and perf itself find them, one notice per fetch; a stripped binary gets its debuginfo;
# --no-debuginfod and an unset DEBUGINFOD_URLS ask no server
. "$(dirname "$0")/lib.sh"
. "$SAMPO_SRCDIR/tests/cli/debuginfod-lib.sh"
need_perf_record
need_cmd cc python3 debuginfod readelf strip

unset DEBUGINFOD_URLS DEBUGINFOD_TIMEOUT DEBUGINFOD_CACHE_PATH PERF_BUILDID_DIR
bin=$tmpdir/bin
mkdir -p "$bin" "$tmpdir/srv" "$tmpdir/home"
cat >"$tmpdir/strp.c" <<'SRC'
#include <stdio.h>
#include <stdlib.h>
__attribute__((noinline)) unsigned long spin_stripped(unsigned long n)
{
	unsigned long x = 5;

	for (unsigned long i = 0; i < n; i++)
		x = x * 6364136223846793005UL + (i >> 3);
	return x;
}
int main(int argc, char **argv)
{
	printf("%lu\n", spin_stripped(strtoul(argv[1], NULL, 10)));
	return 0;
}
SRC
cc -O1 -g -fno-omit-frame-pointer -shared -fPIC -Wl,--build-id -o "$bin/libspin.so" "$SAMPO_SRCDIR/tests/cli/progs/spin-lib.c" &&
	cc -O1 -g -fno-omit-frame-pointer -Wl,--build-id -Wl,-rpath,"$bin" -o "$bin/prog" \
		"$SAMPO_SRCDIR/tests/cli/progs/spin-prog.c" -L"$bin" -lspin &&
	cc -O1 -g -fno-omit-frame-pointer -Wl,--build-id -o "$tmpdir/srv/strp" "$tmpdir/strp.c" ||
	die "cannot build the test programs"
cp "$bin/prog" "$bin/libspin.so" "$tmpdir/srv/"
strip -s -o "$bin/strp" "$tmpdir/srv/strp"
prog_bid=$(build_id "$bin/prog")
lib_bid=$(build_id "$bin/libspin.so")
strp_bid=$(build_id "$bin/strp")
[ -n "$prog_bid" ] && [ -n "$lib_bid" ] && [ "$strp_bid" = "$(build_id "$tmpdir/srv/strp")" ] ||
	die "the test programs have no build-ids"

# recorded "at home": perf record fills $tmpdir/home/.debug
HOME=$tmpdir/home "$PERF" record -q -e cpu-clock -F 2000 -o "$tmpdir/rec.data" -- \
	"$bin/prog" 20000000 >/dev/null 2>&1 || die "perf record failed"
HOME=$tmpdir/home "$PERF" record -q -e cpu-clock -F 2000 -o "$tmpdir/strp.data" -- \
	"$bin/strp" 20000000 >/dev/null 2>&1 || die "perf record failed"
report() { "$SAMPO" report --stdio --sort comm,dso,sym -i "$tmpdir/rec.data" "$@"; }
script() { "$SAMPO" script -F comm,tid,ip,sym,dso -i "$tmpdir/rec.data" "$@"; }
HOME=$tmpdir/home report >"$tmpdir/home.report" 2>/dev/null || die "report at home failed"
HOME=$tmpdir/home script >"$tmpdir/home.script" 2>/dev/null || die "script at home failed"
grep -q 'prog  *\[\.\] spin_in_prog$' "$tmpdir/home.report" &&
	grep -q 'libspin.so  *\[\.\] spin_in_lib$' "$tmpdir/home.report" ||
	die "no symbols at home: $(cat "$tmpdir/home.report")"

start_debuginfod "$tmpdir/srv" "$prog_bid" "$lib_bid" "$strp_bid"
mv "$bin" "$tmpdir/bin.away"

# away, no server: nothing resolves, and no server is asked
mkdir -p "$tmpdir/bare"
HOME=$tmpdir/bare report >"$tmpdir/bare.report" 2>"$tmpdir/bare.err" || die "bare report failed"
grep -q spin_in_prog "$tmpdir/bare.report" && die "symbols without the files: $(cat "$tmpdir/bare.report")"
grep -q debuginfod "$tmpdir/bare.err" && die "debuginfod asked with DEBUGINFOD_URLS unset"
[ ! -e "$tmpdir/bare/.cache/debuginfod_client" ] || die "the debuginfod client ran with DEBUGINFOD_URLS unset"

# away, with the server: the same report and script as at home
mkdir -p "$tmpdir/away"
HOME=$tmpdir/away DEBUGINFOD_URLS=$dbgd_url report >"$tmpdir/away.report" 2>"$tmpdir/away.err" ||
	die "report with debuginfod failed: $(cat "$tmpdir/away.err")"
compare_files "$tmpdir/home.report" "$tmpdir/away.report"
[ "$(grep -c "^sampo report: debuginfod: fetched the executable of '$bin/prog' from $dbgd_url\$" "$tmpdir/away.err")" = 1 ] &&
	[ "$(grep -c "^sampo report: debuginfod: fetched the executable of '$bin/libspin.so' from $dbgd_url\$" "$tmpdir/away.err")" = 1 ] ||
	die "not one notice per fetched file: $(cat "$tmpdir/away.err")"
[ -f "$tmpdir/away/.debug$bin/prog/$prog_bid/elf" ] &&
	[ -L "$tmpdir/away/.debug/.build-id/${prog_bid:0:2}/${prog_bid:2}" ] &&
	[ -f "$tmpdir/away/.debug$bin/libspin.so/$lib_bid/elf" ] ||
	die "the fetched files are not in the build-id cache: $(find "$tmpdir/away/.debug")"

# --provenance names debuginfod as the source, with the cached copy
mkdir -p "$tmpdir/away3"
HOME=$tmpdir/away3 DEBUGINFOD_URLS=$dbgd_url report --provenance >"$tmpdir/away.prov" 2>/dev/null ||
	die "report --provenance with debuginfod failed"
grep -A3 "^$bin/prog\$" "$tmpdir/away.prov" |
	grep -qx "    symbols   debuginfod: $tmpdir/away3/.debug/.build-id/${prog_bid:0:2}/${prog_bid:2}/elf" ||
	die "--provenance does not name debuginfod: $(cat "$tmpdir/away.prov")"

# script, in another fresh HOME (so that it fetches too)
mkdir -p "$tmpdir/away2"
HOME=$tmpdir/away2 script --debuginfod="$dbgd_url" >"$tmpdir/away.script" 2>"$tmpdir/away2.err" ||
	die "script --debuginfod=URL failed: $(cat "$tmpdir/away2.err")"
compare_files "$tmpdir/home.script" "$tmpdir/away.script"
grep -q "fetched the executable of '$bin/prog'" "$tmpdir/away2.err" || die "script fetched nothing"

# the next run needs no server: the build-id cache has them, and perf reads that cache too
HOME=$tmpdir/away report >"$tmpdir/again.report" 2>"$tmpdir/again.err" || die "second report failed"
compare_files "$tmpdir/home.report" "$tmpdir/again.report"
grep -q debuginfod "$tmpdir/again.err" && die "the second run fetched again: $(cat "$tmpdir/again.err")"
HOME=$tmpdir/away "$PERF" report --stdio --sort dso,sym -i "$tmpdir/rec.data" 2>/dev/null |
	head -n -3 >"$tmpdir/perf.report"
HOME=$tmpdir/away "$SAMPO" report --stdio --sort dso,sym -i "$tmpdir/rec.data" >"$tmpdir/sampo.report" 2>/dev/null
compare_files "$tmpdir/perf.report" "$tmpdir/sampo.report"
grep -q 'spin_in_lib' "$tmpdir/perf.report" || die "perf did not read the cached files"

# --no-debuginfod: the server is not asked even with DEBUGINFOD_URLS set
mkdir -p "$tmpdir/off"
HOME=$tmpdir/off DEBUGINFOD_URLS=$dbgd_url report --no-debuginfod >"$tmpdir/off.report" 2>"$tmpdir/off.err" ||
	die "report --no-debuginfod failed"
compare_files "$tmpdir/bare.report" "$tmpdir/off.report"
grep -q debuginfod "$tmpdir/off.err" && die "--no-debuginfod fetched: $(cat "$tmpdir/off.err")"

# a stripped binary at its path: its debuginfo comes from the server
HOME=$tmpdir/home "$SAMPO" report --stdio --sort dso,sym -i "$tmpdir/strp.data" >"$tmpdir/strp.home" 2>/dev/null
grep -q spin_stripped "$tmpdir/strp.home" && die "the stripped binary has symbols: $(cat "$tmpdir/strp.home")"
mkdir -p "$tmpdir/strp" "$bin" && cp "$tmpdir/bin.away/strp" "$bin/strp"
HOME=$tmpdir/strp DEBUGINFOD_URLS=$dbgd_url "$SAMPO" report --stdio --sort dso,sym \
	-i "$tmpdir/strp.data" >"$tmpdir/strp.away" 2>"$tmpdir/strp.err" || die "stripped report failed"
grep -q 'strp  *\[\.\] spin_stripped$' "$tmpdir/strp.away" ||
	die "no symbols from the debuginfo: $(cat "$tmpdir/strp.away" "$tmpdir/strp.err")"
grep -q "fetched the debuginfo of '$bin/strp'" "$tmpdir/strp.err" || die "no notice: $(cat "$tmpdir/strp.err")"
[ -f "$tmpdir/strp/.debug$bin/strp/$strp_bid/debug" ] || die "the debuginfo is not cached as 'debug'"
pass

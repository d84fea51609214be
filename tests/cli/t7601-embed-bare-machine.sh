#!/bin/bash
# t7601-embed-bare-machine: issue 13's self-contained profile. A program built here, recorded
# with sampo record -g, injected with --embed-symbols (and recorded with --embed-symbols), read on
# a "bare machine" (a fresh HOME with no build-id cache, the program renamed away) gives
# byte-identical report, script, folded stacks, --no-children report, flame graph (SVG) and pprof
# output to reading it at home, and none of the program's symbols without the section; its kernel samples are named
# from the embedded kernel table (--provenance says "embedded" for the kernel and the program);
# perf 6.1's report of the injected file equals its report of the original; a damaged section is
# one warning and the profile is read without it
. "$(dirname "$0")/lib.sh"

need_perf_record
need_cmd cc python3
unset PERF_BUILDID_DIR SAMPO_BUILDID_DIR DEBUGINFOD_URLS
home=$tmpdir/home
export HOME=$home
mkdir -p "$home" "$tmpdir/bin"
cd "$tmpdir"
cat >prog.c <<'EOF'
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>
static volatile unsigned long sink;
__attribute__((noinline)) void bare_hot_leaf(long n) { for (long i = 0; i < n; i++) sink += i * 7; }
__attribute__((noinline)) void bare_caller(long n) { bare_hot_leaf(n); sink++; }
__attribute__((noinline)) void bare_reader(long n)
{
	static char buf[65536];
	int fd = open("/dev/zero", O_RDONLY);
	for (long i = 0; i < n; i++)
		if (read(fd, buf, sizeof(buf)) < 0)
			break;
	close(fd);
}
int main(int argc, char **argv)
{
	long rounds = argc > 1 ? atol(argv[1]) : 30;
	for (long r = 0; r < rounds; r++) {
		bare_caller(2000000);
		bare_reader(400);
	}
	return 0;
}
EOF
cc -O1 -fno-omit-frame-pointer -Wl,--build-id=sha1 -o bin/prog prog.c || die "cannot build the test program"
prog=$tmpdir/bin/prog
away() { mv "$prog" "$prog.away"; }
back() { mv "$prog.away" "$prog"; }
fresh() { rm -rf "$tmpdir/bare"; mkdir -p "$tmpdir/bare"; }
# on the bare machine: a fresh HOME, run from it
bare() { (cd "$tmpdir/bare" && HOME=$tmpdir/bare "$SAMPO" "$@"); }

# what a reader shows; the same commands at home and on the bare machine
views() {
	local run=$1 data=$2 out=$3
	$run report --stdio -i "$data" >"$out.report" 2>"$out.report.err" || die "report failed: $(cat "$out.report.err")"
	$run report --stdio --no-children --sort dso,sym -i "$data" >"$out.flat" 2>/dev/null || die "report --no-children failed"
	$run script -i "$data" >"$out.script" 2>"$out.script.err" || die "script failed: $(cat "$out.script.err")"
	$run script -F comm,tid,ip,sym,symoff,dso -i "$data" >"$out.symoff" 2>/dev/null || die "script -F failed"
	$run script --folded -i "$data" >"$out.folded" 2>/dev/null || die "script --folded failed"
	# the other symbolizing readers: a flame graph (no inline frames: the program has no DWARF)
	# and a pprof profile (no source lines), compared as they are and inflated
	$run flamegraph --format svg -i "$data" -o - >"$out.svg" 2>/dev/null || die "flamegraph failed"
	$run pprof --no-lines -i "$data" -o - 2>/dev/null | gzip -dc >"$out.pprof" || die "pprof failed"
}
home_run() { "$SAMPO" "$@"; }

run_sampo record -q -g -F 2000 -o s.data -- "$prog" 40 >/dev/null
run_sampo inject --embed-symbols -i s.data -o e.data 2>/dev/null

# --- at home
views home_run s.data home
views home_run e.data home-e
for v in report flat script symoff folded svg pprof; do
	# the section changes nothing at home (the files come first)
	sed 's/e\.data/s.data/g' "home-e.$v" >"home-e.$v.n"
	compare_files "home.$v" "home-e.$v.n"
done
grep -q bare_hot_leaf home.svg || die "no bare_hot_leaf in the flame graph"
grep -q "\[\.\] bare_hot_leaf" home.report || die "no bare_hot_leaf at home: $(head -30 home.report)"
grep -Eq "\[k\] [A-Za-z_]" home.report || die "no named kernel symbol at home (no kernel samples?)"
[ -s home.report.err ] && die "report at home warned: $(cat home.report.err)"

# --- the bare machine: no cache, the program gone
away
fresh
cp e.data bare/
views bare e.data bare
for v in report flat script symoff folded svg pprof; do
	sed 's/e\.data/s.data/g' "bare.$v" >"bare.$v.n"
	compare_files "home.$v" "bare.$v.n"
done
[ -s bare.report.err ] && die "report on the bare machine warned: $(cat bare.report.err)"
bare report --stdio --provenance -i e.data >bare.prov 2>/dev/null
awk '/^\[kernel.kallsyms\]$/ { k = 1; next } k && /^ *symbols/ { print; exit }' bare.prov >kernel.prov
grep -q "symbols *embedded: e.data" kernel.prov || die "the kernel's symbols did not come from the profile: $(cat bare.prov)"
awk -v p="$prog" '$0 == p { k = 1; next } k && /^ *symbols/ { print; exit }' bare.prov >prog.prov
grep -q "symbols *embedded: e.data" prog.prov || die "the program's symbols did not come from the profile: $(cat bare.prov)"
# a kernel sample named on the bare machine: the same [k] rows as at home
grep -E "\[k\] [A-Za-z_]" bare.flat >bare.k
grep -E "\[k\] [A-Za-z_]" home.flat >home.k
[ -s bare.k ] || die "no named kernel row on the bare machine"
compare_files home.k bare.k
# without the section, the bare machine has no program symbols
fresh
bare report --stdio -i ../s.data >noembed.report 2>/dev/null || true
grep -q bare_hot_leaf noembed.report && die "bare_hot_leaf resolved on the bare machine without the section"
back

# --- recorded with --embed-symbols: the same on the bare machine
rm -rf "$home/.debug"
run_sampo record -q -g -F 2000 --embed-symbols -o r.data -- "$prog" 30 >/dev/null
views home_run r.data rhome
grep -q bare_hot_leaf rhome.report || die "no bare_hot_leaf at home (record --embed-symbols)"
away
fresh
cp r.data bare/
views bare r.data rbare
for v in report flat script symoff folded svg pprof; do
	compare_files "rhome.$v" "rbare.$v"
done
back
expect_status 129 record --embed-symbols -o - -- true

# --- perf 6.1 reads the injected file as the original
"$PERF" report --stdio -i s.data 2>/dev/null | grep -v "^# (Tip:" >perf-s.report
"$PERF" report --stdio -i e.data 2>/dev/null | grep -v "^# (Tip:" >perf-e.report
compare_files perf-s.report perf-e.report

# --- a damaged section: one warning, the profile read without it
damage() { # damage IN OUT WHAT: the section's version field, or a byte of its frame
	python3 - "$@" <<'EOF'
import struct, sys
src, dst, what = sys.argv[1:4]
d = bytearray(open(src, 'rb').read())
off, size = struct.unpack_from('<QQ', d, 40)
bm = struct.unpack_from('<4Q', d, 72)
bits = [b for b in range(256) if bm[b // 64] >> (b % 64) & 1]
o, s = struct.unpack_from('<QQ', d, off + size + 16 * bits.index(193))
if what == 'version':
    struct.pack_into('<I', d, o + 8, 7)
else:
    struct.pack_into('<Q', d, o + 16, struct.unpack_from('<Q', d, o + 16)[0] + 8)
open(dst, 'wb').write(d)
EOF
}
away
for what in version size; do
	fresh
	damage e.data "bare/d-$what.data" "$what" || die "cannot damage the section"
	bare report --stdio -i "d-$what.data" >"d-$what.report" 2>"d-$what.err" || die "report failed on a damaged section"
	[ "$(wc -l <"d-$what.err")" -eq 1 ] || die "not one line for a damaged section: $(cat "d-$what.err")"
	grep -q "'d-$what.data': the embedded symbols (feature 193 at 0x[0-9a-f]*) are not used: " "d-$what.err" ||
		die "bad message: $(cat "d-$what.err")"
	grep -q "Samples: " "d-$what.report" || die "no report for a damaged section"
	grep -q bare_hot_leaf "d-$what.report" && die "symbols from a damaged section"
done
grep -q "version 7" d-version.err || die "the version is not named: $(cat d-version.err)"
back
pass

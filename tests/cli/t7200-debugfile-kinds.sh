#!/bin/bash
# t7200-debugfile-kinds: every kind of executable gcc builds (static non-PIE, static-pie, PIE,
# shared library, a library linked at another base as prelink leaves it), and stripped files whose
# symbols are in a separate debug file found by each rule (build-id path, .gnu_debuglink next to
# the file, in .debug/, under the debug root, the build-id cache's debug entry, MiniDebugInfo):
# recorded by sampo and by perf, every sample's symbol in sampo script is the one the unstripped
# file has at that address, worked out from the program's own /proc/self/maps (sym-check.py);
# a debug file of another build is refused, and said so
. "$(dirname "$0")/lib.sh"
need_cmd gcc objcopy strip nm objdump readelf xz python3
"$SAMPO" record -q -e cpu-clock -o "$tmpdir/probe.data" -- true >/dev/null 2>&1 ||
	skip "sampo cannot record here"
unset PERF_BUILDID_DIR
check=$SAMPO_SRCDIR/tests/cli/sym-check.py
src=$tmpdir/src
mkdir -p "$src"
cd "$src"

# four hot functions of different sizes, local to their file (a stripped
# file keeps no name for them), and k_work, the only global one
cat >work.c <<'EOF'
static volatile unsigned long sink;
__attribute__((noinline)) static void f_one(long n)
{
	for (long i = 0; i < n; i++)
		sink += (unsigned long)i * 3;
}
__attribute__((noinline)) static void f_two(long n)
{
	for (long i = 0; i < n; i++)
		sink ^= (unsigned long)i * 7 + (sink >> 3);
}
__attribute__((noinline)) static void f_three(long n)
{
	unsigned long x = 1;
	for (long i = 0; i < n; i++)
		x = x * 6364136223846793005UL + 1442695040888963407UL;
	sink = x;
}
__attribute__((noinline)) static void f_four(long n)
{
	for (long i = 0; i < n / 2; i++) {
		sink += (unsigned long)i;
		sink -= (unsigned long)i >> 1;
	}
}
#ifdef OTHER_BUILD
__attribute__((noinline)) void k_other(void) { sink = 42; }
#endif
void k_work(long n)
{
	for (int r = 0; r < 4; r++) {
		f_one(n);
		f_two(n);
		f_three(n);
		f_four(n);
	}
}
EOF
# main writes its own maps where MAPS_OUT says, for the check
cat >main.c <<'EOF'
#include <stdio.h>
#include <stdlib.h>
void k_work(long n);
int main(int argc, char **argv)
{
	const char *out = getenv("MAPS_OUT");
	char buf[4096];
	size_t len;
	FILE *in, *o;

	k_work(argc > 1 ? atol(argv[1]) : 3000000);
	if (!out || !(in = fopen("/proc/self/maps", "r")) || !(o = fopen(out, "w")))
		return 1;
	while ((len = fread(buf, 1, sizeof(buf), in)) > 0)
		fwrite(buf, 1, len, o);
	fclose(in);
	return fclose(o) ? 1 : 0;
}
EOF
cflags="-O1 -g -fno-omit-frame-pointer"
# shellcheck disable=SC2086
{
	gcc $cflags -o pie main.c work.c
	gcc $cflags -static -no-pie -o exec main.c work.c
	gcc $cflags -static-pie -o spie main.c work.c
	gcc $cflags -fPIC -shared -o libwork.so work.c
	gcc $cflags -o uselib main.c -L. -lwork -Wl,-rpath,"$src"
	# prelink's layout: the library at a base of its own; the debug file split
	# off the same link at base 0 (same build-id, as prelink keeps it)
	bid=0x5a3c0de5a3c0de5a3c0de5a3c0de5a3c0de5a3c0
	mkdir -p pre
	gcc $cflags -fPIC -shared -Wl,--build-id=$bid -o pre/base0.so work.c
	gcc $cflags -fPIC -shared -Wl,--build-id=$bid -Wl,-Ttext-segment=0x10000000 \
		-o pre/libwork.so work.c
	gcc $cflags -o pre/uselib main.c -Lpre -lwork -Wl,-rpath,"$src/pre"
	# another build of the same program, for the build-id mismatch
	gcc $cflags -DOTHER_BUILD -o other main.c work.c
} 2>"$tmpdir/gcc.err" || skip "gcc cannot build the test programs: $(head -3 "$tmpdir/gcc.err")"
readelf -h exec | grep 'EXEC' >/dev/null || die "exec is not ET_EXEC"
readelf -h spie | grep 'DYN' >/dev/null || die "spie is not ET_DYN"
readelf -lW pre/libwork.so | grep 'LOAD.*0x0*10000000' >/dev/null || die "pre/libwork.so is not at 0x10000000"

bid_of() { readelf -n "$1" | sed -n 's/.*Build ID: //p'; }
# strip_copy FILE NEW: NEW is FILE stripped of everything but .dynsym
strip_copy() { strip --strip-all -o "$2" "$1"; }
# with_link FILE DEBUG: FILE gets a .gnu_debuglink to DEBUG (name and CRC)
with_link() { objcopy --add-gnu-debuglink="$2" "$1" "$1.tmp" && mv "$1.tmp" "$1"; }

objcopy --only-keep-debug pie pie.debug
objcopy --only-keep-debug pre/base0.so pre/base0.debug
objcopy --only-keep-debug other other.debug
pie_bid=$(bid_of pie)
[ -n "$pie_bid" ] || die "gcc wrote no build-id"

# each kind: its own directory; $dir/prog is the binary run, $dir/opts the
# script options, $dso the path whose samples are checked, $ref its unstripped twin
fails=0
unchecked_total=0
run_kind() {
	local kind=$1 dso=$2 ref=$3 prog=$4
	shift 4
	local d=$tmpdir/$kind n=30000000 r out
	mkdir -p "$d/home"
	for r in sampo perf; do
		[ "$r" = perf ] && [ -z "${PERF:-}" ] && continue
		if [ "$r" = sampo ]; then
			HOME=$d/home "$SAMPO" record -q -e cpu-clock -F 2000 -o "$d/$r.data" -- \
				env MAPS_OUT="$d/$r.maps" "$prog" $n >/dev/null 2>"$d/$r.rec.err" ||
				die "$kind: sampo record failed: $(tail -3 "$d/$r.rec.err")"
		else
			HOME=$d/home "$PERF" record -q -e cpu-clock -F 2000 -o "$d/$r.data" -- \
				env MAPS_OUT="$d/$r.maps" "$prog" $n >/dev/null 2>"$d/$r.rec.err" ||
				{ say "$kind: perf record failed"; continue; }
		fi
		[ -n "${post_record:-}" ] && "$post_record" "$d"
		HOME=$d/home run_sampo script -F ip,sym,dso -i "$d/$r.data" "$@" >"$d/$r.sampo" ||
			die "$kind: sampo script failed"
		if ! out=$(python3 "$check" "$d/$r.maps" "$d/$r.sampo" "$dso=$ref"); then
			say "$kind ($r record): sampo script: $out"
			fails=$((fails + 1))
		else
			say "$kind ($r record): sampo: $out"
		fi
		unchecked_total=$((unchecked_total + $(echo "$out" | sed -n 's/.*unchecked \([0-9]*\).*/\1/p')))
		if [ "$r" = perf ]; then
			HOME=$d/home "$PERF" script -F ip,sym,dso -i "$d/$r.data" "$@" >"$d/$r.perf" \
				2>/dev/null || true
			# where perf gets every sample right, sampo prints the same lines
			if out=$(python3 "$check" "$d/$r.maps" "$d/$r.perf" "$dso=$ref"); then
				diff <(grep -F "($dso)" "$d/$r.perf") <(grep -F "($dso)" "$d/$r.sampo") \
					>"$d/perf.diff" || {
					say "$kind: sampo script differs from perf script: $(head -5 "$d/perf.diff")"
					fails=$((fails + 1))
				}
			fi
			say "$kind (perf record): perf script: ${out%%$'\n'*}"
		fi
	done
}

# the plain kinds: symbols from the file itself
post_record=
run_kind pie "$src/pie" "$src/pie" "$src/pie"
run_kind exec "$src/exec" "$src/exec" "$src/exec"
run_kind static-pie "$src/spie" "$src/spie" "$src/spie"
run_kind shlib "$src/libwork.so" "$src/libwork.so" "$src/uselib"
run_kind prelinked "$src/pre/libwork.so" "$src/pre/libwork.so" "$src/pre/uselib"

# stripped, the debug file at the build-id path (under --symfs: /usr/lib/debug is the system's)
mkdir -p bid/symfs/usr/lib/debug/.build-id/"${pie_bid:0:2}"
strip_copy pie bid/prog
cp pie.debug bid/symfs/usr/lib/debug/.build-id/"${pie_bid:0:2}/${pie_bid:2}".debug
run_kind buildid-path "$src/bid/prog" "$src/pie" "$src/bid/prog" --symfs "$src/bid/symfs"

# stripped, .gnu_debuglink: next to the file, in its .debug/, under the debug root
mkdir -p link-dir link-dot/.debug link-root/symfs/usr/lib/debug"$src"/link-root
for k in link-dir link-dot link-root; do
	strip_copy pie $k/prog
	with_link $k/prog pie.debug
done
cp pie.debug link-dir/
cp pie.debug link-dot/.debug/
cp pie.debug link-root/symfs/usr/lib/debug"$src"/link-root/
run_kind debuglink-dir "$src/link-dir/prog" "$src/pie" "$src/link-dir/prog"
run_kind debuglink-dot-debug "$src/link-dot/prog" "$src/pie" "$src/link-dot/prog"
run_kind debuglink-root "$src/link-root/prog" "$src/pie" "$src/link-root/prog" \
	--symfs "$src/link-root/symfs"

# stripped, the debug file in the build-id cache as perf lays it out:
# CACHE/<path>/<bid>/debug, CACHE/.build-id/NN/REST -> ../../<path>/<bid>
mkdir -p cache
strip_copy pie cache/prog
cache_debug() {
	local c=$1/home/.debug
	mkdir -p "$c$src/cache/prog/$pie_bid" "$c/.build-id/${pie_bid:0:2}"
	cp pie.debug "$c$src/cache/prog/$pie_bid/debug"
	[ -e "$c/.build-id/${pie_bid:0:2}/${pie_bid:2}" ] ||
		ln -s "../..$src/cache/prog/$pie_bid" "$c/.build-id/${pie_bid:0:2}/${pie_bid:2}"
}
post_record=cache_debug
run_kind buildid-cache-debug "$src/cache/prog" "$src/pie" "$src/cache/prog"
post_record=

# MiniDebugInfo: the local functions' .symtab, xz-compressed in .gnu_debugdata (gdb's recipe)
mkdir -p mini
nm -D pie --format=posix --defined-only | awk '{ print $1 }' | sort >mini/dynsyms
nm pie --format=posix --defined-only | awk '$2 == "T" || $2 == "t" { print $1 }' | sort >mini/funcs
comm -13 mini/dynsyms mini/funcs >mini/keep
objcopy --only-keep-debug pie mini/debuginfo
objcopy -S --remove-section .gdb_index --remove-section .comment --keep-symbols=mini/keep \
	mini/debuginfo
xz -f mini/debuginfo
strip_copy pie mini/prog
objcopy --add-section .gnu_debugdata=mini/debuginfo.xz mini/prog
readelf -SW mini/prog | grep gnu_debugdata >/dev/null || die "no .gnu_debugdata in mini/prog"
readelf -SW mini/prog | grep ' .symtab ' >/dev/null && die "mini/prog still has a .symtab"
run_kind minidebuginfo "$src/mini/prog" "$src/pie" "$src/mini/prog"

# prelinked and stripped: its debug file has the addresses of the link at base 0
mkdir -p pre-strip
strip_copy pre/libwork.so pre-strip/libwork.so
cp pre/base0.debug pre-strip/
with_link pre-strip/libwork.so pre-strip/base0.debug
objcopy --add-section .gnu.prelink_undo=/dev/null pre-strip/libwork.so # how perf tells prelink
gcc $cflags -o pre-strip/uselib main.c -Lpre-strip -lwork -Wl,-rpath,"$src/pre-strip"
run_kind prelinked-stripped "$src/pre-strip/libwork.so" "$src/pre/libwork.so" \
	"$src/pre-strip/uselib"

[ "$fails" -eq 0 ] || die "$fails recordings have samples with another symbol than the file's"

# a debug file of another build at the build-id path is not used, and that is said
mkdir -p mism/symfs/usr/lib/debug/.build-id/"${pie_bid:0:2}"
strip_copy pie mism/prog
cp other.debug mism/symfs/usr/lib/debug/.build-id/"${pie_bid:0:2}/${pie_bid:2}".debug
mkdir -p "$tmpdir/mism/home"
HOME=$tmpdir/mism/home "$SAMPO" record -q -e cpu-clock -F 2000 -o "$tmpdir/mism/s.data" -- \
	env MAPS_OUT="$tmpdir/mism/maps" "$src/mism/prog" 3000000 >/dev/null 2>&1 ||
	die "sampo record of mism/prog failed"
HOME=$tmpdir/mism/home "$SAMPO" script -F ip,sym,dso -i "$tmpdir/mism/s.data" \
	--symfs "$src/mism/symfs" >"$tmpdir/mism/out" 2>"$tmpdir/mism/err" ||
	die "sampo script failed on the mismatched debug file"
grep -q "debug file '.*' has build-id $(bid_of other), not $pie_bid.*not used" \
		"$tmpdir/mism/err" || die "no word of the refused debug file: $(cat "$tmpdir/mism/err")"
if grep -q 'f_one\|f_two\|f_three\|f_four' "$tmpdir/mism/out"; then
	die "symbols of another build were used: $(grep -m3 'f_' "$tmpdir/mism/out")"
fi
say "unchecked samples (in no symbol of the reference): $unchecked_total"
pass

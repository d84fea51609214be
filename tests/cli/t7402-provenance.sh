#!/bin/bash
# t7402-provenance: sampo report --provenance names, for each object with samples, where its
# symbols came from (perf's build-id cache, the recorded path, --symfs, the kallsyms snapshot,
# the running kernel) or why it has none (file missing, build-id mismatch with both ids, wrong
# architecture, no build-id recorded, stripped) with the command that fixes it; where perf reads
# the same files its report is sampo's; the header's "# sampo:" line on a terminal only
. "$(dirname "$0")/lib.sh"
. "$SAMPO_SRCDIR/tests/cli/debuginfod-lib.sh"
need_perf_record
need_cmd cc python3 readelf strip

unset PERF_BUILDID_DIR
bin=$tmpdir/bin
mkdir -p "$bin" "$tmpdir/home"
cat >"$tmpdir/lib.c" <<'SRC'
__attribute__((noinline)) unsigned long spin_in_lib(unsigned long n)
{
	unsigned long x = 7;

	for (unsigned long i = 0; i < n; i++)
		x = x * 2862933555777941757UL + i;
	return x;
}
SRC
cat >"$tmpdir/prog.c" <<'SRC'
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/syscall.h>
unsigned long spin_in_lib(unsigned long n);
__attribute__((noinline)) unsigned long spin_in_prog(unsigned long n)
{
	unsigned long x = VARIANT;

	for (unsigned long i = 0; i < n; i++)
		x = x * 6364136223846793005UL ^ i;
	return x;
}
int main(int argc, char **argv)
{
	unsigned long n = strtoul(argv[1], NULL, 10);

	/* system calls: samples in the kernel too */
	for (unsigned long i = 0; i < n / 20; i++)
		syscall(SYS_getppid);
	printf("%lu\n", spin_in_prog(n) + spin_in_lib(n));
	return 0;
}
SRC
cc -O1 -fno-omit-frame-pointer -shared -fPIC -Wl,--build-id -o "$bin/libspin.so" "$tmpdir/lib.c" &&
	cc -O1 -DVARIANT=3 -fno-omit-frame-pointer -Wl,--build-id -Wl,-rpath,"$bin" -o "$bin/prog" \
		"$tmpdir/prog.c" -L"$bin" -lspin &&
	cc -O1 -DVARIANT=5 -fno-omit-frame-pointer -Wl,--build-id -Wl,-rpath,"$bin" -o "$tmpdir/prog2" \
		"$tmpdir/prog.c" -L"$bin" -lspin || die "cannot build the test programs"
prog_bid=$(build_id "$bin/prog")
prog2_bid=$(build_id "$tmpdir/prog2")
[ -n "$prog_bid" ] && [ -n "$prog2_bid" ] && [ "$prog_bid" != "$prog2_bid" ] || die "bad build-ids"
HOME=$tmpdir/home "$PERF" record -q -e cpu-clock -F 2000 -o "$tmpdir/rec.data" -- \
	"$bin/prog" 20000000 >/dev/null 2>&1 || die "perf record failed"
HOME=$tmpdir/home "$PERF" record -q -B -e cpu-clock -F 2000 -o "$tmpdir/nobid.data" -- \
	"$bin/prog" 20000000 >/dev/null 2>&1 || die "perf record -B failed"
"$SAMPO" buildid-list -i "$tmpdir/nobid.data" 2>/dev/null | grep -q '^[0-9a-f]' && die "perf record -B kept build-ids"

# prov HOME [ARGS...]: the provenance of rec.data read with this HOME
prov() {
	local home=$1
	shift
	mkdir -p "$home"
	HOME=$home "$SAMPO" report --provenance -i "$tmpdir/rec.data" "$@" >"$tmpdir/prov" 2>"$tmpdir/prov.err" ||
		die "report --provenance $* failed: $(cat "$tmpdir/prov.err")"
}
# field OBJECT KEY: the value of KEY in OBJECT's block of $tmpdir/prov
field() {
	awk -v obj="$1" -v key="$2" '
		/^[^ #]/ { inblk = ($0 == obj) }
		inblk && $1 == key { sub(/^    [a-z-]+ +/, ""); print; exit }
	' "$tmpdir/prov"
}
# expect OBJECT KEY VALUE: the field is VALUE exactly
expect() {
	local got
	got=$(field "$1" "$2")
	[ "$got" = "$3" ] || die "$1: $2 is '$got', expected '$3'; the provenance: $(cat "$tmpdir/prov")"
}
# expect_like OBJECT KEY GLOB
expect_like() {
	local got
	got=$(field "$1" "$2")
	# shellcheck disable=SC2053
	[[ $got == $3 ]] || die "$1: $2 is '$got', expected like '$3'; the provenance: $(cat "$tmpdir/prov")"
}
# same_as_perf HOME [ARGS...]: sampo's report is perf's, read with the same files
same_as_perf() {
	local home=$1
	shift
	HOME=$home "$PERF" report --stdio --sort dso,sym -i "$tmpdir/rec.data" "$@" 2>/dev/null |
		head -n -3 >"$tmpdir/perf.out"
	HOME=$home "$SAMPO" report --stdio --sort dso,sym -i "$tmpdir/rec.data" "$@" >"$tmpdir/sampo.out" 2>/dev/null
	compare_files "$tmpdir/perf.out" "$tmpdir/sampo.out"
}

# perf's own build-id cache, as perf record filled it: every object from it, the kernel from
# its kallsyms snapshot
prov "$tmpdir/home"
expect "$bin/prog" symbols "build-id cache: $tmpdir/home/.debug/.build-id/${prog_bid:0:2}/${prog_bid:2}/elf"
expect "$bin/prog" build-id "$prog_bid"
expect_like "$bin/prog" samples "* (* resolved)"
expect_like "$bin/libspin.so" symbols "build-id cache: $tmpdir/home/.debug/.build-id/*/elf"
expect_like "[kernel.kallsyms]" symbols "kallsyms snapshot: $tmpdir/home/.debug/.build-id/*/kallsyms"
grep -q '; 0 without symbols for 0 of them$' "$tmpdir/prov" ||
	die "something without symbols at home: $(cat "$tmpdir/prov")"
same_as_perf "$tmpdir/home"

# no cache: the recorded path, the running kernel
prov "$tmpdir/fresh"
expect "$bin/prog" symbols "recorded path: $bin/prog"
expect_like "[kernel.kallsyms]" symbols "running kernel's kallsyms: *proc/kallsyms"

# the files moved under a --symfs root
mkdir -p "$tmpdir/symfs$bin"
mv "$bin/prog" "$bin/libspin.so" "$tmpdir/symfs$bin/"
prov "$tmpdir/fresh2" --symfs "$tmpdir/symfs"
expect "$bin/prog" symbols "symfs: $tmpdir/symfs$bin/prog"
expect "$bin/libspin.so" symbols "symfs: $tmpdir/symfs$bin/libspin.so"

# gone: file missing, what was tried, and the commands that fix it; perf has no symbols either
prov "$tmpdir/fresh3"
expect "$bin/prog" symbols "none: file missing"
expect_like "$bin/prog" samples "* (0 resolved)"
expect "$bin/prog" tried "'$bin/prog' (not found)"
expect_like "$bin/prog" fix "*\`sampo buildid-cache -a $bin/prog\`*--symfs DIR*DEBUGINFOD_URLS=URL"
grep -q '; 2 without symbols' "$tmpdir/prov" || die "not 2 objects without symbols: $(head -3 "$tmpdir/prov")"
same_as_perf "$tmpdir/fresh3"

# another build at the path: a build-id mismatch, with both ids; perf refuses it too
cp "$tmpdir/prog2" "$bin/prog"
prov "$tmpdir/fresh4"
expect "$bin/prog" symbols "none: build-id mismatch ('$bin/prog')"
expect "$bin/prog" build-id "$prog_bid"
expect "$bin/prog" found "$prog2_bid"
expect_like "$bin/prog" fix "*--force*"
same_as_perf "$tmpdir/fresh4"

# another architecture's file at the path (its ELF machine made AArch64's)
python3 -c '
import sys
b = bytearray(open(sys.argv[1], "rb").read())
b[18:20] = (183).to_bytes(2, "little")
open(sys.argv[1], "wb").write(b)' "$bin/prog"
prov "$tmpdir/fresh5"
expect "$bin/prog" symbols "none: wrong architecture ('$bin/prog')"
expect "$bin/prog" found "$prog2_bid"

# no build-id recorded (perf record -B) and no file: nothing to look it up by
rm -f "$bin/prog"
mkdir -p "$tmpdir/fresh6"
HOME=$tmpdir/fresh6 "$SAMPO" report --provenance -i "$tmpdir/nobid.data" >"$tmpdir/prov" 2>/dev/null ||
	die "report --provenance of nobid.data failed"
expect "$bin/prog" symbols "none: no build-id recorded"
expect "$bin/prog" build-id "(none)"
expect_like "$bin/prog" fix "no build-id to look it up by*--symfs DIR*"

# stripped at its path: only its dynamic symbols, and where its debug file would come from
strip -s -o "$bin/prog" "$tmpdir/symfs$bin/prog"
cp "$tmpdir/symfs$bin/libspin.so" "$bin/"
[ "$(build_id "$bin/prog")" = "$prog_bid" ] || die "strip changed the build-id"
prov "$tmpdir/fresh7"
expect "$bin/prog" symbols "recorded path: $bin/prog"
expect_like "$bin/prog" missing "only its dynamic symbols (stripped): * samples unresolved"
expect_like "$bin/prog" fix "its debug file*DEBUGINFOD_URLS=URL"
expect "$bin/libspin.so" symbols "recorded path: $bin/libspin.so"

# -k FILE with another build-id than the kernel's: refused, both ids named
prov "$tmpdir/fresh8" -k "$tmpdir/prog2"
expect "[kernel.kallsyms]" symbols "none: build-id mismatch ('$tmpdir/prog2')"
expect "[kernel.kallsyms]" found "$prog2_bid"
expect_like "[kernel.kallsyms]" fix "*sampo buildid-cache -a VMLINUX*"

# the header: one "# sampo:" line on a terminal when objects lack symbols (the stripped prog),
# none in a pipe, none on a terminal when every object has its symbols
HOME=$tmpdir/fresh7 SAMPO_PAGER=cat python3 "$SAMPO_SRCDIR/tests/cli/pty-run.py" "$SAMPO" report --stdio \
	-i "$tmpdir/rec.data" >"$tmpdir/term" 2>&1 || die "report on a terminal failed"
grep -q '^# sampo: 1 object lacks symbols for [0-9.]*% of the samples: sampo report --provenance says why$' \
	"$tmpdir/term" || die "no summary line on the terminal: $(head -12 "$tmpdir/term")"
HOME=$tmpdir/fresh7 "$SAMPO" report --stdio -i "$tmpdir/rec.data" 2>/dev/null | grep -q '^# sampo:' &&
	die "a summary line in a pipe"
cp "$tmpdir/symfs$bin/prog" "$bin/prog"
HOME=$tmpdir/fresh9 SAMPO_PAGER=cat python3 "$SAMPO_SRCDIR/tests/cli/pty-run.py" "$SAMPO" report --stdio \
	-i "$tmpdir/rec.data" >"$tmpdir/term" 2>&1 || die "report on a terminal failed"
grep -q 'spin_in_prog' "$tmpdir/term" || die "no symbols with the files back: $(head -20 "$tmpdir/term")"
grep -q '^# sampo:' "$tmpdir/term" && die "a summary line with every symbol found: $(head -8 "$tmpdir/term")"
pass

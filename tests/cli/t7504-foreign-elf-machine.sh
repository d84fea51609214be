#!/bin/bash
# t7504-foreign-elf-machine: a DSO recorded without a build-id is never named from
# a file of the same path built for another machine (ELF machine, class, byte
# order against the recording's ARCH); and one damaged feature section (here
# BUILD_ID) is one warning naming it, the other features still read, in script
# as in report
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-wild.sh"
need_cmd python3

# an ARMv7 recording (ARCH armv7l) whose build-id table no longer parses: its DSOs
# are looked up by path, under --symfs, where an x86-64 ELF with symbols waits
arm=$(wild_file pdc__perf.data.armv7-3.4)
python3 "$SAMPO_SRCDIR/tests/cli/damage-feature.py" "$arm" "$tmpdir/arm.data" 2 7
mkdir -p "$tmpdir/symfs/lib" "$tmpdir/symfs/usr/local/chrome"
cp "$SAMPO" "$tmpdir/symfs/lib/libc-2.15.so"
cp "$SAMPO" "$tmpdir/symfs/usr/local/chrome/chrome"
sampo_wild script --symfs "$tmpdir/symfs" -i "$tmpdir/arm.data" >"$tmpdir/arm.out" 2>"$tmpdir/arm.err"
# one warning naming the damaged feature; OSRELEASE, ARCH, ... still read
[ "$(grep -c 'feature BUILD_ID' "$tmpdir/arm.err")" -eq 1 ] ||
	die "not one warning naming BUILD_ID: $(cat "$tmpdir/arm.err")"
grep -q "release 3.4.0" "$tmpdir/arm.err" || die "the OSRELEASE feature was not read: $(cat "$tmpdir/arm.err")"
n=$(grep -c '(/lib/libc-2.15.so)$' "$tmpdir/arm.out" || true)
[ "$n" -gt 50 ] || die "only $n libc samples"
bad=$(grep -E '(/lib/libc-2.15.so|/usr/local/chrome/chrome)\)$' "$tmpdir/arm.out" |
	grep -v ' \[unknown\] (' | head -3 || true)
[ -z "$bad" ] || die "ARMv7 samples named from an x86-64 file: $bad"
sampo_wild report --stdio --symfs "$tmpdir/symfs" -i "$tmpdir/arm.data" >"$tmpdir/arm.rep" 2>/dev/null
bad=$(grep -E '  (libc-2.15.so|chrome) ' "$tmpdir/arm.rep" | grep -v '\[\.\] 0x' | head -3 || true)
[ -z "$bad" ] || die "report: ARMv7 samples named from an x86-64 file: $bad"

# why, in the debug messages: the file under --symfs was refused for its machine
HOME=$tmpdir/wild-home "$SAMPO" -v -v script --symfs "$tmpdir/symfs" -i "$tmpdir/arm.data" \
	2>"$tmpdir/arm.debug" >/dev/null || die "sampo -v -v script failed"
grep -q "symfs/lib/libc-2.15.so' (x86-64 64-bit little-endian ELF, recorded on armv7l)" \
	"$tmpdir/arm.debug" || die "no debug line refusing the x86-64 libc"

# an i686 recording refuses a 64-bit x86 file as well (class)
i686=$(wild_file pdc__perf.data.i686-3.4)
python3 "$SAMPO_SRCDIR/tests/cli/damage-feature.py" "$i686" "$tmpdir/i686.data" 2 7
HOME=$tmpdir/wild-home "$SAMPO" -v -v script --symfs "$tmpdir/symfs" -i "$tmpdir/i686.data" \
	2>"$tmpdir/i686.debug" >"$tmpdir/i686.out" || die "sampo script (i686) failed"
grep -q "symfs/lib/libc-2.15.so' (x86-64 64-bit little-endian ELF, recorded on i686)" \
	"$tmpdir/i686.debug" || die "no debug line refusing the x86-64 libc for the i686 recording"
pass

#!/bin/bash
# t7510-kernel-name-buildid-table: the kernel DSO is named after the build-id
# table's kernel entry, as perf 6.1 and 6.12 name it (issue 12.7): a recording
# whose perf record found a vmlinux has "/lib/modules/R/build/vmlinux" there,
# shown "[kernel.vmlinux]" in report, by its path in script and dump; another
# file name shows its base name; "[kernel.kallsyms]" stays as it is
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-wild.sh"
mk=$SAMPO_BUILDDIR/tests/tools/mkperfdata
[ -x "$mk" ] || skip "no $mk"
cd "$tmpdir"

vml=/lib/modules/6.1.0-sampo/build/vmlinux
# check NAME SHORT LONG: every 5th sample is in the kernel, at 0xffffffff81001234
check() {
	local name=$1 short=$2 long=$3
	"$mk" --kernel-name "$name" -o k.data
	sampo_wild report --stdio --no-children -g none -i k.data >rep.out 2>/dev/null
	awk -v s="$short" '$5 == "0xffffffff81001234" && $3 == s { ok = 1 } END { exit !ok }' rep.out ||
		die "$name: the kernel row is not '$short': $(grep ffffffff rep.out)"
	sampo_wild script -i k.data >script.out 2>/dev/null
	grep -qF "ffffffff81001234 [unknown] ($long)" script.out ||
		die "$name: script does not name the kernel '$long': $(grep -m1 ffffffff81 script.out)"
	sampo_wild dump -i k.data >dump.out 2>/dev/null
	[ "$(grep -c -F " ...... dso: $long" dump.out)" -eq 4 ] ||
		die "$name: dump's kernel samples are not in '$long'"
	if [ -n "${PERF:-}" ] && [ -x "$PERF" ]; then
		perf_foreign report --stdio --no-children -g none -i k.data | head -n -3 >want
		compare_files want rep.out
		perf_foreign script -i k.data >want
		compare_files want script.out
		perf_foreign report -D -i k.data | grep ' dso: ' >want
		grep ' dso: ' dump.out >got
		compare_files want got
	fi
}
check "$vml" "[kernel.vmlinux]" "$vml"
check /boot/mykernel mykernel /boot/mykernel
check "[kernel.kallsyms]" "[kernel.kallsyms]" "[kernel.kallsyms]"

# a perf 6.6 recording of a machine whose perf record found its vmlinux
f=$(wild_file hs__perf.data.PerfFormatLost)
sampo_wild report --stdio -i "$f" >pfl.out 2>/dev/null
grep -q '  \[kernel\.vmlinux\]  ' pfl.out || die "PerfFormatLost: no [kernel.vmlinux] row"
! grep -q 'kernel\.kallsyms' pfl.out || die "PerfFormatLost: [kernel.kallsyms] still shown"
pass

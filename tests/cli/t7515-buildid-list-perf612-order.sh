#!/bin/bash
# t7515-buildid-list-perf612-order: the build-id list of a file of perf 6.3 or
# later, which perf 6.1 refuses, comes in perf 6.12's order (its DSOs sorted by
# long name: "/..." paths, then "[kernel.kallsyms]", then "[vdso]"), that of an
# older file in the file's own order, as perf 6.1 lists it (issue 12.4)
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-wild.sh"
need_perf
cd "$tmpdir"

for name in hs__perf.data.PerfFormatLost lpd__sleep.data; do # perf 6.6, file mode
	f=$(wild_file "$name")
	sampo_wild buildid-list -i "$f" >"$name.out" 2>/dev/null
	[ "$(wc -l <"$name.out")" -ge 3 ] || die "$name: $(cat "$name.out")"
	awk '{ print $NF }' "$name.out" >names
	LC_ALL=C sort -c names 2>/dev/null || die "$name: not sorted by name: $(tr '\n' ' ' <names)"
done
grep -qx '6b23fae6fd7ebcaf64c95a204f54159334eade79 \[vdso\]' lpd__sleep.data.out ||
	die "lpd__sleep.data: no [vdso] line"
[ "$(tail -1 lpd__sleep.data.out | awk '{ print $2 }')" = "[vdso]" ] || die "[vdso] is not last"

# an older file (perf 4.14): the table's order, as perf 6.1 prints it
o=$(wild_file pdc__perf.data.ctx_switch_namespaces-4.14)
sampo_wild buildid-list -i "$o" >old.out 2>/dev/null
perf_foreign buildid-list -i "$o" >old.want
compare_files old.want old.out

perf612=$("$SAMPO_SRCDIR/scripts/get-perf612.sh" "$SAMPO_BUILDDIR/perf-6.12" 2>get.err) ||
	die "cannot get perf 6.12 (scripts/get-perf612.sh): $(tail -3 get.err)"
for name in hs__perf.data.PerfFormatLost lpd__sleep.data; do
	# shellcheck disable=SC2086 # perf612 is a command with its environment
	HOME=$tmpdir/wild-home $perf612 buildid-list -f -i "$(wild_file "$name")" >"$name.want" 2>/dev/null ||
		die "perf 6.12 buildid-list failed on $name"
	compare_files "$name.want" "$name.out"
done
pass

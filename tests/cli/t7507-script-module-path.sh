#!/bin/bash
# t7507-script-module-path: script names a module's samples by the path of its
# build-id table entry, as perf does (its DSO was made from the table), and by
# "[name]" when the table has none
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-wild.sh"

f=$(wild_file pdc__perf.data.throttle-3.8)
ko=/lib/modules/3.8.11/kernel/drivers/staging/iio/light/isl29018.ko
sampo_wild buildid-list -i "$f" 2>/dev/null | grep -q " $ko\$" || die "no build-id entry for $ko"
sampo_wild script -i "$f" >"$tmpdir/out" 2>/dev/null
[ "$(grep -c "ffffffffc01e6[0-9a-f]* \[unknown\] ($ko)\$" "$tmpdir/out")" -eq 2 ] ||
	die "isl29018's two samples are not named by its path: $(grep isl29018 "$tmpdir/out")"
grep -q '(\[isl29018\])$' "$tmpdir/out" && die "a sample of isl29018 named [isl29018]"

# without a build-id table (a perf 3.8 pipe) a module keeps its "[name]"
g=$(wild_file pdc__perf.data.piped.target-3.8)
sampo_wild script -i "$g" >"$tmpdir/g" 2>/dev/null
grep -q ' (\[ath9k_common\])$' "$tmpdir/g" || die "no [ath9k_common] sample"
if [ -n "${PERF:-}" ] && [ -x "$PERF" ]; then
	perf_foreign script -i "$g" >"$tmpdir/want"
	compare_files "$tmpdir/want" "$tmpdir/g"
fi
pass

#!/bin/bash
# t7508-script-perf612-files: files of perf 6.3 and later, which perf 6.1 refuses,
# are printed as perf 6.12 prints them (pid and tid 7 wide); their pipes, which
# perf 6.1 reads, as perf 6.1 does (5 wide)
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-wild.sh"
need_perf

f=$(wild_file pp__cpp-inlining.perf.data) # perf 6.6, file mode
sampo_wild script -i "$f" >"$tmpdir/out" 2>/dev/null
head -1 "$tmpdir/out" | grep -q '^cpp-inlining   22091 \[006\] 11852.206213: ' ||
	die "not perf 6.12's 7-wide tid: $(head -1 "$tmpdir/out")"
p=$(wild_file lpd__sleep.compressed.pipe.data) # perf 6.5, pipe mode
sampo_wild script -i "$p" >"$tmpdir/pipe" 2>/dev/null
head -1 "$tmpdir/pipe" | grep -q '^ *perf-exec  1964   405.307462: ' || die "pipe: not 5 wide: $(head -1 "$tmpdir/pipe")"
perf_foreign script -i "$p" >"$tmpdir/pipe.want"
compare_files "$tmpdir/pipe.want" "$tmpdir/pipe"

perf612=$("$SAMPO_SRCDIR/scripts/get-perf612.sh" "$SAMPO_BUILDDIR/perf-6.12" 2>"$tmpdir/get.err") ||
	die "cannot get perf 6.12 (scripts/get-perf612.sh): $(tail -3 "$tmpdir/get.err")"
PERF=$perf612
# shellcheck disable=SC2086 # perf612 is a command with its environment
HOME=$tmpdir/wild-home $perf612 script -f --kallsyms /dev/null --symfs "$tmpdir" -i "$f" \
	>"$tmpdir/want" 2>/dev/null || die "perf 6.12 script failed"
compare_files "$tmpdir/want" "$tmpdir/out"
pass

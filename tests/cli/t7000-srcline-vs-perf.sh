#!/bin/bash
# t7000-srcline-vs-perf: report --sort srcline / srcfile and script -F ...,srcline print what perf 6.1 (run here) prints on the fixtures: the DWARF lines of burn (perf finds it in the build-id cache that `perf archive` made), perf's stand-ins where there is no line ("sym+OFFSET" in report, "dso[ADDR]" in script), its column widths (counted only for the rows whose line perf had computed when it measured them) and its row order; script's --full-source-path prints the whole path
. "$(dirname "$0")/lib.sh"
need_perf
need_cmd tar bzip2

dir=$(fixtures_dir)
export HOME=$tmpdir/home
mkdir -p "$HOME/.debug"
tar xjf "$dir/b-callchain-fp/perf.data.tar.bz2" -C "$HOME/.debug"
unset PERF_BUILDID_DIR

fails=0
checked=0
# perf's tips and blank lines differ from run to run: compare the rest
strip() { grep -v -e '^# (Tip' -e '^$' -e '^#$'; }

check_report() {
	local f=$1
	shift
	"$PERF" report -f --stdio -i "$f" "$@" 2>/dev/null | strip >"$tmpdir/want"
	"$SAMPO" report --stdio -i "$f" "$@" 2>"$tmpdir/err" | strip >"$tmpdir/out" ||
		die "sampo report -i $f $* failed: $(cat "$tmpdir/err")"
	[ -s "$tmpdir/want" ] || die "perf report -i $f $* printed nothing"
	checked=$((checked + 1))
	cmp -s "$tmpdir/want" "$tmpdir/out" && return
	say "$f $*: sampo differs from perf"
	diff -u "$tmpdir/want" "$tmpdir/out" | head -20 >&2
	fails=$((fails + 1))
}

for f in a-syswide-cpuclock b-callchain-fp c-multi-event f-buildid-mmap g-switch-namespaces-task \
	h-switch-ns-cgroup-syswide; do
	for opts in "--sort srcline --no-children" "--sort srcline" "--sort srcfile,srcline -g none" \
		"--sort dso,srcline,sym -g none --no-children" "--sort srcfile --no-children -g none" \
		"--sort srcfile,comm" "--sort sym,srcline -n" "--sort comm,srcline,srcfile" \
		"--sort srcline,sym --percent-limit 1"; do
		# shellcheck disable=SC2086 # the options are words
		check_report "$dir/$f/perf.data" $opts
	done
done

# script: the line after each address, in the chains too. libc's lines are
# left out: with libc6-dbg installed perf's addr2line (binutils 2.40) names
# another file of the same line than the DWARF line table does (see
# docs/report-differences.md)
libc_lines() { grep -Ev '^  (.*/)?(libc-start\.c|libc_start_call_main\.h):[0-9]+$'; }
check_script() {
	local f=$1
	shift
	"$PERF" script -f -i "$f" "$@" 2>/dev/null | libc_lines >"$tmpdir/want"
	"$SAMPO" script -i "$f" "$@" 2>"$tmpdir/err" | libc_lines >"$tmpdir/out" ||
		die "sampo script -i $f $* failed: $(cat "$tmpdir/err")"
	checked=$((checked + 1))
	cmp -s "$tmpdir/want" "$tmpdir/out" && return
	say "$f script $*: sampo differs from perf"
	diff -u "$tmpdir/want" "$tmpdir/out" | head -20 >&2
	fails=$((fails + 1))
}
for opts in "-F comm,tid,ip,sym,srcline" "-F ip,sym,srcline -G" "-F ip,srcline,dso" \
	"-F comm,ip,sym,symoff,dso,srcline" "-F ip,sym,srcline --full-source-path" \
	"-F comm,tid,ip,sym,dso,srcline -G --full-source-path"; do
	# shellcheck disable=SC2086
	check_script "$dir/b-callchain-fp/perf.data" $opts
done
for f in a-syswide-cpuclock c-multi-event; do
	check_script "$dir/$f/perf.data" -F comm,ip,sym,srcline
done

# what a user checks: burn's hottest line is the loop of burn_leaf_alpha (burn.c:12)
"$SAMPO" report --stdio --no-children --sort srcline -g none -i "$dir/b-callchain-fp/perf.data" >"$tmpdir/r"
grep -Eq '^ +56\.98%  burn\.c:12$' "$tmpdir/r" || die "no burn.c:12 row at 56.98%: $(head -20 "$tmpdir/r")"
"$SAMPO" script -F ip,sym,srcline -G -i "$dir/b-callchain-fp/perf.data" >"$tmpdir/s0"
head -2 "$tmpdir/s0" >"$tmpdir/s"
printf '     561531602169 burn_leaf_alpha\n  burn.c:12\n' | cmp -s - "$tmpdir/s" ||
	die "script's first sample is not burn_leaf_alpha at burn.c:12: $(cat "$tmpdir/s")"

# --full-source-path: the path the DWARF names (the test program was built in /tmp/pfx)
"$SAMPO" script -F ip,sym,srcline -G --full-source-path -i "$dir/b-callchain-fp/perf.data" |
	head -2 >"$tmpdir/s"
printf '     561531602169 burn_leaf_alpha\n  /tmp/pfx/burn.c:12\n' | cmp -s - "$tmpdir/s" ||
	die "--full-source-path: not /tmp/pfx/burn.c:12: $(cat "$tmpdir/s")"

# srcline needs the address
expect_status 129 script -i "$dir/b-callchain-fp/perf.data" -F comm,srcline
grep -q "srcline" "$tmpdir/stderr" || die "no clear message for -F comm,srcline: $(cat "$tmpdir/stderr")"

[ "$fails" = 0 ] || die "$fails of $checked comparisons differ from perf"
pass "$checked comparisons equal to perf 6.1's"

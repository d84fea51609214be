#!/bin/bash
# t7001-inline-record: a program built here with -O2 -g whose hot loop is two always_inline functions deep, recorded with callchains: report --inline and script --inline show the inlined functions as frames of their own ("name (inlined)", innermost first, before the function they were inlined into, at its address), perf 6.1's output without --inline stays byte for byte; report --sort srcline names the inlined loop's own line; sampo flamegraph draws the inlined functions on top of their caller in a colour of their own in Chromium, and not with --no-inline
. "$(dirname "$0")/lib.sh"
need_perf_record
need_browser
need_cmd cc

export HOME=$tmpdir # a fresh build-id cache, filled by perf record
unset PERF_BUILDID_DIR

cat >"$tmpdir/inl.c" <<'PROG'
#include <stdlib.h>

static volatile unsigned long sink;

static inline __attribute__((always_inline)) unsigned long mix_inner(unsigned long x)
{
	for (int i = 0; i < 1000; i++)
		x = x * 6364136223846793005UL + 1442695040888963407UL; /* line 8 */
	return x;
}

static inline __attribute__((always_inline)) unsigned long mix_outer(unsigned long x)
{
	return mix_inner(x) ^ (x >> 3); /* line 14 */
}

__attribute__((noinline)) unsigned long work(unsigned long n)
{
	unsigned long acc = 0;

	for (unsigned long r = 0; r < n; r++)
		acc += mix_outer(r); /* line 22 */
	return acc;
}

int main(int argc, char **argv)
{
	sink = work(strtoul(argv[1], NULL, 10));
	return 0;
}
PROG
cc -O2 -g -fno-omit-frame-pointer -o "$tmpdir/inl" "$tmpdir/inl.c" || die "cannot build the workload"
"$PERF" record -q -g -e cpu-clock -F 1000 -o "$tmpdir/rec.data" -- "$tmpdir/inl" 300000 \
	>/dev/null 2>&1 || die "perf record failed"
data=$tmpdir/rec.data

# without --inline: perf 6.1's report and script, byte for byte (perf 6.1 shows
# no inlined frame here, even with --inline: see docs/report-differences.md)
strip() { grep -v -e '^# (Tip' -e '^$' -e '^#$'; }
for opts in "" "--no-children" "--no-inline"; do
	# shellcheck disable=SC2086
	"$PERF" report -f --stdio -i "$data" $opts 2>/dev/null | strip >"$tmpdir/want"
	# shellcheck disable=SC2086
	"$SAMPO" report --stdio -i "$data" $opts 2>/dev/null | strip >"$tmpdir/out"
	compare_files "$tmpdir/want" "$tmpdir/out"
done
"$PERF" script -f -i "$data" 2>/dev/null >"$tmpdir/want"
"$SAMPO" script -i "$data" >"$tmpdir/out" 2>/dev/null
compare_files "$tmpdir/want" "$tmpdir/out"

# report --inline: the hot row's graph starts with the inlined chain, innermost first
run_sampo report --stdio --no-children --inline -i "$data" >"$tmpdir/r" 2>/dev/null
# (its first branch: a sample on work's own loop, outside the inlined code,
# makes a second, smaller one, and the first one's lines then start with '|'
# and its share: "|--99.50%--mix_inner (inlined)", "|          mix_outer ...")
grep -A4 -E '^ +[0-9.]+%  inl +inl +\[\.\] work$' "$tmpdir/r" | tail -3 |
	sed -E 's/^ *[|]? *(---|--[0-9.]+%--)?//' >"$tmpdir/chain"
printf 'mix_inner (inlined)\nmix_outer (inlined)\nwork\n' >"$tmpdir/chain.want"
compare_files "$tmpdir/chain.want" "$tmpdir/chain"
# children mode: the inlined functions get rows of their own
run_sampo report --stdio --inline -g none -i "$data" >"$tmpdir/rc" 2>/dev/null
grep -Eq '^ +[0-9.]+% +0\.00%  inl +inl +\[\.\] mix_inner \(inlined\)$' "$tmpdir/rc" ||
	die "no children row for mix_inner (inlined): $(head -20 "$tmpdir/rc")"
# caller order: the function first, then what was inlined into it
run_sampo report --stdio --no-children --inline -G -i "$data" >"$tmpdir/rg" 2>/dev/null
# (the hottest branch first; one line of only '|' stands before it when a
# sample on work's own loop makes a second branch)
grep -A4 -E '^ +work$' "$tmpdir/rg" | grep -v -E '^ *\| *$' | head -3 |
	sed -E 's/^ *[|]? *(---|--[0-9.]+%--)?//' >"$tmpdir/g"
printf 'work\nmix_outer (inlined)\nmix_inner (inlined)\n' >"$tmpdir/g.want"
compare_files "$tmpdir/g.want" "$tmpdir/g"

# script --inline: the entries before work's, at its address, without an object
run_sampo script -F ip,sym,dso --inline -i "$data" >"$tmpdir/s" 2>/dev/null
ip=$(grep -m1 -E ' work \(' "$tmpdir/s" | awk '{ print $1 }')
[ -n "$ip" ] || die "script prints no work frame: $(head "$tmpdir/s")"
grep -m1 -B2 -E "^\s+$ip work \(" "$tmpdir/s" | sed 's/^\s*//' >"$tmpdir/se"
printf '%s mix_inner (inlined)\n%s mix_outer (inlined)\n%s work (%s)\n' "$ip" "$ip" "$ip" "$tmpdir/inl" >"$tmpdir/se.want"
compare_files "$tmpdir/se.want" "$tmpdir/se"

# the line of the inlined loop is the loop's own (line 8), not work's
run_sampo report --stdio --no-children --sort srcline -g none -i "$data" >"$tmpdir/sl" 2>/dev/null
# (the first row is the hottest; it may hold every sample: 100.00%)
grep -m1 -E '^ +[0-9]{1,3}\.[0-9]{2}%  ' "$tmpdir/sl" | grep -Eq '%  inl\.c:8$' ||
	die "the hottest line is not inl.c:8: $(head -15 "$tmpdir/sl")"

# the flame graph: inlined frames on top of their caller, in their own colour
run_sampo flamegraph -i "$data" -o "$tmpdir/fg.html" 2>/dev/null
run_browser flamegraph-inline.js "$tmpdir/fg.html" work mix_outer mix_inner
run_sampo flamegraph --no-inline -i "$data" -o "$tmpdir/fg0.html" 2>/dev/null
run_browser flamegraph-inline.js "$tmpdir/fg0.html" work mix_outer mix_inner --none
pass "inlined frames in report, script and the flame graph"

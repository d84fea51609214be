#!/bin/bash
# t6601-diff-recorded-change: two recordings of one program, the second with one
# function's loop count doubled; sampo diff prints perf diff's table for them and the
# doubled function comes first, with a ratio near 2 and a positive delta
. "$(dirname "$0")/lib.sh"
need_perf_record
need_cmd cc

cat >"$tmpdir/work.c" <<'C'
#include <stdlib.h>

static volatile unsigned long sink;

/* the function whose work the test doubles */
__attribute__((noinline)) unsigned long grows(unsigned long n)
{
	unsigned long x = n;
	for (unsigned long i = 0; i < n; i++)
		x = x * 6364136223846793005UL + 1442695040888963407UL;
	return x;
}

/* the one that keeps its work */
__attribute__((noinline)) unsigned long stays(unsigned long n)
{
	unsigned long x = n;
	for (unsigned long i = 0; i < n; i++)
		x ^= (x << 13) ^ (x >> 7) ^ (x << 17) ^ i;
	return x;
}

int main(int argc, char **argv)
{
	unsigned long base = 60000000UL, factor = argc > 1 ? strtoul(argv[1], NULL, 0) : 1;

	sink = grows(base * factor) + stays(base);
	return 0;
}
C
cc -O1 -g -fno-omit-frame-pointer -fno-inline -o "$tmpdir/work" "$tmpdir/work.c"
"$PERF" record -q -e cpu-clock -F 1000 -o "$tmpdir/old.data" -- "$tmpdir/work" 1 >/dev/null 2>&1 ||
	skip "perf cannot record here"
"$PERF" record -q -e cpu-clock -F 1000 -o "$tmpdir/new.data" -- "$tmpdir/work" 2 >/dev/null 2>&1

fails=0
for opts in "" "-c delta" "-c ratio" "-c wdiff:2,1" "-p -F" "-c ratio -F -p" "-b" "-q" "-t ;" \
	"-s sym" "-s comm,sym" "-S grows" "-d work"; do
	# shellcheck disable=SC2086 # word splitting of the options is wanted
	"$PERF" diff $opts "$tmpdir/old.data" "$tmpdir/new.data" >"$tmpdir/want" 2>/dev/null
	# shellcheck disable=SC2086
	run_sampo diff $opts "$tmpdir/old.data" "$tmpdir/new.data" >"$tmpdir/out" 2>/dev/null
	if ! cmp -s "$tmpdir/want" "$tmpdir/out"; then
		echo "# diff $opts: sampo differs from perf" >&2
		diff -u "$tmpdir/want" "$tmpdir/out" | head -20 >&2
		fails=$((fails + 1))
	fi
done
[ "$fails" -eq 0 ] || die "$fails tables differ from perf diff's"

# from first principles: grows did twice the work, stays the same (-d work: one
# value, so perf hides the object column). Its share went
# from about a half to about two thirds, its period about doubled.
run_sampo diff -c ratio -q -t ';' -d work "$tmpdir/old.data" "$tmpdir/new.data" >"$tmpdir/ratio"
ratio() { awk -F';' -v s="[.] $1" '$3 == s { print $2 + 0 }' "$tmpdir/ratio"; }
r_grows=$(ratio grows)
r_stays=$(ratio stays)
[ -n "$r_grows" ] && [ -n "$r_stays" ] || die "no ratio for grows or stays: $(cat "$tmpdir/ratio")"
awk -v g="$r_grows" -v s="$r_stays" 'BEGIN { exit !(g > 1.4 && g < 2.8 && s > 0.6 && s < 1.5) }' ||
	die "ratios grows $r_grows, stays $r_stays: expected about 2 and 1"
run_sampo diff -c delta -q "$tmpdir/old.data" "$tmpdir/new.data" >"$tmpdir/delta"
head -1 "$tmpdir/delta" | grep -q '+.*grows$' ||
	die "grows is not first with a positive delta: $(cat "$tmpdir/delta")"
pass

#!/bin/bash
# t3004-script-same-address: one address, two programs: script names each sample's own function (the frame cache keeps an address's text per process and per generation of its maps: an exec must not reuse what the old program's address said)
. "$(dirname "$0")/lib.sh"

need_perf_record
need_cmd gcc
export HOME=$tmpdir/home
unset PERF_BUILDID_DIR
mkdir -p "$HOME"

# The same code built twice, -no-pie, with the hot function named alpha_spin in
# one program and beta_spin in the other: the loop sits at the same address in
# both. alpha burns, then execs beta in the same process (same pid and tid, new
# maps), which burns too; both run as callees of main (-g: chains).
cat >"$tmpdir/spin.c" <<'C'
#include <stdio.h>
#include <time.h>
#include <unistd.h>
volatile unsigned long sink;
__attribute__((noinline)) void SPIN(double seconds)
{
	struct timespec t0, t;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t0);
	do {
		for (int i = 0; i < 100000; i++)
			sink += (unsigned long)i * 7;
		clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
	} while ((t.tv_sec - t0.tv_sec) + (t.tv_nsec - t0.tv_nsec) / 1e9 < seconds);
}
int main(int argc, char **argv)
{
	SPIN(0.3);
	if (argc > 1)
		execl(argv[1], argv[1], (char *)NULL);
	printf("%lu\n", sink);
	return 0;
}
C
for f in alpha beta; do
	gcc -O1 -g -fno-omit-frame-pointer -no-pie -DSPIN=${f}_spin -o "$tmpdir/$f" "$tmpdir/spin.c" ||
		die "cannot build $f"
done
a=$(nm "$tmpdir/alpha" | awk '$3 == "alpha_spin" { print $1 }')
b=$(nm "$tmpdir/beta" | awk '$3 == "beta_spin" { print $1 }')
[ -n "$a" ] && [ "$a" = "$b" ] || die "alpha_spin ($a) and beta_spin ($b) are not at one address"

env -u MALLOC_PERTURB_ "$PERF" record -q -e cpu-clock -F 2000 -g -o "$tmpdir/x.data" -- \
	"$tmpdir/alpha" "$tmpdir/beta" >/dev/null 2>"$tmpdir/record.err" ||
	die "perf record failed: $(head -n 3 "$tmpdir/record.err")"

for fields in "comm,pid,tid,ip,sym,dso" "comm,tid,ip,sym"; do
	for g in "" "-G"; do
		# shellcheck disable=SC2086
		env -u MALLOC_PERTURB_ "$PERF" script -i "$tmpdir/x.data" -F $fields $g \
			>"$tmpdir/perf.txt" 2>/dev/null || die "perf script failed"
		# shellcheck disable=SC2086
		run_sampo script -i "$tmpdir/x.data" -F $fields $g >"$tmpdir/sampo.txt"
		# a chain that runs through a PLT stub: perf 6.1 may call it _init, sampo
		# NAME@plt (docs/report-differences.md)
		cmp -s "$tmpdir/perf.txt" "$tmpdir/sampo.txt" ||
			python3 "$SAMPO_SRCDIR/tests/cli/plt-canon.py" script "$tmpdir/perf.txt" \
				"$tmpdir/sampo.txt" >/dev/null ||
			compare_files "$tmpdir/perf.txt" "$tmpdir/sampo.txt"
	done
done

# from first principles: every sample of the process while it was alpha that
# names a *_spin function names alpha_spin, and beta's beta_spin; both happened
run_sampo script -i "$tmpdir/x.data" -F comm,ip,sym -G >"$tmpdir/self.txt"
awk '$3 ~ /^(alpha|beta)_spin$/ { n[$1 " " $3]++ } END { for (k in n) print k, n[k] }' "$tmpdir/self.txt" |
	sort >"$tmpdir/pairs.txt"
grep -q '^alpha alpha_spin ' "$tmpdir/pairs.txt" || die "no alpha_spin sample in alpha: $(cat "$tmpdir/pairs.txt")"
grep -q '^beta beta_spin ' "$tmpdir/pairs.txt" || die "no beta_spin sample in beta: $(cat "$tmpdir/pairs.txt")"
if grep -v -e '^alpha alpha_spin ' -e '^beta beta_spin ' "$tmpdir/pairs.txt" | grep -q .; then
	die "a sample named another program's function: $(cat "$tmpdir/pairs.txt")"
fi
pass

#!/bin/bash
# t6101-pprof-record: sampo pprof on a recording made here and now (a program whose hot loop is
# inlined, with callchains): Go's pprof reads perf report's totals and symbols (--no-inline),
# the inlined function as a line of its own above its caller, the labels asked for
. "$(dirname "$0")/lib.sh"
need_perf_record
need_cmd go python3 cc

export HOME=$tmpdir GOCACHE=$tmpdir/gocache # a fresh build-id cache, filled by perf record
unset PERF_BUILDID_DIR
check=$SAMPO_SRCDIR/tests/cli/pprof-check.py
gopprof() { go tool pprof -symbolize=none "$@"; }

cat >"$tmpdir/inl.c" <<'PROG'
#include <stdlib.h>

static volatile unsigned long sink;

static inline __attribute__((always_inline)) unsigned long mix_inlined(unsigned long x)
{
	for (int i = 0; i < 64; i++)
		x = x * 6364136223846793005UL + 1442695040888963407UL; /* line 8 */
	return x;
}

__attribute__((noinline)) unsigned long spin_outer(unsigned long n)
{
	unsigned long x = n;

	for (unsigned long i = 0; i < n; i++)
		x = mix_inlined(x + i); /* line 17 */
	return x;
}

int main(int argc, char **argv)
{
	sink = spin_outer(strtoul(argv[1], NULL, 10));
	return 0;
}
PROG
cc -O2 -g -fno-omit-frame-pointer -o "$tmpdir/inl" "$tmpdir/inl.c" || die "cannot build the workload"
"$PERF" record -q -g -e cpu-clock -F 2000 -o "$tmpdir/rec.data" -- "$tmpdir/inl" 3000000 \
	>/dev/null 2>&1 || die "perf record failed"
"$PERF" report --stdio --no-children -i "$tmpdir/rec.data" >"$tmpdir/report" 2>/dev/null ||
	die "perf report failed"

# perf report's view: the inlined loop is spin_outer's
run_sampo pprof --no-inline -i "$tmpdir/rec.data" -o "$tmpdir/flat.pb.gz"
python3 "$check" "$tmpdir/flat.pb.gz" "$tmpdir/report" >"$tmpdir/check" 2>&1 ||
	die "go tool pprof differs from perf report: $(cat "$tmpdir/check")"
gopprof -top "$tmpdir/flat.pb.gz" >"$tmpdir/top"
grep -Eq '^ +[0-9]+ +[0-9.]+% +[0-9.]+% +[0-9]+ +[0-9.]+% +spin_outer$' "$tmpdir/top" ||
	die "spin_outer is not in the top: $(cat "$tmpdir/top")"

# the default: DWARF's view, the loop's line in mix_inlined, inlined at line 17 of spin_outer
run_sampo pprof -i "$tmpdir/rec.data" -o "$tmpdir/inl.pb.gz"
gopprof -raw "$tmpdir/inl.pb.gz" >"$tmpdir/raw"
grep -A1 -E '^ +[0-9]+: 0x[0-9a-f]+ M=[0-9]+ mix_inlined .*/inl\.c:8 s=5$' "$tmpdir/raw" |
	grep -Eq '^ +spin_outer .*/inl\.c:17 s=12$' ||
	die "no location with mix_inlined (inl.c:8) inlined into spin_outer (inl.c:17): $(cat "$tmpdir/raw")"
gopprof -top "$tmpdir/inl.pb.gz" >"$tmpdir/top"
total=$(sed -n 's/.* of \([0-9]*\) total.*/\1/p' "$tmpdir/top")
want=$(sed -n 's/^# Event count (approx.): //p' "$tmpdir/report")
[ "$total" = "$want" ] || die "total $total, perf report's $want"
# the workload's mapping carries its build-id, as perf buildid-list reads it
bid=$("$PERF" buildid-list -i "$tmpdir/rec.data" 2>/dev/null | awk -v f="$tmpdir/inl" '$2 == f { print $1 }')
[ -n "$bid" ] || die "perf buildid-list has no build-id for the workload"
grep -q " $tmpdir/inl $bid " "$tmpdir/raw" || die "no mapping of inl with build-id $bid"

# labels: every key perf_data_converter names, the same total under each
run_sampo pprof --labels all -i "$tmpdir/rec.data" -o "$tmpdir/labels.pb.gz"
gopprof -tags "$tmpdir/labels.pb.gz" >"$tmpdir/tags"
for key in pid tid comm thread_comm timestamp_ns execution_mode; do
	grep -q "^ *$key: Total $want.0$" "$tmpdir/tags" || die "no label $key: $(cat "$tmpdir/tags")"
done
grep -q "(  100%): inl$" "$tmpdir/tags" || die "comm is not inl: $(cat "$tmpdir/tags")"
grep -q ": Host User$" "$tmpdir/tags" || die "no user execution mode: $(cat "$tmpdir/tags")"
pid=$(awk '/^ *pid:/ { getline; print $NF }' "$tmpdir/tags")
"$SAMPO" script -F pid -i "$tmpdir/rec.data" | sort -u | grep -Eqx " *$pid *" ||
	die "pid label $pid is not the samples' pid"
pass

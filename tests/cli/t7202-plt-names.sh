#!/bin/bash
# t7202-plt-names: a sample in a PLT stub is NAME@plt (perf 6.3's naming) at the address objdump
# labels NAME@plt, for the classic .plt, IBT's .plt.sec and .plt.got (a function whose address is
# also taken); against perf record's files,
# report and script equal perf's, or differ from perf 6.1's only where perf gives the stub to
# _init or leaves it unresolved (IBT's .plt.sec), which plt-canon.py, the normaliser of t2002 and t3001, forgives
. "$(dirname "$0")/lib.sh"
need_cmd gcc objdump nm python3
"$SAMPO" record -q -e cpu-clock -o "$tmpdir/probe.data" -- true >/dev/null 2>&1 ||
	skip "sampo cannot record here"
unset PERF_BUILDID_DIR
export HOME=$tmpdir/home
mkdir -p "$HOME"
cd "$tmpdir"
check=$SAMPO_SRCDIR/tests/cli/sym-check.py

# labs() through the PLT in a loop; the program's maps for sym-check.py
cat >pl.c <<'EOF'
#include <stdio.h>
#include <stdlib.h>
int main(void)
{
	volatile long s = 0;
	char buf[4096];
	size_t len;
	FILE *in, *o;

	for (long i = 0; i < 40000000; i++)
		s += labs(i);
	if (!(in = fopen("/proc/self/maps", "r")) || !(o = fopen(getenv("MAPS_OUT"), "w")))
		return 1;
	while ((len = fread(buf, 1, sizeof(buf), in)) > 0)
		fwrite(buf, 1, len, o);
	fclose(in);
#ifdef TAKE_ADDRESS
	printf("%p\n", (void *)labs); /* labs's GOT slot filled at load: its stub is in .plt.got */
#endif
	return fclose(o) ? 1 : 0;
}
EOF
gcc -O1 -fno-builtin -o pl pl.c || skip "gcc cannot build the test program"
gcc -O1 -fno-builtin -DTAKE_ADDRESS -o pl-got pl.c || die "gcc cannot build pl-got"
for p in pl pl-got; do
	gcc -O1 -fno-builtin -fcf-protection=full -Wl,-z,ibtplt -o $p-ibt pl.c \
		$([ $p = pl-got ] && echo -DTAKE_ADDRESS) 2>/dev/null || {
		say "no IBT PLT here (gcc/ld without -z ibtplt)"
		rm -f $p-ibt
	}
	[ ! -e $p-ibt ] || readelf -SW $p-ibt | grep '\.plt\.sec' >/dev/null || die "$p-ibt has no .plt.sec"
done
# stub_section PROG: the section of PROG's labs@plt stub
stub_section() {
	local at
	at=$(objdump -d "$1" | sed -n 's/^0*\([0-9a-f]*\) <labs@plt>:$/\1/p')
	[ -n "$at" ] || die "$1 calls labs through no PLT stub"
	readelf -SW "$1" | python3 -c '
import re, sys
at = int(sys.argv[1], 16)
for line in sys.stdin:
    m = re.search(r"\]\s+(\S+)\s+\S+\s+([0-9a-f]+)\s+[0-9a-f]+\s+([0-9a-f]+)", line)
    if m and int(m.group(2), 16) <= at < int(m.group(2), 16) + int(m.group(3), 16):
        print(m.group(1))' "$at"
}
[ "$(stub_section pl)" = .plt ] || die "pl's stub is in $(stub_section pl), not .plt"
[ "$(stub_section pl-got)" = .plt.got ] || die "pl-got's stub is in $(stub_section pl-got), not .plt.got"
[ ! -e pl-ibt ] || [ "$(stub_section pl-ibt)" = .plt.sec ] || die "pl-ibt's stub is not in .plt.sec"

canon=$SAMPO_SRCDIR/tests/cli/plt-canon.py
stub_not_named=0
for p in pl pl-ibt pl-got pl-got-ibt; do
	[ -e $p ] || continue
	"$SAMPO" record -q -e cpu-clock -F 2000 -o $p.s.data -- env MAPS_OUT=$p.s.maps ./$p \
		>/dev/null 2>&1 || die "sampo record ./$p failed"
	run_sampo script -F ip,sym,dso -i $p.s.data >$p.s.script
	out=$(python3 "$check" $p.s.maps $p.s.script "$tmpdir/$p=$tmpdir/$p") ||
		die "$p: samples with another symbol than objdump's: $out"
	n=$(grep -c 'labs@plt' $p.s.script || true)
	[ "$n" -gt 0 ] || die "$p: no sample named labs@plt"
	say "$p: $out, $n in labs@plt"

	[ -n "${PERF:-}" ] || continue
	"$PERF" record -q -e cpu-clock -F 2000 -o $p.p.data -- env MAPS_OUT=$p.p.maps ./$p \
		>/dev/null 2>&1 || die "perf record ./$p failed"
	"$PERF" report --stdio -i $p.p.data 2>/dev/null | head -n -3 >$p.perf.report
	"$PERF" script -F ip,sym,symoff,dso -i $p.p.data >$p.perf.script 2>/dev/null
	run_sampo report --stdio -i $p.p.data >$p.sampo.report
	run_sampo script -F ip,sym,symoff,dso -i $p.p.data >$p.sampo.script
	if cmp -s $p.perf.report $p.sampo.report; then
		compare_files $p.perf.script $p.sampo.script
		say "$p: perf names the stub as sampo does"
		continue
	fi
	# perf 6.1 gave the stub to _init or left it unresolved: the only
	# difference, which the normaliser of the live comparisons (t2002, t3001) forgives
	grep -q '\] \(_init\|0x0*10[0-9a-f]*\) *$' $p.perf.report || die "$p: report differs from perf's: $(diff $p.perf.report $p.sampo.report | head -5)"
	stub_not_named=$((stub_not_named + 1))
	out=$(python3 "$canon" report $p.perf.report $p.sampo.report) ||
		die "$p: plt-canon.py sees another difference: $out"
	out=$(python3 "$canon" script $p.perf.script $p.sampo.script) ||
		die "$p: plt-canon.py sees another difference in script: $out"
	# and it forgives nothing else: a row of another weight, a stub row of another comm
	sed '0,/ main *$/s/^\( *\)[0-9]*\.[0-9]*%/\199.99%/' $p.sampo.report >$p.bad1.report
	sed "s/^\(.*\) $p \(.*labs@plt\)/\1 xx \2/" $p.sampo.report >$p.bad2.report
	for bad in bad1 bad2; do
		cmp -s $p.sampo.report $p.$bad.report && die "$p: the $bad edit changed nothing"
		python3 "$canon" report $p.perf.report $p.$bad.report >/dev/null &&
			die "$p: plt-canon.py forgives $bad"
	done
	sed 's/labs@plt+0x[0-9a-f]*/labs@plt+0x0 /' $p.sampo.script >$p.bad3.script
	if ! cmp -s $p.sampo.script $p.bad3.script; then
		python3 "$canon" script $p.perf.script $p.bad3.script >/dev/null &&
			die "$p: plt-canon.py forgives a changed script line"
	fi
done
say "programs whose stub perf names _init or leaves unresolved: $stub_not_named"
pass

#!/bin/bash
# t6403-merge-kaslr-unresolved: a kernel address that no symbol covers joins across files of one kernel booted with other KASLR slides, as its offset from the file's _text, in report -i a -i b, sampo merge -o out.data (read by perf) and -o out.pb.gz; another kernel's stays apart
#
# Inputs from mkhosts.py (see t6400): "alpha-unres" puts 4 kernel samples
# past the last symbol of its kallsyms, at _etext + 0x10040 = _text +
# 0x30040 whatever the slide. Two hosts run the alpha kernel (one build-id)
# with two slides; a third runs the beta kernel, whose _etext is at the same
# offset: its address must not join alpha's.
. "$(dirname "$0")/lib.sh"
. "$SAMPO_SRCDIR/tests/cli/hosts-lib.sh"
need_cmd python3 cc nm readelf
cd "$tmpdir"
export HOME=$tmpdir/home
mkdir -p "$HOME/.debug"
build_host_libs

slide1=$(((RANDOM % 200 + 1) * 2097152))
slide2=$((slide1 + (RANDOM % 200 + 1) * 2097152))
gen() { python3 "$SAMPO_SRCDIR/tests/cli/mkhosts.py" "$@" || die "mkhosts.py $*"; }
gen alpha-unres a1.data "$slide1" foo1.so bar.so "$HOME/.debug" host1 >want-1
gen alpha-g-unres a2.data "$slide2" foo1.so bar.so "$HOME/.debug" host2 >want-2
gen beta-unres b.data "$slide1" foo2.so bar.so "$HOME/.debug" >want-b

# each file alone: the address as its slide put it (the generator's line)
for f in 1 2; do
	addr=$(awk '$3 == "[k]" && $4 ~ /^0x/ { print $4 }' want-$f)
	[ -n "$addr" ] || die "the generator put no unresolved kernel sample in a$f.data"
	run_sampo report -i a$f.data --stdio --no-children -s comm,dso,sym >one.out 2>/dev/null
	grep -Eq "app +\[kernel\.kallsyms\] +\[k\] $addr\$" one.out ||
		die "a$f.data alone: no row for $addr: $(cat one.out)"
done
[ "$(awk '$4 ~ /^0x/ { print $4 }' want-1)" != "$(awk '$4 ~ /^0x/ { print $4 }' want-2)" ] ||
	die "the two slides gave one address"
# 0xffffffff81000000 + slide + 0x30040: the offset from _text is 0x30040
printf -v want_addr '0x%016x' $((0xffffffff81000000 + slide1 + 0x30040))
grep -q "$want_addr" want-1 || die "the generator's address is not _text + 0x30040"

rows() { grep -v -e '^#' -e '^$' | sed 's/^ *//; s/  */ /g' | LC_ALL=C sort; }
# the periods of the generator's unresolved lines (4 samples each file)
p1=$(awk '$4 ~ /^0x/ { print $6 }' want-1)
p2=$(awk '$4 ~ /^0x/ { print $6 }' want-2)

# report -i: one row for both alpha hosts without the host key ...
run_sampo report -i a1.data -i a2.data -i b.data -n --no-children -s comm,dso,sym --stdio \
	>joined.out 2>joined.err
[ ! -s joined.err ] || die "warnings: $(cat joined.err)"
grep -Eq " 8 app \[kernel\.kallsyms\]@aaaaaaaaaaaa \[k\] _text\+0x30040\$" <(rows <joined.out) ||
	die "the two slides' address did not join: $(cat joined.out)"
grep -Eq " 4 app \[kernel\.kallsyms\]@bbbbbbbbbbbb \[k\] _text\+0x30040\$" <(rows <joined.out) ||
	die "the other kernel's address is not a row of its own: $(cat joined.out)"
[ "$(grep -c '_text+0x30040' joined.out)" = 2 ] || die "not two unresolved rows: $(cat joined.out)"
# ... and one a host with it
"$SAMPO" report -i a1.data -i a2.data -n --no-children --stdio >hosts.out 2>hosts.err ||
	die "report -i a1.data -i a2.data failed: $(cat hosts.err)"
for h in host1 host2; do
	grep -Eq " 4 $h app \[kernel\.kallsyms\] \[k\] _text\+0x30040\$" <(rows <hosts.out) ||
		die "$h: no row of its own: $(cat hosts.out)"
done

# sampo merge: one frame for both alpha hosts, read back by sampo and perf
run_sampo merge -o merged.data a1.data a2.data b.data 2>merge.err
[ ! -s merge.err ] || die "warnings: $(cat merge.err)"
run_sampo report -i merged.data --stdio --no-children -g none -s sym -n >merged.out 2>/dev/null
total=$(sed -n 's/^# Event count (approx.): //p' merged.out)
printf -v pct '%.2f%%' "$(echo "($p1 + $p2) * 100 / $total" | bc -l)"
grep -Eq "^ +$pct .*\[kernel\.kallsyms\]@aaaaaaaaaaaa:_text\+0x30040\$" merged.out ||
	die "merge: no joined frame at $pct: $(cat merged.out)"
if [ -n "$PERF" ]; then
	"$PERF" report -i merged.data --stdio --no-children -g none -s sym >perf.out 2>/dev/null ||
		die "perf cannot read the merge"
	grep -Eq "^ +$pct .*\[kernel\.kallsyms\]@aaaaaaaaaaaa:_text\+0x30040\$" perf.out ||
		die "perf: no joined frame at $pct: $(cat perf.out)"
fi
# the same stacks in the pprof output: one function, both alpha hosts' samples
if command -v go >/dev/null 2>&1; then
	export GOCACHE=$tmpdir/gocache
	run_sampo merge -o merged.pb.gz a1.data a2.data 2>/dev/null
	go tool pprof -symbolize=none -sample_index=cpu-clock_sample -top merged.pb.gz \
		>top.out 2>/dev/null || die "go tool pprof cannot read the merge"
	grep -Eq '^ +8 .* _text\+0x30040$' top.out || die "pprof: not 8 samples at _text+0x30040: $(cat top.out)"
fi
pass

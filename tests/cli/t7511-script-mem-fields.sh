#!/bin/bash
# t7511-script-mem-fields: script's default fields for raw events (perf mem's
# load latency events) are perf's: the data address, the data source word
# and its meaning, the weight and instruction latency, and the physical
# address, each where the samples carry it; other events keep the usual
# fields (issue 12.5, the weight_struct file)
#
# mkperfdata --mem makes cpu-clock a raw event whose samples carry ADDR,
# DATA_SRC, WEIGHT_STRUCT and PHYS_ADDR, with data_src words that walk every
# field of union perf_mem_data_src. Sample 2's word, 0xb4a35380021, decoded
# by hand from perf 6.1's rules (util/mem-events.c): op 1 "N/A"; hops 1
# "core, same node" in place of the lvl bits, lvl_num 5 "L5"; snoop 7 "N/A
# or None or Hit", snoopx 1 "Fwd"; dtlb 13 "N/A or L1" and its miss bit; lock
# 1 "N/A"; blk 3 " N/A". perf cuts the column at 99 characters and pads each
# to the widest so far. perf 6.1, when there, must print the same bytes.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-wild.sh"
mk=$SAMPO_BUILDDIR/tests/tools/mkperfdata
[ -x "$mk" ] || skip "no $mk"
cd "$tmpdir"
"$mk" --mem --samples 200 -o mem.data

sampo_wild script -i mem.data >got 2>/dev/null
want2='burn  4243 [001]     1.000002:    1000000  cpu-clock:     7ffd00001090     b4a35380021 |OP N/A|LVL core, same node L5|SNP N/A or None or Hit or Fwd|TLB N/A or L1 miss|LC              64               6'
[ "$(sed -n '/1\.000002:/p' got)" = "$want2" ] || die "sample 2: $(sed -n '/1\.000002:/p' got)"
grep -q '^burn  4242 \[000\]     1.000000:    1000000  cpu-clock:     7ffd00001000               0 |OP No|LVL N/A|SNP N/A|TLB N/A|LCK No|BLK  N/A              30               0$' got ||
	die "sample 0: $(head -1 got)"
# task-clock is a software event: no memory columns
grep -q '^burn  4242 \[000\]     1.000001:     100000 task-clock: $' got || die "task-clock: $(grep -m1 task-clock got)"
# the physical address of sample 2 (0x1234000 + 2 * 0x40) after its call chain
grep -q '^         1234080$' got || die "no physical address"
sampo_wild script -F ip,addr,weight -i mem.data >f.out 2>/dev/null
grep -q '^    7ffd00001000              30$' f.out || die "-F addr,weight: $(head -1 f.out)"

if [ -n "${PERF:-}" ] && [ -x "$PERF" ]; then
	perf_foreign script -i mem.data >want
	compare_files want got
	for F in comm,event,addr,data_src,weight,ins_lat,phys_addr,ip,sym -period +pid; do
		perf_foreign script -F "$F" -i mem.data >want
		sampo_wild script -F "$F" -i mem.data >got.f 2>/dev/null
		compare_files want got.f || die "-F $F"
	done
	f=$(wild_file pdc__perf.data.weight_struct)
	perf_foreign script -i "$f" >want
	sampo_wild script -i "$f" >got.w 2>/dev/null
	compare_files want got.w
fi
pass

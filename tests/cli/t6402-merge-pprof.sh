#!/bin/bash
# t6402-merge-pprof: sampo merge -o out.pb.gz of two machines gives Go's pprof the totals and top functions of go tool pprof -proto of the per-file profiles (sampo pprof), each sample labelled by its host
#
# Inputs from mkhosts.py (see t6400): two kernels, slides, one library path
# with two build-ids, callchains. The per-file profiles are checked against
# perf by t61xx; here Go's own merge of them is the reference.
. "$(dirname "$0")/lib.sh"
. "$SAMPO_SRCDIR/tests/cli/hosts-lib.sh"
need_cmd go python3 cc nm readelf

cd "$tmpdir"
export HOME=$tmpdir/home GOCACHE=$tmpdir/gocache
mkdir -p "$HOME/.debug"
build_host_libs
pick_slides
python3 "$SAMPO_SRCDIR/tests/cli/mkhosts.py" alpha-g a.data "$slide_a" foo1.so bar.so \
	"$HOME/.debug" >/dev/null
python3 "$SAMPO_SRCDIR/tests/cli/mkhosts.py" beta-g b.data "$slide_b" foo2.so bar.so \
	"$HOME/.debug" >/dev/null

run_sampo pprof -i a.data -o a.pb.gz 2>/dev/null
run_sampo pprof -i b.data -o b.pb.gz 2>/dev/null
run_sampo merge -o merged.pb.gz a.data b.data 2>merge.err
[ ! -s merge.err ] || die "warnings: $(cat merge.err)"
go tool pprof -symbolize=none -proto a.pb.gz b.pb.gz >go-merged.pb.gz 2>/dev/null ||
	die "go tool pprof -proto failed"

# the table of -top without its header (file, build-id and comment lines differ)
top() { go tool pprof -symbolize=none -top "$@" 2>/dev/null | sed -n '/^Showing nodes/,$p'; }
for index in cpu-clock_event cpu-clock_sample; do
	top -sample_index=$index go-merged.pb.gz >want-$index
	top -sample_index=$index merged.pb.gz >got-$index
	grep -q 'foo_zero' want-$index || die "go's merge has no foo_zero: $(cat want-$index)"
	compare_files want-$index got-$index
done
grep -q '^Showing nodes accounting for 34566, 100% of 34566 total$' got-cpu-clock_event ||
	die "total period: $(cat got-cpu-clock_event)"

# the host label: one machine's part of the merge is that machine's profile
for h in alpha:a beta:b; do
	top -sample_index=cpu-clock_event "${h#*:}.pb.gz" >want-host
	top -sample_index=cpu-clock_event -tagfocus=host="${h%%:*}" merged.pb.gz |
		sed 's/^Showing nodes accounting for \([0-9]*\), [0-9.]*% of [0-9]* total$/Showing nodes accounting for \1/' >got-host
	sed -i 's/^Showing nodes accounting for \([0-9]*\), [0-9.]*% of [0-9]* total$/Showing nodes accounting for \1/' want-host
	# percentages of a focused view are of the whole merge: compare flat and cum values and names
	awk '{ print $1, $4, $NF }' want-host >want-host.v
	awk '{ print $1, $4, $NF }' got-host >got-host.v
	compare_files want-host.v got-host.v
done
pass

#!/bin/bash
# t5001-record-peer: perf report and perf buildid-list give the same top symbols and build-ids on sampo's recording of demo/burn as on perf's own, with and without attr.build_id
. "$(dirname "$0")/lib.sh"

# grep_all ARGS: grep that reads all its input (grep -q would SIGPIPE the writer under pipefail)
grep_all() { grep "$@" >/dev/null; }

# a HOME of our own: perf 6.1's cache step can trip an assertion when several
# perf record share one ~/.debug at the same time
export HOME=$tmpdir/home
mkdir -p "$HOME"
need_perf_record
burn=$SAMPO_BUILDDIR/demo/burn
[ -x "$burn" ] || skip "no demo/burn in the build"
cd "$tmpdir"
"$SAMPO" record -q -e cpu-clock -o probe.data -- true >/dev/null 2>&1 || skip "sampo cannot record here"

# top2 FILE: the two symbols with the most self samples
top2() {
	"$PERF" report --stdio --no-children -i "$1" --sort sym 2>/dev/null |
		awk '/^ +[0-9.]+%/ { print $NF }' | head -2 | sort
}

# bids FILE: the build-id table, without [vdso] (its samples are a matter of luck)
bids() {
	"$PERF" buildid-list -i "$1" 2>/dev/null | grep -v '\[vdso\]' | sort
}

# -N: perf 6.1's cache step sometimes dies on an assertion (util/build-id.c) when
# other recordings run at the same time; the build-id table does not need it
"$PERF" record -q -N -e cpu-clock -F 1000 -g -o perf.data -- "$burn" 500 >/dev/null 2>perf.err ||
	die "perf record failed: $(cat perf.err)"
for mode in "" --no-buildid-mmap; do
	run_sampo record -q -e cpu-clock -F 1000 -g $mode -o sampo.data -- "$burn" 500 >/dev/null
	"$PERF" report -D -i sampo.data >/dev/null 2>D.err || die "perf report -D failed ($mode): $(tail -3 D.err)"
	[ ! -s D.err ] || die "perf report -D warned ($mode): $(head -3 D.err)"

	top2 perf.data >top-perf.txt
	top2 sampo.data >top-sampo.txt
	[ "$(cat top-perf.txt)" = "$(printf 'burn_leaf_alpha\nburn_leaf_beta')" ] ||
		die "unexpected top symbols in perf's file: $(cat top-perf.txt)"
	diff -u top-perf.txt top-sampo.txt || die "top symbols differ ($mode)"

	bids perf.data >bid-perf.txt
	bids sampo.data >bid-sampo.txt
	grep -q "demo/burn$" bid-sampo.txt || die "burn is not in sampo's build-id table ($mode)"
	# exactly the DSOs with samples: the kernel is there when a sample hit it
	if "$PERF" report --stdio -i sampo.data --sort dso 2>/dev/null | grep_all '%.*\[kernel.kallsyms\]'; then
		grep -q "\[kernel.kallsyms\]$" bid-sampo.txt || die "no kernel build-id ($mode)"
	fi
	# a DSO listed by both has the same build-id (which libraries got a sample is luck)
	join -1 2 -2 2 <(sort -k2 bid-perf.txt) <(sort -k2 bid-sampo.txt) |
		awk '$2 != $3 { print; bad = 1 } END { exit bad }' || die "build-ids differ ($mode)"
	kbid=$("$PERF" buildid-list -k)
	if grep -q "kallsyms" bid-sampo.txt; then
		grep -q "^$kbid \[kernel.kallsyms\]$" bid-sampo.txt ||
			die "kernel build-id is not the running kernel's"
	fi

	# attr.build_id on by default (when the kernel has it), off with --no-buildid-mmap
	if [ -z "$mode" ]; then
		"$PERF" report -D -i sampo.data 2>/dev/null | grep_all "PERF_RECORD_MMAP2 .*<[0-9a-f]\{40\}>.*demo/burn" ||
			say "kernel without attr.build_id: MMAP2 records carry no build-id"
	else
		! "$PERF" report -D -i sampo.data 2>/dev/null | grep_all "PERF_RECORD_MMAP2 .*<[0-9a-f]\{40\}>" ||
			die "--no-buildid-mmap still wrote build-ids in MMAP2"
	fi
done

# the header has the same kinds of lines as perf's
hdr_kinds() {
	"$PERF" report --header-only -i "$1" 2>/dev/null | sed -n 's/^# \([a-zA-Z_ ]*[a-zA-Z]\) *:.*/\1/p' |
		grep -v -e '^captured on' | sort -u
}
hdr_kinds perf.data >k-perf.txt
hdr_kinds sampo.data >k-sampo.txt
diff -u k-perf.txt k-sampo.txt || die "header lines differ in kind from perf's"
pass

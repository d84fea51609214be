#!/bin/bash
# t6401-merge-perf-reads: sampo merge -o out.data of two machines (other kernels, slides, one library path with two build-ids, callchains) writes a perf.data that perf report and perf script read without error, every frame named by its own machine's symbols, periods summed
#
# Inputs from mkhosts.py (see t6400). The merged file carries resolved
# frames (docs/sampo-merge.md): perf must show each sample under
# "host/command" and "dso:symbol" with the percentage the generator's
# periods give, the call chains as recorded, and sampo report must print
# what perf report prints of it.
. "$(dirname "$0")/lib.sh"
. "$SAMPO_SRCDIR/tests/cli/hosts-lib.sh"
need_cmd python3 cc nm readelf

cd "$tmpdir"
export HOME=$tmpdir/home
mkdir -p "$HOME/.debug"
build_host_libs

pick_slides
python3 "$SAMPO_SRCDIR/tests/cli/mkhosts.py" alpha-g a.data "$slide_a" foo1.so bar.so \
	"$HOME/.debug" >want-a
python3 "$SAMPO_SRCDIR/tests/cli/mkhosts.py" beta-g b.data "$slide_b" foo2.so bar.so \
	"$HOME/.debug" >want-b

# the frames as the merge names them: dso:symbol, with the build-id of the
# names that stand for two (libfoo.so, the two kernels)
label() {
	awk -v host="$1" '{
		if ($2 == "libfoo.so") $2 = $2 (host == "alpha" ? "@111111111111" : "@222222222222")
		if ($2 == "[kernel.kallsyms]") $2 = $2 (host == "alpha" ? "@aaaaaaaaaaaa" : "@bbbbbbbbbbbb")
		print host "/" $1, "[k]", $2 ":" $4, $5, $6 }'
}
{ label alpha <want-a; label beta <want-b; } >want-all
# fields: comm level frame samples period
total=$(awk '{ t += $5 } END { print t }' want-all)
awk -v t="$total" '{ printf "%.2f%% %s %s %s\n", $5 * 100 / t, $1, $2, $3 }' want-all |
	LC_ALL=C sort >want-rows

run_sampo merge -o merged.data a.data b.data 2>merge.err
[ ! -s merge.err ] || die "warnings: $(cat merge.err)"
rows() { grep -v -e '^#' -e '^$' | sed 's/^ *//; s/  */ /g' | LC_ALL=C sort; }

# sampo reads it back: rows and total as the generator says
run_sampo report -i merged.data --stdio --no-children -g none -s comm,sym >sampo.out 2>/dev/null
rows <sampo.out >got-rows
compare_files want-rows got-rows
grep -q "^# Event count (approx.): $total\$" sampo.out || die "event count: $(cat sampo.out)"

# one worker writes the same profile
run_sampo merge -o merged1.data --jobs 1 b.data a.data 2>/dev/null
run_sampo report -i merged1.data --stdio --no-children -g none -s comm,sym 2>/dev/null | rows >got1
compare_files want-rows got1

if [ -n "$PERF" ]; then
	perf_report() {
		"$PERF" report -i "$1" --stdio "${@:2}" 2>perf.err | grep -v -e '^# (Tip' -e '^$' -e '^#$'
	}
	perf_report merged.data --no-children -g none -s comm,sym >perf.out
	[ ! -s perf.err ] || die "perf report: $(cat perf.err)"
	rows <perf.out >perf-rows
	compare_files want-rows perf-rows
	# perf's call graphs, and sampo's of the same file, line for line
	perf_report merged.data --no-children -s comm,sym >perf-graph.out
	"$SAMPO" report -i merged.data --stdio --no-children -s comm,sym 2>/dev/null |
		grep -v -e '^$' -e '^#$' >sampo-graph.out
	compare_files perf-graph.out sampo-graph.out
	grep -A3 'libfoo.so@222222222222:foo_zero$' perf-graph.out | grep -q 'libbar.so:bar_main' ||
		die "foo_zero's caller lost: $(cat perf-graph.out)"
	# perf script: one line per distinct stack and frame
	"$PERF" script -i merged.data -F comm,ip,sym >script.out 2>script.err
	[ ! -s script.err ] || die "perf script: $(cat script.err)"
	grep -q 'libfoo.so@111111111111:foo_one' script.out || die "perf script: $(cat script.out)"
else
	say "perf not installed: only sampo's reading of the merge was checked"
fi

# a bad input names itself, exit 1, nothing written
rc=0
"$SAMPO" merge -o bad.data a.data missing.data >/dev/null 2>err || rc=$?
[ "$rc" = 1 ] || die "missing input: exit $rc"
grep -q 'missing.data' err || die "missing input not named: $(cat err)"
[ ! -e bad.data ] || die "an output was written for a failed merge"
rc=0
"$SAMPO" merge a.data >/dev/null 2>err || rc=$?
[ "$rc" = 129 ] || die "no -o: exit $rc"
pass

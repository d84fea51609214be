#!/bin/bash
# t3007-script-stop-bt: script --stop-bt ends each call chain after its first
# entry in one of the listed functions, as perf 6.1's does (the entry itself
# printed, a comma-separated list of exact names, kernel or user, cached
# frames or not, with -F, --max-stack, -G and --inline); compared line for
# line with perf on the call-graph fixture. The folded stacks end (begin, in
# their caller-first order) at the same entry.
. "$(dirname "$0")/lib.sh"
need_perf

dir=$(fixtures_dir)
input=$dir/b-callchain-fp/perf.data
export HOME=$tmpdir
fixture_cache "$HOME/.debug"
unset PERF_BUILDID_DIR

fails=0
check() {
	"$PERF" script -i "$input" "$@" >"$tmpdir/want" 2>/dev/null
	run_sampo script -i "$input" "$@" >"$tmpdir/got"
	compare_report "$tmpdir/want" "$tmpdir/got" "$*"
}
check --stop-bt burn_outer_delta
check --stop-bt main,burn_leaf_beta
check --stop-bt asm_sysvec_apic_timer_interrupt
check --stop-bt __irq_exit_rcu,burn_outer_delta -F comm,tid,ip,sym,dso
check --stop-bt=main --max-stack 3
check --stop-bt nosuch_function
check --stop-bt handle_softirqs -G
check --stop-bt __libc_start_call_main --inline
[ "$fails" -eq 0 ] || die "$fails outputs differ from perf's"

# perf stops after the listed function: no chain goes past it (first principles)
run_sampo script -i "$input" --stop-bt burn_outer_delta -F ip,sym >"$tmpdir/out"
awk '/burn_outer_delta/ { stop = 1; next } /^\t/ && stop { bad = 1 } /^$/ { stop = 0 }
	END { exit bad }' "$tmpdir/out" || die "an entry printed after burn_outer_delta"
grep -q burn_outer_delta "$tmpdir/out" || die "no chain through burn_outer_delta"

# the folded stacks: the callers above the stop are gone
run_sampo script -i "$input" --stop-bt burn_outer_delta --folded >"$tmpdir/folded"
! grep -q -e ';main;' -e '__libc_start' "$tmpdir/folded" || die "callers past the stop: $(head -3 "$tmpdir/folded")"
grep -q '^burn;burn_outer_delta;burn_leaf_alpha [0-9]' "$tmpdir/folded" ||
	die "no stack rooted at burn_outer_delta: $(head -3 "$tmpdir/folded")"
pass

#!/bin/bash
# t6700-demo: `make demo` (scripts/demo.sh) prints the report first, then the flame graph's path
# when sampo has `flamegraph`, then the next commands; no dump lines, nothing that reads like an
# error; its recording has the call chain demo/burn.c's comment draws (main -> burn_outer_delta ->
# burn_middle_gamma -> burn_leaf_alpha/beta), as perf sees it too; the fixture fallback is
# symbolized. Runs alone: the demo records with "$SAMPO" record.
. "$(dirname "$0")/lib.sh"

[ -x "$SAMPO_BUILDDIR/demo/burn" ] || skip "no demo/burn in this build"

# check_output FILE: the layout and the words of the demo's output
check_output() {
	local f=$1 report next flame
	report=$(grep -n '^==> sampo report' "$f" | head -n 1 | cut -d: -f1)
	next=$(grep -n '^==> next, on your own program' "$f" | cut -d: -f1)
	[ -n "$report" ] || die "$f: no report"
	[ -n "$next" ] || die "$f: no next commands"
	[ "$report" -lt "$next" ] || die "$f: the next commands come before the report"
	# nothing before the report but the recording and what the demo says about it
	if sed -n "1,${report}p" "$f" | grep -v -e '^==> sampo record' -e '^burn: ' \
		-e '^\[ sampo record: Captured' -e "^sampo record: no hardware 'cycles'" \
		-e '^demo: ' -e '^$' -e '^==> sampo report' >"$tmpdir/before"; then
		die "$f: unexpected lines before the report: $(cat "$tmpdir/before")"
	fi
	if "$SAMPO" --list-cmds | grep -qx flamegraph; then
		flame=$(grep -n '^flame graph: /.*\.html' "$f" | cut -d: -f1)
		[ -n "$flame" ] || die "$f: sampo has flamegraph but the demo prints no flame graph path"
		[ "$report" -lt "$flame" ] && [ "$flame" -lt "$next" ] ||
			die "$f: the flame graph path is not between the report and the next commands"
		local html
		html=$(sed -n 's/^flame graph: \(\/[^ ]*\.html\).*/\1/p' "$f")
		[ -s "$html" ] || die "$f: the flame graph $html is not there"
	else
		! grep -q 'flamegraph' "$f" || die "$f: mentions flamegraph, which this sampo lacks"
	fi
	grep -q '^    sampo record -g -- ' "$f" || die "$f: no 'sampo record -g' among the next commands"
	grep -q '^    sampo report ' "$f" || die "$f: no 'sampo report' among the next commands"
	# no raw dump, no error-looking line (perf's 'PERF_RECORD_FINISHED_INIT: unhandled!' is
	# sampo dump's, which the demo no longer runs)
	if grep -n -i -e 'raw event' -e 'PERF_RECORD_' -e 'unhandled' -e 'error' -e 'warning' \
		-e 'cannot' -e 'failed' "$f" | grep -v '^[0-9]*:demo: sampo cannot record here' \
		>"$tmpdir/bad"; then
		die "$f: lines that read like a dump or an error: $(cat "$tmpdir/bad")"
	fi
	# the report is symbolized: the demo's functions, not addresses
	grep -q '\[\.\] burn_leaf_alpha' "$f" || die "$f: burn_leaf_alpha is not in the report"
	! grep -q ' burn  *\[\.\] 0x' "$f" || die "$f: unresolved burn addresses in the report"
}

# chain_counts SCRIPT_OUTPUT: "<leaf samples> <leaf samples whose callers are gamma, delta, main>"
chain_counts() {
	awk '
		function flush(   i) {
			for (i = 1; i <= n; i++)
				if (fr[i] ~ /^burn_leaf_(alpha|beta)$/) {
					total++
					if (fr[i + 1] == "burn_middle_gamma" && fr[i + 2] == "burn_outer_delta" &&
					    fr[i + 3] == "main")
						good++
					break
				}
			n = 0
		}
		/^[^ \t]/ { flush(); next }
		/^\t/ { s = $2; sub(/\+0x[0-9a-f]+$/, "", s); fr[++n] = s }
		END { flush(); print total + 0, good + 0 }
	' "$1"
}

out=$tmpdir/demo
mkdir -p "$out"
rc=0
BUILDDIR=$SAMPO_BUILDDIR SAMPO_DEMO_DIR=$out bash "$SAMPO_SRCDIR/scripts/demo.sh" \
	>"$tmpdir/demo.out" 2>&1 || rc=$?
[ "$rc" -eq 0 ] || die "the demo exited with $rc: $(tail -n 5 "$tmpdir/demo.out")"
check_output "$tmpdir/demo.out"

if [ -f "$out/perf.data" ]; then
	run_sampo script -i "$out/perf.data" >"$tmpdir/script" 2>"$tmpdir/script.err"
	read -r total good < <(chain_counts "$tmpdir/script")
	say "sampo: $good of $total leaf samples have the whole chain"
	[ "$total" -ge 50 ] || die "only $total samples in the demo's leaf functions"
	# a sample on a leaf's first instruction (before its frame is set up) may miss one caller
	[ $((good * 100)) -ge $((total * 95)) ] ||
		die "only $good of $total leaf samples have main -> burn_outer_delta -> burn_middle_gamma"
	# the chain in the report, as the comment draws it; a few samples outside main
	# (start-up, exit) make a second branch, drawn as "|--99.73%--main": keep the names
	grep -A8 -e '---__libc_start_call_main' "$tmpdir/demo.out" |
		sed -E 's/[|]//g; s/--[0-9.]+%--//; s/ //g' | grep -v '^$' >"$tmpdir/chain"
	printf '%s\n' main burn_outer_delta burn_middle_gamma >"$tmpdir/want"
	sed -n 2,4p "$tmpdir/chain" | diff -u "$tmpdir/want" - >&2 ||
		die "the report's call graph is not main -> burn_outer_delta -> burn_middle_gamma"
	# perf reads the same chains from the same file
	if [ -n "$PERF" ]; then
		"$PERF" script -i "$out/perf.data" -F ip,sym >"$tmpdir/perf.script" 2>/dev/null ||
			die "perf script failed on the demo's recording"
		awk '/^[ \t]*$/ { print "x"; next } { print "\t" $1 " " $2 }' "$tmpdir/perf.script" \
			>"$tmpdir/perf.frames"
		read -r ptotal pgood < <(chain_counts "$tmpdir/perf.frames")
		say "perf: $pgood of $ptotal leaf samples have the whole chain"
		[ "$ptotal" = "$total" ] && [ "$pgood" = "$good" ] ||
			die "perf sees $pgood of $ptotal whole chains, sampo $good of $total"
	fi
else
	say "this machine cannot record: the demo showed the fixture"
	grep -q '^demo: sampo cannot record here' "$tmpdir/demo.out" ||
		die "the demo did not record and did not say why"
fi

# the fallback (a machine that cannot record): the fixture, symbolized, same layout
if [ -n "$SAMPO_SHARED" ] && [ -f "$SAMPO_SHARED/fixtures/perf-6.1/b-callchain-fp/perf.data" ]; then
	BUILDDIR=$SAMPO_BUILDDIR SAMPO_DEMO_DIR=$out SAMPO_DEMO_FALLBACK=1 \
		bash "$SAMPO_SRCDIR/scripts/demo.sh" >"$tmpdir/fallback.out" 2>&1 ||
		die "the demo's fallback failed: $(tail -n 5 "$tmpdir/fallback.out")"
	check_output "$tmpdir/fallback.out"
	grep -A3 -e '---__libc_start_call_main' "$tmpdir/fallback.out" | sed -n 2,3p | tr -d ' ' \
		>"$tmpdir/chain"
	printf '%s\n' main burn_outer_delta | diff -u - "$tmpdir/chain" >&2 ||
		die "the fallback's call graph is not the fixture's main -> burn_outer_delta"
fi
pass

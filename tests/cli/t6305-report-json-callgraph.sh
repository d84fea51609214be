#!/bin/bash
# t6305-report-json-callgraph: the call graphs of sampo report --format json, drawn again as perf draws them, equal perf 6.1's report on the fixtures (its saved outputs, and live for 16 graph option sets) and sampo's and perf's on a recording made here
. "$(dirname "$0")/lib.sh"
need_cmd python3
need_perf_record
burn=$SAMPO_BUILDDIR/demo/burn
[ -x "$burn" ] || skip "no demo/burn in the build"

dir=$(fixtures_dir)
check=$SAMPO_SRCDIR/tests/cli/format-json-check.py
# perf 6.1 ignores PERF_BUILDID_DIR: its build-id cache is $HOME/.debug
export HOME=$tmpdir/home
fixture_cache "$HOME/.debug"
export PERF_BUILDID_DIR=$HOME/.debug

# the check script's flags for a set of report options
flags_for() {
	local f=(--graphs)
	[[ " $1 " == *folded* ]] && f+=(--folded)
	[[ " $1 " == *period* ]] && f+=(--period)
	echo "${f[@]}"
}

# 1. every fixture with call chains, both modes, against the reports perf saved
nr=0
for f in "$dir"/*/perf.data; do
	d=$(dirname "$f")
	name=$(basename "$d")
	fixture_extra "$name"
	for mode in "" -no-children; do
		run_sampo report --format json --sort comm,dso,sym -i "$f" "${extra[@]}" \
			${mode:+--no-children} >"$tmpdir/json" 2>/dev/null
		grep -q '^"callgraph": null' "$tmpdir/json" && continue
		head -n -3 "$d/report-stdio$mode.txt" >"$tmpdir/want"
		python3 "$check" report "$tmpdir/want" "$tmpdir/json" --graphs ||
			die "$name$mode: the JSON's call graphs are not perf's"
		nr=$((nr + 1))
	done
done
[ "$nr" -ge 6 ] || die "only $nr fixture reports had call graphs (b, d and e have)"

# 2. graph options, against perf run now and against sampo's text
f=$dir/b-callchain-fp/perf.data
for opts in "-G" "-g caller" "-g callee" "-g callee,0" "--no-children -g caller" \
	"--percent-limit 5" "-g graph,2" "--max-stack 3" "-s sym" "-s dso,sym --no-children" \
	"-s pid,sym -G" "-g folded" "-g folded,period" "-g folded --no-children" \
	"-g folded,caller,0.1" "-g folded,period,callee"; do
	# shellcheck disable=SC2086
	run_sampo report --format json -i "$f" $opts >"$tmpdir/json" 2>/dev/null
	# shellcheck disable=SC2086
	"$PERF" report --stdio -i "$f" $opts 2>/dev/null | head -n -3 >"$tmpdir/perf"
	# shellcheck disable=SC2086
	run_sampo report --stdio -i "$f" $opts >"$tmpdir/text" 2>/dev/null
	# shellcheck disable=SC2046
	python3 "$check" report "$tmpdir/perf" "$tmpdir/json" $(flags_for "$opts") ||
		die "report $opts: the JSON's call graphs are not perf's"
	# shellcheck disable=SC2046
	python3 "$check" report "$tmpdir/text" "$tmpdir/json" $(flags_for "$opts") ||
		die "report $opts: the JSON's call graphs are not the text's"
	nr=$((nr + 1))
done

# the checker itself fails on one changed number and on one changed name
run_sampo report --format json -i "$f" >"$tmpdir/json"
head -n -3 "$dir/b-callchain-fp/report-stdio.txt" >"$tmpdir/want"
sed 's/"period": 3000000, "self_period": 1000000/"period": 2000000, "self_period": 1000000/' \
	"$tmpdir/json" >"$tmpdir/bad1.json"
sed 's/"burn_leaf_beta"/"burn_leaf_gamma"/' "$tmpdir/json" >"$tmpdir/bad2.json"
for bad in bad1 bad2; do
	cmp -s "$tmpdir/json" "$tmpdir/$bad.json" && die "$bad: the edit changed nothing"
	if python3 "$check" report "$tmpdir/want" "$tmpdir/$bad.json" >/dev/null; then
		die "$bad: the checker missed a changed graph"
	fi
done

# no graphs with -g none
run_sampo report --format json -g none -i "$f" >"$tmpdir/none.json"
grep -q '^"callgraph": null' "$tmpdir/none.json" || die "-g none: the document has graphs"
grep -q '"callgraph": \[' "$tmpdir/none.json" && die "-g none: a row has a graph"

# 3. a recording made here with call chains through user and kernel code
cd "$tmpdir"
ok=
for try in 1 2 3; do
	env -u MALLOC_PERTURB_ "$PERF" record -q -e cpu-clock -F 2000 -g -o rec.data -- \
		"$burn" 300 >/dev/null 2>rec.err || continue
	"$PERF" report --stdio -i rec.data >/dev/null 2>&1 && ok=1 && break
	say "perf cannot read its recording (try $try)"
done
[ -n "$ok" ] || die "no recording perf reads after three tries: $(cat rec.err)"
for opts in "" "--no-children" "-g caller" "-g folded" "-s sym --no-children -G"; do
	# shellcheck disable=SC2086
	run_sampo report --format json -i rec.data $opts >rec.json 2>/dev/null
	# shellcheck disable=SC2086
	run_sampo report --stdio -i rec.data $opts >rec.text 2>/dev/null
	# shellcheck disable=SC2046
	python3 "$check" report rec.text rec.json $(flags_for "$opts") ||
		die "recording, report $opts: the JSON's call graphs are not the text's"
	# shellcheck disable=SC2086
	"$PERF" report --stdio -i rec.data $opts 2>/dev/null | head -n -3 >rec.perf
	# perf orders branches of equal weight by the address of their DSO: the
	# JSON must then agree with perf but for those ties, as the text does
	# shellcheck disable=SC2046
	if ! python3 "$check" report rec.perf rec.json $(flags_for "$opts") >rec.why; then
		grep -v '^#' rec.perf | grep . >rec.perf.body
		grep -v '^#' rec.text | grep . >rec.text.body
		graph_ties_only rec.perf.body rec.text.body ||
			die "recording, report $opts: not perf's: $(cat rec.why)"
		say "recording, report $opts: equal to perf but for the order of ties"
	fi
	nr=$((nr + 1))
done
say "$nr reports compared"
pass

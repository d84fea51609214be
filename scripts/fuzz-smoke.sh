#!/bin/bash
# fuzz-smoke.sh TARGET SECONDS [SEED_DIR] - a short libFuzzer run of one target,
# as a test of `make check` (suite 'fuzz' of the fuzz build): the committed seeds
# plus SECONDS of new inputs, which go to a scratch directory removed afterwards
# (long runs with a kept corpus: make fuzz-run). Fails on any crash, leak,
# sanitizer report or timeout that libFuzzer finds; the input is kept in
# build-fuzz/fuzz/findings/ to turn into a regression test.
set -u -o pipefail

target=$1
seconds=$2
seeds=${3:-}
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
findings=$(dirname "$target")/findings
mkdir -p "$findings"

dirs=$scratch
[ -n "$seeds" ] && [ -d "$seeds" ] && dirs="$scratch $seeds"
# fuzz/dict/NAME.dict, when there is one: tokens libFuzzer splices in
dict=
[ -n "$seeds" ] && [ -f "$(dirname "$seeds")/../dict/$(basename "$seeds").dict" ] &&
	dict="-dict=$(dirname "$seeds")/../dict/$(basename "$seeds").dict"
# one worker: make check runs several targets at once, beside its other tests
# shellcheck disable=SC2086
"$target" -max_total_time="$seconds" -timeout=25 -error_exitcode=1 -timeout_exitcode=1 -rss_limit_mb=2048 -print_final_stats=1 \
	-artifact_prefix="$findings/$(basename "$target")-" $dict $dirs 2>"$scratch.log"
rc=$?
grep -E '^(stat::number_of_executed_units|stat::new_units_added)' "$scratch.log"
if [ "$rc" -ne 0 ]; then
	tail -60 "$scratch.log"
	echo "fuzz-smoke: $(basename "$target") found a problem (exit $rc); input kept in $findings/"
fi
rm -f "$scratch.log"
exit "$rc"

#!/bin/bash
# same-output.sh - check that two builds of sampo print the same bytes: the
# check every speed change of issue 16 passes before its timing counts.
#
# usage: bench/same-output.sh [--real] OLD_BUILDDIR NEW_BUILDDIR
#
#   --real   also the real recordings of bench/record-real.sh (in
#            $SAMPO_BENCH_DIR/real, default NEW_BUILDDIR/bench-data/real)
#
# Runs report --stdio (children and --no-children), script (default fields
# and -F with callchains) and dump with both builds on every perf.data of
# ../shared/fixtures/perf-6.1 and ../shared/fixtures/wild/files, and compares
# stdout, stderr and the exit status. Prints one line per difference and a
# closing "N same, N different"; exits 1 on any difference.
set -uo pipefail

srcdir=$(cd "$(dirname "$0")/.." && pwd)
real=
[ "${1:-}" = --real ] && { real=1; shift; }
[ $# -eq 2 ] || { echo "usage: bench/same-output.sh [--real] OLD_BUILDDIR NEW_BUILDDIR" >&2; exit 129; }
old=$(cd "$1" && pwd)/tools/sampo/sampo new=$(cd "$2" && pwd)/tools/sampo/sampo
files=()
for f in "$srcdir"/../shared/fixtures/perf-6.1/*/perf.data "$srcdir"/../shared/fixtures/wild/files/*; do
	[ -f "$f" ] && files+=("$f")
done
if [ -n "$real" ]; then
	dir=${SAMPO_BENCH_DIR:-$2/bench-data}/real
	for f in "$dir"/*.data; do
		[ -f "$f" ] && files+=("$f")
	done
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
same=0 diff=0
cmds=("report --stdio" "report --stdio --no-children" "script" "script -F comm,tid,time,ip,sym,dso"
	"dump")
for f in "${files[@]}"; do
	home=$HOME
	case $f in */real/*) home=$(dirname "$f")/home ;; esac
	for c in "${cmds[@]}"; do
		# shellcheck disable=SC2086
		(cd "$tmp" && HOME=$home "$old" $c -i "$f" >old.out 2>old.err; echo $? >old.rc)
		# shellcheck disable=SC2086
		(cd "$tmp" && HOME=$home "$new" $c -i "$f" >new.out 2>new.err; echo $? >new.rc)
		if cmp -s "$tmp/old.out" "$tmp/new.out" && cmp -s "$tmp/old.err" "$tmp/new.err" &&
			cmp -s "$tmp/old.rc" "$tmp/new.rc"; then
			same=$((same + 1))
		else
			diff=$((diff + 1))
			echo "DIFFERENT: sampo $c -i $f"
		fi
	done
done
echo "$same same, $diff different"
[ "$diff" -eq 0 ]

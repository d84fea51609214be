#!/bin/bash
# run-before-after.sh - time two builds of sampo on the same generated files, in
# one run, alternating: the check that a change lost no speed (docs/performance.md).
#
# usage: bench/run-before-after.sh [-n RUNS] [--samples N] [--depth D] OLD_BUILDDIR NEW_BUILDDIR
#
#   -n RUNS       runs of each command per build, alternating old/new (default 5)
#   --samples N   samples per file (default 1000000)
#   --depth D     mean callchain depth of the callchain file (default 32)
#
# Each build directory holds tools/sampo/sampo (use release builds: meson setup DIR
# -Dbuildtype=release). The files are generated once with NEW_BUILDDIR's gen-perfdata
# (kernel symbols from this machine's kallsyms, as run-report.sh). The commands: report
# without and with callchains (children and --no-children), script, dump. Both builds'
# outputs are compared: a difference is reported as such, since a faster wrong answer
# is no answer. Prints a markdown table (medians of wall and CPU time, user +
# system; ratio new/old: under 1 is faster) on
# stdout, progress on stderr. Environment: SAMPO_BENCH_DIR (default: NEW_BUILDDIR/bench-data).
set -euo pipefail

srcdir=$(cd "$(dirname "$0")/.." && pwd)
runs=5 samples=1000000 depth=32
while [ $# -gt 0 ]; do
	case $1 in
	-n) runs=$2; shift 2 ;;
	--samples) samples=$2; shift 2 ;;
	--depth) depth=$2; shift 2 ;;
	-h|--help) sed -n '2,/^set /{/^set /d;s/^# \{0,1\}//;p}' "$0"; exit 0 ;;
	-*) echo "run-before-after.sh: unknown option '$1'" >&2; exit 129 ;;
	*) break ;;
	esac
done
[ $# -eq 2 ] || { echo "usage: bench/run-before-after.sh [-n RUNS] OLD_BUILDDIR NEW_BUILDDIR" >&2; exit 129; }
old=$1/tools/sampo/sampo new=$2/tools/sampo/sampo
gen=$2/bench/gen-perfdata
for f in "$old" "$new" "$gen"; do
	[ -x "$f" ] || { echo "run-before-after.sh: $f is missing: build first" >&2; exit 1; }
done
datadir=${SAMPO_BENCH_DIR:-$2/bench-data}
mkdir -p "$datadir"

prog=run-before-after.sh
# shellcheck source=bench/lib.sh
. "$srcdir/bench/lib.sh"

plain=$(gen "perf-$(count "$samples")-khost" --samples "$samples" --kernel-build-id host)
cg=$(gen "perf-$(count "$samples")-g$depth-khost" --samples "$samples" --callchain-depth "$depth" \
	--kernel-build-id host)

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

cases=(
	"report, no callchains|report --stdio -i $plain"
	"report -g, children|report --stdio -i $cg"
	"report -g, --no-children|report --stdio --no-children -i $cg"
	"script, no callchains|script -i $plain"
	"dump, callchains|dump -i $cg"
)

echo "| command ($(count "$samples") samples) | old s | new s | new/old | old CPU s | new CPU s | CPU new/old | old MiB | new MiB | same output |"
echo "|---|---|---|---|---|---|---|---|---|---|"
for c in "${cases[@]}"; do
	label=${c%%|*} args=${c#*|}
	rm -f "$tmp"/old.t "$tmp"/new.t
	# shellcheck disable=SC2086
	"$old" $args >"$tmp/old.out" 2>/dev/null || true
	# shellcheck disable=SC2086
	"$new" $args >"$tmp/new.out" 2>/dev/null || true
	same=yes
	cmp -s "$tmp/old.out" "$tmp/new.out" || same=**NO**
	for ((i = 0; i < runs; i++)); do
		echo "$prog: $label, run $((i + 1))/$runs" >&2
		# shellcheck disable=SC2086
		measure "$tmp/old.t" "$old" $args || true
		# shellcheck disable=SC2086
		measure "$tmp/new.t" "$new" $args || true
	done
	ot=$(awk '{ print $1 }' "$tmp/old.t" | median) nt=$(awk '{ print $1 }' "$tmp/new.t" | median)
	om=$(awk '{ print $2 / 1024 }' "$tmp/old.t" | median) nm=$(awk '{ print $2 / 1024 }' "$tmp/new.t" | median)
	oc=$(awk '{ print $3 }' "$tmp/old.t" | median) nc=$(awk '{ print $3 }' "$tmp/new.t" | median)
	ratio=$(awk -v a="$ot" -v b="$nt" 'BEGIN { printf "%.2f", b / a }')
	cratio=$(awk -v a="$oc" -v b="$nc" 'BEGIN { if (a > 0) printf "%.2f", b / a; else print "-" }')
	printf '| %s | %s | %s | %s | %s | %s | %s | %.0f | %.0f | %s |\n' "$label" "$ot" "$nt" "$ratio" \
		"$oc" "$nc" "$cratio" "$om" "$nm" "$same"
done

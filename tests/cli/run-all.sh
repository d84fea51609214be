#!/bin/bash
# run-all.sh - run the CLI tests without meson (meson test --suite cli does
# the same with parallelism and logs).
#
#   tests/cli/run-all.sh [-v] [BUILDDIR] [PATTERN]
#
# BUILDDIR defaults to build (relative to the source root); PATTERN selects
# scripts by glob (default t[0-9]*), e.g. 't1*' or 't0000-help'.
# -v shows each test's output. Exit status: 0 if no test failed.
set -u -o pipefail

verbose=
if [ "${1:-}" = -v ]; then
	verbose=1
	shift
fi
srcdir=$(cd "$(dirname "$0")/../.." && pwd)
builddir=${1:-build}
pattern=${2:-t[0-9]*}
case $builddir in /*) ;; *) builddir=$srcdir/$builddir ;; esac

export SAMPO_SRCDIR=$srcdir SAMPO_BUILDDIR=$builddir
export SAMPO=${SAMPO:-$builddir/tools/sampo/sampo}
if [ -z "${SAMPO_SHARED:-}" ] && [ -d "$srcdir/../shared" ]; then
	SAMPO_SHARED=$(cd "$srcdir/../shared" && pwd -P)
fi
export SAMPO_SHARED=${SAMPO_SHARED:-}
export PERF=${PERF-$(command -v perf || true)}
export LC_ALL=C

[ -x "$SAMPO" ] || { echo "run-all: no sampo at $SAMPO (make build first)" >&2; exit 1; }

pass=0 fail=0 skip=0 failed=
out=$(mktemp)
trap 'rm -f "$out"' EXIT
for t in "$srcdir"/tests/cli/$pattern.sh; do
	[ -f "$t" ] || continue
	name=$(basename "$t" .sh)
	rc=0
	bash "$t" >"$out" 2>&1 || rc=$?
	case $rc in
	0) pass=$((pass + 1)); status=ok ;;
	77) skip=$((skip + 1)); status=SKIP ;;
	*) fail=$((fail + 1)); status=FAIL; failed="$failed $name" ;;
	esac
	printf '%-4s %s\n' "$status" "$name"
	if [ -n "$verbose" ] || [ "$status" = FAIL ]; then
		sed 's/^/    /' "$out"
	fi
done
echo "$pass passed, $fail failed, $skip skipped${failed:+ (failed:$failed)}"
[ "$fail" -eq 0 ]

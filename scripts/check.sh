#!/bin/bash
# check.sh - the body of `make check`: every test in a normal build, then
# again under AddressSanitizer + UndefinedBehaviorSanitizer, then a few seconds
# of each libFuzzer target, then a summary whose last line is
# "N passed, N failed" (sum over the three runs).
#
# Environment: BUILDDIR (default build), ASANDIR (default build-asan),
# SANITIZE_CC (compiler of the sanitizer build, default gcc: clang 14 works too),
# FUZZDIR (default build-fuzz), FUZZ_CC (default clang), FUZZ_SMOKE_SECONDS
# (per fuzz target, read when build-fuzz is first configured; default 5).
# Exit status: 0 if every test passed (skips are fine).
set -u -o pipefail

cd "$(dirname "$0")/.."
builddir=${BUILDDIR:-build}
asandir=${ASANDIR:-build-asan}
fuzzdir=${FUZZDIR:-build-fuzz}
summary=$builddir/sampo-check-summary
start=$(date +%s)

export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1
# libtraceevent's own leaks on malformed event formats are not ours (tests/lsan.supp)
export LSAN_OPTIONS=suppressions=$PWD/tests/lsan.supp:print_suppressions=0
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1

step() {
	echo
	echo "==> $*"
}

setup_failed() {
	mkdir -p "$1"
	echo "0 1 0" >"$1/sampo-test-counts"
	echo "$2: configure failed ($1/meson-logs/meson-log.txt)" >"$1/sampo-failed-tests"
	echo "$2: configure failed"
}

step "normal build ($builddir)"
rm -f "$builddir/sampo-test-counts"
if scripts/setup-build.sh "$builddir"; then
	scripts/run-tests.sh "$builddir" "normal build" --setup full
else
	setup_failed "$builddir" "normal build"
fi

step "sanitizer build ($asandir: address,undefined)"
rm -f "$asandir/sampo-test-counts"
if CC=${SANITIZE_CC:-gcc} scripts/setup-build.sh "$asandir" \
	-Db_sanitize=address,undefined -Db_lundef=false; then
	scripts/run-tests.sh "$asandir" "sanitizer build" --timeout-multiplier 3
else
	setup_failed "$asandir" "sanitizer build"
fi

# A few seconds of libFuzzer on every target (suite 'fuzz'); long runs: make fuzz-run
step "fuzz build ($fuzzdir: clang, libFuzzer, address,undefined; ${FUZZ_SMOKE_SECONDS:-5} s per target)"
rm -f "$fuzzdir/sampo-test-counts"
if CC=${FUZZ_CC:-clang} scripts/setup-build.sh "$fuzzdir" -Dfuzz=true -Dtests=false \
	-Db_sanitize=address,undefined -Db_lundef=false; then
	scripts/run-tests.sh "$fuzzdir" "fuzz smoke"
else
	setup_failed "$fuzzdir" "fuzz build"
fi

passed=0 failed=0 skipped=0
for d in "$builddir" "$asandir" "$fuzzdir"; do
	read -r p f s <"$d/sampo-test-counts" || { p=0 f=1 s=0; }
	passed=$((passed + p))
	failed=$((failed + f))
	skipped=$((skipped + s))
done

mkdir -p "$builddir"
echo "$passed $failed $skipped" >"$summary"
echo
echo "==> summary ($(($(date +%s) - start)) s)"
for d in "$builddir" "$asandir" "$fuzzdir"; do
	read -r p f s <"$d/sampo-test-counts"
	printf '    %-12s %3d passed, %d failed, %d skipped\n' "$d" "$p" "$f" "$s"
done
if [ "$failed" -ne 0 ]; then
	for d in "$builddir" "$asandir" "$fuzzdir"; do
		[ -r "$d/sampo-failed-tests" ] && sed 's/^/    /' "$d/sampo-failed-tests"
	done
	echo "    the whole logs: <builddir>/meson-logs/testlog*.txt"
fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]

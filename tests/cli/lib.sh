# shellcheck shell=bash
# lib.sh - helpers for the CLI tests (tests/cli/tNNNN-<command>-<detail>.sh)
#
# A test script looks like this:
#
#	#!/bin/bash
#	# t1000-dump-basic: sampo dump prints every record of the callchain fixture
#	. "$(dirname "$0")/lib.sh"
#
#	f=$(fixture b-callchain-fp/perf.data)	# skips the test if missing
#	run_sampo dump -i "$f" >"$tmpdir/out"
#	compare_golden "$tmpdir/out"		# against expected/t1000-dump-basic.out
#	pass
#
# Environment (set by meson, see tests/meson.build; defaults make a script
# runnable by hand from the source tree after `make build`):
#	SAMPO		the sampo binary
#	SAMPO_SHARED	the shared directory (fixtures in $SAMPO_SHARED/fixtures/perf-6.1)
#	SAMPO_SRCDIR	the source root
#	SAMPO_BUILDDIR	the build directory
#	PERF		the perf binary, or empty when perf is not installed
#	SAMPO_UPDATE_GOLDEN=1	compare_* rewrite the golden file instead of failing
#
# Exit status: 0 pass, 1 fail, 77 skip (meson reports SKIP).
# Every helper that fails calls die, so scripts need no error handling of
# their own; the script runs with "set -e -u -o pipefail".

set -e -u -o pipefail

test_name=$(basename "$0" .sh)
: "${SAMPO_SRCDIR:=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}"
: "${SAMPO_BUILDDIR:=$SAMPO_SRCDIR/build}"
: "${SAMPO:=$SAMPO_BUILDDIR/tools/sampo/sampo}"
if [ -z "${SAMPO_SHARED:-}" ] && [ -d "$SAMPO_SRCDIR/../shared" ]; then
	SAMPO_SHARED=$(cd "$SAMPO_SRCDIR/../shared" && pwd)
fi
: "${SAMPO_SHARED:=}"
: "${PERF=$(command -v perf || true)}"
: "${SAMPO_UPDATE_GOLDEN:=}"
export SAMPO SAMPO_SHARED SAMPO_SRCDIR SAMPO_BUILDDIR PERF LC_ALL=C
# Debian's profile.d may set DEBUGINFOD_URLS: no test asks a server it did not start itself
unset DEBUGINFOD_URLS

expected_dir=$SAMPO_SRCDIR/tests/cli/expected

# A scratch directory, removed when the script exits (kept with SAMPO_KEEP_TMP=1)
tmpdir=$(mktemp -d "${TMPDIR:-/tmp}/sampo-$test_name.XXXXXX")
cleanup_tmpdir() {
	if [ -z "${SAMPO_KEEP_TMP:-}" ]; then
		rm -rf "$tmpdir"
	else
		echo "# kept $tmpdir" >&2
	fi
}
trap cleanup_tmpdir EXIT

# A HOME of the test's own: perf and sampo keep their build-id cache in
# ~/.debug, so a test that records would otherwise leave entries in the
# user's that a later test, or the next run, finds (CI's fresh machine and a
# developer's would then see different files); what a test needs there, it
# puts there
export HOME=$tmpdir/.home
mkdir -p "$HOME"
unset PERF_BUILDID_DIR SAMPO_BUILDID_DIR

# The test's own stderr, kept apart: die and skip write there, so that their
# line is seen even when they run inside a command whose stderr goes elsewhere
# ("run_sampo ... 2>/dev/null" failing used to exit 1 without a word)
exec {test_stderr}>&2

# die MESSAGE...: fail the test
die() {
	echo "FAIL $test_name: $*" >&"$test_stderr"
	exit 1
}

# skip REASON...: skip the test (exit 77)
skip() {
	echo "SKIP $test_name: $*" >&"$test_stderr"
	exit 77
}

# pass: end the test successfully
pass() {
	echo "ok $test_name"
	exit 0
}

# say MESSAGE...: progress note on stderr (shown by meson test -v)
say() {
	echo "# $*" >&2
}

# fixtures_dir: print the perf 6.1 fixtures directory; skip if missing
fixtures_dir() {
	local d=${SAMPO_SHARED:+$SAMPO_SHARED/fixtures/perf-6.1}
	[ -n "$d" ] && [ -d "$d" ] || skip "no fixtures (SAMPO_SHARED='${SAMPO_SHARED:-}')"
	echo "$d"
}

# fixture_cache DIR: the perf 6.1 fixtures' symbols, as perf had them when it
# wrote their outputs: b-callchain-fp's perf archive unpacked into DIR (a
# build-id cache: set PERF_BUILDID_DIR or HOME to use it), $kallsyms its kernel
# snapshot, and $tmpdir/symfs/tmp/pfx/burn for the fixtures without a build-id
# table (see fixture_extra)
fixture_cache() {
	local d
	d=$(fixtures_dir) || exit $?
	mkdir -p "$1" "$tmpdir/symfs/tmp/pfx"
	tar xjf "$d/b-callchain-fp/perf.data.tar.bz2" -C "$1" || die "cannot unpack b-callchain-fp's archive"
	kallsyms="$1/[kernel.kallsyms]/4a5a9b0affb66c437abcd455d2738af879985fa9/kallsyms"
	[ -f "$kallsyms" ] || die "no kallsyms snapshot in b-callchain-fp's archive"
	cp "$d/burn" "$tmpdir/symfs/tmp/pfx/burn"
}

# fixture_extra NAME: in the array $extra, the options fixture NAME needs for
# perf's symbols after fixture_cache: d-* and e-* have no build-id table, and
# perf used the recorded path and the running kernel of their recording
fixture_extra() {
	extra=()
	case $1 in
	d-* | e-*) extra=(--symfs "$tmpdir/symfs" --kallsyms "$kallsyms") ;;
	esac
}

# fixture REL: print the path of one fixture file; skip if missing.
# f=$(fixture REL) skips the whole script: the subshell exits 77 and set -e
# propagates that status.
fixture() {
	local d f
	d=$(fixtures_dir) || exit $?
	f=$d/$1
	[ -e "$f" ] || skip "no fixture '$1'"
	echo "$f"
}

# need_perf: skip unless perf is installed
need_perf() {
	[ -n "${PERF:-}" ] && [ -x "$PERF" ] || skip "perf not installed"
}

# need_perf_record: skip unless perf can record here (perf_event_paranoid, containers)
need_perf_record() {
	need_perf
	"$PERF" record -q -e cpu-clock -o "$tmpdir/.probe.data" -- true >/dev/null 2>&1 ||
		skip "perf cannot record here"
	rm -f "$tmpdir/.probe.data"
}

# need_cmd NAME...: skip unless each program is installed (cc, xz, ...)
need_cmd() {
	local c
	for c in "$@"; do
		command -v "$c" >/dev/null 2>&1 || skip "'$c' not installed"
	done
}

# need_browser: the browser tests' tools: Debian's chromium (scripts/install-deps.sh
# installs it) and tests/browser's npm packages (installed here with `npm ci` when
# missing, as `make check`'s set-up does). Missing tools fail the test: a browser
# test never skips silently. SAMPO_CHROMIUM names another chromium binary.
need_browser() {
	[ -x "${SAMPO_CHROMIUM:-/usr/bin/chromium}" ] ||
		die "no chromium at ${SAMPO_CHROMIUM:-/usr/bin/chromium} (scripts/install-deps.sh installs it)"
	command -v node >/dev/null 2>&1 || die "no node (scripts/install-deps.sh installs nodejs)"
	"$SAMPO_SRCDIR/scripts/install-browser-deps.sh" >&2 ||
		die "cannot install tests/browser's npm packages (scripts/install-browser-deps.sh)"
}

# run_browser SCRIPT ARGS...: run tests/browser/SCRIPT with node; fail the test unless it passes
run_browser() {
	local rc=0 script=$1
	shift
	node "$SAMPO_SRCDIR/tests/browser/$script" "$@" >&2 || rc=$?
	[ "$rc" -eq 0 ] || die "tests/browser/$script $* failed ($rc)"
}

# limit_memory KB: `ulimit -v KB` for what this (sub)shell runs next, except
# in a sanitizer build, whose shadow memory makes a virtual memory limit
# meaningless (the normal build checks the bound; the sanitizers check the rest)
limit_memory() {
	case "$(ldd "$SAMPO" 2>/dev/null)" in
	*libasan*) ;;
	*) ulimit -v "$1" ;;
	esac
}

# run_sampo ARGS...: run sampo; fail the test unless it exits 0
run_sampo() {
	local rc=0
	"$SAMPO" "$@" || rc=$?
	[ "$rc" -eq 0 ] || die "'sampo $*' exited with $rc"
}

# expect_status CODE ARGS...: run sampo, fail unless it exits with CODE.
# stdout and stderr go to $tmpdir/stdout and $tmpdir/stderr.
expect_status() {
	local want=$1 rc=0
	shift
	"$SAMPO" "$@" >"$tmpdir/stdout" 2>"$tmpdir/stderr" || rc=$?
	if [ "$rc" -ne "$want" ]; then
		sed 's/^/# stderr: /' "$tmpdir/stderr" >&2
		die "'sampo $*' exited with $rc, expected $want"
	fi
}

# compare_files EXPECTED ACTUAL: fail with a unified diff if they differ.
# With SAMPO_UPDATE_GOLDEN=1 and EXPECTED under tests/cli/expected/, copy
# ACTUAL over EXPECTED instead.
compare_files() {
	local expected=$1 actual=$2
	if [ -n "$SAMPO_UPDATE_GOLDEN" ] && [[ "$expected" == "$expected_dir"/* ]]; then
		mkdir -p "$(dirname "$expected")"
		cp "$actual" "$expected"
		say "updated ${expected#"$SAMPO_SRCDIR"/}"
		return 0
	fi
	[ -e "$expected" ] || die "missing golden file '$expected' (run with SAMPO_UPDATE_GOLDEN=1)"
	if ! diff -u "$expected" "$actual" >"$tmpdir/.diff"; then
		cat "$tmpdir/.diff"
		die "output differs from '${expected#"$SAMPO_SRCDIR"/}'"
	fi
}

# compare_golden ACTUAL [NAME]: compare with tests/cli/expected/NAME
# (default: <test name>.out)
compare_golden() {
	compare_files "$expected_dir/${2:-$test_name.out}" "$1"
}

# normalize FILE: replace unstable text (the fixture and tmp paths) in place
normalize() {
	local f=$1
	sed -i -e "s|$tmpdir|TMPDIR|g" \
		${SAMPO_SHARED:+-e "s|$SAMPO_SHARED/fixtures/perf-6.1|FIXTURES|g"} \
		-e "s|$SAMPO_SRCDIR|SRCDIR|g" "$f"
}

[ -x "$SAMPO" ] || die "no sampo binary at '$SAMPO' (build first)"

# graph_ties_only WANT OUT: true when two `report --stdio` texts differ only
# in the order of call graph branches of equal weight, which perf 6.1 orders
# by the heap address of their DSOs (tests/cli/graph-canon.py)
# (a third argument, --rows, also forgives the order of rows of equal
# percentages: see graph-canon.py for the one place that may use it)
graph_ties_only() {
	command -v python3 >/dev/null || return 1
	python3 "$SAMPO_SRCDIR/tests/cli/graph-canon.py" ${3:-} <"$1" >"$1.canon" &&
		python3 "$SAMPO_SRCDIR/tests/cli/graph-canon.py" ${3:-} <"$2" >"$2.canon" &&
		cmp -s "$1.canon" "$2.canon"
}

# perf_untip: perf report's text on stdin without its closing tip ("#",
# "# (Tip: ...)", "#"), which perf picks at random; a report with no rows has none
perf_untip() {
	awk '{ l[NR] = $0 } END { n = NR; if (n >= 3 && l[n-1] ~ /^# \(Tip: /) n -= 3
		for (i = 1; i <= n; i++) print l[i] }'
}

# compare_report WANT GOT WHAT: a `report --stdio` text against perf's; a
# difference other than tied graph branches in another order (graph_ties_only)
# is printed and counted in $fails, so that a test reports every difference
# before it dies
compare_report() {
	if diff -u "$1" "$2" >"$tmpdir/diff"; then
		return 0
	fi
	if graph_ties_only "$1" "$2"; then
		echo "# $3: tied branches in another order than perf's" >&2
		return 0
	fi
	echo "# $3: sampo differs from perf" >&2
	head -30 "$tmpdir/diff" >&2
	fails=$((${fails:-0} + 1))
}

# shellcheck shell=bash
# lib-wild.sh - helpers for the wild-corpus tests (t75xx), sourced after lib.sh
#
# wild_file NAME: the path of one file of ../shared/fixtures/wild/files; skips when missing
wild_file() {
	local d=${SAMPO_SHARED:+$SAMPO_SHARED/fixtures/wild/files}
	[ -n "$d" ] && [ -e "$d/$1" ] || skip "no wild file '$1'"
	echo "$d/$1"
}

# perf_foreign ARGS...: perf 6.1 reading a foreign recording as it should: -f (the
# file is not ours), no symbols from this machine (an empty HOME, --kallsyms
# /dev/null and an empty --symfs where the command takes them: perf would
# otherwise name the samples from this machine's kernel and binaries), stderr dropped
perf_foreign() {
	local cmd=$1
	shift
	mkdir -p "$tmpdir/wild-home" "$tmpdir/wild-symfs"
	case $cmd in
	report | script)
		HOME=$tmpdir/wild-home "$PERF" "$cmd" -f --kallsyms /dev/null \
			--symfs "$tmpdir/wild-symfs" "$@" 2>/dev/null ;;
	*) HOME=$tmpdir/wild-home "$PERF" "$cmd" -f "$@" 2>/dev/null ;;
	esac
}

# sampo_wild ARGS...: sampo with the same empty HOME; fails the test unless it exits 0
sampo_wild() {
	mkdir -p "$tmpdir/wild-home"
	HOME=$tmpdir/wild-home run_sampo "$@"
}

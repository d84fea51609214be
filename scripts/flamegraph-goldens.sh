#!/bin/bash
# flamegraph-goldens.sh - make the golden files of t6204 (sampo script
# --folded=flamegraph) with the real stackcollapse-perf.pl
#
# usage: scripts/flamegraph-goldens.sh FLAMEGRAPH_DIR [SHARED_DIR]
#
# FLAMEGRAPH_DIR is a checkout of Brendan Gregg's FlameGraph repository (the
# goldens in git were made at the commit named in FLAMEGRAPH-COMMIT there);
# SHARED_DIR defaults to ../shared beside this tree. Needs perf 6.1 (perf in
# PATH or $PERF) and perl. For each file and option set of
# tests/cli/expected/t6204-script-folded-flamegraph/sets.tsv it runs
#
#	perf script -f -i FILE [--kallsyms K] [-F +pid] | stackcollapse-perf.pl OPTIONS
#
# (-F +pid for --pid and --tid, as the Perl script's usage asks) and keeps
# the output gzipped; and stackcollapse-perf.pl on each hand-made text of
# text/*.txt. The test compares sampo's output with these files byte for
# byte. Nothing here runs sampo: the goldens come from the consumer tool.
set -euo pipefail

fg=${1:?usage: $0 FLAMEGRAPH_DIR [SHARED_DIR]}
src=$(cd "$(dirname "$0")/.." && pwd)
shared=${2:-$src/../shared}
pl=$fg/stackcollapse-perf.pl
perf=${PERF:-perf}
out=$src/tests/cli/expected/t6204-script-folded-flamegraph
fixtures=$shared/fixtures/perf-6.1
wild=$shared/fixtures/wild/files

[ -f "$pl" ] || { echo "$0: no stackcollapse-perf.pl in '$fg'" >&2; exit 1; }
command -v perl >/dev/null || { echo "$0: perl is needed" >&2; exit 1; }
"$perf" version | grep -q '^perf version 6\.1\.' ||
	{ echo "$0: perf 6.1 is needed (PERF=...)" >&2; exit 1; }
commit=$(git -C "$fg" rev-parse HEAD 2>/dev/null || echo unknown)
[ "$commit" != unknown ] || echo "$0: warning: '$fg' is not a git checkout" >&2

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# the fixtures' kernel and burn from the build-id cache that perf archive made
export HOME=$tmp/home
unset PERF_BUILDID_DIR
mkdir -p "$HOME/.debug" "$tmp/empty"
tar -xjf "$fixtures/b-callchain-fp/perf.data.tar.bz2" -C "$HOME/.debug"
kallsyms="$HOME/.debug/[kernel.kallsyms]/4a5a9b0affb66c437abcd455d2738af879985fa9/kallsyms"

mapfile -t sets < <(grep -v '^#' "$out/sets.tsv")

# collapse NAME FILE HOME PERF_ARGS...: one golden per option set
collapse() {
	local name=$1 file=$2 home=$3 line set plo F
	shift 3
	for line in "${sets[@]}"; do
		IFS=$'\t' read -r set plo _ <<<"$line"
		[ "$plo" = - ] && plo=
		F=()
		case " $plo " in *" --pid "* | *" --tid "*) F=(-F +pid) ;; esac
		HOME=$home "$perf" script -f -i "$file" "$@" "${F[@]}" 2>/dev/null >"$tmp/text"
		# shellcheck disable=SC2086 # the options are words
		perl "$pl" $plo "$tmp/text" 2>/dev/null | gzip -n -9 >"$out/$name.$set.folded.gz"
	done
}

# the perf 6.1 fixtures: with call chains, and one without (nothing folded)
for name in b-callchain-fp d-pipe-mode e-compressed-zstd c-multi-event; do
	extra=()
	case $name in d-pipe-mode | e-compressed-zstd) extra=(--kallsyms "$kallsyms") ;; esac
	collapse "$name" "$fixtures/$name/perf.data" "$HOME" "${extra[@]}"
done
# wild files with call chains that perf 6.1 reads, in an empty HOME, and
# prints as sampo does (not the perf 3.4 ones: perf names their vdso frames
# from this machine's vdso: docs/format-folded.md)
for name in pdc__perf.data.callgraph-3.8 pdc__perf.data.callgraph_and_branch-3.8 \
	pdc__with-callchain.perf.data pp__vector_static_gcc_perf.data; do
	collapse "$name" "$wild/$name" "$tmp/empty"
done
# the hand-made texts, each option set
for t in "$out"/text/*.txt; do
	for line in "${sets[@]}"; do
		IFS=$'\t' read -r set plo _ <<<"$line"
		[ "$plo" = - ] && plo=
		# shellcheck disable=SC2086
		perl "$pl" $plo "$t" 2>/dev/null >"${t%.txt}.$set.folded"
	done
done
printf '%s\n' "$commit" >"$out/FLAMEGRAPH-COMMIT"
echo "goldens made with FlameGraph $commit in $out"

#!/bin/bash
# lint.sh TOOL BUILDDIR - run one static analyser on sampo's C sources and
# fail on any finding that is not in the reviewed baseline.
#
#   TOOL: cppcheck | clang-tidy
#   BUILDDIR: a configured build directory (its compile_commands.json gives
#             the flags and include paths of every file)
#
# Each finding is reduced to "TOOL|FILE|CHECK|SOURCE LINE" (the text of the
# flagged line, blanks squeezed), not a line number, so that edits elsewhere in a
# file do not turn a reviewed finding into a "new" one. scripts/lint-baseline.txt
# lists the reviewed findings, each after a comment saying why it is not a defect
# (almost all are the analysers not following an error path through a function of
# another file). Anything else fails: fix it, or, if it is a false positive, add
# it to the baseline with its reason.
#
# clang-tidy's checks are in .clang-tidy at the top of the tree; cppcheck runs
# its warning, portability and performance classes. Both read lib/, tools/ and
# (cppcheck only, being fast) the tests' C sources.
# Exit status: 0 clean, 1 new findings, 77 tool missing (a skip in meson).
set -u -o pipefail

tool=$1
builddir=$2
srcdir=$(cd "$(dirname "$0")/.." && pwd)
baseline=$srcdir/scripts/lint-baseline.txt
db=$builddir/compile_commands.json
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

[ -r "$db" ] || { echo "lint: $db not found: configure $builddir first" >&2; exit 1; }

# FILE:LINE:CHECK lines -> TOOL|FILE|CHECK|normalized source text
normalize() {
	while IFS=: read -r file line check; do
		file=${file#"$srcdir"/}
		case $file in
		/*|build*/*) continue ;; # system headers, generated sources
		esac
		text=$(sed -n "${line}p" "$srcdir/$file" 2>/dev/null | tr -s ' \t' ' ' | sed 's/^ //; s/ $//')
		printf '%s|%s|%s|%s\n' "$tool" "$file" "$check" "$text"
	done
}

case $tool in
cppcheck)
	command -v cppcheck >/dev/null || { echo "lint: cppcheck not installed (scripts/install-deps.sh)"; exit 77; }
	# --project reads the flags of every file; the unit tests and tools are linted too
	cppcheck --project="$db" --enable=warning,portability,performance --inline-suppr \
		--quiet -j2 --template='{file}:{line}:{id}' --suppress=missingIncludeSystem \
		-i"$srcdir/build" 2>"$out/raw" >/dev/null
	grep -E '^[^ ]+:[0-9]+:[A-Za-z]+$' "$out/raw" | normalize | sort -u >"$out/found"
	;;
clang-tidy)
	tidy=$(command -v clang-tidy || command -v clang-tidy-14) ||
		{ echo "lint: clang-tidy not installed (scripts/install-deps.sh)"; exit 77; }
	files=$(cd "$srcdir" && ls lib/*.c tools/sampo/*.c)
	# two at a time: the machine has two cores and clang-tidy is slow per file
	(cd "$srcdir" && printf '%s\n' $files | xargs -P2 -n4 "$tidy" -p "$builddir" --quiet \
		2>/dev/null) >"$out/raw"
	sed -nE 's/^([^ :]+):([0-9]+):[0-9]+: (warning|error): .* \[([A-Za-z0-9.,-]+)\]$/\1:\2:\4/p' \
		"$out/raw" | sed -E 's#^([^:]*/)?\.\./##' | normalize | sort -u >"$out/found"
	;;
*)
	echo "usage: lint.sh cppcheck|clang-tidy BUILDDIR" >&2
	exit 2
	;;
esac

grep -v -e '^#' -e '^$' "$baseline" | sort -u >"$out/known"
comm -23 "$out/found" "$out/known" >"$out/new"
nfound=$(wc -l <"$out/found")
if [ -s "$out/new" ]; then
	# the analyser's own report first, the verdict last: meson shows a log's tail
	echo "lint: the $tool output:"
	grep -E 'warning|error|: note|^[^ ]+:[0-9]+:' "$out/raw" | head -300
	echo "lint: $tool: $(wc -l <"$out/new") new finding(s) (of $nfound); fix them or review them into scripts/lint-baseline.txt:"
	while IFS='|' read -r _ file check text; do
		echo "  $file: [$check] $text"
	done <"$out/new"
	exit 1
fi
echo "lint: $tool: nothing new ($nfound reviewed finding(s) in the baseline)"

#!/bin/bash
# t7506-perffile-v1: perf's first file format (magic PERFFILE, the second's layout,
# its byte order told by the attr size) is read: header, dump, buildid-list,
# report and script as perf prints them
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-wild.sh"

f=$(wild_file hs__perf.data.true.v1)
export TZ=UTC
sampo_wild header -i "$f" >"$tmpdir/header"
grep -q '^# header version : 0$' "$tmpdir/header" || die "not header version 0 (perf's VERSION_1)"
grep -q '^# data size      : 9544$' "$tmpdir/header" || die "data size: $(cat "$tmpdir/header")"
sampo_wild dump -i "$f" >"$tmpdir/dump"
# first principles: 80 MMAP, 2 COMM and 2 EXIT records, the first the kernel's map
grep -q '^            MMAP events:         80' "$tmpdir/dump" || die "not 80 MMAP records"
grep -q '^0 0x110 \[0x50\]: PERF_RECORD_MMAP -1/0: .*\[kernel.kallsyms\]_text$' "$tmpdir/dump" ||
	die "no kernel map record at 0x110"
sampo_wild report --stdio -i "$f" >"$tmpdir/report" 2>"$tmpdir/report.err"
grep -q "has no samples" "$tmpdir/report.err" || die "report: $(cat "$tmpdir/report.err")"
# a v2 file of the same program reads as before (header version 1)
g=$(wild_file hs__perf.data.true.v2)
sampo_wild header -i "$g" | grep -q '^# header version : 1$' || die "v2: not header version 1"

if [ -n "${PERF:-}" ] && [ -x "$PERF" ]; then
	for cmd in "header -I:report --header-only -I" "dump:report -D" "buildid-list:buildid-list" \
		"report --stdio:report --stdio" "script:script"; do
		mine=${cmd%%:*} theirs=${cmd#*:}
		# shellcheck disable=SC2086 # the words of the commands
		perf_foreign $theirs -i "$f" >"$tmpdir/want"
		# shellcheck disable=SC2086
		sampo_wild $mine -i "$f" >"$tmpdir/got" 2>/dev/null
		compare_files "$tmpdir/want" "$tmpdir/got"
	done
fi
pass

#!/bin/bash
# wild-compare.sh - compare sampo with perf on the wild corpus (issue 12)
#
# usage: wild-compare.sh [-s SAMPO] [-p PERF] [-n "PERF612 CMD"] [-o OUTDIR]
#                        [-t SECONDS] [-c "dump header buildid report script"] [FILE...]
#
# For every file (default: ../shared/fixtures/wild/files/*), runs sampo and the
# reference perf for each command and prints one line per file and command:
#
#   file  ref  cmd  ref_lines  sampo_lines  common  agree%  status
#
# then one total per command: the lines that agree over all files / the lines
# of the longer side, summed. "common" is the length of the longest common
# subsequence of the two outputs (GNU diff), so a line that moved counts once as
# missing; agree% = common / max(ref_lines, sampo_lines).
#
# The reference is perf 6.1 (-p, default `perf`), or perf 6.12 (-n, the command
# scripts/get-perf612.sh prints) for the files perf 6.1 refuses: those that
# perf >= 6.3 wrote ("incompatible file format") and the records it cannot
# process ("failed to process sample"), when 6.12 reads them. A file neither
# reads is compared with perf 6.1's output and marked perf-fails; it is left
# out of the totals (there is no reference to agree with).
#
# Commands compared (stdout only; both tools get the same -i path):
#   dump     sampo dump            perf report -D
#   header   sampo header -I       perf report --header-only -I
#   buildid  sampo buildid-list    perf buildid-list
#   report   sampo report --stdio  perf report --stdio
#   script   sampo script          perf script
# perf also gets -f (the files are not the caller's). Both run with HOME set to
# an empty directory and no PERF_BUILDID_DIR, so that neither finds symbols on
# this machine by accident, LC_ALL=C and TZ=UTC. For report and script perf
# also gets --kallsyms /dev/null and --symfs EMPTYDIR: without them it names the
# samples of these foreign recordings from this machine's kernel (pipe mode,
# files without a build-id table) and from binaries that only share a path
# (/bin/sleep, ...), which sampo rightly does not do; sampo runs without them,
# so a sampo that took this machine's symbols shows as a difference.
#
# Normalisations, the only ones (docs/wild-corpus.md says why):
#   report: perf's closing tip ("#", "# (Tip: ...)", "#") is dropped: it is
#           picked at random and sampo prints none.
#
# status: ok (identical), differ, or for sampo: crash (killed by a signal or a
# sanitizer report), hang (killed after -t seconds, default 60), error (exit
# non-zero while the reference printed something); perf-fails as above.
# Exit status: 0, or 2 when sampo crashed or hung on any file.
# With -o, each file's outputs stay in OUTDIR/<file>.<cmd>.{ref,sampo,err}.
set -u -o pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
sampo=${SAMPO:-$here/build/tools/sampo/sampo}
perf61=${PERF:-perf}
perf612=${PERF612:-}
outdir=
timeout_s=60
cmds="dump header buildid report script"
while getopts s:p:n:o:t:c: opt; do
	case $opt in
	s) sampo=$OPTARG ;;
	p) perf61=$OPTARG ;;
	n) perf612=$OPTARG ;;
	o) outdir=$OPTARG ;;
	t) timeout_s=$OPTARG ;;
	c) cmds=$OPTARG ;;
	*) sed -n '3,5p' "$0" >&2; exit 64 ;;
	esac
done
shift $((OPTIND - 1))

if [ $# -eq 0 ]; then
	wild=${SAMPO_SHARED:-$here/../shared}/fixtures/wild/files
	[ -d "$wild" ] || { echo "wild-compare: no $wild" >&2; exit 64; }
	set -- "$wild"/*
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/wild-compare.XXXXXX")
trap 'rm -rf "$work"' EXIT
[ -n "$outdir" ] || outdir=$work/out
mkdir -p "$outdir" "$work/home" "$work/symfs"
export HOME=$work/home LC_ALL=C TZ=UTC
unset PERF_BUILDID_DIR

# perf_args CMD: perf's arguments for one command
perf_args() {
	case $1 in
	dump) echo "report -D -f" ;;
	header) echo "report --header-only -I -f" ;;
	buildid) echo "buildid-list -f" ;;
	report) echo "report --stdio -f --kallsyms /dev/null --symfs $work/symfs" ;;
	script) echo "script -f --kallsyms /dev/null --symfs $work/symfs" ;;
	esac
}
sampo_args() {
	case $1 in
	dump) echo "dump" ;;
	header) echo "header -I" ;;
	buildid) echo "buildid-list" ;;
	report) echo "report --stdio" ;;
	script) echo "script" ;;
	esac
}

# run_timed OUT ERR CMD...: run with the timeout, print the exit status
run_timed() {
	local out=$1 err=$2 rc=0
	shift 2
	timeout -k 5 "$timeout_s" "$@" >"$out" 2>"$err" </dev/null || rc=$?
	echo "$rc"
}

# perf_refuses ERRFILE RC: does this perf run say it cannot read the file?
perf_refuses() {
	[ "$2" -ne 0 ] || grep -q -e 'incompatible file format' -e 'failed to process sample' \
		-e 'unsupported ABI' "$1"
}

# normalise CMD FILE: the documented normalisations of the reference
normalise() {
	case $1 in
	report)
		# perf's closing tip: "#", "# (Tip: ...)", "#" (sampo prints no tips)
		awk '{ l[NR] = $0 } END {
			n = NR
			if (n >= 3 && l[n] == "#" && l[n-1] ~ /^# \(Tip: / && l[n-2] == "#") n -= 3
			for (i = 1; i <= n; i++) print l[i]
		}' "$2" >"$2.n" && mv "$2.n" "$2"
		;;
	esac
}

declare -A tot_common tot_max tot_files tot_same
crashes=0
printf '%-56s %-4s %-8s %8s %8s %8s %7s %s\n' file ref cmd ref sampo common agree% status
for f in "$@"; do
	name=$(basename "$f")
	# which perf: 6.1 unless it refuses the file and 6.12 reads it
	ref=6.1
	refperf=$perf61
	rc=$(run_timed "$work/probe.out" "$work/probe.err" $perf61 report --stdio -f -i "$f")
	perf_fails=
	if perf_refuses "$work/probe.err" "$rc"; then
		perf_fails=1
		if [ -n "$perf612" ]; then
			rc=$(run_timed "$work/probe.out" "$work/probe.err" $perf612 report --stdio -f -i "$f")
			if ! perf_refuses "$work/probe.err" "$rc"; then
				ref=6.12
				refperf=$perf612
				perf_fails=
			fi
		fi
	fi
	for cmd in $cmds; do
		base=$outdir/$name.$cmd
		# shellcheck disable=SC2046 # the arguments are words
		prc=$(run_timed "$base.ref" "$base.referr" $refperf $(perf_args "$cmd") -i "$f")
		# perf read this file at the probe: an empty run may be perf's
		# accident (seen once in CI), so it gets a second try
		if [ ! -s "$base.ref" ]; then
			# shellcheck disable=SC2046
			prc=$(run_timed "$base.ref" "$base.referr" $refperf $(perf_args "$cmd") -i "$f")
		fi
		normalise "$cmd" "$base.ref"
		# shellcheck disable=SC2046
		src=$(run_timed "$base.sampo" "$base.err" "$sampo" $(sampo_args "$cmd") -i "$f")
		nref=$(wc -l <"$base.ref")
		nout=$(wc -l <"$base.sampo")
		missing=$(diff "$base.ref" "$base.sampo" | grep -c '^<' || true)
		common=$((nref - missing))
		max=$((nref > nout ? nref : nout))
		if [ "$max" -eq 0 ]; then pct=100.00; else
			pct=$(awk -v c="$common" -v m="$max" 'BEGIN { printf "%.2f", 100 * c / m }')
		fi
		status=differ
		cmp -s "$base.ref" "$base.sampo" && status=ok
		if [ "$src" -eq 124 ] || [ "$src" -eq 137 ]; then
			status=hang
			crashes=$((crashes + 1))
		elif [ "$src" -gt 128 ] || grep -q -e '^==[0-9]*==ERROR: ' -e 'runtime error: ' "$base.err"; then
			status=crash
			crashes=$((crashes + 1))
		elif [ "$src" -ne 0 ] && [ "$nref" -gt 0 ]; then
			status=error
		fi
		[ -n "$perf_fails" ] && [ "$status" != crash ] && [ "$status" != hang ] && status=perf-fails
		printf '%-56s %-4s %-8s %8d %8d %8d %7s %s\n' "$name" "$ref" "$cmd" "$nref" "$nout" "$common" "$pct" "$status"
		if [ -z "$perf_fails" ]; then
			tot_common[$cmd]=$((${tot_common[$cmd]:-0} + common))
			tot_max[$cmd]=$((${tot_max[$cmd]:-0} + max))
			tot_files[$cmd]=$((${tot_files[$cmd]:-0} + 1))
			[ "$status" = ok ] && tot_same[$cmd]=$((${tot_same[$cmd]:-0} + 1))
		fi
	done
done
echo
printf '%-8s %6s %10s %10s %8s %s\n' cmd files common lines agree% identical
for cmd in $cmds; do
	c=${tot_common[$cmd]:-0}
	m=${tot_max[$cmd]:-0}
	pct=$(awk -v c="$c" -v m="$m" 'BEGIN { printf "%.2f", m ? 100 * c / m : 100 }')
	printf 'TOTAL %-8s %6d %10d %10d %8s %d\n' "$cmd" "${tot_files[$cmd]:-0}" "$c" "$m" "$pct" "${tot_same[$cmd]:-0}"
done
echo "crashes+hangs $crashes"
[ "$crashes" -eq 0 ] || exit 2
exit 0

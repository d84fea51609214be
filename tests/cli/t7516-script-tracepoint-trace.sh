#!/bin/bash
# t7516-script-tracepoint-trace: tracepoint samples print perf's `trace` field,
# their fields formatted by the event's print format from the file's tracing
# data (libtraceevent, as perf), and a tracepoint is named "system:name" from
# the tracing data where the file has no event description (issue 12.6, 12.7):
# on the corpus's uprobe file and pipe, its sched_switch file with call chains,
# recordings made here (file and pipe, with and without call chains), and
# damaged tracing data (one warning naming it and the offset, the rest read)
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-wild.sh"

# perf 6.1's own lines for the uprobe recording (file, then pipe without EVENT_DESC)
f=$(wild_file pp__probe.data.file)
g=$(wild_file pp__probe.data.stream)
sampo_wild script -i "$f" >"$tmpdir/file" 2>/dev/null
echo '       untitled1 30594 [000] 13732.862216: probe_untitled1:main: (55d1db028560)' >"$tmpdir/want.file"
compare_files "$tmpdir/want.file" "$tmpdir/file"
sampo_wild script -i - <"$g" >"$tmpdir/pipe" 2>/dev/null
echo '       untitled1 30603 [005] 13780.586519: probe_untitled1:main: (55cc51d16560)' >"$tmpdir/want.pipe"
compare_files "$tmpdir/want.pipe" "$tmpdir/pipe"
# -F trace alone
sampo_wild script -F trace -i "$f" >"$tmpdir/trace" 2>/dev/null
[ "$(cat "$tmpdir/trace")" = "(55d1db028560)" ] || die "-F trace: $(cat "$tmpdir/trace")"
# the pipe's event named from the tracing data in report too
sampo_wild report --stdio -i - <"$g" >"$tmpdir/report" 2>/dev/null
grep -q "of event 'probe_untitled1:main'" "$tmpdir/report" ||
	die "report does not name the pipe's event: $(grep 'of event' "$tmpdir/report")"

# sched_switch with call chains beside cycles: the trace, then the chain
p=$(wild_file pp__parallel_static_gcc_perf.data.zstd)
sampo_wild script -i "$p" >"$tmpdir/par" 2>/dev/null
grep -q '^parallel_static 56092 \[017\]  3909.100226: sched:sched_switch: prev_comm=parallel_static prev_pid=56092 prev_prio=120 prev_state=D ==> next_comm=swapper/17 next_pid=0 next_prio=120$' \
	"$tmpdir/par" || die "no sched_switch line as perf prints it"

if [ -n "${PERF:-}" ] && [ -x "$PERF" ]; then
	for x in "$f" "$p"; do
		for fields in "" "-F trace" "-F comm,tid,event,trace" "-F +pid" "-F -cpu"; do
			# shellcheck disable=SC2086
			perf_foreign script $fields -i "$x" >"$tmpdir/want"
			# shellcheck disable=SC2086
			sampo_wild script $fields -i "$x" >"$tmpdir/got" 2>/dev/null
			compare_files "$tmpdir/want" "$tmpdir/got"
		done
	done
	perf_foreign script -i - <"$g" >"$tmpdir/want"
	compare_files "$tmpdir/want" "$tmpdir/pipe"
fi

# damaged tracing data: the header page's size (the u64 after "header_page\0")
# made past the end, in the pipe's record and in the file's feature section
damage() {
	python3 - "$1" "$2" <<'EOF'
import sys
b = bytearray(open(sys.argv[1], 'rb').read())
at = b.index(b'header_page\0') + 12
b[at:at + 8] = (0x7fffffff).to_bytes(8, 'little')
open(sys.argv[2], 'wb').write(b)
print(hex(at))
EOF
}
need_cmd python3
# (in the pipe the offset is counted in the record's data, which follow its 12 bytes)
at=$(damage "$g" "$tmpdir/bad.pipe")
start=$(python3 -c "import sys; print(open(sys.argv[1], 'rb').read().index(b'\\x17\\x08\\x44tracing'))" "$g")
at=$(printf '%#x' $((at - start)))
sampo_wild script -i - <"$tmpdir/bad.pipe" >"$tmpdir/bad.out" 2>"$tmpdir/bad.err"
[ "$(grep -c TRACING_DATA "$tmpdir/bad.err")" -eq 1 ] || die "not one warning: $(cat "$tmpdir/bad.err")"
grep -q "data of the TRACING_DATA record at offset 0x78: at byte $at: header page of 2147483647 bytes" \
	"$tmpdir/bad.err" || die "the warning does not say where: $(cat "$tmpdir/bad.err")"
grep -q '^       untitled1 30603 \[005\] 13780.586519: ' "$tmpdir/bad.out" ||
	die "the sample is not printed: $(cat "$tmpdir/bad.out")"
at=$(damage "$f" "$tmpdir/bad.data")
sampo_wild script -i "$tmpdir/bad.data" >"$tmpdir/bad.out" 2>"$tmpdir/bad.err"
grep -q "TRACING_DATA feature: at offset $at: header page of 2147483647 bytes" "$tmpdir/bad.err" ||
	die "the warning does not say where: $(cat "$tmpdir/bad.err")"
# the name is the file's EVENT_DESC's; the other features are read
grep -q ': probe_untitled1:main: *$' "$tmpdir/bad.out" || die "$(cat "$tmpdir/bad.out")"
sampo_wild header -i "$tmpdir/bad.data" 2>/dev/null | grep -q '^# hostname : ' ||
	die "the other features are not read"

# recordings made here: tracepoints with %ps fields (hrtimer_start's function),
# with and without call chains, in a file and a pipe
need_perf_record
"$PERF" record -q -e sched:sched_switch -o "$tmpdir/.tp" -- true >/dev/null 2>&1 ||
	skip "perf cannot record tracepoints here (no tracefs?)"
export HOME=$tmpdir/home
mkdir -p "$HOME"
for name in plain chain pipe; do
	opts=(-e sched:sched_switch -e sched:sched_process_exec -e timer:hrtimer_start)
	[ "$name" = plain ] || opts+=(-g)
	if [ "$name" = pipe ]; then
		env -u MALLOC_PERTURB_ "$PERF" record -q "${opts[@]}" -o - -- sleep 0.05 \
			>"$tmpdir/$name.data" 2>/dev/null
	else
		env -u MALLOC_PERTURB_ "$PERF" record -q "${opts[@]}" -o "$tmpdir/$name.data" \
			-- sleep 0.05 >/dev/null 2>&1
	fi
	in=$tmpdir/$name.data
	[ "$name" = pipe ] && in=-
	for fields in "" "-F trace" "-F comm,pid,tid,cpu,time,event,trace" "-G"; do
		# shellcheck disable=SC2086
		env -u MALLOC_PERTURB_ "$PERF" script $fields -i "$in" <"$tmpdir/$name.data" \
			>"$tmpdir/want" 2>/dev/null
		# shellcheck disable=SC2086
		run_sampo script $fields -i "$in" <"$tmpdir/$name.data" >"$tmpdir/got" 2>/dev/null
		grep -q 'sched:sched_switch: prev_comm=' "$tmpdir/got" || [ -n "$fields" ] ||
			die "$name: no sched_switch trace"
		compare_files "$tmpdir/want" "$tmpdir/got"
	done
done
pass

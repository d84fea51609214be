#!/bin/bash
# t3008-script-per-event-dump: script --per-event-dump writes each event's
# sample lines to INPUT.EVENT.dump beside the input, as perf 6.1 does: the
# same files with the same lines (a file for an event without samples too),
# the side-band lines on stdout, and perf's "[ perf script: Wrote ... ]" line
# per file at the end, in the events' order. Compared with perf on the
# fixtures and on wild files (perf 3.4 to 6.x, pipes, tracepoints, groups);
# the size in that line is the file's (perf's leaves out what it had not yet
# flushed). Beyond perf: a pipe's files are stdin.EVENT.dump (perf writes
# "(null).EVENT.dump"), a '/' of an event's name becomes '_' (perf cannot
# create "INPUT.cpu_core/cycles/.dump" and stops), and a link planted at a
# dump's name in a shared directory is not followed.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-wild.sh"
need_perf

dir=$(fixtures_dir)
export HOME=$tmpdir
fixture_cache "$HOME/.debug"
unset PERF_BUILDID_DIR
mkdir "$tmpdir/run"
cd "$tmpdir/run"

# compare_dumps NAME: the dumps in want/ and got/, and the stdout of each
compare_dumps() {
	local f
	[ -n "$(ls want)" ] || die "$1: perf wrote no dump"
	[ "$(ls want)" = "$(ls got)" ] || die "$1: perf wrote $(ls want | tr '\n' ' '), sampo $(ls got | tr '\n' ' ')"
	for f in want/*; do
		compare_files "$f" "got/${f#want/}"
	done
	# the sizes: sampo's are the files' own
	while read -r mb path; do
		[ "$mb" = "$(awk -v s="$(stat -c %s "got/$(basename "$path")")" 'BEGIN { printf "%.3f", s / 1048576 }')" ] ||
			die "$1: $path: $mb MB said, $(stat -c %s "got/$(basename "$path")") bytes written"
	done < <(sed -n 's/^\[ perf script: Wrote \([0-9.]*\) MB \(.*\) ([0-9]* samples) \]$/\1 \2/p' got.out)
	grep -q '^\[ perf script: Wrote ' got.out || die "$1: no 'Wrote' line"
	sed 's/Wrote [0-9.]* MB/Wrote MB/' want.out >want.norm
	sed 's/Wrote [0-9.]* MB/Wrote MB/' got.out >got.norm
	compare_files want.norm got.norm
}

# run_both NAME INPUT ARGS...: perf and sampo on the input (a link named in.data here)
run_both() {
	local name=$1 input=$2
	shift 2
	ln -sf "$input" in.data
	rm -rf want got ./*.dump
	mkdir want got
	"$PERF" script -i in.data "$@" --per-event-dump >want.out 2>/dev/null
	mv ./*.dump want/ 2>/dev/null || true
	run_sampo script -i in.data "$@" --per-event-dump >got.out
	mv ./*.dump got/ 2>/dev/null || true
	compare_dumps "$name"
}

run_both a-syswide-cpuclock "$dir/a-syswide-cpuclock/perf.data" # cpu-clock and an empty dummy:HG
run_both c-multi-event "$dir/c-multi-event/perf.data"
run_both c-multi-event-fields "$dir/c-multi-event/perf.data" -F comm,tid,time,event,ip,sym
run_both g-task-events "$dir/g-switch-namespaces-task/perf.data" --show-task-events --show-switch-events
run_both b-callchain "$dir/b-callchain-fp/perf.data" --stop-bt main

# wild files, read by perf as lib-wild.sh does (empty HOME, no symbols)
wild_both() {
	local f
	f=$(wild_file "$1")
	ln -sf "$f" in.data
	rm -rf want got ./*.dump
	mkdir -p want got "$tmpdir/wild-home" "$tmpdir/wild-symfs"
	HOME=$tmpdir/wild-home "$PERF" script -f --kallsyms /dev/null --symfs "$tmpdir/wild-symfs" \
		-i in.data --per-event-dump >want.out 2>/dev/null
	mv ./*.dump want/ 2>/dev/null || true
	HOME=$tmpdir/wild-home run_sampo script -i in.data --per-event-dump >got.out 2>/dev/null
	mv ./*.dump got/ 2>/dev/null || true
	compare_dumps "$1"
}
for f in pdc__perf.data.busy.1-3.8 pdc__perf.data.group_desc-4.14 pdc__perf.data.hw_and_sw-3.4 \
	pdc__perf.data.lost_samples-4.4 pdc__perf.data.weight_struct \
	pp__parallel_static_gcc_perf.data.zstd pdc__multi-event-single-process.perf.data; do
	wild_both "$f"
done

# a pipe: perf's files are "(null).EVENT.dump", sampo's stdin.EVENT.dump
for f in pdc__perf.data.piped.hw_and_sw-3.4 pdc__perf.data.piped.lost_samples-4.4; do
	f=$(wild_file "$f")
	rm -rf want got ./*.dump
	mkdir want got
	HOME=$tmpdir/wild-home "$PERF" script -f --kallsyms /dev/null --symfs "$tmpdir/wild-symfs" \
		-i - --per-event-dump <"$f" 2>/dev/null | sed 's/ (null)\./ stdin./' >want.out
	for d in "(null)."*.dump; do mv "$d" "want/stdin.${d#(null).}"; done
	HOME=$tmpdir/wild-home run_sampo script -i - --per-event-dump <"$f" >got.out 2>/dev/null
	mv stdin.*.dump got/
	compare_dumps "$(basename "$f") from a pipe"
done

# an event named as a PMU's ("cpu_core/cycles:ppp/"): perf cannot create its file
f=$(wild_file pdc__perf.data.hybrid_topology)
ln -sf "$f" in.data
rm -f ./*.dump
HOME=$tmpdir/wild-home run_sampo script -i in.data --per-event-dump >got.out 2>/dev/null
[ -f "in.data.cpu_core_cycles:ppp_.dump" ] && [ -f "in.data.cpu_atom_cycles:ppp_.dump" ] ||
	die "no dump for the PMU events: $(ls)"
[ "$(grep -c '' "in.data.cpu_core_cycles:ppp_.dump")" -gt 0 ] || die "the cpu_core dump is empty"
grep -q '^\[ perf script: Wrote [0-9.]* MB in.data.cpu_core_cycles:ppp_.dump ([1-9][0-9]* samples) \]$' got.out ||
	die "$(cat got.out)"
[ ! -e in.data.cpu_core ] || die "a directory of the event's name"

# a link planted at a dump's name in a shared directory: not followed
mkdir -m 1777 "$tmpdir/shared"
ln -s "$dir/c-multi-event/perf.data" "$tmpdir/shared/in.data"
ln -s "$tmpdir/chosen" "$tmpdir/shared/in.data.task-clock.dump"
expect_status 1 script -i "$tmpdir/shared/in.data" --per-event-dump
[ ! -e "$tmpdir/chosen" ] || die "the planted link's target was created"
grep -q "cannot create '$tmpdir/shared/in.data.task-clock.dump': not following a link" "$tmpdir/stderr" ||
	die "$(cat "$tmpdir/stderr")"

# a dump that cannot be written (a file size limit: EFBIG) is named, exit 1
rm -f ./*.dump
ln -sf "$dir/c-multi-event/perf.data" in.data
rc=0
(trap '' XFSZ; ulimit -f 8; "$SAMPO" script -i in.data --per-event-dump >/dev/null 2>err) || rc=$?
[ "$rc" -eq 1 ] || die "a dump past the size limit: exit $rc, expected 1"
grep -q "^sampo script: cannot write 'in.data.[a-z]*-clock.dump': File too large$" err || die "$(cat err)"

# text files only
expect_status 129 script -i "$dir/c-multi-event/perf.data" --per-event-dump --folded
grep -q -- "--per-event-dump writes the text of each event's samples" "$tmpdir/stderr" ||
	die "$(cat "$tmpdir/stderr")"
pass

#!/bin/bash
# t5009-record-switch-output: record --switch-output starts a new file on SIGUSR2
# (the default), at a size or every so often, as perf record does: each finished
# file is renamed OUTPUT.<timestamp> (perf's: local time to the hundredth of a
# second), the last one too, and each reads alone (perf and sampo): the kernel
# map, and the command's processes (a shell and the child it runs across the
# switch), are synthesized again at its start, so its samples are named, and its
# build-ids are those of its own samples. --switch-max-files keeps the last n.
# Bad values, a pipe and --max-size are errors.
. "$(dirname "$0")/lib.sh"

export HOME=$tmpdir/home
mkdir -p "$HOME"
need_perf
burn=$SAMPO_BUILDDIR/demo/burn
[ -x "$burn" ] || skip "no demo/burn in the build"
cd "$tmpdir"
"$SAMPO" record -q -e cpu-clock -o probe.data -- true >/dev/null 2>&1 || skip "sampo cannot record here"

# wait_for N FILE: until FILE has N "Dump" lines (a switch is done), 60 s at most
wait_for() {
	for _ in $(seq 600); do
		n=$(grep -c "^\[ sampo record: Dump " "$2" 2>/dev/null || true)
		[ "${n:-0}" -ge "$1" ] && return 0
		sleep 0.1
	done
	die "no switch $1 after 60 s: $(cat "$2")"
}

# wait_file FILE: until the recording has made FILE (its SIGUSR2 handler is set by then)
wait_file() {
	for _ in $(seq 600); do
		[ -s "$1" ] && return 0
		sleep 0.1
	done
	die "no $1 after 60 s: $(cat rec.err)"
}

# A shell that runs burn over and over until told to stop: each switch finds a
# burn running, whose samples before and after it are in two files.
run_loop() {
	rm -f stop rec.err # not the last run's lines, before the shell makes it anew
	"$SAMPO" record -N -e cpu-clock -F 2000 "$@" -- \
		sh -c "while [ ! -e stop ]; do '$burn' 40 >/dev/null; done" 2>rec.err &
	rec=$!
}
stop_loop() {
	touch stop
	wait "$rec" || die "sampo record failed: $(cat rec.err)"
}

# check_alone FILE [first]: the file reads alone: perf names the samples of burn,
# and (but in the first file, where the command starts) none is outside every map
check_alone() {
	local f=$1
	"$PERF" report -i "$f" --stdio --sort comm,dso </dev/null 2>/dev/null | perf_untip | grep '%' >"$f.perf"
	grep -q '^ *[0-9.]*%  burn  *burn *$' "$f.perf" ||
		die "$f: no burn samples in burn: $(cat "$f.perf") (recorded: $(cat rec.err))"
	if [ "${2:-}" != first ] && grep -q '\[unknown\]' "$f.perf"; then
		die "$f: samples outside every map: $(cat "$f.perf")"
	fi
	"$SAMPO" report -i "$f" --stdio --sort sym </dev/null 2>/dev/null | grep -q 'burn_leaf' ||
		die "$f: sampo names no burn function"
	# its own build-ids: burn's, as it has burn's samples
	"$PERF" buildid-list -i "$f" </dev/null 2>/dev/null | grep -q " $burn\$" ||
		die "$f: no build-id of burn"
}

# SIGUSR2, three times, once each switch is done
run_loop --switch-output -o s.data
wait_file s.data
for i in 1 2 3; do
	sleep 0.3
	kill -USR2 "$rec"
	wait_for "$i" rec.err
done
sleep 0.3 # a few burns in the last file too
stop_loop
[ ! -e s.data ] || die "s.data is left: the last file is renamed too"
ls s.data.* >files
[ "$(wc -l <files)" = 4 ] || die "not 4 files: $(cat files) $(cat rec.err)"
grep -qvE '^s\.data\.[0-9]{16}$' files && die "not OUTPUT.<16 digits>: $(cat files)"
# their names in the order they were made, said one by one, the last in the summary
sed -n 's/^\[ sampo record: Dump \(.*\) \]$/\1/p' rec.err >said
compare_files files said
last=$(tail -1 files)
grep -Eq "^\[ sampo record: Captured and wrote [0-9.]+ MB $last \([0-9]+ samples\) \]\$" rec.err ||
	die "the summary does not name the last file: $(cat rec.err)"
while read -r f; do
	check_alone "$f" "$([ "$f" = "$(head -1 files)" ] && echo first)"
done <files
# the samples of each are its own: no sample is in two files
for f in $(cat files); do
	"$PERF" script -i "$f" -F tid,time 2>/dev/null
done | sort | uniq -d >twice
[ -s twice ] && die "samples in two files: $(head -3 twice)"

# --switch-max-files 2: four switches, the last two files are kept
rm -f s.data.*
run_loop --switch-output --switch-max-files 2 -o m.data
wait_file m.data
for i in 1 2 3 4; do
	sleep 0.2
	kill -USR2 "$rec"
	wait_for "$i" rec.err
done
stop_loop
ls m.data.* >files
[ "$(wc -l <files)" = 2 ] || die "not the last 2 files: $(cat files)"
sed -n 's/^\[ sampo record: Dump \(.*\) \]$/\1/p' rec.err | tail -2 >said
compare_files files said

# a size: a new file once one has 64 KiB (checked after each round: a little more)
run_loop --switch-output=64K -o z.data
wait_for 3 rec.err
stop_loop
ls z.data.* >files
head -n -1 files >full
while read -r f; do
	[ "$(stat -c %s "$f")" -ge 65536 ] || die "$f: under 64 KiB"
	check_alone "$f" "$([ "$f" = "$(head -1 files)" ] && echo first)"
done <full

# a time, with -z: a new file every second, each with its own ratio
run_loop -z --switch-output=1s -o t.data
wait_for 2 rec.err
stop_loop
ls t.data.* | head -2 >files
while read -r f; do
	"$PERF" report --header-only -i "$f" </dev/null 2>/dev/null | grep -q '^# compressed : Zstd, level = 1, ratio = [0-9]*$' ||
		die "$f: no COMPRESSED feature"
	check_alone "$f" "$([ "$f" = "$(head -1 files)" ] && echo first)"
done <files

# errors
expect_status 129 record --switch-output -o - -- true
grep -q 'need a file to rename' "$tmpdir/stderr" || die "pipe: $(cat "$tmpdir/stderr")"
expect_status 129 record --switch-output=10X -o x.data -- true
grep -q "invalid value '10X'" "$tmpdir/stderr" || die "10X: $(cat "$tmpdir/stderr")"
expect_status 129 record --switch-output=1G --max-size 1M -o x.data -- true
grep -q 'one or the other' "$tmpdir/stderr" || die "--max-size: $(cat "$tmpdir/stderr")"
expect_status 129 record --switch-max-files 3 -o x.data -- true
grep -q 'goes with --switch-output' "$tmpdir/stderr" || die "max files: $(cat "$tmpdir/stderr")"
pass

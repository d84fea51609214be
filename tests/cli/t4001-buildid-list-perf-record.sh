#!/bin/bash
# t4001-buildid-list-perf-record: sampo buildid-list [-H] agrees with perf buildid-list [-H] on files perf records here (file, pipe, -z, --buildid-mmap, -a), and -k, -m with perf on this machine
. "$(dirname "$0")/lib.sh"

need_perf_record
# a private HOME, and -N: perf writes no build-id cache, so tests that record
# at the same time do not share one ~/.debug
export HOME=$tmpdir/home
unset PERF_BUILDID_DIR
mkdir -p "$HOME"

# record NAME PERF_RECORD_ARGS...: $tmpdir/NAME.data, of dd copying in small
# blocks (kernel and user samples); "-o -" records in pipe mode
record() {
	local name=$1
	shift
	if [ "${1:-}" = "-o" ] && [ "${2:-}" = "-" ]; then
		shift 2
		env -u MALLOC_PERTURB_ "$PERF" record -q -N -e cpu-clock -F 4000 "$@" -o - -- \
			dd if=/dev/zero of=/dev/null bs=512 count=40000 \
			>"$tmpdir/$name.data" 2>"$tmpdir/$name.rec.err"
	else
		env -u MALLOC_PERTURB_ "$PERF" record -q -N -e cpu-clock -F 4000 "$@" \
			-o "$tmpdir/$name.data" -- dd if=/dev/zero of=/dev/null bs=512 count=40000 \
			>/dev/null 2>"$tmpdir/$name.rec.err"
	fi
}

# check NAME: perf and sampo list the same; 1 if perf cannot read the file
check() {
	local name=$1 data=$tmpdir/$1.data hits
	for hits in "" "-H"; do
		env -u MALLOC_PERTURB_ "$PERF" buildid-list $hits -i "$data" \
			>"$tmpdir/$name.perf$hits" 2>/dev/null || return 1
		# a vdso missing from the build-id table is named after perf's own
		# temporary copy of this machine's vdso; sampo keeps "[vdso]"
		sed -i 's|/tmp/perf-vdso\.so-[A-Za-z0-9]*$|[vdso]|' "$tmpdir/$name.perf$hits"
		run_sampo buildid-list $hits -i "$data" >"$tmpdir/$name.sampo$hits"
		compare_files "$tmpdir/$name.perf$hits" "$tmpdir/$name.sampo$hits"
	done
	[ -s "$tmpdir/$name.perf-H" ] || die "$name: perf lists no DSO with hits"
}

# record_and_check NAME ARGS...: up to three tries. While another profiler
# asks for build-ids in MMAP2 (--buildid-mmap, sampo record), the kernel here
# may flag this recording's MMAP2s as build-id ones too; perf 6.1 aborts on
# such a file (sampo refuses it with one line): record it again.
record_and_check() {
	local name=$1 try
	shift
	for try in 1 2 3; do
		if ! record "$name" "$@"; then
			say "$name: perf record $* failed (try $try): $(grep -v records \
				"$tmpdir/$name.rec.err" | head -1)"
			continue
		fi
		check "$name" && return 0
		say "$name: perf buildid-list cannot read the file (try $try)"
	done
	die "$name: no file that perf can read after three tries"
}

record_and_check plain
record_and_check bidmmap --buildid-mmap
if "$PERF" record -q -N -z -e cpu-clock -o "$tmpdir/.z.data" -- true >/dev/null 2>&1; then
	record_and_check zstd -z
else
	say "perf cannot record with -z here: skipped"
fi
record_and_check pipe -o -
# system wide, when allowed: many processes, vdso, the kernel
if "$PERF" record -q -N -a -e cpu-clock -o "$tmpdir/.a.data" -- true >/dev/null 2>&1; then
	record_and_check syswide -a
fi

# -k: the running kernel's build-id; -m: with the kernel's and modules' maps
if "$PERF" buildid-list -k >"$tmpdir/k.perf" 2>/dev/null; then
	run_sampo buildid-list -k >"$tmpdir/k.sampo"
	compare_files "$tmpdir/k.perf" "$tmpdir/k.sampo"
fi
if "$PERF" buildid-list -m >"$tmpdir/m.perf" 2>/dev/null && [ -s "$tmpdir/m.perf" ]; then
	run_sampo buildid-list -m >"$tmpdir/m.sampo"
	compare_files "$tmpdir/m.perf" "$tmpdir/m.sampo"
fi
pass

#!/bin/bash
# t4001-buildid-list-perf-record: sampo buildid-list [-H] agrees with perf buildid-list [-H] on files perf records here (file, pipe, -z, --buildid-mmap, -a)
. "$(dirname "$0")/lib.sh"

need_perf_record

# A workload with kernel and user samples: dd copies in small blocks.
work() {
	dd if=/dev/zero of=/dev/null bs=512 count=100000 2>/dev/null
}

check() {
	local name=$1 data=$2 hits
	for hits in "" "-H"; do
		"$PERF" buildid-list $hits -i "$data" >"$tmpdir/$name.perf$hits" 2>/dev/null ||
			die "$name: perf buildid-list $hits failed"
		run_sampo buildid-list $hits -i "$data" >"$tmpdir/$name.sampo$hits"
		compare_files "$tmpdir/$name.perf$hits" "$tmpdir/$name.sampo$hits"
	done
	[ -s "$tmpdir/$name.perf-H" ] || die "$name: perf lists no DSO with hits"
}

rec() {
	local name=$1
	shift
	"$PERF" record -q -e cpu-clock -F 4000 "$@" -- dd if=/dev/zero of=/dev/null bs=512 \
		count=100000 >/dev/null 2>"$tmpdir/$name.rec.err" ||
		{ sed 's/^/# /' "$tmpdir/$name.rec.err" >&2; die "$name: perf record $* failed"; }
}

rec plain -o "$tmpdir/plain.data"
check plain "$tmpdir/plain.data"

rec callchain -g -o "$tmpdir/callchain.data"
check callchain "$tmpdir/callchain.data"

rec bidmmap --buildid-mmap -o "$tmpdir/bidmmap.data"
check bidmmap "$tmpdir/bidmmap.data"

if "$PERF" record -q -z -e cpu-clock -o "$tmpdir/.z.data" -- true >/dev/null 2>&1; then
	rec zstd -z -o "$tmpdir/zstd.data"
	check zstd "$tmpdir/zstd.data"
else
	say "perf cannot record with -z here: skipped"
fi

"$PERF" record -q -e cpu-clock -F 4000 -o - -- dd if=/dev/zero of=/dev/null bs=512 \
	count=100000 2>/dev/null >"$tmpdir/pipe.data" || die "pipe: perf record -o - failed"
check pipe "$tmpdir/pipe.data"

# system wide, when allowed: many processes, vdso, the kernel
if "$PERF" record -q -a -e cpu-clock -o "$tmpdir/.a.data" -- true >/dev/null 2>&1; then
	rec syswide -a -o "$tmpdir/syswide.data"
	check syswide "$tmpdir/syswide.data"
fi

# -k: the running kernel's build-id
if "$PERF" buildid-list -k >"$tmpdir/k.perf" 2>/dev/null; then
	run_sampo buildid-list -k >"$tmpdir/k.sampo"
	compare_files "$tmpdir/k.perf" "$tmpdir/k.sampo"
fi
pass

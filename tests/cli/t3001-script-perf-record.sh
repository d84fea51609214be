#!/bin/bash
# t3001-script-perf-record: sampo script agrees with perf script on files perf records here (kernel symbols of the running kernel, user DSOs, call chains)
. "$(dirname "$0")/lib.sh"

need_perf_record
# a private HOME: perf's build-id cache (it holds the vdso perf symbolizes
# from) is this test's own, not shared with tests that record at the same time
export HOME=$tmpdir/home
unset PERF_BUILDID_DIR
mkdir -p "$HOME"

record() {
	local name=$1
	shift
	env -u MALLOC_PERTURB_ "$PERF" record -q -e cpu-clock -F 4000 "$@" \
		-o "$tmpdir/$name.data" -- dd if=/dev/zero of=/dev/null bs=512 count=40000 \
		>/dev/null 2>"$tmpdir/$name.err"
}

# check NAME: perf and sampo print the same; 1 if perf cannot read the file
check() {
	local name=$1 i
	local -a sets=("-F ip,sym,dso" "" "-G" "-F comm,tid,pid,time,event,ip,sym,symoff,dso")
	for i in "${!sets[@]}"; do
		# shellcheck disable=SC2086
		env -u MALLOC_PERTURB_ "$PERF" script -i "$tmpdir/$name.data" ${sets[$i]} \
			>"$tmpdir/$name.$i.perf" 2>/dev/null || return 1
		# shellcheck disable=SC2086
		run_sampo script -i "$tmpdir/$name.data" ${sets[$i]} >"$tmpdir/$name.$i.sampo"
		# perf 6.1 names a PLT stub NAME@plt or _init+0x.., depending on the
		# binary; sampo always NAME@plt (docs/report-differences.md)
		if ! cmp -s "$tmpdir/$name.$i.perf" "$tmpdir/$name.$i.sampo" &&
			python3 "$SAMPO_SRCDIR/tests/cli/plt-canon.py" script "$tmpdir/$name.$i.perf" \
				"$tmpdir/$name.$i.sampo" >/dev/null; then
			say "$name ${sets[$i]}: differs from perf's only by PLT stub names"
			continue
		fi
		compare_files "$tmpdir/$name.$i.perf" "$tmpdir/$name.$i.sampo"
	done
	grep -q 'kernel.kallsyms' "$tmpdir/$name.0.perf" || say "$name: no kernel sample"
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
			say "$name: perf record $* failed (try $try)"
			continue
		fi
		check "$name" && return 0
		say "$name: perf script cannot read the file (try $try)"
	done
	die "$name: no file that perf can read after three tries"
}

record_and_check plain
record_and_check callchain -g
record_and_check bidmmap --buildid-mmap
# (no system-wide recording: other processes' C++ and stripped DSOs make the
# comparison depend on whatever else runs; the a-syswide fixture covers -a)
pass

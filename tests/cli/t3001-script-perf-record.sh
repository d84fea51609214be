#!/bin/bash
# t3001-script-perf-record: sampo script agrees with perf script on files perf records here (kernel symbols of the running kernel, user DSOs, call chains)
. "$(dirname "$0")/lib.sh"

need_perf_record
export HOME=$tmpdir/home
unset PERF_BUILDID_DIR
mkdir -p "$HOME"

rec() {
	local name=$1
	shift
	"$PERF" record -q -e cpu-clock -F 4000 "$@" -o "$tmpdir/$name.data" -- \
		dd if=/dev/zero of=/dev/null bs=512 count=100000 >/dev/null 2>"$tmpdir/$name.err" ||
		{ sed 's/^/# /' "$tmpdir/$name.err" >&2; die "$name: perf record $* failed"; }
}

check() {
	local name=$1 i
	local -a sets=("-F ip,sym,dso" "" "-G" "-F comm,tid,pid,time,event,ip,sym,symoff,dso")
	for i in "${!sets[@]}"; do
		# shellcheck disable=SC2086
		"$PERF" script -i "$tmpdir/$name.data" ${sets[$i]} >"$tmpdir/$name.$i.perf" 2>/dev/null ||
			die "$name: perf script ${sets[$i]} failed"
		# shellcheck disable=SC2086
		run_sampo script -i "$tmpdir/$name.data" ${sets[$i]} >"$tmpdir/$name.$i.sampo"
		compare_files "$tmpdir/$name.$i.perf" "$tmpdir/$name.$i.sampo"
	done
	grep -q 'kernel.kallsyms' "$tmpdir/$name.0.perf" || say "$name: no kernel sample"
}

rec plain
check plain
rec callchain -g
check callchain
rec bidmmap --buildid-mmap
check bidmmap
if "$PERF" record -q -a -e cpu-clock -o "$tmpdir/.a.data" -- true >/dev/null 2>&1; then
	rec syswide -a
	check syswide
fi
pass

#!/bin/bash
# t7403-debuginfod-kernel: a kernel whose kallsyms snapshot is gone gets its vmlinux (the
# kernel's debuginfo) from a real debuginfod server by the recorded build-id: the report of the
# perf 6.1 fixture equals perf's own, in both modes; the vmlinux is kept in the build-id cache,
# where the next run finds it without a server. The served vmlinux is a stand-in made from the
# fixture's kallsyms (tests/cli/mkvmlinux.py): no real one of that kernel is at hand.
. "$(dirname "$0")/lib.sh"
. "$SAMPO_SRCDIR/tests/cli/debuginfod-lib.sh"
need_cmd python3 debuginfod

unset DEBUGINFOD_TIMEOUT DEBUGINFOD_CACHE_PATH PERF_BUILDID_DIR
dir=$(fixtures_dir)
f=$dir/b-callchain-fp
kbid=4a5a9b0affb66c437abcd455d2738af879985fa9
mkdir -p "$tmpdir/srv" "$tmpdir/cache"
tar xjf "$f/perf.data.tar.bz2" -C "$tmpdir/cache"
python3 "$SAMPO_SRCDIR/tests/cli/mkvmlinux.py" "$tmpdir/cache/[kernel.kallsyms]/$kbid/kallsyms" "$kbid" \
	"$tmpdir/srv/vmlinux" || die "cannot make the stand-in vmlinux"
[ "$(build_id "$tmpdir/srv/vmlinux")" = "$kbid" ] || die "the stand-in vmlinux has another build-id"
# the user program's cached copy stays; the kernel's snapshot goes
rm -rf "$tmpdir/cache/[kernel.kallsyms]" "$tmpdir/cache/.build-id/${kbid:0:2}/${kbid:2}"
# fresh HOME: its .debug is the cache above, without the kernel
home() {
	mkdir -p "$tmpdir/$1"
	[ -e "$tmpdir/$1/.debug" ] || cp -a "$tmpdir/cache" "$tmpdir/$1/.debug"
	echo "$tmpdir/$1"
}
report() { "$SAMPO" report --stdio --sort comm,dso,sym -i "$f/perf.data" "$@"; }

# without a server the kernel has no symbols: the report is not perf's
head -n -3 "$f/report-stdio.txt" >"$tmpdir/want"
HOME=$(home bare) report >"$tmpdir/bare.out" 2>/dev/null || die "bare report failed"
cmp -s "$tmpdir/want" "$tmpdir/bare.out" && die "the kernel has symbols without its files"

start_debuginfod "$tmpdir/srv" # the vmlinux has no executable: wait for its debuginfo below
for _ in $(seq 1 600); do
	python3 -c "import urllib.request as u; u.urlopen('$dbgd_url/buildid/$kbid/debuginfo', timeout=5)" \
		2>/dev/null && break
	sleep 0.2
done

h=$(home away)
for mode in "" -no-children; do
	args=()
	[ -n "$mode" ] && args+=(--no-children)
	HOME=$h DEBUGINFOD_URLS=$dbgd_url report "${args[@]}" >"$tmpdir/out" 2>"$tmpdir/err" ||
		die "report with debuginfod failed: $(cat "$tmpdir/err")"
	head -n -3 "$f/report-stdio$mode.txt" >"$tmpdir/want"
	compare_files "$tmpdir/want" "$tmpdir/out"
done
# the second run found it in the build-id cache
HOME=$h DEBUGINFOD_URLS=$dbgd_url report --provenance >"$tmpdir/prov" 2>"$tmpdir/err" || die "--provenance failed"
grep -A3 '^\[kernel.kallsyms\]$' "$tmpdir/prov" |
	grep -qx "    symbols   build-id cache: $h/.debug/.build-id/${kbid:0:2}/${kbid:2}/elf" ||
	die "the fetched vmlinux is not in the cache: $(cat "$tmpdir/prov")"
[ -f "$h/.debug/[kernel.kallsyms]/$kbid/elf" ] || die "not stored as [kernel.kallsyms]/BUILD-ID/elf"

# a fresh HOME: the fetch itself, one notice, debuginfod named as the source
h=$(home away2)
HOME=$h DEBUGINFOD_URLS=$dbgd_url report --provenance >"$tmpdir/prov" 2>"$tmpdir/err" || die "--provenance failed"
[ "$(grep -c "^sampo report: debuginfod: fetched the debuginfo of '\[kernel.kallsyms\]' from $dbgd_url\$" "$tmpdir/err")" = 1 ] ||
	die "not one notice for the kernel: $(cat "$tmpdir/err")"
grep -A3 '^\[kernel.kallsyms\]$' "$tmpdir/prov" |
	grep -qx "    symbols   debuginfod: $h/.debug/.build-id/${kbid:0:2}/${kbid:2}/elf" ||
	die "--provenance does not name debuginfod: $(cat "$tmpdir/prov")"
pass

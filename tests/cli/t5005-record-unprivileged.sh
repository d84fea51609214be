#!/bin/bash
# t5005-record-unprivileged: as an ordinary user, sampo record falls back to user-space sampling where perf_event_paranoid forbids the kernel, warns that kallsyms hides the kernel's addresses, and still writes a file perf reads
. "$(dirname "$0")/lib.sh"

need_perf
need_cmd setpriv
[ "$(id -u)" = 0 ] || skip "needs root to switch to an ordinary user"
id nobody >/dev/null 2>&1 || skip "no user 'nobody'"
burn=$SAMPO_BUILDDIR/demo/burn
[ -x "$burn" ] || skip "no demo/burn in the build"

# a directory the ordinary user can use; sampo must be reachable for it
work=$tmpdir/u
mkdir -p "$work"
chmod 755 "$tmpdir"
chmod 777 "$work"
cp "$burn" "$work/burn"
chmod 755 "$work/burn"
as_user() {
	setpriv --reuid=nobody --regid="$(id -g nobody)" --clear-groups \
		env HOME="$work" "$@"
}
as_user test -x "$SAMPO" || skip "sampo is not reachable for an ordinary user"
cd "$work"

rc=0
as_user "$SAMPO" record -F 1000 -o u.data -- ./burn 200 >out.txt 2>err.txt || rc=$?
if [ "$rc" -ne 0 ] && grep -q "perf_event_paranoid" err.txt; then
	skip "perf_event_paranoid forbids ordinary users: $(cat err.txt)"
fi
[ "$rc" -eq 0 ] || die "sampo record as nobody exited $rc: $(cat err.txt)"

paranoid=$(cat /proc/sys/kernel/perf_event_paranoid)
if [ "$paranoid" -ge 2 ]; then
	grep -q "recording user space only" err.txt || die "no notice of user-only sampling: $(cat err.txt)"
	grep -q ":u" <("$PERF" report -f --header-only -i u.data 2>/dev/null) ||
		die "the event is not marked :u"
fi
if as_user head -1 /proc/kallsyms | grep -q '^0000000000000000 '; then
	grep -q "kernel addresses are hidden" err.txt || die "no warning about hidden kernel addresses"
	"$PERF" report -f -D -i u.data 2>/dev/null | grep "PERF_RECORD_MMAP .*kernel.kallsyms" >mmap.txt || true
	grep -q "\[0(0xffffffffffffffff) @ 0\]" mmap.txt || die "hidden kernel map not written as pgoff 0: $(cat mmap.txt)"
fi

"$PERF" report -f -D -i u.data >D.txt 2>D.err || die "perf cannot read the file"
[ ! -s D.err ] || die "perf report -D warned: $(head -3 D.err)"
"$PERF" report -f --stdio -i u.data --sort sym 2>/dev/null >rep.txt
grep -q burn_leaf_alpha rep.txt || die "samples of burn do not resolve"
pass

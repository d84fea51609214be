#!/bin/bash
# t5004-record-write-error: a full disk ends sampo record with a clear message, exit 1, the command stopped, and a file that perf reads up to its last complete record
. "$(dirname "$0")/lib.sh"

need_perf
burn=$SAMPO_BUILDDIR/demo/burn
[ -x "$burn" ] || skip "no demo/burn in the build"
export HOME=$tmpdir/home
mkdir -p "$HOME" "$tmpdir/small"
cd "$tmpdir"
"$SAMPO" record -q -N -e cpu-clock -o probe.data -- true >/dev/null 2>&1 || skip "sampo cannot record here"

# a 192 KiB file system, mounted in a mount namespace of our own so that no
# other process (perf in tests running in parallel) sees it come and go; the
# recording fills it in well under a second. The cut file is copied out.
need_cmd unshare
cat >inner.sh <<'INNER'
set -u
mount -t tmpfs -o size=192k sampo-t5004 small || exit 77
start=$(date +%s)
rc=0
"$SAMPO" record -N -e cpu-clock -F 20000 -g -o small/perf.data -- "$1" 100000 >stdout 2>stderr || rc=$?
echo $(($(date +%s) - start)) >secs
cp small/perf.data cut.data
umount small
exit "$rc"
INNER
rc=0
unshare --mount --propagation private bash inner.sh "$burn" || rc=$?
[ "$rc" -ne 77 ] || skip "cannot mount a small tmpfs"
[ "$rc" -eq 1 ] || die "sampo record on a full disk exited $rc, expected 1: $(cat stderr)"
[ "$(cat secs)" -lt 20 ] || die "the command was not stopped after the write error"
grep -q "^sampo record: cannot write 'small/perf.data': No space left on device$" stderr ||
	die "unclear message: $(cat stderr)"
grep -q "complete records" stderr || die "no word about what the file holds"

"$PERF" report -D -i cut.data >D.txt 2>D.err || die "perf cannot read the cut file: $(head -3 D.err)"
grep -q "PERF_RECORD_SAMPLE" D.txt || die "no samples kept"
run_sampo dump -i cut.data >/dev/null
pass

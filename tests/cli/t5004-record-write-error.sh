#!/bin/bash
# t5004-record-write-error: a full disk ends sampo record with a clear message, exit 1, the command stopped, and a file that perf reads up to its last complete record; with -z too (the file keeps its COMPRESSED feature, without which no reader inflates the records)
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
"$SAMPO" record -N $2 -e cpu-clock -F 20000 -g -o small/perf.data -- "$1" 100000 >stdout 2>stderr || rc=$?
echo $(($(date +%s) - start)) >secs
cp small/perf.data cut.data
umount small
exit "$rc"
INNER
for z in "" -z; do
	rc=0
	unshare --mount --propagation private bash inner.sh "$burn" "$z" || rc=$?
	[ "$rc" -ne 77 ] || skip "cannot mount a small tmpfs"
	[ "$rc" -eq 1 ] || die "sampo record $z on a full disk exited $rc, expected 1: $(cat stderr)"
	[ "$(cat secs)" -lt 20 ] || die "the command was not stopped after the write error ($z)"
	grep -q "^sampo record: cannot write 'small/perf.data': No space left on device$" stderr ||
		die "unclear message ($z): $(cat stderr)"
	grep -q "complete records" stderr || die "no word about what the file holds ($z)"

	"$PERF" report -D -i cut.data >D.txt 2>D.err || die "perf cannot read the cut file ($z): $(head -3 D.err)"
	grep -q "PERF_RECORD_SAMPLE" D.txt || die "no samples kept ($z)"
	run_sampo dump -i cut.data >/dev/null
done
grep -Eq "^ *COMPRESSED events: *[1-9]" D.txt || die "-z: no COMPRESSED record in the cut file"
pass

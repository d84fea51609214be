#!/bin/bash
# t5006-record-output-link: sampo record -o never writes through a symlink (dangling or not) planted in a world-writable sticky directory: exit 1, a message saying what to do, the link's target neither created nor truncated
. "$(dirname "$0")/lib.sh"

export HOME=$tmpdir/home
mkdir -p "$HOME" "$tmpdir/shared"
chmod 1777 "$tmpdir/shared"
cd "$tmpdir"
"$SAMPO" record -q -N -e cpu-clock -o probe.data -- true >/dev/null 2>&1 || skip "sampo cannot record here"

# dangling: the file its planter chose is not created
ln -s "$tmpdir/chosen" shared/perf.data
rc=0
"$SAMPO" record -q -N -e cpu-clock -o shared/perf.data -- true >out 2>err || rc=$?
[ "$rc" -eq 1 ] || die "record through a dangling symlink exited $rc, expected 1"
[ ! -e chosen ] || die "record created the symlink's target"
grep -q "^sampo record: cannot create 'shared/perf.data': .*remove 'shared/perf.data', or give -o a path in a directory of your own.*: Too many levels of symbolic links$" err ||
	die "unclear message: $(cat err)"

# to an existing file: record moves the link aside as perf.data.old, as it
# does an old perf.data, and writes a file of its own; the target is untouched
printf 'victim\n' >victim
rm shared/perf.data
ln -s "$tmpdir/victim" shared/perf.data
run_sampo record -q -N -e cpu-clock -o shared/perf.data -- true
[ "$(cat victim)" = victim ] || die "the victim changed"
[ -L shared/perf.data.old ] || die "the link was not moved aside"
[ -f shared/perf.data ] && [ ! -L shared/perf.data ] || die "no regular output file"

# a regular file of our own there: written as usual
run_sampo record -q -N -e cpu-clock -o shared/perf.data -- true
[ -f shared/perf.data ] && [ ! -L shared/perf.data ] || die "no regular output file"
run_sampo dump -i shared/perf.data >/dev/null
pass

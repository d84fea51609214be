#!/bin/bash
# t5011-record-uid: record -u USER records the processes that user runs, as perf
# record -u does (the owner of /proc/PID; their threads and the children they
# start): a loop run as nobody is in the file, a loop of root's beside it is not,
# and perf reads the file. A user that does not exist is a usage error, one
# without processes an error, and -u goes with no -p, -t, -a, -C or command.
. "$(dirname "$0")/lib.sh"

export HOME=$tmpdir/home
mkdir -p "$HOME"
need_perf
need_cmd setpriv
[ "$(id -u)" = 0 ] || skip "needs root to run a program as another user"
burn=$SAMPO_BUILDDIR/demo/burn
[ -x "$burn" ] || skip "no demo/burn in the build"
cd "$tmpdir"
"$SAMPO" record -q -e cpu-clock -o probe.data -- true >/dev/null 2>&1 || skip "sampo cannot record here"

# nobody's loop and root's, each a burn under its own name, until told to stop
chmod 755 "$tmpdir"
cp "$burn" nobodyburn
cp "$burn" rootburn
chmod 755 nobodyburn rootburn
setpriv --reuid=65534 --regid=65534 --clear-groups \
	sh -c "while [ ! -e stop ]; do ./nobodyburn 40 >/dev/null; done" &
theirs=$!
sh -c "while [ ! -e stop ]; do ./rootburn 40 >/dev/null; done" &
ours=$!
trap 'touch stop; wait' EXIT

# the loop runs as nobody once setpriv has exec'ed it
for _ in $(seq 100); do
	[ -n "$(ps -o user= -p "$theirs" 2>/dev/null | grep -x nobody)" ] && break
	sleep 0.1
done
[ "$(ps -o user= -p "$theirs")" = nobody ] || die "the loop does not run as nobody"

# SIGTERM ends it as Ctrl-C does (a background job of a script ignores SIGINT)
"$SAMPO" record -N -u nobody -e cpu-clock -F 1000 -o u.data 2>u.err &
rec=$!
for _ in $(seq 300); do
	[ -s u.data ] && [ "$(stat -c %s u.data)" -gt 20000 ] && break
	sleep 0.1
done
kill -TERM "$rec" 2>/dev/null || true # (it may have stopped: wait says how)
wait "$rec" || die "sampo record -u failed: $(cat u.err)"
"$PERF" report -i u.data --stdio --sort comm 2>/dev/null | perf_untip | grep '%' >comms
grep -q '% *nobodyburn *$' comms || die "no sample of nobody's processes: $(cat comms)"
grep -q 'rootburn' comms && die "samples of root's processes: $(cat comms)"
"$SAMPO" report -i u.data --stdio --sort sym 2>/dev/null | grep -q burn_leaf ||
	die "sampo names no burn function"
touch stop
wait "$theirs" "$ours"

# errors
expect_status 129 record -u no-such-user-here -o x.data
grep -q "^sampo record: -u: no user 'no-such-user-here'" "$tmpdir/stderr" || die "$(cat "$tmpdir/stderr")"
expect_status 1 record -u 4000000 -o x.data
grep -q "^sampo record: user '4000000' has no process to record" "$tmpdir/stderr" ||
	die "$(cat "$tmpdir/stderr")"
expect_status 129 record -u root -a -o x.data
grep -q "^sampo record: -u records a user's processes: not with" "$tmpdir/stderr" ||
	die "$(cat "$tmpdir/stderr")"
expect_status 129 record -u root -o x.data -- true
pass

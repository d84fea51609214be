#!/bin/bash
# t6901-record-kill-each-write: sampo record killed just before each of its writes to the file, one run per write, leaves a file that sampo and perf read
. "$(dirname "$0")/lib.sh"

# t6900 kills at random moments; this one at every step of the writer's
# order of writes (lib/writer.c, keep_readable): strace kills the recorder
# with SIGKILL on entering its Nth write(2), or its Nth pwrite64(2), for
# N = 1, 2, ... until a run reaches the end. Each file must read without an
# error in sampo and in perf, as far as it was written.
need_cmd strace
burn=$SAMPO_BUILDDIR/demo/burn
[ -x "$burn" ] || skip "no demo/burn in the build"
export HOME=$tmpdir/home
mkdir -p "$HOME"
cd "$tmpdir"
"$SAMPO" record -q -e cpu-clock -o probe.data -- true >/dev/null 2>&1 || skip "sampo cannot record here"
strace -o /dev/null true 2>/dev/null || skip "strace cannot trace here (ptrace refused)"

# check FILE WHAT: sampo and perf read FILE, the same samples
check() {
	local f=$1 what=$2 nr pnr
	"$SAMPO" header -i "$f" >"$f.header" 2>"$f.err" || die "$what: sampo header failed: $(cat "$f.err")"
	"$SAMPO" dump -i "$f" >"$f.dump" 2>"$f.err" || die "$what: sampo dump failed: $(cat "$f.err")"
	"$SAMPO" report --stdio -i "$f" >"$f.report" 2>"$f.err" || die "$what: sampo report failed: $(cat "$f.err")"
	"$SAMPO" script -i "$f" >"$f.script" 2>"$f.err" || die "$what: sampo script failed: $(cat "$f.err")"
	nr=$(grep -c . "$f.script" || true)
	[ "$nr" = "$(grep -c 'PERF_RECORD_SAMPLE(' "$f.dump" || true)" ] ||
		die "$what: script printed $nr samples, dump shows another number"
	[ -n "${PERF:-}" ] || return 0
	# perf 6.1 reads a file whose header says no data to its end, then fails
	# ("failed to process sample"): that is the state between the first
	# header and the first flush, before any sample
	[ "$(od -An -t u8 -j 48 -N 8 "$f" | tr -d ' ')" != 0 ] || return 0
	"$PERF" report -D -i "$f" >"$f.D" 2>"$f.err" || die "$what: perf report -D failed: $(head -3 "$f.err")"
	[ ! -s "$f.err" ] || die "$what: perf report -D warned: $(head -3 "$f.err")"
	"$PERF" script -i "$f" >"$f.pscript" 2>"$f.err" || [ "$nr" = 0 ] ||
		die "$what: perf script failed: $(head -3 "$f.err")"
	pnr=$(grep -c . "$f.pscript" || true)
	[ "$pnr" = "$nr" ] || die "$what: perf script read $pnr samples, sampo $nr"
}

runs=0
for sc in write pwrite64; do
	n=1
	while :; do
		f=$sc-$n.data
		rc=0
		# (LeakSanitizer cannot run under ptrace: the leak check is the other tests')
		ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
			strace -o /dev/null -e trace=$sc -e inject=$sc:signal=SIGKILL:when=$n \
			"$SAMPO" record -q -N -e cpu-clock -F 1000 -o "$f" -- "$burn" 1000 \
			>/dev/null 2>"$f.log" || rc=$?
		runs=$((runs + 1))
		[ -e "$f" ] || die "$sc $n: no file"
		if [ "$rc" = 0 ]; then
			check "$f" "$sc $n (not killed: the end)"
			[ "$n" -gt 4 ] || die "only $((n - 1)) ${sc}s: the recording had no round"
			break
		fi
		[ "$rc" = 137 ] || die "$sc $n: exit $rc, not killed: $(cat "$f.log")"
		if [ "$sc $n" = "write 1" ] && [ ! -s "$f" ]; then
			# created, nothing in it yet (no record existed): an empty file
			expect_status 1 report --stdio -i "$f"
			grep -q "empty file" "$tmpdir/stderr" || die "write 1: $(cat "$tmpdir/stderr")"
			n=2
			continue
		fi
		[ "$(head -c 8 "$f")" = PERFILE2 ] || die "$sc $n: killed before its ${n}th $sc: no perf.data header"
		check "$f" "killed before its ${n}th $sc"
		n=$((n + 1))
		[ "$n" -lt 400 ] || die "$sc: more than 400 calls"
	done
	say "$sc: killed before each of $((n - 1)), all read"
done
pass

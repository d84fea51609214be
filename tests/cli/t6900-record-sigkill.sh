#!/bin/bash
# t6900-record-sigkill: sampo record SIGKILLed at 20 random moments leaves a file that sampo and perf read up to its last flushed record
. "$(dirname "$0")/lib.sh"

# Any moment must do: from the first byte of the file on, its header is
# valid and claims only what is on disk (the writer's keep_readable, see
# lib/writer.c). So the kill moment is random and the test still does not
# depend on timing: every trial must give a readable file; how many of them
# hold samples depends on the moment and is only reported.
burn=$SAMPO_BUILDDIR/demo/burn
[ -x "$burn" ] || skip "no demo/burn in the build"
export HOME=$tmpdir/home
mkdir -p "$HOME"
cd "$tmpdir"
"$SAMPO" record -q -e cpu-clock -o probe.data -- true >/dev/null 2>&1 || skip "sampo cannot record here"

# u64 FILE OFFSET: the little-endian u64 at OFFSET of FILE
u64() { od -An -t u8 -j "$2" -N 8 "$1" | tr -d ' '; }

trials=20 with_samples=0 perf_read=0
for i in $(seq 1 $trials); do
	f=k$i.data
	"$SAMPO" record -q -e cpu-clock -F 4000 -N -o "$f" -- "$burn" 100000000 >/dev/null 2>"$f.log" &
	pid=$!
	# the window starts when the file has its first byte (its creation is
	# before any record exists); the wait is a hang guard, not a timing bound
	n=0
	while [ ! -s "$f" ]; do
		kill -0 $pid 2>/dev/null || die "trial $i: sampo record ended before writing: $(cat "$f.log")"
		n=$((n + 1))
		[ $n -lt 6000 ] || die "trial $i: no byte written in 60 s"
		sleep 0.01
	done
	ms=$((RANDOM % 1500))
	sleep "$(printf '%d.%03d' $((ms / 1000)) $((ms % 1000)))"
	children=$(pgrep -P $pid || true)
	kill -KILL $pid
	wait $pid 2>/dev/null || true
	# the workload outlives its recorder, as with perf
	[ -z "$children" ] || kill -KILL $children 2>/dev/null || true

	size=$(stat -c %s "$f")
	[ "$(head -c 8 "$f")" = PERFILE2 ] || die "trial $i (${ms} ms): no perf.data header"
	off=$(u64 "$f" 40) dsize=$(u64 "$f" 48)
	[ $((off + dsize)) -le "$size" ] ||
		die "trial $i (${ms} ms): the header claims data to $((off + dsize)), the file has $size bytes"
	"$SAMPO" header -i "$f" >"$f.header" 2>"$f.err" || die "trial $i (${ms} ms): sampo header failed: $(cat "$f.err")"
	"$SAMPO" dump -i "$f" >"$f.dump" 2>"$f.err" || die "trial $i (${ms} ms): sampo dump failed: $(cat "$f.err")"
	"$SAMPO" report --stdio -i "$f" >"$f.report" 2>"$f.err" ||
		die "trial $i (${ms} ms): sampo report failed: $(cat "$f.err")"
	"$SAMPO" script -i "$f" >"$f.script" 2>"$f.err" ||
		die "trial $i (${ms} ms): sampo script failed: $(cat "$f.err")"
	nr=$(grep -c . "$f.script" || true)
	[ "$nr" = "$(grep -c 'PERF_RECORD_SAMPLE(' "$f.dump" || true)" ] ||
		die "trial $i (${ms} ms): script printed $nr samples, dump shows another number"
	if [ "$nr" -gt 0 ]; then
		with_samples=$((with_samples + 1))
		grep -q burn "$f.report" || die "trial $i (${ms} ms): $nr samples, none of burn in the report"
	fi

	[ -n "${PERF:-}" ] || continue
	# perf 6.1 reads a file with a zero data size to its end, with a warning,
	# and its script fails when it finds no sample: it can read what it can
	if [ "$dsize" -gt 0 ]; then
		"$PERF" report -D -i "$f" >"$f.D" 2>"$f.err" ||
			die "trial $i (${ms} ms): perf report -D failed: $(head -3 "$f.err")"
		[ ! -s "$f.err" ] || die "trial $i (${ms} ms): perf report -D warned: $(head -3 "$f.err")"
		"$PERF" script -i "$f" >"$f.pscript" 2>"$f.err" ||
			[ "$nr" = 0 ] || die "trial $i (${ms} ms): perf script failed: $(head -3 "$f.err")"
		pnr=$(grep -c . "$f.pscript" || true)
		[ "$pnr" = "$nr" ] || die "trial $i (${ms} ms): perf script read $pnr samples, sampo $nr"
		perf_read=$((perf_read + 1))
	fi
done
say "$trials trials: $trials readable by sampo, $with_samples with samples, $perf_read read by perf"
pass

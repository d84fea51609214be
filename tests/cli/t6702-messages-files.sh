#!/bin/bash
# t6702-messages-files: messages that say what next, about the input file: no perf.data here
# (try 'sampo record', as perf says 'try perf record'), a file cut short (say so and how much
# was read), a recording that never finished (perf's "data size field is 0": read what is
# there), a build-id mismatch (both ids and --force)
. "$(dirname "$0")/lib.sh"

b=$(fixture b-callchain-fp/perf.data)
cd "$tmpdir"

one_line() { # one_line WHAT PATTERN: stderr is exactly one line matching PATTERN
	[ "$(wc -l <"$tmpdir/stderr")" -eq 1 ] || die "$1: not one line on stderr: $(cat "$tmpdir/stderr")"
	grep -q -- "$2" "$tmpdir/stderr" || die "$1: unexpected message: $(cat "$tmpdir/stderr")"
}

# --- no perf.data here: every reading command says how to make one
mkdir empty
for cmd in report script dump buildid-list; do
	(cd empty && expect_status 1 $cmd </dev/null)
	one_line "$cmd without perf.data" \
		"^sampo $cmd: perf.data: No such file or directory (try 'sampo record -g -- <command>' first, or -i <file>)\$"
done
(cd empty && expect_status 1 report -D </dev/null)
one_line "report -D without perf.data" "^sampo dump: perf.data: .*try 'sampo record"
# perf says the same of its own record command
if [ -n "$PERF" ]; then
	(cd empty && "$PERF" report --stdio </dev/null >/dev/null 2>"$tmpdir/perf.err" || true)
	grep -q "try 'perf record' first" "$tmpdir/perf.err" || die "perf no longer suggests 'perf record'"
fi
# a name the user chose gets no such advice
expect_status 1 report -i no-such.data
one_line "a missing named file" "^sampo report: no-such.data: No such file or directory\$"

# --- a file cut short inside its data: one line that says so, and what was read before
cp "$b" good.data
"$SAMPO" dump -i good.data | sed -n 's/^\(0x[0-9a-f]*\)@good.data \[\(0x[0-9a-f]*\)\]: event: \([0-9]*\)$/\1 \2 \3/p' \
	>records.hex
while read -r off size type; do echo $((off)) $((size)) "$type" "$off"; done <records.hex | sort -n >records
cut=$(( $(sed -n 200p records | cut -d' ' -f1) + 20 )) # 20 bytes into the 200th record
head -c "$cut" good.data >cut.data
want_nr=$(awk -v cut="$cut" '$1 + $2 <= cut { n++ } END { print n }' records)
want_samples=$(awk -v cut="$cut" '$3 == 9 && $1 + $2 <= cut { n++ } END { print n }' records)
[ "$want_nr" -eq 199 ] || die "test set-up: $want_nr records before the cut, expected 199"
for cmd in report script dump buildid-list; do
	expect_status 1 $cmd -i cut.data
	# (script warns first that the cut file has no kernel build-id)
	tail -n 1 "$tmpdir/stderr" >"$tmpdir/last" && mv "$tmpdir/last" "$tmpdir/stderr"
	one_line "$cmd of a cut file" \
		"^sampo $cmd: cut.data: .*; the file was cut short (.*): $want_nr records ($want_samples samples) read before the cut, [0-9]* of the 32096 bytes of data its header announces\$"
done

# --- a recording that never finished: the data size still 0, the feature sections never
# written, the last record cut: perf warns and reads on; sampo reads the complete records
python3 - good.data unfinished.data "$cut" <<'PY'
import struct, sys
src, dst, cut = sys.argv[1], sys.argv[2], int(sys.argv[3])
b = bytearray(open(src, 'rb').read()[:cut])
struct.pack_into('<Q', b, 48, 0)  # data.size
open(dst, 'wb').write(b)
PY
expect_status 0 report --stdio --sort comm -i unfinished.data
grep -q "warning: unfinished.data: the recording did not finish" "$tmpdir/stderr" ||
	die "no warning about the unfinished recording: $(cat "$tmpdir/stderr")"
grep -q "warning: unfinished.data: the file ends inside the record at offset $(sed -n 200p records | cut -d' ' -f4)" \
	"$tmpdir/stderr" || die "no warning about the last, cut record: $(cat "$tmpdir/stderr")"
grep -q "^# Samples: $want_samples  of event 'cpu-clock'\$" "$tmpdir/stdout" ||
	die "not the $want_samples complete samples: $(grep '^# Samples' "$tmpdir/stdout")"
if [ -n "$PERF" ]; then
	"$PERF" report --stdio -i unfinished.data >/dev/null 2>"$tmpdir/perf.err" || true
	grep -q "data size field is 0 which is unexpected" "$tmpdir/perf.err" ||
		die "perf does not warn about this file either: $(cat "$tmpdir/perf.err")"
fi
# the same file ending on a record boundary: no cut record, the same samples
python3 - good.data unfinished2.data "$(( cut - 20 ))" <<'PY'
import struct, sys
src, dst, cut = sys.argv[1], sys.argv[2], int(sys.argv[3])
b = bytearray(open(src, 'rb').read()[:cut])
struct.pack_into('<Q', b, 48, 0)
open(dst, 'wb').write(b)
PY
expect_status 0 report --stdio --sort comm -i unfinished2.data
grep -q "the recording did not finish" "$tmpdir/stderr" || die "no warning on the unfinished2 file"
! grep -q "the file ends inside the record" "$tmpdir/stderr" || die "a cut record where there is none"
grep -q "^# Samples: $want_samples  of event 'cpu-clock'\$" "$tmpdir/stdout" || die "unfinished2: samples"

# --- a build-id mismatch: both ids, and --force named
mkdir -p symfs/tmp/pfx cache
cp /bin/true symfs/tmp/pfx/burn
other=$("$SAMPO" buildid-list -i symfs/tmp/pfx/burn)
[ -n "$other" ] || skip "/bin/true has no build-id"
PERF_BUILDID_DIR=$tmpdir/cache expect_status 0 report --stdio -i good.data --symfs "$tmpdir/symfs"
grep "'/tmp/pfx/burn' was recorded with build-id" "$tmpdir/stderr" >mismatch ||
	die "no build-id mismatch warning: $(cat "$tmpdir/stderr")"
grep -q "build-id 690cfd666a0fa1f2e4b67ddad86ea1a75405b61c;" mismatch || die "the recorded id is not named"
grep -q "(build-id $other)" mismatch || die "the found id is not named: $(cat mismatch)"
grep -q -- "--force" mismatch || die "--force is not named: $(cat mismatch)"
PERF_BUILDID_DIR=$tmpdir/cache expect_status 0 report --stdio -i good.data --symfs "$tmpdir/symfs" --force
grep -q "'/tmp/pfx/burn' was recorded with build-id .*using a file with another build-id (--force)" \
	"$tmpdir/stderr" || die "--force: $(cat "$tmpdir/stderr")"
pass

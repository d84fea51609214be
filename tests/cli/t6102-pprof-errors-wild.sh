#!/bin/bash
# t6102-pprof-errors-wild: bad options and bad input give one line and a non-zero exit and write
# no profile; the wild files (perf 3.2 to 6.16, other architectures, pipes, LBR, PT) convert
# without a crash, and Go's pprof reads in a selection of them the totals of sampo report
. "$(dirname "$0")/lib.sh"
need_cmd go python3

f=$(fixture c-multi-event/perf.data)
export HOME=$tmpdir GOCACHE=$tmpdir/gocache
check=$SAMPO_SRCDIR/tests/cli/pprof-check.py

expect_status 129 pprof --labels pid,nosuchlabel -i "$f" -o "$tmpdir/x.pb.gz"
grep -q "nosuchlabel" "$tmpdir/stderr" || die "the message does not name the label"
expect_status 129 pprof extra-argument
expect_status 0 pprof -h
grep -q "^usage: sampo pprof" "$tmpdir/stdout" || die "-h prints no usage"
expect_status 129 report --format nosuchformat -i "$f"
expect_status 129 report -o "$tmpdir/x.pb.gz" -i "$f"
expect_status 129 report --format pprof --comms burn -i "$f" -o "$tmpdir/x.pb.gz"
[ ! -e "$tmpdir/x.pb.gz" ] || die "a profile was written after a usage error"

# no such file, not a perf.data file, an output that cannot be written
expect_status 1 pprof -i "$tmpdir/missing.data" -o "$tmpdir/x.pb.gz"
[ "$(wc -l <"$tmpdir/stderr")" -eq 1 ] || die "more than one line of error"
grep -q "missing.data" "$tmpdir/stderr" || die "the message does not name the file"
echo hello >"$tmpdir/text"
expect_status 1 pprof -i "$tmpdir/text" -o "$tmpdir/x.pb.gz"
expect_status 1 pprof -i "$f" -o "$tmpdir/no/such/dir/x.pb.gz"
[ "$(wc -l <"$tmpdir/stderr")" -eq 1 ] || die "more than one line of error"
grep -q "no/such/dir/x.pb.gz" "$tmpdir/stderr" || die "the message does not name the output"
[ ! -e "$tmpdir/x.pb.gz" ] || die "a profile was written for a bad input"

# a file cut in its data section: one line naming the file, no profile
size=$(stat -c %s "$f")
head -c $((size / 3)) "$f" >"$tmpdir/cut.data"
expect_status 1 pprof -i "$tmpdir/cut.data" -o "$tmpdir/cut.pb.gz"
[ "$(wc -l <"$tmpdir/stderr")" -eq 1 ] || { cat "$tmpdir/stderr" >&2; die "more than one line of error"; }
grep -q "cut.data" "$tmpdir/stderr" || die "the message does not name the file"
[ ! -e "$tmpdir/cut.pb.gz" ] || die "a profile was written for a cut file"

# -o - writes the gzipped profile to stdout
"$SAMPO" pprof -i "$f" -o - >"$tmpdir/stdout.pb.gz" || die "pprof -o - failed"
gzip -t "$tmpdir/stdout.pb.gz" || die "pprof -o - wrote no gzip stream"

# the wild files: no crash (a refusal is one line and exit 1), a profile Go reads
wild=${SAMPO_SHARED:+$SAMPO_SHARED/fixtures/wild/files}
[ -n "$wild" ] && [ -d "$wild" ] || skip "no wild fixtures"
nr=0
for w in "$wild"/*; do
	n=$(basename "$w")
	rc=0
	"$SAMPO" pprof -f -i "$w" -o "$tmpdir/w.pb.gz" >/dev/null 2>"$tmpdir/err" || rc=$?
	[ "$rc" -le 1 ] || die "sampo pprof -i $n exited with $rc: $(tail -3 "$tmpdir/err")"
	if [ "$rc" -eq 1 ]; then
		[ "$(grep -vc ': warning: ' "$tmpdir/err")" -le 1 ] ||
			die "sampo pprof -i $n: more than one line of error: $(cat "$tmpdir/err")"
		"$SAMPO" report -f --stdio -i "$w" >/dev/null 2>&1 &&
			die "sampo pprof refused $n, which sampo report reads"
		continue
	fi
	case $n in
	# multi-event, pipes, compressed, other architectures, old perf, LBR and PT, callchains
	pdc__multi-event-single-process.perf.data | pdc__perf.data.armv7-3.4 | \
		pdc__perf.data.i686-3.4 | pdc__perf.data.piped.header_feautres_group_desc-6.8 | \
		pdc__with-callchain.perf.data | pdc__perf.data.group_desc-4.14 | \
		pp__vector_static_gcc_perf.lbr.data | pdc__perf.data.intel_pt-4.14 | \
		lpd__fibo.compressed2.pipe.data | \
		pdc__perf.data.numatopology-3.2 | pp__fork_static_gcc_perf.data.zstd | \
		hs__perf.data.PerfFormatLost) ;; # the last: samples that read a group
	*) continue ;;
	esac
	# (--no-group: a profile has a sample type per event, where report shows a
	# file with event groups in perf's group view; a sample that reads a group
	# counts for each member, in both, as perf splits it)
	"$SAMPO" report -f --stdio --no-children --no-group -i "$w" >"$tmpdir/rep" 2>/dev/null ||
		die "sampo report -i $n failed"
	python3 "$check" --totals "$tmpdir/w.pb.gz" "$tmpdir/rep" >"$tmpdir/check" 2>&1 ||
		die "$n: go tool pprof differs from sampo report: $(cat "$tmpdir/check")"
	nr=$((nr + 1))
done
[ "$nr" -ge 10 ] || die "only $nr wild files compared"
pass

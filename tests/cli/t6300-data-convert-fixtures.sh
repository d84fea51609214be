#!/bin/bash
# t6300-data-convert-fixtures: sampo data convert --to-json writes what perf 6.1's data convert --to-json writes, byte for byte on the perf 6.1 fixtures, after json-canon.py on files recorded elsewhere
#
# perf runs now, on the same files and with the same symbol files (an empty
# HOME holding the build-id cache of the b fixture's `perf archive`). Files with a
# build-id table (a, b, c, f, g, h) must give the same bytes; e (no build-id
# table: perf takes the running kernel's symbols) and the wild files (recorded
# on other machines) are compared with tests/cli/json-canon.py, which drops
# the values perf takes from this machine (docs/sampo-data.md). d is a pipe,
# which perf 6.1 crashes on: sampo's samples are checked against perf script's.
. "$(dirname "$0")/lib.sh"
need_perf
need_cmd python3

dir=$(fixtures_dir)
# the build-id cache both read: $HOME/.debug (perf 6.1 ignores PERF_BUILDID_DIR)
export HOME=$tmpdir/home
unset PERF_BUILDID_DIR
mkdir -p "$HOME/.debug"
tar xjf "$dir/b-callchain-fp/perf.data.tar.bz2" -C "$HOME/.debug"
canon=$SAMPO_SRCDIR/tests/cli/json-canon.py

# convert NAME FILE: perf's and sampo's JSON into $tmpdir/NAME.{perf,sampo};
# 1 when perf fails on the file
convert() {
	local name=$1 f=$2
	"$PERF" data convert -f --to-json "$tmpdir/$name.perf" \
		-i "$f" >/dev/null 2>&1 || return 1
	"$SAMPO" data convert -f --to-json "$tmpdir/$name.sampo" \
		-i "$f" >/dev/null 2>"$tmpdir/err" || die "sampo data convert -i $f failed: $(cat "$tmpdir/err")"
}

fails=0
for f in "$dir"/*/perf.data; do
	name=$(basename "$(dirname "$f")")
	case $name in
	d-*)
		# perf 6.1 crashes on pipes: the samples that perf script shows
		"$SAMPO" data convert --to-json "$tmpdir/d.sampo" -i - <"$f" 2>/dev/null ||
			die "sampo data convert failed on the pipe $name"
		"$PERF" script -F pid,tid,time --ns -G -i - <"$f" >"$tmpdir/d.script" 2>/dev/null ||
			die "perf script failed on $name"
		python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["headers"]["data-offset"] == 0 and d["headers"]["hostname"] == ""
want = []
for line in open(sys.argv[2]):
    ids, t = line.split()[:2]
    pid, tid = ids.split("/")
    want.append((int(pid), int(tid), int(t.rstrip(":").replace(".", ""))))
got = [(s["pid"], s["tid"], s["timestamp"]) for s in d["samples"]]
assert got == want and want, (len(got), len(want))
assert all(s["comm"] == "burn" and s["callchain"] for s in d["samples"])
' "$tmpdir/d.sampo" "$tmpdir/d.script" || die "the pipe'"'"'s samples are not perf script'"'"'s"
		continue
		;;
	esac
	convert "$name" "$f" || die "perf data convert failed on $name"
	case $name in
	e-*) python3 "$canon" "$tmpdir/$name.perf" "$tmpdir/$name.sampo" >&2 || {
		say "$name differs from perf after json-canon.py"
		fails=$((fails + 1))
	} ;;
	*) if ! cmp -s "$tmpdir/$name.perf" "$tmpdir/$name.sampo"; then
		say "$name differs from perf:"
		diff -u "$tmpdir/$name.perf" "$tmpdir/$name.sampo" | head -20 >&2 || true
		fails=$((fails + 1))
	fi ;;
	esac
done

# wild files that perf 6.1 converts (it crashes on pipes and files without
# some header strings, and refuses newer ABIs): perf 3.4 to 6.1, x86_64,
# aarch64, armv7, i686, branch stacks, groups, hybrid, zstd, uprobes
wild=${SAMPO_SHARED}/fixtures/wild/files
nr_wild=0
if [ -d "$wild" ]; then
	for w in pdc__perf.data.armv7-3.4 pdc__perf.data.busy.0-3.8 pdc__perf.data.callgraph-3.4 \
		pdc__perf.data.callgraph_and_branch-3.8 pdc__perf.data.forkexit-3.8 \
		pdc__perf.data.group_desc-4.14 pdc__perf.data.hybrid_topology \
		pdc__perf.data.i686-3.4 pdc__perf.data.lost_samples-4.4 pdc__perf.data.remmap-3.2 \
		pdc__perf.data.systemwide.5-3.8 pdc__perf.data.weight_struct \
		pdc__with-callchain.perf.data pp__probe.data.file pp__vector_static_gcc_perf.data.zstd \
		pp__vector_static_gcc_perf.lbr.data hs__perf.data.true.v2 \
		pdc__perf.data.ctx_switch_namespaces-4.14; do
		[ -e "$wild/$w" ] || continue
		convert "$w" "$wild/$w" || die "perf data convert failed on $w"
		if ! python3 "$canon" "$tmpdir/$w.perf" "$tmpdir/$w.sampo" >&2; then
			say "$w differs from perf after json-canon.py"
			fails=$((fails + 1))
		fi
		nr_wild=$((nr_wild + 1))
	done
fi
say "$nr_wild wild files compared"
[ "$fails" -eq 0 ] || die "$fails conversions differ from perf's"
pass

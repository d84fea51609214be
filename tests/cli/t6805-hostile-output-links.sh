#!/bin/bash
# t6805-hostile-output-links: no command writes its output through a name
# someone planted in a directory others can write to (docs/hardening.md):
# flamegraph -o, pprof -o, report --format pprof -o, merge -o (pprof and
# perf.data), archive -o and data convert --to-json --force, as record -o
# (t5006). A dangling symlink (the file its planter chose is not created),
# a symlink or a hard link to a victim (not truncated), a FIFO (refused at
# once, no hang): exit 1 and a message that says what to do. A regular file
# of the user's own there is rewritten as usual.
. "$(dirname "$0")/lib.sh"

dir=$(fixtures_dir)
input=$dir/b-callchain-fp/perf.data
export HOME=$tmpdir/home
mkdir -p "$HOME" "$tmpdir/shared"
chmod 1777 "$tmpdir/shared"
fixture_cache "$HOME/.debug"
unset PERF_BUILDID_DIR
cd "$tmpdir"

# write NAME: run the command that writes shared/NAME (60 s at most: a hang fails)
write() {
	local out=shared/$1 t="timeout 60"
	case $1 in
	graph.html) $t "$SAMPO" flamegraph -i "$input" -o "$out" ;;
	profile.pb.gz) $t "$SAMPO" pprof -i "$input" -o "$out" ;;
	report.pb.gz) $t "$SAMPO" report -i "$input" --format pprof -o "$out" ;;
	merged.pb.gz) $t "$SAMPO" merge -o "$out" "$input" ;;
	merged.data) $t "$SAMPO" merge -o "$out" "$input" ;;
	symbols.tar.bz2) $t "$SAMPO" archive -o "$out" "$input" ;;
	samples.json) $t "$SAMPO" data convert -i "$input" --to-json "$out" --force ;;
	*) die "no command writes $1" ;;
	esac
}

# refused NAME WHAT: writing shared/NAME fails at once, says why and what to do
refused() {
	local rc=0
	write "$1" >out 2>err || rc=$?
	[ "$rc" -ne 124 ] || die "$1 ($2): still waiting after 60 s"
	[ "$rc" -eq 1 ] || die "$1 ($2): exit $rc, expected 1: $(head -2 err)"
	grep -q "cannot create 'shared/$1': not following a link or reusing another's file in a directory others can write to (remove 'shared/$1', or give -o a path in a directory of your own)" err ||
		die "$1 ($2): unclear message: $(cat err)"
}

for name in graph.html profile.pb.gz report.pb.gz merged.pb.gz merged.data symbols.tar.bz2 \
	samples.json; do
	# a dangling symlink: its target is not created
	rm -f chosen shared/"$name"
	ln -s "$tmpdir/chosen" shared/"$name"
	refused "$name" "dangling symlink"
	[ ! -e chosen ] || die "$name: the dangling symlink's target was created"

	# a symlink to an existing file: the file is not truncated
	printf 'victim\n' >victim
	rm -f shared/"$name"
	ln -s "$tmpdir/victim" shared/"$name"
	refused "$name" "symlink to a file"
	[ "$(cat victim)" = victim ] || die "$name: the symlink's target changed"

	# a hard link to another file (as root, link(2) links anyone's file)
	rm -f shared/"$name"
	ln victim shared/"$name"
	refused "$name" "hard link"
	[ "$(cat victim)" = victim ] || die "$name: the hard link's file changed"

	# a FIFO: refused, no hang waiting for a reader
	rm -f shared/"$name"
	mkfifo shared/"$name"
	refused "$name" "FIFO"

	# a regular file of our own: rewritten
	rm -f shared/"$name"
	printf 'old\n' >shared/"$name"
	write "$name" >out 2>err || die "$name: own file: exit $?: $(head -2 err)"
	[ -f shared/"$name" ] && [ ! -L shared/"$name" ] || die "$name: no regular output file"
	[ "$(head -c 3 shared/"$name")" != old ] || die "$name: the old file was not rewritten"
	[ "$(stat -c %s shared/"$name")" -gt 100 ] || die "$name: output of $(stat -c %s shared/"$name") bytes"
	rm -f shared/"$name"
done

# the same names in a directory of the user's own: links are the user's and followed
mkdir own
ln -s "$tmpdir/own-target.html" own/graph.html
run_sampo flamegraph -i "$input" -o own/graph.html
[ -s own-target.html ] || die "a link in the user's own directory was not followed"
pass

#!/bin/bash
# t6202-pager: on a terminal the reading commands page their output through $SAMPO_PAGER, $PAGER or less -FRSX (LESS and LV set as git does), never when stdout is not a terminal, not with --no-pager or an empty or 'cat' pager; errors still reach the terminal, the pager's end is waited for, and quitting it early is a clean exit
. "$(dirname "$0")/lib.sh"

need_cmd python3
f=$(fixture b-callchain-fp/perf.data)
# the fixture's symbols from its perf archive: no warning on stderr
archive=$(fixture b-callchain-fp/perf.data.tar.bz2)
need_cmd tar bzip2
export HOME=$tmpdir/home
unset PERF_BUILDID_DIR
mkdir -p "$HOME/.debug"
tar -xjf "$archive" -C "$HOME/.debug"
unset SAMPO_PAGER PAGER LESS LV
cd "$tmpdir"
pty() { python3 "$SAMPO_SRCDIR/tests/cli/pty-run.py" "$@"; }
# the harness itself: a terminal it is
pty sh -c 'test -t 0 && test -t 1 && test -t 2 && echo tty' >probe || die "no pseudo-terminal here"
[ "$(cat probe)" = tty ] || die "pty-run.py gives no terminal"

# a pager that records what it got, its arguments, LESS and LV, and whether
# its own stdout is the terminal
cat >fakepager <<'PAGER'
#!/bin/sh
cat >"$FAKE_DIR/paged"
{ echo "args=$*"; echo "LESS=${LESS-unset}"; echo "LV=${LV-unset}"; } >"$FAKE_DIR/env"
PAGER
chmod +x fakepager
export FAKE_DIR=$tmpdir
fake=$tmpdir/fakepager

# each reading command: all its output goes to the pager, none to the terminal
for c in "report --stdio" "report" "script" "script --folded" "dump" "header" "buildid-list" \
	"report -D" "report --header-only"; do
	rm -f paged env
	# shellcheck disable=SC2086
	"$SAMPO" $c -i "$f" >want 2>/dev/null || die "sampo $c failed"
	# shellcheck disable=SC2086
	SAMPO_PAGER=$fake pty "$SAMPO" $c -i "$f" >term || die "sampo $c on a terminal failed"
	[ -f paged ] || die "$c: the pager did not run"
	compare_files want paged
	[ ! -s term ] || die "$c: output on the terminal besides the pager: $(head -3 term)"
	grep -qx "LESS=FRX" env && grep -qx "LV=-c" env || die "$c: LESS, LV: $(cat env)"
done

# not a terminal: no pager, whatever is set
rm -f paged
SAMPO_PAGER=$fake PAGER=$fake "$SAMPO" report -i "$f" >out 2>err
[ ! -e paged ] || die "a pager ran with stdout not a terminal"
"$SAMPO" report -i "$f" 2>/dev/null | cmp -s - out || die "report to a file differs"
# stdout a file, stderr a terminal: no pager either
SAMPO_PAGER=$fake pty sh -c '"$0" report -i "$1" >out2' "$SAMPO" "$f" >term
[ ! -e paged ] || die "a pager ran with stdout a file"
cmp -s out out2 || die "report to a file from a terminal differs"

# --no-pager (global, as git and perf), an empty pager, 'cat': straight to the terminal
"$SAMPO" header -i "$f" >want
for how in "--no-pager" "SAMPO_PAGER=" "SAMPO_PAGER=cat" "PAGER=cat"; do
	rm -f paged
	case $how in
	--*) SAMPO_PAGER=$fake pty "$SAMPO" --no-pager header -i "$f" >term ;;
	*) env PAGER="$fake" "$how" "$(command -v python3)" \
		"$SAMPO_SRCDIR/tests/cli/pty-run.py" "$SAMPO" header -i "$f" >term ;;
	esac
	[ ! -e paged ] || die "$how: the pager ran"
	compare_files want term
done

# $PAGER when $SAMPO_PAGER is unset (with its arguments, through the shell);
# $SAMPO_PAGER first; LESS and LV kept when set
rm -f paged env
PAGER="$fake -x 'a b'" LESS=M LV=-x pty "$SAMPO" header -i "$f" >term
[ -f paged ] || die "\$PAGER did not run"
grep -qx "args=-x a b" env || die "\$PAGER's arguments: $(cat env)"
grep -qx "LESS=M" env && grep -qx "LV=-x" env || die "LESS, LV overridden: $(cat env)"
rm -f paged
SAMPO_PAGER="$fake sampo" PAGER=false pty "$SAMPO" header -i "$f" >term
grep -qx "args=sampo" env || die "\$SAMPO_PAGER is not first: $(cat env)"

# the default: less -FRSX (a 'less' first in PATH that records its arguments)
mkdir bin
cp fakepager bin/less
rm -f paged env
PATH=$tmpdir/bin:$PATH pty "$SAMPO" header -i "$f" >term
grep -qx "args=-FRSX" env || die "default pager: $(cat env 2>/dev/null)"
compare_files want paged

# errors still reach the terminal (stderr is not paged), with the exit status
rm -f paged
rc=0
SAMPO_PAGER=$fake pty "$SAMPO" report -i "$tmpdir/none.data" >term || rc=$?
[ "$rc" -eq 1 ] || die "report of a missing file exited $rc under the pager"
grep -q "^sampo report: .*none.data" term || die "no error on the terminal: $(cat term)"

# the user quits the pager after one line: a clean exit, no message
rc=0
SAMPO_PAGER="head -n 1 >$tmpdir/head1" pty "$SAMPO" dump -i "$f" >term || rc=$?
[ "$rc" -eq 0 ] || die "quitting the pager early: exit $rc: $(head -3 term)"
[ ! -s term ] || die "quitting the pager early: $(head -3 term)"
[ "$(wc -l <head1)" -eq 1 ] || die "the pager got no line"

# sampo exits after its pager, not before: the shell prompt must not come
# back under a running pager
SAMPO_PAGER="cat >/dev/null; sleep 1; echo done >$tmpdir/late" pty "$SAMPO" header -i "$f" >term
[ "$(cat late 2>/dev/null)" = done ] || die "sampo did not wait for its pager"

# record is not a reading command: never paged
rm -f paged
SAMPO_PAGER=$fake pty "$SAMPO" record -h >term || true
[ ! -e paged ] || die "record -h went through the pager"
pass

#!/bin/bash
# t0001-cmd-help: every command answers -h, --help and `sampo help CMD` with its usage on stdout and exit 0, and rejects unknown options with 129
. "$(dirname "$0")/lib.sh"

expect_status 0 --list-cmds
cmds=$(cat "$tmpdir/stdout")
failed=

for cmd in $cmds; do
	[ "$cmd" = help ] && continue
	for form in "$cmd -h" "$cmd --help" "help $cmd"; do
		rc=0
		# shellcheck disable=SC2086
		"$SAMPO" $form >"$tmpdir/out" 2>"$tmpdir/err" || rc=$?
		if [ "$rc" -ne 0 ]; then
			say "'sampo $form' exited with $rc: $(head -1 "$tmpdir/err")"
			failed="$failed $cmd"
			continue
		fi
		if ! head -1 "$tmpdir/out" | grep -q "^usage: sampo $cmd\b"; then
			say "'sampo $form' does not start with 'usage: sampo $cmd'"
			failed="$failed $cmd"
		fi
	done

	[ "$cmd" = report ] && continue	# TODO(report): drop once cmd-report.c exists
	rc=0
	"$SAMPO" "$cmd" --no-such-option >"$tmpdir/out" 2>"$tmpdir/err" || rc=$?
	if [ "$rc" -ne 129 ]; then
		say "'sampo $cmd --no-such-option' exited with $rc, expected 129"
		failed="$failed $cmd"
	elif ! grep -q "^sampo $cmd: unknown option '--no-such-option'" "$tmpdir/err"; then
		say "'sampo $cmd --no-such-option': unexpected message: $(head -1 "$tmpdir/err")"
		failed="$failed $cmd"
	fi
done

[ -z "$failed" ] || die "commands breaking the -h/usage contract:$(echo "$failed" | tr ' ' '\n' | sort -u | tr '\n' ' ')"
pass

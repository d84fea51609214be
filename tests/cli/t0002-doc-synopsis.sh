#!/bin/bash
# t0002-doc-synopsis: the SYNOPSIS of docs/sampo.md and of each docs/sampo-<cmd>.md matches the usage lines of `sampo [<cmd>] -h`
. "$(dirname "$0")/lib.sh"

# synopsis FILE: the lines of the SYNOPSIS section, taken from its ``` code
# block (or its non-empty lines when it has none), without backticks
synopsis() {
	awk '
		/^#+ *SYNOPSIS *$/ { insec = 1; next }
		insec && /^#+ / { insec = 0 }
		!insec { next }
		/^```/ { fenced = 1; infence = !infence; next }
		infence { print; next }
		!fenced && NF { gsub(/`/, ""); sub(/ +$/, ""); plain[++n] = $0 }
		END { if (!fenced) for (i = 1; i <= n; i++) print plain[i] }
	' "$1" | sed -e 's/^[[:space:]]*//' -e 's/[[:space:]]*$//'
}

# usage_lines: the "usage:" / "   or:" lines of the help text on stdin, without the prefix
usage_lines() {
	sed -n -e 's/^usage: //p' -e 's/^   or: //p' | sed -e 's/[[:space:]]*$//'
}

checked=0
missing=
failed=

check() {
	local doc=$1 want=$2
	shift 2
	synopsis "$doc" >"$tmpdir/doc"
	"$SAMPO" "$@" 2>/dev/null | usage_lines >"$tmpdir/usage" || true
	if [ ! -s "$tmpdir/doc" ]; then
		say "${doc#"$SAMPO_SRCDIR"/}: no SYNOPSIS section"
		failed="$failed $want"
	elif ! diff -u "$tmpdir/doc" "$tmpdir/usage" >"$tmpdir/diff"; then
		say "${doc#"$SAMPO_SRCDIR"/} SYNOPSIS differs from 'sampo $*':"
		sed 's/^/#   /' "$tmpdir/diff" >&2
		failed="$failed $want"
	fi
	checked=$((checked + 1))
}

if [ -f "$SAMPO_SRCDIR/docs/sampo.md" ]; then
	check "$SAMPO_SRCDIR/docs/sampo.md" sampo --help
else
	missing="$missing sampo"
fi

for cmd in $("$SAMPO" --list-cmds); do
	[ "$cmd" = help ] && continue
	doc=$SAMPO_SRCDIR/docs/sampo-$cmd.md
	if [ -f "$doc" ]; then
		check "$doc" "$cmd" "$cmd" -h
	else
		missing="$missing $cmd"
	fi
done

[ -z "$missing" ] || say "no man page yet for:$missing"
[ -z "$failed" ] || die "SYNOPSIS out of date for:$failed"
[ "$checked" -gt 0 ] || skip "no docs/sampo*.md yet"
pass

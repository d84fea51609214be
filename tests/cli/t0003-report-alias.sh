#!/bin/bash
# t0003-report-alias: `sampo report -D` behaves exactly like `sampo dump` and `sampo report
# --header-only` like `sampo header`; `report --header` prints the header, then the report
. "$(dirname "$0")/lib.sh"

# same_as "ALIAS ARGS" "CMD ARGS": identical stdout, stderr and exit status
same_as() {
	local rc1=0 rc2=0
	# shellcheck disable=SC2086
	"$SAMPO" $1 >"$tmpdir/a.out" 2>"$tmpdir/a.err" || rc1=$?
	# shellcheck disable=SC2086
	"$SAMPO" $2 >"$tmpdir/b.out" 2>"$tmpdir/b.err" || rc2=$?
	[ "$rc1" -eq "$rc2" ] || die "'sampo $1' exited with $rc1, 'sampo $2' with $rc2"
	cmp -s "$tmpdir/a.out" "$tmpdir/b.out" || {
		diff -u "$tmpdir/b.out" "$tmpdir/a.out" | head -20
		die "stdout of 'sampo $1' differs from 'sampo $2'"
	}
	cmp -s "$tmpdir/a.err" "$tmpdir/b.err" || {
		diff -u "$tmpdir/b.err" "$tmpdir/a.err" | head -20
		die "stderr of 'sampo $1' differs from 'sampo $2'"
	}
}

# With the fixture when the shared directory is there, else on a missing
# file: the alias must behave the same either way.
f=$tmpdir/does-not-exist.data
if [ -n "$SAMPO_SHARED" ] && [ -f "$SAMPO_SHARED/fixtures/perf-6.1/b-callchain-fp/perf.data" ]; then
	f=$SAMPO_SHARED/fixtures/perf-6.1/b-callchain-fp/perf.data
fi

same_as "report -D -i $f" "dump -i $f"
same_as "report -i $f -D" "dump -i $f"
same_as "report --dump-raw-trace -i $f" "dump -i $f"
same_as "report --header-only -i $f" "header -i $f"
same_as "report --header-only -I -i $f" "header -I -i $f"
same_as "report -D --header-only -i $f" "header -i $f"
same_as "report -D -h" "dump -h"
same_as "report --header-only -h" "header -h"

# --header is report's own, as in perf: the header, then the report without its first two
# lines (where it says to use --header)
if [ -f "$f" ]; then
	"$SAMPO" header -I -i "$f" >"$tmpdir/header.out"
	"$SAMPO" report --stdio -i "$f" >"$tmpdir/report.out"
	"$SAMPO" report -I --header --stdio -i "$f" >"$tmpdir/both.out"
	head -1 "$tmpdir/report.out" | grep -q 'please use --header/--header-only' ||
		die "the report no longer starts with perf's pointer to --header"
	{ cat "$tmpdir/header.out"; tail -n +3 "$tmpdir/report.out"; } |
		cmp -s - "$tmpdir/both.out" || die "report --header is not the header then the report"
	grep -q '^# Samples: ' "$tmpdir/both.out" || die "report --header printed no report"
fi

# "--" ends the alias scan: what follows is not an alias flag but a stray argument
expect_status 129 report -- -D
grep -q "unexpected argument '-D'" "$tmpdir/stderr" || die "'report -- -D' was taken for an alias"

pass

#!/bin/bash
# t0000-help: global options, `sampo help`, unknown commands and exit statuses of main()
. "$(dirname "$0")/lib.sh"

# --help / -h / help: usage on stdout, every command listed, exit 0
for args in --help -h help; do
	expect_status 0 $args
	grep -q '^usage: sampo ' "$tmpdir/stdout" || die "'sampo $args' prints no usage line"
	[ ! -s "$tmpdir/stderr" ] || die "'sampo $args' wrote to stderr"
	for cmd in dump header help report; do
		grep -q "^   $cmd " "$tmpdir/stdout" || die "'sampo $args' does not list '$cmd'"
	done
done

# --list-cmds: one name per line, sorted (commands[] must stay sorted)
expect_status 0 --list-cmds
sort -c "$tmpdir/stdout" || die "commands[] in main.c is not sorted"
grep -qx dump "$tmpdir/stdout" || die "--list-cmds misses dump"
grep -qx header "$tmpdir/stdout" || die "--list-cmds misses header"

# --version
expect_status 0 --version
grep -Eq '^sampo version [0-9]+\.[0-9]+\.[0-9]+' "$tmpdir/stdout" || die "bad --version: $(cat "$tmpdir/stdout")"

# no command: usage on stderr, exit 129
expect_status 129
grep -q '^usage: sampo ' "$tmpdir/stderr" || die "no usage after 'sampo' alone"

# unknown command: git's message, exit 129
expect_status 129 xyz
echo "sampo: 'xyz' is not a sampo command. See 'sampo --help'." >"$tmpdir/want"
compare_files "$tmpdir/want" "$tmpdir/stderr"
[ ! -s "$tmpdir/stdout" ] || die "unknown command wrote to stdout"

# unknown global option: exit 129
expect_status 129 --no-such-option dump
grep -q "unknown option '--no-such-option'" "$tmpdir/stderr" || die "unknown global option not reported"

# -v is accepted before the command
expect_status 0 -v --help
expect_status 0 -vv --version

# help <unknown>: exit 129; help help: the main usage
expect_status 129 help xyz
grep -q "'xyz' is not a sampo command" "$tmpdir/stderr" || die "'sampo help xyz' message"
expect_status 0 help help
grep -q '^usage: sampo ' "$tmpdir/stdout" || die "'sampo help help' prints no usage"

# report with no perf.data where it runs: exit 1, one message naming the file
(cd "$tmpdir" && expect_status 1 report </dev/null)
grep -q "^sampo report: .*perf.data" "$tmpdir/stderr" || die "'sampo report' message"
expect_status 0 report -h
grep -q '^usage: sampo report' "$tmpdir/stdout" || die "'sampo report -h' usage"

pass

#!/bin/bash
# t6703-messages-options: options as a perf user types them: every option of perf 6.1's
# record, report (and its -D / --header-only commands), script and buildid-list is either taken
# or "perf's --foo is not supported by sampo (yet)", never "unknown option"; perf's commands
# sampo lacks say so too; a bad -F field is named with the valid ones; prefixes perf takes
# (--no-child) work; --stdio is taken where perf takes it, with the -D / --header-only aliases
. "$(dirname "$0")/lib.sh"

need_perf
b=$(fixture b-callchain-fp/perf.data)
cd "$tmpdir"
mkdir empty

# --- the committed table is what the installed perf says
python3 "$SAMPO_SRCDIR/scripts/gen-perf-options.py" "$PERF" >perf-options.c
diff -u "$SAMPO_SRCDIR/tools/sampo/perf-options.c" perf-options.c >&2 ||
	die "tools/sampo/perf-options.c differs from 'perf CMD -h': run scripts/gen-perf-options.py"

# perf_opts PERF-CMD: "<short> <long>" of each option `perf CMD -h` lists ('-' for none)
perf_opts() {
	# shellcheck disable=SC2086
	"$PERF" $1 -h 2>&1 | sed -n -E \
		-e 's/^    -([^ ]), (    )?--(\[no-\])?([A-Za-z0-9][A-Za-z0-9_-]*).*/\1 \4/p' \
		-e 's/^        --(\[no-\])?([A-Za-z0-9][A-Za-z0-9_-]*).*/- \2/p' \
		-e 's/^    -([^ -])( .*)?$/\1 -/p'
}

# check SAMPO-CMD PERF-CMD: each perf option is taken or named as perf's
check() {
	local cmd=$1 pcmd=$2 short long taken=0 perfs=0 total=0 err
	while read -r short long; do
		[ "$long" = help ] && continue
		# report's -D / --header-only name other sampo commands: see the aliases below
		case $pcmd:$long in report:dump-raw-trace | report:header | report:header-only) continue ;; esac
		total=$((total + 1))
		if [ "$long" != - ]; then
			# "=x" never takes the next argument; the bogus option after it stops sampo
			# before it does anything, if --$long itself was taken
			(cd empty && "$SAMPO" $cmd "--$long=x" --zzz-sampo-test </dev/null >/dev/null 2>"$tmpdir/err") &&
				die "sampo $cmd --$long=x --zzz-sampo-test succeeded"
			err=$(head -n 1 "$tmpdir/err")
			case $err in
			*"unknown option '--$long"*) die "sampo $cmd: $err (perf $pcmd has --$long)" ;;
			*"perf's --$long is not supported by sampo (yet)"* | *"perf's -$short (--$long) is not supported"*)
				perfs=$((perfs + 1)) ;;
			*"-v/--verbose goes before the command"*) perfs=$((perfs + 1)) ;;
			*"not supported"*) die "sampo $cmd --$long: unsupported, but not named: $err" ;;
			*) taken=$((taken + 1)) ;;
			esac
			# the short name of an unsupported option says the same
			if [ "$short" != - ] && [[ $err == *"not supported"* ]]; then
				(cd empty && "$SAMPO" $cmd "-$short" </dev/null >/dev/null 2>"$tmpdir/err") || true
				grep -q "perf's -$short (--$long) is not supported by sampo (yet)\|goes before the command" \
					"$tmpdir/err" || die "sampo $cmd -$short: $(head -n 1 "$tmpdir/err")"
			fi
		else
			(cd empty && "$SAMPO" $cmd "-$short" --zzz-sampo-test </dev/null >/dev/null 2>"$tmpdir/err") || true
			err=$(head -n 1 "$tmpdir/err")
			case $err in
			*"unknown option '-$short'"*) die "sampo $cmd: $err (perf $pcmd has -$short)" ;;
			*"perf's -$short is not supported"*) perfs=$((perfs + 1)) ;;
			*) taken=$((taken + 1)) ;;
			esac
		fi
	done < <(perf_opts "$pcmd")
	[ "$total" -gt 3 ] || die "perf $pcmd -h: only $total options parsed"
	say "sampo $cmd: of perf $pcmd's $total options, $taken taken, $perfs named as perf's"
}
check report report
check dump report
check header report
check script script
check record record
check buildid-list buildid-list

# --- a real typo is still an unknown option, in perf as in sampo
expect_status 129 report --zzz
grep -q "^sampo report: unknown option '--zzz'\$" "$tmpdir/stderr" || die "--zzz: $(head -n 1 "$tmpdir/stderr")"
"$PERF" report --zzz >/dev/null 2>"$tmpdir/perf.err" && die "perf takes --zzz now?"
grep -q "unknown option \`zzz'" "$tmpdir/perf.err" || die "perf's message on --zzz changed"
expect_status 129 report --branch-history
grep -q "^sampo report: perf's --branch-history is not supported by sampo (yet)\$" "$tmpdir/stderr" ||
	die "--branch-history: $(head -n 1 "$tmpdir/stderr")"
# a prefix perf would take names perf's whole option
expect_status 129 report --branch-hist
grep -q "^sampo report: perf's --branch-history is not supported by sampo (yet)\$" "$tmpdir/stderr" ||
	die "--branch-hist: $(head -n 1 "$tmpdir/stderr")"

# --- perf's commands that sampo lacks
"$PERF" --list-cmds | tr " " "\n" >perf-cmds; grep -qx annotate perf-cmds || die "perf has no annotate?"
expect_status 129 annotate
grep -q "^sampo: perf's 'annotate' command is not supported by sampo (yet)" "$tmpdir/stderr" ||
	die "annotate: $(cat "$tmpdir/stderr")"
expect_status 129 xyz
grep -q "^sampo: 'xyz' is not a sampo command" "$tmpdir/stderr" || die "xyz: $(cat "$tmpdir/stderr")"

# --- script -F: the bad field, and the valid ones (each of which works)
expect_status 129 script -i "$b" -F comm,foo,tid
grep -q "^sampo script: -F: unknown field 'foo'; the fields are [a-z_,]*\$" "$tmpdir/stderr" ||
	die "-F foo: $(head -n 1 "$tmpdir/stderr")"
fields=$(head -n 1 "$tmpdir/stderr" | sed 's/.*the fields are //')
for f in ${fields//,/ }; do
	# (a field the file lacks, as cpu here, is another error, as in perf)
	"$SAMPO" script -i "$b" -F "$f" >/dev/null 2>"$tmpdir/err" || true
	! grep -q "unknown field\|invalid argument" "$tmpdir/err" || die "-F $f is listed as valid: $(cat "$tmpdir/err")"
done
"$PERF" script -i "$b" -F comm,foo,tid >/dev/null 2>"$tmpdir/perf.err" && die "perf takes -F foo?"
grep -q "Invalid field requested" "$tmpdir/perf.err" || die "perf's -F foo message changed"
expect_status 129 script -i "$b" -F comm,srccode
grep -q "^sampo script: -F: perf's field 'srccode' is not supported by sampo (yet); sampo's fields: $fields\$" \
	"$tmpdir/stderr" || die "-F srccode: $(head -n 1 "$tmpdir/stderr")"

# --- prefixes perf takes: --no-child is --no-children, --chil is --children, --sor is --sort
for pair in "--no-child --no-children" "--chil --children" "--sor=dso --sort=dso" "--show-nr --show-nr-samples"; do
	set -- $pair
	"$SAMPO" report --stdio -i "$b" "$1" >short.out 2>/dev/null || die "sampo report $1 failed"
	"$SAMPO" report --stdio -i "$b" "$2" >long.out 2>/dev/null || die "sampo report $2 failed"
	cmp -s short.out long.out || die "sampo report $1 differs from $2"
	"$PERF" report --stdio -i "$b" "$1" 2>/dev/null | grep -v '^# (Tip' >perf-short.out ||
		die "perf report $1 failed"
	"$PERF" report --stdio -i "$b" "$2" 2>/dev/null | grep -v '^# (Tip' >perf-long.out
	cmp -s perf-short.out perf-long.out || die "perf report $1 differs from $2: not a perf prefix"
done

# --- --stdio wherever perf takes it, with the aliases too
for args in "report" "report -D" "report --header-only" "report --header" "dump" "header" \
	"report --dump-raw" "report --header-o"; do
	# shellcheck disable=SC2086
	"$SAMPO" $args -i "$b" >plain.out 2>/dev/null || die "sampo $args failed"
	# shellcheck disable=SC2086
	"$SAMPO" $args --stdio -i "$b" >stdio.out 2>"$tmpdir/err" || die "sampo $args --stdio: $(cat "$tmpdir/err")"
	cmp -s plain.out stdio.out || die "sampo $args: --stdio changes the output"
done
"$SAMPO" header -i "$b" >header.out 2>/dev/null
"$SAMPO" report --header-o -i "$b" | cmp -s - header.out || die "--header-o is not --header-only"
"$SAMPO" dump -i "$b" >dump.out 2>/dev/null
"$SAMPO" report --dump-raw -i "$b" | cmp -s - dump.out || die "--dump-raw is not --dump-raw-trace"
for args in "report -D --stdio" "report --header-only --stdio" "report --header-o" "report --dump-raw"; do
	# shellcheck disable=SC2086
	"$PERF" $args -i "$b" >/dev/null 2>&1 || die "perf $args fails: not what perf takes"
done
pass

#!/bin/bash
# t3000-script-fixtures: sampo script -F ... prints what perf 6.1 script -F ... prints on every fixture, kernel symbols from the fixtures' kallsyms snapshot
. "$(dirname "$0")/lib.sh"

fixtures=$(fixtures_dir)
need_cmd tar bzip2 gzip
archive=$(fixture b-callchain-fp/perf.data.tar.bz2)

# The recording kernel is not this machine's: both perf and sampo find its
# kallsyms snapshot in a build-id cache made from the fixture's perf archive.
export HOME=$tmpdir/home
unset PERF_BUILDID_DIR
mkdir -p "$HOME/.debug"
tar -xjf "$archive" -C "$HOME/.debug"
kallsyms="$HOME/.debug/[kernel.kallsyms]/4a5a9b0affb66c437abcd455d2738af879985fa9/kallsyms"
[ -f "$kallsyms" ] || die "no kallsyms snapshot in '$archive'"

golden_dir=$expected_dir/$test_name

# field sets: name and arguments
sets="ipsymdso default hide"
args_of() {
	case $1 in
	ipsymdso) echo "-F ip,sym,dso" ;;
	default) echo "" ;;
	hide) echo "-G -F comm,tid,pid,time,period,event,ip,sym,symoff,dso" ;;
	cpu) echo "-F comm,pid,tid,cpu,time,event,ip,sym,symoff,dso" ;;
	esac
}

checked=0
for dir in "$fixtures"/*/; do
	name=$(basename "$dir")
	[ -f "$dir/perf.data" ] || continue
	extra=()
	# no build-id table: the snapshot has to be named (sampo never guesses a kernel)
	case $name in d-pipe-mode | e-compressed-zstd) extra=(--kallsyms "$kallsyms") ;; esac
	these=$sets
	case $name in a-* | h-*) these="$these cpu" ;; esac
	for set in $these; do
		# shellcheck disable=SC2046
		set -- $(args_of "$set")
		out=$tmpdir/$name.$set.out
		run_sampo script -i "$dir/perf.data" "${extra[@]}" "$@" >"$out" 2>"$tmpdir/err"
		golden=$golden_dir/$name.$set.out.gz
		if [ -n "$SAMPO_UPDATE_GOLDEN" ]; then
			# goldens come from perf itself, never from sampo
			need_perf
			mkdir -p "$golden_dir"
			"$PERF" script -i "$dir/perf.data" "${extra[@]}" "$@" 2>/dev/null |
				gzip -n -9 >"$golden"
			say "updated ${golden#"$SAMPO_SRCDIR"/} (from perf)"
		fi
		[ -f "$golden" ] || die "missing golden '$golden' (SAMPO_UPDATE_GOLDEN=1 makes it with perf)"
		gzip -dc "$golden" >"$tmpdir/expected"
		compare_files "$tmpdir/expected" "$out"
		# and perf itself, when it is installed
		if [ -n "${PERF:-}" ] && [ -x "$PERF" ]; then
			env -u MALLOC_PERTURB_ "$PERF" script -i "$dir/perf.data" "${extra[@]}" "$@" \
				>"$out.perf" 2>/dev/null ||
				die "$name: perf script $* failed"
			compare_files "$out.perf" "$out"
		fi
		checked=$((checked + 1))
	done
done
[ "$checked" -gt 0 ] || skip "no fixtures"

# through a pipe, in pipe format
d=$fixtures/d-pipe-mode
cat "$d/perf.data" | "$SAMPO" script -F ip,sym,dso --kallsyms "$kallsyms" >"$tmpdir/pipe.out" ||
	die "'cat | sampo script' failed"
gzip -dc "$golden_dir/d-pipe-mode.ipsymdso.out.gz" >"$tmpdir/expected"
compare_files "$tmpdir/expected" "$tmpdir/pipe.out"
say "$checked outputs"
pass

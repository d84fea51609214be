#!/bin/bash
# t2010-report-simpleperf-symbols: samples of Android simpleperf recordings are named from
# the symbol tables the files carry (FILE and FILE2), as simpleperf names them, never from
# this machine's files of the same path; --provenance says "embedded"
. "$(dirname "$0")/lib.sh"

need_cmd python3
need_cmd c++filt
names=$SAMPO_SRCDIR/tests/cli/simpleperf-names.py
mk=$SAMPO_SRCDIR/tests/tools/mksimpleperf.py

# "TID IP SYMBOL DSO" per sample, from sampo script
script_names() {
	"$SAMPO" script -G -F tid,ip,sym,dso -i "$1" 2>/dev/null |
		sed -n 's/^ *\([0-9]*\) *\([0-9a-f]*\) \(.*\) (\(.*\))$/\1 \2 \3 \4/p' | sort
}

python3 "$mk" --file-version 1 "$tmpdir/crafted1.data"
python3 "$mk" --file-version 2 "$tmpdir/crafted2.data"
nr=0
for f in "$SAMPO_SRCDIR"/tests/fixtures/simpleperf/*.data "$tmpdir"/crafted?.data; do
	b=$(basename "$f")
	# first principles: simpleperf's naming rules on the file's own table, read by an
	# independent reader (names demangled by c++filt, as simpleperf's report shows them)
	python3 "$names" demangled "$f" | sort >"$tmpdir/$b.want"
	script_names "$f" >"$tmpdir/$b.got"
	comm -23 "$tmpdir/$b.want" "$tmpdir/$b.got" >"$tmpdir/$b.missing"
	if [ -s "$tmpdir/$b.missing" ]; then
		head -5 "$tmpdir/$b.missing" | sed 's/^/# want: /' >&2
		die "$b: $(wc -l <"$tmpdir/$b.missing") of $(wc -l <"$tmpdir/$b.want") samples not named as simpleperf names them"
	fi
	nr=$((nr + $(wc -l <"$tmpdir/$b.want")))
done
# every table layout has samples to check: FILE with and without file offsets, FILE2, kernel
[ "$nr" -ge 1000 ] || die "only $nr samples checked"
grep -q ' main /data/t2$' "$tmpdir/perf_with_symbols.data.want" || die "no FILE (v1, no offsets) sample"
grep -q ' Function1() /data/local/tmp/' "$tmpdir/runtest_two_functions_arm64_perf.data.want" ||
	die "no FILE (v1) sample with a file offset"
grep -q ' _dl_addr /lib/x86_64-linux-gnu/libc-2.32.so$' "$tmpdir/perf_with_add_counter.data.want" ||
	die "no FILE2 sample"
grep -q ' _raw_spin_unlock_irq \[kernel.kallsyms\]$' "$tmpdir/perf_test_vmlinux.data.want" ||
	die "no FILE2 kernel sample"
grep -q '\[linker\]soinfo::gnu_lookup(SymbolName&' "$tmpdir/perf_with_callchain_record.data.got" ||
	die "the dynamic linker's __dl_ symbols are not shown as simpleperf shows them"

# the crafted files: what the generator wrote into its tables (names in full, as c++filt gives)
for v in 1 2; do
	python3 "$mk" --expect | sed 's/_ZN3foo5alphaEv/foo::alpha()/' | sort >"$tmpdir/expect"
	compare_files "$tmpdir/expect" "$tmpdir/crafted$v.data.got"
done
# /usr/bin/true is this machine's x86-64 program; the recording's (aarch64) is named by its table
grep -q ' 7200001004 true_from_the_table /usr/bin/true$' "$tmpdir/crafted2.data.got" ||
	die "/usr/bin/true not named from the table"
run_sampo report --stdio --provenance -i "$tmpdir/crafted2.data" >"$tmpdir/prov" 2>/dev/null
grep -A3 '^/usr/bin/true$' "$tmpdir/prov" |
	grep -q 'symbols   embedded: simpleperf file table (FILE2)$' ||
	die "provenance: $(cat "$tmpdir/prov")"
run_sampo report --stdio --provenance -i "$tmpdir/crafted1.data" >"$tmpdir/prov1" 2>/dev/null
grep -q 'symbols   embedded: simpleperf file table (FILE)$' "$tmpdir/prov1" || die "FILE provenance"
# the module's entry, placed by its memory offset, names the sample in its map (the
# kernel's map, from 0 to the end as older simpleperf records it, holds it too)
grep -q ' ffffffc011000190 foo_mod_func \[foo_mod\]$' "$tmpdir/crafted1.data.got" ||
	die "module sample: $(grep ffffffc011 "$tmpdir/crafted1.data.got")"
grep -A3 '^\[foo_mod\]$' "$tmpdir/prov" | grep -q 'symbols   embedded: simpleperf file table' ||
	die "module provenance: $(cat "$tmpdir/prov")"
# report rows: 2 of the 11 samples in foo_beta, 1 in foo::alpha()
run_sampo report --stdio --sort sym -i "$tmpdir/crafted2.data" >"$tmpdir/report" 2>/dev/null
grep -q '^ *18.18%  \[\.\] foo_beta *$' "$tmpdir/report" || die "report: $(cat "$tmpdir/report")"
grep -q '^ *9.09%  \[\.\] foo::alpha() *$' "$tmpdir/report" || die "report: $(cat "$tmpdir/report")"

# without its table, the recording's /usr/bin/true is never named from this machine's
python3 "$mk" --file-version 2 --no-file-table "$tmpdir/notable.data"
script_names "$tmpdir/notable.data" >"$tmpdir/notable.got"
grep -q ' 7200001004 \[unknown\] /usr/bin/true$' "$tmpdir/notable.got" ||
	die "without a table: $(grep true "$tmpdir/notable.got")"
pass

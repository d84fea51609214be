#!/bin/bash
# t7301-archive-bare-machine: a profile recorded here, archived with sampo archive (and --all),
# read on a "bare machine" (a fresh HOME, the binary renamed away) gives byte-identical report and
# script output to reading it at home, and differs without the archive; perf reads sampo's
# archive after `tar xf -C ~/.debug` (perf report byte-identical too); sampo reads perf archive's
# (perf 6.1's perf-archive script) and perf 6.12's --all layout; -o picks the compression;
# --unpack fills a cache perf and sampo use
. "$(dirname "$0")/lib.sh"

need_perf_record
burn_src=$SAMPO_BUILDDIR/demo/burn
[ -x "$burn_src" ] || skip "no demo/burn in the build"
unset PERF_BUILDID_DIR SAMPO_BUILDID_DIR
home=$tmpdir/home
export HOME=$home
mkdir -p "$home" "$tmpdir/bin" "$tmpdir/bare"
cd "$tmpdir"
cp "$burn_src" bin/burn
burn=$tmpdir/bin/burn
bare() { HOME=$tmpdir/bare$1 "$@"; }
# fresh HOME each time: nothing cached, nothing configured
fresh() { rm -rf "$tmpdir/bare"; mkdir -p "$tmpdir/bare"; }
away() { mv "$burn" "$burn.away"; }
back() { mv "$burn.away" "$burn"; }

# --- recorded and read at home (the record fills ~/.debug)
run_sampo record -q -g -F 1000 -o s.data -- "$burn" 300 >/dev/null
run_sampo report --stdio -i s.data >home.report
run_sampo script -i s.data >home.script
grep -q burn_leaf_alpha home.report || die "no burn symbols at home"

run_sampo archive -i s.data -o s.tar.bz2 >archive.out
grep -q "tar xvf s.tar.bz2 -C ~/.debug" archive.out || die "no perf-style instructions: $(cat archive.out)"
tar tjf s.tar.bz2 >members
bid=$("$PERF" buildid-list -i "$burn")
kbid=$("$PERF" buildid-list -k)
grep -qx ".build-id/${bid:0:2}/${bid:2}" members || die "no .build-id link for burn: $(cat members)"
grep -qx "${burn#/}/$bid/elf" members || die "no burn entry: $(cat members)"
if "$PERF" buildid-list -i s.data -H | grep -q "^$kbid \[kernel.kallsyms\]"; then
	grep -qx "\[kernel.kallsyms\]/$kbid/kallsyms" members || die "no kallsyms snapshot: $(cat members)"
fi
run_sampo archive --all -i s.data -o all.tar.bz2 >/dev/null
tar tjf all.tar.bz2 | sort >all.members
printf 's.data\nperf.symbols.tar.bz2\n' | sort >want.members
compare_files want.members all.members

# --- the bare machine
away
fresh
(cd bare && HOME=$tmpdir/bare "$SAMPO" report --stdio -i ../s.data --archive ../s.tar.bz2) >bare.report
compare_files home.report bare.report
(cd bare && HOME=$tmpdir/bare "$SAMPO" script -i ../s.data --archive ../s.tar.bz2) >bare.script
compare_files home.script bare.script
# --all: the profile comes from the archive too
(cd bare && HOME=$tmpdir/bare "$SAMPO" report --stdio --archive ../all.tar.bz2) >bare-all.report
compare_files home.report bare-all.report
(cd bare && HOME=$tmpdir/bare "$SAMPO" script --archive ../all.tar.bz2) >bare-all.script
compare_files home.script bare-all.script
# without the archive the bare machine has no burn symbols: the archive is what gave them
HOME=$tmpdir/bare "$SAMPO" report --stdio -i s.data 2>/dev/null >noarchive.report || true
grep -q burn_leaf_alpha noarchive.report && die "burn resolved on the bare machine without the archive"

# --unpack fills a cache both read; --all puts the profile in the current directory
fresh
(cd bare && HOME=$tmpdir/bare "$SAMPO" archive --unpack ../s.tar.bz2 >/dev/null)
(cd bare && HOME=$tmpdir/bare "$SAMPO" report --stdio -i ../s.data) >unpacked.report
compare_files home.report unpacked.report
fresh
(cd bare && HOME=$tmpdir/bare "$SAMPO" archive --unpack ../all.tar.bz2 >/dev/null)
[ -f bare/s.data ] && cmp -s bare/s.data s.data || die "--unpack of --all did not give the profile"
(cd bare && HOME=$tmpdir/bare "$SAMPO" report --stdio -i s.data) >unpacked-all.report
compare_files home.report unpacked-all.report
(cd bare && HOME=$tmpdir/bare "$SAMPO" archive --unpack ../all.tar.bz2 >/dev/null 2>err) &&
	die "--unpack replaced an existing profile without -f"
(cd bare && HOME=$tmpdir/bare "$SAMPO" archive -f --unpack ../all.tar.bz2 >/dev/null)

# --- perf reads sampo's archive: tar xf -C ~/.debug, as perf archive says
back
"$PERF" report --stdio -i s.data 2>/dev/null | grep -v "^# (Tip:" >perf-home.report
away
fresh
mkdir -p bare/.debug
tar xf s.tar.bz2 -C bare/.debug
HOME=$tmpdir/bare "$PERF" report --stdio -i s.data 2>/dev/null | grep -v "^# (Tip:" >perf-bare.report
compare_files perf-home.report perf-bare.report
grep -q burn_leaf_alpha perf-bare.report || die "perf has no burn symbols from sampo's archive"

# --- sampo reads perf archive's archive (perf 6.1's script), and perf 6.12's --all layout
back
rm -rf "$home/.debug"
"$PERF" record -q -g -F 1000 -o p.data -- "$burn" 300 >/dev/null 2>&1
run_sampo report --stdio -i p.data >p-home.report
perf_archive=
for f in /usr/lib/perf-core/perf-archive /usr/libexec/perf-core/perf-archive; do
	[ -x "$f" ] && perf_archive=$f && break
done
[ -n "$perf_archive" ] || die "no perf-archive script (Debian's linux-perf installs /usr/lib/perf-core/perf-archive)"
PATH=$(dirname "$PERF"):$PATH "$perf_archive" p.data >/dev/null
away
fresh
(cd bare && HOME=$tmpdir/bare "$SAMPO" report --stdio -i ../p.data --archive ../p.data.tar.bz2) >p-bare.report
compare_files p-home.report p-bare.report
# perf 6.12's --all: `tar cjf perf.all-HOST-DATE.tar.bz2 perf.data perf.symbols.tar.bz2`
mkdir all612 && cp p.data all612/perf.data && cp p.data.tar.bz2 all612/perf.symbols.tar.bz2
tar cjf perf.all-host-20250101-000000.tar.bz2 -C all612 perf.data perf.symbols.tar.bz2
(cd bare && HOME=$tmpdir/bare "$SAMPO" report --stdio --archive ../perf.all-host-20250101-000000.tar.bz2) >p-bare-all.report
compare_files p-home.report p-bare-all.report
back

# --- -o picks the compression; the default is perf's bzip2
for ext in tar.gz tar.xz tar.zst tar; do
	run_sampo archive -i s.data -o "s.$ext" >/dev/null
	tar tf "s.$ext" | grep -x "${burn#/}/$bid/elf" >/dev/null || die "s.$ext does not hold burn"
done
[ "$(head -c 3 s.tar.bz2)" = BZh ] || die "the default archive is not bzip2"
[ "$(od -An -tx1 -N2 s.tar.gz | tr -d ' ')" = 1f8b ] || die "s.tar.gz is not gzip"
run_sampo archive -i s.data >/dev/null
[ -s s.data.tar.bz2 ] || die "no default output s.data.tar.bz2"

# --- errors
expect_status 1 archive -i nonexistent.data
grep -q "nonexistent.data" "$tmpdir/stderr" || die "bad message: $(cat "$tmpdir/stderr")"
expect_status 1 archive --unpack nonexistent.tar.bz2
grep -q "nonexistent.tar.bz2" "$tmpdir/stderr" || die "bad message: $(cat "$tmpdir/stderr")"
expect_status 129 archive --unpack s.tar.bz2 --all
pass

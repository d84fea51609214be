#!/bin/bash
# t7300-buildid-cache-vs-perf: sampo buildid-cache and perf buildid-cache read and write one
# cache: perf lists, removes and reports from what sampo adds (a binary renamed away), sampo
# lists, removes and finds missing what perf adds; -p, -P, -u, -k, --buildid-dir and the
# SAMPO_BUILDID_DIR / PERF_BUILDID_DIR variables; a file that cannot be added is one error line
. "$(dirname "$0")/lib.sh"

need_perf_record
burn_src=$SAMPO_BUILDDIR/demo/burn
[ -x "$burn_src" ] || skip "no demo/burn in the build"
export HOME=$tmpdir/home
unset PERF_BUILDID_DIR SAMPO_BUILDID_DIR
mkdir -p "$HOME" "$tmpdir/bin"
cd "$tmpdir"
cp "$burn_src" bin/burn
cp /bin/true bin/mytrue
burn=$tmpdir/bin/burn
mytrue=$tmpdir/bin/mytrue
bid_of() { "$PERF" buildid-list -i "$1"; }
bburn=$(bid_of "$burn")
btrue=$(bid_of "$mytrue")
[ -n "$bburn" ] && [ -n "$btrue" ] || die "no build-ids for the test binaries"
d=$HOME/.debug

# lists compared sorted: both walk directories, in directory order for perf
plist() { "$PERF" buildid-cache -l "$@" 2>/dev/null | sort; }
slist() { "$SAMPO" buildid-cache -l "$@" | sort; }

# --- sampo adds (a relative name is stored by its real path), perf reads
(cd bin && run_sampo buildid-cache -v -a burn,mytrue 2>"$tmpdir/add.err")
grep -qx "Adding $bburn $burn: Ok" add.err || die "no 'Adding' line: $(cat add.err)"
[ -f "$d/${burn#/}/$bburn/elf" ] && cmp -s "$d/${burn#/}/$bburn/elf" "$burn" || die "burn is not in the cache"
printf '%s %s\n%s %s\n' "$bburn" "$burn" "$btrue" "$mytrue" | sort >want.l
plist >perf.l
compare_files want.l perf.l
slist >sampo.l
compare_files perf.l sampo.l

# perf reports burn's symbols from sampo's copy once the binary is gone
"$PERF" record -q -N -e cpu-clock -F 1000 -o p.data -- "$burn" 100 >/dev/null 2>&1
mv "$burn" "$burn.away"
"$PERF" report --stdio -i p.data --sort sym 2>/dev/null | grep -q burn_leaf_alpha ||
	die "perf does not find burn in the cache sampo wrote"
"$SAMPO" report --stdio -i p.data --sort sym 2>/dev/null | grep -q burn_leaf_alpha ||
	die "sampo does not find burn in the cache"
# -l leaves out a file that is gone, as perf does
plist >perf.l
slist >sampo.l
compare_files perf.l sampo.l
grep -q burn sampo.l && die "-l lists a file that is gone"
mv "$burn.away" "$burn"

# --- perf removes what sampo added
"$PERF" buildid-cache -r "$mytrue" 2>/dev/null
[ -e "$d/.build-id/${btrue:0:2}/${btrue:2}" ] && die "perf did not remove sampo's link"
slist >sampo.l
printf '%s %s\n' "$bburn" "$burn" >want.l
compare_files want.l sampo.l

# --- perf adds, sampo reads and removes
rm -rf "$d"
"$PERF" buildid-cache -a "$mytrue" 2>/dev/null
"$PERF" buildid-cache -a "$burn" 2>/dev/null
plist >perf.l
slist >sampo.l
compare_files perf.l sampo.l
[ "$(wc -l <sampo.l)" = 2 ] || die "sampo lists $(wc -l <sampo.l) of perf's 2 entries"
run_sampo buildid-cache -r "$mytrue"
plist >perf.l
printf '%s %s\n' "$bburn" "$burn" >want.l
compare_files want.l perf.l
[ ! -e "$d/${mytrue#/}" ] || die "-r left $(find "$d/${mytrue#/}")"

# --- -M: what perf record put in the table and the cache lacks, as perf says it
rm -rf "$d"
"$PERF" record -q -e cpu-clock -F 1000 -o m.data -- "$burn" 100 >/dev/null 2>&1
"$PERF" buildid-cache -M m.data 2>/dev/null >perf.m
run_sampo buildid-cache -M m.data >sampo.m
compare_files perf.m sampo.m
run_sampo buildid-cache -r "$burn"
"$PERF" buildid-cache -M m.data 2>/dev/null >perf.m
run_sampo buildid-cache -M m.data >sampo.m
compare_files perf.m sampo.m
grep -qx "$bburn $burn" sampo.m || die "-M does not name the removed burn"

# --- -u, -p, -P: perf sees the result
run_sampo buildid-cache -u "$burn"
plist | grep -qx "$bburn $burn" || die "perf does not list what -u added"
run_sampo buildid-cache -v -p "$burn" 2>p.err
grep -qx "Purging $burn: Ok" p.err || die "no 'Purging' line: $(cat p.err)"
plist | grep -q "$burn" && die "perf still lists burn after -p"
run_sampo buildid-cache -P
[ -z "$(plist)" ] || die "perf lists entries after -P: $(plist)"
[ -z "$(find "$d/.build-id" -type l)" ] || die "-P left links: $(find "$d/.build-id" -type l)"

# --- -k: the running kernel's kallsyms under its build-id, as perf record stores it
kbid=$("$PERF" buildid-list -k)
run_sampo buildid-cache -k /proc/kcore
grep -q " T _text$" "$d/[kernel.kallsyms]/$kbid/kallsyms" || die "-k stored no kallsyms snapshot"
plist | grep -qx "$kbid \[kernel.kallsyms\]" || die "perf does not list the kernel after -k"

# --- the cache directory: --buildid-dir, SAMPO_BUILDID_DIR, PERF_BUILDID_DIR, ~/.perfconfig
run_sampo buildid-cache --buildid-dir "$tmpdir/c1" -a "$mytrue"
[ -f "$tmpdir/c1/${mytrue#/}/$btrue/elf" ] || die "--buildid-dir is not used"
"$PERF" --buildid-dir "$tmpdir/c1" buildid-cache -l 2>/dev/null | grep -qx "$btrue $mytrue" ||
	die "perf does not read the --buildid-dir cache"
SAMPO_BUILDID_DIR=$tmpdir/c2 PERF_BUILDID_DIR=$tmpdir/c3 "$SAMPO" buildid-cache -a "$mytrue"
[ -f "$tmpdir/c2/${mytrue#/}/$btrue/elf" ] && [ ! -e "$tmpdir/c3" ] ||
	die "SAMPO_BUILDID_DIR does not come first"
PERF_BUILDID_DIR=$tmpdir/c3 "$SAMPO" buildid-cache -a "$mytrue"
[ -f "$tmpdir/c3/${mytrue#/}/$btrue/elf" ] || die "PERF_BUILDID_DIR is not used"
printf '[buildid]\n\tdir = %s\n' "$tmpdir/c4" >"$HOME/.perfconfig"
run_sampo buildid-cache -a "$mytrue"
[ -f "$tmpdir/c4/${mytrue#/}/$btrue/elf" ] || die "~/.perfconfig's buildid.dir is not used"
"$PERF" buildid-cache -l 2>/dev/null | grep -qx "$btrue $mytrue" || die "perf does not read the buildid.dir cache"
rm "$HOME/.perfconfig"

# --- errors: one line naming the file, exit 1; the other files are still added
expect_status 1 buildid-cache -a "$tmpdir/nonexistent,$mytrue"
[ "$(wc -l <"$tmpdir/stderr")" = 1 ] && grep -q "nonexistent" "$tmpdir/stderr" ||
	die "bad -a message: $(cat "$tmpdir/stderr")"
slist | grep -qx "$btrue $mytrue" || die "the good file was not added after the bad one"
echo 'not elf' >notelf
expect_status 1 buildid-cache -a notelf
grep -q "notelf" "$tmpdir/stderr" || die "bad message for a non-ELF file: $(cat "$tmpdir/stderr")"
expect_status 129 buildid-cache
pass

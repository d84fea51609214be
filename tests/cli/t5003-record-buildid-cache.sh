#!/bin/bash
# t5003-record-buildid-cache: sampo record copies the DSOs with samples and the kallsyms snapshot into ~/.debug in perf's layout (perf finds them), skips it with --no-buildid-cache, and does not follow a symlink planted in the cache
. "$(dirname "$0")/lib.sh"

# grep_all ARGS: grep that reads all its input (grep -q would SIGPIPE the writer under pipefail)
grep_all() { grep "$@" >/dev/null; }

need_perf
burn_src=$SAMPO_BUILDDIR/demo/burn
[ -x "$burn_src" ] || skip "no demo/burn in the build"
export HOME=$tmpdir/home
unset PERF_BUILDID_DIR
mkdir -p "$HOME" "$tmpdir/bin"
cd "$tmpdir"
"$SAMPO" record -q -N -e cpu-clock -o probe.data -- true >/dev/null 2>&1 || skip "sampo cannot record here"
cp "$burn_src" bin/burn
burn=$tmpdir/bin/burn
bid=$("$PERF" buildid-list -i "$burn" 2>/dev/null || true)
[ -n "$bid" ] || bid=$(readelf -n "$burn" | awk '/Build ID/ { print $3 }')
kbid=$("$PERF" buildid-list -k)

# --no-buildid-cache: nothing written
run_sampo record -q -N -e cpu-clock -F 1000 -o n.data -- "$burn" 200 >/dev/null
[ ! -e "$HOME/.debug" ] || die "--no-buildid-cache wrote $(find "$HOME/.debug" | head -3)"

run_sampo record -q -e cpu-clock -F 1000 -o c.data -- "$burn" 200 >/dev/null
d=$HOME/.debug
[ -f "$d/${burn#/}/$bid/elf" ] || die "burn is not cached: $(find "$d" -maxdepth 6 | head)"
cmp -s "$d/${burn#/}/$bid/elf" "$burn" || die "cached burn differs from the file"
[ -L "$d/.build-id/${bid:0:2}/${bid:2}" ] || die "no .build-id link for burn"
[ "$(readlink -f "$d/.build-id/${bid:0:2}/${bid:2}")" = "$(readlink -f "$d/${burn#/}/$bid")" ] ||
	die ".build-id link does not point at the burn entry"
if "$PERF" buildid-list -i c.data | grep_all "^$kbid \[kernel.kallsyms\]"; then
	[ -s "$d/[kernel.kallsyms]/$kbid/kallsyms" ] || die "no kallsyms snapshot under the kernel build-id"
	grep -q " T _text$" "$d/[kernel.kallsyms]/$kbid/kallsyms" || die "the kallsyms snapshot has no _text"
fi

# perf resolves burn from the cache once the file is gone
rm -f "$burn"
"$PERF" report --stdio -i c.data --sort sym 2>/dev/null | grep_all burn_leaf_alpha ||
	die "perf does not find burn in the cache"
cp "$burn_src" "$burn"

# a symlink planted where the cache would write is not followed
rm -rf "$d" "$tmpdir/outside"
mkdir -p "$d" "$tmpdir/outside"
ln -s "$tmpdir/outside" "$d/${burn#/}" 2>/dev/null || { mkdir -p "$(dirname "$d/${burn#/}")"; ln -s "$tmpdir/outside" "$d/${burn#/}"; }
run_sampo record -q -e cpu-clock -F 1000 -o s.data -- "$burn" 100 >/dev/null
[ -z "$(ls -A "$tmpdir/outside")" ] || die "the cache followed a planted symlink: $(ls -A "$tmpdir/outside")"
"$PERF" report -D -i s.data >/dev/null 2>s.err && [ ! -s s.err ] || die "the file is not valid after a cache failure"
pass

#!/bin/bash
# t0006-libsampo-consumer: a program outside the tree builds against the installed libsampo (meson install, pkg-config) and counts the records of perf's files as perf does
. "$(dirname "$0")/lib.sh"

[ -e "$SAMPO_BUILDDIR/lib/libsampo.so" ] || skip "no shared libsampo in this build"
command -v pkg-config >/dev/null || skip "no pkg-config"
cc=${CC:-cc}
command -v "$cc" >/dev/null || skip "no C compiler"

dest=$tmpdir/root
meson install -C "$SAMPO_BUILDDIR" --no-rebuild --quiet --destdir "$dest" >"$tmpdir/install.log" 2>&1 ||
	{ cat "$tmpdir/install.log" >&2; die "meson install failed"; }
pc=$(find "$dest" -name sampo.pc | head -n 1)
[ -n "$pc" ] || die "no sampo.pc installed"
[ -n "$(find "$dest" -path '*/include/sampo/sampo.h')" ] || die "public headers not installed"
so=$(find "$dest" -name 'libsampo.so.*' -type f | head -n 1)
[ -n "$so" ] || die "no libsampo.so installed"

# build the example as an outside program would: only pkg-config's flags
export PKG_CONFIG_PATH=${pc%/*} PKG_CONFIG_SYSROOT_DIR=$dest
flags=$(pkg-config --cflags --libs sampo) || die "pkg-config cannot resolve sampo"
# a sanitizer build's library needs the program built with the same runtime
ldd "$so" >"$tmpdir/ldd-so" || die "ldd failed on $so"
if grep -q libasan "$tmpdir/ldd-so"; then
	flags="$flags -fsanitize=address,undefined"
fi
"$cc" -std=c11 -Wall -Werror "$SAMPO_SRCDIR/examples/count-records.c" $flags \
	-o "$tmpdir/count-records" || die "the example does not build against the installed library"
export LD_LIBRARY_PATH=${so%/*}
# (through a file: grep -q would end the pipe early, and pipefail would take ldd's SIGPIPE as a failure)
ldd "$tmpdir/count-records" >"$tmpdir/ldd" || die "ldd failed on the example"
grep -q "${so%/*}/libsampo.so" "$tmpdir/ldd" || die "the example is not linked to the installed libsampo.so"

# the same example against the installed static library: pkg-config --static
# adds the private dependencies, -Bstatic picks libsampo.a over the .so
static_flags=$(pkg-config --cflags --libs --static sampo | sed 's/-lsampo\b/-Wl,-Bstatic -lsampo -Wl,-Bdynamic/') ||
	die "pkg-config --static cannot resolve sampo"
grep -q libasan "$tmpdir/ldd-so" && static_flags="$static_flags -fsanitize=address,undefined"
"$cc" -std=c11 -Wall -Werror "$SAMPO_SRCDIR/examples/count-records.c" $static_flags \
	-o "$tmpdir/count-records-static" || die "the example does not build against the installed libsampo.a"
ldd "$tmpdir/count-records-static" >"$tmpdir/ldd-static" || die "ldd failed on the static example"
! grep -q libsampo "$tmpdir/ldd-static" || die "the static example still needs libsampo.so"
"$tmpdir/count-records-static" "$SAMPO_SRCDIR/README.md" >/dev/null 2>&1 &&
	die "the static example accepted a file that is not perf.data"
"$SAMPO_BUILDDIR/tests/tools/mkperfdata" --samples 7 -o "$tmpdir/static.data" >/dev/null ||
	die "mkperfdata failed"
env -u LD_LIBRARY_PATH "$tmpdir/count-records-static" "$tmpdir/static.data" | grep -q '^SAMPLE 7$' ||
	die "the static example does not count the 7 samples"

# files sampo's writer made (these run without ../shared): the counts are
# what mkperfdata says it wrote
for mode in --little-endian --big-endian --pipe; do
	"$SAMPO_BUILDDIR/tests/tools/mkperfdata" $mode --samples 50 --stats -o "$tmpdir/synth.data" |
		sort >"$tmpdir/written" || die "mkperfdata $mode failed"
	"$tmpdir/count-records" "$tmpdir/synth.data" | sort >"$tmpdir/read" ||
		die "count-records failed on the $mode file"
	diff -u "$tmpdir/written" "$tmpdir/read" >&2 || die "counts differ from what was written ($mode)"
	grep -q '^SAMPLE 50$' "$tmpdir/read" || die "not the 50 samples written ($mode)"
done

# perf's own counts: the "Aggregated stats" of report -D beside each fixture
checked=0
fx=${SAMPO_SHARED:+$SAMPO_SHARED/fixtures/perf-6.1}
for d in ${fx:+"$fx"/*/}; do
	[ -f "$d/perf.data" ] && [ -f "$d/report-D.txt" ] || continue
	awk '/^Aggregated stats:/ { on = 1; next } on && !/^ *[A-Z_0-9]+ events: / { exit }
		on { sub(/^ */, ""); print $1, $3 }' "$d/report-D.txt" | awk '$2 != 0' | sort >"$tmpdir/perf.counts"
	"$tmpdir/count-records" "$d/perf.data" | sort >"$tmpdir/ours.counts" ||
		die "count-records failed on $d"
	diff -u "$tmpdir/perf.counts" "$tmpdir/ours.counts" >&2 || die "counts differ from perf's on $d"
	checked=$((checked + 1))
done
say "checked against perf on $checked fixtures"
pass

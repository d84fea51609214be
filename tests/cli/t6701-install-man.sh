#!/bin/bash
# t6701-install-man: `meson install` puts the program, libsampo (static and shared), its headers,
# sampo.pc and one man page per docs/sampo*.md under the prefix; `man sampo-<cmd>` renders each
# with its NAME and SYNOPSIS; uninstall removes them all; `sampo --help` points at the man pages
. "$(dirname "$0")/lib.sh"

[ -d "$SAMPO_BUILDDIR/docs" ] && ls "$SAMPO_BUILDDIR"/docs/*.1 >/dev/null 2>&1 ||
	die "no man pages built (pandoc missing? it is in scripts/install-deps.sh; -Dman=disabled turns them off)"
need_cmd man

dest=$tmpdir/root
meson install -C "$SAMPO_BUILDDIR" --no-rebuild --quiet --destdir "$dest" >"$tmpdir/install.log" 2>&1 ||
	{ cat "$tmpdir/install.log" >&2; die "meson install failed"; }
meson introspect --buildoptions "$SAMPO_BUILDDIR" >"$tmpdir/options.json"
opt() { python3 -c 'import json, sys
print(next(o["value"] for o in json.load(open(sys.argv[1])) if o["name"] == sys.argv[2]))' \
	"$tmpdir/options.json" "$1"; }
prefix=$(opt prefix)
root=$dest$prefix
bindir=$root/$(opt bindir)
libdir=$root/$(opt libdir)
mandir=$root/$(opt mandir)

# the program, the library both ways, its headers and pkg-config file
[ -x "$bindir/sampo" ] || die "no $(opt bindir)/sampo installed"
"$bindir/sampo" --version | grep -q '^sampo version ' || die "the installed sampo does not run"
[ -f "$libdir/libsampo.a" ] || die "no static libsampo.a in $(opt libdir)"
ls "$libdir"/libsampo.so.* >/dev/null 2>&1 || die "no libsampo.so in $(opt libdir)"
[ -f "$libdir/pkgconfig/sampo.pc" ] || die "no sampo.pc in $(opt libdir)/pkgconfig"
for h in "$SAMPO_SRCDIR"/include/sampo/*.h; do
	[ -f "$root/$(opt includedir)/sampo/${h##*/}" ] || die "header ${h##*/} not installed"
done

# one page per docs file, each rendering with the name in NAME and the usage in SYNOPSIS
pages=0
for md in "$SAMPO_SRCDIR"/docs/sampo.md "$SAMPO_SRCDIR"/docs/sampo-*.md; do
	[ -f "$md" ] || continue
	name=$(basename "$md" .md)
	[ -f "$mandir/man1/$name.1" ] || die "no man1/$name.1 for docs/$name.md"
	MANPATH=$mandir MANWIDTH=80 man "$name" >"$tmpdir/$name.txt" 2>"$tmpdir/man.err" ||
		die "'man $name' failed: $(cat "$tmpdir/man.err")"
	# the header line, as man prints it: "sampo-report(1)    sampo manual    sampo-report(1)"
	head -n 1 "$tmpdir/$name.txt" | grep -q "^$name(1) .*sampo manual .*$name(1)\$" ||
		die "'man $name': header line is '$(head -n 1 "$tmpdir/$name.txt")'"
	awk '/^NAME$/ { getline; print; exit }' "$tmpdir/$name.txt" | grep -q "^ *$name  *-  *[a-z]" ||
		die "'man $name': NAME is not '$name - ...'"
	cmd=${name#sampo}
	cmd=${cmd#-}
	awk '/^SYNOPSIS$/ { on = 1; next } on && /^[A-Z]/ { exit } on' "$tmpdir/$name.txt" |
		grep -q "^ *sampo ${cmd:+$cmd }" || die "'man $name': SYNOPSIS has no 'sampo $cmd' line"
	pages=$((pages + 1))
done
say "$pages man pages"
# and `man -l` on the installed file
MANWIDTH=80 man -l "$mandir/man1/sampo-report.1" 2>/dev/null | grep -q '^SYNOPSIS$' ||
	die "'man -l sampo-report.1' renders no SYNOPSIS"

# make uninstall (scripts/install.sh uninstall) removes every file install put there
DESTDIR=$dest "$SAMPO_SRCDIR/scripts/install.sh" uninstall "$SAMPO_BUILDDIR" >"$tmpdir/uninstall.log" ||
	die "uninstall failed: $(cat "$tmpdir/uninstall.log")"
find "$dest" ! -type d >"$tmpdir/left"
[ ! -s "$tmpdir/left" ] || die "uninstall left: $(head -n 5 "$tmpdir/left")"

# sampo --help says where the manuals are
"$SAMPO" --help | grep -q "man sampo-<command>" || die "'sampo --help' does not mention 'man sampo-<command>'"
pass

#!/bin/sh
# install.sh - the body of `make install` and `make uninstall`
#
#   scripts/install.sh install BUILDDIR PREFIX     build and install under PREFIX
#   scripts/install.sh uninstall BUILDDIR          remove what install put there
#
# DESTDIR in the environment installs (or uninstalls) under DESTDIR/PREFIX,
# for packaging. Install is `meson install`; the prefix of an existing build
# directory is changed first when PREFIX differs.
#
# Uninstall removes the files that `meson introspect --installed` lists for
# the build directory's current configuration, not those of meson's install
# log: the log is rewritten by every `meson install`, including the ones the
# tests run into a scratch DESTDIR (t0006, t6701).
set -eu

srcdir=$(cd "$(dirname "$0")/.." && pwd)
cd "$srcdir"
mode=$1
dir=$2

option() {
	meson introspect --buildoptions "$dir" |
		python3 -c 'import json, sys
print(next(o["value"] for o in json.load(sys.stdin) if o["name"] == sys.argv[1]))' "$1"
}

case $mode in
install)
	prefix=$3
	scripts/setup-build.sh "$dir" --prefix="$prefix"
	[ "$(option prefix)" = "$prefix" ] || meson configure "$dir" -Dprefix="$prefix"
	ninja -C "$dir"
	meson install -C "$dir" --no-rebuild ${DESTDIR:+--destdir "$DESTDIR"}
	libdir=$prefix/$(option libdir)
	# the dynamic linker's cache, for programs that link libsampo.so
	if [ -z "${DESTDIR:-}" ] && [ "$(id -u)" -eq 0 ] && command -v ldconfig >/dev/null; then
		ldconfig
	fi
	echo "installed: $prefix/$(option bindir)/sampo, libsampo in $libdir," \
		"man pages in $prefix/$(option mandir)/man1 (man sampo)"
	;;
uninstall)
	[ -f "$dir/build.ninja" ] || { echo "uninstall: no build directory $dir" >&2; exit 1; }
	meson introspect --installed "$dir" |
		python3 -c 'import json, sys
for dest in json.load(sys.stdin).values():
    print(dest)' |
		while IFS= read -r f; do
			f=${DESTDIR:-}$f
			if [ -d "$f" ] && [ ! -L "$f" ]; then
				# install_subdir(): only our own include/sampo directory
				case $f in */include/sampo) rm -rf "$f" && echo "removed $f/" ;; esac
			elif [ -e "$f" ] || [ -L "$f" ]; then
				rm -f "$f" && echo "removed $f"
			fi
		done
	;;
*)
	echo "usage: install.sh install BUILDDIR PREFIX | uninstall BUILDDIR" >&2
	exit 2
	;;
esac

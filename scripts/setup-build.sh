#!/bin/sh
# setup-build.sh BUILDDIR [MESON OPTIONS...] - configure a build directory,
# or reconfigure it when needed.
#
# Meson globs tests/cli/t*.sh, tests/unit/test-*.c, fuzz/fuzz-*.c,
# bench/bench-*.c and the man pages docs/sampo*.md at configure time (see
# their meson.build). A plain `ninja` does not notice a
# new file, so this script keeps a fingerprint of those lists in the build
# directory and re-runs `meson setup --reconfigure` when it changes.
# Environment: CC picks the compiler on the first setup (as meson does).
set -eu

dir=$1
shift

srcdir=$(cd "$(dirname "$0")/.." && pwd)
cd "$srcdir"

fingerprint=$(ls tests/cli/t[0-9]*.sh tests/unit/test-*.c fuzz/fuzz-*.c bench/bench-*.c \
	docs/sampo.md docs/sampo-*.md 2>/dev/null | cksum)
stamp=$dir/.sampo-globs

if [ ! -f "$dir/build.ninja" ]; then
	if [ -d "$dir/meson-private" ]; then
		meson setup --wipe "$dir" "$@" # an earlier setup failed half-way
	else
		meson setup "$dir" "$@"
	fi
elif [ "$(cat "$stamp" 2>/dev/null)" != "$fingerprint" ]; then
	meson setup --reconfigure "$dir" "$@"
fi
echo "$fingerprint" >"$stamp"

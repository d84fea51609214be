#!/bin/sh
# install-deps.sh - install the Debian packages sampo needs to build, test,
# fuzz and benchmark; silent when everything is already installed.
#
#   scripts/install-deps.sh           install what is missing (apt-get, sudo if not root)
#   scripts/install-deps.sh --check   list what is missing; exit 1 if anything is
#
# Checks each package with dpkg-query and runs `apt-get update` once and one
# `apt-get install` only when something is missing, so it is cheap to call
# from every make target. Package names are Debian 12 (bookworm) names.
set -eu

packages="
	make git meson ninja-build pkg-config gcc clang libclang-rt-14-dev
	libelf-dev libdw-dev libdebuginfod-dev libzstd-dev liblzma-dev zlib1g-dev libarchive-dev
	libtraceevent-dev
	libprotobuf-c-dev protobuf-c-compiler golang-go
	libcmocka-dev linux-perf zstd xz-utils bzip2 python3 binutils time
	pandoc man-db
	chromium nodejs
	cppcheck clang-tidy valgrind strace
	debuginfod
"
# libclang-rt-14-dev: libFuzzer runtime (libclang_rt.fuzzer-x86_64.a) for make fuzz
# libarchive-dev: sampo archive's tar files (lib/archive.c)
# libtraceevent-dev: tracepoint formats and trace output (lib/trace-data.c), perf's library
# linux-perf: the reference implementation the tests compare against
# libprotobuf-c-dev, protobuf-c-compiler: the pprof writer (sampo pprof); golang-go: go tool pprof in its tests
# time: GNU time, peak memory in make bench
# pandoc: turns docs/sampo*.md into the man pages; man-db: t6701 reads them with man
# chromium, nodejs: the browser tests (flame graphs, speedscope) drive Debian's
#   chromium with playwright-core; npm (Debian's npm package, or the one in a
#   nodejs that ships it) installs tests/browser's packages at the end
# cppcheck, clang-tidy, valgrind: the 'lint' suite and t0100 (make check)
# debuginfod: the server the t74xx tests fetch from (libdebuginfod-dev: the client sampo links)
# strace: t6901 kills sampo record before each of its writes (inject=...:signal=SIGKILL)

if ! command -v dpkg-query >/dev/null 2>&1; then
	echo "install-deps: not a Debian system; install the equivalents of:" $packages >&2
	exit 0
fi

missing=
for p in $packages; do
	status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
	[ "$status" = "install ok installed" ] || missing="$missing $p"
done

# npm: Debian's npm package, unless the nodejs installed ships its own
command -v npm >/dev/null 2>&1 || missing="$missing npm"

# nothing missing: only the browser tests' npm packages may be (npm ci)
[ -n "$missing" ] || exec "$(dirname "$0")/install-browser-deps.sh" ${1:+"$1"}

if [ "${1:-}" = "--check" ]; then
	echo "install-deps: missing:$missing"
	exit 1
fi

if [ "$(id -u)" -eq 0 ]; then
	sudo=
elif command -v sudo >/dev/null 2>&1; then
	sudo=sudo
else
	echo "install-deps: missing:$missing; run as root or install sudo" >&2
	exit 1
fi

echo "install-deps: installing:$missing"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -q
# shellcheck disable=SC2086
$sudo apt-get install -y -q --no-install-recommends $missing
"$(dirname "$0")/install-browser-deps.sh"

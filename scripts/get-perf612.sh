#!/bin/bash
# get-perf612.sh DIR - put Debian's perf 6.12 (bookworm-backports) in DIR without
# installing anything system-wide, and print the command that runs it.
#
# perf 6.1 refuses the files perf >= 6.3 writes ("incompatible file format"); the
# wild-corpus comparison (scripts/wild-compare.sh) needs 6.12's output for them.
# A private apt directory (its own sources.list, lists and cache under DIR) names
# the mirror this machine's apt already uses; `apt-get download` fetches
# linux-perf (backports) and libtraceevent1, `dpkg -x` unpacks both into DIR/root.
# Run again, it only prints the command (DIR is a cache: the build directory's);
# concurrent runs wait for each other (flock on DIR/.lock).
set -e -u -o pipefail

dir=${1:?usage: get-perf612.sh DIR}
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
perf=$dir/root/usr/bin/perf
libs=$dir/root/usr/lib/x86_64-linux-gnu
say_cmd() { echo "env LD_LIBRARY_PATH=$libs $perf"; }

# one fetch at a time: the tests that need perf 6.12 (t7500, t7508) run in parallel,
# and one of them must not run a binary the other is still unpacking
exec 9>"$dir/.lock"
flock 9

if [ -x "$perf" ] && LD_LIBRARY_PATH=$libs "$perf" version 2>/dev/null | grep -q '^perf version 6\.12'; then
	say_cmd
	exit 0
fi

# the mirror of this machine's apt sources (deb822 or one-line format)
uri=$(sed -n 's/^URIs: *\([^ ]*\).*/\1/p' /etc/apt/sources.list.d/*.sources 2>/dev/null | grep -v security | head -1 || true)
[ -n "$uri" ] || uri=$(awk '$1 == "deb" && $2 !~ /security/ { print $2; exit }' /etc/apt/sources.list 2>/dev/null || true)
[ -n "$uri" ] || uri=http://deb.debian.org/debian

apt=$dir/apt
mkdir -p "$apt/lists/partial" "$apt/cache/archives/partial" "$dir/debs"
printf 'deb %s bookworm-backports main\ndeb %s bookworm main\n' "$uri" "$uri" >"$apt/sources.list"
opts=(-o "Dir::Etc::SourceList=$apt/sources.list" -o Dir::Etc::SourceParts=/dev/null
	-o "Dir::State::Lists=$apt/lists" -o "Dir::Cache=$apt/cache" -o Debug::NoLocking=1
	-o APT::Sandbox::User=root -q)
apt-get "${opts[@]}" update >&2
ver=$(apt-cache "${opts[@]}" madison linux-perf | awk -F'|' '$2 ~ /6\.12\./ { gsub(/ /, "", $2); print $2; exit }')
[ -n "$ver" ] || { echo "get-perf612: no linux-perf 6.12 in $uri bookworm-backports" >&2; exit 1; }
(cd "$dir/debs" && apt-get "${opts[@]}" download "linux-perf=$ver" libtraceevent1 >&2)
for deb in "$dir"/debs/*.deb; do
	dpkg -x "$deb" "$dir/root"
done
LD_LIBRARY_PATH=$libs "$perf" version | grep -q '^perf version 6\.12' ||
	{ echo "get-perf612: $perf does not run" >&2; exit 1; }
say_cmd

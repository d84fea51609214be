#!/bin/bash
# demo.sh - the body of `make demo`: profile the bundled workload
# (demo/burn.c) with the real perf, then show what sampo reads from the file.
#
# perf may be unable to record (perf_event_paranoid, containers without
# perf_event_open): then the demo uses the recorded fixture from the shared
# directory instead, and says so.
set -u -o pipefail

cd "$(dirname "$0")/.."
builddir=${BUILDDIR:-build}
sampo=$builddir/tools/sampo/sampo
burn=$builddir/demo/burn
data=demo/perf.data
shared=${SAMPO_SHARED:-../shared}
fixture=$shared/fixtures/perf-6.1/b-callchain-fp/perf.data
perf=${PERF:-perf}

echo "==> perf record -e cpu-clock -F 1000 -g -o $data -- ./$burn"
if command -v "$perf" >/dev/null 2>&1 &&
	"$perf" record -e cpu-clock -F 1000 -g -o "$data" -- "./$burn" </dev/null; then
	input=$data
elif [ -f "$fixture" ]; then
	echo "demo: perf cannot record here; using the recorded fixture $fixture instead"
	input=$fixture
else
	echo "demo: perf cannot record here and there is no fixture at $fixture" >&2
	exit 1
fi

rc=0
echo
echo "==> sampo header -i $input"
"$sampo" header -i "$input" || rc=$?

echo
echo "==> sampo dump -i $input | head -60"
"$sampo" dump -i "$input" | head -60
[ "${PIPESTATUS[0]}" -eq 0 ] || rc=1

echo
echo "==> more: $sampo --help, '$sampo dump -i $input | less'"
exit "$rc"

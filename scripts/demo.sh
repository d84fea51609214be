#!/bin/bash
# demo.sh - the body of `make demo`: profile the bundled workload
# (demo/burn.c) with `sampo record`, then show what sampo reads from the file.
#
# Recording may be impossible (perf_event_paranoid, containers without
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

echo "==> sampo record -F 1000 -g -o $data -- ./$burn"
if "$sampo" record -F 1000 -g -o "$data" -- "./$burn" </dev/null; then
	input=$data
elif [ -f "$fixture" ]; then
	echo "demo: sampo cannot record here; using the recorded fixture $fixture instead"
	input=$fixture
else
	echo "demo: sampo cannot record here and there is no fixture at $fixture" >&2
	exit 1
fi

rc=0
echo
echo "==> sampo header -i $input"
"$sampo" header -i "$input" || rc=$?

echo
echo "==> sampo dump -i $input | head -40"
"$sampo" dump -i "$input" | head -40
[ "${PIPESTATUS[0]}" -eq 0 ] || rc=1

echo
echo "==> more: $sampo --help, '$sampo dump -i $input | less', '$sampo report --no-children -i $input'"
echo
echo "==> sampo report --stdio -i $input"
"$sampo" report --stdio -i "$input" || rc=$?
exit "$rc"

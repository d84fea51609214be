#!/bin/bash
# demo.sh - the body of `make demo`: profile the bundled workload
# (demo/burn.c) with `sampo record -g`, print its report, its flame graph's
# path (when this sampo has `sampo flamegraph`), then the commands to try on
# one's own program.
#
# Recording may be impossible (perf_event_paranoid, containers without
# perf_event_open): then the demo shows the recorded fixture from the shared
# directory instead, with the build-id cache that `perf archive` made for it,
# and says so.
#
# Environment: BUILDDIR (default build), SAMPO_DEMO_DIR (where perf.data and
# the flame graph go, default demo/), SAMPO_SHARED (default ../shared),
# SAMPO_DEMO_FALLBACK=1 (show the fixture even where recording works; tests).
set -u -o pipefail

cd "$(dirname "$0")/.."
builddir=${BUILDDIR:-build}
sampo=$builddir/tools/sampo/sampo
burn=$builddir/demo/burn
case $burn in /*) ;; *) burn=./$burn ;; esac
out=${SAMPO_DEMO_DIR:-demo}
data=$out/perf.data
shared=${SAMPO_SHARED:-../shared}
fixture_dir=$shared/fixtures/perf-6.1/b-callchain-fp

mkdir -p "$out" || exit 1

cleanup=
trap '[ -z "$cleanup" ] || rm -rf "$cleanup"' EXIT

recorded=
if [ "${SAMPO_DEMO_FALLBACK:-}" != 1 ]; then
	echo "==> sampo record -F 1000 -g -o $data -- $burn"
	if "$sampo" record -F 1000 -g -o "$data" -- "$burn" </dev/null; then
		recorded=1
	fi
fi

report_env=()
if [ -n "$recorded" ]; then
	input=$data
elif [ -f "$fixture_dir/perf.data" ] && [ -f "$fixture_dir/perf.data.tar.bz2" ]; then
	input=$fixture_dir/perf.data
	# the ELF files and kernel symbols of the recording, as `perf archive` packed them
	cleanup=$(mktemp -d "${TMPDIR:-/tmp}/sampo-demo.XXXXXX") || exit 1
	tar xjf "$fixture_dir/perf.data.tar.bz2" -C "$cleanup" || exit 1
	report_env=(env "PERF_BUILDID_DIR=$cleanup")
	if [ "${SAMPO_DEMO_FALLBACK:-}" = 1 ]; then
		echo "demo: showing the recorded fixture $input"
	else
		echo "demo: sampo cannot record here; showing the recorded fixture $input instead"
	fi
	echo "demo: (recorded from an older build of burn.c whose leaf functions had no frame:"
	echo "demo:  its call chains skip burn_middle_gamma, see demo/meson.build)"
else
	echo "demo: sampo cannot record here and there is no fixture in $fixture_dir" >&2
	exit 1
fi

rc=0
echo
echo "==> sampo report -i $input"
"${report_env[@]}" "$sampo" report --stdio -i "$input" || rc=$?

flame=
if "$sampo" --list-cmds | grep -qx flamegraph; then
	flame=$out/flamegraph.html
	echo
	echo "==> sampo flamegraph -i $input -o $flame"
	if "${report_env[@]}" "$sampo" flamegraph -i "$input" -o "$flame"; then
		echo "flame graph: $(cd "$(dirname "$flame")" && pwd)/$(basename "$flame") (open it in a web browser)"
	else
		rc=1
	fi
fi

cat <<EOF

==> next, on your own program (after 'make install', 'sampo' is on your PATH;
    here it is $sampo):
    sampo record -g -- ./your-program its-arguments   record it into ./perf.data
    sampo report                                      where the time went, with call graphs
    sampo report --no-children --sort dso,sym         self time per function only
EOF
[ -z "$flame" ] ||
	echo "    sampo flamegraph -o flame.html                    the flame graph, to open in a browser"
"$sampo" --list-cmds | grep -qx diff &&
	echo "    sampo diff perf.data.old perf.data               what changed since the run before"
cat <<EOF
    sampo script                                      every sample with its call chain
    sampo --help, man sampo-report                    all commands and options
EOF
exit "$rc"

#!/bin/bash
# run-tests.sh BUILDDIR LABEL [MESON TEST OPTIONS...] - build BUILDDIR, run
# its tests and record the counts.
#
# Writes "<passed> <failed> <skipped>" to BUILDDIR/sampo-test-counts, the
# failed tests with the last lines of their output to
# BUILDDIR/sampo-failed-tests (check.sh repeats them in its summary, which is
# all a CI excerpt may show), and prints "LABEL: N passed, N failed, N skipped". Counts are meson's (one per
# registered test: a cmocka executable or a CLI script). A build that fails
# counts as one failed test, so that a broken build can never look green.
# Exit status: 0 if nothing failed.
set -u -o pipefail

dir=$1
label=$2
shift 2

counts=$dir/sampo-test-counts
failures=$dir/sampo-failed-tests
# meson names the log after the test setup: testlog.json, or testlog-full.json
# for --setup full
rm -f "$counts" "$failures" "$dir"/meson-logs/testlog*.json

if ! ninja -C "$dir"; then
	echo "0 1 0" >"$counts"
	echo "$label: the build failed (ninja -C $dir)" >"$failures"
	echo "$label: build failed"
	echo "$label: 0 passed, 1 failed, 0 skipped"
	exit 1
fi

# Twice as many tests at once as there are cores: many of them spend their time
# waiting (recordings of a fixed length, local servers, timeouts they provoke), and
# with one test a core the suite left a third of the CPU idle. MESON_TESTTHREADS
# from the caller wins.
export MESON_TESTTHREADS=${MESON_TESTTHREADS:-$(($(nproc) * 2))}
meson test -C "$dir" --no-rebuild --print-errorlogs "$@"
rc=$?

# testlog*.json: one JSON object per test with a "result" field
testlog=$(ls "$dir"/meson-logs/testlog*.json 2>/dev/null | head -1)
read -r passed failed skipped < <(python3 - "${testlog:-$dir/meson-logs/testlog.json}" \
	"$failures" "$label" <<'PY'
import json, sys
ok = fail = skip = 0
report = []
try:
    with open(sys.argv[1]) as f:
        for line in f:
            line = line.strip()
            if not line:
                continue
            r = json.loads(line).get("result", "")
            if r in ("OK", "EXPECTEDFAIL"):
                ok += 1
            elif r == "SKIP":
                skip += 1
            else:  # FAIL, TIMEOUT, ERROR, UNEXPECTEDPASS
                fail += 1
                t = json.loads(line)
                out = ((t.get("stdout") or "") + (t.get("stderr") or "")).rstrip("\n")
                report.append("%s: %s %s after %.0f s" % (sys.argv[3], t.get("name"), r,
                                                         t.get("duration", 0)))
                report += ["      " + l[:200] for l in out.split("\n")[-8:] if l]
except FileNotFoundError:
    fail = 1
    report.append("%s: no test log (%s)" % (sys.argv[3], sys.argv[1]))
if report:
    with open(sys.argv[2], "w") as f:
        f.write("\n".join(report) + "\n")
print(ok, fail, skip)
PY
)
if [ "$rc" -ne 0 ] && [ "$failed" -eq 0 ]; then
	failed=1 # meson itself failed (bad option, crash): never report green
fi
echo "$passed $failed $skipped" >"$counts"
echo "$label: $passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]

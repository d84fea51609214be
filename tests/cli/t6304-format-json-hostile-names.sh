#!/bin/bash
# t6304-format-json-hostile-names: report and script --format json stay valid JSON and give the names back when comms, symbols and paths hold quotes, backslashes, control characters and invalid UTF-8 (a program recorded here renames itself and its function)
. "$(dirname "$0")/lib.sh"

need_perf_record
need_cmd cc objcopy python3
export HOME=$tmpdir/home
unset PERF_BUILDID_DIR
mkdir -p "$HOME"
cd "$tmpdir"
check=$SAMPO_SRCDIR/tests/cli/format-json-check.py

cat >hostile.c <<'CEOF'
#include <sys/prctl.h>
volatile unsigned long sink;
__attribute__((noinline)) void hot(void)
{
	for (unsigned long i = 0; i < 200000000UL; i++)
		sink += i + SALT;
}
int main(int argc, char **argv)
{
	(void)argc;
	prctl(PR_SET_NAME, argv[1]);
	hot();
	return 0;
}
CEOF
# two builds with two build-ids (the build-id cache keeps one file per build-id)
cc -O1 -DSALT=1 -o hostile1 hostile.c && cc -O1 -DSALT=2 -o hostile2 hostile.c ||
	die "cannot build the test program"
objcopy --redefine-sym hot=$'we"ird\\sym\ttab\001' hostile1 ascii-names ||
	die "objcopy cannot rename the symbol"
# the second one lives in a directory whose name is hostile too
dir=$'d"i\\r\002\xff'
mkdir -p "$dir"
objcopy --redefine-sym hot=$'caf\xc3\xa9\xff\xc3' hostile2 "$dir/utf8-names" ||
	die "objcopy cannot rename the symbol"

record() {
	local name=$1
	shift
	env -u MALLOC_PERTURB_ "$PERF" record -q -e cpu-clock -F 1000 -g -o "$name.data" "$@" \
		>/dev/null 2>"$name.err" || die "perf record $* failed: $(cat "$name.err")"
}

record ascii -- ./ascii-names $'q"b\\s\tx\001'
record utf8 -- "./$dir/utf8-names" $'n\xc3\xa9\xfe"'

for name in ascii utf8; do
	run_sampo script --format json -i $name.data >$name.script.json 2>/dev/null
	run_sampo script -i $name.data >$name.script.txt 2>/dev/null
	run_sampo report --format json --no-children -s comm,dso,sym -i $name.data \
		>$name.report.json 2>/dev/null
	run_sampo report --stdio --no-children -s comm,dso,sym -i $name.data \
		>$name.report.txt 2>/dev/null
done

# ASCII names: the JSON says what the text says, byte for byte once parsed,
# in the rows and in the call graphs
python3 "$check" script ascii.script.txt ascii.script.json || die "ascii: script's JSON differs from its text"
python3 "$check" report ascii.report.txt ascii.report.json || die "ascii: report's JSON differs from its text"

python3 - <<'PYEOF' || die "the names did not come back from the JSON"
import json

def load(path):
    # strict: the bytes must be UTF-8 and the document JSON
    return json.loads(open(path, 'rb').read().decode('utf-8'))

comm, sym = 'q"b\\s\tx\x01', 'we"ird\\sym\ttab\x01'
s = load('ascii.script.json')['samples']
assert sum(x['comm'] == comm for x in s) > 10, {x['comm'] for x in s}
assert any(f.get('sym') == sym for x in s for f in x['callchain'])
rows = load('ascii.report.json')['events'][0]['rows']
assert any(r['comm'] == comm and r['symbol'] == sym and r['dso'] == 'ascii-names' for r in rows), rows[:3]

# invalid UTF-8: each stray byte is U+FFFD, the valid sequences stay
comm, sym = 'n\u00e9\ufffd"', 'caf\u00e9\ufffd\ufffd'
path_end = '/d"i\\r\x02\ufffd/utf8-names'
s = load('utf8.script.json')['samples']
mine = [x for x in s if x['comm'] == comm]
assert len(mine) > 10, {x['comm'] for x in s}
frames = [f for x in mine for f in x['callchain']]
assert any(f.get('sym') == sym and f['dso'].endswith(path_end) for f in frames), frames[:3]
rows = load('utf8.report.json')['events'][0]['rows']
assert any(r['comm'] == comm and r['symbol'] == sym and r['dso'] == 'utf8-names' for r in rows), rows[:3]
PYEOF
pass

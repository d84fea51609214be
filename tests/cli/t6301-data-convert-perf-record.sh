#!/bin/bash
# t6301-data-convert-perf-record: sampo data convert --to-json is byte for byte perf's on files perf records here (call chains, kernel and user symbols, a comm and a symbol with quotes, backslashes and control characters), and valid JSON where perf's is not (non-UTF-8 names)
. "$(dirname "$0")/lib.sh"

need_perf_record
need_cmd cc objcopy python3
# a private HOME: perf's build-id cache is this test's own
export HOME=$tmpdir/home
unset PERF_BUILDID_DIR
mkdir -p "$HOME"
cd "$tmpdir"

# a program that renames itself and spends its time in one function, whose
# symbol is renamed after linking: the names perf and sampo must escape
cat >hostile.c <<'CEOF'
#include <stdlib.h>
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
# two builds, so that the two have different build-ids (the cache holds one file per build-id)
cc -O1 -DSALT=1 -o hostile1 hostile.c && cc -O1 -DSALT=2 -o hostile2 hostile.c ||
	die "cannot build the test program"
objcopy --redefine-sym hot=$'we"ird\\sym\ttab\001' hostile1 ascii-names ||
	die "objcopy cannot rename the symbol"
objcopy --redefine-sym hot=$'caf\xc3\xa9\xff\xc3' hostile2 utf8-names ||
	die "objcopy cannot rename the symbol"

record() {
	local name=$1
	shift
	env -u MALLOC_PERTURB_ "$PERF" record -q -e cpu-clock -F 1000 -o "$name.data" "$@" \
		>/dev/null 2>"$name.err" || die "perf record $* failed: $(cat "$name.err")"
}

# same NAME: perf's and sampo's conversions are the same bytes
same() {
	local name=$1
	env -u MALLOC_PERTURB_ "$PERF" data convert --to-json "$name.perf" -i "$name.data" \
		>/dev/null 2>&1 || die "perf data convert failed on $name"
	run_sampo data convert --to-json "$name.sampo" -i "$name.data" 2>/dev/null
	if ! cmp -s "$name.perf" "$name.sampo"; then
		diff -u "$name.perf" "$name.sampo" | head -40 >&2 || true
		die "$name: sampo's JSON differs from perf's"
	fi
}

# the plain dd, twice: with call chains, and without (the sampled ip alone)
record dd -g -- dd if=/dev/zero of=/dev/null bs=512 count=40000
same dd
python3 - <<'PYEOF' || die "dd: not the expected content"
import json
d = json.load(open('dd.sampo'))
assert d['headers']['cmdline'][1] == 'record', d['headers']['cmdline']
s = d['samples']
assert len(s) > 5 and all(x['comm'] == 'dd' for x in s), len(s)
chains = [e for x in s for e in x['callchain']]
assert any(e.get('dso') == '[kernel.kallsyms]' for e in chains) or \
	any(int(e['ip'], 16) >> 63 for e in chains)
assert any(len(x['callchain']) > 1 for x in s)
PYEOF

record plain -- dd if=/dev/zero of=/dev/null bs=512 count=40000
same plain

record ascii -g -- ./ascii-names $'q"b\\s\tx\001'
same ascii
python3 - <<'PYEOF' || die "ascii: the names did not come back"
import json
d = json.load(open('ascii.sampo'))
s = [x for x in d['samples'] if x['comm'] == 'q"b\\s\tx\x01']
assert len(s) > 10, len(s)
assert any(e.get('symbol') == 'we"ird\\sym\ttab\x01' for x in s for e in x['callchain'])
PYEOF

# non-UTF-8 bytes: perf 6.1 writes "\uffffffc3", which is no JSON; sampo's
# output parses, keeps the valid UTF-8 and has U+FFFD for each other byte
record utf8 -- ./utf8-names $'n\xc3\xa9\xfe"'
run_sampo data convert --to-json utf8.sampo -i utf8.data 2>/dev/null
python3 - <<'PYEOF' || die "utf8: not valid JSON, or not the names"
import json
raw = open('utf8.sampo', 'rb').read()
d = json.loads(raw.decode('utf-8'))
s = [x for x in d['samples'] if x['comm'] == 'n\u00e9\ufffd"']
assert len(s) > 10, set(x['comm'] for x in d['samples'])
assert any(e.get('symbol') == 'caf\u00e9\ufffd\ufffd' for x in s for e in x['callchain'])
PYEOF
pass

#!/bin/bash
# t1101-header-malformed: sampo header on damaged files: one clear line on stderr (exit 1 with the valid lines before it, or a warning for a damaged feature, left out while the rest prints), never a crash
. "$(dirname "$0")/lib.sh"

need_cmd python3
file_fixture=$(fixture b-callchain-fp/perf.data)
pipe_fixture=$(fixture d-pipe-mode/perf.data)

# mutate.py SRC DST CASE: write a damaged copy of SRC. The feature table is
# found from the header, so the cases do not depend on fixed offsets.
cat >"$tmpdir/mutate.py" <<'EOF'
import random, struct, sys

src, dst, case = sys.argv[1], sys.argv[2], sys.argv[3]
b = bytearray(open(src, 'rb').read())
orig = bytes(b)


def sections(b):
    data_off, data_size = struct.unpack_from('<QQ', b, 40)
    bits = struct.unpack_from('<Q', b, 72)[0]
    table, secs, i = data_off + data_size, {}, 0
    for bit in range(64):
        if bits >> bit & 1:
            secs[bit] = (table + 16 * i,) + struct.unpack_from('<QQ', b, table + 16 * i)
            i += 1
    return secs


def pipe_features(b):
    """offsets of the HEADER_FEATURE records of a pipe-format stream, by id"""
    pos, out = 16, {}
    while pos + 8 <= len(b):
        typ, misc, size = struct.unpack_from('<IHH', b, pos)
        if typ == 80:
            out[struct.unpack_from('<Q', b, pos + 8)[0]] = (pos, size)
        if size < 8:
            break
        pos += size
    return out


if case in ('fuzz', 'pipefuzz'):
    # dst is a directory: write N randomly damaged copies into it
    n = int(sys.argv[4])
    if case == 'fuzz':
        lo, hi = min(off for _, off, _ in sections(b).values()), len(b)
    else:
        lo, hi = 16, min(len(b), 0xb00)  # the HEADER_ATTR and HEADER_FEATURE records
    for seed in range(n):
        rnd, c = random.Random(seed), bytearray(orig)
        for _ in range(rnd.randint(1, 4)):
            c[rnd.randrange(lo, hi)] = rnd.choice([0, 0xff, 0x7f, 0x80, rnd.randrange(256)])
        open('%s/%s%d.data' % (dst, case, seed), 'wb').write(c)
    sys.exit(0)
elif case.startswith('truncate-') and case[9:].isdigit():
    b = b[:int(case[9:])]
elif case == 'bad-magic':
    b[0:8] = b'PERFILE3'
elif case.startswith('pipe-'):
    feats = pipe_features(b)
    if case == 'pipe-strlen':
        pos, size = feats[13]            # CPU_TOPOLOGY: first string length
        struct.pack_into('<I', b, pos + 20, 4096)
    elif case == 'pipe-bad-id':
        pos, size = feats[4]
        struct.pack_into('<Q', b, pos + 8, 40)
    elif case == 'pipe-cut':
        pos, size = feats[12]            # stop inside EVENT_DESC
        b = b[:pos + size // 2]
else:
    secs = sections(b)
    if case == 'topology-strlen':
        _, off, size = secs[13]
        struct.pack_into('<I', b, off + 4, 4096)
    elif case == 'topology-count':
        _, off, size = secs[13]
        struct.pack_into('<I', b, off, 0x7fffffff)
    elif case == 'topology-nul':
        _, off, size = secs[13]
        n = struct.unpack_from('<I', b, off + 4)[0]
        b[off + 8:off + 8 + n] = b'x' * n
    elif case == 'event-desc-count':
        _, off, size = secs[12]
        struct.pack_into('<I', b, off, 0x10000000)
    elif case == 'hostname-strlen':
        _, off, size = secs[3]
        struct.pack_into('<I', b, off, size)
    elif case == 'numa-cpu-list':
        _, off, size = secs[14]
        i = b.index(b'0-1\0', off)
        b[i:i + 3] = b'1-0'
    elif case == 'memtopo-bits':
        _, off, size = secs[22]
        struct.pack_into('<Q', b, off + 40, 1 << 40)
    elif case == 'feature-offset':
        ent, off, size = secs[4]
        struct.pack_into('<Q', b, ent, 1 << 40)
    elif case == 'feature-size':
        ent, off, size = secs[5]
        struct.pack_into('<Q', b, ent + 8, len(b))
    elif case == 'truncate-in-features':
        _, off, size = secs[16]
        b = b[:off + 10]
    else:
        sys.exit('unknown case ' + case)
open(dst, 'wb').write(b)
EOF

# run_case NAME SRC: damage a copy of SRC and record what sampo does
run_case() {
	local name=$1 src=$2 f=$tmpdir/$1.data rc=0
	python3 "$tmpdir/mutate.py" "$src" "$f" "$name" || die "mutate.py $name failed"
	"$SAMPO" header -I -i "$f" >"$tmpdir/out" 2>"$tmpdir/err" || rc=$?
	[ "$rc" -lt 128 ] || die "$name: sampo died with status $rc"
	{
		echo "=== $name: exit status $rc, $(wc -l <"$tmpdir/out") lines on stdout"
		sed "s|$tmpdir/||" "$tmpdir/err"
	} >>"$tmpdir/transcript"
}

: >"$tmpdir/transcript"
for c in topology-strlen topology-count topology-nul event-desc-count hostname-strlen \
	numa-cpu-list memtopo-bits feature-offset feature-size truncate-in-features bad-magic \
	truncate-0 truncate-7 truncate-16 truncate-60 truncate-104 truncate-200 truncate-2000; do
	run_case "$c" "$file_fixture"
done
for c in pipe-strlen pipe-bad-id pipe-cut truncate-100; do
	run_case "$c" "$pipe_fixture"
done

# Every damaged file gives exactly one line on stderr. A damaged feature of a
# file is left out with a warning and everything else prints (exit 0, as perf
# goes on too); other damage fails (exit 1) after the valid lines before it
# (the header frame at least for file-mode).
awk '/^=== / { ok0 = / exit status 0,/; next } ok0 && !/: warning: / { bad = 1 } END { exit bad }' \
	"$tmpdir/transcript" || {
	cat "$tmpdir/transcript"
	die "a damaged file was accepted without a warning"
}
awk '/^=== / { if (n != "" && n != 1) bad = 1; n = 0; next } { n++ } END { if (n != 1) bad = 1; exit bad }' \
	"$tmpdir/transcript" || {
	cat "$tmpdir/transcript"
	die "a failure did not print exactly one line on stderr"
}
compare_golden "$tmpdir/transcript"

# A stream that ends right after its header is not damaged, just empty: perf
# prints the frame alone.
python3 "$tmpdir/mutate.py" "$pipe_fixture" "$tmpdir/empty.data" truncate-16
run_sampo header -i "$tmpdir/empty.data" >"$tmpdir/out"
[ "$(wc -l <"$tmpdir/out")" -eq 8 ] || die "empty stream: expected the 8-line frame"

# Random damage in the feature sections (file mode) and in the first records
# (pipe mode): sampo either prints the header or fails with one line, and
# never crashes or loops.
mkdir "$tmpdir/fuzz"
python3 "$tmpdir/mutate.py" "$file_fixture" "$tmpdir/fuzz" fuzz 200
python3 "$tmpdir/mutate.py" "$pipe_fixture" "$tmpdir/fuzz" pipefuzz 200
for f in "$tmpdir"/fuzz/*.data; do
	rc=0
	timeout 20 "$SAMPO" header -I -i "$f" >/dev/null 2>"$tmpdir/err" || rc=$?
	case $rc in
	0) [ "$(wc -l <"$tmpdir/err")" -le 1 ] ||
		die "$(basename "$f"): $(wc -l <"$tmpdir/err") lines on stderr: $(cat "$tmpdir/err")" ;;
	1) [ "$(wc -l <"$tmpdir/err")" -eq 1 ] ||
		die "$(basename "$f"): $(wc -l <"$tmpdir/err") lines on stderr: $(cat "$tmpdir/err")" ;;
	*) die "$(basename "$f"): sampo exited with status $rc: $(cat "$tmpdir/err")" ;;
	esac
done
pass

#!/bin/bash
# t1900-malformed-input: damaged perf.data files get one clear error line and exit 1 (a damaged feature: one warning, exit 0), never a crash
#
# The files are derived from the perf 6.1 fixtures: cut at many offsets, record
# sizes zeroed or pointing past the end, attr, data and feature offsets out of
# range, wrong magic, an empty file and a directory. For each, `sampo dump`
# and `sampo header` must exit with status 1 and print exactly one line on
# stderr that names the file and says where and what (under ASan in `make
# check`, any out-of-bounds read fails the test too). A string length past its
# section damages one feature only: header, report and buildid-list warn once
# and read the rest (t1103 has more).
# The dump of a cut file still prints the records before the cut.
. "$(dirname "$0")/lib.sh"
need_cmd python3

b=$(fixture b-callchain-fp/perf.data)
d=$(fixture d-pipe-mode/perf.data)
e=$(fixture e-compressed-zstd/perf.data)
cd "$tmpdir"
cp "$b" good.data
"$SAMPO" dump -i good.data >good.dump || die "dump of the intact fixture failed"

# expect_one_error CMD FILE PATTERN: exit status 1, one stderr line naming FILE and matching PATTERN
expect_one_error() {
	local cmd=$1 file=$2 pattern=$3 rc=0 lines
	"$SAMPO" "$cmd" -i "$file" >out 2>err || rc=$?
	[ "$rc" -eq 1 ] || { cat err >&2; die "sampo $cmd on $file: exit status $rc, expected 1"; }
	lines=$(wc -l <err)
	[ "$lines" -eq 1 ] || { cat err >&2; die "sampo $cmd on $file: $lines lines on stderr, expected 1"; }
	grep -q -- "$file" err || die "sampo $cmd on $file: the error does not name the file: $(cat err)"
	grep -Eq -- "$pattern" err || die "sampo $cmd on $file: error '$(cat err)' does not match /$pattern/"
}

# patch FILE OFFSET FORMAT VALUE: overwrite a little-endian field of a copy
patch() {
	python3 - "$@" <<'EOF'
import struct, sys
path, off, fmt, val = sys.argv[1], int(sys.argv[2], 0), sys.argv[3], int(sys.argv[4], 0)
data = bytearray(open(path, 'rb').read())
struct.pack_into('<' + fmt, data, off, val)
open(path, 'wb').write(data)
EOF
}

# fields of the intact file
read -r data_off data_size <<<"$(python3 -c "
import struct; h = open('good.data','rb').read(104)
print(*struct.unpack_from('<QQ', h, 40))")"
rec1=$data_off
rec2=$((rec1 + $(python3 -c "import struct;print(struct.unpack_from('<H', open('good.data','rb').read(), $rec1 + 6)[0])")))
rec3=$((rec2 + $(python3 -c "import struct;print(struct.unpack_from('<H', open('good.data','rb').read(), $rec2 + 6)[0])")))
feat_table=$((data_off + data_size))
size=$(stat -c %s good.data)

# --- not perf.data at all
: >empty.data
expect_one_error dump empty.data 'empty file'
expect_one_error header empty.data 'empty file'
mkdir dir.data
expect_one_error dump dir.data 'directory'
printf 'this is not a perf.data file, not at all\n' >text.data
expect_one_error dump text.data 'bad magic at offset 0'
expect_one_error header text.data 'bad magic at offset 0'
[ ! -s out ] || die "output printed for a file with a bad magic"

# --- header fields
cp good.data attr-size.data && patch attr-size.data 16 Q 3
expect_one_error dump attr-size.data 'attr_size at offset 0x10'
cp good.data attrs-off.data && patch attrs-off.data 24 Q 0x7fffffff0000
expect_one_error dump attrs-off.data 'attrs section .* lies outside the file'
cp good.data data-off.data && patch data-off.data 40 Q $((size + 4096))
expect_one_error dump data-off.data 'data section offset .* past the end of the file'
cp good.data feat-off.data && patch feat-off.data "$feat_table" Q 0x7fffffff0000
expect_one_error header feat-off.data 'feature .* lies outside the file'
expect_one_error dump feat-off.data 'feature .* lies outside the file'

# --- records: a zero size, a size past the end of the data
cp good.data zero.data && patch zero.data $((rec3 + 6)) H 0
expect_one_error dump zero.data "record at offset $(printf '%#x' $rec3): size 0 is smaller"
grep -q "^$(printf '%#x' $rec1)@zero.data" out || die "records before the bad one were not printed"
cp good.data huge.data && patch huge.data $((rec3 + 6)) H 0xfff8
expect_one_error dump huge.data "record at offset $(printf '%#x' $rec3) of size 0xfff8 runs past the end"

# --- a string length past its section (the first feature, HOSTNAME)
# the table has one entry per set feature bit, in bit order: HOSTNAME (3) follows those below it
hostname_off=$(python3 -c "
import struct; d = open('good.data','rb').read()
bits = struct.unpack_from('<Q', d, 72)[0]
idx = bin(bits & ((1 << 3) - 1)).count('1')
print(struct.unpack_from('<Q', d, $feat_table + 16 * idx)[0])")
cp good.data strlen.data && patch strlen.data "$hostname_off" I 0x100000
# a damaged feature is left out with one warning, and the rest is read
for cmd in header report buildid-list; do
	rc=0
	"$SAMPO" "$cmd" -i strlen.data >out 2>err || rc=$?
	grep -v 'kernel symbols' err >err.own || true
	[ "$rc" -eq 0 ] || { cat err >&2; die "sampo $cmd on strlen.data: exit status $rc, expected 0"; }
	[ "$(wc -l <err.own)" -eq 1 ] && grep -q "warning: 'strlen.data': feature HOSTNAME" err.own ||
		die "sampo $cmd on strlen.data: not one warning naming HOSTNAME: $(cat err)"
done

# --- cut at many offsets: every cut is an error, and the dump keeps what was before the cut
grep -E '^0x[0-9a-f]+@good.data' good.dump | sed 's/@good.data.*//' >good.offsets
step=$(( size / 150 ))
for cut in 1 8 15 16 50 103 104 120 $((data_off + 3)) $((rec2 + 5)) $(seq $((data_off + 17)) "$step" "$size") $((size - 1)); do
	[ "$cut" -lt "$size" ] || continue
	head -c "$cut" good.data >cut.data
	for cmd in header dump; do
		rc=0
		"$SAMPO" "$cmd" -i cut.data >out 2>err || rc=$?
		[ "$rc" -eq 1 ] || { cat err >&2; die "sampo $cmd on a file cut at $cut: exit status $rc, expected 1"; }
		[ "$(wc -l <err)" -eq 1 ] || { cat err >&2; die "sampo $cmd on a file cut at $cut: not one error line"; }
		grep -Eq 'cut.data: .*(offset|truncated|empty)' err || die "cut at $cut: unclear error: $(cat err)"
	done
	# the dump of a cut file printed only records of the intact file, and some of them
	grep -E '^0x[0-9a-f]+@cut.data' out | sed 's/@cut.data.*//' | sort >cut.offsets || true
	# (a cut inside the feature area leaves the data whole but the file unreadable)
	if [ "$cut" -gt "$rec2" ] && [ "$cut" -lt "$feat_table" ] && [ ! -s cut.offsets ]; then
		die "cut at $cut: the records before the cut were not printed"
	fi
	sort good.offsets | comm -23 cut.offsets - | grep -q . &&
		die "cut at $cut: printed a record that is not in the intact file"
done

# --- a pipe-mode stream and a compressed file, cut in the middle
head -c $(( $(stat -c %s "$d") / 2 + 3 )) "$d" >pipecut.data
expect_one_error dump pipecut.data 'offset'
head -c $(( $(stat -c %s "$e") - 700 )) "$e" >zcut.data
expect_one_error dump zcut.data 'offset|truncated'
python3 - "$e" zbad.data <<'EOF'
import struct, sys
data = bytearray(open(sys.argv[1], 'rb').read())
off, = struct.unpack_from('<Q', data, 40)
end = off + struct.unpack_from('<Q', data, 48)[0]
while off < end:
    typ, size = struct.unpack_from('<I', data, off)[0], struct.unpack_from('<H', data, off + 6)[0]
    if typ == 81:                       # the first COMPRESSED record: spoil its zstd data
        data[off + 12:off + 40] = b'\x5a' * 28
        break
    off += size
open(sys.argv[2], 'wb').write(data)
EOF
expect_one_error dump zbad.data 'COMPRESSED record at offset 0x[0-9a-f]+: zstd'

pass

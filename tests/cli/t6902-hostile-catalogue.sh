#!/bin/bash
# t6902-hostile-catalogue: one input of each hostile class of docs/hardening.md's catalogue, each read within a memory limit: one error line naming the file and the offset or field (or a warning and the rest read), the samples before the bad point printed
#
# The catalogue's other classes have their own tests (listed in
# docs/hardening.md); this one holds the three promises side by side for the
# classes a perf.data alone can carry: every run is under `ulimit -v`
# (limit_memory: not under ASan, whose shadow memory makes it meaningless),
# with a 120 s guard against a hang (not a timing bound: the runs take
# seconds), and for a damaged file script must have printed exactly the
# intact file's output up to the bad point.
. "$(dirname "$0")/lib.sh"
need_cmd python3 timeout

b=$(fixture b-callchain-fp/perf.data)
mk=$SAMPO_BUILDDIR/tests/tools/mkhostile
[ -x "$mk" ] || skip "no tests/tools/mkhostile in the build"
export HOME=$tmpdir/home
mkdir -p "$HOME"
cd "$tmpdir"
cp "$b" good.data
"$SAMPO" script -i good.data >good.script 2>/dev/null || die "script of the intact fixture failed"

MEM_KB=1500000 # 1.5 GB of address space: sampo's own mappings, one 4 MiB window, the symbols

# run EXPECT CMD FILE: sampo CMD -i FILE within the memory limit; fail unless it exits EXPECT.
# stdout in FILE.CMD, stderr in FILE.CMD.err
run() {
	local want=$1 cmd=$2 f=$3 rc=0
	(
		limit_memory $MEM_KB
		exec timeout 120 "$SAMPO" "$cmd" -i "$f"
	) >"$f.$cmd" 2>"$f.$cmd.err" || rc=$?
	[ "$rc" != 124 ] || die "$f: sampo $cmd still running after 120 s"
	[ "$rc" = "$want" ] || die "$f: sampo $cmd exited $rc, expected $want: $(tail -3 "$f.$cmd.err")"
}

# one_error CMD FILE PATTERN: exactly one "sampo CMD: FILE: ..." line, matching PATTERN
one_error() {
	local n
	n=$(grep -c "^sampo $1: $2: " "$2.$1.err" || true)
	[ "$n" = 1 ] || die "$2: sampo $1: $n error lines naming the file, expected 1: $(cat "$2.$1.err")"
	grep "^sampo $1: $2: " "$2.$1.err" | grep -Eq -- "$3" ||
		die "$2: sampo $1: '$(grep "^sampo $1: $2: " "$2.$1.err")' does not match /$3/"
}

# before_bad_point FILE: script printed a prefix of the intact output, and not nothing
before_bad_point() {
	[ -s "$1.script" ] || die "$1: script printed nothing before the bad point"
	head -c "$(wc -c <"$1.script")" good.script | cmp -s - "$1.script" ||
		die "$1: script printed something that is not the intact file's output"
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

read -r data_off data_size <<<"$(python3 -c "
import struct; h = open('good.data','rb').read(104)
print(*struct.unpack_from('<QQ', h, 40))")"
size=$(stat -c %s good.data)
# the offset of the first record past the middle of the data
mid=$(python3 -c "
import struct; d = open('good.data','rb').read(); off = $data_off
while off < $data_off + $data_size // 2: off += struct.unpack_from('<H', d, off + 6)[0]
print(off)")

# 1. not a perf.data file
printf 'not a perf.data file at all\n' >magic.data
run 1 script magic.data
one_error script magic.data 'bad magic at offset 0'

# 2. a header field out of range
cp good.data attrs.data && patch attrs.data 24 Q 0x7fffffff0000
run 1 report attrs.data
one_error report attrs.data 'attrs section .* lies outside the file'

# 3. a file cut short in the middle of its data
head -c "$((mid + 20))" good.data >cut.data
run 1 script cut.data
one_error script cut.data "record at offset $(printf '%#x' "$mid") .* runs past the end of the file"
before_bad_point cut.data

# 4. a record of size 0 in the middle of the data
cp good.data zero.data && patch zero.data $((mid + 6)) H 0
run 1 script zero.data
one_error script zero.data "record at offset $(printf '%#x' "$mid"): size 0"
before_bad_point zero.data

# 5. a record whose size runs past the data
cp good.data long.data && patch long.data $((mid + 6)) H 65528
run 1 script long.data
one_error script long.data "offset $(printf '%#x' "$mid")"
before_bad_point long.data

# 6. a recorder killed before it wrote the data size: the records, no size, no
# features (perf's own when SIGKILLed; t6900 and t6901 for sampo record's)
head -c "$((data_off + data_size))" good.data >unfinished.data && patch unfinished.data 48 Q 0
run 0 script unfinished.data
grep -q "unfinished.data: the recording did not finish" unfinished.data.script.err ||
	die "unfinished.data: no warning: $(cat unfinished.data.script.err)"
cmp -s unfinished.data.script good.script || die "unfinished.data: not every sample printed"

# 7. a damaged optional feature: one warning, the rest read (t1103 has more)
feat_table=$((data_off + data_size))
hostname_off=$(python3 -c "
import struct; d = open('good.data','rb').read()
bits = struct.unpack_from('<Q', d, 72)[0]
n = sum(1 for i in range(3) if bits >> i & 1)  # table entries before HOSTNAME (bit 3)
print(struct.unpack_from('<Q', d, $feat_table + 16 * n)[0])")
cp good.data feature.data && patch feature.data "$hostname_off" I 0x7fffffff
run 0 report feature.data
grep -q "feature.data.: feature HOSTNAME at 0x[0-9a-f]*, offset 0: .*; read without it" feature.data.report.err || die "feature.data: no warning about HOSTNAME: $(cat feature.data.report.err)"
run 0 script feature.data
cmp -s feature.data.script good.script || die "feature.data: script output differs from the intact file's"

# 8. COMPRESSED records that inflate past the buffer the file records (t6800)
"$mk" compressed bomb.data -n 4 -b 67000000 -m 528384
run 1 script bomb.data
one_error script bomb.data "COMPRESSED record at offset 0x[0-9a-f]+ inflates to more than 528384 bytes"

# 9. thousands of attrs naming one large ids section (t6802)
"$mk" ids ids.data -n 8192 -i 32768
run 0 header ids.data

# 10. records that never come out of the time-ordering queue (t6803)
"$mk" compressed queue.data -n 4000 -b 8000 -m 528384
run 0 report queue.data

# 11. a build-id table and maps of 50000 files, one sample in each (t6801)
"$mk" dsos dsos.data -n 50000 --build-ids --samples
run 0 script dsos.data
[ "$(grep -c . dsos.data.script)" = 50000 ] || die "dsos.data: $(grep -c . dsos.data.script) samples, expected 50000"

# 12. 200000 maps of one file in descending order (t6804)
"$mk" maps maps.data -n 200000 --samples
run 0 report maps.data

# 13. a NUMA node whose CPU list spans 2^31 CPUs (perf allocates 8 GiB for it):
# header warns once about NUMA_TOPOLOGY and prints the other features
numa_off=$(python3 -c "
import struct; d = open('good.data','rb').read()
bits = struct.unpack_from('<Q', d, 72)[0]
n = sum(1 for i in range(14) if bits >> i & 1)  # table entries before NUMA_TOPOLOGY (bit 14)
print(struct.unpack_from('<Q', d, $feat_table + 16 * n)[0])")
# node 0's list: u32 nr, u32 node, u64 total, u64 free, u32 len (64), then the text
cp good.data numa.data && printf '0-2147483646\0' |
	dd of=numa.data bs=1 seek=$((numa_off + 28)) conv=notrunc status=none
(limit_memory $MEM_KB && exec timeout 120 "$SAMPO" header -I -i numa.data) >numa.data.header \
	2>numa.data.header.err || die "numa.data: header -I failed: $(cat numa.data.header.err)"
grep -q "NUMA_TOPOLOGY.*node 0: too long a cpu list '0-2147483646'" numa.data.header.err ||
	die "numa.data: no warning about the NUMA list: $(cat numa.data.header.err)"
grep -q '^# hostname : ' numa.data.header || die "numa.data: the other features were not printed"
pass

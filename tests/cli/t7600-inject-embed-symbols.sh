#!/bin/bash
# t7600-inject-embed-symbols: sampo inject --embed-symbols adds the symbols section (feature 193)
# to a profile recorded here (by sampo and by perf) of a program built here, and changes nothing
# else: the records are the same, and perf 6.1 reads the file with no error and prints the same
# report, script, header and build-id list as of the input; the section holds the program's hit
# functions and not the ones no sample hit; without --embed-symbols inject copies the file; -o
# may be the input; a second inject replaces the section; a big-endian file works the same (perf's
# view unchanged, its kernel named from the section on a fresh HOME); pipe input and bad usage are
# refused
. "$(dirname "$0")/lib.sh"

need_perf_record
need_cmd cc
unset PERF_BUILDID_DIR SAMPO_BUILDID_DIR
export HOME=$tmpdir/home
mkdir -p "$HOME"
cd "$tmpdir"
cat >prog.c <<'EOF'
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>
static volatile unsigned long sink;
__attribute__((noinline)) void embed_hot_leaf(long n) { for (long i = 0; i < n; i++) sink += i * 7; }
__attribute__((noinline)) void embed_caller(long n) { embed_hot_leaf(n); sink++; }
__attribute__((noinline)) void embed_never_called(void) { sink += 3; }
__attribute__((noinline)) void embed_reader(long n)
{
	static char buf[65536];
	int fd = open("/dev/zero", O_RDONLY);
	for (long i = 0; i < n; i++)
		if (read(fd, buf, sizeof(buf)) < 0)
			break;
	close(fd);
}
int main(int argc, char **argv)
{
	long rounds = argc > 1 ? atol(argv[1]) : 30;
	for (long r = 0; r < rounds; r++) {
		embed_caller(2000000);
		embed_reader(300);
	}
	if (argc > 2)
		embed_never_called();
	return 0;
}
EOF
cc -O1 -fno-omit-frame-pointer -Wl,--build-id=sha1 -o prog prog.c || die "cannot build the test program"

# what perf prints of a file, without what depends on the file's name or time
perf_view() {
	"$PERF" "$@" 2>"$tmpdir/perf.err" | grep -v -e "^# (Tip:" -e "^# captured on" -e "^# data size"
	[ -s "$tmpdir/perf.err" ] && sed 's/^/# perf stderr: /' "$tmpdir/perf.err" >&2
	return 0
}

check_perf_reads() {
	local in=$1 out=$2 view
	for view in "report --stdio" "script" "report --header-only" "buildid-list" "buildid-list -H"; do
		# shellcheck disable=SC2086
		perf_view $view -i "$in" >"perf-in.out"
		# shellcheck disable=SC2086
		perf_view $view -i "$out" >"perf-out.out" 2>"perf-out.err"
		[ -s "perf-in.out" ] || die "perf $view printed nothing for $in"
		compare_files perf-in.out perf-out.out
		# shellcheck disable=SC2086
		"$PERF" $view -i "$out" >/dev/null 2>perf.err || die "perf $view failed on $out: $(cat perf.err)"
		# shellcheck disable=SC2086
		"$PERF" $view -i "$in" >/dev/null 2>perf-in.err
		compare_files perf-in.err perf.err
	done
}

run_sampo record -q -g -F 2000 -o s.data -- ./prog 40 >/dev/null
run_sampo inject --embed-symbols -i s.data -o e.data 2>inject.err
grep -Eq "^embedded [1-9][0-9]* symbols of [1-9][0-9]* DSOs \([0-9]+ bytes, [0-9]+ samples\) into 'e.data'$" inject.err ||
	die "no summary line: $(cat inject.err)"

# the section is there, at bit 193, and only it was added: the records are the same
python3 - s.data e.data <<'EOF' || die "the feature tables do not differ by bit 193 alone"
import struct, sys
def feats(path):
    d = open(path, 'rb').read()
    off, size = struct.unpack_from('<QQ', d, 40)
    bm = struct.unpack_from('<4Q', d, 72)
    bits = [b for b in range(256) if bm[b // 64] >> (b % 64) & 1]
    fo = off + size
    return d[:72], d[104:fo], {b: d[o:o + s] for b, (o, s) in
                               zip(bits, [struct.unpack_from('<QQ', d, fo + 16 * i) for i in range(len(bits))])}
h1, body1, f1 = feats(sys.argv[1])
h2, body2, f2 = feats(sys.argv[2])
assert h1 == h2 and body1 == body2, "header or records changed"
assert set(f2) - set(f1) == {193}, sorted(set(f2) ^ set(f1))
assert all(f1[b] == f2[b] for b in f1), "a feature payload changed"
assert f2[193][:8] == b'SAMPOSYM'
EOF
"$SAMPO" dump -i s.data | sed 's/@s\.data/@F/' >dump-in
"$SAMPO" dump -i e.data | sed 's/@e\.data/@F/' >dump-out
compare_files dump-in dump-out

# perf 6.1 reads it as it reads the input
check_perf_reads s.data e.data

# the same for a file perf recorded
"$PERF" record -q -g -F 2000 -o p.data -- ./prog 40 >/dev/null 2>&1 || die "perf record failed"
run_sampo inject --embed-symbols -i p.data -o pe.data 2>/dev/null
check_perf_reads p.data pe.data

# what the section holds (the zstd frame after its 40-byte header, inflated by zstd(1)): the
# program's name and its hit functions, not the function no sample hit
python3 - e.data >frame.zst <<'EOF' || die "cannot cut the section out"
import struct, sys
d = open(sys.argv[1], 'rb').read()
off, size = struct.unpack_from('<QQ', d, 40)
bm = struct.unpack_from('<4Q', d, 72)
bits = [b for b in range(256) if bm[b // 64] >> (b % 64) & 1]
o, s = struct.unpack_from('<QQ', d, off + size + 16 * bits.index(193))
sec = d[o:o + s]
clen = struct.unpack_from('<Q', sec, 24)[0]
sys.stdout.buffer.write(sec[40:40 + clen])
EOF
zstd -qdc frame.zst >body || die "the section's frame does not inflate with zstd(1)"
grep -aq "$tmpdir/prog" body || die "no table for the program"
grep -aq embed_hot_leaf body || die "embed_hot_leaf is not embedded"
grep -aq embed_never_called body && die "embed_never_called, which no sample hit, is embedded"
grep -aq embed_never_called prog || die "the program lost its symbols"
# sampo -v inject lists the tables: the program's, by its build-id
"$SAMPO" -v inject --embed-symbols -i s.data -o v.data 2>v.err || die "inject -v failed"
pbid=$("$PERF" buildid-list -i prog)
grep -Eq "^  user +$pbid +[1-9][0-9]* symbols  $tmpdir/prog$" v.err || die "no table line for the program: $(cat v.err)"

# without --embed-symbols: a copy; -o may be the input; a second inject replaces the section
run_sampo inject -i s.data -o copy.data
cmp -s s.data copy.data || die "inject without options changed the file"
cp e.data again.data
run_sampo inject --embed-symbols -i again.data -o again.data 2>/dev/null
cmp -s e.data again.data || die "injecting again did not give the same file"
cp s.data inplace.data
run_sampo inject --embed-symbols -i inplace.data -o inplace.data 2>/dev/null
cmp -s e.data inplace.data || die "-o the input did not give the same file"
ls ./*.tmp.* >/dev/null 2>&1 && die "a temporary file was left behind"
run_sampo inject --embed-symbols -i s.data -o - >stdout.data 2>/dev/null
cmp -s e.data stdout.data || die "-o - did not write the same file"

# a big-endian file (the writer's): the section is little-endian inside, the file's header and
# feature table stay big-endian; perf reads it as before, and sampo on a fresh HOME names its
# kernel samples from the section as it does from the cache at home
gen=$SAMPO_BUILDDIR/bench/gen-perfdata
if [ -x "$gen" ] && grep -Eq "^[0-9a-f]*[1-9a-f][0-9a-f]* T _text$" /proc/kallsyms 2>/dev/null; then
	"$gen" -o be.data -n 20k -g 8 --kernel-build-id host --big-endian -q || die "gen-perfdata failed"
	run_sampo inject --embed-symbols -i be.data -o be-e.data 2>be.err
	grep -Eq "^embedded [1-9][0-9]* symbols of 1 DSOs" be.err || die "no kernel table for the big-endian file: $(cat be.err)"
	perf_view report --stdio --sort sym -i be.data >perf-be.out
	perf_view report --stdio --sort sym -i be-e.data >perf-be-e.out
	compare_files perf-be.out perf-be-e.out
	"$SAMPO" report --stdio --sort sym -i be.data >be-home.report 2>/dev/null
	mkdir -p bare
	HOME=$tmpdir/bare "$SAMPO" report --stdio --sort sym -i be-e.data >be-bare.report 2>/dev/null
	compare_files be-home.report be-bare.report
	HOME=$tmpdir/bare "$SAMPO" report --stdio --provenance -i be-e.data 2>/dev/null |
		grep -A3 '^\[kernel.kallsyms\]$' | grep -q "symbols *embedded: be-e.data" ||
		die "the big-endian file's kernel symbols did not come from its section"
else
	say "no big-endian check: no bench/gen-perfdata, or /proc/kallsyms hides the kernel's addresses"
fi

# refused: pipe-mode input, no input, no -o, an argument
run_sampo record -q -o - -- ./prog 2 >pipe.data
expect_status 1 inject --embed-symbols -i pipe.data -o x.data
grep -q "'pipe.data' is a pipe-mode stream" "$tmpdir/stderr" || die "bad message: $(cat "$tmpdir/stderr")"
[ -e x.data ] && die "an output was written for a pipe-mode input"
expect_status 1 inject --embed-symbols -i missing.data -o x.data
grep -q "missing.data" "$tmpdir/stderr" || die "bad message: $(cat "$tmpdir/stderr")"
expect_status 129 inject --embed-symbols -i s.data
grep -q -- "-o FILE is needed" "$tmpdir/stderr" || die "bad message: $(cat "$tmpdir/stderr")"
expect_status 129 inject -i - -o x.data
expect_status 129 inject -i s.data -o x.data extra
pass

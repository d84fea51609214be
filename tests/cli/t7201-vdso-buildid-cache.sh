#!/bin/bash
# t7201-vdso-buildid-cache: sampo record saves the vdso image in the build-id cache under [vdso]
# as perf record does; report and script take the vdso's symbols from the cached image of the
# recorded build-id (a planted image with renamed symbols, read through another HOME and through
# PERF_BUILDID_DIR, names the samples), never from the vdso of the machine doing the report (a
# recording whose vdso build-id is not this machine's gets no vdso names without its image)
. "$(dirname "$0")/lib.sh"
need_cmd gcc python3
"$SAMPO" record -q -e cpu-clock -o "$tmpdir/probe.data" -- true >/dev/null 2>&1 ||
	skip "sampo cannot record here"
unset PERF_BUILDID_DIR
cd "$tmpdir"

cat >vd.c <<'EOF'
#include <time.h>
int main(void)
{
	struct timespec ts;
	unsigned long s = 0;

	for (long i = 0; i < 6000000; i++) {
		clock_gettime(CLOCK_MONOTONIC, &ts);
		s += (unsigned long)ts.tv_nsec;
	}
	return (int)(s & 1) * 0;
}
EOF
gcc -O1 -o vd vd.c || skip "gcc cannot build the test program"

mkdir -p rec empty plant
HOME=$tmpdir/rec "$SAMPO" record -q -e cpu-clock -F 2000 -o s.data -- ./vd >/dev/null 2>rec.err ||
	die "sampo record failed: $(tail -3 rec.err)"
if [ -n "${PERF:-}" ]; then
	HOME=$tmpdir/rec "$PERF" record -q -e cpu-clock -F 2000 -o p.data -- ./vd >/dev/null 2>&1 ||
		PERF=
fi

# the image sampo record saved, as perf lays it out
vbid=$(cd "rec/.debug/[vdso]" 2>/dev/null && ls) || die "sampo record saved no [vdso] directory"
[ "$(echo "$vbid" | wc -l)" = 1 ] || die "several vdso build-ids in one recording: $vbid"
img=rec/.debug/[vdso]/$vbid/vdso
[ -f "$img" ] || die "no $img"
[ -e "rec/.debug/.build-id/${vbid:0:2}/${vbid:2}/vdso" ] || die "no .build-id link to the vdso"
python3 - "$img" "$vbid" <<'EOF' || die "the saved vdso is not an ELF image with the recorded build-id"
import sys
data = open(sys.argv[1], "rb").read()
assert data[:4] == b"\x7fELF" and bytes.fromhex(sys.argv[2]) in data
EOF

# report_vdso FILE HOME [ENV...]: the vdso rows of sampo's report
report_vdso() {
	local f=$1 home=$2
	shift 2
	env HOME="$home" "$@" "$SAMPO" report --stdio --sort dso,sym -i "$f" 2>/dev/null |
		grep '\[vdso\]' || true
}

# 1. the recording machine's cache: the vdso's own names, as perf prints them
out=$(report_vdso s.data "$tmpdir/rec")
echo "$out" | grep -q '__vdso_clock_gettime' || die "no vdso symbol from the cache: $out"
if [ -n "${PERF:-}" ]; then
	want=$(HOME=$tmpdir/rec "$PERF" report --stdio --sort dso,sym -i p.data 2>/dev/null |
		grep '\[vdso\]' || true)
	got=$(report_vdso p.data "$tmpdir/rec")
	[ "$want" = "$got" ] || die "vdso rows differ from perf's: perf: $want sampo: $got"
fi

# 2. the same recordings as if made on another machine: the vdso's build-id
# replaced (every copy of it in the file), an image with renamed symbols and
# that build-id planted in another cache
fake=$(python3 -c 'import sys; print(bytes(b ^ 0x5a for b in bytes.fromhex(sys.argv[1])).hex())' "$vbid")
python3 - "$vbid" "$fake" "$img" <<'EOF'
import sys
old, new, img = bytes.fromhex(sys.argv[1]), bytes.fromhex(sys.argv[2]), sys.argv[3]
for src, dst in (("s.data", "s2.data"), ("p.data", "p2.data")):
    try:
        data = open(src, "rb").read()
    except FileNotFoundError:
        continue
    assert old in data, src
    open(dst, "wb").write(data.replace(old, new))
data = open(img, "rb").read()
# same length names, so that nothing else in the image moves
data = data.replace(old, new).replace(b"__vdso_clock_gettime\0", b"__plnt_clock_gettime\0")
open("planted.vdso", "wb").write(data)
EOF
mkdir -p "plant/.debug/[vdso]/$fake" "plant/.debug/.build-id/${fake:0:2}"
cp planted.vdso "plant/.debug/[vdso]/$fake/vdso"
ln -s "../../[vdso]/$fake" "plant/.debug/.build-id/${fake:0:2}/${fake:2}"

# no image of that build-id: this machine's vdso is not used
out=$(report_vdso s2.data "$tmpdir/empty")
if echo "$out" | grep -q 'clock_gettime'; then
	die "symbols of this machine's vdso for another build-id: $out"
fi
out=$("$SAMPO" script -F ip,sym,dso -i s2.data 2>/dev/null | grep '\[vdso\]' | head -3 || true)
echo "$out" | grep -q 'clock_gettime' && die "script used this machine's vdso: $out"

# the planted image, through another HOME and through PERF_BUILDID_DIR
for how in home buildid-dir; do
	if [ $how = home ]; then
		out=$(report_vdso s2.data "$tmpdir/plant")
	else
		out=$(report_vdso s2.data "$tmpdir/empty" PERF_BUILDID_DIR="$tmpdir/plant/.debug")
	fi
	echo "$out" | grep -q '__plnt_clock_gettime' || die "$how: not the planted image's names: $out"
	echo "$out" | grep -q '__vdso_clock_gettime' && die "$how: this machine's vdso names: $out"
done
HOME=$tmpdir/plant "$SAMPO" script -F sym,dso -i s2.data 2>/dev/null | grep '__plnt_clock_gettime' >/dev/null ||
	die "script does not take the planted image"
if [ -n "${PERF:-}" ] && [ -f p2.data ]; then
	want=$(HOME=$tmpdir/plant "$PERF" report --stdio --sort dso,sym -i p2.data 2>/dev/null |
		grep '\[vdso\]' || true)
	got=$(report_vdso p2.data "$tmpdir/plant")
	[ "$want" = "$got" ] || die "on the planted image, perf: $want; sampo: $got"
fi
pass

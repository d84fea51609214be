#!/bin/bash
# t1103-header-damaged-feature: a damaged optional feature makes header, report and buildid-list warn once and read everything else (exit 0, as perf goes on)
#
# Copies of the b-callchain-fp fixture with one feature payload damaged
# (HOSTNAME's string length past its section, an impossible CPU_TOPOLOGY or
# EVENT_DESC count) and one with two. For each command: exit status 0, exactly
# one warning naming the file, the first damaged feature and the problem
# (and how many more), and the output of the intact file but for the
# damaged feature's lines: the report and the build-id list unchanged, the
# header with the damaged feature printed as empty. Where perf notices the
# damage too (EVENT_DESC), its header is the same as ours.
. "$(dirname "$0")/lib.sh"
need_cmd python3

b=$(fixture b-callchain-fp/perf.data)
cd "$tmpdir"
cp "$b" good.data

# damage SRC DST FEAT...: copy SRC with each named feature's payload damaged
cat >damage.py <<'EOF'
import struct, sys

src, dst, feats = sys.argv[1], sys.argv[2], sys.argv[3:]
b = bytearray(open(src, 'rb').read())
data_off, data_size = struct.unpack_from('<QQ', b, 40)
bits = struct.unpack_from('<Q', b, 72)[0]
secs, i = {}, 0
for bit in range(64):
    if bits >> bit & 1:
        secs[bit] = struct.unpack_from('<QQ', b, data_off + data_size + 16 * i)
        i += 1
for f in feats:
    if f == 'hostname':      # the string runs past the section
        off, size = secs[3]
        struct.pack_into('<I', b, off, size)
    elif f == 'topology':    # more sibling strings than the section holds
        off, size = secs[13]
        struct.pack_into('<I', b, off, 0x7fffffff)
    elif f == 'event-desc':  # more events than the section holds
        off, size = secs[12]
        struct.pack_into('<I', b, off, 0x10000000)
    else:
        sys.exit('unknown feature ' + f)
open(dst, 'wb').write(b)
EOF

# our_stderr FILE: stderr without the symbolizer's notes about this machine's kernel
our_stderr() {
	grep -v 'kernel symbols' "$1" || true
}

# (the capture time is the file's mtime: the damaged copies are newer)
"$SAMPO" header -I -i good.data 2>/dev/null | grep -v '^# captured on' >good.header ||
	die "header of the intact fixture failed"
"$SAMPO" report --stdio -i good.data >good.report 2>/dev/null || die "report of the intact fixture failed"
"$SAMPO" buildid-list -i good.data >good.buildids 2>/dev/null || die "buildid-list of the intact fixture failed"

# check NAME FEATURE PATTERN DAMAGE...: run the three commands on a damaged copy
check() {
	local name=$1 feat=$2 pattern=$3 cmd rc
	shift 3
	python3 damage.py good.data "$name.data" "$@" || die "damage.py $name failed"
	for cmd in "header -I" "report --stdio" buildid-list; do
		rc=0
		# shellcheck disable=SC2086
		"$SAMPO" $cmd -i "$name.data" >out 2>err || rc=$?
		our_stderr err >err.own
		[ "$rc" -eq 0 ] || { cat err >&2; die "$name: sampo $cmd: exit status $rc, expected 0"; }
		[ "$(wc -l <err.own)" -eq 1 ] ||
			die "$name: sampo $cmd: $(wc -l <err.own) lines on stderr, expected 1: $(cat err)"
		grep -Eq "warning: '$name.data': feature $feat at 0x[0-9a-f]+, offset (0|0x[0-9a-f]+): .*$pattern" err.own ||
			die "$name: sampo $cmd: unexpected warning: $(cat err.own)"
		case $cmd in
		report*) cmp -s good.report out || die "$name: the report differs from the intact file's" ;;
		buildid*) cmp -s good.buildids out || die "$name: the build-id list differs from the intact file's" ;;
		header*) grep -v '^# captured on' out >"$name.header" ;;
		esac
	done
}

check hostname HOSTNAME 'string length .* runs past the section end' hostname
diff good.header hostname.header >hostname.diff || true
[ "$(grep -c '^[<>]' hostname.diff)" -eq 2 ] && grep -q '^> # hostname : (null)$' hostname.diff ||
	die "hostname: the header differs in more than the hostname: $(cat hostname.diff)"

check topology CPU_TOPOLOGY 'count 2147483647 cannot fit' topology
# only the CPU_TOPOLOGY block changes: it prints as empty, as perf prints one it could not read
diff good.header topology.header >topology.diff || true
grep '^[<>]' topology.diff | grep -v -e '^< # sibling ' -e '^< # CPU [0-9]*: Core ID' \
	-e '^> # Core ID and Socket ID information is not available$' >topology.other || true
[ ! -s topology.other ] || die "topology: lines other than the topology changed: $(cat topology.diff)"

check event-desc EVENT_DESC 'event count 268435456 cannot fit' event-desc
grep -q '^# event desc: not available or unable to read$' event-desc.header ||
	die "event-desc: no 'not available' line as perf prints"
grep -q '^# event : ' event-desc.header && die "event-desc: an event line from a damaged EVENT_DESC"

# two damaged features: one warning, naming the first and counting the rest
check two HOSTNAME 'runs past the section end .*; read without it \(and 1 more damaged feature\)' \
	hostname event-desc
grep -q 'and 1 more damaged feature)' err.own || die "two: the warning does not count the second: $(cat err.own)"

# perf 6.1 reads the EVENT_DESC-damaged file and prints the same header
if [ -n "${PERF:-}" ] && [ -x "$PERF" ]; then
	mkdir -p home
	if HOME=$tmpdir/home "$PERF" report --header-only -f -i event-desc.data >perf.header 2>/dev/null; then
		"$SAMPO" header -i event-desc.data >ours.header 2>/dev/null
		diff <(grep -v '^# captured on' perf.header) <(grep -v '^# captured on' ours.header) ||
			die "event-desc: the header differs from perf's"
	fi
fi
pass

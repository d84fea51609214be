#!/bin/bash
# t2005-report-guest: guest kernels (perf kvm): report and script name guest kernel samples as perf kvm does, relocated by the guest's own _text, and never with the host's symbols; without --guest, script leaves guest samples out and report counts them but shows no row, as perf
#
# The file is written here: a host process with user samples, a default
# guest (pid 0) whose kernel map "[guest.kernel.kallsyms]_text" is slid by a
# random KASLR offset, guest kernel samples from qemu's vCPU thread
# 4242/4243 (in and outside the guest kernel map), a guest user sample, and
# a second guest (pid 77, "[guest.kernel.kallsyms.77]") whose samples must
# never take the first guest's symbols. The guest's kallsyms snapshot is of
# the recording boot.
. "$(dirname "$0")/lib.sh"
need_cmd python3

cd "$tmpdir"
slide=$(( (RANDOM % 400 + 1) * 2097152 ))
cat >gen.py <<'PYEOF'
import struct, sys

def rec(type, misc, body):
    return struct.pack('<IHH', type, misc, 8 + len(body)) + body

def cstr(s):
    b = s.encode() + b'\0'
    return b + bytes((-len(b)) % 8)

def perf_string(s):
    b = s.encode() + b'\0'
    b += bytes((-len(b)) % 64)
    return struct.pack('<I', len(b)) + b

path, slide, second_guest = sys.argv[1], int(sys.argv[2]), sys.argv[3] == '1'
GT = 0xffffffff81000000 + slide
ST = 0x107  # IP | TID | TIME | PERIOD
sid = lambda pid=0, tid=0, t=0: struct.pack('<IIQ', pid, tid, t)
R = []
def mmap(misc, pid, start, length, pgoff, name):
    R.append(rec(1, misc, struct.pack('<IIQQQ', pid, 0, start, length, pgoff) + cstr(name) + sid()))
mmap(1, 0xffffffff, 0xffffffff81000000, 0x1000000, 0xffffffff81000000, '[kernel.kallsyms]_text')
mmap(4, 0, GT, 0x20000, GT, '[guest.kernel.kallsyms]_text')
if second_guest:
    mmap(4, 77, 0xffffffff8a000000, 0x20000, 0xffffffff8a000000, '[guest.kernel.kallsyms.77]_text')
R.append(rec(3, 0, struct.pack('<II', 100, 100) + cstr('hostproc') + sid(100, 100, 1)))
t = 10
def samp(misc, ip, pid, tid, n=1):
    global t
    for _ in range(n):
        R.append(rec(9, misc, struct.pack('<QIIQQ', ip, pid, tid, t, 1000)))
        t += 1
samp(4, GT + 0x110, 4242, 4243, 5)       # guest_alpha
samp(4, GT + 0x220, 4242, 4243, 3)       # guest_beta
samp(4, GT + 0x5000, 4242, 4243, 2)      # guest_gamma
samp(4, GT + 0x30000, 4242, 4243)        # past the guest kernel map
samp(5, 0x400100, 4242, 4243)            # guest user
samp(2, 0x400100, 100, 100, 2)           # host user
if second_guest:
    samp(4, 0xffffffff8a000110, 77, 78, 2)   # guest 77: no symbols given for it
attr = struct.pack('<IIQQQQQIIQQQQIiQIHHIIQ', 1, 128, 0, 1000, ST, 0, (1 << 18) | (1 << 8),
                   0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
attrs_off = 104
data_off = attrs_off + 128 + 16
data = b''.join(R)
ed = struct.pack('<II', 1, 128) + attr + struct.pack('<I', 0) + perf_string('cpu-clock')
feat_off = data_off + len(data) + 16
h = struct.pack('<9Q', 0x32454c4946524550, 104, 144, attrs_off, 128 + 16, data_off, len(data),
                0, 0) + struct.pack('<4Q', 1 << 12, 0, 0, 0)
open(path, 'wb').write(h + attr + struct.pack('<QQ', 0, 0) + data +
                       struct.pack('<QQ', feat_off, len(ed)) + ed)
PYEOF
python3 gen.py guest.data "$slide" 1
# perf folds every guest not under --guestmount into the default one, where
# the last guest kernel map replaces the others: compare on one guest only
python3 gen.py guest1.data "$slide" 0
printf '%016x T _text\n%016x T guest_alpha\n%016x t guest_beta\n%016x T guest_gamma\n%016x T _etext\n' \
	$((0xffffffff81000000 + slide)) $((0xffffffff81000100 + slide)) $((0xffffffff81000200 + slide)) \
	$((0xffffffff81001000 + slide)) $((0xffffffff81020000 + slide)) >guest-kallsyms

# first principles: every guest kernel sample on its function, the rest unresolved
run_sampo script -i guest.data --guestkallsyms guest-kallsyms -F comm,tid,ip,sym,dso >script.out \
	2>script.err
printf '%s\n' \
	"5 :4243 4243 guest_alpha ([guest.kernel.kallsyms])" \
	"3 :4243 4243 guest_beta ([guest.kernel.kallsyms])" \
	"2 :4243 4243 guest_gamma ([guest.kernel.kallsyms])" \
	"2 :4243 4243 [unknown] ([unknown])" \
	"2 hostproc 100 [unknown] ([unknown])" \
	"2 :78 78 [unknown] ([guest.kernel.kallsyms.77])" >want
awk '{ print $1, $2, $4, $5 }' script.out | uniq -c | sed 's/^ *//' >got
compare_files want got
grep -q 'no guest 77 kernel symbols.*--guestmount' script.err || die "no word on guest 77's missing symbols: $(cat script.err)"

# without a guest option, guest samples are left out, as perf script does
run_sampo script -i guest.data -F comm,tid,ip,sym,dso >noguest.out 2>/dev/null
[ "$(wc -l <noguest.out)" = 2 ] || die "guest samples printed without --guest: $(cat noguest.out)"

# without --guest, report counts the guest samples in the totals but shows no
# row of theirs (perf's HIST_FILTER__GUEST): 16 samples, the host's 2 are 12.50%
run_sampo report -i guest.data --stdio >noguest-report.out 2>/dev/null
grep -q "^# Samples: 16  of event 'cpu-clock'$" noguest-report.out ||
	die "guest samples not counted: $(grep Samples noguest-report.out)"
[ "$(grep -c '%' noguest-report.out)" = 1 ] && grep -q '^    12.50%  hostproc  ' noguest-report.out ||
	die "guest rows without --guest: $(grep '%' noguest-report.out)"
if [ -n "$PERF" ]; then
	HOME=$tmpdir "$PERF" report -f --stdio --kallsyms /dev/null -i guest.data 2>/dev/null |
		head -n -3 >perf-noguest.out
	compare_files perf-noguest.out noguest-report.out
fi

# perf kvm --host --guest report and perf script print the same
if [ -n "$PERF" ]; then
	# perf's closing "Tip" is random: compare without it and the blank and "#" lines around it
	"$PERF" kvm --host --guest --guestkallsyms=guest-kallsyms report -i guest1.data --stdio \
		2>/dev/null | grep -v -e '^# (Tip' -e '^$' -e '^#$' >perf-report.out
	run_sampo report -i guest1.data --stdio --guestkallsyms guest-kallsyms 2>/dev/null |
		grep -v -e '^$' -e '^#$' >sampo-report.out
	grep -q 'guest_alpha' perf-report.out || die "perf kvm report named nothing: $(cat perf-report.out)"
	compare_files perf-report.out sampo-report.out
	"$PERF" script -i guest1.data --guestkallsyms=guest-kallsyms -F comm,tid,ip,sym,dso \
		>perf-script.out 2>/dev/null
	run_sampo script -i guest1.data --guestkallsyms guest-kallsyms -F comm,tid,ip,sym,dso \
		>sampo-script.out 2>/dev/null
	compare_files perf-script.out sampo-script.out
else
	say "perf not installed: only the first-principles checks ran"
fi
pass

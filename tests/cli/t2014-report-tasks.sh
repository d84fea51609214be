#!/bin/bash
# t2014-report-tasks: `sampo report --tasks` prints the recorded threads as perf
# 6.1's process tree (each under its parent, in perf's order), and `--mmaps` adds
# each process's maps. Compared with perf on the fixtures, on wild files (perf 3.8's
# thousand-thread system-wide recording, pipes, other architectures) and on a
# generated file; a thread whose parents make a loop, which perf leaves out of its
# tree, is checked from first principles.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-wild.sh"
need_perf

fails=0
dir=$(fixtures_dir)
for f in "$dir"/*/perf.data; do
	name=$(basename "$(dirname "$f")")
	for mode in --tasks --mmaps; do
		"$PERF" report -i "$f" $mode >"$tmpdir/want" 2>/dev/null
		grep -q '^#      pid      tid     ppid  comm$' "$tmpdir/want" || die "$name: perf printed no tree"
		# perf 6.1 reads an MMAP2 that carries a build-id as if it carried a
		# device and an inode: its "inode" is the build-id's bytes. sampo says
		# 0, unknown (every map of that fixture is such a record)
		if [ "$name" = f-buildid-mmap ]; then
			sed -i -E 's/^( +[0-9a-f]+-[0-9a-f]+ [-r][-w][-x][ps] [0-9a-f]{8}) [0-9]+ /\1 0 /' "$tmpdir/want"
		fi
		run_sampo report -i "$f" $mode >"$tmpdir/got"
		compare_report "$tmpdir/want" "$tmpdir/got" "$name $mode"
		if [ "$name" = f-buildid-mmap ] && [ $mode = --mmaps ]; then
			grep -q ' 00001000 0 /tmp/pfx/burn$' "$tmpdir/got" ||
				die "no burn map in f-buildid-mmap: $(cat "$tmpdir/got")"
		fi
	done
done

for name in pdc__perf.data.busy.1-3.8 pdc__perf.data.piped.target-3.8 pdc__perf.data.armv7-3.4 \
	pdc__perf.data.i686-3.4 pdc__perf.data.group_desc-4.14 pp__parallel_static_gcc_perf.data.zstd \
	pdc__perf.data.hybrid_topology; do
	f=$(wild_file "$name")
	for mode in --tasks --mmaps; do
		perf_foreign report -i "$f" $mode >"$tmpdir/want"
		grep -q '^#      pid      tid     ppid  comm$' "$tmpdir/want" || die "$name: perf printed no tree"
		sampo_wild report -i "$f" $mode >"$tmpdir/got"
		compare_report "$tmpdir/want" "$tmpdir/got" "$name $mode"
	done
done
# that recording's tree: 1,152 threads (286 of them roots, ppid -1), in perf's order
sampo_wild report -i "$(wild_file pdc__perf.data.busy.1-3.8)" --tasks >"$tmpdir/busy"
[ "$(grep -c '^ ' "$tmpdir/busy")" = 1152 ] && [ "$(grep -c -- ' -1 |' "$tmpdir/busy")" = 286 ] ||
	die "not 1152 threads and 286 roots in the 3.8 recording"

# A generated file: processes, threads, a COMM that renames, an EXIT (the thread
# stays), a thread only samples name (no task, as in perf: the tree is made of
# COMM, FORK and EXIT records, and of MMAPs with --mmaps), and tids whose order in
# perf's table (by tid % 256) is not their numeric order.
cat >"$tmpdir/gen.py" <<'PYEOF'
import os, struct, sys
sys.path.insert(0, os.environ["SAMPO_SRCDIR"] + "/tests/cli")
from perfdata_gen import cstr, rec, write_file

IP, TID, TIME, PERIOD = 1, 2, 4, 0x100
U = 2  # PERF_RECORD_MISC_USER
COMM, EXIT, FORK, MMAP, SAMPLE, MMAP2 = 3, 4, 7, 1, 9, 10
t = 0

def sid(pid, tid):
    global t
    t += 1
    return struct.pack('<IIQ', pid, tid, t)

def comm(pid, tid, name):
    return rec(COMM, 0, struct.pack('<II', pid, tid) + cstr(name) + sid(pid, tid))

def fork(pid, tid, ppid, ptid, type=FORK):
    return rec(type, 0, struct.pack('<IIIIQ', pid, ppid, tid, ptid, t) + sid(pid, tid))

def mmap2(pid, start, length, pgoff, ino, prot, flags, name):
    return rec(MMAP2, U, struct.pack('<IIQQQIIQQII', pid, pid, start, length, pgoff, 8, 1, ino, 0,
                                     prot, flags) + cstr(name) + sid(pid, pid))

def sample(pid, tid, ip):
    global t
    t += 1
    return rec(SAMPLE, U, struct.pack('<QIIQQ', ip, pid, tid, t, 1))

loop = sys.argv[2] == 'loop'
R = [comm(1, 1, 'init'), fork(300, 300, 1, 1), comm(300, 300, 'shell'),
     mmap2(300, 0x400000, 0x2000, 0x1000, 77, 5, 2, '/bin/shell'),
     mmap2(300, 0x7f0000000000, 0x1000, 0, 78, 3, 1, '/dev/shm/ring'),
     fork(300, 301, 300, 300), comm(300, 301, 'worker'),
     fork(100, 100, 300, 300), comm(100, 100, 'old'), comm(100, 100, 'renamed'),
     fork(556, 556, 1, 1), comm(556, 556, 'daemon'),
     fork(44, 44, 1, 1),
     sample(100, 100, 0x400010), sample(900, 900, 0x400010),
     mmap2(901, 0x500000, 0x1000, 0, 79, 5, 2, '/bin/mapped-only'),
     fork(100, 100, 300, 300, EXIT)]
if loop:
    # tid 5's parent is 6; then a FORK makes a new tid 6 whose parent is 5
    R += [comm(6, 6, 'six'), fork(5, 5, 6, 6), comm(5, 5, 'five'), fork(6, 6, 5, 5)]
attr = struct.pack('<IIQQQQQIIQQQQIiQIHHIIQ', 1, 128, 0, 1000, IP | TID | TIME | PERIOD, 0,
                   (1 << 18) | (1 << 8) | (1 << 9), 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
write_file(sys.argv[1], attr, R, {}, 'cpu-clock')
PYEOF
python3 "$tmpdir/gen.py" "$tmpdir/tree.data" tree || die "cannot generate the file"
for mode in --tasks --mmaps; do
	"$PERF" report -f -i "$tmpdir/tree.data" $mode >"$tmpdir/want" 2>/dev/null
	run_sampo report -i "$tmpdir/tree.data" $mode >"$tmpdir/got"
	compare_report "$tmpdir/want" "$tmpdir/got" "generated $mode"
done
[ "$fails" -eq 0 ] || die "$fails outputs differ from perf's"

# the same tree from first principles. perf's table holds tids by tid % 256, then
# by tid: 0, 1, 44, 300 and 556 (all 44), 301 (45), 100 (100); walking it, each
# thread is put under its parent, after the children already there: 301 before
# 100 under shell. 100 forked from 300 without exec: its maps are shell's.
cat >"$tmpdir/want" <<'EOF2'
#      pid      tid     ppid  comm
         0        0       -1 |swapper
         1        1       -1 |init
        44       44        1 | init
       300      300        1 | shell
       300      301      300 |  worker
       100      100      300 |  renamed
       556      556        1 | daemon
EOF2
run_sampo report -i "$tmpdir/tree.data" --tasks >"$tmpdir/got"
compare_files "$tmpdir/want" "$tmpdir/got"
# --mmaps: the maps of each process under each of its threads; 901 maps only
run_sampo report -i "$tmpdir/tree.data" --mmaps >"$tmpdir/got"
grep -q '^                                 400000-402000 r-xp 00001000 77 /bin/shell$' "$tmpdir/got" ||
	die "no private text map of shell: $(cat "$tmpdir/got")"
grep -q '^                                 7f0000000000-7f0000001000 rw-s 00000000 78 /dev/shm/ring$' \
	"$tmpdir/got" || die "no shared map of shell: $(cat "$tmpdir/got")"
[ "$(grep -c ' /bin/shell$' "$tmpdir/got")" = 3 ] || die "shell's map not under its 3 threads"
grep -q '^       901      901       -1 |:901$' "$tmpdir/got" || die "no mapped-only 901 with --mmaps"
grep -q ' 900 ' "$tmpdir/got" && die "a thread only a sample names is in the tree"

# a loop of parents: perf prints neither thread; sampo prints the loop from the
# thread where its walk closed it: the walk from 5 (first in table order) puts 5
# under 6, finds that 6's parent is 5, and makes 6 a root with its own ppid
# (the new 6 took its parent's comm, as a FORK gives)
python3 "$tmpdir/gen.py" "$tmpdir/loop.data" loop || die "cannot generate the file"
run_sampo report -i "$tmpdir/loop.data" --tasks >"$tmpdir/got"
grep -A1 '^         6        6        5 |five$' "$tmpdir/got" >"$tmpdir/loop" ||
	die "tid 6 is not a root: $(cat "$tmpdir/got")"
grep -q '^         5        5        6 | five$' "$tmpdir/loop" || die "tid 5 is not under 6: $(cat "$tmpdir/got")"

# one file, one tree: no --format, no --provenance, no second -i
expect_status 129 report -i "$tmpdir/tree.data" --tasks --format json
grep -q -- '^sampo report: --tasks and --mmaps read one file' "$tmpdir/stderr" ||
	die "no usage error: $(cat "$tmpdir/stderr")"
expect_status 129 report -i "$tmpdir/tree.data" -i "$tmpdir/loop.data" --mmaps
grep -q -- '^sampo report: --tasks and --mmaps read one file' "$tmpdir/stderr" ||
	die "no usage error: $(cat "$tmpdir/stderr")"
# a file cut short: one line that names it, exit 1, no tree
head -c 300 "$tmpdir/tree.data" >"$tmpdir/short.data"
expect_status 1 report -i "$tmpdir/short.data" --tasks
[ "$(wc -l <"$tmpdir/stderr")" = 1 ] && grep -q 'short.data: .*cut short' "$tmpdir/stderr" ||
	die "not one line: $(cat "$tmpdir/stderr")"
[ -s "$tmpdir/stdout" ] && die "a tree of a file cut short: $(cat "$tmpdir/stdout")"
pass

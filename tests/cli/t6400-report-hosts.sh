#!/bin/bash
# t6400-report-hosts: report -i a -i b reads files of two machines (other kernels, KASLR slides, one library path with two build-ids), each symbolized with its own kernel and build-ids, and prints the sum of the per-file reports under a host label
#
# The files come from mkhosts.py (two synthetic machines "alpha" and "beta";
# kallsyms snapshots and ELFs in a build-id cache under $HOME/.debug, where
# both sampo and perf find them). Checked: every sample on the symbol the
# generator put it on (first principles), and the merged report against the
# sum of perf report's per-file reports (periods summed, percentages
# recomputed).
. "$(dirname "$0")/lib.sh"
. "$SAMPO_SRCDIR/tests/cli/hosts-lib.sh"
need_cmd python3 cc nm readelf

cd "$tmpdir"
export HOME=$tmpdir/home
mkdir -p "$HOME/.debug"
build_host_libs

pick_slides
python3 "$SAMPO_SRCDIR/tests/cli/mkhosts.py" alpha a.data "$slide_a" foo1.so bar.so \
	"$HOME/.debug" >want-a
python3 "$SAMPO_SRCDIR/tests/cli/mkhosts.py" beta b.data "$slide_b" foo2.so bar.so \
	"$HOME/.debug" >want-b
python3 "$SAMPO_SRCDIR/tests/cli/mkhosts.py" beta-nohost c.data "$slide_b" foo2.so bar.so \
	"$HOME/.debug" >/dev/null

# rows as "pct samples key..." with single spaces, sorted
rows() { grep -v -e '^#' -e '^$' | sed 's/^ *//; s/  */ /g' | LC_ALL=C sort; }

# what the generator put where, labelled as the merged report labels the
# shared objects that stand for two build-ids
label() {
	awk -v host="$1" '{
		if ($2 == "libfoo.so") $2 = $2 (host == "alpha" ? "@111111111111" : "@222222222222")
		if ($2 == "[kernel.kallsyms]") $2 = $2 (host == "alpha" ? "@aaaaaaaaaaaa" : "@bbbbbbbbbbbb")
		print host, $0 }'
}
{ label alpha <want-a; label beta <want-b; } >want-all
# fields: host comm dso level sym samples period
total=$(awk '{ t += $7 } END { print t }' want-all)
awk -v t="$total" '{ printf "%.2f%% %d %s %s %s %s %s\n", $7 * 100 / t, $6, $1, $2, $3, $4, $5 }' \
	want-all | LC_ALL=C sort >want-hosts

run_sampo report -i a.data -i b.data -n --stdio >hosts.out 2>hosts.err
[ ! -s hosts.err ] || die "warnings: $(cat hosts.err)"
rows <hosts.out >got-hosts
compare_files want-hosts got-hosts
grep -q "^# Event count (approx.): $total\$" hosts.out || die "wrong event count: $(cat hosts.out)"
grep -q "^# Samples: 37  of event 'cpu-clock'\$" hosts.out || die "wrong sample count: $(cat hosts.out)"

# one worker gives the same report as two
run_sampo report -i a.data -i b.data -n --jobs 1 >hosts1.out 2>/dev/null
compare_files hosts.out hosts1.out

# without the host key: one binary on two hosts is one row, two versions of
# a path stay two, and the kernels of the two machines stay apart
awk -v t="$total" '{ k = $2 " " $3 " " $4 " " $5; n[k] += $6; p[k] += $7 }
	END { for (k in n) printf "%.2f%% %d %s\n", p[k] * 100 / t, n[k], k }' want-all |
	LC_ALL=C sort >want-nohost
run_sampo report -i b.data -i a.data -n -s comm,dso,sym >nohost.out 2>/dev/null
rows <nohost.out >got-nohost
compare_files want-nohost got-nohost

# -s sym: a symbol is one of its object (as perf's sym key): foo_one of the
# two versions of libfoo.so stays two rows, bar_main of the two hosts' one
# libbar.so is one
awk -v t="$total" '{ k = $3 " " $4 " " $5; p[k] += $7; s[k] = $4 " " $5 }
	END { for (k in p) printf "%.2f%% %s\n", p[k] * 100 / t, s[k] }' want-all |
	LC_ALL=C sort >want-sym
run_sampo report -i a.data -i b.data -s sym >sym.out 2>/dev/null
rows <sym.out >got-sym
compare_files want-sym got-sym

# the sum of perf's own per-file reports (periods from its Period column)
if [ -n "$PERF" ]; then
	for h in a b; do
		"$PERF" report -i $h.data --stdio --no-children -F period,sample,comm,dso,sym \
			2>/dev/null | rows | awk -v host=$h '{
			if ($4 == "libfoo.so") $4 = $4 (host == "a" ? "@111111111111" : "@222222222222")
			if ($4 == "[kernel.kallsyms]") $4 = $4 (host == "a" ? "@aaaaaaaaaaaa" : "@bbbbbbbbbbbb")
			print }'
	done >perf-rows
	[ "$(wc -l <perf-rows)" = 10 ] || die "perf's per-file reports: $(cat perf-rows)"
	awk '{ k = $3 " " $4 " " $5 " " $6; n[k] += $2; p[k] += $1; t += $1 }
		END { for (k in n) printf "%.2f%% %d %s\n", p[k] * 100 / t, n[k], k }' perf-rows |
		LC_ALL=C sort >perf-sum
	compare_files perf-sum got-nohost
else
	say "perf not installed: only the first-principles checks ran"
fi

# a file without HOSTNAME is labelled by its path
run_sampo report -i a.data -i c.data -s host >host-only.out 2>/dev/null
rows <host-only.out | awk '{ print $2 }' | LC_ALL=C sort >got-labels
printf '%s\n' alpha c.data >want-labels
compare_files want-labels got-labels

# --sort host on one file is a report of one host
run_sampo report -i a.data -s host,sym >one.out 2>/dev/null
grep -q '^# Merged: 1 files$' one.out || die "one file: $(cat one.out)"
[ "$(rows <one.out | awk '{ print $2 }' | sort -u)" = alpha ] || die "one host: $(cat one.out)"

# a warning of the library names its file, once for all the files that give it
# (libbar.so of another build under --symfs, the recorded one out of the cache)
rm -r "$HOME/.debug/usr/lib/libbar.so" "$HOME/.debug/.build-id/33"
mkdir -p symfs/usr/lib
host_so 4444444444444444444444444444444444444444 symfs/usr/lib/libbar.so bar.c
run_sampo report -i a.data -i b.data --symfs symfs >/dev/null 2>warn.err
grep -q "^sampo report: warning: [ab].data: '/usr/lib/libbar.so' was recorded with build-id 3333333333333333333333333333333333333333.*(and 1 other input)\$" warn.err ||
	die "warning about libbar: $(cat warn.err)"
[ "$(wc -l <warn.err)" = 1 ] || die "warnings: $(cat warn.err)"

# a bad input names itself, exit 1
rc=0
"$SAMPO" report -i a.data -i missing.data >/dev/null 2>err || rc=$?
[ "$rc" = 1 ] || die "missing input: exit $rc"
grep -q 'missing.data' err || die "missing input not named: $(cat err)"
rc=0
"$SAMPO" report -i a.data -i b.data -s pid >/dev/null 2>err || rc=$?
[ "$rc" != 0 ] && grep -q "sort key 'pid'" err || die "-s pid with several inputs: $(cat err)"
pass

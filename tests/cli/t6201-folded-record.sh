#!/bin/bash
# t6201-folded-record: on a profile recorded here with call chains (burn, by sampo record and by perf record), sampo script --folded equals perf's stackcollapse script, with the running kernel's frames marked _[k], and holds the demo's call chain
. "$(dirname "$0")/lib.sh"

need_perf_record
burn=$SAMPO_BUILDDIR/demo/burn
[ -x "$burn" ] || skip "no demo/burn in the build"
stackcollapse=
for s in /usr/lib/perf-core/scripts/python/stackcollapse.py \
	/usr/libexec/perf-core/scripts/python/stackcollapse.py; do
	[ -f "$s" ] && stackcollapse=$s && break
done
[ -n "$stackcollapse" ] || die "perf is installed without its stackcollapse.py"
export HOME=$tmpdir/home
unset PERF_BUILDID_DIR
mkdir -p "$HOME"
cd "$tmpdir"

# check NAME: every option set, sampo against perf; 1 if perf cannot read the file
check() {
	local name=$1 o i=0
	for o in "" "--kernel" "--kernel --include-pid --include-tid" "--no-comm"; do
		# shellcheck disable=SC2086
		env -u MALLOC_PERTURB_ "$PERF" script -i "$name.data" -s "$stackcollapse" -- $o \
			>"$name.$i.perf" 2>/dev/null || return 1
		# shellcheck disable=SC2086
		run_sampo script -i "$name.data" --folded $o >"$name.$i.sampo"
		compare_files "$name.$i.perf" "$name.$i.sampo"
		i=$((i + 1))
	done
	# the demo's chain, root first (main calls the middle and outer functions)
	grep -Eq '^burn;(.*;)?main;(.*;)?burn_[a-z_]+ [0-9]+$' "$name.0.sampo" ||
		die "$name: no 'burn;...;main;...' stack in: $(head -3 "$name.0.sampo")"
}

# up to three tries: see t3001 (a recorder asking for MMAP2 build-ids elsewhere
# can make this recording one perf 6.1 refuses)
for rec in perf sampo; do
	ok=
	for try in 1 2 3; do
		if [ $rec = perf ]; then
			env -u MALLOC_PERTURB_ "$PERF" record -q -e cpu-clock -F 2000 -g \
				-o $rec.data -- "$burn" 300 >/dev/null 2>$rec.err || continue
		else
			"$SAMPO" record -q -e cpu-clock -F 2000 -g -o $rec.data -- "$burn" 300 \
				>/dev/null 2>$rec.err || continue
		fi
		check $rec && ok=1 && break
		say "$rec: perf cannot read the file (try $try)"
	done
	[ -n "$ok" ] || die "$rec: no recording perf reads after three tries: $(cat $rec.err)"
	n=$("$PERF" report --stdio -i $rec.data 2>/dev/null | sed -n 's/^# Samples: \([0-9]*\) .*/\1/p' | head -1)
	total=$(awk '{ s += $NF } END { print s }' $rec.0.sampo)
	[ "$n" = "$total" ] || die "$rec: $total samples in the stacks, perf report counts $n"
done
pass

#!/bin/bash
# t4003-buildid-list-sampo-record: on files sampo record writes (synthesized MMAP2s with inodes next to the kernel's build-id MMAP2s, one DSO per identity) sampo buildid-list [-H] agrees with perf buildid-list [-H]
. "$(dirname "$0")/lib.sh"

need_perf
export HOME=$tmpdir/home
mkdir -p "$HOME"

n=0
for mode in "" "-a"; do
	data=$tmpdir/rec$mode.data
	# shellcheck disable=SC2086
	if ! "$SAMPO" record $mode -e cpu-clock -F 2000 -o "$data" -- \
		dd if=/dev/zero of=/dev/null bs=512 count=40000 >/dev/null 2>"$tmpdir/rec.err"; then
		say "sampo record $mode failed here: $(head -1 "$tmpdir/rec.err")"
		continue
	fi
	for hits in "" "-H"; do
		# perf 6.1 aborts on MMAP2s that the kernel flags as build-id ones by
		# mistake while another profiler records with build-ids
		if ! env -u MALLOC_PERTURB_ "$PERF" buildid-list $hits -i "$data" \
			>"$tmpdir/perf$mode$hits" 2>/dev/null; then
			say "perf buildid-list $hits cannot read the file of sampo record $mode"
			continue 2
		fi
		# a vdso missing from the build-id table is named after perf's own
		# temporary copy of this machine's vdso; sampo keeps "[vdso]"
		sed -i 's|/tmp/perf-vdso\.so-[A-Za-z0-9]*$|[vdso]|' "$tmpdir/perf$mode$hits"
		run_sampo buildid-list $hits -i "$data" >"$tmpdir/sampo$mode$hits"
		compare_files "$tmpdir/perf$mode$hits" "$tmpdir/sampo$mode$hits"
	done
	n=$((n + 1))
done
[ "$n" -gt 0 ] || skip "sampo record cannot record here"
pass

#!/bin/bash
# t2001-report-options-vs-perf: sampo report gives perf report's output, run here on the
# fixtures, for sort keys, -n, --percent-limit, filters, --percentage and call graph options
. "$(dirname "$0")/lib.sh"
need_perf

dir=$(fixtures_dir)
# perf and sampo share the build-id cache that `perf archive` made for the fixtures
export HOME=$tmpdir
mkdir -p "$HOME/.debug"
tar xjf "$dir/b-callchain-fp/perf.data.tar.bz2" -C "$HOME/.debug"
unset PERF_BUILDID_DIR

fails=0
check() {
	local f=$1
	shift
	"$PERF" report --stdio -i "$dir/$f/perf.data" "$@" 2>/dev/null | perf_untip >"$tmpdir/want"
	"$SAMPO" report --stdio -i "$dir/$f/perf.data" "$@" >"$tmpdir/out" 2>"$tmpdir/err" ||
		die "sampo report -i $f $* failed: $(cat "$tmpdir/err")"
	compare_report "$tmpdir/want" "$tmpdir/out" "$f $*"
}

for f in a-syswide-cpuclock c-multi-event g-switch-namespaces-task h-switch-ns-cgroup-syswide; do
	for opts in "" "-n" "--sort dso,sym" "--sort sym" "--sort pid,sym" "--sort cpu,comm" \
		"--sort dso" "--sort comm" "--sort sym,comm" "--percent-limit 1" "--comms burn" \
		"--comms burn,sh" "--dsos burn" "--dsos [kernel.kallsyms]" "--pid 1000" "--tid 0" \
		"--comms swapper --dsos [kernel.kallsyms]" "-S pv_native_safe_halt" \
		"-S pv_native_safe_halt,burn_leaf_alpha -n" "--symbols 0xffffffff821f4dab" \
		"-S ffffffff821f4dab,burn_leaf_beta --sort cpu,comm" "--sort sym --comms burn" \
		"--sort comm --comms swapper" "--sort dso,cpu --dsos [kernel.kallsyms]" \
		"--sort sym,dso,comm --comms swapper --dsos [kernel.kallsyms] -S pv_native_safe_halt"; do
		# shellcheck disable=SC2086 # word splitting of the options is wanted
		check "$f" $opts
	done
done
for f in a-syswide-cpuclock h-switch-ns-cgroup-syswide; do
	check "$f" --cpu 1
	check "$f" --cpu 0-1
done
# the header first (its "captured on" line is the file's time, the same for both)
for f in a-syswide-cpuclock b-callchain-fp c-multi-event f-buildid-mmap; do
	check "$f" --header
	check "$f" --header -I --no-children
	# -q: the rows alone, and the one-value filters' lines, which perf keeps
	check "$f" -q
	check "$f" -q --comms burn -n
	check "$f" --quiet --no-children -S burn_leaf_alpha
done
check h-switch-ns-cgroup-syswide -q --sort dso,sym --dsos [kernel.kallsyms] -S pv_native_safe_halt
expect_status 1 report --header -i - <"$dir/d-pipe-mode/perf.data"
grep -q -- "--header: '-' is a pipe, which is read once" "$tmpdir/stderr" ||
	die "report --header of a pipe: $(cat "$tmpdir/stderr")"
for opts in "" "-n" "--no-children" "-g caller" "-g callee" "-G" "--max-stack 3" \
	"--no-children --max-stack 2" "--no-children -g caller" "-g callee --no-children" \
	"--call-graph graph,0.1" "-g caller,0.1" "--percent-limit 2" "--call-graph none" \
	"--sort sym" "--no-children --sort sym" "--no-children --sort dso" "--sort dso,sym" \
	"--comms burn" "--dsos burn" "--dsos libc.so.6" "--dsos [kernel.kallsyms]" \
	"--no-children --dsos burn" "--sort pid,sym" "--sort cpu,comm" "-S burn_leaf_alpha" \
	"-S burn_leaf_alpha,handle_softirqs --sort dso,sym" "--no-children -S burn_leaf_beta" \
	"-S 0x561531602169" "-S 0x561531602149"; do
	# shellcheck disable=SC2086
	check b-callchain-fp $opts
done

# --percentage relative: the header's samples and event count, the rows'
# shares, the limit and the graphs' threshold are of what the filters keep; the
# graphs' shares stay of every sample, as perf prints them
for f in a-syswide-cpuclock c-multi-event h-switch-ns-cgroup-syswide; do
	for opts in "--comms swapper" "--dsos [kernel.kallsyms]" "--dsos [kernel.kallsyms] -n" \
		"-S pv_native_safe_halt,burn_leaf_beta" \
		"--comms swapper,perf --percent-limit 1" "--tid 0 --sort cpu"; do
		# shellcheck disable=SC2086
		check "$f" $opts --percentage relative
	done
done
for opts in "--dsos [kernel.kallsyms]" "--dsos [kernel.kallsyms] -g graph,5" \
	"--dsos [kernel.kallsyms] -g flat" \
	"--dsos [kernel.kallsyms] -g folded --no-children" "--comms burn --dsos burn" \
	"--dsos burn --percentage absolute" "-S burn_leaf_alpha -g folded"; do
	# shellcheck disable=SC2086
	check b-callchain-fp $opts --percentage relative
done
expect_status 129 report -i "$dir/a-syswide-cpuclock/perf.data" --percentage some
grep -q "invalid --percentage 'some' (relative or absolute)" "$tmpdir/stderr" ||
	die "--percentage some: $(cat "$tmpdir/stderr")"

# graphs asked of a file without call chains: perf says so and prints nothing
# (exit 0), sampo says so with exit 1; -g none, -G and --children are fine
for opts in "-g" "-g folded" "--call-graph=caller" "-g fractal,1"; do
	# shellcheck disable=SC2086
	expect_status 1 report --stdio -i "$dir/a-syswide-cpuclock/perf.data" $opts
	grep -q "has no call chains (recorded without -g or --call-graph): report it without -g" \
		"$tmpdir/stderr" || die "$opts: $(cat "$tmpdir/stderr")"
	# shellcheck disable=SC2086
	"$PERF" report --stdio -i "$dir/a-syswide-cpuclock/perf.data" $opts 2>&1 >/dev/null |
		grep -q "no callchain" || die "perf takes $opts on a file without chains"
done
for opts in "-g none" "-G" "--children"; do
	# shellcheck disable=SC2086
	check a-syswide-cpuclock $opts
done

# a file without CPUs in its samples: perf refuses --cpu, and so does sampo
expect_status 1 report -i "$dir/g-switch-namespaces-task/perf.data" --cpu 1
grep -q "no CPU" "$tmpdir/stderr" || die "no clear message for --cpu: $(cat "$tmpdir/stderr")"

[ "$fails" -eq 0 ] || die "$fails reports differ from perf's"
pass

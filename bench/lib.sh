# shellcheck shell=bash
# lib.sh - helpers shared by the bench/run-*.sh scripts. Source it after
# setting prog (the script's name, for messages), datadir and gen (the
# gen-perfdata binary).

# gen NAME GEN-OPTIONS...: the path of a generated file, made if missing or stale
gen() {
	local name=$1 f stamp
	shift
	f=$datadir/$name.data
	stamp="$* $(cksum <"$gen")"
	if [ ! -f "$f" ] || [ "$(cat "$f.stamp" 2>/dev/null)" != "$stamp" ]; then
		echo "$prog: generating $f ($*)" >&2
		"$gen" -q -o "$f.tmp" "$@"
		mv "$f.tmp" "$f"
		echo "$stamp" >"$f.stamp"
	fi
	echo "$f"
}

count() { # 1000000 -> 1M
	awk -v n="$1" 'BEGIN { if (n % 1000000 == 0) printf "%dM", n / 1e6;
		else if (n % 1000 == 0) printf "%dk", n / 1e3; else print n }'
}

median() { # numbers on stdin -> their median
	sort -g | awk '{ v[NR] = $1 } END { if (NR == 0) print "-";
		else if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# measure OUTFILE CMD...: run CMD with stdout to /dev/null, append "wall_s rss_kib
# cpu_s" (cpu: user + system) to OUTFILE; return CMD's status. stderr goes to OUTFILE.err.
measure() {
	local out=$1 t0 t1 st=0
	shift
	t0=$EPOCHREALTIME
	/usr/bin/time -f "%M %U %S" -o "$out.rss" "$@" >/dev/null 2>"$out.err" || st=$?
	t1=$EPOCHREALTIME
	tail -n 1 "$out.rss" | awk -v a="$t0" -v b="$t1" '{ printf "%.3f %d %.2f\n", b - a, $1, $2 + $3 }' \
		>>"$out"
	return $st
}

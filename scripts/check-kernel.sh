#!/bin/bash
# check-kernel.sh - score sampo's kernel and module symbols on a real KASLR kernel
#
#	scripts/check-kernel.sh [OUTDIR] [--reuse] [--no-recorder] [--boots N] [--secs S]
#
# Runs ../shared/tools/qemu-kernel/run.sh (a Debian 6.1 cloud kernel with real
# modules, booted under qemu with KASLR; see its README.md), which records
# profiles in the guest with perf (and, when `sampo record` works, with sampo
# too) and writes the per-sample ground truth. Then, on this machine, for
# every profile of every boot:
#
#	sampo script -F ip,sym,dso [-G] -i FILE --vmlinux VMLINUX --symfs KERNEL_PACKAGE_ROOT
#
# is scored with the harness's score.py against the truth (per sample;
# call-chain entries too for the -g profile), and the same is done with the
# host's perf as a baseline. The table goes to stdout and to OUTDIR/SCORES.md.
#
# OUTDIR defaults to $QK_OUT, else ${XDG_CACHE_HOME:-~/.cache}/sampo-check-kernel
# (never the source tree). --reuse scores an OUTDIR that already holds a
# passed run (OUTDIR/CHECK says "CHECK PASSED") without booting again.
#
# Environment: BUILDDIR (default build; the sampo binary is
# BUILDDIR/tools/sampo/sampo, built if missing), QK (the harness directory,
# default ../shared/tools/qemu-kernel), and run.sh's own QK_* variables.
#
# Exit status: 0 when no sample of any profile got a wrong symbol from sampo
# (an honest [unknown] is not wrong), 1 otherwise or when the run failed.
# Not part of `make check`: the first run downloads ~300 MB and it takes minutes.
set -euo pipefail

SRCDIR=$(cd "$(dirname "$0")/.." && pwd)
BUILDDIR=${BUILDDIR:-build}
case $BUILDDIR in /*) ;; *) BUILDDIR=$SRCDIR/$BUILDDIR ;; esac
QK=${QK:-$SRCDIR/../shared/tools/qemu-kernel}
OUT=${QK_OUT:-${XDG_CACHE_HOME:-$HOME/.cache}/sampo-check-kernel}
REUSE=
RECORDER=auto
RUN_ARGS=()

while [ $# -gt 0 ]; do
	case $1 in
	--reuse) REUSE=1; shift ;;
	--no-recorder) RECORDER=; shift ;;
	--boots | --secs | --freq) RUN_ARGS+=("$1" "${2:?$1 needs a value}"); shift 2 ;;
	-h | --help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
	-*) echo "check-kernel: unknown option '$1'" >&2; exit 129 ;;
	*) OUT=$1; shift ;;
	esac
done

say() { echo "check-kernel: $*" >&2; }
die() { say "$*"; exit 1; }

[ -x "$QK/run.sh" ] || die "no harness at '$QK' (set QK)"
SAMPO=$BUILDDIR/tools/sampo/sampo
if [ ! -x "$SAMPO" ]; then
	"$SRCDIR/scripts/setup-build.sh" "$BUILDDIR" >/dev/null
	ninja -C "$BUILDDIR" >/dev/null
fi
[ -x "$SAMPO" ] || die "no sampo binary at '$SAMPO'"

# ---- 1. the recordings (in qemu) ---------------------------------------------
if [ -n "$REUSE" ] && grep -q '^CHECK PASSED' "$OUT/CHECK" 2>/dev/null; then
	say "reusing $OUT"
else
	[ -z "$REUSE" ] || say "no passed run in '$OUT': running the harness"
	if [ "$RECORDER" = auto ]; then
		RECORDER=
		# `sampo record` records in the guest once it exists (not a placeholder)
		if "$SAMPO" record -h >/dev/null 2>&1 &&
			probe=$(mktemp -d) &&
			"$SAMPO" record -e cpu-clock -o "$probe/p.data" -- true >/dev/null 2>&1 &&
			[ -s "$probe/p.data" ]; then
			RECORDER=1
		fi
		rm -rf "${probe:-}"
	fi
	if [ -n "$RECORDER" ]; then
		RUN_ARGS+=(--recorder "$SAMPO")
		say "recording with perf and $SAMPO"
	else
		say "recording with perf only (sampo record is not available)"
	fi
	mkdir -p "$OUT"
	"$QK/run.sh" "$OUT" "${RUN_ARGS[@]}" || die "the harness failed (see above and $OUT)"
fi

VMLINUX=$(awk '$1 == "vmlinux" { print $2 }' "$OUT/MANIFEST")
MODDIR=$(awk '$1 == "modules_dir" { print $2 }' "$OUT/MANIFEST")
KVER=$(awk '$1 == "kver" { print $2 }' "$OUT/MANIFEST")
[ -f "$VMLINUX" ] || die "no vmlinux at '$VMLINUX' (MANIFEST)"
# the extracted kernel package: its lib/modules/KVER/... are the module maps' paths
SYMFS=${MODDIR%/lib/modules/$KVER}
[ -d "$SYMFS" ] || die "no extracted kernel package at '$SYMFS'"

# ---- 2. symbolize on this machine and score ------------------------------------
SCORES=$OUT/SCORES.md
ANS=$OUT/answers
rm -rf "$ANS"
mkdir -p "$ANS"
HOME_SCRATCH=$(mktemp -d)
trap 'rm -rf "$HOME_SCRATCH"' EXIT

# score LABEL TRUTH ANSWERS [ALIASES]: one table row; the JSON goes to ANSWERS.json
score() {
	local label=$1 truth=$2 ans=$3 aliases=${4:-}
	"$QK/score.py" "$truth" "$ans" --json --label "$label" ${aliases:+--aliases "$aliases"} \
		>"$ans.json"
	python3 - "$ans.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
def cell(k):
    c = r.get(k) or {}
    if not c.get("samples"):
        return "-"
    return "%.2f%% (%d/%d)" % (c["pct"], c["correct"], c["samples"])
print("| %s | %s | %s | %s | %s | %d |" % (r["label"], cell("kernel"), cell("module"),
      cell("module-init"), cell("kernel-other"), r["wrong_named"]))
PY
}

# summarize DIR: the scores of DIR/bootN-PROFILE.TOOL.txt.json summed over the boots
summarize() {
	python3 - "$1" <<'PY'
import collections, glob, json, os, re, sys
agg = collections.OrderedDict()
for f in sorted(glob.glob(os.path.join(sys.argv[1], "boot*.json"))):
    m = re.match(r"boot\d+-(.*)\.(sampo|perf)\.txt\.json$", os.path.basename(f))
    if not m:
        continue
    r = json.load(open(f))
    a = agg.setdefault(m.groups(), {"wrong": 0})
    a["wrong"] += r["wrong_named"]
    for c in ("kernel", "module", "module-init", "kernel-other"):
        x = r.get(c) or {}
        s = a.setdefault(c, [0, 0])
        s[0] += x.get("correct", 0)
        s[1] += x.get("samples", 0)
def cell(s):
    return "-" if not s[1] else "%.2f%% (%d/%d)" % (100.0 * s[0] / s[1], s[0], s[1])
print("| profile | tool | kernel | module | module-init | kernel-other | named wrongly |")
print("|---|---|---|---|---|---|---|")
for (p, t), a in sorted(agg.items()):
    print("| %s | %s | %s | %s | %s | %s | %d |" % (p, t, cell(a["kernel"]), cell(a["module"]),
          cell(a["module-init"]), cell(a["kernel-other"]), a["wrong"]))
PY
}

# symbolize TOOL FILE ANSWERS [ARGS...]: answers of sampo or of the host's perf
symbolize() {
	local tool=$1 file=$2 ans=$3
	shift 3
	if [ "$tool" = sampo ]; then
		HOME=$HOME_SCRATCH "$SAMPO" script -F ip,sym,dso "$@" -i "$file" \
			--vmlinux "$VMLINUX" --symfs "$SYMFS" >"$ans" 2>"$ans.err" || return 1
	else
		HOME=$HOME_SCRATCH perf script -F ip,sym,dso "$@" -i "$file" \
			--vmlinux "$VMLINUX" --symfs "$SYMFS" >"$ans" 2>"$ans.err" || return 1
	fi
}

wrong=0
failed=0
{
	echo "| profile | kernel | module | module-init | kernel-other | named wrongly |"
	echo "|---|---|---|---|---|---|"
} >"$SCORES.rows"
tools=(sampo)
command -v perf >/dev/null && tools+=(perf)
for boot in "$OUT"/boot*/; do
	b=$(basename "$boot")
	for data in "$boot"perf*.data; do
		f=$(basename "$data" .data)
		truth=$boot/truth-$f.txt
		[ -f "$truth" ] || continue
		for tool in "${tools[@]}"; do
			ans=$ANS/$b-$f.$tool.txt
			# per sample: the chain lines would not line up with the truth
			if ! symbolize "$tool" "$data" "$ans" -G; then
				say "$tool script failed on $b/$f.data: $(head -1 "$ans.err")"
				failed=$((failed + 1))
				continue
			fi
			row=$(score "$b $f ($tool)" "$truth" "$ans")
			echo "$row" >>"$SCORES.rows"
			if [ "$tool" = sampo ]; then
				n=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["wrong_named"])' "$ans.json")
				wrong=$((wrong + n))
			fi
		done
		# call-chain entries of the -g profile
		chains=$boot/truth-$f-chains.txt.gz
		[ -f "$chains" ] || continue
		for tool in "${tools[@]}"; do
			ans=$ANS/$b-$f.chains.$tool.txt
			symbolize "$tool" "$data" "$ans" || continue
			row=$(score "$b $f chains ($tool)" "$chains" "$ans" "$truth.aliases")
			echo "$row" >>"$SCORES.rows"
		done
	done
done

{
	echo "# sampo check-kernel scores"
	echo
	echo "Run: \`$OUT\`, kernel $KVER; $(grep '^KASLR' "$OUT/CHECK" || true)"
	echo "sampo: \`$SAMPO\` ($("$SAMPO" --version 2>/dev/null || echo '?'))"
	echo
	echo "## Summed over the boots"
	echo
	summarize "$ANS"
	echo
	echo "## Per boot"
	echo
	cat "$SCORES.rows"
} >"$SCORES"
rm -f "$SCORES.rows"
cat "$SCORES"

[ "$failed" -eq 0 ] || die "$failed symbolizer runs failed"
[ "$wrong" -eq 0 ] || die "sampo named $wrong samples wrongly"
say "no sample named wrongly"

#!/usr/bin/env python3
"""pprof-check.py [--totals] PROFILE REPORT - does Go's pprof read in PROFILE what perf
report printed in REPORT (a `perf report --stdio --no-children` table)?

For every event of REPORT:
  - `go tool pprof -sample_index=<event>_event -top` reports the event's
    "Event count (approx.)" as its total, and <event>_sample the sample count
    (when perf prints it without a K/M unit);
  - every symbol that has one row in perf's table (its comm, DSO and symbol
    are a function of its own) has the same flat share in pprof, to perf's
    two decimals; addresses without a symbol are left out (pprof shows them
    by address, perf by file offset).
With --totals, only the totals and sample counts.
Go is run with -symbolize=none: what it shows is what the profile holds.
Prints what differs; exit status 1 when something does.
"""
import re
import subprocess
import sys


def events(report):
    """[(name, nr_samples or None, event count, {sym: [pct, ...]})] of a perf report"""
    out, cur = [], None
    for line in open(report, encoding="utf-8", errors="replace"):
        m = re.match(r"# Samples: (\d+)([KMG]?)\s+of events? '(.*)'", line)
        if m:
            cur = [m.group(3), int(m.group(1)) if not m.group(2) else None, None, {}]
            out.append(cur)
            continue
        m = re.match(r"# Event count \(approx\.\): (\d+)", line)
        if m and cur:
            cur[2] = int(m.group(1))
            continue
        m = re.match(r"\s+(\d+\.\d+)%\s+.*\s\[.\]\s(.*?)\s*$", line)
        if m and cur:
            cur[3].setdefault(m.group(2), []).append(float(m.group(1)))
    return out


def top(profile, index):
    """(total, {function: flat}) of go tool pprof -top for sample type @index"""
    cmd = ["go", "tool", "pprof", "-symbolize=none", "-sample_index=" + index, "-top",
           "-nodecount=1000000", "-nodefraction=0", "-edgefraction=0", profile]
    res = subprocess.run(cmd, capture_output=True, text=True)
    if res.returncode:
        sys.exit("go tool pprof failed: " + res.stderr.strip())
    total, flat = None, {}
    for line in res.stdout.splitlines():
        m = re.search(r" of (\d+) total", line)
        if m:
            total = int(m.group(1))
        m = re.match(r"\s*(\d+)\s+\S+%\s+\S+%\s+\d+\s+\S+%\s+(.*?)\s*$", line)
        if m:
            flat[m.group(2)] = flat.get(m.group(2), 0) + int(m.group(1))
    return total, flat


def main():
    args = sys.argv[1:]
    totals_only = args[0] == "--totals"
    if totals_only:
        args = args[1:]
    profile, report = args[0], args[1]
    bad = 0
    evs = events(report)
    if not evs:
        sys.exit("no event in " + report)
    for name, nr, count, syms in evs:
        total, flat = top(profile, name + "_event")
        if total != count:
            print(f"{name}: pprof total {total}, perf's event count {count}")
            bad += 1
        if nr is not None:
            stotal, _ = top(profile, name + "_sample")
            if stotal != nr:
                print(f"{name}: pprof samples {stotal}, perf's {nr}")
                bad += 1
        checked = 0
        for sym, pcts in ([] if totals_only else syms.items()):
            if len(pcts) != 1 or re.fullmatch(r"(0x)?[0-9a-f]+", sym) or sym == "[unknown]":
                continue
            got = 100.0 * flat.get(sym, 0) / total if total else 0
            if f"{got:.2f}" != f"{pcts[0]:.2f}":
                print(f"{name}: {sym}: pprof {got:.2f}%, perf {pcts[0]:.2f}%")
                bad += 1
            checked += 1
        print(f"# {name}: total {total}, {checked} symbols compared")
    sys.exit(1 if bad else 0)


main()

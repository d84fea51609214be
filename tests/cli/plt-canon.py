#!/usr/bin/env python3
"""plt-canon.py - do two outputs differ only by how a PLT stub is named?

sampo names a sample in a PLT stub NAME@plt, as perf 6.3 and later do.
perf 6.1 names it NAME@plt too, or gives it to _init (a zero-size symbol it
stretches over the PLT), or leaves it unresolved (IBT's .plt.sec, which it
does not know): which one depends on the binary
(docs/report-differences.md). A test that
compares with a live perf 6.1 recording, where anything on the machine may
run through a PLT stub, asks this script when the plain comparison failed.

usage: plt-canon.py report WANT GOT   (perf report --stdio texts)
       plt-canon.py script WANT GOT   (perf script texts)

report: rows whose symbol is _init, NAME@plt or an unresolved address are
merged per other columns
(comm, dso, ...; their percentages summed, allowing 0.01 of rounding per
merged row) and their call graphs set aside; every other row must be the
same, with the same call graph (its branches of equal weight in any order,
graph-canon.py) unless the graph names a stub. Header lines must be equal
but for the width of the last column.
script: line by line, '_init+0x..', 'NAME@plt+0x..' and '[unknown]' are the
same word.
Exit 0 when the two are equal that way; else 1, with the first difference.
"""
import importlib.util
import os
import re
import sys

spec = importlib.util.spec_from_file_location(
    "graph_canon", os.path.join(os.path.dirname(os.path.abspath(__file__)), "graph-canon.py"))
graph_canon = importlib.util.module_from_spec(spec)
spec.loader.exec_module(graph_canon)

ROW = graph_canon.ROW
NUM = re.compile(r'-?[0-9]+\.[0-9]+%|[0-9]+')
PLT_SYM = re.compile(r'(?<![\w.])(?:_init|[^\s()]+@plt)(?:\+0x[0-9a-f]+)?(?![\w@])|\[unknown\]')


def is_plt(sym):
    """a stub's name in sampo's or in perf 6.1's report (an unresolved address too)"""
    return sym == '_init' or sym.endswith('@plt') or re.fullmatch(r'0x[0-9a-f]+', sym)


def split(text):
    """-> (header lines, [(row line, [graph lines])])"""
    head, entries = [], []
    for line in text.split('\n'):
        if line.startswith('#'):
            # the last column (Symbol) is as wide as its longest name: a
            # stub's name may set it
            head.append(re.sub(r'\.+$', '..', line.rstrip()))
        elif ROW.match(line):
            entries.append((line, []))
        elif line.strip() and entries:
            entries[-1][1].append(line)
    return head, entries


def row_parts(line):
    """numbers at the start, the other columns, the symbol (after '] ')"""
    toks = line.split()
    nums = []
    while toks and NUM.fullmatch(toks[0]):
        nums.append(toks.pop(0))
    rest = ' '.join(toks)
    m = re.match(r'(.*\] )(.*)$', rest)
    if not m:
        return nums, rest, ''
    return nums, m.group(1), m.group(2)


def canon_report(text):
    head, entries = split(text)
    plain, merged = [], {}
    for row, graph in entries:
        nums, cols, sym = row_parts(row)
        if is_plt(sym):
            acc = merged.setdefault(cols, [0, [0.0] * len(nums)])
            acc[0] += 1
            for i, n in enumerate(nums[:len(acc[1])]):
                acc[1][i] += float(n.rstrip('%'))
            continue
        names_stub = any(PLT_SYM.search(g) for g in graph)
        g = [] if names_stub else graph_canon.serialize(graph_canon.parse_block(graph))
        plain.append((' '.join(nums), cols, sym, '\n'.join(g)))
    return head, sorted(plain), merged


def report(want, got):
    hw, pw, mw = canon_report(want)
    hg, pg, mg = canon_report(got)
    if hw != hg:
        return 'header lines differ'
    if pw != pg:
        for a, b in zip(pw + [None], pg + [None]):
            if a != b:
                return f'rows differ: {a} / {b}'
    if set(mw) != set(mg):
        return f'PLT rows of other columns: {sorted(mw)} / {sorted(mg)}'
    for k in mw:
        tol = 0.01 * max(mw[k][0], mg[k][0]) + 1e-9
        for a, b in zip(mw[k][1], mg[k][1]):
            if abs(a - b) > tol:
                return f'PLT rows of {k}: {mw[k][1]} / {mg[k][1]}'
    return None


def script(want, got):
    a, b = want.split('\n'), got.split('\n')
    if len(a) != len(b):
        return f'{len(a)} lines / {len(b)} lines'
    for x, y in zip(a, b):
        if x != y and PLT_SYM.sub('<plt>', x) != PLT_SYM.sub('<plt>', y):
            return f'{x} / {y}'
    return None


def main():
    if len(sys.argv) != 4 or sys.argv[1] not in ('report', 'script'):
        sys.exit(__doc__)
    with open(sys.argv[2]) as f:
        want = f.read()
    with open(sys.argv[3]) as f:
        got = f.read()
    why = (report if sys.argv[1] == 'report' else script)(want, got)
    if why:
        print(why)
        sys.exit(1)


main()

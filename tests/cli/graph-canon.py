#!/usr/bin/env python3
"""graph-canon.py - a perf report --stdio text with the branches of equal
percentage under one parent sorted, so that two reports that differ only in
the order of such ties compare equal.

perf 6.1 orders sibling call graph branches of equal weight by the heap
address of their DSO objects (match_chain_dso_addresses() compares the
pointers), which depends on its allocator, not on the profile. Every other
line and order is kept: rows, headers, percentages, chain entries, and the
order of branches whose percentages differ.

With --rows, rows whose percentage columns are all equal (each row with its
call graph) are sorted among themselves too. t2002 uses it only for the
whole-system recording, whose rows of equal weight come from whatever else
ran on the machine; sampo and perf can list such rows in another order there
when unresolved addresses span more than 2^63 (docs/report-differences.md).

usage: graph-canon.py [--rows] < report > canonical
"""
import re
import sys

ROW = re.compile(r'^\s*-?[0-9]+\.[0-9]+%')
HEAD = re.compile(r'^([ |]*?)[| ]?--([0-9.]+%)--(.*)$')
ROOT = re.compile(r'^( *)---(.*)$')


def parse_block(lines):
    """A call graph block -> a root node {pct, name, entries, children}."""
    root = {'depth': -1, 'pct': '', 'name': '', 'entries': [], 'children': []}
    stack = [root]
    for line in lines:
        m = ROOT.match(line)
        if m and '%' not in line.split('---', 1)[0]:
            root['name'] = m.group(2)
            continue
        prefix_len = len(line) - len(line.lstrip(' |'))
        rest = line[prefix_len:]
        if rest.startswith('--') or (rest == '' and False):
            m = re.match(r'--([0-9.]+%)--(.*)$', rest)
            if m:
                node = {'depth': prefix_len, 'pct': m.group(1), 'name': m.group(2),
                        'entries': [], 'children': []}
                while stack[-1]['depth'] >= prefix_len:
                    stack.pop()
                stack[-1]['children'].append(node)
                stack.append(node)
                continue
        if rest.strip():
            stack[-1]['entries'].append(rest.strip())
    return root


def serialize(node, depth=0):
    out = ['%s%s %s' % ('  ' * depth, node['pct'], node['name'])]
    out += ['%s  = %s' % ('  ' * depth, e) for e in node['entries']]
    kids = [(-float(c['pct'][:-1]), serialize(c, depth + 1)) for c in node['children']]
    kids.sort(key=lambda k: (k[0], k[1]))
    for _, text in kids:
        out += text
    return out


def row_key(line):
    """The number columns at the start of a row line (percentages, samples)."""
    key = []
    for tok in line.split():
        if not re.fullmatch(r'-?[0-9]+\.[0-9]+%|[0-9]+', tok):
            break
        key.append(tok)
    return tuple(key)


def sort_tied_rows(lines):
    """Each row with the lines up to the next row, header or blank-separated
    section: groups of consecutive rows with equal percentages sorted."""
    out, i, n = [], 0, len(lines)
    while i < n:
        if not ROW.match(lines[i]):
            out.append(lines[i])
            i += 1
            continue
        group = []
        while i < n and ROW.match(lines[i]):
            j = i + 1
            while j < n and not ROW.match(lines[j]) and not lines[j].startswith('#'):
                j += 1
            group.append(lines[i:j])
            i = j
        k = 0
        while k < len(group):
            m = k
            while m < len(group) and row_key(group[m][0]) == row_key(group[k][0]):
                m += 1
            for rows in sorted(group[k:m]):
                out.extend(rows)
            k = m
    return out


def main():
    lines = sys.stdin.read().split('\n')
    out, block = [], []

    def flush():
        if block:
            out.extend(serialize(parse_block(block)))
            block.clear()

    for line in lines:
        if not line.strip() or line.startswith('#') or ROW.match(line):
            flush()
            out.append(line)
        else:
            block.append(line)
    flush()
    if '--rows' in sys.argv[1:]:
        out = sort_tied_rows(out)
    sys.stdout.write('\n'.join(out))


if __name__ == '__main__':
    main()

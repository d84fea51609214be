#!/usr/bin/env python3
"""format-json-check.py report|script TEXT JSON: the JSON of `sampo report
--format json` / `sampo script --format json` (docs/format-json.md) says the
same as the text output of the same command with the same options.

The JSON is parsed (it must be valid, UTF-8, of the schema and version
expected), turned back into text lines by the rules of the text output, and
compared line by line with the text, runs of blanks counting as one (the
text's column widths depend on all the rows): for report every total
("# Samples", "# Event count") and every row, in order; for script every
sample line and every callchain line, in order. Exit 0 when they agree, 1
with the first difference.

report's call graphs (the rows' "callgraph" trees) are drawn again as
perf's --stdio draws them (ui/stdio/hist.c, CHAIN_GRAPH_ABS) and compared
byte for byte, blank lines left out; with --folded (the text was made with
-g folded, --period for -g folded,period) each row's folded lines are
compared as a set, since the JSON gives siblings in the drawing's order,
not in the order of perf's trie that breaks the folded lines' ties. With
--rows-only the graphs are not compared (the text was cut to its rows)."""
import json
import re
import sys


def squash(line):
    return re.sub(r'\s+', ' ', line.strip())


def fail(msg):
    print(msg)
    sys.exit(1)


def load(path):
    with open(path, 'rb') as f:
        return json.loads(f.read().decode('utf-8'))


def units(n):
    """perf's convert_unit() as '# Samples' prints it"""
    unit = ' '
    for u in 'KMG':
        if n > 1000:
            n //= 1000
            unit = u
    return '%d%s' % (n, unit)


def frame_name(fr):
    if fr['symbol'] is not None:
        return fr['symbol']
    ip = int(fr['ip'], 16)
    return '%#x' % ip if ip else '0'  # C's %#x prints 0 as "0"


def graph_lines(doc, row, total):
    """hist-print.c's print_callchain() of one row, from its JSON tree"""
    out = []
    parent = row['period']
    kids = row['callgraph']
    margin = 0
    nodes = kids
    if len(kids) == 1 and kids[0]['period'] == parent:
        c = kids[0]
        started = False
        for i, fr in enumerate(c['frames']):
            if i == 0 and doc['sort'][0] == 'sym':
                continue
            if not started:
                out.append(' ' * (12 + margin) + '|')
                out.append(' ' * (12 + margin) + '---' + frame_name(fr))
                margin += 3
                started = True
            else:
                out.append(' ' * (12 + margin) + frame_name(fr))
        nodes = c['children']

    def draw(nodes, depth, mask):
        new_mask = mask
        for ci, c in enumerate(nodes):
            if ci + 1 == len(nodes) and depth > 0:
                new_mask &= ~(1 << (depth - 1))
            line = ' ' * (12 + margin)
            for i in range(depth):
                line += '|          ' if mask & (1 << i) else '           '
            out.append(line)
            for fi, fr in enumerate(c['frames']):
                line = ' ' * (12 + margin)
                for i in range(depth):
                    line += '|' if new_mask & (1 << i) else ' '
                    if fi == 0 and i == depth - 1:
                        line += '--%.2f%%--' % (c['period'] * 100.0 / total if total else 0.0)
                    else:
                        line += ' ' * 10
                out.append(line + frame_name(fr))
            draw(c['children'], depth + 1, new_mask | (1 << depth if depth < 63 else 0))

    draw(nodes, 1, 1)
    return [l for l in out if l.strip()]


def folded_lines(doc, row, total):
    """hist-print.c's print_folded() of one row, as a sorted list: the
    nodes with hits of their own, at least min_percent of the total"""
    out = []
    min_hit = int(total * (doc['callgraph']['min_percent'] / 100.0))

    def walk(nodes, path):
        for c in nodes:
            p = path + [frame_name(fr) for fr in c['frames']]
            walk(c['children'], p)
            if c['self_period'] and c['self_period'] >= min_hit:
                v = ('%d' % c['self_period'] if folded_period
                     else '%.2f%%' % (c['self_period'] * 100.0 / total if total else 0.0))
                out.append(v + ' ' + ';'.join(p))

    walk(row['callgraph'], [])
    return sorted(out)


def report(text_path, json_path):
    doc = load(json_path)
    if doc.get('schema') != 'sampo-report' or doc.get('version') != 1:
        fail('not a sampo-report version 1 document')
    graphs = doc.get('callgraph') is not None and not rows_only
    if expect_graphs and not graphs:
        fail('the document has no call graphs ("callgraph": null)')
    want = []
    for ev in doc['events']:
        want.append(squash("# Samples: %s of event '%s'" % (units(ev['samples']), ev['name'])))
        want.append('# Event count (approx.): %d' % ev['event_count'])
        for r in ev['rows']:
            cols = ['%.2f%%' % r['overhead']]
            if doc['children']:
                cols.append('%.2f%%' % r['self'])
            if show_n:
                cols.append('%d' % r['samples'])
            for key in doc['sort']:
                if key == 'comm':
                    cols.append(r['comm'])
                elif key in ('pid', 'tid'):
                    cols.append('%d:%s' % (r['tid'], r['thread_comm']))
                elif key == 'dso':
                    cols.append(r['dso'] if r['dso'] is not None else '[unknown]')
                elif key == 'sym':
                    if r['symbol'] is not None:
                        cols.append('[%s] %s' % (r['level'], r['symbol']))
                    else:
                        # perf prints the address with C's "%#.16llx", which
                        # adds no 0x to a zero address
                        ip = int(r['ip'], 16)
                        cols.append('[%s] %s%016x' % (r['level'], '0x' if ip else '', ip))
                elif key == 'cpu':
                    cols.append('%03d' % r['cpu'])
            want.append(squash(' '.join(cols)))
            if graphs and folded:
                want += folded_lines(doc, r, ev['event_count'])
            elif graphs:
                want += graph_lines(doc, r, ev['event_count'])
    got = []
    folded_run = []
    with open(text_path, encoding='utf-8', errors='surrogateescape') as f:
        for line in f:
            line = line.rstrip('\n')
            if folded_run and (not line or not line[0].isdigit()):
                got += sorted(folded_run)
                folded_run = []
            if line.startswith('# Samples:') or line.startswith('# Event count'):
                got.append(squash(line))
            elif not line.strip() or line.startswith('#'):
                continue
            elif graphs and folded and line[0].isdigit():
                folded_run.append(line)
            elif graphs and len(line) - len(line.lstrip(' ')) >= 12:
                got.append(line)  # a graph line: compared as it is
            else:
                got.append(squash(line))
    got += sorted(folded_run)
    compare(got, want)


def script(text_path, json_path):
    doc = load(json_path)
    if doc.get('schema') != 'sampo-script' or doc.get('version') != 1:
        fail('not a sampo-script version 1 document')
    want = []

    def where(fr):
        out = []
        if 'ip' in fr and chain_ip_width:
            out.append('%16x' % int(fr['ip'], 16))
        if show_sym:
            if 'sym' in fr:
                out.append(fr['sym'] + ('+0x%x' % fr['symoff'] if 'symoff' in fr else ''))
            else:
                out.append('[unknown]')
        if show_dso:
            out.append('(%s)' % fr.get('dso', '[unknown]'))
        return out

    for s in doc['samples']:
        head = []
        if 'comm' in s:
            head.append(s['comm'])
        if 'pid' in s and 'tid' in s:
            head.append('%d/%d' % (s['pid'], s['tid']))
        elif 'pid' in s:
            head.append('%d' % s['pid'])
        elif 'tid' in s:
            head.append('%d' % s['tid'])
        if 'cpu' in s:
            head.append('[%03d]' % s['cpu'])
        if 'time' in s:
            head.append('%d.%06d:' % (s['time'] // 10**9, s['time'] % 10**9 // 1000))
        if 'period' in s:
            head.append('%d' % s['period'])
        if 'event' in s:
            head.append(s['event'] + ':')
        if 'callchain' in s:
            if head:
                want.append(squash(' '.join(head)))
            for fr in s['callchain']:
                want.append(squash(' '.join(where(fr))))
        else:
            if 'ip' in s:
                head.append('%16x' % int(s['ip'], 16))
            if show_sym or show_dso:
                head += where({k: v for k, v in s.items() if k != 'ip'})
            want.append(squash(' '.join(head)))
    with open(text_path, encoding='utf-8', errors='surrogateescape') as f:
        got = [squash(line) for line in f if line.strip()]
    compare(got, want)


def compare(got, want):
    for i, (g, w) in enumerate(zip(got, want)):
        if g != w:
            fail('line %d differs:\n text: %r\n json: %r' % (i + 1, g, w))
    if len(got) != len(want):
        fail('the text has %d lines, the JSON makes %d' % (len(got), len(want)))
    if not got:
        fail('nothing to compare')


mode, text_path, json_path = sys.argv[1:4]
flags = sys.argv[4:]
show_n = '-n' in flags
folded = '--folded' in flags
folded_period = '--period' in flags
expect_graphs = '--graphs' in flags
rows_only = '--rows-only' in flags  # the text was cut to its totals and rows
show_sym = '--no-sym' not in flags
show_dso = '--no-dso' not in flags
chain_ip_width = True
if mode == 'report':
    report(text_path, json_path)
else:
    script(text_path, json_path)

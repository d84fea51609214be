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
with the first difference."""
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


def report(text_path, json_path):
    doc = load(json_path)
    if doc.get('schema') != 'sampo-report' or doc.get('version') != 1:
        fail('not a sampo-report version 1 document')
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
                        cols.append('[%s] 0x%016x' % (r['level'], int(r['ip'], 16)))
                elif key == 'cpu':
                    cols.append('%03d' % r['cpu'])
            want.append(squash(' '.join(cols)))
    got = []
    with open(text_path, encoding='utf-8', errors='surrogateescape') as f:
        for line in f:
            if line.startswith('# Samples:') or line.startswith('# Event count'):
                got.append(squash(line))
            elif line.strip() and not line.startswith('#'):
                got.append(squash(line))
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
show_sym = '--no-sym' not in flags
show_dso = '--no-dso' not in flags
chain_ip_width = True
if mode == 'report':
    report(text_path, json_path)
else:
    script(text_path, json_path)

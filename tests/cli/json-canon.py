#!/usr/bin/env python3
"""json-canon.py PERF.json SAMPO.json: compare perf's and sampo's
`data convert --to-json` of a file perf symbolizes with this machine's values
(docs/sampo-data.md, COMPARED WITH PERF): both are parsed, then

- perf's "cpuid" is dropped where sampo's is "" (the file has none; perf puts
  this machine's);
- the "symbol" and "dso" of kernel addresses and of [vdso] entries are dropped
  on both sides (perf takes them from the running kernel and this machine's
  vdso when the file has no build-id for them);

and the rest must be equal: every header, every sample, every field, every
callchain entry and every user-space symbol. Exit 0 when equal, 1 with the
first difference otherwise."""
import json
import sys


def load(path):
    with open(path, 'rb') as f:
        return json.loads(f.read().decode('utf-8'))


def strip(doc):
    for s in doc['samples']:
        for e in s['callchain']:
            if int(e['ip'], 16) >= 0xffff800000000000 or e.get('dso') == '[vdso]':
                e.pop('symbol', None)
                e.pop('dso', None)


perf, sampo = load(sys.argv[1]), load(sys.argv[2])
if sampo['headers'].get('cpuid') == '':
    perf['headers']['cpuid'] = ''
strip(perf)
strip(sampo)
if perf['headers'] != sampo['headers']:
    print('headers differ:', perf['headers'], sampo['headers'])
    sys.exit(1)
if len(perf['samples']) != len(sampo['samples']):
    print('perf has %d samples, sampo %d' % (len(perf['samples']), len(sampo['samples'])))
    sys.exit(1)
for i, (p, s) in enumerate(zip(perf['samples'], sampo['samples'])):
    if p != s:
        print('sample %d differs:\n perf:  %s\n sampo: %s' % (i, p, s))
        sys.exit(1)
if perf != sampo:
    print('documents differ')
    sys.exit(1)

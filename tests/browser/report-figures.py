#!/usr/bin/env python3
# report-figures.py - the figures a flame graph must show, read from
# `sampo report --children -n --sort sym -g none --stdio` (perf's table):
# per symbol of the first event, its self samples and its self and children
# percentages, whether it is a kernel symbol; the events' names in order,
# the first event's count (the sum of its periods).
#
#   report-figures.py REPORT.txt [KEY=VALUE...] > EXPECT.json
#
# KEY=VALUE pairs are copied into the JSON (search, zoom, other); matched=SYM
# stands for SYM's children percentage.
import json, re, sys

events, symbols = [], {}
event_count = 0
ev = -1
for line in open(sys.argv[1]):
    m = re.match(r"# Samples: \S+\s+of event '(.*)'$", line.rstrip('\n'))
    if m:
        events.append(m.group(1))
        ev += 1
        continue
    m = re.match(r'# Event count \(approx.\): (\d+)$', line.rstrip('\n'))
    if m and ev == 0:
        event_count = int(m.group(1))
        continue
    m = re.match(r'\s+([\d.]+)%\s+([\d.]+)%\s+(\d+)\s+\[(.)\] (.*\S)\s*$', line)
    if m and ev == 0:
        children, self_pct, samples, level, name = m.groups()
        if re.fullmatch(r'0x[0-9a-f]+', name):
            continue  # an unresolved address: the graph names it by its object
        symbols[name] = {'self': int(samples), 'selfPercent': self_pct,
                         'childrenPercent': children, 'kernel': level == 'k'}
out = {'events': events, 'symbols': symbols, 'eventCount': event_count,
       'total': sum(s['self'] for s in symbols.values())}
for kv in sys.argv[2:]:
    k, v = kv.split('=', 1)
    out[k] = symbols[v]['childrenPercent'] if k == 'matched' else v
json.dump(out, sys.stdout, indent=1)

#!/usr/bin/env python3
# embed-file.py - a text file as a C string, for files the sampo program
# writes out whole (the flame graph page): the source stays a real .html
# file that editors and linters read, the program carries its bytes.
#
#   embed-file.py INPUT OUTPUT.c SYMBOL
#
# OUTPUT.c defines `const char SYMBOL[]` (the text, NUL-terminated) and
# `const size_t SYMBOL_len`.
import sys

src, dst, sym = sys.argv[1:4]
data = open(src, 'rb').read()
out = ['/* generated from %s by embed-file.py: do not edit */' % src.split('/')[-1],
       '#include <stddef.h>', '', 'const char %s[] =' % sym]
for line in data.splitlines(keepends=True):
    esc = ''.join(c if 32 <= ord(c) < 127 and c not in '"\\?' else '\\%03o' % ord(c)
                  for c in line.decode('latin-1'))
    out.append('\t"%s"' % esc)
out[-1] += ';'
out.append('const size_t %s_len = %d;' % (sym, len(data)))
open(dst, 'w').write('\n'.join(out) + '\n')

#!/bin/bash
# t0004-graph-canon: the report comparison of the tests that run perf forgives only the order of call graph branches of equal weight (and, asked, of rows of equal weight)
#
# graph_ties_only (lib.sh, tests/cli/graph-canon.py) lets t2001 and t2002 accept
# (and with --rows, rows of equal weight in another order: t2002's whole-system file)
# a report whose tied branches come in another order than perf's (perf orders
# them by heap address). It must not hide anything else.
. "$(dirname "$0")/lib.sh"
need_cmd python3

cd "$tmpdir"
report() { # report FIRST SECOND ENTRY: a row with three 1.14% branches
	cat <<EOT
     3.41%     3.41%  burn     [kernel.kallsyms]
            |
            ---root_fn
               |
               |--1.14%--$1
               |          $1_caller
               |          |
               |           --0.57%--deep_fn
               |
               |--1.14%--$2
               |          $3
               |
                --1.14%--third_fn
                          third_caller

     1.00%     1.00%  burn     libc.so.6
EOT
}
report alpha beta beta_caller >a
report beta alpha alpha_caller >b
cp a same
graph_ties_only a same || die "a report differs from itself"
# beta's branch (with beta_caller) and alpha's (with alpha_caller, deep_fn) swapped: b
# holds alpha's chain under beta and the other way round, a real difference
graph_ties_only a b && die "branches with other entries were taken as the same"
# the same branches, only in another order: ties
python3 - a swapped <<'PYEOF'
import sys
lines = open(sys.argv[1]).read().split('\n')
# lines 5-9 of the file are alpha's branch and its separator, 10-12 beta's: swap them
alpha, beta = lines[4:9], lines[9:12]
open(sys.argv[2], 'w').write('\n'.join(lines[:4] + beta + alpha + lines[12:]))
PYEOF
graph_ties_only a swapped || die "tied branches in another order were taken as different: $(diff a swapped)"
sed -e 's/0.57%/0.58%/' a >pct
graph_ties_only a pct && die "another percentage was taken as the same"
sed -e 's/1.00%     1.00%/2.00%     2.00%/' a >row
graph_ties_only a row && die "another row was taken as the same"

# --rows: rows of equal percentages (each with its graph) in another order
rows() { # rows FIRST SECOND THIRD-PCT
	cat <<EOT
     2.00%     2.00%  burn     libc.so.6          [.] $1
            |
            ---$1_caller

     2.00%     2.00%  burn     libm.so.6          [.] $2
     $3     $3  burn     ld.so              [.] last_fn
EOT
}
rows alpha beta 1.00% >r1
rows beta alpha 1.00% >r2
graph_ties_only r1 r2 && die "rows in another order were taken as the same without --rows"
python3 - r1 r3 <<'PYEOF'
import sys
lines = open(sys.argv[1]).read().split('\n')
# rows 1 (with its graph and blank line) and 2 swapped: the same rows, another order
open(sys.argv[2], 'w').write('\n'.join([lines[4]] + lines[0:4] + lines[5:]))
PYEOF
graph_ties_only r1 r3 --rows || die "tied rows in another order were taken as different: $(diff r1 r3)"
graph_ties_only r1 r3 && die "tied rows in another order were forgiven without --rows"
sed -e 's/2.00%     2.00%  burn     libm/2.01%     2.01%  burn     libm/' r3 >r4
graph_ties_only r1 r4 --rows && die "rows of other percentages were taken as the same"
rows alpha gamma 1.00% >r5
graph_ties_only r1 r5 --rows && die "another symbol was taken as the same row"
rows alpha beta 0.50% >r6
graph_ties_only r1 r6 --rows && die "another percentage of the last row was taken as the same"
pass

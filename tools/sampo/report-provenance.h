/* SPDX-License-Identifier: GPL-2.0 */
/*
 * report-provenance.h - sampo report --provenance: for each object with
 * samples, where its symbols came from, or why it has none and what would
 * fix it; and the one-line summary of the report's header.
 */
#ifndef SAMPO_CLI_REPORT_PROVENANCE_H
#define SAMPO_CLI_REPORT_PROVENANCE_H

#include <stdio.h>

struct sampo_hists;
struct sampo_symbolizer;

/* report_provenance_print() - the table; 0 or a negative errno */
int report_provenance_print(FILE *fp, const struct sampo_hists *h, struct sampo_symbolizer *s);

/*
 * report_provenance_summary() - "# sampo: ..." when objects with samples
 * have no symbols, nothing otherwise
 */
void report_provenance_summary(FILE *fp, const struct sampo_hists *h, struct sampo_symbolizer *s);

#endif

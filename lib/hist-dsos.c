// SPDX-License-Identifier: LGPL-2.1
/*
 * hist-dsos.c - how many samples fell in each DSO, and how many of them a
 * symbol covered: what a report needs to say which DSOs lack symbols and
 * how much that costs (sampo report --provenance).
 *
 * Counts each recorded stack's own frame (the sample's IP), whatever the
 * sort keys; filtered samples (--comms, --dsos, ...) are left out, as they
 * are from the table.
 */
#include <sampo/hist.h>
#include "internal/hist.h"

uint64_t sampo_hists__dso_samples(const struct sampo_hists *h, const struct sampo_dso *dso,
				  uint64_t *ret_resolved)
{
	uint64_t nr = 0, resolved = 0;

	for (size_t i = 0; h && i < h->nr_stacks; i++) {
		const struct stack *s = &h->stacks[i];
		const struct frame *f = &h->frames[s->self];

		if (s->filtered || f->dso != dso)
			continue;
		nr += s->count;
		if (f->sym)
			resolved += s->count;
	}
	if (ret_resolved)
		*ret_resolved = resolved;
	return nr;
}

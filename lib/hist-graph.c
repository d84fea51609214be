// SPDX-License-Identifier: LGPL-2.1
/*
 * hist-graph.c - the call graph under a row, walked for programs
 * (sampo_hists__walk_graph(): report's JSON and anything else that wants
 * the graph as data rather than as perf's --stdio drawing).
 *
 * The walk visits what lib/hist-print.c draws, in the same order and with
 * the same numbers: the children of a node whose chains carry at least
 * callchain_min_percent of the event's total, by cumulated period, ties
 * in the trie's order. The drawing's shortcuts (a single chain carrying
 * the whole row printed without percentages, the row's own frame left out
 * with --sort sym first) are presentation and stay in the printer: the
 * walk gives every node and every frame, so a reader can redo either.
 *
 * The recursion is bounded by the depth of the trie, which is at most the
 * longest chain kept (max_stack, 127 by default, sampo_hists_opts): no
 * deeper than the printer's own.
 */
#include <errno.h>
#include <stdlib.h>

#include <sampo/hist.h>

#include "internal/callchain.h"
#include "internal/hist.h"

static int walk_node(const struct sampo_hists *h, const struct callchain_node *n, uint64_t min_hit,
		     size_t depth, sampo_hists_graph_fn fn, void *ctx)
{
	struct callchain_node **kids;
	size_t nr = sampo_callchain__sorted_children(n, min_hit, &kids);
	int err = 0;

	if (n->nr_children && !kids)
		return -ENOMEM; /* sorted_children() found children but could not list them */
	for (size_t c = 0; c < nr && !err; c++) {
		const struct callchain_node *k = kids[c];
		struct sampo_hist_graph_node gn = {
			.depth = depth,
			.period = callchain_cumul(k),
			.self_period = k->hit,
			.nr_frames = k->val_nr,
			.frames = h->arena + k->val_off,
		};

		err = fn(ctx, &gn, false);
		if (!err)
			err = walk_node(h, k, min_hit, depth + 1, fn, ctx);
		if (!err)
			err = fn(ctx, &gn, true);
	}
	free(kids);
	return err;
}

int sampo_hists__walk_graph(const struct sampo_hists *h, int evsel,
			    const struct sampo_hist_entry *entry, sampo_hists_graph_fn fn, void *ctx)
{
	uint64_t total, min_hit;

	if (evsel < 0 || (size_t)evsel >= h->nr_ev || !entry || entry->hists != h)
		return -EINVAL;
	if (!h->opts.callchain)
		return 0;
	total = sampo_hists__ev_total(h, &h->ev[evsel]);
	min_hit = (uint64_t)((double)total * (h->opts.callchain_min_percent / 100.0));
	return walk_node(h, &entry->root, min_hit, 0, fn, ctx);
}

/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * internal/callchain.h - the call graph tries of the histogram entries
 * (lib/callchain.c), printed by lib/hist-print.c.
 */
#ifndef SAMPO_INTERNAL_CALLCHAIN_H
#define SAMPO_INTERNAL_CALLCHAIN_H

#include <stddef.h>
#include <stdint.h>

struct sampo_hists;

/*
 * The match key of a child's first frame, beside the child in its parent:
 * the search among siblings reads these instead of each child and its frame
 * (two cache misses a probe on a system-wide recording's wide nodes).
 * @frame's top bit: the frame is an inlined function's (compared by name).
 */
struct callchain_key {
	uint64_t match_addr;
	uint32_t dso_seq;
	uint32_t frame;
};

/* perf's struct callchain_node; an entry's root is embedded, holds no frames */
struct callchain_node {
	struct callchain_node *parent;
	uint32_t val_off, val_nr; /* frames in hists->arena */
	uint64_t hit, children_hit;
	struct callchain_node **children; /* perf's rb_root_in order: match key descending */
	struct callchain_key *keys;	  /* keys[i]: the first frame of children[i] */
	uint32_t nr_children, cap_children;
};

/* the hits of @n and of everything under it (perf's callchain_cumul_hits()) */
static inline uint64_t callchain_cumul(const struct callchain_node *n)
{
	return n->hit + n->children_hit;
}

/*
 * sampo_callchain__append() - add the chain of frames @h->arena[@pos..@end)
 * under @node with @period (perf's append_chain_children()); @pos < @end
 *
 * Return: 0, or -ENOMEM (the trie stays consistent, without the chain).
 */
int sampo_callchain__append(const struct sampo_hists *h, struct callchain_node *node, uint32_t pos,
			    uint32_t end, uint64_t period);

/* sampo_callchain__release() - free everything under @n (not @n itself) */
void sampo_callchain__release(struct callchain_node *n);

/*
 * sampo_callchain__sorted_children() - the children of @n that perf prints
 * (cumulated hits >= @min_hit), by cumulated hits, ties in trie order
 *
 * Return: their number, *@ret a malloc'ed array the caller frees (NULL when
 * 0, also when out of memory: then nothing is printed under @n).
 */
size_t sampo_callchain__sorted_children(const struct callchain_node *n, uint64_t min_hit,
					struct callchain_node ***ret);

#endif /* SAMPO_INTERNAL_CALLCHAIN_H */

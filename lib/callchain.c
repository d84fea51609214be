// SPDX-License-Identifier: LGPL-2.1
/*
 * callchain.c - the call graph of a histogram entry: perf's callchain_node
 * trie (perf 6.1 util/callchain.c), built the way perf builds it so that
 * the printed graphs (lib/hist-print.c) split and order their branches as
 * perf's do.
 *
 * A node holds a run of frames (indexes into the hists' arena) that every
 * chain through it shares, its own hits (chains that end in it) and its
 * children's. Appending a chain walks down while the frames match (perf's
 * match_chain() with CCKEY_FUNCTION: the DSO, then the symbol's start, or
 * the address when there is no symbol); a partial match splits the node
 * in two (split_add_child()), a miss adds a child. Children are kept in
 * the order of perf's rb_root_in (match key descending), which is the
 * order perf prints ties in.
 *
 * Invariant: a node's children_hit is the sum of its children's hit and
 * children_hit; the root holds no frames.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <sampo/symbol.h>

#include "internal/callchain.h"
#include "internal/hist.h"

void sampo_callchain__release(struct callchain_node *n)
{
	for (uint32_t i = 0; i < n->nr_children; i++) {
		sampo_callchain__release(n->children[i]);
		free(n->children[i]);
	}
	free(n->children);
	free(n->keys);
}

/* perf's match_chain() with CCKEY_FUNCTION: dso, then symbol start (or address) */
static int match_cmp(const struct sampo_hists *h, uint32_t a, uint32_t b)
{
	const struct frame *fa = &h->frames[a], *fb = &h->frames[b];

	/* inlined frames share their function's start: perf compares their names */
	if ((fa->inl_name || fb->inl_name) && fa->sym && fb->sym) {
		int c = strcmp(fa->inl_name ? fa->inl_name : sampo_symbol__name(fa->sym),
			       fb->inl_name ? fb->inl_name : sampo_symbol__name(fb->sym));

		return c < 0 ? -1 : c > 0;
	}
	if (fa->dso_seq != fb->dso_seq)
		return fa->dso_seq < fb->dso_seq ? -1 : 1;
	if (fa->match_addr != fb->match_addr)
		return fa->match_addr < fb->match_addr ? -1 : 1;
	return 0;
}

#define KEY_INLINED 0x80000000u

static struct callchain_key frame_key(const struct sampo_hists *h, uint32_t idx)
{
	const struct frame *f = &h->frames[idx];

	return (struct callchain_key){ .match_addr = f->match_addr,
				       .dso_seq = f->dso_seq,
				       .frame = idx | (f->inl_name ? KEY_INLINED : 0) };
}

/* match_cmp() of the keys' frames, from the keys alone but for inlined frames */
static inline int key_cmp(const struct sampo_hists *h, const struct callchain_key *a,
			  const struct callchain_key *b)
{
	if ((a->frame | b->frame) & KEY_INLINED)
		return match_cmp(h, a->frame & ~KEY_INLINED, b->frame & ~KEY_INLINED);
	if (a->dso_seq != b->dso_seq)
		return a->dso_seq < b->dso_seq ? -1 : 1;
	if (a->match_addr != b->match_addr)
		return a->match_addr < b->match_addr ? -1 : 1;
	return 0;
}

static struct callchain_node *cnode_new(struct callchain_node *parent, uint32_t off, uint32_t nr)
{
	struct callchain_node *n = calloc(1, sizeof(*n));

	if (!n)
		return NULL;
	n->parent = parent;
	n->val_off = off;
	n->val_nr = nr;
	return n;
}

/* insert @child among @parent's children, kept in perf's rb_root_in order */
static int cnode_add_child(const struct sampo_hists *h, struct callchain_node *parent,
			   struct callchain_node *child)
{
	struct callchain_key key = frame_key(h, h->arena[child->val_off]);
	uint32_t lo = 0, hi = parent->nr_children;

	if (parent->nr_children == parent->cap_children) {
		uint32_t ncap = parent->cap_children ? parent->cap_children * 2 : 2;
		struct callchain_node **c = realloc(parent->children, ncap * sizeof(*c));
		struct callchain_key *k;

		if (!c)
			return -ENOMEM;
		parent->children = c;
		k = realloc(parent->keys, ncap * sizeof(*k));
		if (!k)
			return -ENOMEM;
		parent->keys = k;
		parent->cap_children = ncap;
	}
	/* descending: a bigger key goes left of a smaller one */
	while (lo < hi) {
		uint32_t mid = (lo + hi) / 2;

		if (key_cmp(h, &parent->keys[mid], &key) > 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	memmove(parent->children + lo + 1, parent->children + lo,
		(parent->nr_children - lo) * sizeof(*parent->children));
	memmove(parent->keys + lo + 1, parent->keys + lo,
		(parent->nr_children - lo) * sizeof(*parent->keys));
	parent->children[lo] = child;
	parent->keys[lo] = key;
	parent->nr_children++;
	child->parent = parent;
	return 0;
}

/* perf's append_chain() for a child whose first entry matches */
static int append_chain(const struct sampo_hists *h, struct callchain_node *node, uint32_t pos,
			uint32_t end, uint64_t period)
{
	uint32_t m = 0;

	/* the same frame matches itself: most runs are the same frames */
	while (m < node->val_nr && pos + m < end &&
	       (h->arena[node->val_off + m] == h->arena[pos + m] ||
		!match_cmp(h, h->arena[node->val_off + m], h->arena[pos + m])))
		m++;

	if (m < node->val_nr) {
		/* split_add_child(): the tail of the node moves to a new child */
		struct callchain_node *tail = cnode_new(node, node->val_off + m, node->val_nr - m);

		if (!tail)
			return -ENOMEM;
		tail->hit = node->hit;
		tail->children_hit = node->children_hit;
		tail->children = node->children;
		tail->keys = node->keys;
		tail->nr_children = node->nr_children;
		tail->cap_children = node->cap_children;
		for (uint32_t i = 0; i < tail->nr_children; i++)
			tail->children[i]->parent = tail;
		node->children = NULL;
		node->keys = NULL;
		node->nr_children = node->cap_children = 0;
		node->val_nr = m;
		node->children_hit = tail->hit + tail->children_hit;
		if (cnode_add_child(h, node, tail)) {
			free(tail);
			return -ENOMEM;
		}
		if (pos + m < end) {
			struct callchain_node *branch = cnode_new(node, pos + m, end - pos - m);

			if (!branch || cnode_add_child(h, node, branch)) {
				free(branch);
				return -ENOMEM;
			}
			branch->hit = period;
			node->hit = 0;
			node->children_hit += period;
		} else {
			node->hit = period;
		}
		return 0;
	}
	if (pos + m == end) {
		node->hit += period;
		return 0;
	}
	return sampo_callchain__append(h, node, pos + m, end, period);
}

/* perf's sampo_callchain__append() */
int sampo_callchain__append(const struct sampo_hists *h, struct callchain_node *node, uint32_t pos,
			    uint32_t end, uint64_t period)
{
	struct callchain_key key = frame_key(h, h->arena[pos]);
	uint32_t lo = 0, hi = node->nr_children;
	int err;

	while (lo < hi) {
		uint32_t mid = (lo + hi) / 2;
		int c = key_cmp(h, &node->keys[mid], &key);

		if (!c) {
			err = append_chain(h, node->children[mid], pos, end, period);
			if (err)
				return err;
			node->children_hit += period;
			return 0;
		}
		if (c > 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	{
		struct callchain_node *child = cnode_new(node, pos, end - pos);

		if (!child)
			return -ENOMEM;
		child->hit = period;
		if (cnode_add_child(h, node, child)) {
			free(child);
			return -ENOMEM;
		}
	}
	node->children_hit += period;
	return 0;
}

/* the children of @n that perf keeps (>= min_hit), by cumulated hits, stably */
size_t sampo_callchain__sorted_children(const struct callchain_node *n, uint64_t min_hit,
					struct callchain_node ***ret)
{
	struct callchain_node **v;
	size_t nr = 0;

	*ret = NULL;
	if (!n->nr_children)
		return 0;
	v = malloc(n->nr_children * sizeof(*v));
	if (!v)
		return 0;
	for (uint32_t i = 0; i < n->nr_children; i++)
		if (callchain_cumul(n->children[i]) >= min_hit)
			v[nr++] = n->children[i];
	/* insertion sort: stable, and sibling lists are short */
	for (size_t i = 1; i < nr; i++) {
		struct callchain_node *x = v[i];
		size_t j = i;

		while (j > 0 && callchain_cumul(v[j - 1]) < callchain_cumul(x)) {
			v[j] = v[j - 1];
			j--;
		}
		v[j] = x;
	}
	*ret = v;
	return nr;
}

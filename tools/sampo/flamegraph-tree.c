// SPDX-License-Identifier: GPL-2.0
/*
 * flamegraph-tree.c - the trees of `sampo flamegraph`, aggregated from the
 * profile's distinct stacks.
 *
 * A million samples come to the tree as some tens of thousands of distinct
 * stacks (the hists interned them while reading), so the tree costs one
 * walk of each distinct stack from the root: a node per (parent, name,
 * kind), found in one open-addressing index per graph. The browser then
 * only lays out the finished tree; it never sees a sample.
 *
 * Names are interned once for all graphs (and the baseline's, with
 * --diff), so the page carries each name once and a baseline node is found
 * by comparing indexes.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <sampo/hist.h>

#include "flamegraph.h"
#include "profile.h"

static uint64_t hash_str(const char *s)
{
	uint64_t h = 1469598103934665603ull; /* FNV-1a */

	while (*s) {
		h ^= (unsigned char)*s++;
		h *= 1099511628211ull;
	}
	return h;
}

static uint64_t hash_node(uint32_t parent, uint32_t name, uint8_t kind)
{
	uint64_t h = ((uint64_t)parent << 32 | name) * 0x9e3779b97f4a7c15ull;

	return (h ^ (h >> 29) ^ kind) * 0xbf58476d1ce4e5b9ull;
}

static int grow(void **arr, size_t *cap, size_t need, size_t elem)
{
	size_t n = *cap ? *cap : 16;
	void *p;

	if (need <= *cap)
		return 0;
	while (n < need)
		n *= 2;
	p = realloc(*arr, n * elem);
	if (!p)
		return -ENOMEM;
	*arr = p;
	*cap = n;
	return 0;
}

static int name_intern(struct flame_set *set, const char *s, uint32_t *ret)
{
	uint64_t h = hash_str(s);
	size_t j;

	if ((set->nr_names + 1) * 2 > set->name_ix_cap) {
		size_t cap = set->name_ix_cap ? set->name_ix_cap * 2 : 1024;
		uint32_t *ix = calloc(cap, sizeof(*ix));

		if (!ix)
			return -ENOMEM;
		for (size_t i = 0; i < set->nr_names; i++) {
			for (j = hash_str(set->names[i]) & (cap - 1); ix[j]; j = (j + 1) & (cap - 1))
				;
			ix[j] = (uint32_t)i + 1;
		}
		free(set->name_ix);
		set->name_ix = ix;
		set->name_ix_cap = cap;
	}
	for (j = h & (set->name_ix_cap - 1); set->name_ix[j]; j = (j + 1) & (set->name_ix_cap - 1)) {
		if (!strcmp(set->names[set->name_ix[j] - 1], s)) {
			*ret = set->name_ix[j] - 1;
			return 0;
		}
	}
	if (grow((void **)&set->names, &set->cap_names, set->nr_names + 1, sizeof(*set->names)))
		return -ENOMEM;
	set->names[set->nr_names] = strdup(s);
	if (!set->names[set->nr_names])
		return -ENOMEM;
	set->name_ix[j] = (uint32_t)++set->nr_names;
	*ret = (uint32_t)set->nr_names - 1;
	return 0;
}

static int graph_grow_ix(struct flame_graph *g)
{
	size_t cap = g->ix_cap ? g->ix_cap * 2 : 1024;
	uint32_t *ix = calloc(cap, sizeof(*ix));

	if (!ix)
		return -ENOMEM;
	for (size_t i = 1; i < g->nr; i++) {
		const struct flame_node *n = &g->nodes[i];
		size_t j;

		for (j = hash_node(n->parent, n->name, n->kind) & (cap - 1); ix[j];
		     j = (j + 1) & (cap - 1))
			;
		ix[j] = (uint32_t)i + 1;
	}
	free(g->ix);
	g->ix = ix;
	g->ix_cap = cap;
	return 0;
}

/* the child of @parent named @name of @kind, FLAME_NONE when there is none */
static uint32_t graph_find(const struct flame_graph *g, uint32_t parent, uint32_t name, uint8_t kind)
{
	if (!g->ix_cap)
		return FLAME_NONE;
	for (size_t j = hash_node(parent, name, kind) & (g->ix_cap - 1); g->ix[j];
	     j = (j + 1) & (g->ix_cap - 1)) {
		const struct flame_node *n = &g->nodes[g->ix[j] - 1];

		if (n->parent == parent && n->name == name && n->kind == kind)
			return g->ix[j] - 1;
	}
	return FLAME_NONE;
}

static int graph_findnew(struct flame_graph *g, uint32_t parent, uint32_t name, uint8_t kind,
			 uint32_t *ret)
{
	struct flame_node *n;
	size_t j;

	if ((g->nr + 1) * 2 > g->ix_cap && graph_grow_ix(g))
		return -ENOMEM;
	for (j = hash_node(parent, name, kind) & (g->ix_cap - 1); g->ix[j];
	     j = (j + 1) & (g->ix_cap - 1)) {
		n = &g->nodes[g->ix[j] - 1];
		if (n->parent == parent && n->name == name && n->kind == kind) {
			*ret = g->ix[j] - 1;
			return 0;
		}
	}
	if (grow((void **)&g->nodes, &g->cap, g->nr + 1, sizeof(*g->nodes)))
		return -ENOMEM;
	n = &g->nodes[g->nr];
	memset(n, 0, sizeof(*n));
	n->name = name;
	n->kind = kind;
	n->parent = parent;
	n->child = FLAME_NONE;
	n->base = FLAME_NONE;
	/* newest child first; flame_graph_sort() puts them in order */
	n->sibling = g->nodes[parent].child;
	g->nodes[parent].child = (uint32_t)g->nr;
	g->ix[j] = (uint32_t)++g->nr;
	*ret = (uint32_t)g->nr - 1;
	return 0;
}

static enum flame_kind kind_of_level(char level)
{
	/* the kernel's frames, a guest kernel's and the hypervisor's */
	return level == 'k' || level == 'g' || level == 'H' ? FLAME_KERNEL : FLAME_USER;
}

static int graph_init(struct flame_set *set, struct flame_graph *g, const char *event)
{
	uint32_t all;

	memset(g, 0, sizeof(*g));
	g->event = strdup(event);
	if (!g->event || name_intern(set, "all", &all) ||
	    grow((void **)&g->nodes, &g->cap, 1, sizeof(*g->nodes)))
		return -ENOMEM;
	memset(&g->nodes[0], 0, sizeof(g->nodes[0]));
	g->nodes[0].name = all;
	g->nodes[0].kind = FLAME_ROOT;
	g->nodes[0].parent = g->nodes[0].sibling = g->nodes[0].base = FLAME_NONE;
	g->nodes[0].child = FLAME_NONE;
	g->nr = 1;
	return 0;
}

int flame_set_add_profile(struct flame_set *set, const struct profile *p)
{
	const struct sampo_hists *h = p->hists;
	int nr_events = profile_nr_events(p);
	size_t nr_frames = sampo_hists__nr_frames(h);
	size_t first = set->nr_graphs;
	int32_t *graph_of = NULL; /* event -> graph index, -1: not yet */
	uint32_t *label = NULL;	  /* frame -> name + 1, 0: not yet */
	int err = -ENOMEM;

	graph_of = malloc((size_t)(nr_events > 0 ? nr_events : 1) * sizeof(*graph_of));
	label = calloc(nr_frames ? nr_frames : 1, sizeof(*label));
	if (!graph_of || !label)
		goto out;
	/* graphs in the events' order, whatever order the stacks come in */
	for (int e = 0; e < nr_events; e++) {
		struct flame_graph *graphs;

		graph_of[e] = -1;
		if (!sampo_hists__nr_samples(h, e))
			continue;
		graphs = realloc(set->graphs, (set->nr_graphs + 1) * sizeof(*graphs));
		if (!graphs)
			goto out;
		set->graphs = graphs;
		if (graph_init(set, &set->graphs[set->nr_graphs], profile_event_name(p, e))) {
			set->nr_graphs++; /* released with the set */
			goto out;
		}
		graph_of[e] = (int32_t)set->nr_graphs++;
	}
	for (size_t i = 0; i < sampo_hists__nr_stacks(h); i++) {
		int e = sampo_hists__stack_evsel(h, i);
		uint64_t period = sampo_hists__stack_period(h, i);
		uint64_t count = sampo_hists__stack_nr_samples(h, i);
		struct flame_graph *g;
		uint32_t node, name;

		if (e < 0 || e >= nr_events || graph_of[e] < 0 || sampo_hists__stack_filtered(h, i))
			continue;
		g = &set->graphs[graph_of[e]];
		g->nodes[0].value += period;
		g->nodes[0].samples += count;
		if (name_intern(set, sampo_hists__stack_comm(h, i), &name) ||
		    graph_findnew(g, 0, name, FLAME_COMM, &node))
			goto out;
		g->nodes[node].value += period;
		g->nodes[node].samples += count;
		/* root first: from the outermost caller to the leaf */
		for (size_t d = sampo_hists__stack_depth(h, i); d-- > 0;) {
			uint32_t f = sampo_hists__stack_frame(h, i, d);
			uint8_t kind = (uint8_t)(sampo_hists__frame_inlined(h, f) ?
							 FLAME_INLINED :
							 kind_of_level(sampo_hists__frame_level(h, f)));

			if (!label[f]) {
				char buf[512];

				if (name_intern(set, profile_frame_label(p, f, buf, sizeof(buf)),
						&name))
					goto out;
				label[f] = name + 1;
			}
			if (graph_findnew(g, node, label[f] - 1, kind, &node))
				goto out;
			g->nodes[node].value += period;
			g->nodes[node].samples += count;
		}
	}
	for (size_t i = first; i < set->nr_graphs; i++)
		if (flame_graph_sort(set, &set->graphs[i]))
			goto out;
	err = 0;
out:
	free(graph_of);
	free(label);
	return err;
}

/* qsort() has no context argument: the names being compared, for one sort at a time */
static char *const *sort_names;
static const struct flame_node *sort_nodes;

static int child_cmp(const void *a, const void *b)
{
	const struct flame_node *x = &sort_nodes[*(const uint32_t *)a];
	const struct flame_node *y = &sort_nodes[*(const uint32_t *)b];
	int c = strcmp(sort_names[x->name], sort_names[y->name]);

	return c ? c : (x->kind > y->kind) - (x->kind < y->kind);
}

int flame_graph_sort(const struct flame_set *set, struct flame_graph *g)
{
	uint32_t *kids = NULL;
	size_t cap = 0;

	sort_names = set->names;
	sort_nodes = g->nodes;
	for (size_t i = 0; i < g->nr; i++) {
		struct flame_node *n = &g->nodes[i];
		size_t nr = 0;

		for (uint32_t c = n->child; c != FLAME_NONE; c = g->nodes[c].sibling) {
			if (grow((void **)&kids, &cap, nr + 1, sizeof(*kids))) {
				free(kids);
				return -ENOMEM;
			}
			kids[nr++] = c;
		}
		if (nr < 2)
			continue;
		qsort(kids, nr, sizeof(*kids), child_cmp);
		n->child = kids[0];
		for (size_t k = 0; k + 1 < nr; k++)
			g->nodes[kids[k]].sibling = kids[k + 1];
		g->nodes[kids[nr - 1]].sibling = FLAME_NONE;
	}
	free(kids);
	return 0;
}

void flame_set_diff(struct flame_set *set, size_t nr_base)
{
	set->first = nr_base;
	for (size_t i = nr_base; i < set->nr_graphs; i++) {
		struct flame_graph *g = &set->graphs[i];
		const struct flame_graph *b = NULL;

		for (size_t j = 0; j < nr_base && !b; j++)
			if (!strcmp(set->graphs[j].event, g->event))
				b = &set->graphs[j];
		if (!b && nr_base == 1 && set->nr_graphs - nr_base == 1)
			b = &set->graphs[0];
		g->baseline = b;
		if (!b)
			continue;
		/* a parent comes before its children: one pass finds every path */
		g->nodes[0].base = 0;
		for (size_t n = 1; n < g->nr; n++) {
			struct flame_node *node = &g->nodes[n];
			uint32_t pb = g->nodes[node->parent].base;

			node->base = pb == FLAME_NONE ? FLAME_NONE :
							graph_find(b, pb, node->name, node->kind);
		}
	}
}

void flame_set_release(struct flame_set *set)
{
	for (size_t i = 0; i < set->nr_names; i++)
		free(set->names[i]);
	free(set->names);
	free(set->name_ix);
	for (size_t i = 0; i < set->nr_graphs; i++) {
		free(set->graphs[i].event);
		free(set->graphs[i].nodes);
		free(set->graphs[i].ix);
	}
	free(set->graphs);
	memset(set, 0, sizeof(*set));
}

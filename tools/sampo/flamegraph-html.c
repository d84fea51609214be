// SPDX-License-Identifier: GPL-2.0
/*
 * flamegraph-html.c - `sampo flamegraph`'s page: flamegraph.html (embedded
 * at build time as flamegraph_page) with the trees as JSON in its #data
 * element.
 *
 * Each tree goes out in preorder as parallel arrays: n (name index), k
 * (kind: 0 root, 1 command, 2 kernel, 3 user, 4 inlined), d (depth), v
 * (value: the period of the samples through the node), s (samples); with a
 * baseline, bv and bs (the baseline's value and samples on the same path,
 * -1 where it has none), btotal and bsamples. The page computes positions
 * from the depths: a node starts where its previous sibling ended, so no
 * coordinate is stored. Names are stored once for all trees.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "flamegraph.h"
#include "outbuf.h"

extern const char flamegraph_page[];
extern const size_t flamegraph_page_len;

#define DATA_MARK "/*SAMPO_DATA*/"

void ob_json_string(struct outbuf *ob, const char *s)
{
	static const char hex[] = "0123456789abcdef";

	ob_putc(ob, '"');
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		switch (*p) {
		case '"':
			ob_puts(ob, "\\\"");
			break;
		case '\\':
			ob_puts(ob, "\\\\");
			break;
		case '\n':
			ob_puts(ob, "\\n");
			break;
		case '\t':
			ob_puts(ob, "\\t");
			break;
		default:
			/* '<' keeps "</script>" out of the page; the rest are JSON's rules */
			if (*p < 0x20 || *p == '<' || *p == '>' || *p == '&' || *p == 0x7f) {
				ob_puts(ob, "\\u00");
				ob_putc(ob, hex[*p >> 4]);
				ob_putc(ob, hex[*p & 15]);
			} else {
				ob_putc(ob, (char)*p);
			}
		}
	}
	ob_putc(ob, '"');
}

/*
 * The nodes in preorder, children in their sorted order, with their depths.
 * Return: 0 or -ENOMEM.
 */
static int preorder(const struct flame_graph *g, uint32_t **ret_order, uint32_t **ret_depth)
{
	uint32_t *order = malloc(g->nr * sizeof(*order));
	uint32_t *depth = malloc(g->nr * sizeof(*depth));
	uint32_t cur = 0, d = 0;
	size_t n = 0;

	if (!order || !depth) {
		free(order);
		free(depth);
		return -ENOMEM;
	}
	for (;;) {
		order[n] = cur;
		depth[n++] = d;
		if (g->nodes[cur].child != FLAME_NONE) {
			cur = g->nodes[cur].child;
			d++;
			continue;
		}
		while (cur && g->nodes[cur].sibling == FLAME_NONE) {
			cur = g->nodes[cur].parent;
			d--;
		}
		if (!cur)
			break;
		cur = g->nodes[cur].sibling;
	}
	*ret_order = order;
	*ret_depth = depth;
	return 0;
}

enum field { F_NAME, F_KIND, F_DEPTH, F_VALUE, F_SAMPLES, F_BVALUE, F_BSAMPLES };

static void write_array(struct outbuf *ob, const char *key, const struct flame_graph *g,
			const uint32_t *order, const uint32_t *depth, enum field f)
{
	const struct flame_graph *b = g->baseline;

	ob_puts(ob, ",\"");
	ob_puts(ob, key);
	ob_puts(ob, "\":[");
	for (size_t i = 0; i < g->nr; i++) {
		const struct flame_node *n = &g->nodes[order[i]];

		if (i)
			ob_putc(ob, ',');
		switch (f) {
		case F_NAME:
			ob_dec_u64(ob, n->name);
			break;
		case F_KIND:
			ob_dec_u64(ob, n->kind);
			break;
		case F_DEPTH:
			ob_dec_u64(ob, depth[i]);
			break;
		case F_VALUE:
			ob_dec_u64(ob, n->value);
			break;
		case F_SAMPLES:
			ob_dec_u64(ob, n->samples);
			break;
		case F_BVALUE:
			if (n->base == FLAME_NONE)
				ob_puts(ob, "-1");
			else
				ob_dec_u64(ob, b->nodes[n->base].value);
			break;
		case F_BSAMPLES:
			if (n->base == FLAME_NONE)
				ob_puts(ob, "-1");
			else
				ob_dec_u64(ob, b->nodes[n->base].samples);
			break;
		}
	}
	ob_putc(ob, ']');
}

int flame_write_html(const struct flame_set *set, const char *title, struct outbuf *ob)
{
	const char *mark = strstr(flamegraph_page, DATA_MARK);
	bool diff = false;

	if (!mark)
		return -EINVAL; /* the build embedded another page */
	for (size_t i = set->first; i < set->nr_graphs; i++)
		diff |= set->graphs[i].baseline != NULL;
	ob_write(ob, flamegraph_page, (size_t)(mark - flamegraph_page));
	ob_puts(ob, "{\"version\":1,\"title\":");
	ob_json_string(ob, title);
	ob_puts(ob, diff ? ",\"diff\":true" : ",\"diff\":false");
	ob_puts(ob, ",\n\"names\":[");
	for (size_t i = 0; i < set->nr_names; i++) {
		if (i)
			ob_putc(ob, ',');
		ob_json_string(ob, set->names[i]);
	}
	ob_puts(ob, "],\n\"graphs\":[");
	for (size_t i = set->first; i < set->nr_graphs; i++) {
		const struct flame_graph *g = &set->graphs[i];
		uint32_t *order, *depth;

		if (preorder(g, &order, &depth))
			return -ENOMEM;
		ob_puts(ob, i > set->first ? ",\n{\"event\":" : "\n{\"event\":");
		ob_json_string(ob, g->event);
		write_array(ob, "n", g, order, depth, F_NAME);
		write_array(ob, "k", g, order, depth, F_KIND);
		write_array(ob, "d", g, order, depth, F_DEPTH);
		write_array(ob, "v", g, order, depth, F_VALUE);
		write_array(ob, "s", g, order, depth, F_SAMPLES);
		if (diff) {
			uint64_t bt = g->baseline ? g->baseline->nodes[0].value : 0;
			uint64_t bs = g->baseline ? g->baseline->nodes[0].samples : 0;

			write_array(ob, "bv", g, order, depth, F_BVALUE);
			write_array(ob, "bs", g, order, depth, F_BSAMPLES);
			ob_printf(ob, ",\"btotal\":%" PRIu64 ",\"bsamples\":%" PRIu64, bt, bs);
		}
		ob_putc(ob, '}');
		free(order);
		free(depth);
	}
	ob_puts(ob, "]}");
	mark += strlen(DATA_MARK);
	ob_write(ob, mark, flamegraph_page_len - (size_t)(mark - flamegraph_page));
	return ob_error(ob);
}

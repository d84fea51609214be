// SPDX-License-Identifier: GPL-2.0
/*
 * flamegraph-html.c - `sampo flamegraph`'s page: flamegraph.html (embedded
 * at build time as flamegraph_page) with the trees as JSON in its #data
 * element.
 *
 * Each tree goes out in preorder, per node: its depth, name index, kind (0
 * root, 1 command, 2 kernel, 3 user, 4 inlined), value (the period of the
 * samples through the node) and samples; with a baseline, the baseline's
 * value and samples on the same path; as base64 of LEB128 numbers
 * (write_nodes()). The page computes positions from the depths: a node
 * starts where its previous sibling ended, so no coordinate is stored.
 * Names are stored once for all trees, as JSON strings.
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
 * The nodes in preorder, children in their sorted order, with their depths
 * and the deepest. Return: 0 or -ENOMEM.
 */
static int preorder(const struct flame_graph *g, uint32_t **ret_order, uint32_t **ret_depth,
		    uint32_t *ret_max_depth)
{
	uint32_t *order = malloc(g->nr * sizeof(*order));
	uint32_t *depth = malloc(g->nr * sizeof(*depth));
	uint32_t cur = 0, d = 0;
	size_t n = 0;

	if (!g->nr || !order || !depth) { /* a graph has its root: nr is never 0 */
		free(order);
		free(depth);
		return -ENOMEM;
	}
	*ret_max_depth = 0;
	for (;;) {
		order[n] = cur;
		depth[n++] = d;
		if (d > *ret_max_depth)
			*ret_max_depth = d;
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

/* base64 of a byte stream, written as it comes */
struct b64 {
	struct outbuf *ob;
	uint8_t in[3];
	int nr;
};

static void b64_put(struct b64 *b, uint8_t byte)
{
	static const char abc[] =
		"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	char out[4];

	b->in[b->nr++] = byte;
	if (b->nr < 3)
		return;
	out[0] = abc[b->in[0] >> 2];
	out[1] = abc[(b->in[0] & 3) << 4 | b->in[1] >> 4];
	out[2] = abc[(b->in[1] & 15) << 2 | b->in[2] >> 6];
	out[3] = abc[b->in[2] & 63];
	ob_write(b->ob, out, 4);
	b->nr = 0;
}

static void b64_end(struct b64 *b)
{
	static const char abc[] =
		"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	uint8_t b1 = b->nr > 1 ? b->in[1] : 0;
	char out[4];

	if (!b->nr)
		return;
	out[0] = abc[b->in[0] >> 2];
	out[1] = abc[(b->in[0] & 3) << 4 | b1 >> 4];
	out[2] = b->nr > 1 ? abc[(b1 & 15) << 2] : '=';
	out[3] = '=';
	ob_write(b->ob, out, 4);
	b->nr = 0;
}

/* LEB128: 7 bits a byte, low first; the page reads them back as doubles */
static void b64_varint(struct b64 *b, uint64_t v)
{
	while (v >= 0x80) {
		b64_put(b, (uint8_t)(v | 0x80));
		v >>= 7;
	}
	b64_put(b, (uint8_t)v);
}

static unsigned int varint_len(uint64_t v)
{
	unsigned int n = 1;

	while (v >= 0x80) {
		v >>= 7;
		n++;
	}
	return n;
}

/*
 * A node narrower than this share of its graph cannot be seen at full
 * width on any screen (a third of a pixel at 5400 pixels); its descendants
 * are marked so that the page can skip them until they are wanted.
 */
#define NARROW_SHARE 16384

#define KIND_SKIP 8 /* or-ed into the kind: the node's descendants can be skipped */

/*
 * One graph's nodes as base64 of LEB128 numbers, in preorder, five per node
 * (depth, name, kind, value, samples), seven with a baseline (then the
 * baseline's value + 1 and samples + 1, 0 where it has no such path). A
 * million samples with deep stacks make millions of nodes: as JSON arrays
 * their parse alone took longer than the page may take to open.
 *
 * Most of those nodes are too narrow to draw before one zooms in. The
 * outermost narrow node of a branch (its parent is wide) that has
 * descendants gets KIND_SKIP in its kind and two more numbers: the bytes
 * and the count of its descendants' records, which follow it. The page
 * draws its first picture from the rest, then reads everything.
 */
static int write_nodes(struct outbuf *ob, const struct flame_graph *g, const uint32_t *order,
		       const uint32_t *depth, bool diff)
{
	const struct flame_graph *b = g->baseline;
	struct b64 enc = { .ob = ob };
	uint64_t total = g->nodes[0].value;
	uint64_t *sub_bytes, *sub_nr;
	uint32_t *level;

	if (!g->nr) /* a graph has its root: never */
		return -EINVAL;
	sub_bytes = calloc(g->nr, sizeof(*sub_bytes));
	sub_nr = calloc(g->nr, sizeof(*sub_nr));
	level = malloc(g->nr * sizeof(*level));
	if (!sub_bytes || !sub_nr || !level) {
		free(sub_bytes);
		free(sub_nr);
		free(level);
		return -ENOMEM;
	}
	level[0] = 0;
	for (size_t i = 1; i < g->nr; i++)
		level[i] = level[g->nodes[i].parent] + 1;
	/* a parent comes before its children in the nodes' array */
	for (size_t i = g->nr; i-- > 1;) {
		const struct flame_node *n = &g->nodes[i];
		/* the kind fits a byte; skip numbers are never in a skipped record */
		uint64_t rec = varint_len(level[i]) + 1 + varint_len(n->name) + varint_len(n->value) +
			       varint_len(n->samples);

		if (diff)
			rec += n->base == FLAME_NONE ?
				       2 :
				       varint_len(b->nodes[n->base].value + 1) +
					       varint_len(b->nodes[n->base].samples + 1);
		sub_bytes[n->parent] += rec + sub_bytes[i];
		sub_nr[n->parent] += 1 + sub_nr[i];
	}
	ob_puts(ob, ",\"data\":\"");
	for (size_t i = 0; i < g->nr; i++) {
		uint32_t id = order[i];
		const struct flame_node *n = &g->nodes[id];
		bool skip = id && sub_nr[id] && n->value * NARROW_SHARE < total &&
			    g->nodes[n->parent].value * NARROW_SHARE >= total;

		b64_varint(&enc, depth[i]);
		b64_varint(&enc, n->name);
		b64_varint(&enc, n->kind | (skip ? KIND_SKIP : 0));
		b64_varint(&enc, n->value);
		b64_varint(&enc, n->samples);
		if (diff) {
			b64_varint(&enc, n->base == FLAME_NONE ? 0 : b->nodes[n->base].value + 1);
			b64_varint(&enc, n->base == FLAME_NONE ? 0 : b->nodes[n->base].samples + 1);
		}
		if (skip) {
			b64_varint(&enc, sub_bytes[id]);
			b64_varint(&enc, sub_nr[id]);
		}
	}
	b64_end(&enc);
	ob_putc(ob, '"');
	free(sub_bytes);
	free(sub_nr);
	free(level);
	return 0;
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
	ob_puts(ob, "{\"version\":2,\"title\":");
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
		uint32_t *order, *depth, max_depth;

		if (preorder(g, &order, &depth, &max_depth))
			return -ENOMEM;
		ob_puts(ob, i > set->first ? ",\n{\"event\":" : "\n{\"event\":");
		ob_json_string(ob, g->event);
		ob_printf(ob, ",\"nodes\":%zu,\"depth\":%" PRIu32, g->nr, max_depth);
		if (diff) {
			uint64_t bt = g->baseline ? g->baseline->nodes[0].value : 0;
			uint64_t bs = g->baseline ? g->baseline->nodes[0].samples : 0;

			ob_printf(ob, ",\"btotal\":%" PRIu64 ",\"bsamples\":%" PRIu64, bt, bs);
		}
		if (write_nodes(ob, g, order, depth, diff)) { /* -ENOMEM */
			free(order);
			free(depth);
			return -ENOMEM;
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

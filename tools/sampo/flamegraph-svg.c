// SPDX-License-Identifier: GPL-2.0
/*
 * flamegraph-svg.c - `sampo flamegraph -o OUT.svg`: the trees as one static
 * SVG, one graph per event under each other, roots at the bottom.
 *
 * As FlameGraph's SVGs: every frame is a <g> with a <title> (name, samples,
 * percent), which browsers show as a tooltip, a <rect> and its name cut to
 * the width. Frames narrower than a tenth of a pixel are left out. The
 * colours are the page's (flame_color(); red/blue by change with --diff).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "flamegraph.h"
#include "outbuf.h"

#define SVG_WIDTH 1200
#define SVG_PAD	  10
#define SVG_ROW	  17
#define SVG_HEAD  40  /* the title */
#define SVG_GHEAD 24  /* each graph's event line */
#define SVG_GAP	  16
#define MIN_WIDTH 0.1 /* px */
#define CHAR_W	  7.2 /* 12px monospace */

void ob_xml_text(struct outbuf *ob, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '<':
			ob_puts(ob, "&lt;");
			break;
		case '>':
			ob_puts(ob, "&gt;");
			break;
		case '&':
			ob_puts(ob, "&amp;");
			break;
		case '"':
			ob_puts(ob, "&quot;");
			break;
		default:
			/* XML 1.0 has no place for most control characters */
			ob_putc(ob, (unsigned char)*s < 0x20 ? '?' : *s);
		}
	}
}

static uint32_t fnv1a(const char *s)
{
	uint32_t h = 2166136261u;

	while (*s) {
		h ^= (unsigned char)*s++;
		h *= 16777619u;
	}
	return h;
}

/* the page's colour() for a normal graph: the same name, the same colour */
void flame_color(const char *name, enum flame_kind kind, char buf[8])
{
	uint32_t h = fnv1a(name);
	double v = (h & 0xffff) / 65536.0, w = (h >> 16) / 65536.0;
	int r, g, b;

	switch (kind) {
	case FLAME_ROOT:
		r = g = b = 200;
		break;
	case FLAME_COMM:
		r = 190 + (int)(20 * v + 0.5);
		g = 175 + (int)(20 * v + 0.5);
		b = 225;
		break;
	case FLAME_KERNEL:
		r = 50 + (int)(60 * v + 0.5);
		g = 165 + (int)(55 * v + 0.5);
		b = 165 + (int)(55 * w + 0.5);
		break;
	case FLAME_INLINED:
		r = 80 + (int)(50 * v + 0.5);
		g = 190 + (int)(50 * w + 0.5);
		b = 80 + (int)(50 * v + 0.5);
		break;
	default:
		r = 205 + (int)(50 * v + 0.5);
		g = (int)(230 * w + 0.5);
		b = (int)(55 * w + 0.5);
	}
	snprintf(buf, 8, "#%02x%02x%02x", r & 0xff, g & 0xff, b & 0xff);
}

static double share_delta(const struct flame_graph *g, const struct flame_node *n)
{
	const struct flame_graph *b = g->baseline;
	double now = g->nodes[0].value ? (double)n->value / (double)g->nodes[0].value : 0;
	double then = 0;

	if (b && n->base != FLAME_NONE && b->nodes[0].value)
		then = (double)b->nodes[n->base].value / (double)b->nodes[0].value;
	return now - then;
}

static void diff_color(double delta, double max, char buf[8])
{
	double t = max > 0 ? (delta < 0 ? -delta : delta) / max : 0;
	int c = (int)(235 - 195 * t + 0.5);

	if (delta > -1e-12 && delta < 1e-12)
		snprintf(buf, 8, "#e1e1e1");
	else if (delta > 0)
		snprintf(buf, 8, "#ff%02x%02x", c, c);
	else
		snprintf(buf, 8, "#%02x%02xff", c, c);
}

static void write_title(struct outbuf *ob, const struct flame_set *set, const struct flame_graph *g,
			const struct flame_node *n)
{
	double total = (double)g->nodes[0].value;

	ob_puts(ob, "<title>");
	ob_xml_text(ob, set->names[n->name]);
	if (!g->baseline) {
		ob_printf(ob, " (%" PRIu64 " samples, %.2f%%)</title>", n->samples,
			  total ? 100.0 * (double)n->value / total : 0.0);
		return;
	}
	{
		const struct flame_graph *b = g->baseline;
		const struct flame_node *bn = n->base != FLAME_NONE ? &b->nodes[n->base] : NULL;
		double btotal = (double)b->nodes[0].value;

		ob_printf(ob,
			  " (new: %" PRIu64 " samples, %.2f%%; baseline: %" PRIu64
			  " samples, %.2f%%; change: %+.2f points)</title>",
			  n->samples, total ? 100.0 * (double)n->value / total : 0.0,
			  bn ? bn->samples : 0,
			  bn && btotal ? 100.0 * (double)bn->value / btotal : 0.0,
			  100.0 * share_delta(g, n));
	}
}

static uint32_t graph_depth(const struct flame_graph *g, uint32_t *depth)
{
	uint32_t max = 0;

	/* a parent comes before its children */
	depth[0] = 0;
	for (size_t i = 1; i < g->nr; i++) {
		depth[i] = depth[g->nodes[i].parent] + 1;
		if (depth[i] > max)
			max = depth[i];
	}
	return max;
}

static int write_graph(struct outbuf *ob, const struct flame_set *set, const struct flame_graph *g,
		       int top, uint32_t *depth, double *x, uint32_t max_depth)
{
	double scale = (SVG_WIDTH - 2.0 * SVG_PAD) / (double)(g->nodes[0].value ? g->nodes[0].value : 1);
	double max_delta = 0;

	ob_printf(ob, "<text x=\"%d\" y=\"%d\" class=\"e\">", SVG_PAD, top + 16);
	ob_xml_text(ob, g->event);
	ob_printf(ob, ": %" PRIu64 " samples", g->nodes[0].samples);
	if (g->baseline)
		ob_printf(ob, " (baseline: %" PRIu64 " samples; red grew, blue shrank)",
			  g->baseline->nodes[0].samples);
	ob_puts(ob, "</text>\n");
	top += SVG_GHEAD;
	if (g->baseline) {
		for (size_t i = 0; i < g->nr; i++) {
			double d = share_delta(g, &g->nodes[i]);

			if ((d < 0 ? -d : d) > max_delta)
				max_delta = d < 0 ? -d : d;
		}
	}
	/* a node starts where its previous sibling ends: siblings in drawing order */
	x[0] = 0;
	for (size_t i = 0; i < g->nr; i++) {
		double next = x[i];

		for (uint32_t c = g->nodes[i].child; c != FLAME_NONE; c = g->nodes[c].sibling) {
			x[c] = next;
			next += (double)g->nodes[c].value;
		}
	}
	for (size_t i = 0; i < g->nr; i++) {
		const struct flame_node *n = &g->nodes[i];
		double w = (double)n->value * scale, px = SVG_PAD + x[i] * scale;
		int y = top + (int)(max_depth - depth[i]) * SVG_ROW;
		char color[8];
		size_t room, len;

		if (w < MIN_WIDTH)
			continue;
		if (g->baseline)
			diff_color(share_delta(g, n), max_delta, color);
		else
			flame_color(set->names[n->name], (enum flame_kind)n->kind, color);
		ob_puts(ob, "<g>");
		write_title(ob, set, g, n);
		ob_printf(ob,
			  "<rect x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"%s\" rx=\"2\"/>",
			  px, y, w, SVG_ROW - 1, color);
		room = w > 6 ? (size_t)((w - 6) / CHAR_W) : 0;
		len = strlen(set->names[n->name]);
		if (room >= 3) {
			char *t = strdup(set->names[n->name]);

			if (!t)
				return -1;
			if (len > room) {
				t[room - 2] = '.';
				t[room - 1] = '.';
				t[room] = '\0';
			}
			ob_printf(ob, "<text x=\"%.1f\" y=\"%d\">", px + 3, y + 12);
			ob_xml_text(ob, t);
			ob_puts(ob, "</text>");
			free(t);
		}
		ob_puts(ob, "</g>\n");
	}
	return 0;
}

int flame_write_svg(const struct flame_set *set, const char *title, struct outbuf *ob)
{
	int height = SVG_HEAD, top;
	size_t max_nr = 1;
	uint32_t *depth;
	double *x;
	int err = 0;

	for (size_t i = set->first; i < set->nr_graphs; i++)
		if (set->graphs[i].nr > max_nr)
			max_nr = set->graphs[i].nr;
	depth = malloc(max_nr * sizeof(*depth));
	x = malloc(max_nr * sizeof(*x));
	if (!depth || !x) {
		free(depth);
		free(x);
		return -1;
	}
	for (size_t i = set->first; i < set->nr_graphs; i++)
		height += SVG_GHEAD + (int)(graph_depth(&set->graphs[i], depth) + 1) * SVG_ROW +
			  SVG_GAP;
	ob_puts(ob, "<?xml version=\"1.0\" standalone=\"no\"?>\n");
	ob_printf(ob,
		  "<svg version=\"1.1\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
		  "xmlns=\"http://www.w3.org/2000/svg\">\n",
		  SVG_WIDTH, height, SVG_WIDTH, height);
	ob_puts(ob, "<style>text { font: 12px monospace; fill: #000; } "
		    ".t { font: 600 15px sans-serif; } .e { font: 13px sans-serif; }</style>\n");
	ob_puts(ob, "<rect width=\"100%\" height=\"100%\" fill=\"#fafafa\"/>\n");
	ob_printf(ob, "<text x=\"%d\" y=\"24\" class=\"t\" text-anchor=\"middle\">sampo flame graph: ",
		  SVG_WIDTH / 2);
	ob_xml_text(ob, title);
	ob_puts(ob, "</text>\n");
	top = SVG_HEAD;
	for (size_t i = set->first; i < set->nr_graphs && !err; i++) {
		const struct flame_graph *g = &set->graphs[i];
		uint32_t max_depth = graph_depth(g, depth);

		err = write_graph(ob, set, g, top, depth, x, max_depth);
		top += SVG_GHEAD + (int)(max_depth + 1) * SVG_ROW + SVG_GAP;
	}
	ob_puts(ob, "</svg>\n");
	free(depth);
	free(x);
	return err ? -12 : ob_error(ob);
}

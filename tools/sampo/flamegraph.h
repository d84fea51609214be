/* SPDX-License-Identifier: GPL-2.0 */
/*
 * flamegraph.h - the flame graphs of `sampo flamegraph`: one tree per event,
 * aggregated in C from the profile's distinct stacks, then written as one
 * self-contained HTML page (flamegraph-html.c) or a static SVG
 * (flamegraph-svg.c).
 *
 * A tree's root is "all"; its children are the commands, then the frames
 * from the outermost caller to the leaf. A node's value is the period of
 * the samples whose stack goes through it (what report's percentages are
 * made of); samples counts them. With a baseline (--diff), each node also
 * carries the baseline's figures for the same path of frames.
 */
#ifndef SAMPO_CLI_FLAMEGRAPH_H
#define SAMPO_CLI_FLAMEGRAPH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct profile;
struct outbuf;

enum flame_kind {
	FLAME_ROOT,
	FLAME_COMM,
	FLAME_KERNEL,
	FLAME_USER,
	FLAME_INLINED, /* a function inlined into the frame below it (DWARF inline chains) */
};

#define FLAME_NONE UINT32_MAX

struct flame_node {
	uint32_t name; /* index in flame_set.names */
	uint32_t parent, child, sibling;
	uint32_t base; /* the baseline's node on the same path, or FLAME_NONE */
	uint8_t kind;
	uint64_t value, samples;
};

struct flame_graph {
	char *event;
	struct flame_node *nodes; /* nodes[0] is the root; a parent before its children */
	size_t nr, cap;
	uint32_t *ix; /* (parent, name, kind) -> node + 1, open addressing */
	size_t ix_cap;
	const struct flame_graph *baseline; /* --diff: the baseline's graph of this event */
};

struct flame_set {
	char **names;
	size_t nr_names, cap_names;
	uint32_t *name_ix;
	size_t name_ix_cap;
	struct flame_graph *graphs;
	size_t nr_graphs;
	size_t first; /* the graphs drawn are graphs[first..]; with --diff the baseline's come before */
};

/* flame_set_add_profile() - one graph per event of @p that has samples. Return: 0 or -ENOMEM */
int flame_set_add_profile(struct flame_set *set, const struct profile *p);
/*
 * flame_set_diff() - the graphs before @nr_base are a baseline's, the rest
 * the new profile's: draw the new ones, each with its baseline (the event of
 * the same name, else the only one) and each node with its baseline node.
 * Names are shared, so paths compare by index.
 */
void flame_set_diff(struct flame_set *set, size_t nr_base);
void flame_set_release(struct flame_set *set);

/* flame_graph_sort() - children in name order (the order drawn, left to right) */
int flame_graph_sort(const struct flame_set *set, struct flame_graph *g);

/* a frame's colour in the normal (non-diff) view: "#rrggbb" into @buf[8] */
void flame_color(const char *name, enum flame_kind kind, char buf[8]);

/* the page and the picture; @title names the file(s) shown. Return: 0 or the outbuf's error */
int flame_write_html(const struct flame_set *set, const char *title, struct outbuf *ob);
int flame_write_svg(const struct flame_set *set, const char *title, struct outbuf *ob);

/* a JSON string (quotes included), with '<', '>' and '&' escaped so it can sit in a <script> */
void ob_json_string(struct outbuf *ob, const char *s);
/* XML text or attribute value */
void ob_xml_text(struct outbuf *ob, const char *s);

#endif /* SAMPO_CLI_FLAMEGRAPH_H */

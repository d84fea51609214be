// SPDX-License-Identifier: LGPL-2.1
/*
 * hist-print.c - the histograms printed as `perf report --stdio` prints
 * them (perf 6.1 ui/stdio/hist.c; call graphs as CHAIN_GRAPH_ABS, _REL,
 * FLAT and FOLDED print them).
 *
 * A table is its two header lines (the columns of the sort keys, each as
 * wide as its widest value, as hists__calc_col_len() makes them), then
 * every row in the order of sampo_hists__sort_entries(), each followed by
 * its call graph: branches under callchain_min_percent of the event's
 * total are left out, siblings come by cumulated hits, and a graph that is
 * a single chain carrying the whole entry is printed without percentages.
 * A one-value comm, dso or symbol filter hides its column (perf's
 * sort__setup_elide()) and gets a "# comm:"/"# dso:"/"# symbol:" line instead.
 * With graph_fractal (CHAIN_GRAPH_REL) each share and threshold is of the
 * parent's callees, and what the threshold hides is one "[...]" line.
 * With graph_folded (perf's CHAIN_FOLDED) the graph is instead one line per
 * node with hits of its own, "12.34% root;...;leaf", by those hits; with
 * graph_flat (CHAIN_FLAT) the same nodes, each a percentage of its hits
 * and its callees', then its chain a frame a line.
 *
 * Nothing here changes the histograms, except that printing is only
 * meaningful after sampo_hists__resort().
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sampo/hist.h>
#include <sampo/machine.h>
#include <sampo/symbol.h>
#include <sampo/symbol-filter.h>

#include "internal/callchain.h"
#include "internal/hist.h"
#include "internal/util.h"

struct column {
	enum sampo_sort_key key;
	const char *header;
	size_t width;
	const struct hist_tf *tf; /* SAMPO_SORT_TRACE_FIELD: its field */
	char **values;		  /* with tf: each entry's text, by entry index */
};

static const char *frame_name(const struct sampo_hists *h, uint32_t fidx, char *buf, size_t sz)
{
	const struct frame *f = &h->frames[fidx];

	if (f->inl_name) {
		/* perf's callchain_list__sym_name() */
		snprintf(buf, sz, "%s (inlined)", f->inl_name);
		return buf;
	}
	if (f->sym)
		return sampo_symbol__name(f->sym);
	snprintf(buf, sz, "%#" PRIx64, f->ip);
	return buf;
}

static void print_margin(FILE *fp, int left_margin)
{
	fprintf(fp, "%*s", 12 + left_margin, "");
}

static void print_graph_line(FILE *fp, int depth, uint64_t depth_mask, int left_margin)
{
	print_margin(fp, left_margin);
	for (int i = 0; i < depth; i++)
		fputs(depth_mask & (1ULL << i) ? "|          " : "           ", fp);
	fputc('\n', fp);
}

/* @name (a frame's, or "[...]") with the graph's bars, and @hits as a percentage on the first */
static void print_graph_entry(FILE *fp, const char *name, uint64_t hits, int depth,
			      uint64_t depth_mask, int period, uint64_t total, int left_margin)
{
	print_margin(fp, left_margin);
	for (int i = 0; i < depth; i++) {
		fputc(depth_mask & (1ULL << i) ? '|' : ' ', fp);
		if (!period && i == depth - 1)
			fprintf(fp, "--%.2f%%--", total ? hits * 100.0 / total : 0.0);
		else
			fputs("          ", fp);
	}
	fputs(name, fp);
	fputc('\n', fp);
}

/*
 * The threshold of @node's callees: with -g fractal a share of the node's
 * own callees (perf's __sort_chain_graph_rel(): ceil(children_hit * min)),
 * else @min_hit, a share of the event's total
 */
static uint64_t graph_min_hit(const struct sampo_hists *h, const struct callchain_node *node,
			      uint64_t min_hit)
{
	double v;
	uint64_t up;

	if (!h->opts.graph_fractal)
		return min_hit;
	v = (double)node->children_hit * (h->opts.callchain_min_percent / 100.0);
	up = (uint64_t)v;
	return (double)up < v ? up + 1 : up;
}

/*
 * perf's __callchain__fprintf_graph(): @root's callees over @total, each
 * with its own callees under it. With -g fractal (CHAIN_GRAPH_REL) the
 * total of a node's callees is their own children_hit, and what the
 * threshold left out is one "[...]" line (its share) after them.
 */
static size_t print_graph(const struct sampo_hists *h, FILE *fp, const struct callchain_node *root,
			  uint64_t total, uint64_t min_hit, int depth, uint64_t depth_mask,
			  int left_margin)
{
	bool fractal = h->opts.graph_fractal;
	struct callchain_node **kids;
	size_t nr = sampo_callchain__sorted_children(root, graph_min_hit(h, root, min_hit), &kids);
	size_t printed = 0;
	uint64_t new_mask = depth_mask, remaining = total;
	char buf[512];

	for (size_t c = 0; c < nr; c++)
		remaining -= MIN(remaining, callchain_cumul(kids[c]));
	for (size_t c = 0; c < nr; c++) {
		const struct callchain_node *child = kids[c];

		/* the last callee closes its bar, unless "[...]" comes after it */
		if (c + 1 == nr && depth > 0 && (!fractal || !remaining))
			new_mask &= ~(1ULL << (depth - 1));
		print_graph_line(fp, depth, depth_mask, left_margin);
		for (uint32_t i = 0; i < child->val_nr; i++) {
			const char *name =
				frame_name(h, h->arena[child->val_off + i], buf, sizeof(buf));

			print_graph_entry(fp, name, callchain_cumul(child), depth, new_mask, (int)i,
					  total, left_margin);
		}
		printed++;
		printed += print_graph(h, fp, child, fractal ? child->children_hit : total, min_hit,
				       depth + 1, new_mask | (depth < 63 ? 1ULL << depth : 0),
				       left_margin);
	}
	free(kids);
	if (fractal && remaining && remaining != total) {
		if (depth > 0)
			new_mask &= ~(1ULL << (depth - 1));
		print_graph_entry(fp, "[...]", remaining, depth, new_mask, 0, total, left_margin);
		printed++;
	}
	return printed;
}

/* perf's callchain__fprintf_graph() */
static void print_callchain(const struct sampo_hists *h, FILE *fp, const struct sampo_hist_entry *e,
			    uint64_t total, uint64_t min_hit)
{
	uint64_t parent_samples = h->opts.children ? e->period_acc : e->period;
	const struct callchain_node *root = &e->root;
	struct callchain_node **kids;
	size_t nr = sampo_callchain__sorted_children(root, graph_min_hit(h, root, min_hit), &kids);
	size_t printed = 0;
	int left_margin = 0;
	char buf[512];

	if (nr == 1 && callchain_cumul(kids[0]) == parent_samples) {
		const struct callchain_node *c = kids[0];
		bool started = false;

		for (uint32_t i = 0; i < c->val_nr; i++) {
			/* with --sort sym... the first entry is the entry itself */
			if (!i && h->keys[0] == SAMPO_SORT_SYM)
				continue;
			if (!started) {
				print_margin(fp, left_margin);
				fputs("|\n", fp);
				print_margin(fp, left_margin);
				fputs("---", fp);
				left_margin += 3;
				started = true;
			} else {
				print_margin(fp, left_margin);
			}
			fprintf(fp, "%s\n",
				frame_name(h, h->arena[c->val_off + i], buf, sizeof(buf)));
			printed++;
		}
		root = c;
	}
	free(kids);
	/* -g fractal: the first callees are shares of the entry */
	printed += print_graph(h, fp, root, h->opts.graph_fractal ? parent_samples : total, min_hit,
			       1, 1, left_margin);
	if (printed)
		fputc('\n', fp);
}

/*
 * The folded lines of an entry: each node with hits of its own and the path
 * of nodes from the entry's root down to it (kept here rather than followed
 * up the parent pointers: the root is embedded in the entry, and the entries
 * may have moved since the trie was built).
 */
struct folded_line {
	const struct callchain_node *node;
	size_t path_off, path_nr; /* in folded_lines.path */
};

struct folded_lines {
	struct folded_line *v;
	size_t nr, cap;
	const struct callchain_node **path;
	size_t path_nr, path_cap;
	const struct callchain_node **stack; /* the nodes above the current one */
	size_t depth, stack_cap;
	bool oom;
};

static bool grow(void **p, size_t *cap, size_t need, size_t elem)
{
	size_t n = *cap ? *cap : 16;
	void *q;

	if (need <= *cap)
		return true;
	while (n < need)
		n *= 2;
	q = realloc(*p, n * elem);
	if (!q)
		return false;
	*p = q;
	*cap = n;
	return true;
}

/* perf's __sort_chain_flat(): the children first, in trie order, then @n */
static void collect_folded(const struct callchain_node *n, uint64_t min_hit,
			   struct folded_lines *out)
{
	if (out->oom || !grow((void **)&out->stack, &out->stack_cap, out->depth + 1,
			      sizeof(*out->stack))) {
		out->oom = true;
		return;
	}
	out->stack[out->depth++] = n;
	for (uint32_t i = 0; i < n->nr_children; i++)
		collect_folded(n->children[i], min_hit, out);
	out->depth--;
	if (!n->hit || n->hit < min_hit || out->oom)
		return;
	if (!grow((void **)&out->v, &out->cap, out->nr + 1, sizeof(*out->v)) ||
	    !grow((void **)&out->path, &out->path_cap, out->path_nr + out->depth + 1,
		  sizeof(*out->path))) {
		out->oom = true;
		return;
	}
	out->v[out->nr++] = (struct folded_line){ .node = n,
						  .path_off = out->path_nr,
						  .path_nr = out->depth + 1 };
	memcpy(out->path + out->path_nr, out->stack, out->depth * sizeof(*out->path));
	out->path[out->path_nr + out->depth] = n;
	out->path_nr += out->depth + 1;
}

/*
 * perf's callchain__fprintf_folded() and callchain__fprintf_flat(): the
 * nodes with samples of their own by those samples (sort_chain_flat()),
 * ties in the order collected. Folded: "VALUE root;...;leaf", the node's
 * own samples. Flat: the node and its callees' samples as a percentage
 * (callchain_node__fprintf_value()), then a frame a line, then a blank one.
 */
static void print_folded(const struct sampo_hists *h, FILE *fp, const struct sampo_hist_entry *e,
			 uint64_t total, uint64_t min_hit)
{
	struct folded_lines lines = { 0 };
	char buf[512];

	collect_folded(&e->root, min_hit, &lines);
	/* insertion sort: stable, as perf's rb-tree keeps equal hits in insertion order */
	for (size_t i = 1; i < lines.nr; i++) {
		struct folded_line x = lines.v[i];
		size_t j = i;

		while (j > 0 && lines.v[j - 1].node->hit < x.node->hit) {
			lines.v[j] = lines.v[j - 1];
			j--;
		}
		lines.v[j] = x;
	}
	for (size_t i = 0; i < lines.nr && !lines.oom; i++) {
		const struct folded_line *l = &lines.v[i];
		uint64_t hits = h->opts.graph_flat ? callchain_cumul(l->node) : l->node->hit;
		bool first = true;

		if (h->opts.graph_flat)
			fputs("           ", fp);
		if (h->opts.graph_period)
			fprintf(fp, "%" PRIu64, hits);
		else
			fprintf(fp, "%.2f%%", total ? hits * 100.0 / total : 0.0);
		fputc(h->opts.graph_flat ? '\n' : ' ', fp);
		for (size_t k = 0; k < l->path_nr; k++) {
			const struct callchain_node *n = lines.path[l->path_off + k];

			for (uint32_t f = 0; f < n->val_nr; f++) {
				const char *name =
					frame_name(h, h->arena[n->val_off + f], buf, sizeof(buf));

				if (h->opts.graph_flat)
					fprintf(fp, "                %s\n", name);
				else
					fprintf(fp, "%s%s", first ? "" : ";", name);
				first = false;
			}
		}
		fputc('\n', fp);
	}
	free(lines.v);
	free(lines.path);
	free(lines.stack);
}

static size_t entry_sym_width(const struct frame *f)
{
	if (f->inl_name)
		return strlen(f->inl_name) + 4;
	if (f->sym)
		return strlen(sampo_symbol__name(f->sym)) + 4;
	return 16 + 4 + 2;
}

static void print_dots(FILE *fp, int n)
{
	for (int k = 0; k < n; k++)
		fputc('.', fp);
}

enum value_kind { VALUE_CHILDREN, VALUE_SELF, VALUE_SAMPLES };

/*
 * One column of hpp values (perf's __hpp__fmt()): "  " then the entry's
 * value, and in the group view each member's (its share of the member's
 * total; 0 for a member without this key) after the leader's
 */
static void print_values(const struct sampo_hists *h, const struct evhists *ev,
			 const struct sampo_hist_entry *e, FILE *fp, enum value_kind kind)
{
	uint32_t nr = ev->group_nr > 1 ? ev->group_nr : 1;

	fputs("  ", fp);
	for (uint32_t m = 0; m < nr; m++) {
		const struct sampo_hist_entry *p = m ? sampo_hists__group_pair(h, ev, e, m) : e;
		uint64_t total = sampo_hists__ev_total(h, &h->ev[(size_t)(ev - h->ev) + m]);
		uint64_t v = 0;

		if (kind == VALUE_SAMPLES) {
			fprintf(fp, " %11" PRIu64, p ? p->nr_samples : 0);
			continue;
		}
		if (p)
			v = kind == VALUE_CHILDREN ? p->period_acc : p->period;
		fprintf(fp, " %6.2f%%", total ? v * 100.0 / total : 0.0);
	}
}

/* perf's sort__setup_elide(): a one-value filter's key gets no column... */
static bool key_elided(const struct sampo_hists *h, enum sampo_sort_key key)
{
	return (key == SAMPO_SORT_COMM && h->nr_comm_filter == 1) ||
	       (key == SAMPO_SORT_DSO && h->nr_dso_filter == 1) ||
	       (key == SAMPO_SORT_SYM && sampo_symbol_filter__only_name(h->sym_filter));
}

/* ...unless every key would lose its column: then none does */
static bool all_keys_elided(const struct sampo_hists *h)
{
	for (size_t i = 0; i < h->nr_keys; i++)
		if (!key_elided(h, h->keys[i]))
			return false;
	return true;
}

/* perf's sort__setup_elide(): for each sort key in order, its one-value filter */
void sampo_hists__fprintf_filters(const struct sampo_hists *h, FILE *fp)
{
	for (size_t i = 0; i < h->nr_keys; i++) {
		if (h->keys[i] == SAMPO_SORT_COMM && h->nr_comm_filter == 1)
			fprintf(fp, "# comm: %s\n", h->comm_filter[0]);
		else if (h->keys[i] == SAMPO_SORT_DSO && h->nr_dso_filter == 1)
			fprintf(fp, "# dso: %s\n", h->dso_filter[0]);
		else if (h->keys[i] == SAMPO_SORT_SYM &&
			 sampo_symbol_filter__only_name(h->sym_filter))
			fprintf(fp, "# symbol: %s\n",
				sampo_symbol_filter__only_name(h->sym_filter));
	}
}

/* qsort_r(): by the keys before the field, then in the order the entries were made */
struct prefix_order {
	const struct sampo_hists *h;
	size_t nr_keys;
};

static int prefix_cmp(const void *pa, const void *pb, void *arg)
{
	const struct prefix_order *o = arg;
	const struct sampo_hist_entry *a = *(const struct sampo_hist_entry *const *)pa;
	const struct sampo_hist_entry *b = *(const struct sampo_hist_entry *const *)pb;
	int c = sampo_hist_entry__collapse_cmp(a, b, o->h->keys, o->nr_keys);

	return c ? c : (a < b ? -1 : a > b);
}

/*
 * perf's hde->dynamic_len of a dynamic field (__data_loc), the field key
 * at @key_pos: the greatest length of the field's bytes among the samples
 * whose comparison reached the key as perf added them to its tree
 * (__sort__hde_cmp()). A sample joining an entry reached it; the sample
 * that made an entry reached it when an entry made before had the same
 * keys before the field (in a binary tree a new leaf's neighbours in order
 * are on its path, and those entries are its neighbours); so did the check
 * of a chain's frames against the sample's entries (entry.tf_reached). An
 * entry's samples have its bytes.
 */
static int dynamic_len(const struct sampo_hists *h, const struct evhists *ev, size_t key_pos,
		       const struct hist_tf *tf, size_t *ret)
{
	struct prefix_order o = { .h = h, .nr_keys = key_pos };
	size_t t = (size_t)(tf - h->tf);
	uint64_t tf_bit = t < 64 ? 1ULL << t : UINT64_MAX; /* past 64: any reached */
	const struct sampo_hist_entry **in;
	size_t len = 0;

	*ret = 0;
	if (!tf->field.is_dynamic || !ev->nr_entries)
		return 0;
	in = malloc(ev->nr_entries * sizeof(*in));
	if (!in)
		return -ENOMEM;
	for (size_t i = 0; i < ev->nr_entries; i++)
		in[i] = &ev->entries[i];
	qsort_r(in, ev->nr_entries, sizeof(*in), prefix_cmp, &o);
	for (size_t i = 0; i < ev->nr_entries; i++) {
		const struct sampo_hist_entry *e = in[i];
		bool first_of_prefix =
			!i || sampo_hist_entry__collapse_cmp(in[i - 1], e, h->keys, key_pos);
		uint32_t n;

		if (!e->key.tf ||
		    (first_of_prefix && e->nr_adds < 2 && !(e->tf_reached & tf_bit)))
			continue;
		hist_tf__segment(e->key.tf, tf->seg, &n);
		len = MAX(len, (size_t)n);
	}
	free(in);
	*ret = len;
	return 0;
}

/*
 * A trace field's column (perf's hde_width() after output_resort()): each
 * entry's text, and the width, the greatest of the field name's length,
 * its size (as hex digits and "0x" for a number), dynamic_len(), and the
 * lengths of the values found in the print format's text.
 */
static int trace_field_column(const struct sampo_hists *h, const struct evhists *ev,
			      size_t key_pos, struct column *c)
{
	const struct hist_tf *tf = c->tf;
	size_t len, fieldlen;
	int err = dynamic_len(h, ev, key_pos, tf, &len);

	if (err)
		return err;
	c->values = calloc(ev->nr_entries ? ev->nr_entries : 1, sizeof(*c->values));
	if (!c->values)
		return -ENOMEM;
	for (size_t i = 0; i < ev->nr_entries; i++) {
		const struct sampo_hist_entry *e = &ev->entries[i];
		bool from_text;

		if (!e->tf_raw)
			continue;
		err = sampo_hists__trace_field_text(h, tf, e->tf_raw, &c->values[i], &from_text);
		if (err == -ENOMEM)
			return err;
		/* update_dynamic_len(): only a value from the text counts */
		if (c->values[i] && from_text && strlen(c->values[i]) > len)
			len = strlen(c->values[i]);
	}
	fieldlen = tf->field.is_string ? tf->field.size : (size_t)tf->field.size * 2 + 2;
	c->width = MAX(len, MAX(strlen(tf->name), fieldlen));
	return 0;
}

static void free_columns(struct column *cols, size_t nr_cols, size_t nr_entries)
{
	for (size_t j = 0; j < nr_cols; j++) {
		for (size_t i = 0; cols[j].values && i < nr_entries; i++)
			free(cols[j].values[i]);
		free(cols[j].values);
	}
	free(cols);
}

int sampo_hists__fprintf(struct sampo_hists *h, int evsel, FILE *fp)
{
	struct evhists *ev;
	struct column *cols;
	size_t nr_cols = 0;
	uint64_t total, min_hit;
	bool unresolved = false, all_elided = all_keys_elided(h);
	int nr_shown, pct_w, nr_w, err = 0;

	if (evsel < 0 || (size_t)evsel >= h->nr_ev)
		return 0;
	ev = &h->ev[evsel];
	cols = calloc(h->nr_keys ? h->nr_keys : 1, sizeof(*cols));
	if (!cols)
		return -ENOMEM;
	/*
	 * the rows' shares, the threshold of the graphs and the limit are of
	 * what the filters keep with --percentage relative; the graphs' shares
	 * stay of every sample (perf's hists->stats.total_period)
	 */
	total = sampo_hists__ev_total(h, ev);
	nr_shown = ev->group_nr > 1 ? (int)ev->group_nr : 1;
	pct_w = 8 * nr_shown;
	nr_w = 12 * nr_shown;
	min_hit = (uint64_t)((double)total * (h->opts.callchain_min_percent / 100.0));

	for (size_t i = 0; i < h->nr_keys; i++) {
		struct column *c;

		/* perf's sort__setup_elide(): a one-value filter hides its column */
		if (key_elided(h, h->keys[i]) && !all_elided)
			continue;
		/* another event's trace field has no column here */
		if (h->keys[i] == SAMPO_SORT_TRACE_FIELD &&
		    (h->tf[h->key_tf[i]].evsel != evsel || !h->tf[h->key_tf[i]].resolved))
			continue;
		c = &cols[nr_cols++];
		c->key = h->keys[i];
		switch (c->key) {
		case SAMPO_SORT_COMM:
			c->header = "Command";
			break;
		case SAMPO_SORT_PID:
		case SAMPO_SORT_TID: /* stored as SAMPO_SORT_PID */
			c->header = "    Pid:Command";
			break;
		case SAMPO_SORT_DSO:
			c->header = "Shared Object";
			break;
		case SAMPO_SORT_SYM:
			c->header = "Symbol";
			break;
		case SAMPO_SORT_CPU:
			c->header = "CPU";
			break;
		case SAMPO_SORT_SRCLINE:
			c->header = "Source:Line";
			break;
		case SAMPO_SORT_SRCFILE:
			c->header = "Source File";
			break;
		case SAMPO_SORT_TRACE:
			c->header = "Trace output";
			break;
		case SAMPO_SORT_TRACE_FIELD:
			c->tf = &h->tf[h->key_tf[i]];
			c->header = c->tf->name;
			break;
		}
		c->width = strlen(c->header);
		if (c->tf) {
			err = trace_field_column(h, ev, i, c);
			if (err)
				goto out;
		}
	}
	/* hists__calc_col_len() over every entry */
	for (size_t i = 0; i < ev->nr_entries; i++) {
		const struct sampo_hist_entry *e = &ev->entries[i];
		const struct frame *f = &h->frames[e->frame];
		size_t comm_len = strlen(sampo_thread__comm(e->thread));

		if (e->filtered)
			continue;
		if (!f->sym)
			unresolved = true;
		for (size_t j = 0; j < nr_cols; j++) {
			size_t w = 0;

			switch (cols[j].key) {
			case SAMPO_SORT_COMM:
				w = comm_len;
				break;
			case SAMPO_SORT_PID:
			case SAMPO_SORT_TID: /* stored as SAMPO_SORT_PID */
				w = comm_len + 8;
				break;
			case SAMPO_SORT_DSO:
				w = f->dso_name ? strlen(f->dso_name) : 0;
				break;
			case SAMPO_SORT_SYM:
				w = entry_sym_width(f);
				break;
			case SAMPO_SORT_CPU:
				break;
			case SAMPO_SORT_SRCLINE: /* as far as perf had computed it */
				w = e->src_width & 1 ? strlen(e->key.srcline) : 0;
				break;
			case SAMPO_SORT_SRCFILE:
				w = e->src_width & 2 ? strlen(e->key.srcfile) : 0;
				break;
			case SAMPO_SORT_TRACE: /* likewise; "N/A" is not measured */
				w = e->src_width & 4 && e->key.trace ? strlen(e->key.trace) : 0;
				break;
			case SAMPO_SORT_TRACE_FIELD: /* trace_field_column() */
				break;
			}
			if (w > cols[j].width)
				cols[j].width = w;
		}
	}
	for (size_t j = 0; j < nr_cols; j++)
		if (unresolved && cols[j].key == SAMPO_SORT_DSO && cols[j].width < 16)
			cols[j].width = 16; /* hists__set_unres_dso_col_len() */

	/*
	 * the header: perf's hpp columns are right-aligned, 8 wide (Samples
	 * 12) per event shown, so the group view widens them (hpp__width_fn())
	 */
	fputs("# ", fp);
	if (h->opts.children)
		fprintf(fp, "%*s  %*s", pct_w, "Children", pct_w, "Self");
	else
		fprintf(fp, "%*s", pct_w, "Overhead");
	if (h->opts.show_nr_samples)
		fprintf(fp, "  %*s", nr_w, "Samples");
	for (size_t j = 0; j < nr_cols; j++) {
		int w = (int)cols[j].width;

		/* a trace field's header is right-aligned, cut to the width (__sort__hde_header()) */
		if (cols[j].tf)
			fprintf(fp, "  %*.*s", w, w, cols[j].header);
		else
			fprintf(fp, "  %-*s", w, cols[j].header);
	}
	fputs("\n# ", fp);
	print_dots(fp, pct_w);
	if (h->opts.children) {
		fputs("  ", fp);
		print_dots(fp, pct_w);
	}
	if (h->opts.show_nr_samples) {
		fputs("  ", fp);
		print_dots(fp, nr_w);
	}
	for (size_t j = 0; j < nr_cols; j++) {
		fputs("  ", fp);
		print_dots(fp, (int)cols[j].width);
	}
	fputs("\n#\n", fp);

	for (size_t i = 0; i < ev->nr_entries; i++) {
		const struct sampo_hist_entry *e = ev->sorted[i];
		const struct frame *f = &h->frames[e->frame];
		uint64_t shown = h->opts.children ? e->period_acc : e->period;
		double pct = total ? shown * 100.0 / total : 0.0;

		if (e->filtered || pct < h->opts.percent_limit)
			continue;
		if (h->opts.children)
			print_values(h, ev, e, fp, VALUE_CHILDREN);
		print_values(h, ev, e, fp, VALUE_SELF);
		if (h->opts.show_nr_samples)
			print_values(h, ev, e, fp, VALUE_SAMPLES);
		for (size_t j = 0; j < nr_cols; j++) {
			bool last = j + 1 == nr_cols;
			int w = (int)cols[j].width;
			char buf[64];

			fputs("  ", fp);
			switch (cols[j].key) {
			case SAMPO_SORT_COMM:
				fprintf(fp, "%-*.*s", w, w, e->key.comm);
				break;
			case SAMPO_SORT_PID:
			case SAMPO_SORT_TID: /* stored as SAMPO_SORT_PID */ {
				int cw = w > 8 ? w - 8 : 0;

				fprintf(fp, "%7d:%-*.*s", (int)sampo_thread__tid(e->thread), cw, cw,
					sampo_thread__comm(e->thread));
				break;
			}
			case SAMPO_SORT_DSO:
				fprintf(fp, "%-*.*s", w, w,
					f->dso_name ? f->dso_name : "[unknown]");
				break;
			case SAMPO_SORT_SYM: {
				int n;

				if (f->inl_name) {
					/* the name cut to the column, then the mark */
					n = fprintf(fp, "[%c] %.*s (inlined)", e->level,
						    w > 4 ? w - 4 : 0, f->inl_name);
				} else if (f->sym) {
					n = fprintf(fp, "[%c] %.*s", e->level, w > 4 ? w - 4 : 0,
						    sampo_symbol__name(f->sym));
				} else {
					snprintf(buf, sizeof(buf), "[%c] %-#.*" PRIx64, e->level,
						 16, e->key.ip);
					n = fprintf(fp, "%s", buf);
				}
				if (!last && n < w)
					fprintf(fp, "%*s", w - n, "");
				break;
			}
			case SAMPO_SORT_CPU:
				fprintf(fp, "%*.*d", w, w, (int)e->key.cpu);
				break;
			case SAMPO_SORT_SRCLINE:
			case SAMPO_SORT_SRCFILE:
			case SAMPO_SORT_TRACE: {
				/* "%-.*s": padded by the next column, not at the end */
				const char *v = cols[j].key == SAMPO_SORT_SRCLINE ? e->key.srcline :
						cols[j].key == SAMPO_SORT_SRCFILE ? e->key.srcfile :
						e->key.trace ? e->key.trace : "N/A";
				int n = fprintf(fp, "%.*s", w, v);

				if (!last && n < w)
					fprintf(fp, "%*s", w - n, "");
				break;
			}
			case SAMPO_SORT_TRACE_FIELD: {
				const char *v = cols[j].values[e - ev->entries];

				fprintf(fp, "%*.*s", w, w, v ? v : "");
				break;
			}
			}
		}
		fputc('\n', fp);
		if (h->opts.callchain && !h->opts.no_graph &&
		    (h->opts.graph_folded || h->opts.graph_flat))
			print_folded(h, fp, e, ev->total_period, min_hit);
		else if (h->opts.callchain && !h->opts.no_graph)
			print_callchain(h, fp, e, ev->total_period, min_hit);
	}
	if (ferror(fp))
		err = -EIO;
out:
	free_columns(cols, nr_cols, ev->nr_entries);
	return err;
}

// SPDX-License-Identifier: LGPL-2.1
/*
 * hist-sort.c - the sort keys of the histograms and the orders they give
 * (perf 6.1 util/sort.c and the output_resort() of util/hist.c).
 *
 * Keys: perf's -s names (sampo_sort_keys__parse()) and their enum.
 *
 * Rows: perf sorts twice. Entries first sit in a tree ordered by
 * hist_entry__cmp() over the sort keys (collapse_cmp() here, a total
 * order, except that unresolved addresses 2^63 or more apart compare by
 * the sign of their int64_t difference as in perf, which is not transitive:
 * perf's tree then depends on arrival order, which qsort_r() does not
 * replay; see docs/report-differences.md); output_resort() then inserts them, in that order, into an
 * rb-tree ordered by hist_entry__sort() (perf_sort() here: period first,
 * then the keys). perf_sort() is not a total order (the caller-above-callee
 * rule of children mode only compares entries of one thread), so the rows
 * depend on the insertion order and on the shape of the kernel's rb-tree:
 * sampo_hists__sort_entries() replays both, the tree balanced exactly as
 * the kernel's rbtree.h balances it.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sampo/hist.h>
#include <sampo/symbol.h>

#include "internal/hist.h"
#include "internal/util.h"

/* ---- sort keys ------------------------------------------------------------ */

static void set_err(char *buf, size_t sz, const char *fmt, ...) SAMPO_PRINTF(3, 4);
static void set_err(char *buf, size_t sz, const char *fmt, ...)
{
	va_list ap;

	if (!buf || !sz)
		return;
	va_start(ap, fmt);
	vsnprintf(buf, sz, fmt, ap);
	va_end(ap);
}

static const char *const sort_key_names[] = {
	[SAMPO_SORT_COMM] = "comm",
	[SAMPO_SORT_PID] = "pid",
	[SAMPO_SORT_TID] = "tid",
	[SAMPO_SORT_DSO] = "dso",
	[SAMPO_SORT_SYM] = "sym",
	[SAMPO_SORT_CPU] = "cpu",
	[SAMPO_SORT_SRCLINE] = "srcline",
	[SAMPO_SORT_SRCFILE] = "srcfile",
	[SAMPO_SORT_TRACE] = "trace",
	/* not a word of -s: the program resolves field names against the events */
	[SAMPO_SORT_TRACE_FIELD] = "trace_field",
};

const char *sampo_sort_key__name(enum sampo_sort_key key)
{
	return (unsigned int)key < ARRAY_SIZE(sort_key_names) ? sort_key_names[key] : NULL;
}

static bool sort_key_word(const char *w, size_t len, enum sampo_sort_key *ret)
{
	if (len == 6 && !strncmp(w, "symbol", 6)) {
		*ret = SAMPO_SORT_SYM;
		return true;
	}
	for (size_t k = 0; k < SAMPO_SORT_TRACE_FIELD; k++) {
		if (strlen(sort_key_names[k]) == len && !strncmp(w, sort_key_names[k], len)) {
			*ret = (enum sampo_sort_key)k;
			return true;
		}
	}
	return false;
}

int sampo_sort_keys__parse(const char *list, enum sampo_sort_key *keys, size_t max_keys,
			   size_t *ret_nr, char *errbuf, size_t errbuf_sz)
{
	size_t nr = 0, nr_words = 0;
	const char *p = list;

	while (*p) {
		size_t len = strcspn(p, ",");
		enum sampo_sort_key k;
		bool dup = false;

		if (len) {
			nr_words++;
			if (!sort_key_word(p, len, &k)) {
				set_err(errbuf, errbuf_sz,
					"unknown sort key '%.*s' (known: comm, pid, tid, dso, sym, cpu, srcline, srcfile, trace)",
					(int)len, p);
				return -EINVAL;
			}
			/* perf ignores a repeated key */
			for (size_t i = 0; i < nr && !dup; i++)
				dup = sort_key_canon(keys[i]) == sort_key_canon(k);
			if (!dup) {
				if (nr == max_keys) {
					set_err(errbuf, errbuf_sz, "more than %zu sort keys",
						max_keys);
					return -EINVAL;
				}
				keys[nr++] = k;
			}
		}
		p += len;
		if (*p == ',')
			p++;
	}
	if (!nr_words) {
		set_err(errbuf, errbuf_sz, "empty sort key list");
		return -EINVAL;
	}
	*ret_nr = nr;
	return 0;
}

/* ---- the order of rows ------------------------------------------------------ */

/*
 * perf's hist_entry__sort(): > 0 when @a goes before @b in the output. It is
 * not a total order (the caller-above-callee rule only compares entries of
 * one thread), so the final order depends on the order of insertion and on
 * the shape of perf's rb-tree; sort_entries() replays both.
 */
static int perf_sort(const struct sampo_hists *h, const struct evhists *ev,
		     const struct sampo_hist_entry *a, const struct sampo_hist_entry *b)
{
	int c;

	if (h->opts.children) {
		if (a->period_acc != b->period_acc)
			return a->period_acc > b->period_acc ? 1 : -1;
		/* __hpp__sort_acc(): put the caller above the callee */
		if (a->thread == b->thread && h->opts.callchain && !h->opts.no_graph &&
		    a->max_depth != b->max_depth) {
			c = b->max_depth > a->max_depth ? 1 : -1;
			return h->opts.caller_order ? -c : c;
		}
	}
	if (a->period != b->period)
		return a->period > b->period ? 1 : -1;
	/* the group view: then the members' periods (__hpp__sort()) */
	if (ev->group_nr > 1) {
		c = sampo_hists__group_cmp(h, ev, a, b);
		if (c)
			return c;
	}
	return sampo_hist_entry__sort_keys(a, b, h->keys, h->nr_keys);
}

/*
 * perf 6.1's sort__trace_cmp(), its se_cmp and se_sort: strcmp(right,
 * left) of the trace outputs; entries of other events (NULL) all equal
 */
static int trace_cmp(const char *a, const char *b)
{
	if (a == b || !a || !b)
		return 0;
	return strcmp(b, a);
}

/*
 * The trace field of sort key *@key, which points into @e's hists' keys;
 * NULL for another array (a diff's keys, which have no trace field). The
 * addresses are compared as integers: @key may be in another array.
 */
static const struct hist_tf *key_field(const struct sampo_hist_entry *e,
				       const enum sampo_sort_key *key)
{
	const struct sampo_hists *h = e->hists;
	uintptr_t at = (uintptr_t)key, lo = (uintptr_t)h->keys;

	if (at < lo || at >= lo + h->nr_keys * sizeof(*key))
		return NULL;
	return &h->tf[h->key_tf[(at - lo) / sizeof(*key)]];
}

/*
 * perf's __sort__hde_cmp(), its se_cmp and se_sort: memcmp() of the
 * field's bytes (a dynamic one's, with their length). Only entries of
 * the field's event compare: perf skips the keys of other events
 * (perf_hpp__defined_dynamic_entry()).
 */
static int trace_field_cmp(const struct sampo_hist_entry *a, const struct sampo_hist_entry *b,
			   const enum sampo_sort_key *key)
{
	const struct hist_tf *tf = key_field(a, key);
	const uint8_t *x, *y;
	uint32_t lx, ly;
	int c;

	if (!tf || (int)a->evsel != tf->evsel || (int)b->evsel != tf->evsel || !a->key.tf ||
	    !b->key.tf || a->key.tf == b->key.tf)
		return 0;
	x = hist_tf__segment(a->key.tf, tf->seg, &lx);
	y = hist_tf__segment(b->key.tf, tf->seg, &ly);
	c = memcmp(x, y, MIN(lx, ly));
	if (!c)
		c = lx < ly ? -1 : lx > ly;
	return c < 0 ? -1 : c > 0;
}

/*
 * the sort keys' part of hist_entry__sort() (their se_sort, else se_cmp):
 * > 0 when @a goes first; @a and @b may come from different histograms
 */
int sampo_hist_entry__sort_keys(const struct sampo_hist_entry *a, const struct sampo_hist_entry *b,
				const enum sampo_sort_key *keys, size_t nr_keys)
{
	const struct frame *fa = &a->hists->frames[a->frame], *fb = &b->hists->frames[b->frame];
	int c;

	for (size_t i = 0; i < nr_keys; i++) {
		switch (keys[i]) {
		case SAMPO_SORT_COMM: /* interned: equal pointers, equal strings */
			c = a->key.comm == b->key.comm ? 0 : strcmp(b->key.comm, a->key.comm);
			break;
		case SAMPO_SORT_PID:
		case SAMPO_SORT_TID: /* stored as SAMPO_SORT_PID */
			c = b->key.tid > a->key.tid ? 1 : -(b->key.tid < a->key.tid);
			break;
		case SAMPO_SORT_DSO:
			/* a missing name goes last */
			c = fa->dso_name == fb->dso_name ?
				    0 :
			    (!fa->dso_name || !fb->dso_name) ?
				    (fa->dso_name ? 1 : (fb->dso_name ? -1 : 0)) :
				    strcmp(fb->dso_name, fa->dso_name);
			break;
		case SAMPO_SORT_SYM:
			c = (!fa->sym || !fb->sym) ?
				    (fa->sym ? 1 : (fb->sym ? -1 : 0)) :
				    strcmp(fb->inl_name ? fb->inl_name : sampo_symbol__name(fb->sym),
					   fa->inl_name ? fa->inl_name : sampo_symbol__name(fa->sym));
			break;
		case SAMPO_SORT_CPU:
			c = b->key.cpu > a->key.cpu ? 1 : -(b->key.cpu < a->key.cpu);
			break;
		case SAMPO_SORT_SRCLINE: /* perf 6.1's sort__srcline_cmp(), no se_sort */
			c = a->key.srcline == b->key.srcline ? 0 : strcmp(b->key.srcline, a->key.srcline);
			break;
		case SAMPO_SORT_SRCFILE:
			c = a->key.srcfile == b->key.srcfile ? 0 : strcmp(b->key.srcfile, a->key.srcfile);
			break;
		case SAMPO_SORT_TRACE:
			c = trace_cmp(a->key.trace, b->key.trace);
			break;
		case SAMPO_SORT_TRACE_FIELD: /* the greater bytes first */
			c = trace_field_cmp(a, b, &keys[i]);
			break;
		default:
			c = 0;
		}
		if (c)
			return c;
	}
	return 0;
}

static int cmp_str_last(const char *a, const char *b)
{
	if (a == b)
		return 0; /* interned */
	if (!a || !b)
		return a ? -1 : (b ? 1 : 0); /* perf's cmp_null: a missing one sorts last */
	return strcmp(a, b);
}

/* perf's _sort__addr_cmp(): the sign of the difference as an int64_t */
static int addr_cmp(uint64_t a, uint64_t b)
{
	int64_t d = (int64_t)(a - b);

	return d < 0 ? -1 : d > 0;
}

/*
 * perf's hist_entry__cmp(), the order of its input tree, which the output
 * sort walks: < 0 when @a comes first. A total order over the entry keys.
 */
static int collapse_cmp(const void *pa, const void *pb, void *ctx)
{
	const struct sampo_hists *h = ctx;

	return sampo_hist_entry__collapse_cmp(*(const struct sampo_hist_entry *const *)pa,
					      *(const struct sampo_hist_entry *const *)pb, h->keys,
					      h->nr_keys);
}

int sampo_hist_entry__collapse_cmp(const struct sampo_hist_entry *a,
				   const struct sampo_hist_entry *b, const enum sampo_sort_key *keys,
				   size_t nr_keys)
{
	int c = 0;

	for (size_t i = 0; i < nr_keys && !c; i++) {
		switch (keys[i]) {
		case SAMPO_SORT_COMM:
			c = a->key.comm == b->key.comm ? 0 : strcmp(a->key.comm, b->key.comm);
			break;
		case SAMPO_SORT_PID:
		case SAMPO_SORT_TID: /* stored as SAMPO_SORT_PID */
			c = a->key.tid < b->key.tid ? -1 : a->key.tid > b->key.tid;
			break;
		case SAMPO_SORT_DSO:
			c = cmp_str_last(a->key.dso, b->key.dso);
			break;
		case SAMPO_SORT_SYM:
			/*
			 * perf compares addresses by their difference as an
			 * int64_t: an address 2^63 or more above another
			 * sorts before it
			 */
			if (!a->key.has_sym && !b->key.has_sym) {
				c = addr_cmp(a->key.ip, b->key.ip);
				break;
			}
			c = cmp_str_last(a->key.dso, b->key.dso);
			if (c)
				break;
			if (a->key.has_sym != b->key.has_sym) {
				c = a->key.has_sym ? -1 : 1;
				break;
			}
			if (a->key.inl_name || b->key.inl_name) {
				/* perf's _sort__sym_cmp(): an inlined one by name, then overlap */
				const struct frame *fa = &a->hists->frames[a->frame];
				const struct frame *fb = &b->hists->frames[b->frame];

				c = strcmp(a->key.inl_name ? a->key.inl_name : sampo_symbol__name(fa->sym),
					   b->key.inl_name ? b->key.inl_name : sampo_symbol__name(fb->sym));
				if (c)
					break;
				if (a->key.sym_start <= b->key.sym_end &&
				    a->key.sym_end >= b->key.sym_start)
					break;
			}
			if (a->key.sym_start != b->key.sym_start)
				c = addr_cmp(a->key.sym_start, b->key.sym_start);
			else
				c = addr_cmp(a->key.sym_end, b->key.sym_end);
			break;
		case SAMPO_SORT_CPU:
			c = a->key.cpu < b->key.cpu ? -1 : a->key.cpu > b->key.cpu;
			break;
		case SAMPO_SORT_SRCLINE: /* strcmp(right, left), as perf 6.1 */
			c = a->key.srcline == b->key.srcline ? 0 : strcmp(b->key.srcline, a->key.srcline);
			break;
		case SAMPO_SORT_SRCFILE:
			c = a->key.srcfile == b->key.srcfile ? 0 : strcmp(b->key.srcfile, a->key.srcfile);
			break;
		case SAMPO_SORT_TRACE:
			/*
			 * perf's input tree puts the entry its se_cmp ranks
			 * higher first: strcmp(right, left) walks ascending
			 */
			c = trace_cmp(b->key.trace, a->key.trace);
			break;
		case SAMPO_SORT_TRACE_FIELD:
			/* perf's input tree puts a new entry with greater bytes first */
			c = trace_field_cmp(b, a, &keys[i]);
			break;
		}
	}
	return c;
}

/* a red-black tree over entry indexes, balanced exactly as the kernel's rbtree.h */
struct rbtree {
	uint32_t *left, *right, *parent; /* UINT32_MAX: none */
	uint8_t *red;
	uint32_t root;
};

#define RB_NONE UINT32_MAX

static void rb_rotate(struct rbtree *t, uint32_t x, bool to_left)
{
	uint32_t *down = to_left ? t->right : t->left; /* the child that moves up */
	uint32_t *side = to_left ? t->left : t->right;
	uint32_t y = down[x], p = t->parent[x];

	down[x] = side[y];
	if (side[y] != RB_NONE)
		t->parent[side[y]] = x;
	t->parent[y] = p;
	if (p == RB_NONE)
		t->root = y;
	else if (t->left[p] == x)
		t->left[p] = y;
	else
		t->right[p] = y;
	side[y] = x;
	t->parent[x] = y;
}

/* rb_insert_color(): the classic fix-up, the same rotations as the kernel */
static void rb_insert_fixup(struct rbtree *t, uint32_t z)
{
	while (t->parent[z] != RB_NONE && t->red[t->parent[z]]) {
		uint32_t p = t->parent[z], g = t->parent[p];
		bool p_is_left = t->left[g] == p;
		uint32_t u = p_is_left ? t->right[g] : t->left[g];

		if (u != RB_NONE && t->red[u]) {
			t->red[p] = 0;
			t->red[u] = 0;
			t->red[g] = 1;
			z = g;
			continue;
		}
		if (z == (p_is_left ? t->right[p] : t->left[p])) {
			z = p;
			rb_rotate(t, z, p_is_left);
			p = t->parent[z];
		}
		t->red[p] = 0;
		t->red[g] = 1;
		rb_rotate(t, g, !p_is_left);
		break;
	}
	t->red[t->root] = 0;
}

/* the bit of entry.src_known for sort key @k, 0 for keys perf computes at once */
static uint8_t lazy_bit(enum sampo_sort_key k)
{
	switch (k) {
	case SAMPO_SORT_SRCLINE:
		return 1;
	case SAMPO_SORT_SRCFILE:
		return 2;
	case SAMPO_SORT_TRACE:
		return 4;
	default:
		return 0;
	}
}

/*
 * The lazy keys (srcline, srcfile, trace) that perf_sort(@a, @b) reaches: perf
 * computes them for both entries then (their se_cmp), the first time
 */
static void mark_lazy_sort(const struct sampo_hists *h, struct sampo_hist_entry *a,
			   struct sampo_hist_entry *b)
{
	if (h->opts.children) {
		if (a->period_acc != b->period_acc)
			return;
		if (a->thread == b->thread && h->opts.callchain && !h->opts.no_graph &&
		    a->max_depth != b->max_depth)
			return;
	}
	if (a->period != b->period)
		return;
	for (size_t i = 0; i < h->nr_keys; i++) {
		uint8_t bit = lazy_bit(h->keys[i]);

		a->src_known |= bit;
		b->src_known |= bit;
		if (sampo_hist_entry__sort_keys(a, b, &h->keys[i], 1))
			return;
	}
}

/*
 * perf's input tree (hist_entry__cmp() as samples are added): a lazy key
 * is computed for the entries of a group that ties on the keys before it,
 * once the group has had two samples: the second sample of an entry meets
 * the entry itself, and a binary tree compares each new entry with its
 * neighbours in order (the group's entries are neighbours in @in, sorted
 * by those keys first), so any two of them meet.
 */
static void mark_lazy_input(const struct sampo_hists *h, struct sampo_hist_entry **in, size_t n)
{
	for (size_t i = 0; i < h->nr_keys; i++) {
		uint8_t bit = lazy_bit(h->keys[i]);

		if (!bit)
			continue;
		for (size_t j = 0, end; j < n; j = end) {
			uint64_t adds = in[j]->nr_adds;

			for (end = j + 1;
			     end < n && !sampo_hist_entry__collapse_cmp(in[j], in[end], h->keys, i); end++)
				adds += in[end]->nr_adds;
			if (adds < 2)
				continue;
			for (size_t m = j; m < end; m++)
				in[m]->src_known |= bit;
		}
	}
}

/* perf's output_resort(): insert in input order into an rb-tree, then walk it */
int sampo_hists__sort_entries(const struct sampo_hists *h, struct evhists *ev)
{
	size_t n = ev->nr_entries, k = 0;
	struct sampo_hist_entry **in;
	struct rbtree t;
	uint32_t x;
	bool lazy;
	int err = -ENOMEM;

	in = calloc(n ? n : 1, sizeof(*in));
	t.left = calloc(n ? n : 1, sizeof(uint32_t));
	t.right = calloc(n ? n : 1, sizeof(uint32_t));
	t.parent = calloc(n ? n : 1, sizeof(uint32_t));
	t.red = calloc(n ? n : 1, 1);
	if (!in || !t.left || !t.right || !t.parent || !t.red)
		goto out;
	for (size_t i = 0; i < n; i++)
		in[i] = &ev->entries[i];
	qsort_r(in, n, sizeof(*in), collapse_cmp, (void *)h);
	lazy = h->srclines || h->has_key[SAMPO_SORT_TRACE];
	if (lazy)
		mark_lazy_input(h, in, n);

	t.root = RB_NONE;
	for (size_t i = 0; i < n; i++) {
		uint32_t z = (uint32_t)(in[i] - ev->entries), p = RB_NONE, cur = t.root;
		bool go_left = false;

		while (cur != RB_NONE) {
			p = cur;
			if (lazy)
				mark_lazy_sort(h, &ev->entries[z], &ev->entries[cur]);
			go_left = perf_sort(h, ev, &ev->entries[z], &ev->entries[cur]) > 0;
			cur = go_left ? t.left[cur] : t.right[cur];
		}
		t.left[z] = t.right[z] = RB_NONE;
		t.parent[z] = p;
		t.red[z] = 1;
		if (p == RB_NONE)
			t.root = z;
		else if (go_left)
			t.left[p] = z;
		else
			t.right[p] = z;
		rb_insert_fixup(&t, z);
		/* hists__calc_col_len() right after the insert */
		ev->entries[z].src_width = ev->entries[z].src_known;
	}

	/* in-order walk */
	x = t.root;
	while (x != RB_NONE && t.left[x] != RB_NONE)
		x = t.left[x];
	while (x != RB_NONE) {
		ev->entries[x].row = (uint32_t)k;
		ev->sorted[k++] = &ev->entries[x];
		if (t.right[x] != RB_NONE) {
			x = t.right[x];
			while (t.left[x] != RB_NONE)
				x = t.left[x];
		} else {
			uint32_t c = x;

			x = t.parent[x];
			while (x != RB_NONE && t.right[x] == c) {
				c = x;
				x = t.parent[x];
			}
		}
	}
	err = 0;
out:
	free(in);
	free(t.left);
	free(t.right);
	free(t.parent);
	free(t.red);
	return err;
}

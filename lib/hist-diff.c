// SPDX-License-Identifier: LGPL-2.1
/*
 * hist-diff.c - several profiles' histograms paired and compared as
 * `perf diff` does (perf 6.1 builtin-diff.c and the hists__match(),
 * hists__link() of util/hist.c).
 *
 * perf keeps the baseline's entries in a tree ordered by the sort keys
 * (hist_entry__cmp()). For each new file in turn, every entry of that tree
 * looks for the new file's entry with the same keys (hists__match()); the
 * new file's entries left alone are added to the tree as "dummy" entries
 * of period 0 (hists__link()), so a later file pairs with them too. The
 * computed values (delta, ratio, wdiff) are taken before the output sort
 * (hists__precompute()), from the totals of the samples as read; the
 * output sort then recounts the baseline's total from the entries left,
 * which only -b changes, and that total is the one the Baseline column
 * and the -F formula show.
 *
 * perf diff compares symbols by name, not by address ("those files could
 * come from different binaries", sort_dimension__add() in diff mode): the
 * entries of one file are first merged by that comparison
 * (hists__collapse_resort()), so two unresolved addresses of one object
 * are one entry, shown with the lowest address, and two symbols of one
 * name are one entry. Pairing then uses the same comparison.
 *
 * Here the rows are built the same way from arrays sorted by those
 * comparisons, and the output order is a stable merge sort of them in
 * that key order: perf inserts the entries one by one, in key order, into
 * a tree where equal ones go right, which gives the same order for this
 * comparison (a total preorder).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sampo/dso.h>
#include <sampo/event.h>
#include <sampo/hist-diff.h>
#include <sampo/hist.h>
#include <sampo/symbol.h>

#include "internal/hist.h"
#include "internal/opts.h"

/* the values computed for one new file (perf's hist_entry_diff) */
struct diff_value {
	double delta;
	double ratio;
	int64_t wdiff;
};

/* an entry of one file after perf diff's merge: the first entry and the summed period */
struct centry {
	const struct sampo_hist_entry *e;
	uint64_t period;
};

struct sampo_hist_diff_row {
	const struct sampo_hist_entry *key; /* the baseline's entry, or the new one of a dummy */
	const struct centry **entries;	    /* [nr_files], [0] NULL for a dummy */
	struct diff_value *values;		 /* [nr_files], [0] unused */
	bool filtered;
	bool paired; /* some new file has an entry for it (perf's hist_entry__has_pairs()) */
};

struct sampo_hist_diff {
	size_t nr_files;
	enum sampo_sort_key keys[SAMPO_SORT_MAX_KEYS];
	size_t nr_keys;
	enum sampo_diff_compute compute;
	int64_t w1, w2;
	unsigned int order;
	bool relative;

	uint64_t *totals;	/* [nr_files]: as read (what the values are computed from) */
	struct centry **centries; /* [nr_files]: each file's merged entries */
	uint64_t shown_base_total; /* the baseline's after -b: what the Baseline column shows */

	struct sampo_hist_diff_row *rows; /* every row, in key order */
	size_t nr_rows, cap_rows;
	const struct sampo_hist_diff_row **sorted; /* the printed rows, in perf's order */
	size_t nr_sorted;
};

int sampo_hist_diff__match_event(const struct sampo_event_attr *base,
				 const struct sampo_event_attr *const *attrs, size_t nr)
{
	if (!base || !attrs)
		return -1;
	for (size_t i = 0; i < nr; i++)
		if (attrs[i] && attrs[i]->type == base->type && attrs[i]->config == base->config)
			return (int)i;
	return -1;
}

static bool in_list(const char *const *list, size_t nr, const char *s)
{
	if (!s)
		return false;
	for (size_t i = 0; i < nr; i++)
		if (list[i] && !strcmp(list[i], s))
			return true;
	return false;
}

/*
 * perf's machine__resolve() filters, applied to the values the row shows
 * (those of the sample that made the entry, whose verdict perf keeps)
 */
static bool entry_filtered(const struct sampo_hist_entry *e, const struct sampo_hist_diff_opts *o)
{
	if (e->filtered)
		return true;
	if (OPTS_GET(o, nr_comms, 0) && !in_list(o->comms, o->nr_comms, sampo_hist_entry__comm(e)))
		return true;
	if (OPTS_GET(o, nr_dsos, 0)) {
		const struct sampo_dso *dso = sampo_hist_entry__dso(e);
		const char *dso_name = sampo_hist_entry__dso_name(e);

		/* perf filters only samples that have a map */
		if (dso && !in_list(o->dsos, o->nr_dsos, dso_name) &&
		    !in_list(o->dsos, o->nr_dsos, sampo_dso__long_name(dso)))
			return true;
	}
	if (OPTS_GET(o, nr_syms, 0) &&
	    !in_list(o->syms, o->nr_syms, sampo_hist_entry__symbol_name(e)))
		return true;
	return false;
}

struct sort_ctx {
	const enum sampo_sort_key *keys;
	size_t nr_keys;
};

static int entry_cmp(const void *pa, const void *pb, void *arg)
{
	const struct sort_ctx *ctx = arg;

	return sampo_hist_entry__collapse_cmp(*(const struct sampo_hist_entry *const *)pa,
					      *(const struct sampo_hist_entry *const *)pb, ctx->keys,
					      ctx->nr_keys);
}

static int cmp_null(const void *l, const void *r)
{
	return !l && !r ? 0 : !l ? -1 : 1;
}

/*
 * perf's hist_entry__collapse() in diff mode: the sort keys' se_collapse,
 * else se_cmp; the symbol's is sort__sym_sort(), by name (< 0: @a first)
 */
static int diff_collapse_cmp(const struct sampo_hist_entry *a, const struct sampo_hist_entry *b,
			     const struct sort_ctx *ctx)
{
	int c = 0;

	for (size_t i = 0; i < ctx->nr_keys && !c; i++) {
		const char *sa, *sb;

		switch (ctx->keys[i]) {
		case SAMPO_SORT_SYM:
			sa = sampo_hist_entry__symbol_name(a);
			sb = sampo_hist_entry__symbol_name(b);
			c = !sa || !sb ? cmp_null(sa, sb) : strcmp(sb, sa);
			break;
		default: /* the other keys compare as for a report */
			c = sampo_hist_entry__collapse_cmp(a, b, &ctx->keys[i], 1);
			break;
		}
	}
	return c;
}

static int centry_cmp(const void *pa, const void *pb, void *arg)
{
	const struct centry *a = pa, *b = pb;
	int c = diff_collapse_cmp(a->e, b->e, arg);

	/* qsort_r() is not stable: the input order decides between equals */
	if (!c)
		c = a->period < b->period ? -1 : a->period > b->period;
	return c;
}

/*
 * @evsel's entries merged as perf's hists__collapse_resort() merges them in
 * diff mode: walked in the order of its input tree (report's keys), each
 * equal to an earlier one adds to it; the result in diff_collapse_cmp()
 * order. NULL and 0 for none.
 */
static int collapsed_entries(const struct sampo_hists *h, int evsel, const struct sort_ctx *ctx,
			     struct centry **ret, size_t *ret_nr)
{
	const struct evhists *ev;
	const struct sampo_hist_entry **in;
	struct centry *out;
	size_t n = 0;

	*ret = NULL;
	*ret_nr = 0;
	if (evsel < 0 || (size_t)evsel >= h->nr_ev)
		return 0;
	ev = &h->ev[evsel];
	if (!ev->nr_entries)
		return 0;
	in = malloc(ev->nr_entries * sizeof(*in));
	out = malloc(ev->nr_entries * sizeof(*out));
	if (!in || !out) {
		free(in);
		free(out);
		return -ENOMEM;
	}
	for (size_t i = 0; i < ev->nr_entries; i++)
		in[i] = &ev->entries[i];
	qsort_r(in, ev->nr_entries, sizeof(*in), entry_cmp, (void *)ctx);
	/* the input position rides in .period until the merge (see centry_cmp()) */
	for (size_t i = 0; i < ev->nr_entries; i++)
		out[i] = (struct centry){ .e = in[i], .period = i };
	qsort_r(out, ev->nr_entries, sizeof(*out), centry_cmp, (void *)ctx);
	for (size_t i = 0; i < ev->nr_entries; i++) {
		if (n && !diff_collapse_cmp(out[n - 1].e, out[i].e, ctx)) {
			out[n - 1].period += out[i].e->period;
			continue;
		}
		out[n].e = out[i].e;
		out[n].period = out[i].e->period;
		n++;
	}
	free(in);
	*ret = out;
	*ret_nr = n;
	return 0;
}

static struct sampo_hist_diff_row *add_row(struct sampo_hist_diff *d,
					   const struct sampo_hist_entry *key)
{
	struct sampo_hist_diff_row *row;

	if (d->nr_rows == d->cap_rows) {
		size_t cap = d->cap_rows ? d->cap_rows * 2 : 64;
		struct sampo_hist_diff_row *rows = realloc(d->rows, cap * sizeof(*rows));

		if (!rows)
			return NULL;
		d->rows = rows;
		d->cap_rows = cap;
	}
	row = &d->rows[d->nr_rows];
	memset(row, 0, sizeof(*row));
	row->entries = calloc(d->nr_files, sizeof(*row->entries));
	row->values = calloc(d->nr_files, sizeof(*row->values));
	if (!row->entries || !row->values) {
		free(row->entries);
		free(row->values);
		return NULL;
	}
	row->key = key;
	d->nr_rows++;
	return row;
}

static int row_key_cmp(const void *pa, const void *pb, void *arg)
{
	const struct sort_ctx *ctx = arg;
	const struct sampo_hist_diff_row *a = pa, *b = pb;

	return diff_collapse_cmp(a->key, b->key, ctx);
}

/*
 * hists__match() then hists__link() for new file @file: pair each row with
 * the file's entry of equal keys, then make rows of the entries left
 */
static int match_file(struct sampo_hist_diff *d, size_t file, bool link,
		      const struct sort_ctx *ctx, size_t nr)
{
	const struct centry *arr = d->centries[file];
	size_t nr_rows = d->nr_rows;
	bool *used;
	int err = 0;

	if (!nr)
		return 0;
	used = calloc(nr, sizeof(*used));
	if (!used)
		return -ENOMEM;
	for (size_t r = 0; r < nr_rows; r++) {
		struct sampo_hist_diff_row *row = &d->rows[r];
		size_t lo = 0, hi = nr;

		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;
			int c = diff_collapse_cmp(arr[mid].e, row->key, ctx);

			if (!c) {
				row->entries[file] = &arr[mid];
				row->paired = true;
				used[mid] = true;
				break;
			}
			if (c < 0)
				lo = mid + 1;
			else
				hi = mid;
		}
	}
	for (size_t i = 0; link && i < nr; i++) {
		struct sampo_hist_diff_row *row;

		if (used[i])
			continue;
		row = add_row(d, arr[i].e);
		if (!row) {
			err = -ENOMEM;
			break;
		}
		row->entries[file] = &arr[i];
		row->paired = true;
	}
	free(used);
	if (!err && d->nr_rows > nr_rows)
		qsort_r(d->rows, d->nr_rows, sizeof(*d->rows), row_key_cmp, (void *)ctx);
	return err;
}

static uint64_t entry_period(const struct centry *e)
{
	return e ? e->period : 0;
}

/* perf's hists__precompute(): every value of every pair */
static void precompute(struct sampo_hist_diff *d)
{
	for (size_t r = 0; r < d->nr_rows; r++) {
		struct sampo_hist_diff_row *row = &d->rows[r];
		uint64_t old = entry_period(row->entries[0]);

		for (size_t f = 1; f < d->nr_files; f++) {
			const struct centry *pair = row->entries[f];
			struct diff_value *v = &row->values[f];

			if (!pair)
				continue;
			v->delta = (double)pair->period * 100.0 / (double)d->totals[f] -
				   (double)old * 100.0 / (double)d->totals[0];
			v->ratio = (double)pair->period / (double)(old ? old : 1);
			/* perf computes in u64 and keeps the bits as s64 */
			v->wdiff = (int64_t)(pair->period * (uint64_t)d->w2 - old * (uint64_t)d->w1);
		}
	}
}

/* perf's cmp_doubles(): > 0 when @r is the larger */
static int cmp_doubles(double l, double r)
{
	return l > r ? -1 : l < r ? 1 : 0;
}

/* perf's __hist_entry__cmp_compute(@left, @right): > 0 when @right's value is the larger */
static int cmp_value(const struct sampo_hist_diff *d, const struct diff_value *l,
		     const struct diff_value *r)
{
	switch (d->compute) {
	case SAMPO_DIFF_DELTA:
		return cmp_doubles(l->delta, r->delta);
	case SAMPO_DIFF_DELTA_ABS:
		return cmp_doubles(l->delta < 0 ? -l->delta : l->delta,
				   r->delta < 0 ? -r->delta : r->delta);
	case SAMPO_DIFF_RATIO:
		return cmp_doubles(l->ratio, r->ratio);
	case SAMPO_DIFF_WDIFF: {
		/* perf returns r - l as an s64 */
		int64_t diff = (int64_t)((uint64_t)r->wdiff - (uint64_t)l->wdiff);

		return diff > 0 ? 1 : diff < 0 ? -1 : 0;
	}
	}
	return 0;
}

/*
 * perf's hist_entry__sort() with perf diff's columns: > 0 when @a goes first.
 * (perf calls the compute columns' sort with the rows swapped, hence the
 * "b, a" order of the calls that mirror its code.)
 */
static int diff_sort(const struct sampo_hist_diff *d, const struct sampo_hist_diff_row *a,
		     const struct sampo_hist_diff_row *b)
{
	uint64_t pa, pb;
	int c;

	if (d->order) { /* hist_entry__cmp_compute_idx(b, a) */
		const struct centry *pl = b->entries[d->order], *pr = a->entries[d->order];
		bool b_dummy = !b->entries[0], a_dummy = !a->entries[0];

		if (pl || pr) {
			if (!pl || !pr)
				return pl ? -1 : 1;
			/* ratio and wdiff mean nothing without a baseline: those rows go last */
			if (d->compute != SAMPO_DIFF_DELTA && d->compute != SAMPO_DIFF_DELTA_ABS &&
			    (b_dummy || a_dummy))
				c = b_dummy && a_dummy ? 0 : b_dummy ? 1 : -1;
			else
				c = cmp_value(d, &b->values[d->order], &a->values[d->order]);
			if (c)
				return c;
		}
	}
	/* hist_entry__cmp_baseline(a, b) */
	pa = entry_period(a->entries[0]);
	pb = entry_period(b->entries[0]);
	if (pa != pb)
		return pa > pb ? 1 : -1;
	for (size_t f = 1; f < d->nr_files; f++) { /* hist_entry__cmp_compute(b, a) */
		const struct centry *pl, *pr;

		if (!a->paired && !b->paired)
			continue;
		if (!a->paired || !b->paired)
			return b->paired ? -1 : 1;
		pl = b->entries[f];
		pr = a->entries[f];
		if (!pl && !pr)
			continue;
		if (!pl || !pr)
			return pl ? -1 : 1;
		c = cmp_value(d, &b->values[f], &a->values[f]);
		if (c)
			return c;
	}
	return sampo_hist_entry__sort_keys(a->key, b->key, d->keys, d->nr_keys);
}

/* a stable merge sort: rows that compare equal keep their key order */
static void merge_sort(const struct sampo_hist_diff *d, const struct sampo_hist_diff_row **v,
		       const struct sampo_hist_diff_row **tmp, size_t n)
{
	size_t mid = n / 2, i = 0, j = mid, k = 0;

	if (n < 2)
		return;
	merge_sort(d, v, tmp, mid);
	merge_sort(d, v + mid, tmp, n - mid);
	while (i < mid && j < n)
		tmp[k++] = diff_sort(d, v[j], v[i]) > 0 ? v[j++] : v[i++];
	while (i < mid)
		tmp[k++] = v[i++];
	while (j < n)
		tmp[k++] = v[j++];
	memcpy(v, tmp, n * sizeof(*v));
}

static uint64_t input_total(const struct sampo_hists *h, int evsel, bool relative,
			    const struct sampo_hist_diff_opts *o)
{
	uint64_t total = 0;
	const struct evhists *ev;

	if (evsel < 0 || (size_t)evsel >= h->nr_ev)
		return 0;
	ev = &h->ev[evsel];
	if (!relative)
		return ev->total_period;
	for (size_t i = 0; i < ev->nr_entries; i++)
		if (!entry_filtered(&ev->entries[i], o))
			total += ev->entries[i].period;
	return total;
}

int sampo_hist_diff__new(const struct sampo_hists *const *hists, const int *evsels,
			 size_t nr_files, const struct sampo_hist_diff_opts *opts,
			 struct sampo_hist_diff **ret)
{
	struct sampo_hist_diff *d;
	const struct sampo_hist_diff_row **tmp = NULL;
	size_t *nr_centries = NULL;
	struct sort_ctx ctx;
	bool baseline_only;
	int err;

	if (!ret || !hists || !evsels || nr_files < 2 ||
	    !OPTS_VALID(opts, sampo_hist_diff_opts))
		return -EINVAL;
	*ret = NULL;
	for (size_t f = 0; f < nr_files; f++) {
		if (!hists[f] || !hists[f]->resorted || hists[f]->nr_keys != hists[0]->nr_keys ||
		    memcmp(hists[f]->keys, hists[0]->keys,
			   hists[0]->nr_keys * sizeof(hists[0]->keys[0])))
			return -EINVAL;
	}
	if (evsels[0] < 0 || OPTS_GET(opts, order, 0) >= nr_files)
		return -EINVAL;
	if (OPTS_GET(opts, compute, SAMPO_DIFF_DELTA_ABS) == SAMPO_DIFF_WDIFF &&
	    (!OPTS_GET(opts, wdiff_w1, 0) || !OPTS_GET(opts, wdiff_w2, 0)))
		return -EINVAL;
	if ((unsigned int)OPTS_GET(opts, compute, 0) > SAMPO_DIFF_WDIFF)
		return -EINVAL;

	d = calloc(1, sizeof(*d));
	if (!d)
		return -ENOMEM;
	d->nr_files = nr_files;
	memcpy(d->keys, hists[0]->keys, sizeof(d->keys));
	d->nr_keys = hists[0]->nr_keys;
	d->compute = OPTS_GET(opts, compute, SAMPO_DIFF_DELTA_ABS);
	d->w1 = OPTS_GET(opts, wdiff_w1, 0);
	d->w2 = OPTS_GET(opts, wdiff_w2, 0);
	d->order = OPTS_GET(opts, order, 0);
	d->relative = OPTS_GET(opts, relative, false);
	baseline_only = OPTS_GET(opts, baseline_only, false);
	ctx.keys = d->keys;
	ctx.nr_keys = d->nr_keys;
	err = -ENOMEM;
	d->totals = calloc(nr_files, sizeof(*d->totals));
	if (!d->totals)
		goto fail;
	for (size_t f = 0; f < nr_files; f++)
		d->totals[f] = input_total(hists[f], evsels[f], d->relative, opts);

	d->centries = calloc(nr_files, sizeof(*d->centries));
	nr_centries = calloc(nr_files, sizeof(*nr_centries));
	if (!d->centries || !nr_centries)
		goto fail;
	for (size_t f = 0; f < nr_files; f++) {
		err = collapsed_entries(hists[f], evsels[f], &ctx, &d->centries[f], &nr_centries[f]);
		if (err)
			goto fail;
	}
	for (size_t i = 0; i < nr_centries[0]; i++) {
		struct sampo_hist_diff_row *row = add_row(d, d->centries[0][i].e);

		if (!row) {
			err = -ENOMEM;
			goto fail;
		}
		row->entries[0] = &d->centries[0][i];
	}
	for (size_t f = 1; f < nr_files; f++) {
		err = match_file(d, f, !baseline_only, &ctx, nr_centries[f]);
		if (err)
			goto fail;
	}
	for (size_t r = 0; r < d->nr_rows; r++)
		d->rows[r].filtered = entry_filtered(d->rows[r].key, opts);

	precompute(d);

	/* the output sort recounts the baseline's total from the rows -b left */
	d->sorted = calloc(d->nr_rows ? d->nr_rows : 1, sizeof(*d->sorted));
	tmp = calloc(d->nr_rows ? d->nr_rows : 1, sizeof(*tmp));
	if (!d->sorted || !tmp) {
		err = -ENOMEM;
		goto fail;
	}
	for (size_t r = 0; r < d->nr_rows; r++) {
		const struct sampo_hist_diff_row *row = &d->rows[r];

		if (baseline_only && !row->paired)
			continue; /* hists__baseline_only() */
		if (!d->relative || !row->filtered)
			d->shown_base_total += entry_period(row->entries[0]);
		tmp[d->nr_sorted++] = row;
	}
	memcpy(d->sorted, tmp, d->nr_sorted * sizeof(*tmp));
	merge_sort(d, d->sorted, tmp, d->nr_sorted);
	/* perf prints no filtered entry */
	{
		size_t n = 0;

		for (size_t i = 0; i < d->nr_sorted; i++)
			if (!d->sorted[i]->filtered)
				d->sorted[n++] = d->sorted[i];
		d->nr_sorted = n;
	}
	free(tmp);
	free(nr_centries);
	*ret = d;
	return 0;
fail:
	free(tmp);
	free(nr_centries);
	sampo_hist_diff__delete(d);
	return err;
}

void sampo_hist_diff__delete(struct sampo_hist_diff *d)
{
	if (!d)
		return;
	for (size_t r = 0; r < d->nr_rows; r++) {
		free(d->rows[r].entries);
		free(d->rows[r].values);
	}
	for (size_t f = 0; d->centries && f < d->nr_files; f++)
		free(d->centries[f]);
	free(d->centries);
	free(d->rows);
	free(d->sorted);
	free(d->totals);
	free(d);
}

size_t sampo_hist_diff__nr_files(const struct sampo_hist_diff *d)
{
	return d ? d->nr_files : 0;
}

size_t sampo_hist_diff__nr_rows(const struct sampo_hist_diff *d)
{
	return d ? d->nr_sorted : 0;
}

const struct sampo_hist_diff_row *sampo_hist_diff__row(const struct sampo_hist_diff *d, size_t idx)
{
	return d && idx < d->nr_sorted ? d->sorted[idx] : NULL;
}

uint64_t sampo_hist_diff__total_period(const struct sampo_hist_diff *d, size_t file)
{
	if (!d || file >= d->nr_files)
		return 0;
	return file ? d->totals[file] : d->shown_base_total;
}

/* the file count is not in the row: callers pass files below nr_files */
const struct sampo_hist_entry *sampo_hist_diff_row__entry(const struct sampo_hist_diff_row *row,
							  size_t file)
{
	return row && row->entries[file] ? row->entries[file]->e : NULL;
}

const struct sampo_hist_entry *sampo_hist_diff_row__key(const struct sampo_hist_diff_row *row)
{
	return row ? row->key : NULL;
}

uint64_t sampo_hist_diff_row__period(const struct sampo_hist_diff_row *row, size_t file)
{
	return row ? entry_period(row->entries[file]) : 0;
}

bool sampo_hist_diff_row__baseline_percent(const struct sampo_hist_diff *d,
					   const struct sampo_hist_diff_row *row, double *ret)
{
	if (!d || !row || !row->entries[0])
		return false;
	/* perf divides by the total as is, 0 included */
	*ret = 100.0 * (double)row->entries[0]->period / (double)d->shown_base_total;
	return true;
}

bool sampo_hist_diff_row__delta(const struct sampo_hist_diff_row *row, size_t file, double *ret)
{
	if (!row || !file || !row->entries[file])
		return false;
	*ret = row->values[file].delta;
	return true;
}

bool sampo_hist_diff_row__ratio(const struct sampo_hist_diff_row *row, size_t file, double *ret)
{
	if (!row || !file || !row->entries[file])
		return false;
	*ret = row->values[file].ratio;
	return true;
}

bool sampo_hist_diff_row__wdiff(const struct sampo_hist_diff_row *row, size_t file, int64_t *ret)
{
	if (!row || !file || !row->entries[file])
		return false;
	*ret = row->values[file].wdiff;
	return true;
}

int sampo_hist_diff_row__formula(const struct sampo_hist_diff *d,
				 const struct sampo_hist_diff_row *row, size_t file, char *buf,
				 size_t size)
{
	const struct centry *pair;
	uint64_t old;

	if (size)
		buf[0] = '\0';
	if (!d || !row || !file || file >= d->nr_files || !row->entries[file])
		return 0;
	pair = row->entries[file];
	old = entry_period(row->entries[0]);
	switch (d->compute) {
	case SAMPO_DIFF_DELTA:
	case SAMPO_DIFF_DELTA_ABS:
		return snprintf(buf, size,
				"(%" PRIu64 " * 100 / %" PRIu64 ") - (%" PRIu64 " * 100 / %" PRIu64
				")",
				pair->period, d->totals[file], old, d->shown_base_total);
	case SAMPO_DIFF_RATIO:
		return snprintf(buf, size, "%.0F / %.0F", (double)pair->period, (double)old);
	case SAMPO_DIFF_WDIFF:
		return snprintf(buf, size,
				"(%" PRIu64 " * %" PRId64 ") - (%" PRIu64 " * %" PRId64 ")",
				pair->period, d->w2, old, d->w1);
	}
	return 0;
}

// SPDX-License-Identifier: LGPL-2.1
/*
 * hist-group.c - perf's group view of the histograms (perf report --group,
 * the default for files with event groups): the table of a group's leader
 * shows each member's share beside its own.
 *
 * The events of a group are the leader and the events right after it
 * (sampo_evsel__groups()). At resort, after every event's entries are built,
 * each member in turn is matched to its leader, as perf 6.1's
 * report__collapse_hists() does with hists__match() and hists__link():
 *
 *	leader entries ──(same sort keys: collapse_cmp() == 0)── member entries
 *	      │                                                       │
 *	      └── pairs[entry * group_nr + m] = member entry index ───┘
 *	a member entry with no leader entry of its key: a "dummy" leader entry
 *	(its keys, periods 0, no call graph), so that its row is printed
 *
 * Member 2 is matched against the leader's entries including the dummies
 * member 1 brought, as in perf. The rows of the leader's table are then
 * ordered as usual, except that rows of equal self period go by member 1's
 * period, then member 2's, ... (perf's __hpp__sort(); the children column
 * has no such rule, as in __hpp__sort_acc()). The members' own tables are
 * left as they are.
 *
 * Invariant: ev->pairs has ev->group_nr slots for every entry of the
 * leader's ev, dummies included, once sampo_hists__link_groups() returns.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <sampo/evsel.h>
#include <sampo/hist.h>

#include "internal/hist.h"
#include "internal/util.h"

int sampo_hists__set_groups(struct sampo_hists *h, const struct sampo_evsel_group *groups,
			    size_t nr)
{
	struct sampo_evsel_group *copy = NULL;

	if (!h || h->resorted)
		return -EINVAL;
	for (size_t i = 0; groups && i < nr; i++)
		if (groups[i].leader > i ||
		    (groups[i].leader == i && groups[i].nr_members > nr - i))
			return -EINVAL;
	if (groups && nr) {
		copy = calloc(nr, sizeof(*copy));
		if (!copy)
			return -ENOMEM;
		for (size_t i = 0; i < nr; i++)
			copy[i] = (struct sampo_evsel_group){ .leader = groups[i].leader,
							      .nr_members = groups[i].nr_members };
	}
	free(h->groups);
	h->groups = copy;
	h->nr_groups = copy ? nr : 0;
	return 0;
}

static int collapse_order(const void *pa, const void *pb, void *ctx)
{
	const struct sampo_hists *h = ctx;

	return sampo_hist_entry__collapse_cmp(*(const struct sampo_hist_entry *const *)pa,
					      *(const struct sampo_hist_entry *const *)pb, h->keys,
					      h->nr_keys);
}

/* room for the pairs of @n entries of @ev, the new slots -1 (*@cap counts slots) */
static int pairs_grow(struct evhists *ev, size_t *cap, size_t n)
{
	size_t old = *cap;

	if (sampo_array_grow((void **)&ev->pairs, cap, n * ev->group_nr, sizeof(*ev->pairs)))
		return -ENOMEM;
	for (size_t i = old; i < *cap; i++)
		ev->pairs[i] = -1;
	return 0;
}

/* perf's hists__add_dummy_entry(): @pair's keys in the leader's table, no periods */
static int add_dummy(struct evhists *lev, const struct sampo_hist_entry *pair, uint32_t leader)
{
	struct sampo_hist_entry *e;

	if (sampo_array_grow((void **)&lev->entries, &lev->cap_entries, lev->nr_entries + 1,
			     sizeof(*lev->entries)))
		return -ENOMEM;
	e = &lev->entries[lev->nr_entries++];
	memset(e, 0, sizeof(*e));
	e->key = pair->key;
	e->hists = pair->hists;
	e->thread = pair->thread;
	e->comm = pair->comm;
	e->frame = pair->frame;
	e->level = pair->level;
	e->filtered = pair->filtered;
	e->src_known = pair->src_known;
	e->evsel = leader;
	e->dummy = true;
	return 0;
}

/* perf's hists__find_entry(): the entry of @sorted (in collapse order) with @key's keys */
static int find_entry(const struct sampo_hists *h, struct sampo_hist_entry *const *sorted, size_t n,
		      const struct sampo_hist_entry *key)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = sampo_hist_entry__collapse_cmp(key, sorted[mid], h->keys, h->nr_keys);

		if (!c)
			return (int)mid;
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return -1;
}

/* hists__match() then hists__link() of member @m of the group led by @leader */
static int link_member(struct sampo_hists *h, uint32_t leader, uint32_t m, size_t *pairs_cap)
{
	struct evhists *lev = &h->ev[leader], *mev = &h->ev[leader + m];
	size_t n = mev->nr_entries, nr_leader = lev->nr_entries;
	struct sampo_hist_entry **sorted;
	bool *matched;
	int err = -ENOMEM;

	sorted = calloc(n ? n : 1, sizeof(*sorted));
	matched = calloc(n ? n : 1, sizeof(*matched));
	if (!sorted || !matched)
		goto out;
	for (size_t i = 0; i < n; i++)
		sorted[i] = &mev->entries[i];
	qsort_r(sorted, n, sizeof(*sorted), collapse_order, h);

	for (size_t j = 0; j < nr_leader && n; j++) {
		int hit = find_entry(h, sorted, n, &lev->entries[j]);
		size_t idx;

		if (hit < 0)
			continue;
		idx = (size_t)(sorted[hit] - mev->entries);
		lev->pairs[j * lev->group_nr + m] = (int32_t)idx;
		matched[idx] = true;
	}
	/* perf walks the member's entries in collapse order: so does this */
	for (size_t i = 0; i < n; i++) {
		size_t idx = (size_t)(sorted[i] - mev->entries);

		if (matched[idx])
			continue;
		if (add_dummy(lev, sorted[i], leader) ||
		    pairs_grow(lev, pairs_cap, lev->nr_entries))
			goto out;
		lev->pairs[(lev->nr_entries - 1) * lev->group_nr + m] = (int32_t)idx;
	}
	err = 0;
out:
	free(sorted);
	free(matched);
	return err;
}

int sampo_hists__link_groups(struct sampo_hists *h)
{
	for (size_t i = 0; i < h->nr_groups; i++) {
		const struct sampo_evsel_group *g = &h->groups[i];
		struct evhists *lev;
		size_t cap = 0;
		int err;

		if (g->leader != i || g->nr_members < 2)
			continue;
		/* every member's table, empty ones too (perf's hists exist for each event) */
		if (h->nr_ev < i + g->nr_members) {
			struct evhists *ev = realloc(h->ev, (i + g->nr_members) * sizeof(*ev));

			if (!ev)
				return -ENOMEM;
			memset(ev + h->nr_ev, 0, (i + g->nr_members - h->nr_ev) * sizeof(*ev));
			h->ev = ev;
			h->nr_ev = i + g->nr_members;
		}
		lev = &h->ev[i];
		lev->group_nr = g->nr_members;
		err = pairs_grow(lev, &cap, lev->nr_entries);
		if (err)
			return err;
		for (size_t j = 0; j < lev->nr_entries; j++)
			lev->pairs[j * lev->group_nr] = (int32_t)j;
		for (uint32_t m = 1; m < g->nr_members; m++) {
			err = link_member(h, (uint32_t)i, m, &cap);
			if (err)
				return err;
		}
		for (size_t j = 0; j < lev->nr_entries; j++)
			lev->pairs[j * lev->group_nr] = (int32_t)j;
	}
	return 0;
}

const struct sampo_hist_entry *sampo_hists__group_pair(const struct sampo_hists *h,
						       const struct evhists *ev,
						       const struct sampo_hist_entry *e, uint32_t m)
{
	int32_t idx;

	if (!ev->pairs || m >= ev->group_nr)
		return NULL;
	idx = ev->pairs[(size_t)(e - ev->entries) * ev->group_nr + m];
	if (idx < 0)
		return NULL;
	return &h->ev[(size_t)(ev - h->ev) + m].entries[idx];
}

int sampo_hists__group_cmp(const struct sampo_hists *h, const struct evhists *ev,
			   const struct sampo_hist_entry *a, const struct sampo_hist_entry *b)
{
	for (uint32_t m = 1; m < ev->group_nr; m++) {
		const struct sampo_hist_entry *pa = sampo_hists__group_pair(h, ev, a, m);
		const struct sampo_hist_entry *pb = sampo_hists__group_pair(h, ev, b, m);
		uint64_t va = pa ? pa->period : 0, vb = pb ? pb->period : 0;

		if (va != vb)
			return va > vb ? 1 : -1;
	}
	return 0;
}

const struct sampo_hist_entry *sampo_hist_entry__group_member(const struct sampo_hist_entry *e,
							      size_t member)
{
	const struct sampo_hists *h;
	const struct evhists *ev;

	if (!e || !e->hists || e->evsel >= e->hists->nr_ev)
		return NULL;
	h = e->hists;
	ev = &h->ev[e->evsel];
	if (!ev->group_nr || member >= ev->group_nr || e < ev->entries ||
	    e >= ev->entries + ev->nr_entries)
		return NULL;
	return sampo_hists__group_pair(h, ev, e, (uint32_t)member);
}

// SPDX-License-Identifier: LGPL-2.1
/*
 * branch-hists.c - perf report's branch view (include/sampo/branch-hists.h):
 * perf 6.1's hist_iter_branch, its branch sort keys (util/sort.c:
 * comm, dso_from, symbol_from, symbol_to, cycles) and their column widths.
 *
 * Each entry of a sample's branch stack is resolved on both ends as perf's
 * ip__resolve_ams() does: the thread's maps first, then the kernel's; an
 * address no map covers has level 'H' and prints as a bare address. The
 * entry then counts 1 in the row of its (comm, source object, source
 * symbol or address, target symbol or address, cycles). Names are interned
 * and symbol bounds copied, so no map, DSO or symbol is held.
 *
 * Rows are printed by count, ties in perf's hist_entry__sort() order over
 * the keys; with only these keys that order is total, so a plain sort
 * gives perf's rows.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <sampo/branch-hists.h>
#include <sampo/dso.h>
#include <sampo/event.h>
#include <sampo/machine.h>
#include <sampo/map.h>
#include <sampo/sample.h>
#include <sampo/symbol.h>
#include <sampo/symbolizer.h>
#include <sampo/thread.h>

#include "internal/hash.h"
#include "internal/util.h"

/* one end of a branch, as perf's struct addr_map_symbol */
struct bside {
	const char *dso;      /* interned short name; NULL: no map */
	const char *sym_name; /* interned; NULL: unresolved */
	uint64_t sym_start, sym_end;
	uint64_t addr;	  /* as recorded: what perf compares */
	uint64_t al_addr; /* map-relative: what perf prints */
	char level;	  /* 'k', '.', or 'H' (no map) */
};

struct bentry {
	const char *comm;	     /* interned: the comm when the branch was taken */
	struct sampo_thread *thread; /* reference: the first sample's (its last comm sets widths) */
	struct bside from, to;
	uint16_t cycles;
	uint64_t period;
};

struct bev {
	struct bentry *entries;
	size_t nr, cap;
	struct sampo_hash_index ix;
	uint64_t nr_branches;
};

struct sampo_branch_hists {
	struct sampo_machine *machine;
	struct sampo_symbolizer *symbolizer;
	struct sampo_strpool strings;
	struct bev *ev;
	size_t nr_ev;
};

int sampo_branch_hists__new(struct sampo_machine *machine, struct sampo_symbolizer *symbolizer,
			    struct sampo_branch_hists **ret)
{
	struct sampo_branch_hists *bh = calloc(1, sizeof(*bh));

	if (!bh)
		return -ENOMEM;
	bh->machine = machine;
	bh->symbolizer = symbolizer;
	*ret = bh;
	return 0;
}

void sampo_branch_hists__delete(struct sampo_branch_hists *bh)
{
	if (!bh)
		return;
	for (size_t i = 0; i < bh->nr_ev; i++) {
		for (size_t j = 0; j < bh->ev[i].nr; j++)
			sampo_thread__put(bh->ev[i].entries[j].thread);
		free(bh->ev[i].entries);
		sampo_hash_index__release(&bh->ev[i].ix);
	}
	free(bh->ev);
	sampo_strpool__release(&bh->strings);
	free(bh);
}

static struct bev *branch_ev(struct sampo_branch_hists *bh, int evsel)
{
	size_t need = (size_t)evsel + 1;

	if (evsel < 0)
		return NULL;
	if (need > bh->nr_ev) {
		struct bev *ev = realloc(bh->ev, need * sizeof(*ev));

		if (!ev)
			return NULL;
		memset(ev + bh->nr_ev, 0, (need - bh->nr_ev) * sizeof(*ev));
		bh->ev = ev;
		bh->nr_ev = need;
	}
	return &bh->ev[evsel];
}

/* perf's ip__resolve_ams(): thread__find_cpumode_addr_location() of @addr */
static int resolve(struct sampo_branch_hists *bh, struct sampo_thread *thread, uint64_t addr,
		   struct bside *out)
{
	static const uint8_t modes[] = { SAMPO_CPUMODE_USER, SAMPO_CPUMODE_KERNEL };
	struct sampo_addr_location al = { 0 };
	struct sampo_map *map = NULL;
	int err = 0;

	memset(out, 0, sizeof(*out));
	out->addr = addr;
	out->al_addr = addr;
	out->level = 'H'; /* the guest modes perf tries last find nothing on the host */
	for (size_t i = 0; i < ARRAY_SIZE(modes) && !map; i++)
		map = sampo_machine__find_map(bh->machine, thread, modes[i], addr, &al);
	if (map) {
		const struct sampo_symbol *sym =
			bh->symbolizer ? sampo_symbolizer__find(bh->symbolizer, map, addr) : NULL;

		out->level = al.level;
		out->al_addr = al.addr;
		out->dso = sampo_strpool__intern(&bh->strings,
						 sampo_dso__short_name(sampo_map__dso(map)));
		if (!out->dso)
			err = -ENOMEM;
		if (sym && !err) {
			out->sym_name = sampo_strpool__intern(&bh->strings, sampo_symbol__name(sym));
			out->sym_start = sampo_symbol__start(sym);
			out->sym_end = sampo_symbol__end(sym);
			if (!out->sym_name)
				err = -ENOMEM;
		}
	}
	sampo_addr_location__exit(&al);
	return err;
}

/* what perf's symbol_from/symbol_to keys compare: the symbol's bounds, else the address */
static uint64_t side_hash(uint64_t h, const struct bside *s)
{
	if (s->sym_name)
		return hash_combine(hash_combine(h, s->sym_start), s->sym_end);
	return hash_combine(h ^ 1, s->addr);
}

static bool side_equal(const struct bside *a, const struct bside *b)
{
	if (!a->sym_name || !b->sym_name)
		return !a->sym_name && !b->sym_name && a->addr == b->addr;
	return a->sym_start == b->sym_start && a->sym_end == b->sym_end;
}

static int add_branch(struct bev *ev, const struct bentry *key, struct sampo_thread *thread)
{
	uint64_t h = hash_combine(hash_mix64((uintptr_t)key->comm), (uintptr_t)key->from.dso);
	size_t j;

	h = side_hash(side_hash(h, &key->from), &key->to);
	h = hash_combine(h, key->cycles);
	if ((ev->ix.nr + 1) * 2 > ev->ix.cap && sampo_hash_index__grow(&ev->ix))
		return -ENOMEM;
	for (j = h & (ev->ix.cap - 1); ev->ix.slots[j]; j = (j + 1) & (ev->ix.cap - 1)) {
		struct bentry *e = &ev->entries[ev->ix.slots[j] - 1];

		if (ev->ix.hashes[j] == h && e->comm == key->comm && e->from.dso == key->from.dso &&
		    e->cycles == key->cycles && side_equal(&e->from, &key->from) &&
		    side_equal(&e->to, &key->to)) {
			e->period++;
			return 0;
		}
	}
	if (sampo_array_grow((void **)&ev->entries, &ev->cap, ev->nr + 1, sizeof(*ev->entries)))
		return -ENOMEM;
	ev->entries[ev->nr] = *key;
	ev->entries[ev->nr].period = 1;
	ev->entries[ev->nr].thread = sampo_thread__get(thread);
	ev->ix.slots[j] = (uint32_t)++ev->nr;
	ev->ix.hashes[j] = h;
	ev->ix.nr++;
	return 0;
}

int sampo_branch_hists__add_sample(struct sampo_branch_hists *bh, int evsel,
				   const struct sampo_sample *sample)
{
	struct bev *ev = branch_ev(bh, evsel);
	struct sampo_thread *thread;
	struct bentry key;
	int err;

	if (!ev)
		return -ENOMEM;
	if (!(sample->sample_type & SAMPO_SAMPLE_BRANCH_STACK) || !sample->branch_nr)
		return 0;
	thread = sampo_machine__findnew_thread(bh->machine, (int32_t)sample->pid,
					       (int32_t)sample->tid);
	if (!thread)
		return -ENOMEM;
	memset(&key, 0, sizeof(key));
	key.comm = sampo_strpool__intern(&bh->strings, sampo_thread__comm(thread));
	err = key.comm ? 0 : -ENOMEM;
	for (uint64_t i = 0; i < sample->branch_nr && !err; i++) {
		const struct sampo_branch_entry *b = &sample->branch[i];

		err = resolve(bh, thread, b->to, &key.to);
		if (!err)
			err = resolve(bh, thread, b->from, &key.from);
		/* flags: mispred:1, predicted:1, in_tx:1, abort:1, cycles:16, ... */
		key.cycles = (uint16_t)(b->flags >> 4);
		if (!err)
			err = add_branch(ev, &key, thread);
		/* perf's pseudo period of 1: the branches are counted, not the samples */
		ev->nr_branches++;
	}
	sampo_thread__put(thread);
	return err;
}

uint64_t sampo_branch_hists__nr_branches(const struct sampo_branch_hists *bh, int evsel)
{
	return evsel >= 0 && (size_t)evsel < bh->nr_ev ? bh->ev[evsel].nr_branches : 0;
}

/* perf's _sort__addr_cmp(): > 0 when @a goes first */
static int addr_first(uint64_t a, uint64_t b)
{
	int64_t d = (int64_t)(b - a);

	return d > 0 ? 1 : -(d < 0);
}

/* sort__sym_from_cmp() / sort__sym_to_cmp(): > 0 when @a goes first */
static int side_first(const struct bside *a, const struct bside *b)
{
	if (!a->sym_name && !b->sym_name)
		return addr_first(a->addr, b->addr);
	if (!a->sym_name || !b->sym_name)
		return a->sym_name ? 1 : -1; /* cmp_null(): a missing one goes last */
	if (a->sym_start != b->sym_start)
		return addr_first(a->sym_start, b->sym_start);
	return addr_first(a->sym_end, b->sym_end);
}

/* qsort order: perf's hist_entry__sort(), count first, then the keys (> 0: a first) */
static int row_cmp(const void *pa, const void *pb)
{
	const struct bentry *a = *(const struct bentry *const *)pa;
	const struct bentry *b = *(const struct bentry *const *)pb;
	int c;

	if (a->period != b->period)
		return a->period > b->period ? -1 : 1;
	/* comm: sort__comm_sort(), strcmp(right, left) */
	if (a->comm != b->comm) {
		c = strcmp(a->comm, b->comm);
		if (c)
			return c;
	}
	/* dso_from: _sort__dso_cmp(), strcmp(left, right); cmp_null(right, left) */
	if (a->from.dso != b->from.dso) {
		if (!a->from.dso || !b->from.dso)
			return a->from.dso ? 1 : -1;
		c = strcmp(a->from.dso, b->from.dso);
		if (c)
			return -c;
	}
	c = side_first(&a->from, &b->from);
	if (!c)
		c = side_first(&a->to, &b->to);
	/* cycles: sort__cycles_cmp(), left - right */
	if (!c && a->cycles != b->cycles)
		c = a->cycles > b->cycles ? 1 : -1;
	return -c;
}

/* hists__calc_col_len() of one end's symbol: the name, or an unresolved address */
static size_t side_width(const struct bside *s)
{
	return s->sym_name ? strlen(s->sym_name) + 4 : 16 + 4 + 2;
}

static int print_side(FILE *fp, const struct bside *s, int w)
{
	char buf[64];
	int n;

	if (s->sym_name) {
		n = fprintf(fp, "[%c] %.*s", s->level, w > 4 ? w - 4 : 0, s->sym_name);
	} else {
		snprintf(buf, sizeof(buf), "[%c] %-#.*" PRIx64, s->level, 16, s->al_addr);
		n = fprintf(fp, "%s", buf);
	}
	return n < w ? fprintf(fp, "%*s", w - n, "") : 0;
}

int sampo_branch_hists__fprintf(const struct sampo_branch_hists *bh, int evsel, FILE *fp)
{
	static const char *const headers[] = { "Command", "Source Shared Object", "Source Symbol",
					       "Target Symbol", "Basic Block Cycles" };
	size_t width[ARRAY_SIZE(headers)];
	const struct bev *ev;
	const struct bentry **rows;
	uint64_t total;

	if (evsel < 0 || (size_t)evsel >= bh->nr_ev)
		return 0;
	ev = &bh->ev[evsel];
	total = ev->nr_branches;
	rows = malloc((ev->nr ? ev->nr : 1) * sizeof(*rows));
	if (!rows)
		return -ENOMEM;
	for (size_t k = 0; k < ARRAY_SIZE(headers); k++)
		width[k] = strlen(headers[k]);
	for (size_t i = 0; i < ev->nr; i++) {
		const struct bentry *e = &ev->entries[i];
		size_t w;

		rows[i] = e;
		/* perf's hists__calc_col_len(): the thread's comm now, not the row's */
		w = strlen(sampo_thread__comm(e->thread));
		if (w > width[0])
			width[0] = w;
		/* a resolved source names its object's width, an unresolved one 16 */
		w = e->from.sym_name ? strlen(e->from.dso) : 16;
		if (w > width[1])
			width[1] = w;
		if (side_width(&e->from) > width[2])
			width[2] = side_width(&e->from);
		if (side_width(&e->to) > width[3])
			width[3] = side_width(&e->to);
	}
	qsort(rows, ev->nr, sizeof(*rows), row_cmp);

	fputs("# Overhead", fp);
	for (size_t k = 0; k < ARRAY_SIZE(headers); k++)
		fprintf(fp, "  %-*s", (int)width[k], headers[k]);
	fputs("\n# ........", fp);
	for (size_t k = 0; k < ARRAY_SIZE(headers); k++) {
		fputs("  ", fp);
		for (size_t d = 0; d < width[k]; d++)
			fputc('.', fp);
	}
	fputs("\n#\n", fp);
	for (size_t i = 0; i < ev->nr; i++) {
		const struct bentry *e = rows[i];
		int w;

		fprintf(fp, "  %7.2f%%", total ? (double)e->period * 100.0 / (double)total : 0.0);
		w = (int)width[0];
		fprintf(fp, "  %-*.*s", w, w, e->comm);
		w = (int)width[1];
		fprintf(fp, "  %-*.*s", w, w, e->from.dso ? e->from.dso : "[unknown]");
		fputs("  ", fp);
		print_side(fp, &e->from, (int)width[2]);
		fputs("  ", fp);
		print_side(fp, &e->to, (int)width[3]);
		w = (int)width[4];
		if (e->cycles) /* perf's "%hd": 16 bits, signed */
			fprintf(fp, "  %-*d\n", w, (int)(int16_t)e->cycles);
		else
			fprintf(fp, "  %-*s\n", w, "-");
	}
	free(rows);
	return ferror(fp) ? -EIO : 0;
}

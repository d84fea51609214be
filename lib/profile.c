// SPDX-License-Identifier: LGPL-2.1
/*
 * profile.c - one profile from many perf.data files (include/sampo/profile.h)
 *
 * Each file gets a session of its own (its own machine, kernel maps and
 * symbolizer: KASLR slides and build-ids never meet another file's) and a
 * sampo_hists sorted by comm,dso,sym; its rows, once resorted, become
 * string-keyed rows here: (event name, host, comm, dso name, dso build-id,
 * symbol, level). Strings are interned, so a key compares by pointers, and
 * the shared object's build-id is part of the key: two versions of one path
 * stay apart, one binary seen on two hosts joins.
 *
 * Worker threads take the files by an atomic counter. Each reads its file
 * into a session and histograms of its own (nothing shared while reading,
 * the bulk of the work), then takes the profile's lock to add the file's
 * rows and distinct stacks to the one profile (a few percent of the work).
 * A file's session and histograms are freed before the worker takes the
 * next, so memory grows with the distinct rows and stacks of the inputs,
 * never with the number of files, nor with the number of workers.
 */
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sampo/dso.h>
#include <sampo/feature.h>
#include <sampo/hist.h>
#include <sampo/machine.h>
#include <sampo/map.h>
#include <sampo/profile.h>
#include <sampo/reader.h>
#include <sampo/session.h>
#include <sampo/symbolizer.h>

#include "internal/hash.h"
#include "internal/opts.h"

struct pevent {
	const char *name; /* interned */
	uint64_t nr_samples;
	uint64_t total_period;
};

struct sampo_profile {
	struct sampo_strpool strings;
	struct sampo_profile_row *rows;
	size_t nr_rows, cap_rows;
	struct sampo_hash_index row_ix;

	struct sampo_profile_frame *frames;
	size_t nr_frames, cap_frames;
	struct sampo_hash_index frame_ix;
	/* stacks: their frames as runs in the arena (.frames is set by the accessor) */
	struct sampo_profile_stack *stacks;
	size_t *stack_off;
	size_t nr_stacks, cap_stacks;
	struct sampo_hash_index stack_ix;
	uint32_t *arena;
	size_t arena_nr, arena_cap;

	/* names that stand for several build-ids, sorted by pointer; rebuilt when stale */
	const char **ambiguous;
	size_t nr_ambiguous;
	bool ambiguous_stale;

	struct pevent *events;
	size_t nr_events;
	uint64_t lost;
	size_t nr_files;
};

int sampo_profile__new(struct sampo_profile **ret)
{
	*ret = calloc(1, sizeof(**ret));
	return *ret ? 0 : -ENOMEM;
}

void sampo_profile__delete(struct sampo_profile *p)
{
	if (!p)
		return;
	sampo_strpool__release(&p->strings);
	sampo_hash_index__release(&p->row_ix);
	sampo_hash_index__release(&p->frame_ix);
	sampo_hash_index__release(&p->stack_ix);
	free(p->rows);
	free(p->frames);
	free(p->stacks);
	free(p->stack_off);
	free(p->arena);
	free(p->ambiguous);
	free(p->events);
	free(p);
}

/* NULL stays NULL; anything else is the pool's copy, or fails */
static int intern(struct sampo_profile *p, const char *s, const char **ret)
{
	if (!s) {
		*ret = NULL;
		return 0;
	}
	*ret = sampo_strpool__intern(&p->strings, s);
	return *ret ? 0 : -ENOMEM;
}

static int find_event(struct sampo_profile *p, const char *name, size_t *ret)
{
	struct pevent *ev;
	const char *in;

	if (intern(p, name, &in))
		return -ENOMEM;
	for (size_t i = 0; i < p->nr_events; i++) {
		if (p->events[i].name == in) {
			*ret = i;
			return 0;
		}
	}
	ev = realloc(p->events, (p->nr_events + 1) * sizeof(*ev));
	if (!ev)
		return -ENOMEM;
	p->events = ev;
	ev[p->nr_events] = (struct pevent){ .name = in };
	*ret = p->nr_events++;
	return 0;
}

static uint64_t row_hash(const struct sampo_profile_row *r)
{
	uint64_t h = hash_mix64(r->event);

	h = hash_combine(h, (uintptr_t)r->host);
	h = hash_combine(h, (uintptr_t)r->comm);
	h = hash_combine(h, (uintptr_t)r->dso);
	h = hash_combine(h, (uintptr_t)r->dso_id);
	h = hash_combine(h, (uintptr_t)r->symbol);
	return hash_combine(h, (uint64_t)(unsigned char)r->level << 1 | r->resolved);
}

static bool row_equal(const struct sampo_profile_row *a, const struct sampo_profile_row *b)
{
	return a->event == b->event && a->host == b->host && a->comm == b->comm &&
	       a->dso == b->dso && a->dso_id == b->dso_id && a->symbol == b->symbol &&
	       a->level == b->level && a->resolved == b->resolved;
}

/* add @key's counts to its row, made on first sight (@key's strings are interned) */
static int add_row(struct sampo_profile *p, const struct sampo_profile_row *key)
{
	struct sampo_hash_index *ix = &p->row_ix;
	struct sampo_profile_row *r;
	uint64_t h = row_hash(key);
	size_t j;

	if ((ix->nr + 1) * 2 > ix->cap && sampo_hash_index__grow(ix))
		return -ENOMEM;
	for (j = h & (ix->cap - 1); ix->slots[j]; j = (j + 1) & (ix->cap - 1)) {
		r = &p->rows[ix->slots[j] - 1];
		if (ix->hashes[j] == h && row_equal(r, key)) {
			r->period += key->period;
			r->self += key->self;
			r->nr_samples += key->nr_samples;
			return 0;
		}
	}
	if (p->nr_rows == p->cap_rows) {
		size_t cap = p->cap_rows ? p->cap_rows * 2 : 256;
		struct sampo_profile_row *rows = realloc(p->rows, cap * sizeof(*rows));

		if (!rows)
			return -ENOMEM;
		p->rows = rows;
		p->cap_rows = cap;
	}
	p->rows[p->nr_rows++] = *key;
	ix->slots[j] = (uint32_t)p->nr_rows;
	ix->hashes[j] = h;
	ix->nr++;
	p->ambiguous_stale = true;
	return 0;
}

/* grow @*arr (of @size-byte items, @*cap of them) to hold @need */
static int grow(void **arr, size_t *cap, size_t need, size_t size)
{
	size_t n = *cap ? *cap : 256;
	void *a;

	if (need <= *cap)
		return 0;
	while (n < need)
		n *= 2;
	a = realloc(*arr, n * size);
	if (!a)
		return -ENOMEM;
	*arr = a;
	*cap = n;
	return 0;
}

/* the index of the frame @key (interned strings), made on first sight */
static int findnew_frame(struct sampo_profile *p, const struct sampo_profile_frame *key,
			 uint32_t *ret)
{
	struct sampo_hash_index *ix = &p->frame_ix;
	uint64_t h = hash_mix64((uintptr_t)key->dso);
	size_t j;

	h = hash_combine(h, (uintptr_t)key->dso_id);
	h = hash_combine(h, (uintptr_t)key->symbol);
	h = hash_combine(h, (uint64_t)(unsigned char)key->level << 1 | key->resolved);
	if ((ix->nr + 1) * 2 > ix->cap && sampo_hash_index__grow(ix))
		return -ENOMEM;
	for (j = h & (ix->cap - 1); ix->slots[j]; j = (j + 1) & (ix->cap - 1)) {
		const struct sampo_profile_frame *f = &p->frames[ix->slots[j] - 1];

		if (ix->hashes[j] == h && f->dso == key->dso && f->dso_id == key->dso_id &&
		    f->symbol == key->symbol && f->level == key->level &&
		    f->resolved == key->resolved) {
			*ret = ix->slots[j] - 1;
			return 0;
		}
	}
	if (grow((void **)&p->frames, &p->cap_frames, p->nr_frames + 1, sizeof(*p->frames)))
		return -ENOMEM;
	p->frames[p->nr_frames] = *key;
	*ret = (uint32_t)p->nr_frames++;
	ix->slots[j] = (uint32_t)p->nr_frames;
	ix->hashes[j] = h;
	ix->nr++;
	p->ambiguous_stale = true;
	return 0;
}

/* add @key's counts to its stack (frames: @frames, @key's strings interned) */
static int add_stack(struct sampo_profile *p, const struct sampo_profile_stack *key,
		     const uint32_t *frames)
{
	struct sampo_hash_index *ix = &p->stack_ix;
	uint64_t h = hash_mix64(key->event);
	size_t j, nr = key->nr_frames;

	h = hash_combine(h, (uintptr_t)key->host);
	h = hash_combine(h, (uintptr_t)key->comm);
	for (size_t i = 0; i < nr; i++)
		h = hash_combine(h, frames[i]);
	if ((ix->nr + 1) * 2 > ix->cap && sampo_hash_index__grow(ix))
		return -ENOMEM;
	for (j = h & (ix->cap - 1); ix->slots[j]; j = (j + 1) & (ix->cap - 1)) {
		size_t i = ix->slots[j] - 1;
		struct sampo_profile_stack *s = &p->stacks[i];

		if (ix->hashes[j] == h && s->event == key->event && s->host == key->host &&
		    s->comm == key->comm && s->nr_frames == nr &&
		    (!nr || !memcmp(p->arena + p->stack_off[i], frames, nr * sizeof(*frames)))) {
			s->period += key->period;
			s->nr_samples += key->nr_samples;
			return 0;
		}
	}
	if (grow((void **)&p->arena, &p->arena_cap, p->arena_nr + nr, sizeof(*p->arena)))
		return -ENOMEM;
	if (p->nr_stacks == p->cap_stacks) {
		size_t cap = p->cap_stacks;

		if (grow((void **)&p->stacks, &cap, p->nr_stacks + 1, sizeof(*p->stacks)) ||
		    grow((void **)&p->stack_off, &p->cap_stacks, p->nr_stacks + 1,
			 sizeof(*p->stack_off)))
			return -ENOMEM;
	}
	p->stacks[p->nr_stacks] = *key;
	p->stacks[p->nr_stacks].frames = NULL;
	p->stack_off[p->nr_stacks] = p->arena_nr;
	memcpy(p->arena + p->arena_nr, frames, nr * sizeof(*frames));
	p->arena_nr += nr;
	ix->slots[j] = (uint32_t)++p->nr_stacks;
	ix->hashes[j] = h;
	ix->nr++;
	return 0;
}

static void build_id_hex(const uint8_t *bid, size_t size, char *buf)
{
	static const char hex[] = "0123456789abcdef";

	for (size_t i = 0; i < size; i++) {
		buf[2 * i] = hex[bid[i] >> 4];
		buf[2 * i + 1] = hex[bid[i] & 15];
	}
	buf[2 * size] = '\0';
}

/*
 * The recorded build-id of @dso: its MMAP2's, else the file's BUILD_ID
 * table entry for its long name (perf's build-id table: the host's
 * entries, pid -1), else for its short name (the kernel's
 * "[kernel.kallsyms]").
 */
static const uint8_t *dso_build_id(struct sampo_session *session, struct sampo_dso *dso,
				   size_t *size)
{
	const struct sampo_features *f = sampo_session__features(session);
	const uint8_t *bid = sampo_dso__build_id(dso, size);
	const char *names[2] = { sampo_dso__long_name(dso), sampo_dso__short_name(dso) };

	if (bid && *size)
		return bid;
	if (!f || !sampo_features__has(f, SAMPO_FEAT_BUILD_ID))
		return NULL;
	for (size_t n = 0; n < 2; n++) {
		for (size_t i = 0; names[n] && i < f->nr_build_ids; i++) {
			const struct sampo_feat_build_id *b = &f->build_ids[i];

			if (b->pid == sampo_dso__machine_pid(dso) && b->size && b->filename &&
			    !strcmp(b->filename, names[n])) {
				*size = b->size;
				return b->build_id;
			}
		}
	}
	return NULL;
}

/* the interned hex build-id of each DSO met in one file, by DSO pointer */
struct dso_ids {
	struct sampo_hash_index ix;
	struct dso_id_item {
		const void *dso;
		const char *id;
	} *items;
	size_t nr, cap;
};

static void dso_ids_release(struct dso_ids *c)
{
	sampo_hash_index__release(&c->ix);
	free(c->items);
}

/* @dso's build-id as interned hex in *@ret (NULL: none); looked up once per DSO and file */
static int dso_id(struct sampo_profile *p, struct dso_ids *c, struct sampo_session *session,
		  struct sampo_dso *dso, const char **ret)
{
	uint64_t h = hash_mix64((uintptr_t)dso);
	char hex[2 * 64 + 1];
	const uint8_t *bid;
	size_t j, size = 0;

	*ret = NULL;
	if (!dso)
		return 0;
	if ((c->ix.nr + 1) * 2 > c->ix.cap && sampo_hash_index__grow(&c->ix))
		return -ENOMEM;
	for (j = h & (c->ix.cap - 1); c->ix.slots[j]; j = (j + 1) & (c->ix.cap - 1)) {
		if (c->items[c->ix.slots[j] - 1].dso == dso) {
			*ret = c->items[c->ix.slots[j] - 1].id;
			return 0;
		}
	}
	bid = dso_build_id(session, dso, &size);
	if (bid && size && size <= 64) {
		build_id_hex(bid, size, hex);
		if (intern(p, hex, ret))
			return -ENOMEM;
	}
	if (grow((void **)&c->items, &c->cap, c->nr + 1, sizeof(*c->items)))
		return -ENOMEM;
	c->items[c->nr++] = (struct dso_id_item){ dso, *ret };
	c->ix.slots[j] = (uint32_t)c->nr;
	c->ix.hashes[j] = h;
	c->ix.nr++;
	return 0;
}

/*
 * The name of an address no symbol covers. In the kernel's own map it is
 * the offset from the file's reference symbol, "_text+0x30040": each boot
 * slides the kernel (KASLR), so one instruction of one kernel has another
 * address in each file, but the same offset from _text. Elsewhere it is
 * @addr as given (an object's offset, or the address where no map covers
 * it). The build-id stays in the frame's key: offsets of two kernels never
 * join.
 */
static void unresolved_name(struct sampo_session *session, const struct sampo_dso *dso,
			    uint64_t ip, uint64_t addr, bool padded, char *buf, size_t sz)
{
	struct sampo_machine *m = sampo_session__machine(session);
	struct sampo_map *kmap = m ? sampo_machine__kernel_map(m) : NULL;
	const char *ref;
	uint64_t ref_addr;

	if (dso && kmap && sampo_map__dso(kmap) == dso &&
	    sampo_machine__kernel_ref_reloc(m, &ref, &ref_addr) && ip >= ref_addr) {
		snprintf(buf, sz, "%s+%#" PRIx64, ref, ip - ref_addr);
		return;
	}
	if (padded) /* as the --stdio printer shows a row's address */
		snprintf(buf, sz, "%-#.*" PRIx64, 16, addr);
	else
		snprintf(buf, sz, "%#" PRIx64, addr);
}

static int add_entry(struct sampo_profile *p, struct dso_ids *ids, struct sampo_session *session,
		     size_t event, const char *host, const struct sampo_hist_entry *e)
{
	struct sampo_profile_row key = {
		.event = event,
		.host = host,
		.level = sampo_hist_entry__level(e),
		.period = sampo_hist_entry__period(e),
		.self = sampo_hist_entry__self_period(e),
		.nr_samples = sampo_hist_entry__nr_samples(e),
	};
	const char *sym = sampo_hist_entry__symbol_name(e);
	char addr[64];

	if (dso_id(p, ids, session, sampo_hist_entry__dso(e), &key.dso_id))
		return -ENOMEM;
	key.resolved = sym != NULL;
	if (!sym) {
		unresolved_name(session, sampo_hist_entry__dso(e), sampo_hist_entry__ip(e),
				sampo_hist_entry__ip(e), true, addr, sizeof(addr));
		sym = addr;
	}
	if (intern(p, sampo_hist_entry__comm(e), &key.comm) ||
	    intern(p, sampo_hist_entry__dso_name(e), &key.dso) || intern(p, sym, &key.symbol))
		return -ENOMEM;
	return add_row(p, &key);
}

int sampo_profile__add_hists(struct sampo_profile *p, const char *host,
			     struct sampo_session *session, const struct sampo_hists *hists)
{
	struct sampo_reader *reader = sampo_session__reader(session);
	const struct sampo_session_lost *lost = sampo_session__lost(session);
	struct dso_ids ids = { 0 };
	const char *in_host;
	int err = 0;

	if (intern(p, host, &in_host))
		return -ENOMEM;
	for (size_t i = 0; i < sampo_reader__nr_attrs(reader); i++) {
		const struct sampo_hist_entry *e;
		size_t ev;
		uint64_t nr = sampo_hists__nr_samples(hists, (int)i);

		if (!nr)
			continue;
		err = find_event(p, sampo_session__evsel_name(session, (int)i), &ev);
		if (err)
			goto out;
		p->events[ev].nr_samples += nr;
		p->events[ev].total_period += sampo_hists__total_period(hists, (int)i);
		sampo_hists__for_each_entry(hists, (int)i, e) {
			err = add_entry(p, &ids, session, ev, in_host, e);
			if (err)
				goto out;
		}
	}
	p->lost += lost->lost + lost->lost_samples;
	p->nr_files++;
out:
	dso_ids_release(&ids);
	return err;
}

struct stack_walk {
	struct sampo_profile *p;
	struct sampo_session *session;
	const char *host;
	size_t *ev_of; /* the profile's event of each attr, SIZE_MAX: not yet known */
	size_t nr_attrs;
	uint32_t *ids;
	size_t cap_ids;
	struct dso_ids dso_ids;
	/* the profile's frame of each hists frame id, + 1 (0: not yet known) */
	uint32_t *frame_of;
	size_t cap_frame_of;
};

static int walk_stack(void *arg, const struct sampo_hist_stack *st)
{
	struct stack_walk *w = arg;
	struct sampo_profile *p = w->p;
	struct sampo_profile_stack key = {
		.host = w->host,
		.period = st->period,
		.nr_samples = st->nr_samples,
		.nr_frames = st->nr_frames,
	};
	int err;

	if (st->filtered || st->evsel < 0 || (size_t)st->evsel >= w->nr_attrs)
		return 0;
	if (w->ev_of[st->evsel] == SIZE_MAX) {
		err = find_event(p, sampo_session__evsel_name(w->session, st->evsel),
				 &w->ev_of[st->evsel]);
		if (err)
			return err;
	}
	key.event = w->ev_of[st->evsel];
	if (intern(p, st->comm, &key.comm))
		return -ENOMEM;
	if (grow((void **)&w->ids, &w->cap_ids, st->nr_frames, sizeof(*w->ids)))
		return -ENOMEM;
	for (size_t i = 0; i < st->nr_frames; i++) {
		const struct sampo_hist_frame *f = &st->frames[i];
		struct sampo_profile_frame fk = { .level = f->level, .resolved = f->symbol != NULL };
		char addr[64] = ""; /* read only for a frame without a symbol */

		/* a frame of the file is looked up once, however many stacks share it */
		if (f->id < w->cap_frame_of && w->frame_of[f->id]) {
			w->ids[i] = w->frame_of[f->id] - 1;
			continue;
		}
		if (dso_id(p, &w->dso_ids, w->session, f->dso, &fk.dso_id))
			return -ENOMEM;
		if (!f->symbol)
			unresolved_name(w->session, f->dso, f->ip, f->dso ? f->rel_ip : f->ip, false,
					addr, sizeof(addr));
		if (intern(p, f->dso_name, &fk.dso) ||
		    intern(p, f->symbol ? f->symbol : addr, &fk.symbol))
			return -ENOMEM;
		err = findnew_frame(p, &fk, &w->ids[i]);
		if (err)
			return err;
		if (f->id >= w->cap_frame_of) {
			size_t old_cap = w->cap_frame_of;

			if (grow((void **)&w->frame_of, &w->cap_frame_of, (size_t)f->id + 1,
				 sizeof(*w->frame_of)))
				return -ENOMEM;
			memset(w->frame_of + old_cap, 0,
			       (w->cap_frame_of - old_cap) * sizeof(*w->frame_of));
		}
		w->frame_of[f->id] = w->ids[i] + 1;
	}
	return add_stack(p, &key, w->ids);
}

int sampo_profile__add_stacks(struct sampo_profile *p, const char *host,
			      struct sampo_session *session, const struct sampo_hists *hists)
{
	struct stack_walk w = { .p = p, .session = session };
	int err;

	w.nr_attrs = sampo_reader__nr_attrs(sampo_session__reader(session));
	w.ev_of = malloc((w.nr_attrs ? w.nr_attrs : 1) * sizeof(*w.ev_of));
	if (!w.ev_of || intern(p, host, &w.host)) {
		free(w.ev_of);
		return -ENOMEM;
	}
	for (size_t i = 0; i < w.nr_attrs; i++)
		w.ev_of[i] = SIZE_MAX;
	err = sampo_hists__walk_stacks(hists, walk_stack, &w);
	dso_ids_release(&w.dso_ids);
	free(w.frame_of);
	free(w.ev_of);
	free(w.ids);
	return err;
}

int sampo_profile__merge(struct sampo_profile *dst, const struct sampo_profile *src)
{
	size_t *ev_map = calloc(src->nr_events ? src->nr_events : 1, sizeof(*ev_map));
	uint32_t *fmap = NULL, *ids = NULL;
	size_t cap_ids = 0;
	int err = 0;

	if (!ev_map)
		return -ENOMEM;
	for (size_t i = 0; i < src->nr_events && !err; i++) {
		err = find_event(dst, src->events[i].name, &ev_map[i]);
		if (!err) {
			dst->events[ev_map[i]].nr_samples += src->events[i].nr_samples;
			dst->events[ev_map[i]].total_period += src->events[i].total_period;
		}
	}
	for (size_t i = 0; i < src->nr_rows && !err; i++) {
		struct sampo_profile_row key = src->rows[i];

		key.event = ev_map[key.event];
		if (intern(dst, key.host, &key.host) || intern(dst, key.comm, &key.comm) ||
		    intern(dst, key.dso, &key.dso) || intern(dst, key.dso_id, &key.dso_id) ||
		    intern(dst, key.symbol, &key.symbol))
			err = -ENOMEM;
		else
			err = add_row(dst, &key);
	}
	if (!err && src->nr_frames && !(fmap = malloc(src->nr_frames * sizeof(*fmap))))
		err = -ENOMEM;
	for (size_t i = 0; i < src->nr_frames && !err; i++) {
		struct sampo_profile_frame fk = src->frames[i];

		if (intern(dst, fk.dso, &fk.dso) || intern(dst, fk.dso_id, &fk.dso_id) ||
		    intern(dst, fk.symbol, &fk.symbol))
			err = -ENOMEM;
		else
			err = findnew_frame(dst, &fk, &fmap[i]);
	}
	for (size_t i = 0; i < src->nr_stacks && !err; i++) {
		struct sampo_profile_stack key = src->stacks[i];
		const uint32_t *fr = src->arena + src->stack_off[i];

		key.event = ev_map[key.event];
		if (grow((void **)&ids, &cap_ids, key.nr_frames, sizeof(*ids)) ||
		    intern(dst, key.host, &key.host) || intern(dst, key.comm, &key.comm)) {
			err = -ENOMEM;
			break;
		}
		for (size_t d = 0; d < key.nr_frames; d++)
			ids[d] = fmap[fr[d]];
		err = add_stack(dst, &key, ids);
	}
	free(fmap);
	free(ids);
	if (!err) {
		dst->lost += src->lost;
		dst->nr_files += src->nr_files;
	}
	free(ev_map);
	return err;
}

const char *sampo_profile__host_label(struct sampo_session *session, const char *path)
{
	struct sampo_features *f = sampo_session__features(session);

	if (f && sampo_features__has(f, SAMPO_FEAT_HOSTNAME) && f->hostname && *f->hostname)
		return f->hostname;
	return path;
}

/* ---- reading files ------------------------------------------------------ */

struct reading {
	const char *const *paths;
	size_t nr;
	const struct sampo_hists_opts *hopts;
	const struct sampo_symbolizer_opts *sopts;
	bool threaded; /* each session reads in a thread of its own (one worker only) */
	bool stacks;
	struct sampo_profile *profile; /* the one profile every worker adds to */
	pthread_mutex_t profile_lock;
	atomic_size_t next;
	atomic_bool stop;
	pthread_mutex_t lock; /* the first error */
	int err;
	char *errbuf;
	size_t errbuf_sz;
};

struct worker {
	struct reading *rd;
	pthread_t thread;
	bool started;
};

static void fail(struct reading *rd, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void fail(struct reading *rd, int err, const char *fmt, ...)
{
	va_list ap;

	atomic_store(&rd->stop, true);
	pthread_mutex_lock(&rd->lock);
	if (!rd->err) {
		rd->err = err;
		if (rd->errbuf && rd->errbuf_sz) {
			va_start(ap, fmt);
			vsnprintf(rd->errbuf, rd->errbuf_sz, fmt, ap);
			va_end(ap);
		}
	}
	pthread_mutex_unlock(&rd->lock);
}

/* the file the calling worker is reading, for sampo_profile__current_file() */
static _Thread_local const char *reading_path;

const char *sampo_profile__current_file(void)
{
	return reading_path;
}

static int on_sample(void *arg, struct sampo_session *session, const struct sampo_event *ev)
{
	(void)session;
	return sampo_hists__add_sample(arg, ev->attr_idx, &ev->sample);
}

static int read_one(struct reading *rd, const char *path)
{
	struct sampo_profile *p = rd->profile;
	char errbuf[512] = "";
	SAMPO_OPTS(sampo_session_opts, opts, .ordered = true, .threaded = rd->threaded,
		   .features = SAMPO_SESSION_FEATURES_EACH, .symbolizer = rd->sopts,
		   .errbuf = errbuf, .errbuf_sz = sizeof(errbuf));
	SAMPO_OPTS(sampo_symbolizer_opts, no_sopts);
	struct sampo_hists_opts hopts;
	static const enum sampo_sort_key keys[] = { SAMPO_SORT_COMM, SAMPO_SORT_DSO,
						    SAMPO_SORT_SYM };
	const struct sampo_tool tool = { .sample = on_sample };
	const struct sampo_tool *tp = &tool;
	struct sampo_session *s = NULL;
	struct sampo_hists *h = NULL;
	struct sampo_symbolizer *sym;
	int err;

	if (!opts.symbolizer)
		opts.symbolizer = &no_sopts;
	reading_path = path;
	err = sampo_session__open(path, &opts, &s);
	if (err) {
		fail(rd, err, "%s", errbuf);
		return err;
	}
	sym = sampo_session__symbolizer(s);
	if (!sym) {
		err = -ENOMEM;
		fail(rd, err, "%s", sampo_session__error(s));
		goto out;
	}
	memset(&hopts, 0, sizeof(hopts));
	if (rd->hopts)
		memcpy(&hopts, rd->hopts,
		       rd->hopts->sz < sizeof(hopts) ? rd->hopts->sz : sizeof(hopts));
	hopts.sz = sizeof(hopts);
	if (rd->stacks) {
		/* the resolved chains, leaf first; self periods in the rows */
		hopts.callchain = true;
		hopts.children = false;
		hopts.caller_order = false;
		hopts.no_graph = true;
	}
	hopts.sort_keys = keys;
	hopts.nr_sort_keys = sizeof(keys) / sizeof(keys[0]);
	err = sampo_hists__new(sampo_session__machine(s), sym, &hopts, &h);
	if (err) {
		fail(rd, err, "%s: cannot set up the histograms: %s", path, strerror(-err));
		goto out;
	}
	err = sampo_session__process(s, tp, h);
	if (err) {
		fail(rd, err, "%s", sampo_session__error(s));
		goto out;
	}
	err = sampo_hists__resort(h);
	if (!err) {
		pthread_mutex_lock(&rd->profile_lock);
		err = sampo_profile__add_hists(p, sampo_profile__host_label(s, path), s, h);
		if (!err && rd->stacks)
			err = sampo_profile__add_stacks(p, sampo_profile__host_label(s, path), s,
							h);
		pthread_mutex_unlock(&rd->profile_lock);
	}
	if (err)
		fail(rd, err, "%s: %s", path, strerror(-err));
out:
	sampo_hists__delete(h);
	sampo_session__close(s);
	reading_path = NULL;
	return err;
}

static void *work(void *arg)
{
	struct worker *w = arg;
	struct reading *rd = w->rd;

	while (!atomic_load(&rd->stop)) {
		size_t i = atomic_fetch_add(&rd->next, 1);

		if (i >= rd->nr || read_one(rd, rd->paths[i]))
			break;
	}
	return NULL;
}

int sampo_profile__read_files(struct sampo_profile *p, const char *const *paths, size_t nr,
			      const struct sampo_profile_opts *opts)
{
	struct reading rd = { .paths = paths, .nr = nr, .profile = p };
	struct worker *workers;
	size_t nr_workers;
	long ncpu;

	if (!OPTS_VALID(opts, sampo_profile_opts))
		return -EINVAL;
	rd.hopts = OPTS_GET(opts, hists, NULL);
	rd.sopts = OPTS_GET(opts, symbolizer, NULL);
	rd.errbuf = OPTS_GET(opts, errbuf, NULL);
	rd.stacks = OPTS_GET(opts, stacks, false);
	rd.errbuf_sz = OPTS_GET(opts, errbuf_sz, 0);
	if (rd.errbuf && rd.errbuf_sz)
		rd.errbuf[0] = '\0';
	nr_workers = OPTS_GET(opts, nr_threads, 0);
	if (!nr_workers) {
		ncpu = sysconf(_SC_NPROCESSORS_ONLN);
		nr_workers = ncpu > 0 ? (size_t)ncpu : 1;
	}
	if (nr_workers > nr)
		nr_workers = nr ? nr : 1;
	/* one worker: its session may read ahead in a second thread, as report does */
	rd.threaded = nr_workers == 1;
	atomic_init(&rd.next, 0);
	atomic_init(&rd.stop, false);
	pthread_mutex_init(&rd.lock, NULL);
	pthread_mutex_init(&rd.profile_lock, NULL);

	workers = calloc(nr_workers, sizeof(*workers));
	if (!workers) {
		pthread_mutex_destroy(&rd.lock);
		pthread_mutex_destroy(&rd.profile_lock);
		return -ENOMEM;
	}
	for (size_t i = 0; i < nr_workers; i++)
		workers[i].rd = &rd;
	/* this thread is worker 0 */
	for (size_t i = 1; i < nr_workers && !rd.err; i++) {
		if (pthread_create(&workers[i].thread, NULL, work, &workers[i]))
			break; /* the others take its share */
		workers[i].started = true;
	}
	if (!rd.err)
		work(&workers[0]);
	for (size_t i = 1; i < nr_workers; i++)
		if (workers[i].started)
			pthread_join(workers[i].thread, NULL);
	free(workers);
	pthread_mutex_destroy(&rd.lock);
	pthread_mutex_destroy(&rd.profile_lock);
	return rd.err;
}

/* ---- accessors ---------------------------------------------------------- */

size_t sampo_profile__nr_rows(const struct sampo_profile *p)
{
	return p->nr_rows;
}

const struct sampo_profile_row *sampo_profile__row(const struct sampo_profile *p, size_t idx)
{
	return idx < p->nr_rows ? &p->rows[idx] : NULL;
}

size_t sampo_profile__nr_events(const struct sampo_profile *p)
{
	return p->nr_events;
}

const char *sampo_profile__event_name(const struct sampo_profile *p, size_t event)
{
	return event < p->nr_events ? p->events[event].name : NULL;
}

uint64_t sampo_profile__event_nr_samples(const struct sampo_profile *p, size_t event)
{
	return event < p->nr_events ? p->events[event].nr_samples : 0;
}

uint64_t sampo_profile__event_total_period(const struct sampo_profile *p, size_t event)
{
	return event < p->nr_events ? p->events[event].total_period : 0;
}

uint64_t sampo_profile__lost(const struct sampo_profile *p)
{
	return p->lost;
}

size_t sampo_profile__nr_files(const struct sampo_profile *p)
{
	return p->nr_files;
}

size_t sampo_profile__nr_stacks(const struct sampo_profile *p)
{
	return p->nr_stacks;
}

const struct sampo_profile_stack *sampo_profile__stack(const struct sampo_profile *p, size_t idx)
{
	struct sampo_profile_stack *s;

	if (idx >= p->nr_stacks)
		return NULL;
	/* the arena moves as it grows: point into it now */
	s = (struct sampo_profile_stack *)&p->stacks[idx];
	s->frames = p->arena + p->stack_off[idx];
	return s;
}

size_t sampo_profile__nr_frames(const struct sampo_profile *p)
{
	return p->nr_frames;
}

const struct sampo_profile_frame *sampo_profile__frame(const struct sampo_profile *p, size_t idx)
{
	return idx < p->nr_frames ? &p->frames[idx] : NULL;
}

struct dso_pair {
	const char *dso, *dso_id;
};

static int cmp_pair(const void *x, const void *y)
{
	const struct dso_pair *a = x, *b = y;

	if (a->dso != b->dso)
		return (uintptr_t)a->dso < (uintptr_t)b->dso ? -1 : 1;
	if (a->dso_id != b->dso_id)
		return (uintptr_t)a->dso_id < (uintptr_t)b->dso_id ? -1 : 1;
	return 0;
}

static int cmp_ptr(const void *x, const void *y)
{
	uintptr_t a = (uintptr_t)*(const char *const *)x, b = (uintptr_t)*(const char *const *)y;

	return (a > b) - (a < b);
}

/* the names with more than one build-id among rows and frames (interned: by pointer) */
static int find_ambiguous(struct sampo_profile *p)
{
	size_t n = p->nr_rows + p->nr_frames, k = 0;
	struct dso_pair *pairs = malloc((n ? n : 1) * sizeof(*pairs));

	if (!pairs)
		return -ENOMEM;
	for (size_t i = 0; i < p->nr_rows; i++)
		pairs[k++] = (struct dso_pair){ p->rows[i].dso, p->rows[i].dso_id };
	for (size_t i = 0; i < p->nr_frames; i++)
		pairs[k++] = (struct dso_pair){ p->frames[i].dso, p->frames[i].dso_id };
	qsort(pairs, k, sizeof(*pairs), cmp_pair);
	free(p->ambiguous);
	p->ambiguous = NULL;
	p->nr_ambiguous = 0;
	for (size_t i = 1; i < k; i++) {
		if (!pairs[i].dso || pairs[i].dso != pairs[i - 1].dso ||
		    pairs[i].dso_id == pairs[i - 1].dso_id)
			continue;
		if (p->nr_ambiguous && p->ambiguous[p->nr_ambiguous - 1] == pairs[i].dso)
			continue;
		{
			const char **a = realloc(p->ambiguous, (p->nr_ambiguous + 1) * sizeof(*a));

			if (!a) {
				free(pairs);
				return -ENOMEM;
			}
			p->ambiguous = a;
			a[p->nr_ambiguous++] = pairs[i].dso;
		}
	}
	free(pairs);
	p->ambiguous_stale = false;
	return 0;
}

const char *sampo_profile__dso_label(const struct sampo_profile *cp, const char *dso,
				     const char *dso_id, char *buf, size_t size)
{
	struct sampo_profile *p = (struct sampo_profile *)cp; /* the label cache only */
	const char *in;

	if (!dso)
		return "[unknown]";
	if (p->ambiguous_stale && find_ambiguous(p))
		return dso;
	in = sampo_strpool__intern(&p->strings, dso);
	/* bsearch may not be given a null array, even an empty one */
	if (!in || !p->nr_ambiguous ||
	    !bsearch(&in, p->ambiguous, p->nr_ambiguous, sizeof(*p->ambiguous), cmp_ptr))
		return dso;
	snprintf(buf, size, "%s@%.12s", dso, dso_id ? dso_id : "none");
	return buf;
}

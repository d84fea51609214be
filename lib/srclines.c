// SPDX-License-Identifier: LGPL-2.1
/*
 * srclines.c - the per-DSO cache of source lines and inline chains
 * (include/sampo/srclines.h) over lib/srcline.c.
 *
 * A profile asks for the same addresses many times (every sample of a hot
 * loop, every chain through one call site), and a DWARF lookup walks the
 * unit's scopes (a line alone does not: sampo_srclines__find_line(), cached
 * apart): each (DSO, address) is looked up once, its chain copied
 * into the DSO's array of frames and its place kept in an open-addressing
 * table keyed by the address. A repeated lookup is one hash probe: no
 * DWARF, no allocation. The DSOs are few; the last one asked for is
 * checked first.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sampo/buildid.h>
#include <sampo/dso.h>
#include <sampo/srclines.h>
#include <sampo/symbolizer.h>

#include "internal/hash.h"
#include "internal/util.h"

struct sl_slot {
	uint64_t addr;
	uint32_t off; /* first frame in sl_dso.frames */
	uint16_t nr;  /* frames; 0: nothing known */
	uint8_t used;
	uint8_t line_only; /* a line, no function names: sampo_srclines__find_line() */
};

struct sl_dso {
	const struct sampo_dso *dso;
	bool has_file; /* its symbols came from an ELF file */
	struct sampo_srcline *src; /* NULL: no DWARF */
	struct sl_slot *slots;
	size_t cap, nr; /* cap: a power of two, or 0 */
	struct sampo_srcline_frame *frames;
	size_t nr_frames, cap_frames;
};

struct sampo_srclines {
	struct sampo_symbolizer *symbolizer;
	struct sl_dso *dsos;
	size_t nr_dsos, cap_dsos;
	size_t last; /* the DSO asked for last, + 1 (0: none) */
};

int sampo_srclines__new(struct sampo_symbolizer *symbolizer, struct sampo_srclines **ret)
{
	struct sampo_srclines *sl = calloc(1, sizeof(*sl));

	*ret = NULL;
	if (!sl)
		return -ENOMEM;
	sl->symbolizer = symbolizer;
	*ret = sl;
	return 0;
}

void sampo_srclines__delete(struct sampo_srclines *sl)
{
	if (!sl)
		return;
	for (size_t i = 0; i < sl->nr_dsos; i++) {
		sampo_srcline__close(sl->dsos[i].src);
		free(sl->dsos[i].slots);
		free(sl->dsos[i].frames);
	}
	free(sl->dsos);
	free(sl);
}

/* @dso's entry, its DWARF opened when the symbolizer read its symbols from a file */
static struct sl_dso *dso_entry(struct sampo_srclines *sl, struct sampo_dso *dso)
{
	struct sampo_symbolizer_dso_info info;
	struct sampo_build_id bid = { 0 };
	const uint8_t *id;
	struct sl_dso *d;
	size_t size = 0;

	if (sl->last && sl->dsos[sl->last - 1].dso == dso)
		return &sl->dsos[sl->last - 1];
	for (size_t i = 0; i < sl->nr_dsos; i++) {
		if (sl->dsos[i].dso == dso) {
			sl->last = i + 1;
			return &sl->dsos[i];
		}
	}
	if (sampo_array_grow((void **)&sl->dsos, &sl->cap_dsos, sl->nr_dsos + 1, sizeof(*sl->dsos)))
		return NULL;
	d = &sl->dsos[sl->nr_dsos];
	memset(d, 0, sizeof(*d));
	d->dso = dso;
	if (sl->symbolizer && !sampo_symbolizer__dso_info(sl->symbolizer, dso, &info) &&
	    info.placement == SAMPO_PLACED_FILE && info.path) {
		d->has_file = true;
		id = sampo_dso__build_id(dso, &size);
		if (id && size && size <= sizeof(bid.data)) {
			memcpy(bid.data, id, size);
			bid.size = size;
		}
		/* no recorded id: the file's own finds its debug file by build-id */
		if (!bid.size && sampo_build_id__from_elf(info.path, &bid))
			bid.size = 0;
		if (sampo_srcline__open(info.path, bid.size ? &bid : NULL, &d->src))
			d->src = NULL;
	}
	sl->last = ++sl->nr_dsos;
	return d;
}

static int slots_grow(struct sl_dso *d)
{
	size_t ncap = d->cap ? d->cap * 2 : 256;
	struct sl_slot *n = calloc(ncap, sizeof(*n));

	if (!n)
		return -ENOMEM;
	for (size_t i = 0; i < d->cap; i++) {
		size_t j;

		if (!d->slots[i].used)
			continue;
		for (j = hash_mix64(d->slots[i].addr ^ d->slots[i].line_only) & (ncap - 1); n[j].used;
		     j = (j + 1) & (ncap - 1))
			;
		n[j] = d->slots[i];
	}
	free(d->slots);
	d->slots = n;
	d->cap = ncap;
	return 0;
}

/* the answer for (@d, @addr, @line_only), looked up and kept at first sight */
static int lookup(struct sl_dso *d, uint64_t addr, bool line_only,
		  const struct sampo_srcline_frame **ret_frames, size_t *ret_nr)
{
	struct sampo_srcline_frame fr[SAMPO_SRCLINES_MAX_INLINE];
	struct sl_slot *s;
	size_t j, nr = 0;

	if (d->cap) {
		for (j = hash_mix64(addr ^ line_only) & (d->cap - 1); d->slots[j].used;
		     j = (j + 1) & (d->cap - 1)) {
			if (d->slots[j].addr == addr && d->slots[j].line_only == line_only) {
				*ret_frames = d->frames + d->slots[j].off;
				*ret_nr = d->slots[j].nr;
				return 0;
			}
		}
	}
	/* first sight of @addr: ask the DWARF, keep the answer */
	if ((d->nr + 1) * 2 > d->cap && slots_grow(d))
		return -ENOMEM;
	if (d->src && line_only)
		nr = sampo_srcline__find_line(d->src, addr, fr) ? 0 : 1;
	else if (d->src && sampo_srcline__find(d->src, addr, fr, ARRAY_SIZE(fr), &nr))
		nr = 0;
	if (nr && sampo_array_grow((void **)&d->frames, &d->cap_frames, d->nr_frames + nr,
				   sizeof(*d->frames)))
		return -ENOMEM;
	for (j = hash_mix64(addr ^ line_only) & (d->cap - 1); d->slots[j].used;
	     j = (j + 1) & (d->cap - 1))
		;
	s = &d->slots[j];
	s->addr = addr;
	s->off = (uint32_t)d->nr_frames;
	s->nr = (uint16_t)nr;
	s->used = 1;
	s->line_only = line_only;
	d->nr++;
	if (nr)
		memcpy(d->frames + d->nr_frames, fr, nr * sizeof(*fr));
	d->nr_frames += nr;
	*ret_frames = d->frames + s->off;
	*ret_nr = nr;
	return 0;
}

int sampo_srclines__find(struct sampo_srclines *sl, struct sampo_dso *dso, uint64_t addr,
			 const struct sampo_srcline_frame **ret_frames, size_t *ret_nr)
{
	struct sl_dso *d = dso_entry(sl, dso);

	*ret_frames = NULL;
	*ret_nr = 0;
	return d ? lookup(d, addr, false, ret_frames, ret_nr) : -ENOMEM;
}

int sampo_srclines__find_line(struct sampo_srclines *sl, struct sampo_dso *dso, uint64_t addr,
			      const struct sampo_srcline_frame **ret)
{
	struct sl_dso *d = dso_entry(sl, dso);
	size_t nr = 0;
	int err;

	*ret = NULL;
	if (!d)
		return -ENOMEM;
	err = lookup(d, addr, true, ret, &nr);
	if (!nr)
		*ret = NULL;
	return err;
}

bool sampo_srclines__dso_has_file(struct sampo_srclines *sl, struct sampo_dso *dso)
{
	const struct sl_dso *d = dso_entry(sl, dso);

	return d && d->has_file;
}

int sampo_srcline_frame__format(const struct sampo_srcline_frame *fr, char *buf, size_t sz)
{
	const char *base;

	if (!fr->file || !*fr->file)
		return -ENOENT;
	base = strrchr(fr->file, '/');
	base = base ? base + 1 : fr->file;
	return snprintf(buf, sz, "%s:%u", base, (unsigned int)fr->line);
}

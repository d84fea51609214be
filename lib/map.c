// SPDX-License-Identifier: LGPL-2.1
/*
 * map.c - maps and the maps of a process (include/sampo/map.h): a map is
 * an address range [start, end) of a DSO at a file offset; the maps of a
 * process (or the kernel's) are map references sorted by start, kept in
 * chunks (see below), with the last hit (lookups come in runs).
 *
 * Invariants:
 * - a map is never modified once inserted; cutting an old map makes new
 *   maps, so containers (parent and child after a fork) share map objects;
 * - user maps of one process do not overlap: an insert first removes or
 *   trims what the new map covers (perf's maps__fixup_overlappings);
 *   kernel maps may overlap, and so may user maps after a fork into a
 *   process that already had some (may_overlap);
 * - the array holds a reference to each map, a map one to its DSO.
 *
 * Where kernel maps overlap (a zero-length kernel MMAP), perf's red-black
 * tree picks one depending on its shape; sampo_maps__find() picks the one
 * with the highest start.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <sampo/map.h>
#include "internal/dso.h"
#include "internal/map.h"
#include "internal/util.h"

/* ---- map ---------------------------------------------------------------- */

struct sampo_map *sampo_map__new(uint64_t start, uint64_t end, uint64_t pgoff,
				 struct sampo_dso *dso)
{
	struct sampo_map *map = calloc(1, sizeof(*map));

	if (!map)
		return NULL;
	map->refcnt = 1;
	map->start = start;
	map->end = end;
	map->pgoff = pgoff;
	map->dso = sampo_dso__get(dso);
	return map;
}

struct sampo_map *sampo_map__clone_range(const struct sampo_map *from, uint64_t start, uint64_t end,
					 uint64_t pgoff)
{
	struct sampo_map *map = sampo_map__new(start, end, pgoff, from->dso);

	if (!map)
		return NULL;
	map->prot = from->prot;
	map->flags = from->flags;
	map->identity = from->identity;
	return map;
}

struct sampo_map *sampo_map__get(struct sampo_map *map)
{
	if (map)
		map->refcnt++;
	return map;
}

void sampo_map__put(struct sampo_map *map)
{
	if (!map || --map->refcnt > 0)
		return;
	sampo_dso__put(map->dso);
	free(map);
}

uint64_t sampo_map__start(const struct sampo_map *map)
{
	return map->start;
}

uint64_t sampo_map__end(const struct sampo_map *map)
{
	return map->end;
}

uint64_t sampo_map__pgoff(const struct sampo_map *map)
{
	return map->pgoff;
}

uint32_t sampo_map__prot(const struct sampo_map *map)
{
	return map->prot;
}

uint32_t sampo_map__flags(const struct sampo_map *map)
{
	return map->flags;
}

struct sampo_dso *sampo_map__dso(const struct sampo_map *map)
{
	return map->dso;
}

uint64_t sampo_map__map_ip(const struct sampo_map *map, uint64_t addr)
{
	return map->identity ? addr : addr - map->start + map->pgoff;
}

/* ---- maps: of a process, or the kernel's -------------------------------- */

/*
 * The maps are a sequence of chunks of at most MAPS_CHUNK map references,
 * in order: inserting or removing moves at most one chunk's entries, and
 * the chunk table moves only when a chunk is made or emptied, so a million
 * MMAPs in any order cost a few seconds at most, where one sorted array
 * cost minutes in descending order. A full chunk is split in two halves,
 * except at either end of the sequence (ascending or descending inserts),
 * where the new map starts a chunk of its own.
 */
struct sampo_maps_chunk {
	size_t nr;
	uint64_t max_end; /* the highest end of its maps: lookups skip chunks that end before */
	struct sampo_map *e[MAPS_CHUNK]; /* references, sorted by start */
};

static void chunk_update_max_end(struct sampo_maps_chunk *ch)
{
	ch->max_end = 0;
	for (size_t o = 0; o < ch->nr; o++)
		ch->max_end = MAX(ch->max_end, ch->e[o]->end);
}

/* a position in the sequence: chunk @c, entry @o (o == nr of the last chunk: the end) */
struct maps_pos {
	size_t c, o;
};

struct sampo_maps *sampo_maps__new(void)
{
	struct sampo_maps *maps = calloc(1, sizeof(*maps));

	if (maps)
		maps->refcnt = 1;
	return maps;
}

struct sampo_maps *sampo_maps__get(struct sampo_maps *maps)
{
	if (maps)
		maps->refcnt++;
	return maps;
}

void sampo_maps__put(struct sampo_maps *maps)
{
	if (!maps || --maps->refcnt > 0)
		return;
	for (size_t c = 0; c < maps->nr_chunks; c++) {
		for (size_t o = 0; o < maps->chunks[c]->nr; o++)
			sampo_map__put(maps->chunks[c]->e[o]);
		free(maps->chunks[c]);
	}
	free(maps->chunks);
	free(maps->prefix);
	free(maps);
}

static struct sampo_map *maps_at_pos(const struct sampo_maps *maps, struct maps_pos p)
{
	return maps->chunks[p.c]->e[p.o];
}

/* the position before @p; false at the start */
static bool maps_prev(const struct sampo_maps *maps, struct maps_pos *p)
{
	if (p->o > 0) {
		p->o--;
		return true;
	}
	while (p->c > 0) {
		p->c--;
		if (maps->chunks[p->c]->nr) {
			p->o = maps->chunks[p->c]->nr - 1;
			return true;
		}
	}
	return false;
}

/*
 * The first map whose start is greater than @addr (@strict false: @addr or
 * more), or the end. Chunks are in order, so the chunk holding it is the
 * first whose last map is past @addr.
 */
static struct maps_pos maps_bound(const struct sampo_maps *maps, uint64_t addr, bool strict)
{
	size_t lo = 0, hi = maps->nr_chunks;
	struct sampo_maps_chunk *ch;

	if (!maps->nr_chunks)
		return (struct maps_pos){ 0, 0 };
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		uint64_t last = maps->chunks[mid]->e[maps->chunks[mid]->nr - 1]->start;

		if (strict ? last <= addr : last < addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == maps->nr_chunks)
		return (struct maps_pos){ lo - 1, maps->chunks[lo - 1]->nr };
	ch = maps->chunks[lo];
	hi = ch->nr;
	for (size_t l = 0; l < hi;) {
		size_t mid = l + (hi - l) / 2;

		if (strict ? ch->e[mid]->start <= addr : ch->e[mid]->start < addr)
			l = mid + 1;
		else
			hi = mid;
	}
	return (struct maps_pos){ lo, hi };
}

/* a new empty chunk at index @c of the table */
static int maps_add_chunk(struct sampo_maps *maps, size_t c)
{
	struct sampo_maps_chunk *ch;

	if (maps->nr_chunks == maps->cap_chunks) {
		size_t ncap = maps->cap_chunks ? maps->cap_chunks * 2 : 4;
		struct sampo_maps_chunk **nc = realloc(maps->chunks, ncap * sizeof(*nc));

		if (!nc)
			return -ENOMEM;
		maps->chunks = nc;
		maps->cap_chunks = ncap;
	}
	ch = malloc(sizeof(*ch));
	if (!ch)
		return -ENOMEM;
	ch->nr = 0;
	ch->max_end = 0;
	memmove(&maps->chunks[c + 1], &maps->chunks[c],
		(maps->nr_chunks - c) * sizeof(*maps->chunks));
	maps->chunks[c] = ch;
	maps->nr_chunks++;
	return 0;
}

/* make room at @p: on return @p is where to store, in a chunk that is not full */
static int maps_make_room(struct sampo_maps *maps, struct maps_pos *p)
{
	struct sampo_maps_chunk *ch, *next;
	int err;

	if (!maps->nr_chunks)
		return maps_add_chunk(maps, 0);
	ch = maps->chunks[p->c];
	if (ch->nr < MAPS_CHUNK)
		return 0;
	if (p->o == 0 && p->c > 0 && maps->chunks[p->c - 1]->nr < MAPS_CHUNK) {
		p->c--;
		p->o = maps->chunks[p->c]->nr;
		return 0;
	}
	if (p->o == ch->nr && p->c + 1 < maps->nr_chunks &&
	    maps->chunks[p->c + 1]->nr < MAPS_CHUNK) {
		p->c++;
		p->o = 0;
		return 0;
	}
	if (p->o == 0 && p->c == 0)
		return maps_add_chunk(maps, 0);
	if (p->o == ch->nr && p->c + 1 == maps->nr_chunks) {
		err = maps_add_chunk(maps, p->c + 1);
		if (!err) {
			p->c++;
			p->o = 0;
		}
		return err;
	}
	/* split in halves */
	err = maps_add_chunk(maps, p->c + 1);
	if (err)
		return err;
	next = maps->chunks[p->c + 1];
	next->nr = ch->nr - MAPS_CHUNK / 2;
	memcpy(next->e, &ch->e[MAPS_CHUNK / 2], next->nr * sizeof(*next->e));
	ch->nr = MAPS_CHUNK / 2;
	chunk_update_max_end(ch);
	chunk_update_max_end(next);
	if (p->o > ch->nr) {
		p->o -= ch->nr;
		p->c++;
	}
	return 0;
}

/* Takes a new reference to @map; keeps the sequence sorted, after maps of equal start. */
int sampo_maps__insert(struct sampo_maps *maps, struct sampo_map *map)
{
	struct maps_pos p = maps_bound(maps, map->start, true);
	struct sampo_maps_chunk *ch;
	int err = maps_make_room(maps, &p);

	if (err)
		return err;
	ch = maps->chunks[p.c];
	memmove(&ch->e[p.o + 1], &ch->e[p.o], (ch->nr - p.o) * sizeof(*ch->e));
	ch->e[p.o] = sampo_map__get(map);
	ch->nr++;
	ch->max_end = MAX(ch->max_end, map->end);
	maps->nr++;
	maps->prefix_valid = false;
	maps->last = map;
	return 0;
}

static void maps_remove_at(struct sampo_maps *maps, struct maps_pos p)
{
	struct sampo_maps_chunk *ch = maps->chunks[p.c];
	struct sampo_map *map = ch->e[p.o];

	memmove(&ch->e[p.o], &ch->e[p.o + 1], (ch->nr - p.o - 1) * sizeof(*ch->e));
	ch->nr--;
	chunk_update_max_end(ch);
	if (!ch->nr) {
		free(ch);
		memmove(&maps->chunks[p.c], &maps->chunks[p.c + 1],
			(maps->nr_chunks - p.c - 1) * sizeof(*maps->chunks));
		maps->nr_chunks--;
	}
	maps->nr--;
	maps->prefix_valid = false;
	/* the next lookup tries the first map first, as the array's index 0 did */
	maps->last = NULL;
	sampo_map__put(map);
}

void sampo_maps__remove(struct sampo_maps *maps, const struct sampo_map *map)
{
	struct maps_pos p = maps_bound(maps, map->start, false);

	/* it is among the maps of its start, which begin at @p */
	for (; p.c < maps->nr_chunks; p.c++, p.o = 0) {
		for (; p.o < maps->chunks[p.c]->nr; p.o++) {
			const struct sampo_map *e = maps_at_pos(maps, p);

			if (e == map) {
				maps_remove_at(maps, p);
				return;
			}
			if (e->start != map->start)
				return;
		}
	}
}

size_t sampo_maps__nr(const struct sampo_maps *maps)
{
	return maps->nr;
}

struct sampo_map *sampo_maps__at(struct sampo_maps *maps, size_t idx)
{
	size_t lo = 0, hi = maps->nr_chunks;

	if (idx >= maps->nr)
		return NULL;
	/* prefix[c]: maps before chunk c; rebuilt after a change, so a walk by index is linear */
	if (!maps->prefix_valid) {
		size_t *np = realloc(maps->prefix, maps->nr_chunks * sizeof(*np));
		size_t sum = 0;

		if (!np)
			return NULL;
		maps->prefix = np;
		for (size_t c = 0; c < maps->nr_chunks; c++) {
			np[c] = sum;
			sum += maps->chunks[c]->nr;
		}
		maps->prefix_valid = true;
	}
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;

		if (maps->prefix[mid] <= idx)
			lo = mid;
		else
			hi = mid;
	}
	return maps->chunks[lo]->e[idx - maps->prefix[lo]];
}

/* The map covering @addr (borrowed), or NULL. */
struct sampo_map *sampo_maps__find(struct sampo_maps *maps, uint64_t addr)
{
	struct sampo_map *map = maps->last;
	struct maps_pos p;

	if (!map && maps->nr)
		map = maps->chunks[0]->e[0];
	/* where maps overlap, a later-starting one may hold @addr too: it wins */
	if (map && addr >= map->start && addr < map->end && !maps->may_overlap)
		return map;
	/* the candidates start at or before @addr; without overlaps only the last one can hold it */
	p = maps_bound(maps, addr, true);
	while (maps_prev(maps, &p)) {
		/* overlapping maps: a chunk that ends before @addr holds no candidate */
		if (maps->may_overlap && maps->chunks[p.c]->max_end <= addr) {
			p.o = 0;
			continue;
		}
		map = maps_at_pos(maps, p);
		if (addr < map->end) {
			maps->last = map;
			return map;
		}
		if (!maps->may_overlap && map->start != map->end)
			break;
	}
	return NULL;
}

/*
 * Make room for @map: remove the maps it overlaps and put back the parts of
 * them it does not cover, with their file offsets adjusted (perf's
 * maps__fixup_overlappings). The walk goes down from the first map at or
 * past @map's end; the parts put back land at or after the walk's position
 * (they start where the removed map did, or at @map's end), so it goes on
 * from the map before the removed one, found again by its start.
 */
int sampo_maps__fixup_overlaps(struct sampo_maps *maps, const struct sampo_map *map)
{
	struct maps_pos p = maps_bound(maps, map->end, false);

	/* a map starting exactly at map->end does not overlap, but one of length 0 before it may */
	while (maps_prev(maps, &p)) {
		struct sampo_map *pos = maps_at_pos(maps, p);
		struct sampo_map *before = NULL, *after = NULL, *prev = NULL;
		struct maps_pos q = p;
		int err = 0;

		if (pos->end <= map->start && pos->start < map->start)
			break;
		if (pos->start >= map->end)
			continue;
		if (map->start > pos->start) {
			before = sampo_map__clone_range(pos, pos->start, map->start, pos->pgoff);
			if (!before)
				return -ENOMEM;
		}
		if (map->end < pos->end) {
			after = sampo_map__clone_range(pos, map->end, pos->end,
						       pos->pgoff + (map->end - pos->start));
			if (!after) {
				sampo_map__put(before);
				return -ENOMEM;
			}
		}
		if (maps_prev(maps, &q))
			prev = maps_at_pos(maps, q);
		maps_remove_at(maps, p);
		if (before)
			err = sampo_maps__insert(maps, before);
		if (after && !err)
			err = sampo_maps__insert(maps, after);
		sampo_map__put(before);
		sampo_map__put(after);
		if (err)
			return err;
		if (!prev)
			break;
		/* go on just after @prev: back from the first map past its start */
		p = maps_bound(maps, prev->start, true);
		q = p;
		while (maps_prev(maps, &q) && maps_at_pos(maps, q) != prev)
			;
		p = (struct maps_pos){ q.c, q.o + 1 };
	}
	return 0;
}

/* Copy every map of @from into @to, as perf's maps__clone (no overlap fixup). */
int sampo_maps__clone_into(struct sampo_maps *to, const struct sampo_maps *from)
{
	if (to->nr && from->nr)
		to->may_overlap = true;
	for (size_t c = 0; c < from->nr_chunks; c++) {
		for (size_t o = 0; o < from->chunks[c]->nr; o++) {
			int err = sampo_maps__insert(to, from->chunks[c]->e[o]);

			if (err)
				return err;
		}
	}
	return 0;
}

// SPDX-License-Identifier: LGPL-2.1
/*
 * map.c - maps and the maps of a process (include/sampo/map.h): a map is
 * an address range [start, end) of a DSO at a file offset; the maps of a
 * process (or the kernel's) are a sorted array of map references, by
 * start, with the index of the last hit (lookups come in runs).
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
	for (size_t i = 0; i < maps->nr; i++)
		sampo_map__put(maps->entries[i]);
	free(maps->entries);
	free(maps);
}

/* Index of the first map whose start is greater than @addr. */
static size_t maps_upper_bound(const struct sampo_maps *maps, uint64_t addr)
{
	size_t lo = 0, hi = maps->nr;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (maps->entries[mid]->start <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Index of the first map whose start is @addr or more. */
static size_t maps_lower_bound(const struct sampo_maps *maps, uint64_t addr)
{
	size_t lo = 0, hi = maps->nr;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (maps->entries[mid]->start < addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Takes a new reference to @map; keeps the array sorted, after maps of equal start. */
int sampo_maps__insert(struct sampo_maps *maps, struct sampo_map *map)
{
	size_t pos;

	if (maps->nr == maps->cap) {
		size_t ncap = maps->cap ? maps->cap * 2 : 16;
		struct sampo_map **ne = realloc(maps->entries, ncap * sizeof(*ne));

		if (!ne)
			return -ENOMEM;
		maps->entries = ne;
		maps->cap = ncap;
	}
	pos = maps_upper_bound(maps, map->start);
	memmove(&maps->entries[pos + 1], &maps->entries[pos],
		(maps->nr - pos) * sizeof(*maps->entries));
	maps->entries[pos] = sampo_map__get(map);
	maps->nr++;
	maps->last = pos;
	return 0;
}

static void maps_remove_at(struct sampo_maps *maps, size_t idx)
{
	struct sampo_map *map = maps->entries[idx];

	memmove(&maps->entries[idx], &maps->entries[idx + 1],
		(maps->nr - idx - 1) * sizeof(*maps->entries));
	maps->nr--;
	maps->last = 0;
	sampo_map__put(map);
}

void sampo_maps__remove(struct sampo_maps *maps, const struct sampo_map *map)
{
	for (size_t i = 0; i < maps->nr; i++) {
		if (maps->entries[i] == map) {
			maps_remove_at(maps, i);
			return;
		}
	}
}

/* The map covering @addr (borrowed), or NULL. */
struct sampo_map *sampo_maps__find(struct sampo_maps *maps, uint64_t addr)
{
	struct sampo_map *map;
	size_t i;

	if (maps->last < maps->nr) {
		map = maps->entries[maps->last];
		if (addr >= map->start && addr < map->end)
			return map;
	}
	/* the candidates start at or before @addr; without overlaps only the last one can hold it */
	i = maps_upper_bound(maps, addr);
	while (i > 0) {
		map = maps->entries[--i];
		if (addr < map->end) {
			maps->last = i;
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
 * maps__fixup_overlappings).
 */
int sampo_maps__fixup_overlaps(struct sampo_maps *maps, const struct sampo_map *map)
{
	size_t end_idx = maps_lower_bound(maps, map->end);
	size_t i = end_idx;

	/* a map starting exactly at map->end does not overlap, but one of length 0 before it may */
	while (i > 0) {
		struct sampo_map *pos = maps->entries[i - 1];
		struct sampo_map *before = NULL, *after = NULL;
		int err = 0;

		if (pos->end <= map->start && pos->start < map->start)
			break;
		i--;
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
		maps_remove_at(maps, i);
		if (before)
			err = sampo_maps__insert(maps, before);
		if (after && !err)
			err = sampo_maps__insert(maps, after);
		sampo_map__put(before);
		sampo_map__put(after);
		if (err)
			return err;
	}
	return 0;
}

/* Copy every map of @from into @to, as perf's maps__clone (no overlap fixup). */
int sampo_maps__clone_into(struct sampo_maps *to, const struct sampo_maps *from)
{
	if (to->nr && from->nr)
		to->may_overlap = true;
	for (size_t i = 0; i < from->nr; i++) {
		int err = sampo_maps__insert(to, from->entries[i]);

		if (err)
			return err;
	}
	return 0;
}
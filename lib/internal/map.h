/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * internal/map.h - the struct bodies of a map and of the maps of a process
 * (see include/sampo/map.h and lib/map.c).
 */
#ifndef SAMPO_INTERNAL_MAP_H
#define SAMPO_INTERNAL_MAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <sampo/map.h>

struct sampo_dso;

/* Immutable once inserted: containers share map objects (fork) by reference. */
struct sampo_map {
	int refcnt;
	uint64_t start;
	uint64_t end; /* exclusive */
	uint64_t pgoff;
	uint32_t prot;
	uint32_t flags;
	bool identity;	       /* map_ip is the identity (anonymous memory, the kernel map) */
	struct sampo_dso *dso; /* reference */
};

/* map references per chunk of a maps (lib/map.c): moving one chunk's costs a few cache lines */
#define MAPS_CHUNK 256

struct sampo_maps_chunk;

/*
 * The maps of one process (or the kernel), sorted by start, in chunks
 * (lib/map.c). User maps never overlap (an insert first cuts what it
 * covers); kernel maps may.
 */
struct sampo_maps {
	int refcnt;
	size_t nr;			  /* maps in all chunks */
	struct sampo_maps_chunk **chunks; /* none empty */
	size_t nr_chunks, cap_chunks;
	size_t *prefix; /* maps before each chunk, for sampo_maps__at() */
	bool prefix_valid;
	struct sampo_map *last; /* the last hit (lookups come in runs); NULL: try the first */
	bool may_overlap;	/* kernel maps; user maps after a fork into a non-empty process */
};

/* a map of [@start, @end) of @dso (referenced) at file offset @pgoff; NULL: no memory */
struct sampo_map *sampo_map__new(uint64_t start, uint64_t end, uint64_t pgoff,
				 struct sampo_dso *dso);
/* a copy of @from (DSO, prot, flags) over [@start, @end) at @pgoff; NULL: no memory */
struct sampo_map *sampo_map__clone_range(const struct sampo_map *from, uint64_t start, uint64_t end,
					 uint64_t pgoff);

/* empty maps, one reference; NULL: no memory */
struct sampo_maps *sampo_maps__new(void);
struct sampo_maps *sampo_maps__get(struct sampo_maps *maps);
void sampo_maps__put(struct sampo_maps *maps);
/* add a reference to @map, after the maps of equal start (no overlap fixup). Return: 0, -ENOMEM */
int sampo_maps__insert(struct sampo_maps *maps, struct sampo_map *map);
/* drop @map from @maps, if there */
void sampo_maps__remove(struct sampo_maps *maps, const struct sampo_map *map);
/* how many maps */
size_t sampo_maps__nr(const struct sampo_maps *maps);
/* map @idx by increasing start (borrowed); NULL past the end or out of memory */
struct sampo_map *sampo_maps__at(struct sampo_maps *maps, size_t idx);
/* the map covering @addr (borrowed), or NULL */
struct sampo_map *sampo_maps__find(struct sampo_maps *maps, uint64_t addr);
/* perf's maps__fixup_overlappings(): make room for @map. Return: 0, -ENOMEM */
int sampo_maps__fixup_overlaps(struct sampo_maps *maps, const struct sampo_map *map);
/* perf's maps__clone(): every map of @from into @to. Return: 0, -ENOMEM */
int sampo_maps__clone_into(struct sampo_maps *to, const struct sampo_maps *from);

#endif /* SAMPO_INTERNAL_MAP_H */

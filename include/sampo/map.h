/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * map.h - a map of the recorded machine: an address range [start, end) of
 * a DSO at a file offset, as an MMAP or MMAP2 record (or the kernel's
 * maps) made it.
 *
 * A map never changes once its machine holds it (a later MMAP over it makes
 * new maps), so a reference taken with sampo_map__get() stays valid and
 * true to what was looked up.
 */
#ifndef SAMPO_MAP_H
#define SAMPO_MAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <sampo/common.h>

struct sampo_map;
struct sampo_dso;

SAMPO_API struct sampo_map *sampo_map__get(struct sampo_map *map);
SAMPO_API void sampo_map__put(struct sampo_map *map);

SAMPO_API uint64_t sampo_map__start(const struct sampo_map *map);
SAMPO_API uint64_t sampo_map__end(const struct sampo_map *map); /* exclusive */
SAMPO_API uint64_t sampo_map__pgoff(const struct sampo_map *map);
SAMPO_API uint32_t sampo_map__prot(const struct sampo_map *map);  /* PROT_* */
SAMPO_API uint32_t sampo_map__flags(const struct sampo_map *map); /* MAP_* */
/** sampo_map__dso() - the DSO mapped (borrowed, lives as long as the map) */
SAMPO_API struct sampo_dso *sampo_map__dso(const struct sampo_map *map);
/**
 * sampo_map__map_ip() - turn an address into an offset in the DSO
 *
 * addr - start + pgoff, or @addr itself for maps with no file behind them
 * (anonymous, heap, stack, the kernel map).
 */
SAMPO_API uint64_t sampo_map__map_ip(const struct sampo_map *map, uint64_t addr);

#endif /* SAMPO_MAP_H */

// SPDX-License-Identifier: LGPL-2.1
/*
 * hash.c - the open-addressing index and the string pool of
 * internal/hash.h, shared by the histograms' tables (frames, stacks,
 * entries) and their interned names.
 *
 * The index grows by doubling and rehashes from the stored hashes, never
 * from the items, so it works over any array the caller keeps. It is never
 * more than half full, so a probe always ends at an empty slot. The pool's
 * strings are never freed one by one: they live as long as the pool.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "internal/hash.h"
#include "internal/util.h"

int sampo_hash_index__grow(struct sampo_hash_index *ix)
{
	size_t ncap = ix->cap ? ix->cap * 2 : 1024;
	uint32_t *slots = calloc(ncap, sizeof(*slots));
	uint64_t *hashes = calloc(ncap, sizeof(*hashes));

	if (!slots || !hashes) {
		free(slots);
		free(hashes);
		return -ENOMEM;
	}
	for (size_t i = 0; i < ix->cap; i++) {
		size_t j;

		if (!ix->slots[i])
			continue;
		for (j = ix->hashes[i] & (ncap - 1); slots[j]; j = (j + 1) & (ncap - 1))
			;
		slots[j] = ix->slots[i];
		hashes[j] = ix->hashes[i];
	}
	free(ix->slots);
	free(ix->hashes);
	ix->slots = slots;
	ix->hashes = hashes;
	ix->cap = ncap;
	return 0;
}

void sampo_hash_index__release(struct sampo_hash_index *ix)
{
	free(ix->slots);
	free(ix->hashes);
	memset(ix, 0, sizeof(*ix));
}

const char *sampo_strpool__intern(struct sampo_strpool *st, const char *s)
{
	uint64_t h = hash_mix64(hash_str(s));
	size_t j;

	if ((st->ix.nr + 1) * 2 > st->ix.cap && sampo_hash_index__grow(&st->ix))
		return NULL;
	for (j = h & (st->ix.cap - 1); st->ix.slots[j]; j = (j + 1) & (st->ix.cap - 1)) {
		if (st->ix.hashes[j] == h && !strcmp(st->strs[st->ix.slots[j] - 1], s))
			return st->strs[st->ix.slots[j] - 1];
	}
	if (sampo_array_grow((void **)&st->strs, &st->cap, st->nr + 1, sizeof(*st->strs)))
		return NULL;
	st->strs[st->nr] = strdup(s);
	if (!st->strs[st->nr])
		return NULL;
	st->nr++;
	st->ix.slots[j] = (uint32_t)st->nr;
	st->ix.hashes[j] = h;
	st->ix.nr++;
	return st->strs[st->nr - 1];
}

const uint8_t *sampo_strpool__intern_blob(struct sampo_strpool *st, const void *b, uint32_t len)
{
	uint64_t h = 1469598103934665603ULL;
	const uint8_t *p = b;
	char *copy;
	size_t j;

	for (uint32_t i = 0; i < len; i++)
		h = (h ^ p[i]) * 1099511628211ULL;
	h = hash_mix64(h ^ len);
	if ((st->ix.nr + 1) * 2 > st->ix.cap && sampo_hash_index__grow(&st->ix))
		return NULL;
	for (j = h & (st->ix.cap - 1); st->ix.slots[j]; j = (j + 1) & (st->ix.cap - 1)) {
		const uint8_t *o = (const uint8_t *)st->strs[st->ix.slots[j] - 1];

		if (st->ix.hashes[j] == h && sampo_blob__len(o) == len &&
		    (!len || !memcmp(sampo_blob__bytes(o), b, len)))
			return o;
	}
	if (sampo_array_grow((void **)&st->strs, &st->cap, st->nr + 1, sizeof(*st->strs)))
		return NULL;
	copy = malloc(sizeof(len) + (size_t)len);
	if (!copy)
		return NULL;
	memcpy(copy, &len, sizeof(len));
	if (len)
		memcpy(copy + sizeof(len), b, len);
	st->strs[st->nr++] = copy;
	st->ix.slots[j] = (uint32_t)st->nr;
	st->ix.hashes[j] = h;
	st->ix.nr++;
	return (const uint8_t *)copy;
}

void sampo_strpool__release(struct sampo_strpool *st)
{
	for (size_t i = 0; i < st->nr; i++)
		free(st->strs[i]);
	free(st->strs);
	sampo_hash_index__release(&st->ix);
}

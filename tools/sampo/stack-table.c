// SPDX-License-Identifier: GPL-2.0
/*
 * stack-table.c - folded stacks counted by distinct string (stack-table.h):
 * FNV-1a hashes, linear probing, the table kept at most half full.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "stack-table.h"

static uint64_t hash_str(const char *s, size_t len)
{
	uint64_t h = 0xcbf29ce484222325ULL; /* FNV-1a */

	for (size_t i = 0; i < len; i++) {
		h ^= (unsigned char)s[i];
		h *= 0x100000001b3ULL;
	}
	return h ^ (h >> 29);
}

static struct stack_key *slot(const struct stack_table *t, unsigned char *slots, size_t i)
{
	return (struct stack_key *)(void *)(slots + i * t->slot_size);
}

void stack_table__init(struct stack_table *t, size_t slot_size)
{
	*t = (struct stack_table){ .slot_size = slot_size };
}

static int grow(struct stack_table *t)
{
	size_t cap = t->cap ? 2 * t->cap : 1024;
	unsigned char *slots = calloc(cap, t->slot_size);

	if (!slots)
		return -ENOMEM;
	for (size_t i = 0; i < t->cap; i++) {
		const struct stack_key *k = slot(t, t->slots, i);
		size_t j;

		if (!k->key)
			continue;
		for (j = k->hash & (cap - 1); slot(t, slots, j)->key; j = (j + 1) & (cap - 1))
			;
		memcpy(slot(t, slots, j), k, t->slot_size);
	}
	free(t->slots);
	t->slots = slots;
	t->cap = cap;
	return 0;
}

void *stack_table__add(struct stack_table *t, const char *key, size_t len, bool *added)
{
	struct stack_key *k;
	uint64_t h;
	size_t j;

	*added = false;
	if ((t->nr + 1) * 2 > t->cap && grow(t))
		return NULL;
	h = hash_str(key, len);
	for (j = h & (t->cap - 1); (k = slot(t, t->slots, j))->key; j = (j + 1) & (t->cap - 1))
		if (k->hash == h && !strcmp(k->key, key))
			return k;
	k->key = strdup(key);
	if (!k->key)
		return NULL;
	k->hash = h;
	t->nr++;
	*added = true;
	return k;
}

static int cmp_key(const void *a, const void *b)
{
	const struct stack_key *x = *(const struct stack_key *const *)a;
	const struct stack_key *y = *(const struct stack_key *const *)b;

	return strcmp(x->key, y->key);
}

const void **stack_table__sorted(const struct stack_table *t)
{
	const void **v = malloc((t->nr ? t->nr : 1) * sizeof(*v));
	size_t n = 0;

	if (!v)
		return NULL;
	for (size_t i = 0; i < t->cap; i++)
		if (slot(t, t->slots, i)->key)
			v[n++] = slot(t, t->slots, i);
	qsort(v, n, sizeof(*v), cmp_key);
	return v;
}

void stack_table__release(struct stack_table *t)
{
	for (size_t i = 0; i < t->cap; i++)
		free(slot(t, t->slots, i)->key);
	free(t->slots);
	stack_table__init(t, t->slot_size);
}

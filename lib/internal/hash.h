/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * internal/hash.h - the library's one set of hash helpers: 64-bit mixing
 * and combining, the string hash, an open-addressing index over an array
 * of items, and a pool of interned strings built on it (lib/hash.c).
 *
 * The index holds no items: each slot keeps 1 + the position of an item
 * in the caller's array (0: empty) and the item's hash, probed linearly
 * from the hash. The caller grows it before an insert that would fill it
 * past half, compares items itself and fills the slot it stopped at:
 *
 *	if ((ix->nr + 1) * 2 > ix->cap && sampo_hash_index__grow(ix))
 *		return -ENOMEM;
 *	for (j = h & (ix->cap - 1); ix->slots[j]; j = (j + 1) & (ix->cap - 1))
 *		if (ix->hashes[j] == h && equal(&items[ix->slots[j] - 1], key))
 *			return found;
 *	ix->slots[j] = ++nr_items; ix->hashes[j] = h; ix->nr++;
 */
#ifndef SAMPO_INTERNAL_HASH_H
#define SAMPO_INTERNAL_HASH_H

#include <stddef.h>
#include <stdint.h>

/* the finalizer of MurmurHash3: every input bit changes about half the output bits */
static inline uint64_t hash_mix64(uint64_t z)
{
	z ^= z >> 33;
	z *= 0xff51afd7ed558ccdULL;
	z ^= z >> 33;
	z *= 0xc4ceb9fe1a85ec53ULL;
	z ^= z >> 33;
	return z;
}

/* boost's hash_combine(), mixed: a hash of a sequence of values */
static inline uint64_t hash_combine(uint64_t h, uint64_t v)
{
	return hash_mix64(h ^ (v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2)));
}

/*
 * FNV-1a of a NUL-terminated string. Its low bits are weak for strings
 * that differ only at the end: mix it (hash_mix64()) before masking when
 * the table is large.
 */
static inline uint64_t hash_str(const char *s)
{
	uint64_t h = 1469598103934665603ULL;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 1099511628211ULL;
	return h;
}

/* an open-addressing index (see above); all zero: empty, no memory */
struct sampo_hash_index {
	uint32_t *slots;
	uint64_t *hashes;
	size_t cap; /* power of two */
	size_t nr;
};

/* sampo_hash_index__grow() - double the slots (1024 at first): 0 or -ENOMEM, @ix unchanged */
int sampo_hash_index__grow(struct sampo_hash_index *ix);
/* sampo_hash_index__release() - free the slots; @ix is empty again */
void sampo_hash_index__release(struct sampo_hash_index *ix);

/* interned strings: one copy of each, equal strings at equal addresses */
struct sampo_strpool {
	struct sampo_hash_index ix;
	char **strs;
	size_t nr, cap;
};

/*
 * sampo_strpool__intern() - the pool's copy of @s, made on first sight;
 * valid until sampo_strpool__release(). NULL: out of memory.
 */
const char *sampo_strpool__intern(struct sampo_strpool *pool, const char *s);
void sampo_strpool__release(struct sampo_strpool *pool);

/*
 * sampo_strpool__intern_blob() - the same for @len bytes, which may hold
 * zeros: the copy is a u32 length, then the bytes (sampo_blob__len(),
 * sampo_blob__bytes()). A pool holds strings or blobs, not both.
 */
const uint8_t *sampo_strpool__intern_blob(struct sampo_strpool *pool, const void *b, uint32_t len);

static inline uint32_t sampo_blob__len(const uint8_t *blob)
{
	uint32_t len;

	__builtin_memcpy(&len, blob, sizeof(len));
	return len;
}

static inline const uint8_t *sampo_blob__bytes(const uint8_t *blob)
{
	return blob + sizeof(uint32_t);
}

#endif /* SAMPO_INTERNAL_HASH_H */

/* SPDX-License-Identifier: LGPL-2.1 */
/* util.h - small helpers shared by the library's files (not exported) */
#ifndef SAMPO_INTERNAL_UTIL_H
#define SAMPO_INTERNAL_UTIL_H

#include <byteswap.h>
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define SAMPO_PRINTF(a, b) __attribute__((format(printf, a, b)))
#define SAMPO_UNUSED __attribute__((unused))
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define ALIGN_UP(x, a) (((x) + (a)-1) & ~((__typeof__(x))(a)-1))
#define MIN(a, b) ((a) < (b) ? (a) : (b))
#define MAX(a, b) ((a) > (b) ? (a) : (b))

/* Loads that tolerate unaligned pointers (records are not always aligned). */
static inline uint64_t load_u64(const void *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static inline uint32_t load_u32(const void *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static inline uint16_t load_u16(const void *p)
{
	uint16_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static inline uint64_t load_u64_sw(const void *p, bool swap)
{
	uint64_t v = load_u64(p);

	return swap ? bswap_64(v) : v;
}

static inline uint32_t load_u32_sw(const void *p, bool swap)
{
	uint32_t v = load_u32(p);

	return swap ? bswap_32(v) : v;
}

static inline uint16_t load_u16_sw(const void *p, bool swap)
{
	uint16_t v = load_u16(p);

	return swap ? bswap_16(v) : v;
}

/* In place, for 8-byte aligned buffers whose size is a multiple of 8 (rest ignored). */
static inline void mem_bswap_64(void *buf, size_t size)
{
	uint64_t *p = buf;

	for (size_t i = 0; i < size / 8; i++)
		p[i] = bswap_64(p[i]);
}

#define BSWAP32_FIELD(x) ((x) = bswap_32(x))
#define BSWAP64_FIELD(x) ((x) = bswap_64(x))
#define BSWAP16_FIELD(x) ((x) = bswap_16(x))

/*
 * sampo_array_grow() - make room for @need elements of @elem bytes in the
 * array *@arr of *@cap, doubling (from 64): 0, or -ENOMEM with the array
 * untouched
 */
static inline int sampo_array_grow(void **arr, size_t *cap, size_t need, size_t elem)
{
	size_t ncap;
	void *n;

	if (need <= *cap)
		return 0;
	ncap = *cap ? *cap * 2 : 64;
	while (ncap < need)
		ncap *= 2;
	n = realloc(*arr, ncap * elem);
	if (!n)
		return -ENOMEM;
	*arr = n;
	*cap = ncap;
	return 0;
}

#endif

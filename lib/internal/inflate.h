/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * internal/inflate.h - the zstd stream of a file's COMPRESSED records (see
 * lib/inflate.c).
 */
#ifndef SAMPO_INTERNAL_INFLATE_H
#define SAMPO_INTERNAL_INFLATE_H

#include <stddef.h>
#include <stdint.h>

/*
 * The bounds on inflation (see lib/inflate.c and docs/hardening.md): real
 * recordings inflate 2 to 500 times (DWARF stacks are the most compressible
 * data perf writes); a chunk without a recorded buffer size may inflate to
 * 64 MiB.
 */
#define SAMPO_INFLATE_RATIO 1024U
#define SAMPO_INFLATE_SLACK (64U << 20)
#define SAMPO_INFLATE_DEFAULT_CAP (64U << 20)

/* Zero-initialized is ready; sampo_inflate__release() frees it. */
struct sampo_inflate {
	void *zstd;   /* ZSTD_DStream, created on the first chunk */
	uint8_t *buf; /* inflated bytes not yet handed out */
	size_t len, head, cap;
	uint64_t offset;     /* of the COMPRESSED record they came from */
	uint64_t record_cap; /* bytes one chunk may inflate to (0: the default cap) */
	uint64_t total_in, total_out; /* compressed bytes fed, inflated bytes produced */
};

/*
 * Inflate one COMPRESSED record's @len bytes of @data, found at @offset,
 * after the bytes not yet taken (a record cut between two chunks).
 * Return 0, or -ENOMEM or -SAMPO_ERR_DECOMPRESS with the reason in @why.
 */
int sampo_inflate__feed(struct sampo_inflate *inf, const void *data, size_t len, uint64_t offset,
			char *why, size_t why_sz);

/* Inflated bytes not yet taken, from sampo_inflate__next(). */
static inline size_t sampo_inflate__avail(const struct sampo_inflate *inf)
{
	return inf->len - inf->head;
}

/* The next inflated bytes; take @size of them with sampo_inflate__take(). */
static inline const uint8_t *sampo_inflate__next(const struct sampo_inflate *inf)
{
	return inf->buf + inf->head;
}

static inline void sampo_inflate__take(struct sampo_inflate *inf, size_t size)
{
	inf->head += size;
}

void sampo_inflate__release(struct sampo_inflate *inf);

#endif

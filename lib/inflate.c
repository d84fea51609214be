// SPDX-License-Identifier: LGPL-2.1
/*
 * inflate.c - the records inside COMPRESSED (and COMPRESSED2) records.
 *
 * perf writes one zstd stream per file and flushes it at the end of each
 * COMPRESSED record without ever ending the frame, so the records are one
 * stream across chunks: a record may start in one chunk and end in the next.
 * The inflated bytes wait in a buffer; the reader takes whole records from
 * its front, and what is left when the next chunk comes (a cut record) moves
 * to the front before the chunk is inflated after it.
 *
 * A chunk may inflate to at most MAX_INFLATE bytes: a hostile file cannot
 * make us allocate without bound (a real chunk inflates to about perf's
 * mmap size, 512 KiB by default).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <zstd.h>

#include <sampo/common.h>
#include "internal/inflate.h"
#include "internal/util.h"

#define MAX_INFLATE (64U << 20) /* bytes one COMPRESSED record may inflate to */
#define OUT_ROOM 65536		/* grow the buffer when less than this is free */

static int fail(char *why, size_t why_sz, int err, const char *fmt, ...) SAMPO_PRINTF(4, 5);
static int fail(char *why, size_t why_sz, int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, why_sz, fmt, ap);
	va_end(ap);
	return err;
}

int sampo_inflate__feed(struct sampo_inflate *d, const void *data, size_t len, uint64_t offset,
			char *why, size_t why_sz)
{
	ZSTD_inBuffer in = { data, len, 0 };
	size_t produced = 0;

	if (!d->zstd) {
		d->zstd = ZSTD_createDStream();
		if (!d->zstd || ZSTD_isError(ZSTD_initDStream(d->zstd)))
			return fail(why, why_sz, -ENOMEM, "cannot set up zstd decompression");
	}
	/* keep the unread tail (a record cut between chunks) at the front */
	if (d->head) {
		memmove(d->buf, d->buf + d->head, d->len - d->head);
		d->len -= d->head;
		d->head = 0;
	}
	while (in.pos < in.size) {
		ZSTD_outBuffer outb;
		size_t ret;

		if (d->cap - d->len < OUT_ROOM) {
			size_t ncap = d->cap ? d->cap * 2 : 1 << 20;
			uint8_t *nb;

			if (produced > MAX_INFLATE)
				return fail(why, why_sz, -SAMPO_ERR_DECOMPRESS,
						   "COMPRESSED record at offset %#" PRIx64
						   " inflates to more than %u bytes",
						   offset, MAX_INFLATE);
			nb = realloc(d->buf, ncap);
			if (!nb)
				return fail(why, why_sz, -ENOMEM, "out of memory inflating records");
			d->buf = nb;
			d->cap = ncap;
		}
		outb = (ZSTD_outBuffer){ d->buf + d->len, d->cap - d->len, 0 };
		ret = ZSTD_decompressStream(d->zstd, &outb, &in);
		if (ZSTD_isError(ret))
			return fail(why, why_sz, -SAMPO_ERR_DECOMPRESS,
					   "COMPRESSED record at offset %#" PRIx64 ": zstd: %s", offset,
					   ZSTD_getErrorName(ret));
		d->len += outb.pos;
		produced += outb.pos;
		if (outb.pos == 0 && in.pos < in.size && outb.size > 0 && ret == 0)
			break;
	}
	/* drain what zstd still holds */
	for (;;) {
		ZSTD_outBuffer outb;
		size_t ret;

		if (d->cap - d->len < OUT_ROOM)
			break;
		outb = (ZSTD_outBuffer){ d->buf + d->len, d->cap - d->len, 0 };
		ret = ZSTD_decompressStream(d->zstd, &outb, &in);
		if (ZSTD_isError(ret))
			return fail(why, why_sz, -SAMPO_ERR_DECOMPRESS,
					   "COMPRESSED record at offset %#" PRIx64 ": zstd: %s", offset,
					   ZSTD_getErrorName(ret));
		d->len += outb.pos;
		if (outb.pos == 0)
			break;
	}
	d->offset = offset;
	return 0;
}

void sampo_inflate__release(struct sampo_inflate *inf)
{
	if (inf->zstd)
		ZSTD_freeDStream(inf->zstd);
	free(inf->buf);
	memset(inf, 0, sizeof(*inf));
}

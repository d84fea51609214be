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
 * Two bounds keep a hostile file from asking for unbounded work and memory
 * (docs/hardening.md): a chunk inflates to at most the buffer size the file
 * records in its COMPRESSED feature (perf's mmap_len, 516 KiB by default:
 * perf sizes its own output buffer by it), and all chunks together to at
 * most SAMPO_INFLATE_RATIO times the compressed bytes read plus
 * SAMPO_INFLATE_SLACK (real recordings: 2 to 500).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <zstd.h>

#include <sampo/common.h>
#include "internal/inflate.h"
#include "internal/util.h"

#define OUT_ROOM 65536 /* grow the buffer when less than this is free */

static int fail(char *why, size_t why_sz, int err, const char *fmt, ...) SAMPO_PRINTF(4, 5);
static int fail(char *why, size_t why_sz, int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, why_sz, fmt, ap);
	va_end(ap);
	return err;
}

/* Check the bytes one record inflated to against both bounds. */
static int check_bounds(const struct sampo_inflate *d, uint64_t produced, uint64_t budget,
			uint64_t offset, char *why, size_t why_sz)
{
	uint64_t cap = d->record_cap ? d->record_cap : SAMPO_INFLATE_DEFAULT_CAP;

	if (produced > cap)
		return fail(why, why_sz, -SAMPO_ERR_DECOMPRESS,
			    "COMPRESSED record at offset %#" PRIx64 " inflates to more than %" PRIu64
			    " bytes, %s",
			    offset, cap,
			    d->record_cap ? "the buffer size the file records (COMPRESSED feature)" :
					    "the bound when the file records no buffer size");
	if (d->total_out + produced > budget)
		return fail(why, why_sz, -SAMPO_ERR_DECOMPRESS,
			    "COMPRESSED record at offset %#" PRIx64 ": the records inflate to more "
			    "than %" PRIu64 " bytes, %u times the %" PRIu64
			    " compressed bytes read plus %u MiB: not inflated",
			    offset, budget, SAMPO_INFLATE_RATIO, d->total_in,
			    SAMPO_INFLATE_SLACK >> 20);
	return 0;
}

int sampo_inflate__feed(struct sampo_inflate *d, const void *data, size_t len, uint64_t offset,
			char *why, size_t why_sz)
{
	ZSTD_inBuffer in = { data, len, 0 };
	uint64_t cap = d->record_cap ? d->record_cap : SAMPO_INFLATE_DEFAULT_CAP;
	uint64_t produced = 0, budget;
	bool draining = false;
	int err;

	if (!d->zstd) {
		d->zstd = ZSTD_createDStream();
		if (!d->zstd || ZSTD_isError(ZSTD_initDStream(d->zstd)))
			return fail(why, why_sz, -ENOMEM, "cannot set up zstd decompression");
	}
	d->total_in += len;
	budget = (uint64_t)SAMPO_INFLATE_RATIO * d->total_in + SAMPO_INFLATE_SLACK;
	/* keep the unread tail (a record cut between chunks) at the front */
	if (d->head) {
		memmove(d->buf, d->buf + d->head, d->len - d->head);
		d->len -= d->head;
		d->head = 0;
	}
	/*
	 * Inflate the chunk, then drain what zstd still holds. The output window
	 * never goes more than one byte past either bound, so a bomb is caught
	 * before its bytes are kept.
	 */
	for (;;) {
		ZSTD_outBuffer outb;
		uint64_t room = MIN(cap, budget - MIN(budget, d->total_out)) + 1 - produced;
		size_t ret;

		if (d->cap - d->len < OUT_ROOM && d->cap - d->len < room) {
			size_t ncap = d->cap ? d->cap * 2 : 1 << 20;
			uint8_t *nb = realloc(d->buf, ncap);

			if (!nb)
				return fail(why, why_sz, -ENOMEM, "out of memory inflating records");
			d->buf = nb;
			d->cap = ncap;
		}
		outb = (ZSTD_outBuffer){ d->buf + d->len, (size_t)MIN(d->cap - d->len, room), 0 };
		ret = ZSTD_decompressStream(d->zstd, &outb, &in);
		if (ZSTD_isError(ret))
			return fail(why, why_sz, -SAMPO_ERR_DECOMPRESS,
				    "COMPRESSED record at offset %#" PRIx64 ": zstd: %s", offset,
				    ZSTD_getErrorName(ret));
		d->len += outb.pos;
		produced += outb.pos;
		err = check_bounds(d, produced, budget, offset, why, why_sz);
		if (err)
			return err;
		if (in.pos < in.size) {
			if (outb.pos == 0 && outb.size > 0 && ret == 0)
				break;
			continue;
		}
		/* input consumed: drain until zstd gives nothing more */
		if (draining && outb.pos == 0)
			break;
		draining = true;
		if (outb.pos < outb.size)
			break;
	}
	d->total_out += produced;
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
